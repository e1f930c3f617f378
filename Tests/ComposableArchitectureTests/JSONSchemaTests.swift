import ComposableArchitecture
import Foundation
import Testing

/// A state with each kind of member a schema has a word for.
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

private struct Friend: Codable {
  var name: String
  var since: Double
}

/// A list that holds itself.
private struct Tree: Codable {
  var children: [Tree]
}

@Suite struct JSONSchemaTests {
  private func text(_ schema: JSONValue?) throws -> String {
    String(decoding: try JSONEncoding.encode(schema ?? nil), as: UTF8.self)
  }

  @Test func describesEachPayloadShapeAsTheWireWritesIt() throws {
    let schema = JSONSchema.schema(of: Shapes.self)
    guard case .array(let cases)? = schema["oneOf"] else {
      Issue.record("no alternatives: \(schema)")
      return
    }
    #expect(cases.count == 9)
    #expect(try text(cases[0]) == #"{"const":"reset"}"#)
    #expect(try text(cases[1]["properties"]) == #"{"setName":{"type":"string"}}"#)
    #expect(
      try text(cases[2]["properties"]) == #"{"setID":{"properties":{"id":{"type":"integer"}},"required":["id"],"type":"object"}}"#)
    #expect(
      try text(cases[4]["properties"]?["pair"])
        == #"{"maxItems":2,"minItems":2,"prefixItems":[{"type":"integer"},{"type":"string"}],"type":"array"}"#)
    #expect(try text(cases[6]["properties"]) == #"{"optional":{"anyOf":[{"type":"integer"},{"type":"null"}]}}"#)
    // A labeled optional may be left out.
    #expect(try text(cases[7]["properties"]?["search"]?["required"]) == #"["query"]"#)
    #expect(try text(cases[1]["additionalProperties"]) == "false")
  }

  @Test func nestsChildActionsAndBindingsAndLeavesOutInternalCases() throws {
    let schema = try text(JSONSchema.schema(of: App.Action.self))
    #expect(schema.contains(#"{"counter":{"oneOf":[{"const":"decrementButtonTapped"},{"const":"incrementButtonTapped"}]}}"#))
    #expect(schema.contains(#""binding":{"oneOf":[{"additionalProperties":false,"properties":{"title":{"type":"string"}}"#))
    #expect(schema.contains(#""id":{"format":"uuid","type":"string"}"#))
    #expect(!schema.contains("timerTicked"))
    #expect(try text(JSONSchema.schema(of: App.Action.self, clientsOnly: false)).contains("timerTicked"))
  }

  @Test func leavesOutCasesWhosePayloadCannotBeDecoded() throws {
    #expect(try text(JSONSchema.schema(of: Responses.self)) == #"{"const":"tick"}"#)
  }

  @Test func describesStatesMemberByMember() throws {
    let schema = JSONSchema.schema(of: Member.self)
    #expect(try text(schema["required"]) == #"["name","tags","scores","role","id","visits","friends"]"#)
    let properties = schema["properties"]
    #expect(try text(properties?["nickname"]) == #"{"type":"string"}"#)
    #expect(try text(properties?["tags"]) == #"{"items":{"type":"string"},"type":"array"}"#)
    #expect(try text(properties?["scores"]) == #"{"additionalProperties":{"type":"integer"},"type":"object"}"#)
    #expect(try text(properties?["role"]) == #"{"enum":["admin","guest"]}"#)
    #expect(try text(properties?["visits"]) == #"{"type":"integer"}"#)
    #expect(
      try text(properties?["friends"])
        == #"{"items":{"properties":{"name":{"type":"string"},"since":{"type":"number"}},"required":["name","since"],"type":"object"},"type":"array"}"#
    )
  }

  @Test func aTypeThatHoldsItselfIsAnythingWhereItRecurs() throws {
    #expect(
      try text(JSONSchema.schema(of: Tree.self))
        == #"{"properties":{"children":{"items":{},"type":"array"}},"required":["children"],"type":"object"}"#)
  }

  @Test func aDocumentDefinesEachTypeByName() throws {
    let document = JSONSchema.document(defining: ["Action": Shapes.self, "State": Friend.self])
    #expect(try text(document["$schema"]) == #""https://json-schema.org/draft/2020-12/schema""#)
    #expect(try text(document["$defs"]?["State"]?["required"]) == #"["name","since"]"#)
    #expect(document["$defs"]?["Action"]?["oneOf"] != nil)
  }
}
