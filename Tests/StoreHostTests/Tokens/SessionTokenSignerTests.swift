import Foundation
import HTTP
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

  @Test func aTokenVerifiedBeforeStillNamesOnlyItsSessionAndForgeriesOfItFail() throws {
    let token = signer.issue(sessionID: id)
    #expect(signer.verify(token) == id)
    #expect(signer.verify(token) == id)
    #expect(!signer.verify(token, for: SessionID.random()))
    var forged = try #require(Base64URL.decode(token))
    forged[forged.count - 1] ^= 0x01
    #expect(signer.verify(Base64URL.encode(forged)) == nil)
  }

  @Test func moreTokensThanItRemembersAllStillVerify() {
    let issued = (0..<1_100).map { _ in SessionID.random() }.map { ($0, signer.issue(sessionID: $0)) }
    for (session, token) in issued + issued {
      #expect(signer.verify(token) == session)
    }
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

/// A cluster rotates its secret without a stop: a signer with a previous secret signs with
/// the current one and accepts what either signed.
@Suite struct SecretRotationTests {
  private let old = try! SessionTokenSigner(secret: Array(repeating: 7, count: 32))
  private let rotated = try! SessionTokenSigner(
    secret: Array(repeating: 9, count: 32), previousSecret: Array(repeating: 7, count: 32))
  private let new = try! SessionTokenSigner(secret: Array(repeating: 9, count: 32))
  private let id = SessionID.random()
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func aTokenSignedUnderThePreviousSecretIsStillAccepted() {
    #expect(rotated.verify(old.issue(sessionID: id)) == id)
    #expect(rotated.verify(new.issue(sessionID: id)) == id)
  }

  @Test func newTokensAreSignedWithTheCurrentSecret() {
    let token = rotated.issue(sessionID: id)
    #expect(new.verify(token) == id)
    #expect(old.verify(token) == nil)
  }

  @Test func watchTicketsOfEitherSecretAreValid() {
    #expect(rotated.checkWatchTicket(old.issueWatchTicket(for: id, expiresAt: now + 60), now: now) == .valid(id))
    let ticket = rotated.issueWatchTicket(for: id, expiresAt: now + 60)
    #expect(new.checkWatchTicket(ticket, now: now) == .valid(id))
    #expect(old.checkWatchTicket(ticket, now: now) == .forged(claimed: id))
  }

  @Test func forwardedRequestsSignedWithEitherSecretVerify() {
    var request = Request(method: "POST", path: "/api/sessions/abc/actions", body: Array("[]".utf8))
    request.headers.set("Authorization", "Bearer token")
    request.headers.set("Idempotency-Key", "k-1")
    func header(by signer: SessionTokenSigner) -> String {
      ForwardingSignature(signer: signer).header(for: request, key: "k-1", token: "token", processID: "p", now: now)
    }
    let verifier = ForwardingSignature(signer: rotated)
    #expect(verifier.verify(header(by: old), of: request, now: now) == "p")
    #expect(verifier.verify(header(by: new), of: request, now: now) == "p")
    #expect(ForwardingSignature(signer: old).verify(header(by: rotated), of: request, now: now) == nil)
  }

  @Test func thePreviousSecretIsCheckedToo() {
    #expect(throws: SessionTokenSignerError.secretTooShort(length: 5, minimum: 32)) {
      try SessionTokenSigner(secret: Array(repeating: 1, count: 32), previousSecret: Array(repeating: 1, count: 5))
    }
  }
}
