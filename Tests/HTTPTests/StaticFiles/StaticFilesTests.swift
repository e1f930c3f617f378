import Foundation
import Testing

@testable import HTTP

/// A temporary directory with `public/index.html`, `public/app.js`, `public/sub/` (no
/// index), `secret.txt` beside `public`, and a symlink in `public` pointing at it.
private final class Fixture {
  let base: String
  let files: StaticFiles

  init() throws {
    base = NSTemporaryDirectory() + "static-\(UUID().uuidString)"
    let manager = FileManager.default
    try manager.createDirectory(atPath: base + "/public/sub", withIntermediateDirectories: true)
    try "<h1>home</h1>".write(toFile: base + "/public/index.html", atomically: true, encoding: .utf8)
    try "let x = 1".write(toFile: base + "/public/app.js", atomically: true, encoding: .utf8)
    try "top secret".write(toFile: base + "/secret.txt", atomically: true, encoding: .utf8)
    try manager.createSymbolicLink(atPath: base + "/public/leak.txt", withDestinationPath: base + "/secret.txt")
    files = StaticFiles(root: base + "/public")
  }

  deinit { try? FileManager.default.removeItem(atPath: base) }

  func status(_ path: String, method: String = "GET", headers: HTTPHeaders = [:]) -> Int {
    do {
      return try files.respond(to: Request(method: method, path: path, headers: headers)).status
    } catch {
      return error.status
    }
  }
}

@Suite struct StaticFilesTests {
  @Test func rootServesIndexWithTypeAndValidators() throws {
    let fixture = try Fixture()
    let response = try fixture.files.respond(to: Request(method: "GET", path: "/"))
    #expect(response.status == 200)
    #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
    #expect(response.headers["ETag"] != nil)
    #expect(response.headers["Last-Modified"] != nil)
    #expect(String(decoding: response.bodyBytes, as: UTF8.self) == "<h1>home</h1>")
  }

  @Test func javascriptGetsItsMimeType() throws {
    let fixture = try Fixture()
    let response = try fixture.files.respond(to: Request(method: "GET", path: "/app.js"))
    #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
  }

  @Test func matchingEtagIs304() throws {
    let fixture = try Fixture()
    let etag = try #require(try fixture.files.respond(to: Request(method: "GET", path: "/app.js")).headers["ETag"])
    #expect(fixture.status("/app.js", headers: ["If-None-Match": etag]) == 304)
    #expect(fixture.status("/app.js", headers: ["If-None-Match": "\"other\""]) == 200)
  }

  @Test func ifModifiedSinceIs304() throws {
    let fixture = try Fixture()
    let modified = try #require(
      try fixture.files.respond(to: Request(method: "GET", path: "/app.js")).headers["Last-Modified"])
    #expect(fixture.status("/app.js", headers: ["If-Modified-Since": modified]) == 304)
  }

  @Test(arguments: [
    "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/sub/..%2f..%2fsecret.txt", "/leak.txt",
    "/sub", "/sub/", "/missing.html", "/app.js%00.html", "/..%5csecret.txt",
  ])
  func neverLeavesTheDirectoryOrListsOne(path: String) throws {
    let fixture = try Fixture()
    #expect(fixture.status(path) == 404)
  }

  @Test func rangeRequestsGetPartialContent() throws {
    let fixture = try Fixture()
    let partial = try fixture.files.respond(to: Request(method: "GET", path: "/app.js", headers: ["Range": "bytes=4-"]))
    #expect(partial.status == 206)
    #expect(partial.headers["Content-Range"] == "bytes 4-8/9")
    #expect(String(decoding: partial.bodyBytes, as: UTF8.self) == "x = 1")
    #expect(fixture.status("/app.js", headers: ["Range": "bytes=20-"]) == 416)
    #expect(fixture.status("/app.js", headers: ["Range": "bytes=0-1", "If-Range": "\"stale\""]) == 200)
  }

  @Test func malformedEscapeIs400() throws {
    let fixture = try Fixture()
    #expect(fixture.status("/%zz") == 400)
  }

  @Test func onlyGetAndHead() throws {
    let fixture = try Fixture()
    #expect(fixture.status("/app.js", method: "HEAD") == 200)
    #expect(fixture.status("/app.js", method: "POST") == 405)
  }
}
