/// Marks a feature's state: makes it observable, and on a struct writes the
/// ``BindableFields`` conformance from the properties marked ``BindingState()``: the fields
/// clients may set with a binding action.
///
/// A struct's stored `var`s are observed: reading `state.count` inside
/// `withPerceptionTracking` registers the read, and the next change of `count` (in that
/// value or a copy of it) calls the `onChange`; assigning an equal value does not, and
/// changing a child state's property notifies the child's observers, not those of the
/// parent's property holding it. An enum state is observed by case: its identity is its
/// case's, with its payload's. Not observed: `let`s, computed properties, properties with
/// observers or a property wrapper (`@Presents`, `@Shared`), and those marked
/// ``ObservationStateIgnored()``. The struct gains `_$observationRegistrar`, which is no part
/// of the state: see ``ObservationStateRegistrar`` for what it costs. A `Codable` struct whose
/// coding the macro leaves to the compiler (see the warning it gives) is not observed, as
/// synthesized `Codable` would write its registrar and storage names.
///
/// A struct that declares `Codable` (or `Encodable`, `Decodable`) gets its coding from its
/// declaration:
/// - `encode(to:)` writing the JSON synthesized `Codable` writes, and
///   `StoreHostJSON/JSONWritable` (with `Equatable`, `StoreHostJSON/JSONDiffable`), so a
///   host encodes it in one pass and diffs it at the cost of what changed;
/// - `init(from:)` that reads a state saved before the struct changed: a missing member
///   leaves a property with a default value at its default (an optional at `nil`), members
///   of removed properties are ignored; anything else missing or mistyped still throws;
/// - ``JSONSchemaDescribable``: its schema from its properties and their types.
///
/// `CodingKeys` (with raw values), `encode(to:)` and `init(from:)` declared in the struct's
/// body are honoured. Declared in an extension, the macro cannot see them: they are
/// redeclarations of the generated ones, a compile error.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable, Codable {
///   @BindingState var title = ""  // {"binding": {"title": "Milk"}} is accepted
///   var isSaving = false          // a binding for it is rejected
///   var step = 1                  // added later: saved states without it get 1
/// }
/// ```
@attached(member, names: named(_$observationRegistrar), named(_$id), named(_$willModify))
@attached(memberAttribute)
@attached(
  extension, conformances: ObservableState, BindableFields, JSONWritable, JSONDiffable, JSONSchemaDescribable,
  names: named(bindableFields), named(CodingKeys), named(encode(to:)), named(init(from:)),
  named(writeJSON), named(writeJSONPatch), named(jsonSchema(in:)))
public macro ObservableState() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "ObservableStateMacro")

/// Declares a state field bindable: clients may set it with a binding action. Read by
/// ``ObservableState()``; expands to nothing.
@attached(peer)
public macro BindingState() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "MarkerMacro")

/// Put by ``ObservableState()`` on the properties it observes: the property's value moves to
/// `_name`, its reads are registered and its changes notify its observers.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro ObservationStateTracked() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "ObservationStateTrackedMacro")

/// Leaves a property of an ``ObservableState()`` struct unobserved: its changes notify no one.
@attached(peer)
public macro ObservationStateIgnored() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "MarkerMacro")
