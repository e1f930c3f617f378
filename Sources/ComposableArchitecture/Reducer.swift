/// Conforms a struct to ``Reducer``, marks its nested `enum Action` `@CasePathable`, and
/// builds its `body` with ``ReducerBuilder``. On an enum of features it writes a
/// ``CaseReducer``: `State`, `Action` and `body` with a case per feature (see below).
///
/// ```swift
/// @Reducer
/// struct Counter {
///   @ObservableState
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///   var body: some Reducer<State, Action> { ... }
/// }
/// ```
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case addContact(AddContactFeature)
///   case alert(AlertState<ContactsFeature.Action.Alert>)
/// }
/// // .ifLet(\.$destination, action: \.destination)
/// ```
@attached(memberAttribute)
@attached(member, names: named(State), named(Action), named(body))
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "ReducerMacro")

/// Declares a `public` feature's `State` or `Action` `Sendable`, as an internal one is
/// inferred: `@Reducer` adds it, so public features need no more than TCA asks.
@attached(extension, conformances: Sendable)
public macro _StoreSendable() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "StoreSendableMacro")
