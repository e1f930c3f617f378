import Foundation
import Testing

@testable import HTTP

@Suite struct AccessLogTests {
  @Test func writesOneJsonObjectPerLine() throws {
    let line = AccessLog.line(method: "GET", path: "/a\"b", status: 200, bytes: 12, duration: .microseconds(1500))
    #expect(line.hasSuffix("}\n"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["method"] as? String == "GET")
    #expect(object["path"] as? String == "/a\"b")
    #expect(object["status"] as? Int == 200)
    #expect(object["bytes"] as? Int == 12)
    #expect(object["duration_ms"] as? Double == 1.5)
  }

  @Test func isOffByDefault() {
    #expect(ServerConfiguration().accessLog == false)
  }
}
