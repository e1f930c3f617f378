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
    // On a thread of its own: reading the writer's pipe blocks, which would hold up the
    // tasks of tests running beside this one.
    let (acknowledged, reason) = try await onOwnThread { try Self.runWriterUntilKilled(database: database) }
    #expect(reason == .uncaughtSignal)
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

  /// Runs the writer until it has acknowledged a good number of saves, then kills it
  /// mid-flight. Returns the last version it acknowledged per session, and how it ended.
  private static func runWriterUntilKilled(
    database: TemporaryDatabase
  ) throws -> ([String: Int], Process.TerminationReason) {
    let process = Process()
    process.executableURL = crashWriter
    process.arguments = [database.path, "8"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
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
    return (acknowledged, process.terminationReason)
  }

  /// Runs `work` on a new thread and returns its result.
  private func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try work() }) }.start()
    }
  }

  /// Moves the complete "<id> <version>" lines of `buffer` into `acknowledged`.
  private static func record(lines buffer: inout Data, into acknowledged: inout [String: Int]) {
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
