import Foundation
import Testing

@testable import StoreHost

@Suite struct SessionTokenSignerTests {
  private let signer = try! SessionTokenSigner(secret: Array(repeating: 7, count: 32))
  private let id = SessionID.random()

  @Test func verifiesTheTokensItIssues() {
    let token = signer.issue(sessionID: id)
    #expect(signer.verify(token) == id)
    #expect(signer.verify(token, for: id))
  }

  @Test func tokensAreURLSafeAndUnique() {
    let tokens = (0..<100).map { _ in signer.issue(sessionID: id) }
    #expect(Set(tokens).count == 100)
    for token in tokens {
      #expect(token.utf8.allSatisfy(Base64URL.isAlphabet), "\(token)")
    }
  }

  @Test func rejectsATokenForAnotherSession() {
    let token = signer.issue(sessionID: id)
    #expect(!signer.verify(token, for: SessionID.random()))
  }

  @Test func rejectsTokensSignedWithAnotherSecret() throws {
    let other = try SessionTokenSigner(secret: Array(repeating: 8, count: 32))
    #expect(signer.verify(other.issue(sessionID: id)) == nil)
  }

  @Test func rejectsEveryOneBitChange() throws {
    let bytes = try #require(Base64URL.decode(signer.issue(sessionID: id)))
    for index in bytes.indices {
      var forged = bytes
      forged[index] ^= 0x01
      #expect(signer.verify(Base64URL.encode(forged)) == nil, "byte \(index)")
    }
  }

  @Test func rejectsAnIDSwappedIntoAValidToken() throws {
    let bytes = try #require(Base64URL.decode(signer.issue(sessionID: id)))
    let other = SessionID.random()
    let forged = Array(bytes[..<17]) + Array(other.rawValue.utf8) + Array(bytes.suffix(32))
    #expect(signer.verify(Base64URL.encode(forged)) == nil)
  }

  @Test(arguments: ["", "a", "!!!!", String(repeating: "A", count: 5_000), "QUJD"])
  func rejectsMalformedTokens(token: String) {
    #expect(signer.verify(token) == nil)
  }

  @Test func refusesShortSecrets() {
    #expect(throws: SessionTokenSignerError.secretTooShort(length: 31, minimum: 32)) {
      try SessionTokenSigner(secret: Array(repeating: 1, count: 31))
    }
  }
}
