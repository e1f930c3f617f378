/// The identity of a feature pushed on a ``StackState``: `0`, `1`, ... in the order pushed.
public struct StackElementID: Hashable, Comparable, Codable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  public let rawValue: Int

  /// TCA's name for ``rawValue``: the how-manieth push made the id.
  public var generation: Int { rawValue }

  public init(integerLiteral value: Int) { self.rawValue = value }

  public init(from decoder: any Decoder) throws {
    self.rawValue = try decoder.singleValueContainer().decode(Int.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

/// A stack of pushed features, a drill-down: `var path = StackState<Path.State>()`.
///
/// Each element keeps the ``StackElementID`` it got when pushed, so actions address it by
/// id however the stack changes. It is a random-access collection of the elements, bottom
/// first. It encodes as `[{"id": 0, "state": {...}}, ...]`, so a page can send
/// `{"path": {"element": {"id": 0, "action": ...}}}` and `{"path": {"popFrom": {"id": 0}}}`.
public struct StackState<Element>: RandomAccessCollection {
  private var elements: [(id: StackElementID, element: Element)] = []
  private var nextID = 0
  /// The ids `forEach` left on the stack when it last ran (`nil` before it first ran): the
  /// elements another reducer removed since then have effects to cancel. Not part of the
  /// value: neither compared nor encoded.
  var mountedIDs: [StackElementID]?

  /// An empty stack.
  public init() {}

  /// A stack of `elements`, bottom first, with ids `0`, `1`, ...
  public init(_ elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }

  public subscript(position: Int) -> Element {
    get { elements[position].element }
    set { elements[position].element = newValue }
  }

  /// The ids of the elements, bottom first.
  public var ids: [StackElementID] { elements.map(\.id) }

  /// The element pushed with `id`, if it is still on the stack. Setting an element for a
  /// new id pushes it with that id (as a test asserts `$0.path[id: 0] = ...` after a push);
  /// setting `nil` removes it.
  public subscript(id id: StackElementID) -> Element? {
    get { elements.first(where: { $0.id == id })?.element }
    set {
      guard let index = elements.firstIndex(where: { $0.id == id }) else {
        if let newValue { append(newValue, id: id) }
        return
      }
      if let newValue { elements[index].element = newValue } else { elements.remove(at: index) }
    }
  }

  /// Pushes `element` with the next id.
  public mutating func append(_ element: Element) {
    append(element, id: StackElementID(integerLiteral: nextID))
  }

  /// Pushes `element` with `id` (as `StackAction.push` does); ids after it come after `id`.
  mutating func append(_ element: Element, id: StackElementID) {
    elements.append((id, element))
    nextID = Swift.max(nextID, id.rawValue + 1)
  }

  /// Removes the top element.
  @discardableResult
  public mutating func removeLast() -> Element { elements.removeLast().element }

  /// Removes the top element, if any.
  @discardableResult
  public mutating func popLast() -> Element? { elements.popLast()?.element }

  /// Removes the element pushed with `id` and every element above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = elements.firstIndex(where: { $0.id == id }) else { return }
    elements.removeSubrange(index...)
  }

  /// Removes every element above the one pushed with `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = elements.firstIndex(where: { $0.id == id }) else { return }
    elements.removeSubrange((index + 1)...)
  }

  /// Removes every element.
  public mutating func removeAll() { elements.removeAll() }

  /// Whether the stack holds `id`.
  func contains(id: StackElementID) -> Bool { elements.contains { $0.id == id } }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when they hold equal elements with equal ids, in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elements.count == rhs.elements.count
      && zip(lhs.elements, rhs.elements).allSatisfy { $0.id == $1.id && $0.element == $1.element }
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomDumpReflectable {
  /// The elements by their ids, bottom first, as TCA shows them: `[#0: Child.State(…)]`.
  public var customDumpMirror: Mirror {
    Mirror(self, unlabeledChildren: elements.map { (key: $0.id, value: $0.element) }, displayStyle: .dictionary)
  }
}

extension StackElementID: CustomDumpStringConvertible {
  /// `#0`, `#1`, ...
  public var customDumpDescription: String { description }
}

extension StackState: CustomStringConvertible {
  public var description: String {
    "[" + elements.map { "\($0.id): \($0.element)" }.joined(separator: ", ") + "]"
  }
}

private enum StackCodingKey: String, CodingKey {
  case id, state
}

extension StackState: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for (id, element) in elements {
      var entry = container.nestedContainer(keyedBy: StackCodingKey.self)
      try entry.encode(id, forKey: .id)
      try entry.encode(element, forKey: .state)
    }
  }
}

extension StackState: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init()
    var container = try decoder.unkeyedContainer()
    while !container.isAtEnd {
      let entry = try container.nestedContainer(keyedBy: StackCodingKey.self)
      let id = try entry.decode(StackElementID.self, forKey: .id)
      guard !contains(id: id) else {
        throw DecodingError.dataCorruptedError(forKey: .id, in: entry, debugDescription: "id \(id.rawValue) appears twice")
      }
      append(try entry.decode(Element.self, forKey: .state), id: id)
    }
  }
}

extension StackState {
  /// Whether `other` holds elements pushed with the same ids, in the same order.
  func hasSameIDs(as other: Self) -> Bool {
    elements.count == other.elements.count && zip(elements, other.elements).allSatisfy { $0.id == $1.id }
  }
}
