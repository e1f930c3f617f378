import Foundation
import StoreHost
import StoreHostDemo

/// `storehost deploy-check [--data DIR | --database URL] [--sample N] [--allow ACTION]...
/// [--timeout SECONDS] [--json]`: the gate a new build runs against the data the running
/// build uses, before a rollout (``DeployCheck``). Reads without writing or taking a lease;
/// exits 0 when it passes, 1 when it fails, 2 on wrong usage.
enum DeployCheckCommand {
  static let usage = """
    usage: storehost deploy-check [--data DIR | --database URL] [--sample N] [--allow ACTION_PATH]... \
    [--timeout SECONDS] [--json]
      --sample N        replay the history of the N most recently active sessions (200)
      --allow PATH      an action whose changed behaviour is intended (repeatable): counter.incrementButtonTapped
      --timeout SECONDS fail when the check takes longer (300)
      --json            print the report as JSON
    """

  static func run(_ arguments: [String]) -> Int32 {
    var options = DeployCheck<AppFeature.State, AppFeature.Action>.Options()
    var json = false
    var rest: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--json": json = true
      case "--sample", "--allow", "--timeout":
        guard let value = remaining.popFirst() else { return Subcommand.fail("\(argument) needs a value\n\(usage)", status: 2) }
        switch argument {
        case "--sample":
          guard let sample = Int(value), sample >= 0 else { return Subcommand.fail("--sample: '\(value)' is not a count", status: 2) }
          options.sample = sample
        case "--timeout":
          guard let seconds = Double(value), seconds > 0 else {
            return Subcommand.fail("--timeout: '\(value)' is not a number of seconds", status: 2)
          }
          options.timeout = .milliseconds(Int64(seconds * 1000))
        default: options.allowedActions.insert(value)
        }
      default: rest.append(argument)
      }
    }
    let settings: Settings
    switch Subcommand.settings(rest, usage: usage) {
    case .success(let parsed): settings = parsed
    case .failure(let exit): return exit.status
    }
    let report: DeployCheckReport
    do {
      guard let sessions = try Subcommand.savedSessions(settings) else {
        print("0 saved sessions in \(Subcommand.source(settings)): nothing to check")
        return 0
      }
      report = try DeployCheck(initialState: AppFeature.State()) { AppFeature() }.run(sessions, options: options)
    } catch {
      return Subcommand.fail("cannot read the saved sessions in \(Subcommand.source(settings)): \(error)", status: 1)
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      print(String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self))
    } else {
      print(report)
    }
    return report.passed ? 0 : 1
  }
}
