import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHostDemo

/// Integers of every width at their extremes, and the Foundation types.
@ObservableState
private struct Extremes: Codable, Equatable {
  var int = Int.min
  var int8 = Int8.min
  var int16 = Int16.max
  var int32 = Int32.min
  var int64 = Int64.max
  var uint = UInt.max
  var uint8 = UInt8.max
  var uint16 = UInt16.max
  var uint32 = UInt32.max
  var uint64 = UInt64.max
  var double = 0.1
  var float: Float = 0.5
  var date = Date(timeIntervalSinceReferenceDate: 12.5)
  var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
  var url = URL(string: "https://example.com/a?b=c")!
  var data = Data([0, 1, 254, 255])
}

/// Keys renamed by a declared `CodingKeys`, and a property left out.
@ObservableState
private struct Renamed: Codable, Equatable {
  var count = 0
  var label = "x"
  var skipped = 9

  enum CodingKeys: String, CodingKey {
    case count = "Count"
    case label = "a/b~c é"
  }
}

/// A key JSON escapes: written through `encode(to:)`.
@ObservableState
private struct Quoted: Codable, Equatable {
  var label = "x"

  enum CodingKeys: String, CodingKey {
    case label = "say \"hi\"\n"
  }
}

/// Optionals inside optionals and collections, and a child state.
@ObservableState
private struct Optionals: Codable, Equatable {
  var plain: Int?
  var nested: Int??
  var list: [Int?] = []
  var map: [String: Int?] = [:]
  var child: Renamed?
}

/// Shared values, owned by a key and not.
@ObservableState
private struct Sharing: Codable, Equatable {
  @Shared(.inMemory("differential-shared")) var shared = 3
  @SharedReader(.inMemory("differential-reader")) var reader = "r"
  @Shared var owned: [Int]
}

/// A state's JSON, written by the code `@ObservableState` generates, is the JSON Foundation's
/// `JSONEncoder` writes through its `Codable` conformance (keys sorted, as the project
/// sorts them), and both decoders read it back equal.
@Suite struct StateCodingDifferentialTests {
  private func expectSameAsCodable<State: Codable & Equatable>(
    _ state: State, isWrittenDirectly: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    #expect(State.self is any JSONWritable.Type == isWrittenDirectly, sourceLocation: sourceLocation)
    let generated = try JSONEncoding.encode(state)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let foundation = try encoder.encode(state)
    #expect(String(decoding: generated, as: UTF8.self) == String(decoding: foundation, as: UTF8.self), sourceLocation: sourceLocation)
    let throughFoundation = try JSONDecoder().decode(State.self, from: Data(generated))
    #expect(throughFoundation == state, sourceLocation: sourceLocation)
    #expect(try JSONValue(parsing: generated).decode(as: State.self) == state, sourceLocation: sourceLocation)
    #expect(try JSONEncoding.encode(throughFoundation) == generated, sourceLocation: sourceLocation)
  }

  private static let contact = Contact(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000C1")!, name: "Blob \"Jr\"")

  /// Every feature of the demo, filled in.
  private func demoState() -> AppFeature.State {
    var state = AppFeature.State()
    state.counter.count = -3
    state.twoCounters.second.count = 7
    state.todos.newTodoText = "tab\there, é 中文 😀, control \u{1}"
    state.todos.filter = .completed
    state.todos.todos = [
      Todo.State(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, title: "Milk", isComplete: true),
      Todo.State(id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, title: "quote\" backslash\\"),
    ]
    state.numberFact.number = 12
    state.numberFact.fact = "12 has 6 divisors."
    state.numberFact.isLoading = true
    state.timer.isRunning = true
    state.timer.secondsElapsed = 42
    state.shared.$count.withLock { $0 = 5 }
    state.contacts.contacts = [Self.contact]
    state.contacts.destination = .addContact(ContactForm.State(id: Self.contact.id, name: "Draft"))
    state.contacts.path.append(ContactDetail.State(contact: Self.contact))
    state.contacts.path.append(ContactDetail.State(contact: Contact(id: UUID(0), name: "")))
    return state
  }

  @Test func everyDemoState() throws {
    var state = demoState()
    try expectSameAsCodable(state)
    try expectSameAsCodable(AppFeature.State())
    try expectSameAsCodable(state.counter)
    try expectSameAsCodable(state.twoCounters)
    try expectSameAsCodable(state.todos)
    try expectSameAsCodable(state.todos.todos[0])
    try expectSameAsCodable(state.numberFact)
    try expectSameAsCodable(state.timer)
    try expectSameAsCodable(state.shared)
    try expectSameAsCodable(state.contacts)
    try expectSameAsCodable(state.contacts.path[0])
    try expectSameAsCodable(Self.contact)
    try expectSameAsCodable(ContactForm.State(id: Self.contact.id, name: "n"))
    state.contacts.destination = .alert(Contacts.deletionAlert(for: Self.contact))
    try expectSameAsCodable(state.contacts)
    state.contacts.destination = nil
    try expectSameAsCodable(state)
  }

  @Test func integersOfEveryWidthAtTheirExtremes() throws {
    try expectSameAsCodable(Extremes())
    try expectSameAsCodable(
      Extremes(
        int: .max, int8: .max, int16: .min, int32: .max, int64: .min, uint: 0, uint8: 0, uint16: 0, uint32: 0,
        uint64: UInt64(Int64.max) + 1, double: -1e300, float: 3, date: Date(timeIntervalSinceReferenceDate: -1)))
  }

  @Test func customKeys() throws {
    try expectSameAsCodable(Renamed(count: 2, label: "y", skipped: 9))
    #expect(String(decoding: try JSONEncoding.encode(Renamed()), as: UTF8.self) == #"{"Count":0,"a/b~c é":"x"}"#)
    try expectSameAsCodable(Quoted(), isWrittenDirectly: false)
    #expect(String(decoding: try JSONEncoding.encode(Quoted()), as: UTF8.self) == #"{"say \"hi\"\n":"x"}"#)
  }

  @Test func nestedOptionals() throws {
    try expectSameAsCodable(Optionals())
    try expectSameAsCodable(
      Optionals(plain: 1, nested: .some(.some(2)), list: [nil, 3], map: ["a": nil, "b": 4], child: Renamed(count: 1)))
  }

  @Test func sharedValues() throws {
    try expectSameAsCodable(Sharing(owned: Shared([1, 2])))
  }
}
