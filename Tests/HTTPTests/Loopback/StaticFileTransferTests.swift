import Foundation
import Testing

@testable import HTTP

/// Kept files over a real socket: from memory with their head in one `sendmsg`, and from
/// a descriptor with `sendfile`, on keep-alive and pipelined connections.
@Suite struct StaticFileTransferTests {
  private static func withFiles(
    _ files: [String: [UInt8]], maxFileBytesInMemory: Int = 256 * 1024,
    _ body: (HTTPServer) async throws -> Void
  ) async throws {
    let directory = NSTemporaryDirectory() + "static-transfer-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name)) }
    var options = StaticFiles.Options()
    options.maxFileBytesInMemory = maxFileBytesInMemory
    var router = testRouter()
    router.setFallback(StaticFiles(root: directory, options: options).respond)
    try await withServer(router: router, body)
  }

  private static func pattern(_ count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
      for index in 0..<count { bytes[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 8) }
      initialized = count
    }
  }

  /// Whether `bytes` holds `expected` from `offset` on, compared as memory (a debug build's
  /// element-wise comparison of megabytes would hold up the tests running beside this one).
  private static func bytes(_ bytes: [UInt8], at offset: Int, equal expected: [UInt8]) -> Bool {
    guard bytes.count >= offset + expected.count else { return false }
    return bytes.withUnsafeBytes { all in
      expected.withUnsafeBytes { memcmp(all.baseAddress! + offset, $0.baseAddress!, expected.count) == 0 }
    }
  }

  @Test(arguments: [256 * 1024, 1024])
  func everyByteArrivesOverKeepAlive(maxFileBytesInMemory: Int) async throws {
    let small = Self.pattern(17_060)
    let large = Self.pattern(1 << 20)
    try await Self.withFiles(["index.html": small, "big.bin": large], maxFileBytesInMemory: maxFileBytesInMemory) {
      server in
      let directory = NSTemporaryDirectory() + "static-download-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let base = "http://127.0.0.1:\(server.port)"
      // Three transfers of each on one connection: the first reads the disk, the rest not.
      var arguments: [String] = []
      for round in 0..<3 {
        arguments += [base + "/index.html", "-o", "\(directory)/small\(round)", base + "/big.bin", "-o", "\(directory)/big\(round)"]
      }
      let result = try await curl(["-w", "%{num_connects}"] + arguments)
      #expect(result.output == "100000")
      for round in 0..<3 {
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/small\(round)"))) == small)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/big\(round)"))) == large)
      }
    }
  }

  @Test func pipelinedAnswersStayInOrderBehindALargeFile() async throws {
    // Larger than the socket buffers on both sides: its tail waits when the next answers come.
    let large = Self.pattern(8 << 20)
    try await Self.withFiles(["big.bin": large, "a.txt": Array("first".utf8)], maxFileBytesInMemory: 1024) { server in
      let answer = try await blocking {
        let client = try RawClient(port: server.port)
        client.send(
          "GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\nGET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.3)
        return client.readAllBytes()
      }
      let headEnd = try #require(answer.prefix(4096).firstRange(of: Array("\r\n\r\n".utf8))).upperBound
      #expect(statusCode(String(decoding: answer[..<headEnd], as: UTF8.self)) == 200)
      #expect(Self.bytes(answer, at: headEnd, equal: large))
      // After the file, the two answers queued behind it, whole and in order.
      let rest = String(decoding: answer[min(answer.count, headEnd + large.count)...], as: UTF8.self)
      #expect(statusCodes(rest) == [200, 200])
      #expect(rest.contains("\r\n\r\nfirstHTTP/1.1 200"))
      #expect(rest.hasSuffix("hello"))
    }
  }
}
