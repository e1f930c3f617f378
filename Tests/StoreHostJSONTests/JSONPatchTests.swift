import Foundation
import Testing

import JSONTestSupport
@testable import StoreHostJSON

@Suite struct JSONPatchTests {
  private func pointer(_ text: String) throws -> JSONPointer {
    try JSONPointer(parsing: text)
  }

  @Test func diffOfOneFieldIsOneReplace() throws {
    let before: JSONValue = ["counter": ["count": 0], "todos": [["title": "milk"]]]
    let after: JSONValue = ["counter": ["count": 1], "todos": [["title": "milk"]]]
    #expect(JSONPatch.diff(from: before, to: after) == [.replace(path: try pointer("/counter/count"), value: 1)])
  }

  @Test func diffOfEqualDocumentsIsEmpty() {
    let document: JSONValue = ["a": [1, 2, ["b": nil]]]
    #expect(JSONPatch.diff(from: document, to: document).isEmpty)
  }

  @Test func diffAddsAndRemovesMembersWithEscapedPaths() throws {
    let operations = JSONPatch.diff(from: ["a/b": 1, "keep": true], to: ["m~n": 2, "keep": true])
    #expect(operations == [.remove(path: try pointer("/a~1b")), .add(path: try pointer("/m~0n"), value: 2)])
  }

  @Test func diffOfAnInsertIntoALongArrayIsOneAdd() throws {
    let before = JSONValue.array((0..<100).map { .int($0) })
    var elements = (0..<100).map { JSONValue.int($0) }
    elements.insert("new", at: 40)
    #expect(JSONPatch.diff(from: before, to: .array(elements)) == [.add(path: try pointer("/40"), value: "new")])
  }

  @Test func diffRemovesArraySurplusFromTheEndDown() throws {
    let operations = JSONPatch.diff(from: [1, 2, 3, 4, 5], to: [1, 5])
    #expect(operations == [.remove(path: try pointer("/3")), .remove(path: try pointer("/2")), .remove(path: try pointer("/1"))])
    #expect(try JSONPatch.apply(operations, to: [1, 2, 3, 4, 5]) == [1, 5])
  }

  @Test func diffReplacesValuesOfDifferentKinds() throws {
    #expect(JSONPatch.diff(from: ["a": [1]], to: ["a": ["x": 1]]) == [.replace(path: try pointer("/a"), value: ["x": 1])])
    #expect(JSONPatch.diff(from: 1, to: 1.0) == [.replace(path: .root, value: 1.0)])
  }

  @Test func operationsEncodeAsRFC6902() throws {
    let operations: [JSONPatchOperation] = [
      .replace(path: try pointer("/counter/count"), value: 1),
      .add(path: try pointer("/a~1b"), value: nil),
      .remove(path: try pointer("/x/0")),
      .move(from: try pointer("/a"), path: try pointer("/b")),
    ]
    let json = try JSONValue(parsing: JSONEncoder().encode(operations)).jsonString
    #expect(
      json
        == #"[{"op":"replace","path":"/counter/count","value":1},{"op":"add","path":"/a~1b","value":null},"#
        + #"{"op":"remove","path":"/x/0"},{"from":"/a","op":"move","path":"/b"}]"#)
    #expect(try JSONDecoder().decode([JSONPatchOperation].self, from: Data(json.utf8)) == operations)
  }

  @Test func decodingRejectsUnknownOpsAndMissingValues() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(JSONPatchOperation.self, from: Data(#"{"op":"frobnicate","path":""}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(JSONPatchOperation.self, from: Data(#"{"op":"add","path":"/a"}"#.utf8))
    }
  }

  @Test func appliesTheRFC6902Examples() throws {
    let patch: [JSONPatchOperation] = [
      .add(path: try pointer("/foo/1"), value: "qux"),
      .add(path: try pointer("/foo/-"), value: "end"),
      .remove(path: try pointer("/baz")),
      .replace(path: try pointer("/bar"), value: 42),
      .move(from: try pointer("/foo/0"), path: try pointer("/moved")),
      .copy(from: try pointer("/bar"), path: try pointer("/copied")),
      .test(path: try pointer("/copied"), value: 42),
    ]
    let result = try JSONPatch.apply(patch, to: ["foo": ["bar", "baz"], "baz": "qux", "bar": 1])
    #expect(result == ["foo": ["qux", "baz", "end"], "bar": 42, "moved": "bar", "copied": 42])
  }

  @Test func applyFailsWithoutChangingTheInput() throws {
    let document: JSONValue = ["a": [1, 2]]
    #expect(throws: JSONPatchError.pathNotFound(try pointer("/a/2"))) {
      try JSONPatch.apply([.replace(path: try pointer("/a/2"), value: 0)], to: document)
    }
    #expect(throws: JSONPatchError.pathNotFound(try pointer("/b"))) {
      try JSONPatch.apply([.remove(path: try pointer("/b"))], to: document)
    }
    #expect(throws: JSONPatchError.invalidIndex(try pointer("/a/-1"))) {
      try JSONPatch.apply([.add(path: try pointer("/a/-1"), value: 0)], to: document)
    }
    #expect(throws: JSONPatchError.testFailed(try pointer("/a/0"))) {
      try JSONPatch.apply([.test(path: try pointer("/a/0"), value: 2)], to: document)
    }
    #expect(throws: JSONPatchError.invalidTarget(try pointer("/a/0"))) {
      try JSONPatch.apply([.move(from: try pointer("/a"), path: try pointer("/a/0"))], to: document)
    }
    #expect(throws: JSONPatchError.invalidTarget(.root)) {
      try JSONPatch.apply([.remove(path: .root)], to: document)
    }
    #expect(document == ["a": [1, 2]])
  }

  @Test func replacingTheRootReplacesTheDocument() throws {
    #expect(try JSONPatch.apply([.replace(path: .root, value: [1])], to: ["a": 1]) == [1])
  }

  @Test func applyingTheDiffOfRandomPairsGivesTheTarget() throws {
    var generator = SeededGenerator(seed: 0x5704_E405)
    var totalOperations = 0
    for round in 0..<3_000 {
      let source = RandomJSON.document(using: &generator)
      // Half the pairs are related (small edits), half unrelated.
      let target =
        round.isMultiple(of: 2)
        ? RandomJSON.mutate(RandomJSON.mutate(source, using: &generator), using: &generator)
        : RandomJSON.document(using: &generator)
      let operations = JSONPatch.diff(from: source, to: target)
      totalOperations += operations.count
      let patched = try JSONPatch.apply(operations, to: source)
      #expect(patched == target, "round \(round): \(source.jsonString) -> \(target.jsonString)")
      // The patch survives its wire form.
      let decoded = try JSONDecoder().decode([JSONPatchOperation].self, from: JSONEncoder().encode(operations))
      #expect(decoded == operations, "round \(round)")
    }
    // The seeded pairs exercise real patches, not mostly empty ones.
    #expect(totalOperations > 2_000)
  }
}
