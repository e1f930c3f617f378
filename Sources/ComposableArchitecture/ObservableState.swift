/// Marks a feature's state. On a struct it writes the ``BindableFields`` conformance from the
/// properties marked ``BindingState()``: the fields clients may set with a binding action.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @BindingState var title = ""  // {"binding": {"title": "Milk"}} is accepted
///   var isSaving = false          // a binding for it is rejected
/// }
/// ```
@attached(extension, conformances: BindableFields, names: named(bindableFields))
public macro ObservableState() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "ObservableStateMacro")

/// Declares a state field bindable: clients may set it with a binding action. Read by
/// ``ObservableState()``; expands to nothing.
@attached(peer)
public macro BindingState() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "MarkerMacro")
