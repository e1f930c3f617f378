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
    if arguments.contains("--help") || arguments.contains("-h") {
      print(usage)
      return 0
    }
    guard arguments.first == "export-test", let last = arguments.last, arguments.count >= 2 else {
      return Subcommand.fail(usage, status: 2)
    }
    let settings: Settings
    switch Subcommand.settings(Array(arguments.dropFirst().dropLast()), usage: usage) {
    case .success(let parsed): settings = parsed
    case .failure(let exit): return exit.status
    }
    guard let id = SessionID(last) else { return Subcommand.fail("'\(last)' is not a session id", status: 2) }
    let path = settings.dataDirectory + "/sessions.sqlite"
    do {
      guard FileManager.default.fileExists(atPath: path),
        let snapshot = try SQLiteSessionPersistence.readSession(id, path: path)
      else {
        return Subcommand.fail("no session \(id) is saved in \(path)", status: 1)
      }
      guard !snapshot.history.isEmpty else {
        return Subcommand.fail("session \(id) has no saved history (the server ran with --history 0)", status: 1)
      }
      let source = try SessionHost<AppFeature.State, AppFeature.Action>.exportTest(
        of: snapshot, feature: AppFeature.self, origin: "storehost history export-test")
      print(source, terminator: "")
      return 0
    } catch {
      return Subcommand.fail("cannot export the history of session \(id): \(error)", status: 1)
    }
  }

}
