import Testing

@testable import StoreHost

@Suite struct ForwardingConnectionTests {
  private func bodyLength(_ head: String, isHead: Bool = false) throws(ForwardingFailure) -> Int {
    try ForwardingConnection.parseHead(Array(head.utf8)[...], isHead: isHead).1
  }

  @Test func answersWithoutABodyEndAtTheirHead() throws {
    #expect(try bodyLength("HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n") == 0)
    #expect(try bodyLength("HTTP/1.1 304 Not Modified\r\nETag: \"a\"\r\n\r\n") == 0)
    #expect(try bodyLength("HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n", isHead: true) == 0)
    #expect(try bodyLength("HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n") == 15)
  }

  @Test func aBodyOfUnknownLengthIsAnUnknownOutcome() {
    #expect(throws: ForwardingFailure.self) { try bodyLength("HTTP/1.1 200 OK\r\n\r\n") }
    #expect(throws: ForwardingFailure.self) { try bodyLength("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") }
  }
}
