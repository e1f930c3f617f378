import ComposableArchitecture
import Foundation
import JSONTestSupport
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

/// `Extremes` without the macro: its `Codable` is the compiler's.
private struct ExtremesTwin: SynthesizedTwin, Codable {
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

  init(_ state: Extremes) {
    (int, int8, int16, int32, int64) = (state.int, state.int8, state.int16, state.int32, state.int64)
    (uint, uint8, uint16, uint32, uint64) = (state.uint, state.uint8, state.uint16, state.uint32, state.uint64)
    (double, float, date, uuid, url, data) = (state.double, state.float, state.date, state.uuid, state.url, state.data)
  }
}

private struct RenamedTwin: SynthesizedTwin, Codable {
  var count = 0
  var label = "x"
  var skipped = 9

  enum CodingKeys: String, CodingKey {
    case count = "Count"
    case label = "a/b~c é"
  }

  init(_ state: Renamed) { (count, label, skipped) = (state.count, state.label, state.skipped) }
}

private struct QuotedTwin: SynthesizedTwin, Codable {
  var label = "x"

  enum CodingKeys: String, CodingKey {
    case label = "say \"hi\"\n"
  }

  init(_ state: Quoted) { label = state.label }
}

private struct OptionalsTwin: SynthesizedTwin, Codable {
  var plain: Int?
  var nested: Int??
  var list: [Int?] = []
  var map: [String: Int?] = [:]
  var child: RenamedTwin?

  init(_ state: Optionals) {
    (plain, nested, list, map) = (state.plain, state.nested, state.list, state.map)
    child = state.child.map(RenamedTwin.init)
  }
}

private struct SharingTwin: SynthesizedTwin, Codable {
  @Shared var shared: Int
  @SharedReader var reader: String
  @Shared var owned: [Int]

  init(_ state: Sharing) {
    _shared = state.$shared
    _reader = state.$reader
    _owned = state.$owned
  }
}

/// A state's JSON, written by the code `@ObservableState` generates (`writeJSON` and
/// `encode(to:)`), is the JSON the compiler's synthesized `Codable` gives for a twin of the
/// type declared without the macro (both through Foundation's `JSONEncoder`, keys sorted as
/// the project sorts them); the macro's decoder reads the synthesized JSON back to the
/// state, and the synthesized decoder reads the macro's JSON back to the same JSON.
@Suite struct StateCodingDifferentialTests {
  private func expectSameAsSynthesized<Twin: SynthesizedTwin & Decodable>(
    _ state: Twin.Original, as _: Twin.Type, isWrittenDirectly: Bool = true,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws where Twin.Original: Codable & Equatable {
    #expect(Twin.Original.self is any JSONWritable.Type == isWrittenDirectly, sourceLocation: sourceLocation)
    let texts = try TwinTexts(state, as: Twin.self)
    let generated = try JSONEncoding.encode(state)
    #expect(String(decoding: generated, as: UTF8.self) == texts.synthesized, "writeJSON", sourceLocation: sourceLocation)
    #expect(texts.encoded == texts.synthesized, "encode(to:)", sourceLocation: sourceLocation)
    let synthesized = try JSONEncoder().encode(Twin(state))
    #expect(try JSONDecoder().decode(Twin.Original.self, from: synthesized) == state, sourceLocation: sourceLocation)
    #expect(try JSONValue(parsing: Array(synthesized)).decode(as: Twin.Original.self) == state, sourceLocation: sourceLocation)
    let twinRead = try JSONDecoder().decode(Twin.self, from: Data(generated))
    #expect(try LegacyPipeline.text(twinRead) == texts.synthesized, "init(from:)", sourceLocation: sourceLocation)
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
    try expectSameAsSynthesized(state, as: AppFeatureTwin.self)
    try expectSameAsSynthesized(AppFeature.State(), as: AppFeatureTwin.self)
    try expectSameAsSynthesized(state.counter, as: CounterTwin.self)
    try expectSameAsSynthesized(state.twoCounters, as: TwoCountersTwin.self)
    try expectSameAsSynthesized(state.todos, as: TodosTwin.self)
    try expectSameAsSynthesized(state.todos.todos[0], as: TodoTwin.self)
    try expectSameAsSynthesized(state.numberFact, as: NumberFactTwin.self)
    try expectSameAsSynthesized(state.timer, as: TimerTwin.self)
    try expectSameAsSynthesized(state.shared, as: SharedCounterTwin.self)
    try expectSameAsSynthesized(state.contacts, as: ContactsTwin.self)
    try expectSameAsSynthesized(state.contacts.path[0], as: ContactDetailTwin.self)
    try expectSameAsSynthesized(Self.contact, as: ContactTwin.self)
    try expectSameAsSynthesized(ContactForm.State(id: Self.contact.id, name: "n"), as: ContactFormTwin.self)
    state.contacts.destination = .alert(Contacts.deletionAlert(for: Self.contact))
    try expectSameAsSynthesized(state.contacts, as: ContactsTwin.self)
    state.contacts.destination = nil
    try expectSameAsSynthesized(state, as: AppFeatureTwin.self)
  }

  @Test func integersOfEveryWidthAtTheirExtremes() throws {
    try expectSameAsSynthesized(Extremes(), as: ExtremesTwin.self)
    try expectSameAsSynthesized(
      Extremes(
        int: .max, int8: .max, int16: .min, int32: .max, int64: .min, uint: 0, uint8: 0, uint16: 0, uint32: 0,
        uint64: UInt64(Int64.max) + 1, double: -1e300, float: 3, date: Date(timeIntervalSinceReferenceDate: -1)),
      as: ExtremesTwin.self)
  }

  @Test func customKeys() throws {
    try expectSameAsSynthesized(Renamed(count: 2, label: "y", skipped: 9), as: RenamedTwin.self)
    #expect(String(decoding: try JSONEncoding.encode(Renamed()), as: UTF8.self) == #"{"Count":0,"a/b~c é":"x"}"#)
    try expectSameAsSynthesized(Quoted(), as: QuotedTwin.self, isWrittenDirectly: false)
    #expect(String(decoding: try JSONEncoding.encode(Quoted()), as: UTF8.self) == #"{"say \"hi\"\n":"x"}"#)
  }

  @Test func nestedOptionals() throws {
    try expectSameAsSynthesized(Optionals(), as: OptionalsTwin.self)
    try expectSameAsSynthesized(
      Optionals(plain: 1, nested: .some(.some(2)), list: [nil, 3], map: ["a": nil, "b": 4], child: Renamed(count: 1)),
      as: OptionalsTwin.self)
  }

  @Test func sharedValues() throws {
    try expectSameAsSynthesized(Sharing(owned: Shared([1, 2])), as: SharingTwin.self)
  }
}
