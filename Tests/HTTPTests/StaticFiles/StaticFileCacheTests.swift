import Foundation
import Testing

@testable import HTTP

/// A temporary directory to serve, with helpers to write its files.
private final class Directory {
  let path = NSTemporaryDirectory() + "static-cache-\(UUID().uuidString)"

  init() throws {
    try FileManager.default.createDirectory(atPath: path + "/assets", withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func write(_ name: String, _ text: String) throws {
    try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
  }

  func write(_ name: String, bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
  }

  func remove(_ name: String) throws { try FileManager.default.removeItem(atPath: path + "/" + name) }
}

private func get(
  _ files: StaticFiles, _ path: String, _ headers: HTTPHeaders = [:]
) throws(HTTPError) -> Response {
  try files.respond(to: Request(method: "GET", path: path, headers: headers))
}

private func text(_ response: Response) -> String { String(decoding: response.bodyBytes, as: UTF8.self) }

@Suite struct StaticFileCacheTests {
  private func options(revalidateAfter: Duration) -> StaticFiles.Options {
    var options = StaticFiles.Options()
    options.revalidateAfter = revalidateAfter
    return options
  }

  @Test func aKeptFileIsServedWithoutTheDisk() throws {
    let directory = try Directory()
    try directory.write("app.js", "let x = 1")
    let files = StaticFiles(root: directory.path, options: options(revalidateAfter: .seconds(3600)))
    let first = try get(files, "/app.js")
    let etag = try #require(first.headers["ETag"])
    try directory.remove("app.js")
    // Gone from the disk, still answered from memory, and its ETag checked there too.
    #expect(text(try get(files, "/app.js")) == "let x = 1")
    #expect(try get(files, "/app.js", ["If-None-Match": etag]).status == 304)
  }

  @Test func aChangedFileIsReadAgainOnceTheCheckIsDue() async throws {
    let directory = try Directory()
    try directory.write("app.js", "let x = 1")
    let files = StaticFiles(root: directory.path, options: options(revalidateAfter: .milliseconds(50)))
    let old = try #require(try get(files, "/app.js").headers["ETag"])
    try directory.write("app.js", "let x = 22")
    try await Task.sleep(for: .milliseconds(120))
    let changed = try get(files, "/app.js")
    #expect(text(changed) == "let x = 22")
    #expect(changed.headers["ETag"] != old)
    #expect(try get(files, "/app.js", ["If-None-Match": old]).status == 200)
    try directory.remove("app.js")
    try await Task.sleep(for: .milliseconds(120))
    #expect(throws: HTTPError.self) { try get(files, "/app.js") }
  }

  @Test func withNoDelayEveryRequestSeesTheDisk() throws {
    let directory = try Directory()
    try directory.write("index.html", "one")
    let files = StaticFiles(root: directory.path, options: options(revalidateAfter: .zero))
    #expect(text(try get(files, "/")) == "one")
    try directory.write("index.html", "two!")
    #expect(text(try get(files, "/")) == "two!")
  }

  @Test func precompressedVariantsFollowAcceptEncoding() throws {
    let directory = try Directory()
    try directory.write("app.js", "plain")
    try directory.write("app.js.br", "brotli")
    try directory.write("app.js.gz", "gzipped")
    let files = StaticFiles(root: directory.path)
    let cases: [(String?, String, String?)] = [
      ("gzip, deflate, br", "brotli", "br"),
      ("gzip", "gzipped", "gzip"),
      ("br;q=0, gzip;q=0.5", "gzipped", "gzip"),
      ("*", "brotli", "br"),
      ("identity", "plain", nil),
      (nil, "plain", nil),
    ]
    var etags: Set<String> = []
    for (accept, body, encoding) in cases {
      let response = try get(files, "/app.js", accept.map { ["Accept-Encoding": $0] } ?? [:])
      #expect(text(response) == body, "Accept-Encoding: \(accept ?? "none")")
      #expect(response.headers["Content-Encoding"] == encoding)
      #expect(response.headers["Vary"] == "Accept-Encoding")
      #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
      etags.insert(try #require(response.headers["ETag"]))
    }
    #expect(etags.count == 3, "each representation has its own ETag")
    let brotliTag = try #require(try get(files, "/app.js", ["Accept-Encoding": "br"]).headers["ETag"])
    #expect(try get(files, "/app.js", ["Accept-Encoding": "br", "If-None-Match": brotliTag]).status == 304)
    #expect(try get(files, "/app.js", ["Accept-Encoding": "gzip", "If-None-Match": brotliTag]).status == 200)
  }

  @Test func aFileWithoutVariantsDoesNotVary() throws {
    let directory = try Directory()
    try directory.write("app.js", "plain")
    let response = try get(StaticFiles(root: directory.path), "/app.js", ["Accept-Encoding": "br"])
    #expect(response.headers["Vary"] == nil)
    #expect(response.headers["Content-Encoding"] == nil)
    #expect(text(response) == "plain")
  }

  @Test func versionedAssetsAreImmutable() throws {
    let directory = try Directory()
    for name in ["app.3f9a1c2e.js", "chunk-0b7e44d1.css", "app.js", "report-20261201.pdf", "assets/index-DiwrgTda.js"] {
      try directory.write(name, "x")
    }
    var options = StaticFiles.Options()
    options.immutablePrefixes = ["/assets/"]
    let files = StaticFiles(root: directory.path, options: options)
    let immutable = "public, max-age=31536000, immutable"
    #expect(try get(files, "/app.3f9a1c2e.js").headers["Cache-Control"] == immutable)
    #expect(try get(files, "/chunk-0b7e44d1.css").headers["Cache-Control"] == immutable)
    #expect(try get(files, "/assets/index-DiwrgTda.js").headers["Cache-Control"] == immutable)
    #expect(try get(files, "/app.js").headers["Cache-Control"] == "no-cache")
    #expect(try get(files, "/report-20261201.pdf").headers["Cache-Control"] == "no-cache")
  }

  @Test func largeFilesAreKeptOpenNotInMemory() throws {
    let directory = try Directory()
    let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try directory.write("big.bin", bytes: bytes)
    try directory.write("small.txt", "small")
    var options = StaticFiles.Options()
    options.maxFileBytesInMemory = 10_000
    let files = StaticFiles(root: directory.path, options: options)
    let big = try get(files, "/big.bin")
    guard case .file(let body) = big.body, case .descriptor = body.source else {
      Issue.record("a file over the memory limit is sent from its descriptor")
      return
    }
    #expect(big.bodyBytes == bytes)
    let partial = try get(files, "/big.bin", ["Range": "bytes=99990-"])
    #expect(partial.status == 206)
    #expect(partial.bodyBytes == Array(bytes[99990...]))
    guard case .file(let small) = try get(files, "/small.txt").body, case .memory = small.source else {
      Issue.record("a small file is kept in memory")
      return
    }
  }

  @Test func theCacheIsBounded() throws {
    let directory = try Directory()
    var options = StaticFiles.Options()
    options.maxFiles = 3
    options.maxMemoryBytes = 20
    let cache = StaticFileCache(options: options)
    for index in 0..<10 {
      try directory.write("file\(index).txt", "0123456789")
      _ = try cache.file(at: "/file\(index).txt", root: try #require(FileSystem.realPath(directory.path)))
    }
    let usage = cache.usage
    #expect(usage.files == 3)
    #expect(usage.memoryBytes <= 20)
  }
}
