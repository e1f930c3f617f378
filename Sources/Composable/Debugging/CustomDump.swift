/// A readable, multi-line description of `value`, as swift-custom-dump's `customDump` writes
/// it: one struct field or collection element per line (a struct with a single simple field
/// on one line), elements numbered, enum cases with their payloads, strings quoted,
/// dictionaries and sets sorted, module names left out of type names.
///
/// ```swift
/// customDump(Counter.State(count: 1, isEven: false))
/// // Counter.State(
/// //   count: 1,
/// //   isEven: false
/// // )
/// ```
///
/// Test failures and `Reducer/_printChanges(_:)` show state and actions this way.
public func customDump(_ value: Any) -> String {
  DumpNode(value).render(isRoot: true, maxDepth: .max)
}

/// A type that ``customDump(_:)`` shows as a line of text of its own.
public protocol CustomDumpStringConvertible {
  /// The text ``customDump(_:)`` shows for the value.
  var customDumpDescription: String { get }
}

/// A type that chooses how ``customDump(_:)`` shows it, by the children and display style
/// of a mirror.
public protocol CustomDumpReflectable {
  /// The mirror ``customDump(_:)`` reads instead of the default one.
  var customDumpMirror: Mirror { get }
}

extension IdentifiedArray: CustomDumpReflectable {
  /// The elements, shown as an array.
  public var customDumpMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}

extension DumpNode {
  /// The dump of this node, labeled `name`, every line indented by `indent`. Below
  /// `maxDepth` levels, groups show `…` in place of their children.
  func render(name: String? = nil, indent: Int = 0, isRoot: Bool, maxDepth: Int) -> String {
    (name.map { "\($0): " } ?? "").appending(body(named: name != nil, isRoot: isRoot, maxDepth: maxDepth))
      .indented(by: indent)
  }

  private func body(named: Bool, isRoot: Bool, maxDepth: Int) -> String {
    switch self {
    case let .text(text):
      return text
    case let .string(string):
      return quoted(string, named: named, maxDepth: maxDepth)
    case let .some(wrapped):
      return wrapped.render(isRoot: false, maxDepth: maxDepth)
    case let .enumCase(type, name, payload):
      let prefix = (isRoot ? type : "") + "." + name
      guard let payload else { return prefix }
      return DumpNode.renderChildren(payload, of: .tuple, open: prefix + "(", close: ")", maxDepth: maxDepth)
    case let .group(group, children):
      if children.isEmpty && group.kind == .dictionary { return "[:]" }
      return DumpNode.renderChildren(children, of: group.kind, open: group.open, close: group.close, maxDepth: maxDepth)
    }
  }

  /// `open`, the children (inline when there is one simple child, otherwise one per line,
  /// indented), then `close`.
  static func renderChildren(
    _ children: [DumpChild], of kind: DumpGroup.Kind, open: String, close: String, maxDepth: Int
  ) -> String {
    guard !children.isEmpty else { return open + close }
    let labeled = children.enumerated().map { offset, child in
      DumpChild(label: kind == .collection ? "[\(offset)]" : child.label, node: child.node)
    }
    if isSingleValue(children, of: kind) {
      let child = labeled[0]
      let text = child.node.render(name: child.label, isRoot: false, maxDepth: maxDepth - 1)
      guard text.contains("\n") else { return open + text + close }
      return open + (maxDepth <= 0 ? "…" : "\n" + text.indented(by: 2) + "\n") + close
    }
    guard maxDepth > 0 else { return open + "…" + close }
    let lines = labeled.map { $0.node.render(name: $0.label, indent: 2, isRoot: false, maxDepth: maxDepth - 1) }
    return open + "\n" + lines.joined(separator: ",\n") + "\n" + close
  }

  /// Whether `children` is a single child simple enough to show inline: one without
  /// children of its own, not an element.
  static func isSingleValue(_ children: [DumpChild], of kind: DumpGroup.Kind) -> Bool {
    guard children.count == 1, !kind.hasElements else { return false }
    switch children[0].node {
    case let .text(text): return !text.contains("\n")
    case .string: return true
    case .some: return false
    case let .enumCase(_, _, payload): return payload == nil
    case let .group(_, grandchildren): return grandchildren.isEmpty
    }
  }

  /// A string literal for `string`: raw when it holds quotes or backslashes, multi-line
  /// when it holds line breaks.
  private func quoted(_ string: String, named: Bool, maxDepth: Int) -> String {
    if string.contains(where: \.isNewline) {
      guard maxDepth > 0 else { return "\"…\"" }
      let hashes = String(repeating: "#", count: string.rawHashCount(multiline: true))
      return hashes + "\"\"\"\n" + string.indented(by: named ? 2 : 0) + "\n" + (named ? "  " : "") + "\"\"\"" + hashes
    }
    guard string.contains("\"") || string.contains("\\") else { return string.debugDescription }
    let hashes = String(repeating: "#", count: max(string.rawHashCount(multiline: false), 1))
    return hashes + "\"" + string + "\"" + hashes
  }
}

extension String {
  /// Every line of the text indented by `count` spaces.
  func indented(by count: Int) -> String {
    guard count > 0 else { return self }
    let indentation = String(repeating: " ", count: count)
    return indentation + replacingOccurrences(of: "\n", with: "\n" + indentation)
  }

  /// How many `#` a raw literal of this text needs so that no quote in it ends the literal.
  fileprivate func rawHashCount(multiline: Bool) -> Int {
    let quote = multiline ? "\"\"\"" : "\""
    var count = 0
    var rest = self[...]
    while let range = rest.range(of: quote) {
      rest = rest[range.upperBound...]
      let run = rest.prefix(while: { $0 == "#" }).count
      count = Swift.max(count, run + 1)
    }
    return count
  }
}
