import Foundation

/// What a watch ticket proved, checked by ``SessionTokenSigner/checkWatchTicket(_:now:)``.
enum WatchTicketCheck: Equatable {
  /// Signed by this server for the session, and not expired.
  case valid(SessionID)
  /// Signed by this server for the session, but past its expiry.
  case expired(SessionID)
  /// Well formed, but not signed by this server: the session it names is only a claim.
  case forged(claimed: SessionID)
  /// Not a watch ticket at all.
  case malformed
}

/// Watch tickets: short-lived, read-only proofs that their holder may watch one session's
/// events on a stream of several sessions (`GET /api/events`), issued to a request that
/// holds the session's token (`POST /api/sessions/{id}/tickets`).
///
/// A ticket is base64url (no padding) of `0x02 ‖ expiry ‖ session id ‖ HMAC-SHA256`, where
/// the expiry is seconds since 1970 as 8 big-endian bytes and the MAC covers everything
/// before it. Its first byte keeps tickets and session tokens apart: neither passes for the
/// other, so a ticket never authorizes an action.
extension SessionTokenSigner {
  private static let ticketFormat: UInt8 = 2
  private static let expiryLength = 8

  /// A ticket for watching `sessionID` until `expiry`.
  public func issueWatchTicket(for sessionID: SessionID, expiresAt expiry: Date) -> String {
    var bytes = [Self.ticketFormat]
    let seconds = UInt64(max(0, expiry.timeIntervalSince1970.rounded(.up)))
    for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: seconds >> UInt64(shift))) }
    bytes += Array(sessionID.rawValue.utf8)
    bytes += mac(bytes[...])
    return Base64URL.encode(bytes)
  }

  /// Checks `ticket` against this server's secret and `now`.
  func checkWatchTicket(_ ticket: String, now: Date = Date()) -> WatchTicketCheck {
    guard let signed = signedBytes(of: ticket, format: Self.ticketFormat, headerLength: Self.expiryLength),
      let id = SessionID(String(decoding: signed.bytes.dropFirst(1 + Self.expiryLength), as: UTF8.self))
    else { return .malformed }
    guard macMatches(signed) else { return .forged(claimed: id) }
    let expiry = signed.bytes.dropFirst().prefix(Self.expiryLength).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return Double(expiry) >= now.timeIntervalSince1970 ? .valid(id) : .expired(id)
  }
}
