/// Conforms a struct to ``Reducer``, marks its nested `enum Action` `@CasePathable`, and
/// builds its `body` with ``ReducerBuilder``.
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
@attached(memberAttribute)
@attached(extension, conformances: Reducer)
public macro Reducer() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "ReducerMacro")
