/// Line diffs, for test failures and `_printChanges`.
public enum TextDiff {
  /// A line diff of `old` and `new`, found with a longest common subsequence: unchanged
  /// lines start with two spaces, removed lines with "- ", added lines with "+ ".
  public static func lines(from old: [String], to new: [String]) -> [String] {
    let n = old.count, m = new.count
    var common = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        common[i][j] =
          old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
      }
    }
    var lines: [String] = []
    var i = 0, j = 0
    while i < n || j < m {
      if i < n, j < m, old[i] == new[j] {
        lines.append("  " + old[i])
        i += 1
        j += 1
      } else if i < n, j == m || common[i + 1][j] >= common[i][j + 1] {
        lines.append("- " + old[i])
        i += 1
      } else {
        lines.append("+ " + new[j])
        j += 1
      }
    }
    return lines
  }
}
