import SwiftSyntax

/// What `@ObservableState` generates for a `Codable` struct, read from its declaration.
struct StateCoding {
  private let isEquatable: Bool
  private let generatesEncode: Bool
  private let generatesDecode: Bool
  private let declaresSchema: Bool
  private let declaresCodingKeys: Bool
  /// The conformances the type lacks, of those the macro can add.
  private let missing: Set<String>
  private let stored: [StoredProperty]
  private let coded: [CodedProperty]

  /// The coding of `declaration`, or `nil` when it declares no `Codable` conformance.
  /// - Throws: ``UnsupportedMember`` when its coding cannot be known from its declaration;
  ///   ``MacroError`` when its `CodingKeys` disagree with its properties.
  init?(of declaration: some DeclGroupSyntax, missing: Set<String>) throws {
    let isEncodable = declaration.inherits("Codable") || declaration.inherits("Encodable")
    let isDecodable = declaration.inherits("Codable") || declaration.inherits("Decodable")
    guard isEncodable || isDecodable else { return nil }
    isEquatable = declaration.inherits("Equatable") || declaration.inherits("Hashable")
    let customEncode = declaration.declares("encode(to:)")
    let customDecode = declaration.declares("init(from:)")
    generatesEncode = isEncodable && !customEncode
    generatesDecode = isDecodable && !customDecode
    declaresSchema = declaration.declares("jsonSchema(in:)")
    self.missing = missing
    let keys = DeclaredCodingKeys(in: declaration)
    declaresCodingKeys = keys != nil
    guard generatesEncode || generatesDecode else {
      (stored, coded) = ([], [])
      return
    }
    stored = try StoredProperty.all(of: declaration)
    coded = try Self.coded(stored, keys: keys, decoding: generatesDecode)
  }

  /// The properties `keys` lists (all of them without `keys`), with their JSON names.
  private static func coded(
    _ properties: [StoredProperty], keys: DeclaredCodingKeys?, decoding: Bool
  ) throws -> [CodedProperty] {
    guard let keys else { return properties.map { CodedProperty(property: $0, jsonName: $0.jsonName) } }
    let names = Set(properties.map(\.jsonName))
    if let stray = keys.caseNames.first(where: { !names.contains($0) }) {
      throw MacroError("CodingKeys case '\(stray)' names no stored property")
    }
    let listed = Set(keys.caseNames)
    if decoding, let uncoded = properties.first(where: { !listed.contains($0.jsonName) && !$0.hasDefault }) {
      throw MacroError(
        "'\(uncoded.jsonName)' has no default value and no case in CodingKeys: add 'case \(uncoded.name)' "
          + "to CodingKeys, or give it a default value")
    }
    return properties.filter { listed.contains($0.jsonName) }.map {
      CodedProperty(property: $0, jsonName: keys.jsonNames?[$0.jsonName])
    }
  }

  /// The conformances and members to add in an extension.
  func members(access: String) -> (conformances: [String], members: [String]) {
    var conformances: [String] = []
    var members: [String] = []
    if (generatesEncode || generatesDecode) && !declaresCodingKeys {
      members.append(stateCodingKeysSource(stored))
    }
    if generatesEncode { members.append(stateEncodeSource(coded, access: access)) }
    if generatesDecode { members.append(stateDecodeSource(coded, access: access)) }
    let namesAreKnown = coded.allSatisfy { $0.jsonName != nil }
    let written = WrittenProperty.sorted(coded)
    // A name JSON escapes is left to `encode(to:)`, through an encoder.
    if generatesEncode, namesAreKnown, written.allSatisfy(\.needsNoEscape), missing.contains("JSONWritable") {
      conformances.append("JSONWritable")
      members.append(writeJSONSource(written, access: access))
      if isEquatable, written.allSatisfy(\.isPlainName), missing.contains("JSONDiffable") {
        conformances.append("JSONDiffable")
        members.append(writeJSONPatchSource(written, access: access))
      }
    }
    if missing.contains("JSONSchemaDescribable") {
      if declaresSchema {
        conformances.append("JSONSchemaDescribable")
      } else if generatesEncode || generatesDecode, namesAreKnown {
        conformances.append("JSONSchemaDescribable")
        members.append(stateSchemaSource(coded, access: access))
      }
    }
    return (conformances, members)
  }
}
