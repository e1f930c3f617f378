import SwiftSyntax
import SwiftSyntaxMacros

/// `@Reducer` on a struct: conforms it to `Reducer`, marks its nested `enum Action` and
/// `enum State` `@CasePathable` (for `\.child` case key paths and the JSON coding of actions;
/// a `State` also `@dynamicMemberLookup`), and builds
/// `body` with `ReducerBuilder`, which a conformance added by a macro does not infer. It
/// writes the `State`, `Action` and `body` a struct leaves out (`missingReducerRequirements`).
///
/// On an enum of features (`case addContact(AddContactFeature)`): conforms it to
/// `CaseReducer` (a `Reducer`, so `StackActionOf<Path>` names its stack actions) and writes
/// its `State` and `Action` (a case per feature, `@CasePathable`, so `Codable` as tagged
/// JSON, and `@dynamicMemberLookup`, so `state.addContact` reads a case's state) and a
/// static `body` running the feature of the current case (unless the enum writes its own). A case of `AlertState<A>` or `ConfirmationDialogState<A>` is plain state whose
/// actions are `A`.
public struct ReducerMacro: ExtensionMacro, MemberAttributeMacro, MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    if declaration.is(EnumDeclSyntax.self) {
      return [try ExtensionDeclSyntax("extension \(type.trimmed): CaseReducer, Reducer {}")]
    }
    guard declaration.is(StructDeclSyntax.self) else {
      throw MacroError("@Reducer applies to structs and to enums of features")
    }
    // A type nested in another may be offered the conformance it declares itself.
    let declared = declaration.inheritanceClause?.inheritedTypes.contains {
      ["Reducer", "ComposableArchitecture.Reducer"].contains($0.type.trimmedDescription)
    }
    guard !protocols.isEmpty, declared != true else { return [] }
    return [try ExtensionDeclSyntax("extension \(type.trimmed): Reducer {}")]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    var attributes: [AttributeSyntax] = []
    if let type = member.asProtocol(DeclGroupSyntax.self), let name = member.asProtocol(NamedDeclSyntax.self)?.name.text,
      ["State", "Action"].contains(name), type.accessPrefix(in: context) == "public " || type.accessPrefix(in: context) == "package ",
      !type.attributes.contains(named: "_StoreSendable")
    {
      attributes.append("@_StoreSendable")
    }
    if let nested = member.as(EnumDeclSyntax.self) {
      return attributes + enumAttributes(for: nested)
    }
    if !attributes.isEmpty { return attributes }
    if let body = member.as(VariableDeclSyntax.self),
      body.bindings.first?.pattern.trimmedDescription == "body",
      body.bindings.first?.accessorBlock != nil,
      !body.attributes.contains(named: "ReducerBuilder")
    {
      return ["@ReducerBuilder<Self.State, Self.Action>"]
    }
    return []
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      return missingReducerRequirements(of: structDecl, in: context)
    }
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else { return [] }
    let access = declaration.accessPrefix(in: context)
    // Visible outside the module, they are not inferred `Sendable`; declared so, as a
    // feature's are (`StoreSendableMacro`).
    let isVisible = access == "public " || access == "package "
    let ignored = Set(
      enumDecl.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }
        .filter { $0.attributes.contains(named: "ReducerCaseIgnored") }
        .flatMap { $0.elements.map(\.name.text) })
    let cases = EnumCase.all(of: enumDecl).map { FeatureCase($0, isIgnored: ignored.contains($0.name)) }
    let stateCases = cases.map { "  \($0.stateCase)" }.joined(separator: "\n")
    // A state-only case has no actions, so no case here.
    let actionCases = cases.filter { !$0.isStateOnly }.map { "  case \($0.name)(\($0.actionType))" }
      .joined(separator: "\n")
    let declaresAction = declaresType(named: "Action", in: enumDecl)
    // Switched on the action alone: a feature without actions makes its case uninhabited,
    // which a switch on (state, action) would not see as covered.
    let reducing = cases.filter(\.isFeature).map { feature in
      """
          case let .\(feature.name)(childAction):
            guard case var .\(feature.name)(childState) = state else { return .none }
            let effect = \(feature.reducer).reduce(into: &childState, action: childAction)
            state = .\(feature.name)(childState)
            return effect.map { .\(feature.name)($0) }
      """
    }.joined(separator: "\n")
    let hasOtherActions = declaresAction || cases.contains { !$0.isStateOnly && !$0.isFeature }
    let body =
      reducing.isEmpty
      ? "Reduce { _, _ in .none }"
      : """
      Reduce { state, action in
          switch action {
      \(reducing)\(hasOtherActions ? "\n    default:\n      return .none" : "")
          }
        }
      """
    let state: DeclSyntax = """
      @CasePathable @dynamicMemberLookup
      \(raw: access)enum State: CaseReducerState\(raw: isVisible ? ", @unchecked Sendable" : "") {
        \(raw: access)typealias StateReducer = \(raw: enumDecl.name.text)
      \(raw: stateCases)
      }
      """
    let action: DeclSyntax = """
      @CasePathable @dynamicMemberLookup
      \(raw: access)enum Action\(raw: isVisible ? ": @unchecked Sendable" : "") {
      \(raw: actionCases)
      }
      """
    // An enum that writes its own `State` or `Action` (an alert's actions named apart) keeps it.
    return (declaresType(named: "State", in: enumDecl) ? [] : [state]) + (declaresAction ? [] : [action])
      + (declaresStaticBody(enumDecl) ? [] : [
      """
      \(raw: access)static var body: Reduce<State, Action> {
        \(raw: body)
      }
      """,
    ])
  }
}

