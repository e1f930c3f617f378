import Foundation
import HTTP

/// The `X-StoreHost-Forwarded` header, which marks a request one process of a cluster
/// forwards to the session's owner: `<process id> <unix milliseconds> <MAC>`, the MAC an
/// HMAC-SHA256 with a key derived from the cluster's shared secret over the request's
/// method, target, body digest, `Idempotency-Key`, token, the time and the process id.
///
/// Only a process that knows the secret can make one, and only for that exact request and
/// for ``maxAge``; while a cluster rotates its secret, one made with the previous secret
/// verifies too. A header that does not verify is ignored: the request is treated as any
/// client's, so a client cannot make a process skip forwarding or move a session.
struct ForwardingSignature {
  static let headerName = "X-StoreHost-Forwarded"
  /// How old a signature may be; the processes' clocks must agree within this.
  static let maxAge: Duration = .seconds(30)

  let signer: SessionTokenSigner

  /// The header's value for `request` forwarded by `processID` with `key` and `token`.
  func header(
    for request: Request, key: String, token: String, processID: String, now: Date = Date()
  ) -> String {
    let time = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    let mac = signer.forwardingMAC(Self.message(request, key: key, token: token, time: time, processID: processID))
    return "\(processID) \(time) \(Base64URL.encode(mac))"
  }

  /// The forwarding process's id, when `header` signs `request` and is recent; else `nil`.
  func verify(_ header: String, of request: Request, now: Date = Date()) -> String? {
    let parts = header.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, let time = Int64(parts[1]), let given = Base64URL.decode(String(parts[2])),
      given.count == 32
    else { return nil }
    let age = now.timeIntervalSince1970 * 1000 - Double(time)
    guard abs(age) <= Self.maxAge.secondsValue * 1000 else { return nil }
    guard let key = request.headers[IdempotencyKey.headerName],
      let token = request.headers["Authorization"].flatMap(Authentication.bearerToken(in:))
    else { return nil }
    let processID = String(parts[0])
    let message = Self.message(request, key: key, token: token, time: time, processID: processID)
    return signer.forwardingMACMatches(message, given) ? processID : nil
  }

  /// What the MAC covers, one field per line.
  private static func message(_ request: Request, key: String, token: String, time: Int64, processID: String) -> [UInt8] {
    let target = request.path + (request.query.map { "?" + $0 } ?? "")
    let fields = [request.method, target, IdempotencyKey.digest(request.body), key, token, String(time), processID]
    return Array(fields.joined(separator: "\n").utf8)
  }
}
