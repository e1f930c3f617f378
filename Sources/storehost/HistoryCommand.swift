import Foundation
import StoreHost
import StoreHostDemo

/// `storehost history export-test [--data DIR] ID`: prints the Swift Testing test that
/// rebuilds session `ID` from the history saved with it in `DIR/sessions.sqlite` (the test
/// `GET /api/sessions/{id}/history/test.swift` serves), read without writing to the file, so
/// it works while a server runs on it. Exits 1 when the session or its history is missing.
enum HistoryCommand {
  static let usage = "usage: storehost history export-test [--data DIR] ID"

  static func run(_ arguments: [String]) -> Int32 {
    guard arguments.first == "export-test", let last = arguments.last, arguments.count >= 2 else {
      return fail(usage, status: 2)
    }
    guard let id = SessionID(last) else { return fail("'\(last)' is not a session id", status: 2) }
    let settings: Settings
    do {
      guard
        let parsed = try parseSettings(
          arguments: Array(arguments.dropFirst().dropLast()), environment: ProcessInfo.processInfo.environment)
      else {
        print(usage)
        return 0
      }
      settings = parsed
    } catch {
      return fail(error.description, status: 2)
    }
    let path = settings.dataDirectory + "/sessions.sqlite"
    do {
      guard FileManager.default.fileExists(atPath: path),
        let snapshot = try SQLiteSessionPersistence.readSession(id, path: path)
      else {
        return fail("no session \(id) is saved in \(path)", status: 1)
      }
      guard !snapshot.history.isEmpty else {
        return fail("session \(id) has no saved history (the server ran with --history 0)", status: 1)
      }
      let source = try SessionHost<AppFeature.State, AppFeature.Action>.exportTest(
        of: snapshot, feature: AppFeature.self, origin: "storehost history export-test")
      print(source, terminator: "")
      return 0
    } catch {
      return fail("cannot export the history of session \(id): \(error)", status: 1)
    }
  }

  private static func fail(_ message: String, status: Int32) -> Int32 {
    FileHandle.standardError.write(Data("storehost: \(message)\n".utf8))
    return status
  }
}
