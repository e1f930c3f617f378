/// Makes an enum ``CasePathable`` and `Codable` as externally tagged JSON.
///
/// ```swift
/// @CasePathable
/// enum Action {
///   case counter(Counter.Action)                     // {"counter": "incrementButtonTapped"}
///   case move(from: Int, to: Int)                    // {"move": {"from": 1, "to": 3}}
///   case refresh                                     // "refresh"
///   @Internal case response(Result<String, any Error>)  // clients may not send it
/// }
/// ```
///
/// Generates `AllCasePaths` (one ``AnyCasePath`` per case: `Void` without payload, the
/// value's type for one value, a tuple for several) and `allCasePaths`, so `\.counter` is a
/// ``CaseKeyPath``; `encode(to:)` and `init(from:)` unless the enum writes its own;
/// `jsonSchema(in:)` (see ``JSONSchemaDescribable``) from the cases and their payload types,
/// unless it writes both its own `encode(to:)` and `init(from:)`; with `init(from:)`,
/// `readJSON(from:)` (see ``JSONReadableAction``), which reads the same JSON straight from
/// a request's bytes; with `encode(to:)`, `writeJSON(to:)` (see `JSONWritable`), which
/// writes the same JSON without building a tree; and, for a `case binding(BindingAction<State>)`,
/// a fast `binding` accessor for ``BindableAction``. Payloads that are not `Codable` still
/// compile: they encode as their description and fail to decode. A nested `enum View` (a
/// ``ViewAction``'s) gets the same, so `\.view.binding.code` is a key path.
@attached(
  member, conformances: CasePathable, Encodable, Decodable, JSONSchemaDescribable, JSONReadableAction, JSONWritable,
  names: named(AllCasePaths), named(allCasePaths), named(_$casePayloadTypes), named(encode(to:)), named(init(from:)),
  named(jsonSchema(in:)), named(binding), named(readJSON(from:)), named(writeJSON(to:)))
@attached(
  extension, conformances: CasePathable, Encodable, Decodable, JSONSchemaDescribable, JSONReadableAction, JSONWritable)
@attached(memberAttribute)
public macro CasePathable() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "CasePathableMacro")

/// ``CasePathable()`` on the `enum View` nested in a `@CasePathable` action, which writes it.
@attached(
  member, conformances: CasePathable, Encodable, Decodable, JSONSchemaDescribable,
  names: named(AllCasePaths), named(allCasePaths), named(_$casePayloadTypes), named(encode(to:)), named(init(from:)),
  named(jsonSchema(in:)), named(binding))
@attached(extension, conformances: CasePathable, Encodable, Decodable, JSONSchemaDescribable)
public macro _CasePathableView() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "NestedCasePathableMacro")
