/// The difference between the ``customDump(_:)`` of two values, as swift-custom-dump's
/// `diff` shows it: the parts that differ, line by line, marked as removed (`lhs`) or
/// added (`rhs`), inside the unchanged structure around them; runs of unchanged
/// collection elements are collapsed. `nil` when the dumps are the same.
///
/// ```swift
/// diff(Counter.State(count: 0, isEven: true), Counter.State(count: 1, isEven: true))
/// //   Counter.State(
/// // -   count: 0,
/// // +   count: 1,
/// //     isEven: true
/// //   )
/// ```
public func diff<T>(_ lhs: T, _ rhs: T, format: DiffFormat = .default) -> String? {
  DumpNode(lhs).diff(DumpNode(rhs), format: format)
}

/// The marks a ``diff(_:_:format:)`` puts in front of its lines.
public struct DiffFormat: Sendable {
  /// Marks lines of the first value only: removals.
  public var first: String
  /// Marks lines of the second value only: additions.
  public var second: String
  /// Marks lines of both values: unchanged.
  public var both: String

  public init(first: String, second: String, both: String) {
    self.first = first
    self.second = second
    self.both = both
  }

  /// `-`, `+` and a space, for monospaced output such as a console.
  public static let `default` = Self(first: "-", second: "+", both: " ")

  /// A minus sign (U+2212), `+` and a figure space (U+2007): marks of one width in
  /// proportional fonts too. Test failures use it.
  public static let proportional = Self(first: "\u{2212}", second: "+", both: "\u{2007}")
}

extension DumpNode {
  /// The difference from this dump to `other`; `nil` when they are the same.
  func diff(_ other: DumpNode, format: DiffFormat) -> String? {
    guard self != other else { return nil }
    var differ = DumpDiffer(format: format)
    differ.diff(self, other, lhsName: nil, rhsName: nil, separator: "", indent: 0, isRoot: true)
    return differ.lines.joined(separator: "\n")
  }
}

/// Writes the lines of a diff of two ``DumpNode``s, walking both together.
private struct DumpDiffer {
  let format: DiffFormat
  private(set) var lines: [String] = []

  init(format: DiffFormat) { self.format = format }

  /// Writes the text (every line of it) marked with `mark`, `separator` after its last line.
  private mutating func write(_ text: String, mark: String, separator: String = "") {
    let text = text + separator
    lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { mark + " " + $0 }
  }

  mutating func diff(
    _ lhs: DumpNode, _ rhs: DumpNode, lhsName: String?, rhsName: String?, separator: String, indent: Int,
    isRoot: Bool
  ) {
    let rhsName = rhsName ?? lhsName
    if lhsName == rhsName && lhs == rhs {
      return write(
        lhs.render(name: rhsName, indent: indent, isRoot: isRoot, maxDepth: 0), mark: format.both,
        separator: separator)
    }
    switch (lhs, rhs) {
    case let (.some(lhs), .some(rhs)):
      diff(lhs, rhs, lhsName: lhsName, rhsName: rhsName, separator: separator, indent: indent, isRoot: isRoot)
    case let (.enumCase(type, name, lhsPayload?), .enumCase(rhsType, rhsCase, rhsPayload?))
    where type == rhsType && name == rhsCase:
      diffChildren(
        lhs, rhs, lhsPayload, rhsPayload, name: rhsName, open: (isRoot ? type : "") + "." + name + "(",
        close: ")", kind: .tuple, separator: separator, indent: indent, isRoot: isRoot)
    case let (.group(group, lhsChildren), .group(rhsGroup, rhsChildren)) where group == rhsGroup:
      diffChildren(
        lhs, rhs, lhsChildren, rhsChildren, name: rhsName, open: group.open, close: group.close,
        kind: group.kind, separator: separator, indent: indent, isRoot: isRoot)
    default:
      diffEverything(lhs, rhs, lhsName: lhsName, rhsName: rhsName, separator: separator, indent: indent, isRoot: isRoot)
    }
  }

  /// Both values in full, one removed and one added.
  private mutating func diffEverything(
    _ lhs: DumpNode, _ rhs: DumpNode, lhsName: String?, rhsName: String?, separator: String, indent: Int,
    isRoot: Bool
  ) {
    write(lhs.render(name: lhsName, indent: indent, isRoot: isRoot, maxDepth: .max), mark: format.first, separator: separator)
    write(rhs.render(name: rhsName, indent: indent, isRoot: isRoot, maxDepth: .max), mark: format.second, separator: separator)
  }

