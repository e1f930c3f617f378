import Foundation

/// "action" or "actions".
func actions(_ count: Int) -> String { count == 1 ? "action" : "actions" }

/// Each value's ``customDump(_:)``, indented, one after the other.
func dumpList(_ values: [Any]) -> String {
  values.map { indent(customDump($0)) }.joined(separator: "\n")
}

/// `text` with every line indented by two spaces.
func indent(_ text: String) -> String {
  "  " + text.replacingOccurrences(of: "\n", with: "\n  ")
}

/// A line diff of the ``customDump(_:)`` of two values: `-` lines from `old`, `+` from `new`.
func dumpDiff(_ old: Any, _ new: Any) -> String {
  textDiff(customDump(old), customDump(new))
}

/// A line diff of two texts: `-` lines from `old`, `+` from `new`.
func textDiff(_ old: String, _ new: String) -> String {
  func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
  return TextDiff.lines(from: lines(old), to: lines(new)).joined(separator: "\n")
}
