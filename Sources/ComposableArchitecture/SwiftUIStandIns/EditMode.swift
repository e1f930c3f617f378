#if !canImport(SwiftUI)
  /// Where SwiftUI is missing, a list's edit mode kept in a feature's state, as TCA's Todos
  /// does (`var editMode: EditMode = .inactive`). In JSON: `"inactive"`, `"transient"`,
  /// `"active"`, so a page binds to it like any field.
  public enum EditMode: String, Hashable, Sendable, Codable {
    case inactive
    case transient
    case active

    /// Whether the list is being edited.
    public var isEditing: Bool { self != .inactive }
  }
#endif
