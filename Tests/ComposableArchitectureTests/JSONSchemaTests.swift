import ComposableArchitecture
import Foundation
import Testing

/// A state with each kind of member a schema has a word for.
@ObservableState
private struct Member: Codable {
  enum Role: String, Codable, CaseIterable {
    case admin, guest
  }

  var name: String
  var nickname: String?
  var tags: [String]
  var scores: [String: Int]
  var role: Role
  var id: UUID
  var visits: Shared<Int>
  var friends: [Friend]
}

@ObservableState
private struct Friend: Codable {
  var name: String
  var since: Double
}

/// A list that holds itself.
@ObservableState
private struct Tree: Codable {
  var children: [Tree]
}

/// Defaults, an inferred type, a wrapper, renamed keys and a constant.
@ObservableState
private struct Settings: Codable {
  var step = 1
  var label: String
  var note: String? = "hi"
  @Shared(.inMemory("settings-total")) var total = 0
  let version = 2
  var lastSeen: Date?

  enum CodingKeys: String, CodingKey {
    case step = "stepSize", label, note, total, version
  }
}

/// Validates what it decodes, and the property after the one it checks matters.
@ObservableState
private struct Validated: Codable {
  var age: Int
  var name: String

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // Checked before it is assigned: an observed property cannot be read before every
    // property is set.
    let age = try container.decode(Int.self, forKey: .age)
    guard age >= 0 else {
      throw DecodingError.dataCorruptedError(forKey: .age, in: container, debugDescription: "negative")
    }
    self.age = age
    name = try container.decode(String.self, forKey: .name)
  }
}

/// Would stop the process if its decoding ran.
@ObservableState
private struct Trapping: Codable {
  var count = 0
  var payload: Explosive

  init(from decoder: any Decoder) throws {
    preconditionFailure("a schema ran Trapping's init(from:)")
  }
}

private struct Explosive: Codable {
  init(from decoder: any Decoder) throws {
    preconditionFailure("a schema ran Explosive's init(from:)")
  }

  func encode(to encoder: any Encoder) throws {}
}

/// Actions whose payloads carry values with associated values and traps.
@CasePathable
private enum Commands {
  case run(Shapes)
  case arm(Explosive)
  case pick(Member.Role)
}

/// A type the macros cannot see, described by hand.
private struct Money: Codable, JSONSchemaDescribable {
  var cents: Int

  static func jsonSchema(in context: inout JSONSchemaContext) -> JSONValue {
    ["type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$"]
  }
}

@ObservableState
private struct Wallet: Codable {
  var balance = Money(cents: 0)
  var unknown: [Explosive] = []
}

@Suite struct JSONSchemaTests {
  private func text(_ schema: JSONValue?) throws -> String {
    String(decoding: try JSONEncoding.encode(schema ?? nil), as: UTF8.self)
  }

  private let int64 = #"{"maximum":9223372036854775807,"minimum":-9223372036854775808,"type":"integer"}"#

  @Test func describesEachPayloadShapeAsTheWireWritesIt() throws {
    let schema = JSONSchema.schema(of: Shapes.self, for: .read)
    guard case .array(let cases)? = schema["oneOf"] else {
      Issue.record("no alternatives: \(schema)")
      return
    }
    #expect(cases.count == 9)
    #expect(try text(cases[0]) == #"{"const":"reset"}"#)
    #expect(try text(cases[1]["properties"]) == #"{"setName":{"type":"string"}}"#)
    #expect(
      try text(cases[2]["properties"]) == #"{"setID":{"properties":{"id":\#(int64)},"required":["id"],"type":"object"}}"#)
    #expect(
      try text(cases[4]["properties"]?["pair"])
        == #"{"maxItems":2,"minItems":2,"prefixItems":[\#(int64),{"type":"string"}],"type":"array"}"#)
    #expect(try text(cases[6]["properties"]) == #"{"optional":{"anyOf":[\#(int64),{"type":"null"}]}}"#)
    // A labeled optional may be left out.
    #expect(try text(cases[7]["properties"]?["search"]?["required"]) == #"["query"]"#)
    #expect(try text(cases[1]["additionalProperties"]) == "false")
  }

  @Test func nestsChildActionsAndBindingsAndLeavesOutInternalCases() throws {
    let schema = try text(JSONSchema.schema(of: App.Action.self, for: .read))
    #expect(schema.contains(#"{"counter":{"oneOf":[{"const":"decrementButtonTapped"},{"const":"incrementButtonTapped"}]}}"#))
    #expect(schema.contains(#""binding":{"oneOf":[{"additionalProperties":false,"properties":{"title":{"type":"string"}}"#))
    #expect(schema.contains(#""id":{"format":"uuid","type":"string"}"#))
    #expect(!schema.contains("timerTicked"))
    #expect(try text(JSONSchema.schema(of: App.Action.self, for: .read, clientsOnly: false)).contains("timerTicked"))
  }

  @Test func leavesOutCasesWhosePayloadCannotBeDecoded() throws {
    #expect(try text(JSONSchema.schema(of: Responses.self, for: .read)) == #"{"const":"tick"}"#)
  }