/// What a struct's nested `enum State` or `enum Action` lacks of `@CasePathable` (both) and
/// `@dynamicMemberLookup` (`State`, so `state.child1` reads a case's state).
private func enumAttributes(for nested: EnumDeclSyntax) -> [AttributeSyntax] {
  let wanted: [String] =
    switch nested.name.text {
    case "State": ["CasePathable", "dynamicMemberLookup"]
    case "Action": ["CasePathable"]
    default: []
    }
  let inherited = nested.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
  return
    wanted
    .filter { !nested.attributes.contains(named: $0) && !inherited.contains($0) && !inherited.contains("CasePaths.\($0)") }
    .map { AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier($0))) }
}

/// Whether the enum writes its own `static var body`, to run more than its cases' features.
private func declaresStaticBody(_ enumDecl: EnumDeclSyntax) -> Bool {
  enumDecl.memberBlock.members.contains { member in
    guard let variable = member.decl.as(VariableDeclSyntax.self) else { return false }
    return variable.isStatic && variable.bindings.first?.pattern.trimmedDescription == "body"
  }
}

/// Whether the enum declares a member type `name` of its own.
private func declaresType(named name: String, in enumDecl: EnumDeclSyntax) -> Bool {
  enumDecl.memberBlock.members.contains { $0.decl.asProtocol(NamedDeclSyntax.self)?.name.text == name }
}

/// A case of a `@Reducer enum`: a feature, alert-like plain state, or state only.
private struct FeatureCase {
  let name: String
  /// The payload as written: `AddContactFeature`, `AlertState<Action.Alert>`, or for a
  /// state-only case its values, `Meeting, syncUp: SyncUp`.
  let payload: String
  /// The actions of plain state (`AlertState<A>`: `A`; `Swift.Never` for a state-only
  /// case, which has no action case); `nil` for a feature.
  let plainStateAction: String?
  /// Marked `@ReducerCaseIgnored`, or not one unlabeled value: state with no actions.
  let isStateOnly: Bool
  /// The feature's reducer: the payload's default value (`case feature(Feature =
  /// Feature(context: "x"))`), or the payload made with `init()`.
  let reducer: String

  init(_ enumCase: EnumCase, isIgnored: Bool) {
    name = enumCase.name
    reducer = enumCase.parameters.first?.defaultValue ?? "\(enumCase.parameters.first?.type ?? "")()"
    isStateOnly = isIgnored || enumCase.parameters.count != 1 || enumCase.parameters[0].label != nil
    if isStateOnly {
      payload = enumCase.parameters.map { ($0.label.map { "\($0): " } ?? "") + $0.type }.joined(separator: ", ")
      plainStateAction = "Swift.Never"
      return
    }
    payload = enumCase.parameters[0].type
    plainStateAction = ["AlertState<", "ConfirmationDialogState<"].lazy.compactMap { [payload] prefix in
      payload.hasPrefix(prefix) && payload.hasSuffix(">") ? String(payload.dropFirst(prefix.count).dropLast()) : nil
    }.first
  }

  var isFeature: Bool { plainStateAction == nil }
  var stateCase: String {
    if isStateOnly { return payload.isEmpty ? "case \(name)" : "case \(name)(\(payload))" }
    return "case \(name)(\(isFeature ? "\(payload).State" : payload))"
  }
  var actionType: String { plainStateAction ?? "\(payload).Action" }
}
