import Foundation
import HTTP
import Testing

@Suite struct CurlTests {
  @Test func servesRoutesOverLoopback() async throws {
    try await withServer { server in
      let base = "http://127.0.0.1:\(server.port)"
      let hello = try await curl([base + "/hello"])
      #expect(hello.output == "hello")
      let echo = try await curl(["-X", "POST", "--data-binary", "ping", base + "/echo"])
      #expect(echo.output == "ping")
      let head = try await curl(["-I", base + "/hello"])
      #expect(head.output.contains("Content-Length: 5"))
      let missing = try await curl(["-i", base + "/missing"])
      #expect(missing.output.hasPrefix("HTTP/1.1 404"))
      #expect(missing.output.contains("Content-Type: application/json; charset=utf-8"))
      #expect(missing.output.contains(#"{"error":{"code":"not_found""#))
    }
  }

  @Test func aTargetOverTheURILimitAnswers414() async throws {
    try await withServer { server in
      let long = try await curl(["-i", "http://127.0.0.1:\(server.port)/" + String(repeating: "a", count: 20_000)])
      #expect(long.output.hasPrefix("HTTP/1.1 414 URI Too Long"))
      #expect(long.output.contains(#"{"error":{"code":"uri_too_long""#))
      #expect(try await curl(["http://127.0.0.1:\(server.port)/hello"]).output == "hello")
    }
  }

  @Test func listensOnIPv6Loopback() async throws {
    var configuration = testConfiguration()
    configuration.host = "::1"
    try await withServer(configuration) { server in
      let result = try await curl(["-g", "http://[::1]:\(server.port)/hello"])
      #expect(result.output == "hello")
    }
  }

  @Test func keepAliveReusesOneConnection() async throws {
    try await withServer { server in
      let url = "http://127.0.0.1:\(server.port)/hello"
      let result = try await curl(["-w", "%{num_connects}\\n", url, url, url])
      #expect(result.output == "hello1\nhello0\nhello0\n")
    }
  }

  @Test func servesStaticFilesWithConditionalRequests() async throws {
    let outside = NSTemporaryDirectory() + "curl-static-\(UUID().uuidString)"
    let directory = outside + "/public"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: outside) }
    try "<p>index</p>".write(toFile: directory + "/index.html", atomically: true, encoding: .utf8)
    try "top secret".write(toFile: outside + "/secret.txt", atomically: true, encoding: .utf8)
    var router = testRouter()
    router.setFallback(StaticFiles(root: directory).respond)
    try await withServer(router: router) { server in
      let base = "http://127.0.0.1:\(server.port)"
      let page = try await curl(["-i", base + "/"])
      #expect(page.output.contains("Content-Type: text/html; charset=utf-8"))
      #expect(page.output.hasSuffix("<p>index</p>"))
      let etagLine = try #require(page.output.split(separator: "\r\n").first { $0.hasPrefix("ETag: ") })
      let etag = String(etagLine.dropFirst("ETag: ".count))
      let cached = try await curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: \(etag)", base + "/"])
      #expect(cached.output == "304")
      // secret.txt is beside the served directory, where `..` would lead.
      let traversal = try await curl(["--path-as-is", "-w", " %{http_code}", base + "/../secret.txt"])
      #expect(traversal.output.hasSuffix(" 404") && !traversal.output.contains("top secret"), "\(traversal.output)")
    }
  }
}
