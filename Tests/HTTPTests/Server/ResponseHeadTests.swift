import Testing

@testable import HTTP

@Suite struct ResponseHeadTests {
  private func head(_ response: Response, keepAlive: Bool = true, minorVersion: Int = 1, length: Int? = 0) -> String {
    var output: [UInt8] = []
    ResponseHead.write(
      response, contentLength: length, keepAlive: keepAlive, minorVersion: minorVersion, date: Array("D".utf8),
      into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  @Test func writesStatusHeadersDateAndLength() {
    let text = head(Response(status: 201, headers: ["X-A": "1"]), length: 3)
    #expect(text == "HTTP/1.1 201 Created\r\nX-A: 1\r\nDate: D\r\nContent-Length: 3\r\n\r\n")
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
}
