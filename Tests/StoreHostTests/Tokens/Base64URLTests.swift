import Foundation
import Testing

@testable import StoreHost

@Suite struct Base64URLTests {
  @Test func encodesWithoutPaddingInTheURLAlphabet() {
    #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    #expect(Base64URL.encode([]) == "")
    #expect(Base64URL.encode(Array("foobar".utf8)) == "Zm9vYmFy")
  }

  @Test func roundTripsEveryLength() {
    for count in 0..<40 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }
  }

  @Test func agreesWithFoundationsBase64() {
    for count in 0..<64 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ count) }
      let standard = Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
      #expect(Base64URL.encode(bytes) == standard)
    }
  }

  @Test func rejectsPaddingOtherAlphabetsAndNonCanonicalBits() {
    #expect(Base64URL.decode("-_8=") == nil)
    #expect(Base64URL.decode("+/8") == nil)
    #expect(Base64URL.decode("-_9") == nil)
    #expect(Base64URL.decode("A") == nil)
  }
}