  /// The children of two groups of the same kind, matched by label (fields, payloads,
  /// dictionary keys) or by value (elements). Unchanged runs of elements are collapsed; those
  /// of sets and dictionaries, which are sorted, all at the end.
  private mutating func diffChildren(
    _ lhs: DumpNode, _ rhs: DumpNode, _ lhsChildren: [DumpChild], _ rhsChildren: [DumpChild],
    name: String?, open: String, close: String, kind: DumpGroup.Kind, separator: String,
    indent: Int, isRoot: Bool
  ) {
    let hasElements = kind.hasElements
    let isSorted = kind == .dictionary || kind == .set
    let numbered = kind == .collection
    let matchesByValue = kind == .collection || kind == .set
    if DumpNode.isSingleValue(lhsChildren, of: kind) || DumpNode.isSingleValue(rhsChildren, of: kind) {
      return diffEverything(lhs, rhs, lhsName: name, rhsName: name, separator: separator, indent: indent, isRoot: isRoot)
    }
    write((name.map { "\($0): " } ?? "").appending(open).indented(by: indent), mark: format.both)
    func label(_ child: DumpChild, _ offset: Int) -> String? { numbered ? "[\(offset)]" : child.label }
    let difference = rhsChildren.difference(from: lhsChildren) { lhs, rhs in
      matchesByValue ? lhs.node == rhs.node : lhs.label == rhs.label
    }
    var removals: Set<Int> = []
    var insertions: Set<Int> = []
    for change in difference {
      switch change {
      case let .remove(offset, _, _): removals.insert(offset)
      case let .insert(offset, _, _): insertions.insert(offset)
      }
    }
    let childIndent = indent + 2
    var lhsOffset = 0
    var rhsOffset = 0
    var unchanged: [DumpChild] = []

    func flushUnchanged(_ differ: inout DumpDiffer) {
      guard hasElements, !unchanged.isEmpty else { return }
      let isLast = rhsOffset - 1 == rhsChildren.count - 1
      let text =
        unchanged.count == 1 && !isSorted
        ? unchanged[0].node.render(name: unchanged[0].label, indent: childIndent, isRoot: false, maxDepth: 0)
        : "… (\(unchanged.count) unchanged)".indented(by: childIndent)
      differ.write(text, mark: differ.format.both, separator: isLast ? "" : ",")
      unchanged.removeAll()
    }

    while lhsOffset < lhsChildren.count || rhsOffset < rhsChildren.count {
      let isRemoval = removals.contains(lhsOffset)
      let isInsertion = insertions.contains(rhsOffset)
      if hasElements, !isRemoval, !isInsertion, lhsChildren[lhsOffset] == rhsChildren[rhsOffset] {
        let child = rhsChildren[rhsOffset]
        unchanged.append(DumpChild(label: label(child, rhsOffset), node: child.node))
        lhsOffset += 1
        rhsOffset += 1
        continue
      }
      if !isSorted { flushUnchanged(&self) }
      switch (isRemoval, isInsertion) {
      case (true, true), (false, false):
        let lhsChild = lhsChildren[lhsOffset]
        let rhsChild = rhsChildren[rhsOffset]
        let isLast = lhsOffset == lhsChildren.count - 1 && rhsOffset == rhsChildren.count - 1
        let lhsLabel = label(lhsChild, isRemoval ? lhsOffset : rhsOffset)
        let rhsLabel = label(rhsChild, rhsOffset)
        if numbered || lhsLabel == rhsLabel {
          diff(
            lhsChild.node, rhsChild.node, lhsName: lhsLabel, rhsName: rhsLabel, separator: isLast ? "" : ",",
            indent: childIndent, isRoot: false)
        } else {
          // Another key (a stack element's id): the one entry removed, the other added.
          diffEverything(
            lhsChild.node, rhsChild.node, lhsName: lhsLabel, rhsName: rhsLabel, separator: isLast ? "" : ",",
            indent: childIndent, isRoot: false)
        }
        lhsOffset += 1
        rhsOffset += 1
      case (true, false):
        let child = lhsChildren[lhsOffset]
        write(
          child.node.render(name: label(child, lhsOffset), indent: childIndent, isRoot: false, maxDepth: .max),
          mark: format.first, separator: lhsOffset == lhsChildren.count - 1 ? "" : ",")
        lhsOffset += 1
      case (false, true):
        let child = rhsChildren[rhsOffset]
        write(
          child.node.render(name: label(child, rhsOffset), indent: childIndent, isRoot: false, maxDepth: .max),
          mark: format.second, separator: rhsOffset == rhsChildren.count - 1 && unchanged.isEmpty ? "" : ",")
        rhsOffset += 1
      }
    }
    flushUnchanged(&self)
    write(close.indented(by: indent), mark: format.both, separator: separator)
  }
}
