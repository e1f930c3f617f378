/// An action by its case names alone, payload values left out: `.child(.loaded)`, as TCA
/// lists unhandled actions. Labeled payloads keep their labels (`.move(from:, to:)`).
func debugCaseOutput(_ value: Any) -> String {
  if let value = value as? any CustomDebugStringConvertible { return value.debugDescription }
  return caseNames(value)
}

/// The case names in `value`: an enum's case and those of its payload, a tuple's labels.
private func caseNames(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum:
    guard let child = mirror.children.first else {
      let name = "\(value)"
      return name == typeName(type(of: value)) ? "" : "." + name
    }
    let payload = caseNames(child.value)
    return "." + (child.label ?? "") + (payload.isEmpty ? "" : "(\(payload))")
  case .tuple:
    return mirror.children.map { label, value in
      let names = caseNames(value)
      let isUnlabeled = label.map { $0.allSatisfy { $0 == "." || $0.isNumber } } ?? false
      let head = label.map { isUnlabeled ? "_:" : "\($0):" } ?? ""
      return head + (names.isEmpty ? "" : " " + names)
    }
    .joined(separator: ", ")
  default:
    return ""
  }
}
