import Foundation
import Testing

@testable import StoreHost

@Suite struct SessionIDTests {
  @Test func randomIDsAre128BitsOfBase64URL() throws {
    let ids = (0..<1_000).map { _ in SessionID.random() }
    #expect(Set(ids).count == 1_000)
    for id in ids {
      #expect(id.rawValue.utf8.count == 22)
      #expect(try #require(Base64URL.decode(id.rawValue)).count == 16)
    }
  }

  @Test func acceptsOnlyURLSafeIDs() {
    #expect(SessionID("abc-_09XY")?.rawValue == "abc-_09XY")
    #expect(SessionID("") == nil)
    #expect(SessionID("a/b") == nil)
    #expect(SessionID("..") == nil)
    #expect(SessionID(String(repeating: "a", count: 65)) == nil)
  }

  @Test func codesAsAPlainString() throws {
    let id = try #require(SessionID("abc"))
    #expect(String(decoding: try JSONEncoder().encode([id]), as: UTF8.self) == #"["abc"]"#)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([SessionID].self, from: Data(#"["a b"]"#.utf8)) }
  }
}
