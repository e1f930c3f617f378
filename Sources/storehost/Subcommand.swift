import Foundation
import StoreHost
import StoreHostPostgres

/// What the `sessions` and `history` subcommands share: their settings, read as the server
/// reads its own (environment, then flags), and how they fail.
enum Subcommand {
  /// How a subcommand ends before it runs: with `status`, once it printed its usage
  /// (`--help`, 0) or an error (2).
  struct Exit: Error {
    let status: Int32
  }

  /// The settings `arguments` give, or the exit of a subcommand whose usage is `usage`.
  static func settings(_ arguments: [String], usage: String) -> Result<Settings, Exit> {
    do {
      guard let settings = try parseSettings(arguments: arguments, environment: ProcessInfo.processInfo.environment)
      else {
        print(usage)
        return .failure(Exit(status: 0))
      }
      return .success(settings)
    } catch {
      return .failure(Exit(status: fail(error.description, status: 2)))
    }
  }

  /// Writes `message` to standard error; returns `status`.
  static func fail(_ message: String, status: Int32) -> Int32 {
    FileHandle.standardError.write(Data("storehost: \(message)\n".utf8))
    return status
  }

  /// The saved sessions `settings` name, read without writing: the database's, or the
  /// SQLite file in the data directory (`nil` when there is none).
  static func savedSessions(_ settings: Settings) throws -> (any SavedSessions)? {
    if let database = settings.database { return try PostgresSavedSessions(url: database) }
    let path = settings.dataDirectory + "/sessions.sqlite"
    return FileManager.default.fileExists(atPath: path) ? try SQLiteSavedSessions(path: path) : nil
  }

  /// Where ``savedSessions(_:)`` reads, for messages (a database URL may hold a password).
  static func source(_ settings: Settings) -> String {
    settings.database == nil ? settings.dataDirectory + "/sessions.sqlite" : "the database"
  }
}
