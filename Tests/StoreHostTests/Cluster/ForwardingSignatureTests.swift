import Foundation
import HTTP
import Testing

@testable import StoreHost

/// The signed `X-StoreHost-Forwarded` header: only a process with the cluster's secret makes
/// one, for one exact request, for a short while.
@Suite struct ForwardingSignatureTests {
  private let signature = ForwardingSignature(signer: try! SessionTokenSigner(secret: Array(repeating: 7, count: 32)))
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// The request as the owner receives it from the process `origin`, signed at `signedAt`.
  private func forwarded(
    _ request: Request, key: String = "k-1", token: String = "token", origin: String = "12-abc",
    signedAt: Date? = nil, by signer: ForwardingSignature? = nil
  ) -> Request {
    var received = request
    received.headers.set("Authorization", "Bearer \(token)")
    received.headers.set("Idempotency-Key", key)
    let header = (signer ?? signature).header(
      for: request, key: key, token: token, processID: origin, now: signedAt ?? now)
    received.headers.set(ForwardingSignature.headerName, header)
    return received
  }

  private let action = Request(
    method: "POST", path: "/api/sessions/abc/actions", query: "wait=effects", body: Array(#""incrementButtonTapped""#.utf8))

  private func verify(_ request: Request) -> String? {
    signature.verify(request.headers[ForwardingSignature.headerName] ?? "", of: request, now: now)
  }

  @Test func aSignedRequestNamesTheProcessThatForwardedIt() {
    #expect(verify(forwarded(action)) == "12-abc")
  }

  @Test func anyChangeToTheRequestBreaksTheSignature() {
    var body = forwarded(action)
    body.body = Array(#""decrementButtonTapped""#.utf8)
    var path = forwarded(action)
    path.path = "/api/sessions/other/actions"
    var query = forwarded(action)
    query.query = nil
    var method = forwarded(action)
    method.method = "DELETE"
    var key = forwarded(action)
    key.headers.set("Idempotency-Key", "k-2")
    var token = forwarded(action)
    token.headers.set("Authorization", "Bearer another")
    var origin = forwarded(action)
    origin.headers.set(
      ForwardingSignature.headerName,
      origin.headers[ForwardingSignature.headerName]!.replacingOccurrences(of: "12-abc", with: "13-abc"))
    for request in [body, path, query, method, key, token, origin] { #expect(verify(request) == nil) }
  }

  @Test func aStaleOrFutureSignatureIsRefused() {
    #expect(verify(forwarded(action, signedAt: now.addingTimeInterval(-31))) == nil)
    #expect(verify(forwarded(action, signedAt: now.addingTimeInterval(31))) == nil)
    #expect(verify(forwarded(action, signedAt: now.addingTimeInterval(-29))) == "12-abc")
  }

  @Test func aClientCannotForgeOne() {
    let otherSecret = ForwardingSignature(signer: try! SessionTokenSigner(secret: Array(repeating: 8, count: 32)))
    #expect(verify(forwarded(action, by: otherSecret)) == nil)
    var forged = action
    forged.headers.set("Authorization", "Bearer token")
    forged.headers.set("Idempotency-Key", "k-1")
    for header in ["12-abc", "12-abc 1800000000000 AAAA", "12-abc 1800000000000 " + String(repeating: "A", count: 43), ""] {
      forged.headers.set(ForwardingSignature.headerName, header)
      #expect(verify(forged) == nil)
    }
  }

  @Test func aRequestWithoutItsKeyOrTokenIsRefused() {
    var withoutKey = forwarded(action)
    withoutKey.headers.remove("Idempotency-Key")
    var withoutToken = forwarded(action)
    withoutToken.headers.remove("Authorization")
    #expect(verify(withoutKey) == nil)
    #expect(verify(withoutToken) == nil)
  }
}
