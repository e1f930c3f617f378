/// Marks a feature's state. On a struct it writes the ``BindableFields`` conformance from the
/// properties marked ``BindingState()``: the fields clients may set with a binding action.
/// A `Codable` struct also becomes ``StoreHostJSON/JSONWritable`` (and, when `Equatable`,
/// ``StoreHostJSON/JSONDiffable``), so a host encodes it in one pass and diffs it at the
/// cost of what changed, with the same JSON its `Codable` conformance gives.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @BindingState var title = ""  // {"binding": {"title": "Milk"}} is accepted
///   var isSaving = false          // a binding for it is rejected
/// }
/// ```
@attached(
  extension, conformances: BindableFields, JSONWritable, JSONDiffable,
  names: named(bindableFields), named(writeJSON), named(writeJSONPatch))
public macro ObservableState() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "ObservableStateMacro")

/// Declares a state field bindable: clients may set it with a binding action. Read by
/// ``ObservableState()``; expands to nothing.
@attached(peer)
public macro BindingState() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "MarkerMacro")
