import Foundation
import Testing

@testable import StoreHost

/// Kills a real writer process with SIGKILL in the middle of strict saves.
@Suite struct CrashTests {
  /// The helper executable, built beside this test binary by `swift build` / `swift test`.
  private static let crashWriter = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("StoreHostCrashWriter")

  @Test func everySaveAcknowledgedBeforeSIGKILLSurvives() async throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.crashWriter.path),
      "build the StoreHostCrashWriter product first (swift build)")
    let database = try TemporaryDatabase()
    defer { database.remove() }
    let process = Process()
    process.executableURL = Self.crashWriter
    process.arguments = [database.path, "8"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()

    // Let it run until it has acknowledged a good number of saves, then kill it mid-flight.
    var acknowledged: [String: Int] = [:]
    var pending = Data()
    let reader = pipe.fileHandleForReading
    let deadline = ContinuousClock.now + .seconds(20)
    while acknowledged.values.reduce(0, +) < 400, ContinuousClock.now < deadline {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      pending.append(chunk)
      record(lines: &pending, into: &acknowledged)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    pending.append(reader.readDataToEndOfFile())
    record(lines: &pending, into: &acknowledged)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(acknowledged.count == 8)
    #expect(acknowledged.values.reduce(0, +) >= 400)

    let survivor = try await database.open()
    let recovered = Dictionary(uniqueKeysWithValues: try await survivor.loadAll().map { ($0.id.rawValue, $0.version) })
    try await survivor.close()
    for (id, version) in acknowledged {
      // Every acknowledged version is there; at most the one save in flight went further.
      let stored = try #require(recovered[id], "\(id) lost")
      #expect((version...version + 1).contains(stored), "\(id): acknowledged \(version), recovered \(stored)")
    }
  }

  /// Moves the complete "<id> <version>" lines of `buffer` into `acknowledged`.
  private func record(lines buffer: inout Data, into acknowledged: inout [String: Int]) {
    guard let lastNewline = buffer.lastIndex(of: UInt8(ascii: "\n")) else { return }
    let complete = String(decoding: buffer[..<lastNewline], as: UTF8.self)
    buffer = Data(buffer[(lastNewline + 1)...])
    for line in complete.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if fields.count == 2, let version = Int(fields[1]) {
        acknowledged[String(fields[0]), default: 0] = max(acknowledged[String(fields[0]), default: 0], version)
      }
    }
  }
}
