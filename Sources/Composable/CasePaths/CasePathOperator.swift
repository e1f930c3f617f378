prefix operator /

/// The case path of an enum case, from the case itself: `/Action.child`, the spelling of
/// scopes written before case key paths (`Scope(state: \.child, action: /Action.child)`).
///
/// Extraction reads the case's name and payload by reflection, so it is slower than a
/// case key path (`\.child`), which new code uses.
public prefix func / <Root, Value>(
  embed: @escaping @Sendable (Value) -> Root
) -> AnyCasePath<Root, Value> {
  AnyCasePath(embed: embed) { root in
    guard let (name, payload) = EnumReflection.caseAndPayload(of: root),
      let value = payload as? Value,
      EnumReflection.caseName(of: embed(value)) == name
    else { return nil }
    return value
  }
}

/// The case path of a case without a payload: `/Action.tapped`.
public prefix func / <Root: Equatable & Sendable>(case: Root) -> AnyCasePath<Root, Void> {
  AnyCasePath(embed: { `case` }) { $0 == `case` ? () : nil }
}

/// The identity case path of a type: `/Action.self`.
public prefix func / <Root>(type: Root.Type) -> AnyCasePath<Root, Root> {
  AnyCasePath(embed: { $0 }, extract: { $0 })
}

extension AnyCasePath {
  /// Changes the payload of `root` in place when it is this case; throws otherwise:
  /// `try (/State.child).modify(&state) { $0.count += 1 }`.
  public func modify<Result>(_ root: inout Root, _ body: (inout Value) throws -> Result) throws -> Result {
    guard var value = extract(from: root) else { throw ExtractionFailed(root: "\(Root.self)") }
    let result = try body(&value)
    root = embed(value)
    return result
  }
}

/// The error of ``AnyCasePath/modify(_:_:)`` when the value is another case.
public struct ExtractionFailed: Error, CustomStringConvertible {
  let root: String
  public var description: String { "The \(root) value is not the expected case." }
}

/// Names and payloads of enum values, through `Mirror`.
enum EnumReflection {
  /// The case's name and its payload (a tuple when it has several), looking through
  /// optionals; `nil` for a value that is not an enum case with a payload.
  static func caseAndPayload(of value: Any) -> (String, Any)? {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.flatMap { caseAndPayload(of: $0.value) }
    case .enum:
      guard let child = mirror.children.first, let label = child.label else { return nil }
      return (label, child.value)
    default:
      return nil
    }
  }

  /// The name of the case of `value`, looking through optionals.
  static func caseName(of value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.flatMap { caseName(of: $0.value) }
    case .enum:
      return mirror.children.first?.label ?? "\(value)"
    default:
      return nil
    }
  }
}
