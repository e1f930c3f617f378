// Saves per second of SQLiteSessionPersistence with 1 and 64 concurrent writers.
//
//   swift run -c release StoreHostPersistenceBenchmarks [seconds per run, default 3]
//
// Each writer owns one session and saves it again as soon as its previous save returned, so
// in strict mode every save waits for its fsync and concurrent writers share commits.
import Foundation
import StoreHost

let secondsPerRun = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3

/// A state of about 200 bytes, the size of the demo's root state.
func state(version: Int) -> Data {
  let todos: [JSONValue] = (0..<3).map { .object(["title": .string("todo \($0)"), "isComplete": .bool(false)]) }
  return JSONValue.object([
    "counter": .object(["count": .int(Int64(version))]),
    "twoCounters": .object(["first": .object(["count": 1]), "second": .object(["count": 2])]),
    "todos": .array(todos),
  ]).serialized()
}

struct RunResult {
  var saves = 0
  var seconds = 0.0
  var statistics = PersistenceStatistics()
}

func run(durability: Durability, writers: Int) async throws -> RunResult {
  let directory = NSTemporaryDirectory() + "storehost-bench-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let persistence = try await SQLiteSessionPersistence.open(path: directory + "/sessions.sqlite", durability: durability)
  let start = ContinuousClock.now
  let deadline = start + .milliseconds(Int(secondsPerRun * 1000))
  let saves = try await withThrowingTaskGroup(of: Int.self) { group in
    for _ in 0..<writers {
      group.addTask {
        let id = SessionID.random()
        let created = Date()
        var version = 0
        while ContinuousClock.now < deadline {
          version += 1
          try await persistence.save(
            SessionSnapshot(id: id, version: version, state: state(version: version), createdAt: created, lastActiveAt: Date()))
        }
        return version
      }
    }
    return try await group.reduce(0, +)
  }
  try await persistence.close()
  let elapsed = start.duration(to: .now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return RunResult(saves: saves, seconds: seconds, statistics: persistence.statistics)
}

print("| durability | writers | saves/s | commits/s | saves per commit |")
print("| --- | ---: | ---: | ---: | ---: |")
for durability in [Durability.strict, .fast] {
  for writers in [1, 64] {
    let result = try await run(durability: durability, writers: writers)
    let perCommit = Double(result.saves) / Double(max(result.statistics.commits, 1))
    print(
      "| \(durability) | \(writers) | \(Int(Double(result.saves) / result.seconds)) | "
        + "\(Int(Double(result.statistics.commits) / result.seconds)) | \(String(format: "%.1f", perCommit)) |")
    fflush(nil)
  }
}
