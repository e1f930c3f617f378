import Composable
import Foundation
import StoreHost
import StoreHostDemo

/// `storehost sessions check [--data DIR | --database URL]`: reads every saved session with
/// this build, as a start would, without serving or changing anything (``SessionsCheck``);
/// prints how many it reads and why it cannot read the others, and exits 1 when any fails,
/// so a deploy pipeline can stop before the new build starts on the saved sessions.
enum SessionsCommand {
  static let usage = "usage: storehost sessions check [--data DIR | --database URL]"
  /// Unreadable sessions printed one by one; the rest are counted.
  static let listed = 10

  static func run(_ arguments: [String]) -> Int32 {
    guard arguments.first == "check" else { return Subcommand.fail(usage, status: 2) }
    let settings: Settings
    switch Subcommand.settings(Array(arguments.dropFirst()), usage: usage) {
    case .success(let parsed): settings = parsed
    case .failure(let exit): return exit.status
    }
    let report: SessionCheckReport
    do {
      guard let sessions = try Subcommand.savedSessions(settings) else {
        print("0 saved sessions in \(Subcommand.source(settings)): nothing to check")
        return 0
      }
      report = try SessionsCheck(initialState: AppFeature.State()).run(sessions)
    } catch {
      return Subcommand.fail("cannot read the saved sessions in \(Subcommand.source(settings)): \(error)", status: 1)
    }
    let stateVersion = SavedState.version(of: AppFeature.State.self)
    print(
      "\(report.total) saved sessions in \(Subcommand.source(settings)): \(report.readable) readable, \(report.unreadableCount) unreadable by this build (state version \(stateVersion))"
    )
    for session in report.unreadable.prefix(listed) {
      print("  \(session.id) (state version \(session.stateVersion)): \(session.reason)")
    }
    if report.unreadableCount > listed { print("  and \(report.unreadableCount - listed) more") }
    return report.unreadableCount == 0 ? 0 : 1
  }
}
