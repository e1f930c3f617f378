import Foundation
import HTTP
import Testing

@testable import StoreHost

@Suite struct BrowserClientTests {
  private let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/StoreHost/BrowserClient")

  private func get(_ name: String, headers: HTTPHeaders = [:]) throws -> Response {
    var request = Request(method: "GET", path: BrowserClient.path + name, headers: headers)
    request.parameters = ["file": name]
    return try BrowserClient.respond(to: request)
  }

  @Test func servesEveryFileOfTheClientAsItIsInTheSources() throws {
    let onDisk = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".js") || $0.hasSuffix(".ts") }.sorted()
    #expect(BrowserClient.fileNames == onDisk)
    #expect(onDisk.contains("storehost.js") && onDisk.contains("stream-worker.js"))
    for name in onDisk {
      let response = try get(name)
      guard case .bytes(let bytes) = response.body else {
        Issue.record("\(name) has no body")
        continue
      }
      #expect(bytes == Array(try Data(contentsOf: directory.appendingPathComponent(name))), "\(name)")
      #expect(response.headers["Cache-Control"] == "no-cache")
      #expect(response.headers["Content-Type"]?.hasPrefix(name.hasSuffix(".js") ? "text/javascript" : "application/typescript") == true)
    }
  }

  @Test func answers304WhileTheFileIsUnchanged() throws {
    let etag = try #require(try get("storehost.js").headers["ETag"])
    #expect(try get("storehost.js", headers: ["If-None-Match": etag]).status == 304)
    #expect(try get("storehost.js", headers: ["If-None-Match": "\"other\", \(etag)"]).status == 304)
    #expect(try get("storehost.js", headers: ["If-None-Match": "\"other\""]).status == 200)
    // As for static files: optional white space is spaces or tabs, on either side.
    #expect(try get("storehost.js", headers: ["If-None-Match": "\"other\",\t\(etag) "]).status == 304)
    #expect(try get("json-patch.js").headers["ETag"] != etag)
  }

  @Test func anyOtherNameIs404() {
    #expect(throws: HTTPError.notFound(
      "The browser client has no file of this name; it has \(BrowserClient.fileNames.joined(separator: ", "))."))
    {
      try get("../Package.swift")
    }
  }
}
