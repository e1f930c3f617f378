import Foundation
import Testing

@testable import StoreHost

@Suite struct WatchTicketTests {
  private let signer = try! SessionTokenSigner(secret: Array(repeating: 7, count: 32))
  private let id = SessionID.random()
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func aTicketWatchesItsSessionUntilItExpires() {
    let ticket = signer.issueWatchTicket(for: id, expiresAt: now + 300)
    #expect(signer.checkWatchTicket(ticket, now: now) == .valid(id))
    #expect(signer.checkWatchTicket(ticket, now: now + 300) == .valid(id))
    #expect(signer.checkWatchTicket(ticket, now: now + 301) == .expired(id))
    #expect(ticket.utf8.allSatisfy(Base64URL.isAlphabet))
  }

  @Test func aChangedTicketIsForgedAndNamesItsClaimOnly() throws {
    var bytes = try #require(Base64URL.decode(signer.issueWatchTicket(for: id, expiresAt: now + 300)))
    bytes[3] ^= 1  // a later expiry
    #expect(signer.checkWatchTicket(Base64URL.encode(bytes), now: now) == .forged(claimed: id))
    let other = try SessionTokenSigner(secret: Array(repeating: 8, count: 32))
    #expect(signer.checkWatchTicket(other.issueWatchTicket(for: id, expiresAt: now + 300), now: now) == .forged(claimed: id))
  }

  @Test func ticketsAndTokensNeverPassForEachOther() {
    let token = signer.issue(sessionID: id)
    let ticket = signer.issueWatchTicket(for: id, expiresAt: now + 300)
    #expect(signer.checkWatchTicket(token, now: now) == .malformed)
    #expect(signer.verify(ticket) == nil)
  }

  @Test func textThatIsNoTicketIsMalformed() {
    for text in ["", "abc", String(repeating: "A", count: 500), "not base64!"] {
      #expect(signer.checkWatchTicket(text, now: now) == .malformed, "\(text.prefix(20))")
    }
  }
}
