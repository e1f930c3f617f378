import Foundation

/// A readable, multi-line description of `value`, made to be diffed line by line: one
/// struct field or collection element per line, enum cases with their payloads, strings
/// quoted, dictionaries and sets sorted, module names left out of type names.
///
/// ```swift
/// customDump(Counter.State(count: 1))
/// // Counter.State(
/// //   count: 1
/// // )
/// ```
///
/// Test failures and `Reducer/_printChanges(_:)` show state and actions this way.
public func customDump(_ value: Any) -> String {
  var dumper = CustomDumper()
  return dumper.dump(value, isRoot: true)
}

/// A type that chooses how ``customDump(_:)`` shows it, by the children and display style
/// of a mirror.
public protocol CustomDumpReflectable {
  /// The mirror ``customDump(_:)`` reads instead of the default one.
  var customDumpMirror: Mirror { get }
}

/// A type that ``customDump(_:)`` shows as one line of its choosing.
public protocol CustomDumpStringConvertible {
  /// The line ``customDump(_:)`` shows for the value.
  var customDumpDescription: String { get }
}

extension IdentifiedArray: CustomDumpReflectable {
  /// The elements, shown as an array.
  public var customDumpMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}

/// Walks a value's mirror, remembering the objects it is inside to stop at cycles.
private struct CustomDumper {
  private var visiting: Set<ObjectIdentifier> = []

  mutating func dump(_ value: Any, isRoot: Bool) -> String {
    if let shared = value as? any SharedBoxHolder { return dump(shared.dumpedValue, isRoot: isRoot) }
    if let text = leaf(value) { return text }
    let mirror = (value as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: value)
    let type = typeName(Swift.type(of: value))
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return "nil" }
      return dump(wrapped, isRoot: isRoot)
    case .struct:
      return block(type + "(", fields(mirror), ")", empty: type + "()")
    case .class:
      let id = ObjectIdentifier(value as AnyObject)
      guard visiting.insert(id).inserted else { return type + "(↩︎)" }
      defer { visiting.remove(id) }
      return block(type + "(", fields(mirror), ")", empty: type + "()")
    case .enum:
      let prefix = isRoot ? type + "." : "."
      guard let payload = mirror.children.first else { return prefix + "\(value)" }
      return prefix + (payload.label ?? "") + group(tupleItems(payload.value))
    case .tuple:
      return group(tupleItems(value))
    case .collection:
      return block("[", mirror.children.map { dump($0.value, isRoot: false) }, "]", empty: "[]")
    case .set:
      return block("Set([", mirror.children.map { dump($0.value, isRoot: false) }.sorted(), "])", empty: "Set([])")
    case .dictionary:
      let entries = mirror.children.map { entry -> (key: String, value: String) in
        let pair = Array(Mirror(reflecting: entry.value).children)
        return (dump(pair[0].value, isRoot: false), dump(pair[1].value, isRoot: false))
      }
      let lines = entries.sorted { $0.key < $1.key }.map { labeled($0.key, $0.value) }
      return block("[", lines, "]", empty: "[:]")
    default:
      return "\(value)"
    }
  }

  /// Values shown by a single literal-like line.
  private func leaf(_ value: Any) -> String? {
    switch value {
    case let string as String: string.debugDescription
    case let string as Substring: String(string).debugDescription
    case let character as Character: String(character).debugDescription
    case let uuid as UUID: "UUID(\(uuid.uuidString))"
    case let date as Date: "Date(\(date.formatted(.iso8601)))"
    case let url as URL: "URL(\(url.absoluteString))"
    case let duration as Duration: "\(duration)"
    case let value as any CustomDumpStringConvertible: value.customDumpDescription
    default: nil
    }
  }

  /// The stored properties of a struct or class (with its superclasses'), one per line.
  private mutating func fields(_ mirror: Mirror) -> [String] {
    var lines = mirror.superclassMirror.map { fields($0) } ?? []
    for child in mirror.children {
      guard let label = child.label, !label.hasPrefix("_$") else { continue }
      // `@Shared var count` is stored as `_count`, `@Presents var destination` as
      // `_destination`; show them by their names.
      let isWrapper = child.value is any SharedBoxHolder || child.value is any PresentationStateProtocol
      let name = isWrapper && label.hasPrefix("_") ? String(label.dropFirst()) : label
      lines.append(labeled(name, dump(child.value, isRoot: false)))
    }
    return lines
  }

  /// The elements of a tuple (or the single payload of an enum case), labeled when named.
  private mutating func tupleItems(_ value: Any) -> [String] {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .tuple else { return [dump(value, isRoot: false)] }
    return mirror.children.map { child in
      let text = dump(child.value, isRoot: false)
      guard let label = child.label, !label.hasPrefix(".") else { return text }
      return labeled(label, text)
    }
  }

  /// `(a, b)` on one line when short, otherwise one item per line.
  private func group(_ items: [String]) -> String {
    let inline = "(" + items.joined(separator: ", ") + ")"
    if inline.count <= 80 && !inline.contains("\n") { return inline }
    return block("(", items, ")", empty: "()")
  }

  private func labeled(_ label: String, _ text: String) -> String { label + ": " + text }

  /// `open`, then each item indented on its own line (comma-separated), then `close`.
  private func block(_ open: String, _ items: [String], _ close: String, empty: String) -> String {
    guard !items.isEmpty else { return empty }
    let body = items.map { $0.replacingOccurrences(of: "\n", with: "\n  ") }
      .joined(separator: ",\n  ")
    return open + "\n  " + body + "\n" + close
  }
}
