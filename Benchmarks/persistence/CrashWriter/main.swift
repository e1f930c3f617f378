// Saves sessions in strict mode until killed, printing "<session> <version>" after each save
// returned. StoreHostTests kills it with SIGKILL and checks that every printed save survived.
//
//   StoreHostCrashWriter <database path> <number of concurrent writers>
import Foundation
import StoreHost

let arguments = CommandLine.arguments
guard arguments.count == 3, let writers = Int(arguments[2]), writers > 0 else {
  FileHandle.standardError.write(Data("usage: StoreHostCrashWriter <database path> <writers>\n".utf8))
  exit(2)
}
let persistence = try await SQLiteSessionPersistence.open(path: arguments[1], durability: .strict)
let output = FileHandle.standardOutput
try await withThrowingTaskGroup(of: Void.self) { group in
  for writer in 0..<writers {
    group.addTask {
      let id = SessionID("writer\(writer)")!
      let created = Date()
      for version in 1... {
        let state = JSONValue.object(["count": .int(Int64(version))]).serialized()
        try await persistence.save(
          SessionSnapshot(id: id, version: version, state: state, createdAt: created, lastActiveAt: Date()))
        output.write(Data("\(id) \(version)\n".utf8))
      }
    }
  }
  try await group.waitForAll()
}
