import Testing

@testable import HTTP

/// Parses `text` completely, returning every part or the error.
private func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Result<[RequestParser.Part], HTTPParseError> {
  var parser = RequestParser(limits: limits)
  parser.append(Array(text.utf8))
  var parts: [RequestParser.Part] = []
  do {
    while let part = try parser.next() { parts.append(part) }
    return .success(parts)
  } catch {
    return .failure(error)
  }
}

private func status(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Int? {
  if case .failure(let error) = parse(text, limits: limits) { return error.status }
  return nil
}

private func firstHead(_ parts: [RequestParser.Part]) -> RequestHead? {
  for case .head(let head) in parts { return head }
  return nil
}

private func body(_ parts: [RequestParser.Part]) -> String {
  var bytes: [UInt8] = []
  for case .body(let piece) in parts { bytes += piece }
  return String(decoding: bytes, as: UTF8.self)
}

@Suite struct RequestParserTests {
  @Test func parsesASimpleGet() throws {
    let parts = try parse("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n").get()
    let head = try #require(firstHead(parts))
    #expect(head.method == "GET")
    #expect(head.target == "/a?b=1")
    #expect(head.minorVersion == 1)
    #expect(head.framing == .none)
    #expect(head.keepAlive)
    #expect(parts.last == .end)
  }

  @Test func aReleasedBufferReadsTheNextRequestAsBefore() throws {
    var parser = RequestParser(limits: HTTPLimits())
    parser.append(Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HT".utf8))
    #expect(try parser.next() != nil)
    #expect(try parser.next() == .end)
    // Bytes of the next request are still buffered: they stay.
    parser.releaseBufferIfEmpty()
    #expect(parser.bufferedByteCount == 9)
    parser.append(Array("TP/1.1\r\nHost: x\r\n\r\n".utf8))
    guard case .head(let second) = try parser.next() else { Issue.record("no second head"); return }
    #expect(second.target == "/b")
    #expect(try parser.next() == .end)
    parser.releaseBufferIfEmpty()
    #expect(parser.bufferedByteCount == 0)
    parser.append(Array("GET /c HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    guard case .head(let third) = try parser.next() else { Issue.record("no third head"); return }
    #expect(third.target == "/c")
  }

  @Test func headersAreCaseInsensitiveAndRepeatable() throws {
    let parts = try parse("GET / HTTP/1.1\r\nhost: x\r\nX-Tag: a\r\nx-tag: b\r\n\r\n").get()
    let headers = try #require(firstHead(parts)).headers
    #expect(headers["HOST"] == "x")
    #expect(headers.values("X-TAG") == ["a", "b"])
  }

  @Test func trimsOptionalWhitespaceAroundValues() throws {
    let parts = try parse("GET / HTTP/1.1\r\nHost:   x \t\r\n\r\n").get()
    #expect(firstHead(parts)?.headers["Host"] == "x")
  }

  @Test func readsAContentLengthBodyArrivingInPieces() throws {
    var parser = RequestParser(limits: HTTPLimits())
    parser.append(Array("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhe".utf8))
    guard case .head(let head) = try parser.next() else {
      Issue.record("no head")
      return
    }
    #expect(head.framing == .length(5))
    #expect(try parser.next() == .body(Array("he".utf8)))
    #expect(try parser.next() == nil)
    parser.append(Array("llo".utf8))
    #expect(try parser.next() == .body(Array("llo".utf8)))
    #expect(try parser.next() == .end)
  }

  @Test func readsAChunkedBodyWithExtensionsAndTrailers() throws {
    let parts = try parse(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;name=v\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\n"
    ).get()
    #expect(firstHead(parts)?.framing == .chunked)
    #expect(body(parts) == "hello, world!!!")
    #expect(parts.last == .end)
  }

  @Test func parsesPipelinedRequestsInOrder() throws {
    let parts = try parse(
      "GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"
        + "POST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok"
        + "GET /3 HTTP/1.1\r\nHost: x\r\n\r\n"
    ).get()
    let targets = parts.compactMap { part -> String? in
      if case .head(let head) = part { return head.target }
      return nil
    }
    #expect(targets == ["/1", "/2", "/3"])
    #expect(parts.filter { $0 == .end }.count == 3)
  }

  @Test func ignoresEmptyLinesBeforeARequest() throws {
    let parts = try parse("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n").get()
    #expect(firstHead(parts)?.target == "/")
  }

  @Test func http10DefaultsToClose() throws {
    let plain = try parse("GET / HTTP/1.0\r\n\r\n").get()
    #expect(firstHead(plain)?.keepAlive == false)
    let kept = try parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").get()
    #expect(firstHead(kept)?.keepAlive == true)
    let closed = try parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").get()
    #expect(firstHead(closed)?.keepAlive == false)
  }

  @Test func recognisesExpectContinue() throws {
    let parts = try parse("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n").get()
    #expect(firstHead(parts)?.expectsContinue == true)
  }

  @Test(arguments: [
    ("bare LF", "GET / HTTP/1.1\nHost: x\n\n", 400),
    ("bare LF in headers", "GET / HTTP/1.1\r\nHost: x\nA: b\r\n\r\n", 400),
    ("obs-fold", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400),
    ("space before colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
    ("no colon", "GET / HTTP/1.1\r\nHost x\r\n\r\n", 400),
    ("CL and TE", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    ("differing CL", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
    ("CL list differing", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd", 400),
    ("CL not a number", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\nabc", 400),
    ("bad chunk size", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400),
    (
      "chunk size overflow", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n",
      400
    ),
    (
      "chunk without CRLF", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n",
      400
    ),
    ("unknown TE", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
    ("chunked not last", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
    ("TE on HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    ("missing Host", "GET / HTTP/1.1\r\n\r\n", 400),
    ("two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    ("bad method", "G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("bad version", "GET / HTTX/1.1\r\nHost: x\r\n\r\n", 400),
    ("HTTP/2 version", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
    ("extra spaces", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("control in value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{01}b\r\n\r\n", 400),
    ("POST without length", "POST / HTTP/1.1\r\nHost: x\r\n\r\n", 411),
  ])
  func rejectsMalformedInput(name: String, text: String, expected: Int) {
    #expect(status(text) == expected, "\(name)")
  }

  @Test func identicalDuplicateContentLengthsAreAccepted() throws {
    let parts = try parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok").get()
    #expect(body(parts) == "ok")
  }

  @Test func enforcesHeadSizeEvenBeforeTheHeadEnds() {
    var limits = HTTPLimits()
    limits.maxHeadBytes = 64
    #expect(status("GET / HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "a", count: 100))", limits: limits) == 431)
    #expect(
      status("GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 60))\r\n\r\n", limits: limits) == 431)
  }

  @Test func refusesLongTargetsWith414() {
    var limits = HTTPLimits()
    limits.maxRequestTargetBytes = 100
    let long = "/" + String(repeating: "a", count: 100)
    #expect(status("GET \(long) HTTP/1.1\r\nHost: x\r\n\r\n", limits: limits) == 414)
    // Before the line ends, once it cannot hold a target within the limit.
    #expect(status("GET /\(String(repeating: "a", count: 200))", limits: limits) == 414)
    #expect(status("GET \(long.dropLast()) HTTP/1.1\r\nHost: x\r\n\r\n", limits: limits) == nil)
    // A long header is still 431, however long the head.
    limits.maxHeadBytes = 200
    #expect(status("GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 300))", limits: limits) == 431)
  }

  @Test func enforcesHeaderCount() {
    var limits = HTTPLimits()
    limits.maxHeaderCount = 3
    let headers = (0..<4).map { "X-\($0): v\r\n" }.joined()
    #expect(status("GET / HTTP/1.1\r\nHost: x\r\n\(headers)\r\n", limits: limits) == 431)
  }

  @Test func enforcesBodySizeForLengthAndChunks() {
    var limits = HTTPLimits()
    limits.maxBodyBytes = 4
    #expect(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n", limits: limits) == 413)
    #expect(
      status("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n", limits: limits)
        == 413)
  }

  @Test func yieldsNothingAfterAnError() {
    var parser = RequestParser(limits: HTTPLimits())
    parser.append(Array("GET / HTTP/1.1\nHost: x\n\nGET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(throws: HTTPParseError.self) { try parser.next() }
    #expect((try? parser.next()) == nil)
  }

  @Test func waitsForMoreBytesWithoutFailing() throws {
    var parser = RequestParser(limits: HTTPLimits())
    for byte in "GET / HTTP/1.1\r\nHost: x\r\n\r".utf8 {
      parser.append([byte])
      #expect(try parser.next() == nil)
    }
    parser.append(Array("\n".utf8))
    guard case .head = try parser.next() else {
      Issue.record("expected a head")
      return
    }
  }
}
