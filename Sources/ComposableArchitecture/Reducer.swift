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

/// Marks a case of a `@Reducer enum` as state only, with no feature and no actions:
/// `@ReducerCaseIgnored case alert(AlertState<Alert>)`. Read by ``Reducer()``; expands to nothing.
@attached(peer)
public macro ReducerCaseIgnored() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "MarkerMacro")

/// Marks a case of a `@Reducer enum` as an alert or a dialog: plain state answered by its
/// actions, as ``Reducer()`` treats `AlertState` and `ConfirmationDialogState` cases anyway.
@attached(peer)
public macro ReducerCaseEphemeral() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "MarkerMacro")
