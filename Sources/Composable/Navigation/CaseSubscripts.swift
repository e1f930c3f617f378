extension PresentationState {
  /// The presented state when it is the case `casePath`: `state.$destination[case: /Destination.State.edit]`.
  /// Setting a value presents that case; setting `nil` dismisses the case if it is presented.
  public subscript<Case>(case casePath: AnyCasePath<State, Case>) -> Case? {
    get { wrappedValue.flatMap(casePath.extract(from:)) }
    set {
      if let newValue {
        wrappedValue = casePath.embed(newValue)
      } else if wrappedValue.flatMap(casePath.extract(from:)) != nil {
        wrappedValue = nil
      }
    }
  }

  /// The presented state when it is the case `keyPath`: `state.$destination[case: \.edit]`.
  public subscript<Case>(case keyPath: CaseKeyPath<State, Case>) -> Case? {
    get { self[case: AnyCasePath(keyPath)] }
    set { self[case: AnyCasePath(keyPath)] = newValue }
  }
}

extension StackState {
  /// The element pushed with `id` when it is the case `keyPath`: `$0.path[id: 0, case: \.detail]`.
  /// Setting a value replaces the element; setting `nil` pops it if it is that case.
  public subscript<Case>(id id: StackElementID, case keyPath: CaseKeyPath<Element, Case>) -> Case? {
    get { self[id: id, case: AnyCasePath(keyPath)] }
    set { self[id: id, case: AnyCasePath(keyPath)] = newValue }
  }

  /// The element pushed with `id` when it is the case `casePath`.
  public subscript<Case>(id id: StackElementID, case casePath: AnyCasePath<Element, Case>) -> Case? {
    get { self[id: id].flatMap(casePath.extract(from:)) }
    set {
      if let newValue {
        self[id: id] = casePath.embed(newValue)
      } else if self[id: id].flatMap(casePath.extract(from:)) != nil {
        self[id: id] = nil
      }
    }
  }
}
