/// The action of one element of a collection feature, carrying the element's id.
///
/// ```swift
/// enum Action {
///   case todos(IdentifiedActionOf<Todo>)
/// }
/// // ...
/// .forEach(\.todos, action: \.todos) { Todo() }
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  /// An action sent to the element identified by `id`.
  case element(id: ID, action: Action)
}

extension IdentifiedAction: Sendable where Action: Sendable {}
extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}

/// The ``IdentifiedAction`` of a reducer's elements, keyed by its state's id.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction: CasePathable {
  public struct AllCasePaths: Sendable {
    /// The `element(id:action:)` case.
    public var element: AnyCasePath<IdentifiedAction, (id: ID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: { if case let .element(id, action) = $0 { (id, action) } else { nil } }
      )
    }

    /// The actions of the one element identified by `id`: `\.todos[id: todo.id]`.
    public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          if case let .element(elementID, action) = $0, elementID == id { action } else { nil }
        }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
