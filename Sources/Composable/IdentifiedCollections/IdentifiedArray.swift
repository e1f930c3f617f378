import StoreHostJSON
import Synchronization

/// An ordered collection of identifiable elements with O(1) lookup by id.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo.State> = []
/// todos.append(Todo.State(id: uuid(), title: "Milk"))
/// todos[id: id]?.isComplete = true
/// ```
///
/// Encodes as a JSON array of its elements.
public struct IdentifiedArray<ID: Hashable, Element> {
  private let id: KeyPath<Element, ID> & Sendable
  /// The elements, in order.
  public private(set) var elements: [Element]
  /// The position of each element, by id.
  private var positions: [ID: Int]
  /// What tells whether elements were removed since an earlier copy (see ``Removals``).
  private(set) var removals = Removals()

  /// An array identified by `id`, holding `elements` (later duplicates of an id are dropped).
  public init(uniqueElements elements: some Sequence<Element>, id: KeyPath<Element, ID> & Sendable) {
    self.id = id
    self.elements = []
    self.positions = [:]
    for element in elements { append(element) }
  }

  /// The ids, in order.
  public var ids: [ID] { elements.map { $0[keyPath: id] } }

  /// The element with `id`, or `nil`. Setting `nil` removes it; setting a value for a
  /// missing id appends it.
  public subscript(id id: ID) -> Element? {
    get { positions[id].map { elements[$0] } }
    set {
      if let newValue {
        precondition(newValue[keyPath: self.id] == id, "The element's id must equal the subscript's id.")
        if let index = positions[id] {
          elements[index] = newValue
        } else {
          append(newValue)
        }
      } else {
        remove(id: id)
      }
    }
  }

  /// The index of the element with `id`.
  public func index(id: ID) -> Int? { positions[id] }

  /// The elements that satisfy `isIncluded`, in order, still identified:
  /// `todos.filter { !$0.isComplete }`.
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    Self(uniqueElements: try elements.filter(isIncluded), id: id)
  }

  /// Adds `element` at the end, unless an element with its id is present.
  /// - Returns: Whether it was added, and the element's index.
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    let elementID = element[keyPath: id]
    if let index = positions[elementID] { return (false, index) }
    elements.append(element)
    positions[elementID] = elements.count - 1
    return (true, elements.count - 1)
  }

  /// Adds `newElements` at the end, skipping ids already present.
  public mutating func append(contentsOf newElements: some Sequence<Element>) {
    for element in newElements { append(element) }
  }

  /// Inserts `element` at `index`, unless an element with its id is present.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    let elementID = element[keyPath: id]
    if let existing = positions[elementID] { return (false, existing) }
    elements.insert(element, at: index)
    reindex(from: index)
    return (true, index)
  }

  /// Removes and returns the element with `id`.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let index = positions[id] else { return nil }
    return remove(at: index)
  }

  /// Removes and returns the element at `index`.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = elements.remove(at: index)
    positions[element[keyPath: id]] = nil
    reindex(from: index)
    removals.count += 1
    return element
  }

  /// Removes and returns the first element, which must exist.
  @discardableResult
  public mutating func removeFirst() -> Element { remove(at: 0) }

  /// Removes and returns the last element, which must exist.
  @discardableResult
  public mutating func removeLast() -> Element { remove(at: elements.count - 1) }

  /// Removes the elements at `offsets`.
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    for index in Set(offsets).sorted(by: >) { remove(at: index) }
  }

  /// Removes every element for which `shouldBeRemoved` is true.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let count = elements.count
    try elements.removeAll(where: shouldBeRemoved)
    guard elements.count < count else { return }
    positions.removeAll(keepingCapacity: true)
    reindex(from: 0)
    removals.count += 1
  }

  /// Removes every element.
  public mutating func removeAll() {
    guard !elements.isEmpty else { return }
    elements.removeAll()
    positions.removeAll()
    removals.count += 1
  }

  /// Moves the elements at `source` so they start before `destination`.
  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let source = Set(source)
    let moving = source.sorted().map { elements[$0] }
    let before = elements.indices.filter { $0 < destination && !source.contains($0) }.map { elements[$0] }
    let after = elements.indices.filter { $0 >= destination && !source.contains($0) }.map { elements[$0] }
    elements = before + moving + after
    reindex(from: 0)
  }

  /// Sorts the elements in place.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try elements.sort(by: areInIncreasingOrder)
    reindex(from: 0)
  }

  private mutating func reindex(from start: Int) {
    for index in start..<elements.count { positions[elements[index][keyPath: id]] = index }
  }
}

/// Whether an array may have lost elements since an earlier copy of it, in O(1): each array
/// made anew gets a lineage of its own, and every removal counts. A copy that has the same
/// lineage and count lost nothing since (an array assigned wholesale has another lineage).
/// Equality and hashing ignore it.
struct Removals: Equatable, Sendable {
  private static let nextLineage = Atomic<UInt64>(0)

  private let lineage = Removals.nextLineage.add(1, ordering: .relaxed).newValue
  var count = 0
}

/// An ``IdentifiedArray`` of `Identifiable` elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// An array of `elements`, identified by their `id`.
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init(uniqueElements: elements, id: IdentityKeyPath<Element>.shared)
  }

  /// An empty array.
  public init() {
    self.init(uniqueElements: [])
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray: RandomAccessCollection {
  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }

  /// The element at `position`. Setting must keep the element's id.
  public subscript(position: Int) -> Element {
    get { elements[position] }
    set {
      precondition(
        newValue[keyPath: id] == elements[position][keyPath: id],
        "An element set by index must keep its id; use subscript(id:) to replace it.")
      elements[position] = newValue
    }
  }
}

extension IdentifiedArray: MutableCollection {}

extension IdentifiedArray: Equatable where Element: Equatable {
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

extension IdentifiedArray: Sendable where ID: Sendable, Element: Sendable {}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(elements)
  }
}

extension IdentifiedArray: JSONWritable where Element: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) throws {
    try writer.writeElements(elements)
  }
}

extension IdentifiedArray: JSONDiffable where Element: JSONDiffable {
  /// Diffed like an array of its elements.
  public static func writeJSONPatch(from old: Self, to new: Self, into patch: inout JSONPatchWriter) throws {
    try patch.writeElementChanges(from: old.elements, to: new.elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
  /// Decodes a JSON array; an id that appears twice is a data error.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let elements = try container.decode([Element].self)
    self.init(uniqueElements: elements)
    if count != elements.count {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "The array has elements with the same id.")
    }
  }
}

extension IdentifiedArray {
  /// Whether `other` holds elements with the same ids, in the same order: compared in place,
  /// without building the arrays of ids.
  func hasSameIDs(as other: Self) -> Bool {
    elements.count == other.elements.count
      && zip(elements, other.elements).allSatisfy { $0[keyPath: id] == $1[keyPath: other.id] }
  }
}

/// `\.id` of each `Identifiable` element type, made once: a key path through a generic type
/// is otherwise built anew (about 120 bytes) for every array a state creates.
private struct IdentityKeyPath<Element: Identifiable>: Sendable {
  let keyPath: KeyPath<Element, Element.ID> & Sendable

  static var shared: KeyPath<Element, Element.ID> & Sendable { MadeOncePerType.value { Self(keyPath: \.id) }.keyPath }
}
