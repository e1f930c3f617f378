extension Reducer {
  /// Runs `element` on each element of a collection of child states, for the actions of
  /// that element, before this reducer. The effects of an element are cancelled when this
  /// reducer removes it.
  ///
  /// ```swift
  /// Reduce { state, action in ... }
  ///   .forEach(\.todos, action: \.todos) { Todo() }
  /// ```
  public func forEach<ElementState, ElementAction, ElementID: Hashable & Sendable, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementID, ElementState>> & Sendable,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ElementID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    forEach(toElements, action: AnyCasePath(toElementAction), element: element, fileID: fileID, line: line)
  }

  /// ``forEach(_:action:element:fileID:line:)`` with a hand-written case path.
  public func forEach<ElementState, ElementAction, ElementID: Hashable & Sendable, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementID, ElementState>> & Sendable,
    action toElementAction: AnyCasePath<Action, IdentifiedAction<ElementID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ElementID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    _ForEachReducer(
      parent: Reduce(self), element: Reduce(child: element()), toElements: toElements,
      toElementAction: toElementAction, fileID: fileID, line: line)
  }
}

extension Reducer {
  /// ``forEach(_:action:element:fileID:line:)`` with a case path to a case holding an
  /// element's id and action: `.forEach(\.todos, action: /Action.todo) { Todo() }` for
  /// `case todo(id: Todo.State.ID, action: Todo.Action)`.
  public func forEach<ElementState, ElementAction, ElementID: Hashable & Sendable, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementID, ElementState>> & Sendable,
    action toElementAction: AnyCasePath<Action, (ElementID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _ForEachReducer<Self, ElementID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    let toIdentifiedAction = AnyCasePath<Action, IdentifiedAction<ElementID, ElementAction>>(
      embed: { identified in
        switch identified {
        case let .element(id, action): toElementAction.embed((id, action))
        }
      },
      extract: { action in
        toElementAction.extract(from: action).map { IdentifiedAction.element(id: $0.0, action: $0.1) }
      })
    return forEach(toElements, action: toIdentifiedAction, element: element, fileID: fileID, line: line)
  }
}

/// The reducer built by ``Reducer/forEach(_:action:element:fileID:line:)``.
public struct _ForEachReducer<Parent: Reducer, ElementID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Reduce<Parent.State, Parent.Action>
  let element: Reduce<Element.State, Element.Action>
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ElementID, Element.State>> & Sendable
  let toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ElementID, Element.Action>>
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var elementEffects = Effect<Parent.Action>.none
    if case let .element(id, elementAction)? = toElementAction.extract(from: action) {
      if state[keyPath: toElements][id: id] != nil {
        let toElementAction = self.toElementAction
        elementEffects = element.reduce(into: &state[keyPath: toElements][id: id]!, action: elementAction)
          .map { toElementAction.embed(.element(id: id, action: $0)) }
          .cancellable(id: ChildEffectsID(stateKeyPath: toElements, elementID: id))
      } else {
        reportIssue(
          """
          A "forEach" at "\(fileID):\(line)" received an action for a missing element (id: \(id)): \
          \(elementAction)

          Make sure an element's effects end, or are cancelled, when it is removed.
          """, fileID: fileID, line: line)
      }
    }
    let before = state[keyPath: toElements]
    let parentEffects = parent.reduce(into: &state, action: action)
    let after = state[keyPath: toElements]
    // Most actions remove no element: then nothing is looked up.
    guard after.removals != before.removals else { return .merge(elementEffects, parentEffects) }
    let removals = Effect<Parent.Action>.merge(
      before.ids.lazy.filter { after.index(id: $0) == nil }.map {
        .cancel(id: ChildEffectsID(stateKeyPath: toElements, elementID: $0))
      })
    return .merge(elementEffects, parentEffects, removals)
  }
}
