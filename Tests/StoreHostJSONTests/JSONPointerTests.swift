import Foundation
import Testing

@testable import StoreHostJSON

@Suite struct JSONPointerTests {
  @Test func escapesTildeAndSlash() {
    let pointer = JSONPointer(tokens: ["a/b", "m~n", "~1", ""])
    #expect(pointer.description == "/a~1b/m~0n/~01/")
  }

  @Test func parsesEscapedTokens() throws {
    #expect(try JSONPointer(parsing: "/a~1b/m~0n/~01/").tokens == ["a/b", "m~n", "~1", ""])
    #expect(try JSONPointer(parsing: "") == .root)
    #expect(try JSONPointer(parsing: "/").tokens == [""])
  }

  @Test(arguments: ["a", "/a~", "/a~2", "/~x"])
  func rejectsInvalidPointers(text: String) {
    #expect(throws: JSONPatchError.invalidPointer(text)) { try JSONPointer(parsing: text) }
  }

  @Test func findsValuesAsInRFC6901() throws {
    // The example document of RFC 6901 §5.
    let document: JSONValue = [
      "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8,
    ]
    let expected: [(String, JSONValue)] = [
      ("", document), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2),
      ("/e^f", 3), ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
    ]
    for (text, value) in expected {
      #expect(try document.value(at: JSONPointer(parsing: text)) == value, "\(text)")
    }
    #expect(throws: JSONPatchError.invalidIndex(try JSONPointer(parsing: "/foo/01"))) {
      try document.value(at: JSONPointer(parsing: "/foo/01"))
    }
  }
}
