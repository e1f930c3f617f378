import Composable
import Foundation
import StoreHost
import StoreHostDemo
import StoreHostPostgres

/// `storehost sessions check [--data DIR | --database URL]`: reads every saved session with
/// this build, as a start would, without serving or changing anything; prints how many it
/// reads and the first that it cannot, and exits 1 when any fails, so a deploy pipeline can
/// stop before the new build starts on the saved sessions.
enum SessionsCommand {
  static let usage = "usage: storehost sessions check [--data DIR | --database URL]"
  /// Unreadable sessions printed one by one; the rest are counted.
  static let listed = 10

  static func run(_ arguments: [String]) -> Int32 {
    guard arguments.first == "check" else { return fail(usage, status: 2) }
    let settings: Settings
    do {
      guard let parsed = try parseSettings(arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
      else {
        print(usage)
        return 0
      }
      settings = parsed
    } catch {
      return fail(error.description, status: 2)
    }
    let snapshots: [SessionSnapshot]
    let source: String
    do {
      if let database = settings.database {
        source = "postgres"
        snapshots = try PostgresSessionPersistence.readSessions(url: database)
      } else {
        source = settings.dataDirectory + "/sessions.sqlite"
        snapshots =
          FileManager.default.fileExists(atPath: source) ? try SQLiteSessionPersistence.readSessions(path: source) : []
      }
    } catch {
      return fail("cannot read the saved sessions in \(settings.database == nil ? settings.dataDirectory : "the database"): \(error)", status: 1)
    }
    let report = SessionHost<AppFeature.State, AppFeature.Action>.check(snapshots)
    let stateVersion = SavedState.version(of: AppFeature.State.self)
    print(
      "\(snapshots.count) saved sessions in \(source): \(report.readable) readable, \(report.unreadable.count) unreadable by this build (state version \(stateVersion))"
    )
    for session in report.unreadable.prefix(listed) {
      print("  \(session.id) (state version \(session.stateVersion)): \(session.reason)")
    }
    if report.unreadable.count > listed { print("  and \(report.unreadable.count - listed) more") }
    return report.unreadable.isEmpty ? 0 : 1
  }

  private static func fail(_ message: String, status: Int32) -> Int32 {
    FileHandle.standardError.write(Data("storehost: \(message)\n".utf8))
    return status
  }
}
