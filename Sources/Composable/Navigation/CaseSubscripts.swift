extension PresentationState {
  /// The presented state when it is the case `casePath`: `state.$destination[case: /Destination.State.edit]`.
  /// Setting a value presents that case; setting `nil` dismisses it. Changing the case while
  /// another is presented is an issue, and changes nothing.
  public subscript<Case>(case casePath: AnyCasePath<State, Case>) -> Case? {
    get { wrappedValue.flatMap(casePath.extract(from:)) }
    _modify {
      var value = self[case: casePath]
      yield &value
      writeCase(value, into: &wrappedValue, through: casePath)
    }
  }

  /// The presented state when it is the case `keyPath`: `state.$destination[case: \.edit]`.
  public subscript<Case>(case keyPath: CaseKeyPath<State, Case>) -> Case? {
    get { self[case: AnyCasePath(keyPath)] }
    _modify { yield &self[case: AnyCasePath(keyPath)] }
  }
}

extension StackState {
  /// The element pushed with `id` when it is the case `keyPath`: `$0.path[id: 0, case: \.detail]`.
  /// Setting a value replaces the element (or pushes it with `id`); setting `nil` pops it.
  /// Changing the case of an element of another case is an issue, and changes nothing.
  public subscript<Case>(id id: StackElementID, case keyPath: CaseKeyPath<Element, Case>) -> Case? {
    get { self[id: id, case: AnyCasePath(keyPath)] }
    _modify { yield &self[id: id, case: AnyCasePath(keyPath)] }
  }

  /// The element pushed with `id` when it is the case `casePath`: `$0.path[id: 0, case: /Path.State.detail]`.
  public subscript<Case>(id id: StackElementID, case casePath: AnyCasePath<Element, Case>) -> Case? {
    get { self[id: id].flatMap(casePath.extract(from:)) }
    _modify {
      var value = self[id: id, case: casePath]
      yield &value
      writeCase(value, into: &self[id: id], through: casePath)
    }
  }
}

/// Writes `newValue`, the case `casePath` of `root` as a case subscript's caller left it:
/// embedded, or `root` emptied for `nil`. When `root` holds another case, reports an issue
/// and leaves it as it is.
private func writeCase<Root, Case>(_ newValue: Case?, into root: inout Root?, through casePath: AnyCasePath<Root, Case>) {
  if let current = root, casePath.extract(from: current) == nil {
    reportIssue("Can't modify unrelated case\(enumCaseName(of: current).map { " \"\($0)\"" } ?? "")")
    return
  }
  root = newValue.map(casePath.embed)
}

/// The name of the case `value` holds, if it is an enum: `"edit"` for `.edit(EditFeature.State())`.
func enumCaseName(of value: Any) -> String? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  return mirror.children.first?.label ?? "\(value)"
}
