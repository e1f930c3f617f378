import Foundation
import StoreHostJSON

/// Writes the Swift Testing test that rebuilds a session from its history (a
/// ``HistoryScript``): a `TestStore` starting at the script's first state runs the app's
/// root feature with its effects dropped, and every recorded action is sent in order (those
/// its effects sent back too), each step asserting the change it made when it was recorded.
struct HistoryTestExport {
  /// The session the history is of.
  let sessionID: SessionID
  /// The root feature's type, module first: `StoreHostDemo.AppFeature`.
  let featureTypeName: String
  /// The state's type, module first: `StoreHostDemo.AppFeature.State`.
  let stateTypeName: String
  /// This build's state version, which every state of the script is in.
  let stateVersion: Int
  /// Where the file is exported from, for its header: a route, or a command.
  let origin: String

  /// The test's source.
  func source<State>(of script: HistoryScript<State>) -> String {
    let module = String(featureTypeName.prefix { $0 != "." })
    let feature = unqualified(featureTypeName)
    let testName = "replaySession_" + sessionID.rawValue.replacingOccurrences(of: "-", with: "_")
    var lines = header(of: script, module: module, feature: feature, testName: testName)
    lines += [
      "import ComposableArchitecture",
      "import ComposableTesting",
      "import Foundation",
      "import \(module)",
      "import Testing",
      "",
      "@Test func \(testName)() async throws {",
      "  let initialState: \(unqualified(stateTypeName)) = try Recorded.state(",
      "    \(literal(script.startJSON)),",
      "    stateVersion: \(stateVersion))",
      "  let store = TestStore(initialState: initialState) {",
      "    \(feature)().droppingEffects()",
      "  }",
    ]
    for step in script.steps { lines += [""] + statements(of: step) }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  private func header<State>(of script: HistoryScript<State>, module: String, feature: String, testName: String)
    -> [String]
  {
    let last = script.steps.last?.version ?? script.startVersion
    var text = [
      "A Swift Testing test rebuilt from the history StoreHost kept of session \(sessionID): \(script.steps.count) "
        + "recorded steps, from version \(script.startVersion) to version \(last), exported by \(origin)."
    ]
    if script.skippedSteps > 0 {
      text[0] +=
        " It starts after the \(script.skippedSteps) kept steps before version \(script.startVersion): the state "
        + "there was changed without an action of the session (a shared value changed elsewhere, a restart, a "
        + "clearing), or cannot be read by this build."
    }
    text += [
      "A TestStore starts at the session's state at version \(script.startVersion) and runs \(feature) with its "
        + "effects dropped (droppingEffects()): the actions the session's clients sent and the actions its effects "
        + "sent back are all sent here, in the order they were reduced, so the test needs no network and no clock. "
        + "Each step asserts the change its action made when it was recorded, as a JSON Patch of the state's JSON, "
        + "and gives the reducer the UUIDs and dates it drew then; a reducer that now behaves differently fails "
        + "that step with TestStore's diff of the state. Where one send's actions made one version together, the "
        + "state between them was not recorded: those steps assert the state after the last of them.",
      "To run it, put this file in a test target that depends on \(module) and on the ComposableArchitecture and "
        + "ComposableTesting products of StoreHost, as in this Package.swift entry:",
    ]
    var lines = text.flatMap { wrapped($0) + ["//"] }
    lines += [
      "//   .testTarget(",
      "//     name: \"RecordedSessionTests\",",
      "//     dependencies: [",
      "//       \"\(module)\",",
      "//       .product(name: \"ComposableArchitecture\", package: \"StoreHost\"),",
      "//       .product(name: \"ComposableTesting\", package: \"StoreHost\"),",
      "//     ])",
      "//",
      "// then run `swift test --filter \(testName)`.",
      "",
    ]
    return lines
  }

  /// The statements of one step.
  private func statements<State>(of step: HistoryScript<State>.Step) -> [String] {
    let time = Self.timeFormat.string(from: Date(timeIntervalSince1970: Double(step.time) / 1000))
    guard let only = step.actions.first else {
      return ["  // Version \(step.version), \(time) UTC: the session was rebuilt here, with the same state."]
    }
    guard step.actions.count > 1 else {
      var lines = ["  // Version \(step.version), \(time) UTC: sent by \(sender(of: only))."] + dependencies(of: only)
      let send = "  try await store.send(Recorded.action(\(literal(only.action))))"
      guard !step.patch.isEmpty else { return lines + [send] }
      let patch = String(decoding: (try? JSONEncoding.encode(step.patch)) ?? [], as: UTF8.self)
      lines += [send + " {", "    try Recorded.apply(\(literal(patch)), to: &$0)", "  }"]
      return lines
    }
    var lines = [
      "  // Version \(step.version), \(time) UTC: \(step.actions.count) actions made this version together, and the",
      "  // state between them was not recorded: they are sent without checking it, then the state after them",
      "  // is checked whole.",
      "  store.exhaustivity = .off",
    ]
    for action in step.actions {
      lines += ["  // Sent by \(sender(of: action))."] + dependencies(of: action)
      lines.append("  try await store.send(Recorded.action(\(literal(action.action))))")
    }
    lines += [
      "  store.assert {",
      "    $0 = try Recorded.state(\(literal(step.expected)), stateVersion: \(stateVersion))",
      "  }",
      "  store.exhaustivity = .on",
    ]
    return lines
  }

  private func sender(of action: RecordedHistory.Action) -> String {
    action.source == "effect" ? "an effect" : "the client"
  }

  /// Sets the UUIDs and dates the reducer drew while reducing `action`.
  private func dependencies(of action: RecordedHistory.Action) -> [String] {
    var lines: [String] = []
    let uuids = action.uuids.map { "UUID(uuidString: \"\($0)\")!" }
    if uuids.count == 1 { lines.append("  store.dependencies.uuid = .constant(\(uuids[0]))") }
    if uuids.count > 1 { lines.append("  store.dependencies.uuid = .sequence([\(uuids.joined(separator: ", "))])") }
    let dates = action.dates.map { "Date(timeIntervalSinceReferenceDate: \($0))" }
    if dates.count == 1 { lines.append("  store.dependencies.date = .constant(\(dates[0]))") }
    if dates.count > 1 { lines.append("  store.dependencies.date = .sequence([\(dates.joined(separator: ", "))])") }
    return lines
  }

  /// `json` as a raw string literal: enough `#` around it that nothing in the JSON ends the
  /// literal early (`"#`) or starts an escape in it (`\#`).
  private func literal(_ json: JSONValue) -> String {
    literal(json.jsonString)
  }

  private func literal(_ text: String) -> String {
    var longest = 0
    var run = 0
    var afterQuoteOrBackslash = false
    for character in text {
      if character == "#" && afterQuoteOrBackslash {
        run += 1
        longest = max(longest, run)
      } else {
        run = 0
        afterQuoteOrBackslash = character == "\"" || character == "\\"
      }
    }
    let delimiter = String(repeating: "#", count: longest + 1)
    return delimiter + "\"" + text + "\"" + delimiter
  }

  /// A type's name without its module: `AppFeature.State`.
  private func unqualified(_ name: String) -> String {
    guard let dot = name.firstIndex(of: ".") else { return name }
    return String(name[name.index(after: dot)...])
  }

  /// `text` as `//` comment lines of at most about 100 characters.
  private func wrapped(_ text: String) -> [String] {
    var lines: [String] = []
    var line = "//"
    for word in text.split(separator: " ") {
      if line.count + word.count + 1 > 100 {
        lines.append(line)
        line = "//"
      }
      line += " " + word
    }
    return lines + [line]
  }

  private static let timeFormat: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    return formatter
  }()
}
