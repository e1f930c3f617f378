import SwiftSyntax
import SwiftSyntaxMacros

/// Which properties of an `@ObservableState` struct are observed, and what is generated
/// for them. Shared by the macros that mark, rewrite and code them, so that all agree.
enum ObservationTracking {
  static let registrar = "_$observationRegistrar"
  /// Attributes a tracked property may carry: markers that expand to nothing, and the
  /// attribute that tracks it, written or added by `@ObservableState`.
  static let markers = ["BindingState", "ObservationStateTracked"]

  /// Whether `variable` is a stored instance `var` that `@ObservableState` observes: a
  /// single named binding, no accessors or observers, no property wrapper, not marked
  /// `@ObservationStateIgnored`, not `lazy` or `static`. Its value moves to `_name`.
  static func isTracked(_ variable: VariableDeclSyntax) -> Bool {
    guard variable.bindingSpecifier.tokenKind == .keyword(.var),
      !variable.modifiers.contains(where: {
        [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
      }),
      variable.bindings.count == 1, let binding = variable.bindings.first,
      binding.accessorBlock == nil,
      binding.typeAnnotation != nil || binding.initializer != nil,
      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      !name.hasPrefix("_$")
    else { return false }
    return variable.attributes.allSatisfy { element in
      guard let attribute = element.as(AttributeSyntax.self) else { return false }
      return markers.contains(where: attribute.isNamed)
    }
  }

  /// Whether `declaration` is a `Codable` struct whose coding is left to synthesized
  /// `Codable` (a member the macro cannot see the coding of): its stored properties are its
  /// JSON members, so none may move to `_name` and no registrar may be added. It is not
  /// observed.
  static func leavesCodingToSwift(_ declaration: some DeclGroupSyntax) -> Bool {
    do {
      _ = try StateCoding(of: declaration, missing: [])
      return false
    } catch is UnsupportedMember {
      return true
    } catch {
      return false
    }
  }

  /// The name of a tracked property's storage: `_count` for `count`, `_default` for
  /// `` `default` ``.
  static func storage(of name: String) -> String { "_" + unescaped(name) }

  /// The binding of `declaration` when it is a property `@ObservableState` observes.
  static func trackedBinding(of declaration: some DeclSyntaxProtocol) -> PatternBindingSyntax? {
    guard let variable = declaration.as(VariableDeclSyntax.self), isTracked(variable) else { return nil }
    return variable.bindings.first
  }
}

/// `@ObservationStateTracked`, which `@ObservableState` puts on the properties it observes:
/// the property becomes computed over `_name`, its reads are registered and its changes
/// notify the observers of its value's registrar.
public struct ObservationStateTrackedMacro: AccessorMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let name = ObservationTracking.trackedBinding(of: declaration)?.pattern.trimmedDescription else { return [] }
    let storage = ObservationTracking.storage(of: name)
    let registrar = ObservationTracking.registrar
    // A read outside `withPerceptionTracking` is a plain load: no key path is formed (one of
    // a generic state may be allocated). Until the value was read under observation no one
    // can hear of a change: it is then a plain store, with no copy of the member or of `self`.
    // A change in place notifies when the member is no longer the same value: a child state
    // replaced, or anything without identity (`count += 1`), without comparing values.
    return [
      """
      @storageRestrictions(initializes: \(raw: storage))
      init(initialValue) {
        \(raw: storage) = initialValue
      }
      """,
      """
      get {
        if \(raw: registrar).isTracking {
          \(raw: registrar).access(self, keyPath: \\.\(raw: name))
        }
        return \(raw: storage)
      }
      """,
      """
      set {
        if \(raw: registrar).isObserved {
          \(raw: registrar).mutate(self, keyPath: \\.\(raw: name), &\(raw: storage), newValue, _$isIdentityEqual, _$shouldNotifyObservers)
        } else {
          \(raw: storage) = newValue
        }
      }
      """,
      """
      _modify {
        guard \(raw: registrar).isObserved else {
          yield &\(raw: storage)
          return
        }
        let oldValue = \(raw: registrar).willModify(self, keyPath: \\.\(raw: name), &\(raw: storage))
        defer {
          \(raw: registrar).didModify(self, keyPath: \\.\(raw: name), &\(raw: storage), oldValue, _$isIdentityEqual)
        }
        yield &\(raw: storage)
      }
      """,
    ]
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let binding = ObservationTracking.trackedBinding(of: declaration) else { return [] }
    let storage = ObservationTracking.storage(of: binding.pattern.trimmedDescription)
    let type = binding.typeAnnotation.map { ": " + $0.type.trimmedDescription } ?? ""
    let initializer = binding.initializer.map { " = " + $0.value.trimmedDescription } ?? ""
    return ["@ObservationStateIgnored private var \(raw: storage)\(raw: type)\(raw: initializer)"]
  }
}
