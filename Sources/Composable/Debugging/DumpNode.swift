import Foundation

/// A value as ``customDump(_:)`` sees it: read once through its mirror, then rendered or
/// diffed. Reading first lets a value be dumped as it was at one moment (a state's shared
/// values change after it is read) and lets two values be compared part by part.
indirect enum DumpNode: Equatable {
  /// Shown as is: numbers, booleans, `nil`, UUIDs, dates, a cycle back to an object.
  case text(String)
  /// A string, quoted as its content requires.
  case string(String)
  /// An optional's wrapped value, shown without its enum's type.
  case some(DumpNode)
  /// An enum case, with its payload (a tuple's elements) if it has one.
  case enumCase(type: String, name: String, payload: [DumpChild]?)
  /// A struct, class, tuple or collection: its children between `open` and `close`.
  case group(DumpGroup, [DumpChild])

  /// Reads `value` through its mirror.
  init(_ value: Any) {
    var reader = DumpReader()
    self = reader.read(value)
  }
}

/// One child of a ``DumpNode``: a field, element or payload value, and its label.
struct DumpChild: Equatable {
  var label: String?
  var node: DumpNode
}

/// What kind of group a ``DumpNode/group(_:_:)`` is, and how it opens and closes.
struct DumpGroup: Equatable {
  enum Kind: Equatable {
    case structure, object, tuple, collection, dictionary, set

    /// Whether the children are elements: unchanged runs of them are collapsed in a diff.
    var hasElements: Bool { self == .collection || self == .dictionary || self == .set }
  }

  var kind: Kind
  var open: String
  var close: String
}

/// Walks a value's mirror into a ``DumpNode``, remembering the objects it is inside to stop
/// at cycles.
private struct DumpReader {
  private var visiting: Set<ObjectIdentifier> = []

  mutating func read(_ value: Any) -> DumpNode {
    if let shared = value as? any SharedBoxHolder { return read(shared.dumpedValue) }
    if let type = value as? Any.Type { return .text(typeName(type) + ".self") }
    if let string = value as? any StringProtocol { return .string(String(string)) }
    if let convertible = value as? any CustomDumpStringConvertible { return .text(convertible.customDumpDescription) }
    if let text = leaf(value) { return .text(text) }
    let mirror = (value as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: value)
    let type = typeName(mirror.subjectType)
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.map { .some(read($0.value)) } ?? .text("nil")
    case .struct:
      return .group(
        DumpGroup(kind: .structure, open: type + "(", close: ")"),
        fields(mirror, observed: value is any ObservableState))
    case .class:
      let id = ObjectIdentifier(value as AnyObject)
      guard visiting.insert(id).inserted else { return .text(type + "(↩︎)") }
      defer { visiting.remove(id) }
      return .group(DumpGroup(kind: .object, open: type + "(", close: ")"), fields(mirror))
    case .enum:
      guard let payload = mirror.children.first else {
        return .enumCase(type: type, name: "\(value)", payload: nil)
      }
      return .enumCase(type: type, name: payload.label ?? "@unknown", payload: tupleItems(payload.value))
    case .tuple:
      return .group(DumpGroup(kind: .tuple, open: "(", close: ")"), tupleItems(value))
    case .collection:
      return .group(
        DumpGroup(kind: .collection, open: "[", close: "]"),
        mirror.children.map { DumpChild(label: nil, node: read($0.value)) })
    case .set:
      let elements = mirror.children.map { DumpChild(label: nil, node: read($0.value)) }
      let isUnordered = value is any UnorderedCollection
      return .group(
        DumpGroup(kind: .set, open: "Set([", close: "])"),
        isUnordered ? elements.sorted { $0.node.sortKey < $1.node.sortKey } : elements)
    case .dictionary:
      let entries = mirror.children.map { entry -> DumpChild in
        let pair = Array(Mirror(reflecting: entry.value).children)
        return DumpChild(label: read(pair[0].value).sortKey, node: read(pair[1].value))
      }
      // A dictionary's order means nothing, so it is sorted by key; an ordered one (a
      // stack's elements by id) keeps its order.
      let isUnordered = value is any UnorderedCollection
      return .group(
        DumpGroup(kind: .dictionary, open: "[", close: "]"),
        isUnordered ? entries.sorted { $0.label ?? "" < $1.label ?? "" } : entries)
    default:
      return .text("\(value)")
    }
  }

  /// Values shown by a single literal-like line.
  private func leaf(_ value: Any) -> String? {
    switch value {
    case let uuid as UUID: "UUID(\(uuid.uuidString))"
    case let date as Date: "Date(\(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))))"
    case let url as URL: "URL(\(url.absoluteString))"
    case let duration as Duration: "\(duration)"
    default: nil
    }
  }

  /// The stored properties of a struct or class (with its superclasses'), in order.
  /// An `observed` struct is an `@ObservableState` one, whose observed `var count` is
  /// stored as `_count`.
  private mutating func fields(_ mirror: Mirror, observed: Bool = false) -> [DumpChild] {
    var children = mirror.superclassMirror.map { fields($0) } ?? []
    for child in mirror.children {
      guard let label = child.label, !label.hasPrefix("_$") else { continue }
      // `@Shared var count` is stored as `_count`, `@Presents var destination` as
      // `_destination`, and so is an observed `var count`; show them by their names.
      let isWrapper =
        observed || child.value is any SharedBoxHolder || child.value is any PresentationStateProtocol
      let name = isWrapper && label.hasPrefix("_") ? String(label.dropFirst()) : label
      children.append(DumpChild(label: name, node: read(child.value)))
    }
    return children
  }

  /// The elements of a tuple (or the single payload of an enum case), labeled when named.
  private mutating func tupleItems(_ value: Any) -> [DumpChild] {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .tuple else { return [DumpChild(label: nil, node: read(value))] }
    return mirror.children.map { child in
      let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
      return DumpChild(label: label, node: read(child.value))
    }
  }
}

extension DumpNode {
  /// The one-level dump that orders the elements of sets and the keys of dictionaries.
  var sortKey: String { render(isRoot: false, maxDepth: 1) }
}

/// A collection whose order means nothing: ``customDump(_:)`` sorts its elements.
private protocol UnorderedCollection {}
extension Dictionary: UnorderedCollection {}
extension Set: UnorderedCollection {}
