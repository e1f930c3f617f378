import Foundation

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
}
