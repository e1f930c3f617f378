import Foundation
import HTTP
import Testing

/// Sends `text` on a fresh connection and returns everything until the server closes.
private func exchange(_ port: Int, _ text: String) async throws -> String {
  try await blocking {
    let client = try RawClient(port: port)
    client.send(text)
    return client.readAll()
  }
}

@Suite struct MalformedInputTests {
  @Test(arguments: [
    ("GET / HTTP/1.1\nHost: x\n\n", 400),
    ("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400),
    (
      "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      400
    ),
    ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde", 400),
    ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\nabc\r\n0\r\n\r\n", 400),
    ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
    ("POST /echo HTTP/1.1\r\nHost: x\r\n\r\n", 411),
    ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999\r\n\r\n", 413),
    ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 3000))\r\n\r\n", 431),
    ("GET / HTTP/1.1\r\nHost: x\r\n" + (0..<30).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
    ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
    ("GET / HTTP/1.1\r\n\r\n", 400),
    ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n", 400),
  ])
  func eachGetsItsStatusAndTheServerKeepsServing(request: String, expected: Int) async throws {
    try await withServer { server in
      let answer = try await exchange(server.port, request)
      #expect(statusCode(answer) == expected, "answer: \(answer.prefix(120))")
      #expect(answer.contains("Connection: close"))
      #expect(answer.contains("Content-Type: application/json; charset=utf-8"))
      #expect(answer.contains(#"{"error":{"code":""#))
      let next = try await exchange(server.port, "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(statusCode(next) == 200)
    }
  }

  /// `secret.txt` is beside the served directory, where each of these paths would lead if
  /// the server followed its `..`.
  @Test func pathTraversalIsRefused() async throws {
    let base = NSTemporaryDirectory() + "traversal-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: base + "/public", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: base) }
    try "top secret".write(toFile: base + "/secret.txt", atomically: true, encoding: .utf8)
    try "<p>index</p>".write(toFile: base + "/public/index.html", atomically: true, encoding: .utf8)
    var router = testRouter()
    router.setFallback(StaticFiles(root: base + "/public").respond)
    try await withServer(router: router) { server in
      let served = try await exchange(server.port, "GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(statusCode(served) == 200 && served.hasSuffix("<p>index</p>"))
      for path in [
        "/../secret.txt", "/%2e%2e/secret.txt", "/..%2Fsecret.txt", "/%2e%2e%2fsecret.txt", "/sub/../../secret.txt",
      ] {
        let answer = try await exchange(server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect([400, 404].contains(statusCode(answer) ?? 0), "\(path): \(answer.prefix(60))")
        #expect(!answer.contains("top secret"))
      }
    }
  }
}
