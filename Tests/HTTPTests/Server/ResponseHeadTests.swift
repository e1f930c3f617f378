import Testing

@testable import HTTP

@Suite struct ResponseHeadTests {
  private func head(
    _ response: Response, keepAlive: Bool = true, minorVersion: Int = 1, length: Int? = 0,
    security: SecurityHeaderBlock = SecurityHeaderBlock(fields: [])
  ) -> String {
    var output: [UInt8] = []
    ResponseHead.write(
      response, contentLength: length, keepAlive: keepAlive, minorVersion: minorVersion, date: Array("D".utf8),
      security: security, into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  @Test func writesStatusHeadersDateAndLength() {
    let text = head(Response(status: 201, headers: ["X-A": "1"]), length: 3)
    #expect(text == "HTTP/1.1 201 Created\r\nX-A: 1\r\nDate: D\r\nContent-Length: 3\r\n\r\n")
  }

  /// The common statuses' lines are constant text; each must say what the reason phrases say.
  @Test(arguments: [100, 200, 201, 202, 204, 206, 304, 400, 401, 403, 404, 409, 413, 429, 500, 503, 599])
  func statusLineNamesTheStatusAndItsReason(status: Int) {
    let line = head(Response(status: status)).split(separator: "\r\n", maxSplits: 1).first.map(String.init)
    #expect(line == "HTTP/1.1 \(status) \(ResponseHead.reasonPhrase(status))")
  }

  @Test func connectionHeaderFollowsKeepAliveAndVersion() {
    #expect(head(Response(), keepAlive: false).contains("Connection: close\r\n"))
    #expect(head(Response(), minorVersion: 0).contains("Connection: keep-alive\r\n"))
    #expect(!head(Response()).contains("Connection:"))
  }

  @Test func noLengthForStreamsOr304() {
    #expect(!head(Response(), length: nil).contains("Content-Length"))
    #expect(!head(Response(status: 304), length: 10).contains("Content-Length"))
  }

  @Test func lengthsAndUncommonStatusesAreWrittenInFull() {
    #expect(head(Response(), length: 1_048_576).contains("Content-Length: 1048576\r\n"))
    #expect(head(Response(), length: 0).contains("Content-Length: 0\r\n"))
    #expect(head(Response(status: 418), length: 0).hasPrefix("HTTP/1.1 418 Status\r\n"))
  }

  @Test func headerValuesCannotSplitTheResponse() {
    let text = head(Response(headers: ["X-Echo": "a\r\nSet-Cookie: evil=1", "Bad Name": "x"]))
    #expect(text.contains("X-Echo: a  Set-Cookie: evil=1\r\n"))
    #expect(!text.contains("\r\nSet-Cookie"))
    #expect(!text.contains("Bad Name"))
  }

  @Test func securityHeadersFollowTheResponsesOwnAndAResponseMayReplaceOne() {
    let security = SecurityHeaderBlock(fields: [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin")])
    let text = head(Response(status: 200, headers: ["Content-Type": "text/plain"]), security: security)
    #expect(
      text == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Content-Type-Options: nosniff\r\n"
        + "Referrer-Policy: same-origin\r\nDate: D\r\nContent-Length: 0\r\n\r\n")
    let replaced = head(Response(headers: ["referrer-policy": "no-referrer"]), security: security)
    #expect(replaced.contains("referrer-policy: no-referrer\r\n"))
    #expect(!replaced.contains("same-origin"))
    #expect(replaced.contains("X-Content-Type-Options: nosniff\r\n"))
  }

  @Test func securityHeadersDefaultToEveryHeaderAndStrictTransportOnlyOverHTTPS() {
    let plain = head(Response(), security: SecurityHeaderBlock(SecurityHeaders(), https: false))
    #expect(plain.contains("Content-Security-Policy: \(SecurityHeaders.defaultContentSecurityPolicy)\r\n"))
    #expect(plain.contains("X-Content-Type-Options: nosniff\r\n"))
    #expect(plain.contains("X-Frame-Options: DENY\r\n"))
    #expect(plain.contains("Referrer-Policy: same-origin\r\n"))
    #expect(plain.contains("Cross-Origin-Opener-Policy: same-origin\r\n"))
    #expect(!plain.contains("Strict-Transport-Security"))
    let https = head(Response(), security: SecurityHeaderBlock(SecurityHeaders(), https: true))
    #expect(https.contains("Strict-Transport-Security: max-age=63072000\r\n"))
    var behindProxy = SecurityHeaders()
    behindProxy.tlsTerminatedByProxy = true
    behindProxy.frameOptions = nil
    behindProxy.contentSecurityPolicy = "default-src 'none'\r\nSet-Cookie: x=1"
    let proxied = head(Response(), security: SecurityHeaderBlock(behindProxy, https: false))
    #expect(proxied.contains("Strict-Transport-Security: max-age=63072000\r\n"))
    #expect(!proxied.contains("X-Frame-Options"))
    #expect(proxied.contains("Content-Security-Policy: default-src 'none'  Set-Cookie: x=1\r\n"))
  }
}
