import SwiftSyntax

/// A stored property of a state struct, as its coding sees it.
struct StoredProperty {
  /// The name as written, backticks included.
  let name: String
  /// What coding reads and writes: the property itself (a `let`), or `_name`: the storage
  /// of a property `@ObservableState` observes, or of a property wrapper (`@Shared`,
  /// `@Presents`), whose own `Codable` conformance is used.
  let storage: String
  /// Whether the property has a value before an initializer runs: an initial value, a
  /// wrapper's arguments (`@Shared(.board)`), or `nil` for an optional `var` or `@Presents`.
  let hasDefault: Bool
  let isLet: Bool

  /// The name in JSON when `CodingKeys` does not rename it.
  var jsonName: String { unescaped(name) }

  /// Whether decoding sets it: not a `let` with an initial value, which synthesized
  /// `Codable` encodes but never decodes.
  var isDecoded: Bool { !(isLet && hasDefault) }

  /// Wrappers whose storage synthesized `Codable` encodes under the property's name.
  static let knownWrappers = ["Shared", "SharedReader", "Presents", "PresentationState"]
  /// Attributes that change nothing in the coding.
  static let markers = ["BindingState", "ObservationStateIgnored", "ObservationStateTracked"]
}

/// Why the coding of a struct cannot be known from its declaration, and where.
struct UnsupportedMember: Error {
  let node: Syntax
  let reason: String
}

extension StoredProperty {
  /// The stored instance properties of `declaration`, in order.
  /// - Throws: ``UnsupportedMember`` for a member whose coding this code cannot see: one
  ///   under `#if`, a `lazy` or tuple-pattern property, or an attribute it does not know.
  static func all(of declaration: some DeclGroupSyntax) throws(UnsupportedMember) -> [StoredProperty] {
    var properties: [StoredProperty] = []
    for member in declaration.memberBlock.members {
      if member.decl.is(IfConfigDeclSyntax.self) {
        throw UnsupportedMember(node: Syntax(member.decl), reason: "members under '#if'")
      }
      guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
      if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) {
        continue
      }
      if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
        throw UnsupportedMember(node: Syntax(variable), reason: "a 'lazy' property")
      }
      let wrapper = try Self.wrapper(of: variable)
      for binding in variable.bindings {
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
          throw UnsupportedMember(node: Syntax(binding.pattern), reason: "a property declared with a tuple pattern")
        }
        if let accessors = binding.accessorBlock, try isComputed(accessors) { continue }
        // `_$observationRegistrar`, and any other `_$` member: observation, not state.
        if identifier.hasPrefix("_$") { continue }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        // A `var` of optional type starts at `nil`, and so does a `@Presents` wrapping one.
        let type = binding.typeAnnotation?.type
        let isOptional =
          type?.is(OptionalTypeSyntax.self) == true || type?.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) == true
          || type?.trimmedDescription.hasPrefix("Optional<") == true
        let wrapsPresentation = wrapper.map { ["Presents", "PresentationState"].contains(where: $0.isNamed) }
        let startsAtNil = !isLet && isOptional && (wrapsPresentation ?? true)
        let hasDefault = binding.initializer != nil || wrapper?.arguments != nil || startsAtNil
        properties.append(
          StoredProperty(
            name: identifier,
            storage: wrapper != nil || ObservationTracking.isTracked(variable)
              ? ObservationTracking.storage(of: identifier) : identifier,
            hasDefault: hasDefault, isLet: isLet))
      }
    }
    return properties
  }

  /// The property wrapper among `variable`'s attributes, if any.
  private static func wrapper(of variable: VariableDeclSyntax) throws(UnsupportedMember) -> AttributeSyntax? {
    var wrapper: AttributeSyntax?
    for element in variable.attributes {
      guard let attribute = element.as(AttributeSyntax.self) else {
        throw UnsupportedMember(node: Syntax(element), reason: "an attribute under '#if'")
      }
      if markers.contains(where: attribute.isNamed) { continue }
      guard wrapper == nil, knownWrappers.contains(where: attribute.isNamed) else {
        throw UnsupportedMember(node: Syntax(attribute), reason: "the attribute '\(attribute.attributeName.trimmedDescription)'")
      }
      wrapper = attribute
    }
    return wrapper
  }

  /// Whether accessors make a property computed (a getter, rather than only observers).
  private static func isComputed(_ accessors: AccessorBlockSyntax) throws(UnsupportedMember) -> Bool {
    switch accessors.accessors {
    case .getter: return true
    case .accessors(let list):
      return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    @unknown default:
      throw UnsupportedMember(node: Syntax(accessors), reason: "accessors of an unknown kind")
    }
  }
}

extension AttributeSyntax {
  /// Whether the attribute is `@name` or `@Module.name`.
  func isNamed(_ name: String) -> Bool {
    let written = attributeName.trimmedDescription
    return written == name || written.hasSuffix(".\(name)")
  }
}
