import StoreHostJSON

/// An action's path of case names, from the root action in: `counter.incrementButtonTapped`
/// for `.counter(.incrementButtonTapped)`, `numberFact.factResponse` for
/// `.numberFact(.factResponse("…"))`. Names come from the enum cases, which are also the
/// members of the action's JSON.
enum ActionPath {
  /// The path of `action`: down through each case's payload while it is an enum; a case
  /// without payload ends it with its own name.
  static func of(_ action: Any) -> String {
    var names: [String] = []
    var value = action
    while Mirror(reflecting: value).displayStyle == .enum {
      guard let child = Mirror(reflecting: value).children.first, let label = child.label else {
        names.append(String(describing: value))
        break
      }
      names.append(label)
      value = child.value
    }
    return names.joined(separator: ".")
  }

  /// The path of an action's JSON that this build cannot decode: the members of nested
  /// objects of one member each.
  static func of(json: JSONValue) -> String {
    var names: [String] = []
    var value = json
    while case .object(let members) = value, members.count == 1, let (name, inner) = members.first {
      names.append(name)
      value = inner
    }
    if case .string(let name) = value { names.append(name) }
    return names.joined(separator: ".")
  }

  /// Whether `allowed` names `path` or one of its enclosing cases (`counter` allows
  /// `counter.incrementButtonTapped`).
  static func path(_ path: String, isAllowedBy allowed: some Sequence<String>) -> Bool {
    allowed.contains { path == $0 || path.hasPrefix($0 + ".") }
  }
}