  @Test func describesStatesMemberByMember() throws {
    let schema = JSONSchema.schema(of: Member.self, for: .written)
    #expect(try text(schema["required"]) == #"["name","tags","scores","role","id","visits","friends"]"#)
    let properties = schema["properties"]
    #expect(try text(properties?["nickname"]) == #"{"type":"string"}"#)
    #expect(try text(properties?["tags"]) == #"{"items":{"type":"string"},"type":"array"}"#)
    #expect(try text(properties?["scores"]) == #"{"additionalProperties":\#(int64),"type":"object"}"#)
    #expect(try text(properties?["role"]) == #"{"enum":["admin","guest"]}"#)
    #expect(try text(properties?["visits"]) == int64)
    #expect(
      try text(properties?["friends"])
        == #"{"items":{"properties":{"name":{"type":"string"},"since":{"type":"number"}},"required":["name","since"],"type":"object"},"type":"array"}"#
    )
  }

  @Test func propertiesWithDefaultsAreRequiredInWhatIsWrittenButNotInWhatIsRead() throws {
    let written = JSONSchema.schema(of: Settings.self, for: .written)
    #expect(try text(written["required"]) == #"["stepSize","label","total","version"]"#)
    #expect(try text(written["properties"]?["stepSize"]) == int64)
    #expect(try text(written["properties"]?["total"]) == int64)
    #expect(written["properties"]?["lastSeen"] == nil, "not in CodingKeys")
    let read = JSONSchema.schema(of: Settings.self, for: .read)
    #expect(try text(read["required"]) == #"["label"]"#)
  }

  @Test func integersOfEveryWidthHaveTheirBounds() throws {
    #expect(try text(JSONSchema.schema(of: UInt8.self, for: .read)) == #"{"maximum":255,"minimum":0,"type":"integer"}"#)
    #expect(
      try text(JSONSchema.schema(of: UInt64.self, for: .read))
        == #"{"maximum":18446744073709551615,"minimum":0,"type":"integer"}"#)
    #expect(
      try text(JSONSchema.schema(of: Int16.self, for: .read)) == #"{"maximum":32767,"minimum":-32768,"type":"integer"}"#)
  }

  @Test func aTypeThatHoldsItselfIsAnythingWhereItRecurs() throws {
    #expect(
      try text(JSONSchema.schema(of: Tree.self, for: .written))
        == #"{"properties":{"children":{"items":{"description":"any JSON: Tree contains itself"},"type":"array"}},"required":["children"],"type":"object"}"#
    )
  }

  @Test func aValidatingDecoderDoesNotTruncateTheSchemaAndATrappingOneNeverRuns() throws {
    let validated = JSONSchema.schema(of: Validated.self, for: .read)
    #expect(try text(validated["required"]) == #"["age","name"]"#)
    let trapping = JSONSchema.schema(of: Trapping.self, for: .read)
    #expect(try text(trapping["required"]) == #"["payload"]"#)
    #expect(try text(trapping["properties"]?["payload"]?["description"]).contains("Explosive is not described"))
    let commands = try text(JSONSchema.schema(of: Commands.self, for: .read))
    #expect(commands.contains(#""run":{"oneOf":[{"const":"reset"}"#), "an enum with associated values, case by case")
    #expect(commands.contains(#"{"pick":{"enum":["admin","guest"]}}"#))
    #expect(commands.contains("Explosive is not described"))
  }

  @Test func aTypeTheMacrosCannotSeeDescribesItselfByConforming() throws {
    let schema = JSONSchema.schema(of: Wallet.self, for: .written)
    #expect(try text(schema["properties"]?["balance"]) == #"{"pattern":"^[0-9]+\\.[0-9]{2}$","type":"string"}"#)
    #expect(
      try text(schema["properties"]?["unknown"]?["items"])
        == #"{"description":"any JSON: Explosive is not described (mark it @ObservableState or @CasePathable, or conform it to JSONSchemaDescribable)"}"#
    )
  }

  @Test func navigationStateAndActionsAreExact() throws {
    let alert = try text(JSONSchema.schema(of: AlertState<Shapes>.self, for: .written))
    #expect(alert.hasPrefix(#"{"properties":{"buttons":{"items":{"properties":{"action":{"oneOf":[{"const":"reset"}"#))
    #expect(alert.hasSuffix(#""required":["title","buttons"],"type":"object"}"#))
    #expect(
      try text(JSONSchema.schema(of: StackState<Friend>.self, for: .written)["items"]?["required"]) == #"["id","state"]"#)
    let presentation = try text(JSONSchema.schema(of: PresentationAction<Counter.Action>.self, for: .read))
    #expect(presentation.hasPrefix(#"{"oneOf":[{"const":"dismiss"},{"additionalProperties":false,"properties":{"presented":"#))
  }

  @Test func aDocumentDefinesTheStateAsWrittenAndTheActionAsRead() throws {
    let document = JSONSchema.document(state: Settings.self, action: Shapes.self)
    #expect(try text(document["$schema"]) == #""https://json-schema.org/draft/2020-12/schema""#)
    #expect(try text(document["$defs"]?["State"]?["required"]) == #"["stepSize","label","total","version"]"#)
    #expect(document["$defs"]?["Action"]?["oneOf"] != nil)
  }
}
