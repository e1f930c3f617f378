/// Why an action could not be decoded, and where in the action tree.
///
/// ```
/// todos.element.action: unknown case 'foo' of Todo.Action; valid cases: binding, toggle
/// ```
public struct ActionDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// A case name the action type does not have (or, for clients, does not accept).
    case unknownCase
    /// A case clients may not send.
    case internalCase
    /// A binding for a field that is not declared bindable.
    case nonBindableField
    /// Anything else: wrong JSON shape, wrong payload type, bytes that are not JSON.
    case malformed
  }

  /// What went wrong.
  public let kind: Kind
  /// Where: the keys leading to the offending action, as in `todos.element.action`.
  public let path: String
  /// Where and what went wrong, in one sentence: `path: what`.
  public let message: String

  /// An error of `kind` at `codingPath`; `message` says what went wrong, without the place.
  public init(_ kind: Kind, at codingPath: [any CodingKey], _ message: String) {
    self.kind = kind
    self.path = Self.render(codingPath)
    self.message = path.isEmpty ? message : "\(path): \(message)"
  }

  /// The error `error` describes: itself when it is one, or a `.malformed` error carrying a
  /// `DecodingError`'s path and explanation.
  public init(_ error: any Error) {
    switch error {
    case let error as ActionDecodingError:
      self = error
    case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
      let DecodingError.dataCorrupted(context):
      self.init(.malformed, at: context.codingPath, Self.sentence(context.debugDescription))
    case let DecodingError.keyNotFound(key, context):
      self.init(.malformed, at: context.codingPath, "missing key '\(key.stringValue)'")
    default:
      self.init(.malformed, at: [], Self.sentence(String(describing: error)))
    }
  }

  public var description: String { message }

  /// `todos.element.action`, with array positions as `[2]`.
  static func render(_ codingPath: [any CodingKey]) -> String {
    var path = ""
    for key in codingPath {
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return path
  }

  /// Foundation's explanations start with a capital and end with a period; ours don't.
  private static func sentence(_ text: String) -> String {
    guard let first = text.first else { return "invalid action" }
    let trimmed = text.hasSuffix(".") ? String(text.dropLast()) : text
    return first.lowercased() + trimmed.dropFirst()
  }
}
