import ComposableArchitecture
import Foundation
import JSONTestSupport
import Synchronization
import Testing

/// A state with every kind of member the macro has to handle as synthesized `Encodable` does.
@ObservableState
struct Profile: Encodable, Equatable {
  var name = "Blob"
  @BindingState var age = 3
  var nickname: String?
  var tags: [String] = []
  let id = 7
  var visits = 0 {
    didSet { lastVisitChange = visits - oldValue }
  }
  var greeting: String { "hi \(name)" }
  private var lastVisitChange = 0
  var `default` = true
  var nested = Nested()

  @ObservableState
  struct Nested: Codable, Equatable {
    var ü = 1
    var items: IdentifiedArrayOf<Item> = []
    var ratio: Double? = 0.5
  }

  mutating func visit() { visits += 1 }
}

/// `Profile` declared without the macro, with the same stored properties: its `Encodable`
/// is the compiler's.
struct ProfileTwin: SynthesizedTwin {
  var name = "Blob"
  var age = 3
  var nickname: String?
  var tags: [String] = []
  let id = 7
  var visits = 0
  private var lastVisitChange = 0
  var `default` = true
  var nested: NestedTwin

  struct NestedTwin: Codable {
    var ü = 1
    var items: IdentifiedArrayOf<Item> = []
    var ratio: Double? = 0.5
  }

  init(_ profile: Profile) {
    (name, age, nickname, tags, visits) = (profile.name, profile.age, profile.nickname, profile.tags, profile.visits)
    lastVisitChange = profile.lastVisitChangeForTwin
    `default` = profile.default
    nested = NestedTwin(ü: profile.nested.ü, items: profile.nested.items, ratio: profile.nested.ratio)
  }
}

extension Profile {
  fileprivate var lastVisitChangeForTwin: Int { lastVisitChange }
}

/// A model without the macro: written through its `Encodable` conformance.
struct Item: Codable, Equatable, Identifiable {
  var id: Int
  var title: String
}

/// Custom keys: the macro writes the JSON under their names.
@ObservableState
struct Renamed: Codable, Equatable {
  var count = 1
  enum CodingKeys: String, CodingKey { case count = "Count" }
}

@Reducer
struct Tally {
  @ObservableState
  struct State: Codable, Equatable {
    @Shared var total: Int
    var local = 1
  }

  enum Action { case bumpLocal }

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.local += 1
      return .none
    }
  }
}

/// A state that holds a shared value only inside an enum case, beside one that holds none.
@ObservableState
struct Board: Codable, Equatable {
  @CasePathable
  enum Slot: Codable, Equatable {
    case empty
    case tally(Tally.State)
  }

  var slot: Slot = .empty
  var label: Slot = .empty
  var moves = 0
}

private func conforms<Protocol>(_ type: Any.Type, to _: Protocol.Type) -> Bool {
  switch Protocol.self {
  case is (any JSONDiffable).Type: type is any JSONDiffable.Type
  case is (any JSONWritable).Type: type is any JSONWritable.Type
  default: false
  }
}

@Suite struct StateJSONMacroTests {
  /// The macro's `writeJSON` and `encode(to:)` give the JSON of `ProfileTwin`'s synthesized
  /// `Encodable`, all through `JSONEncoder` but `writeJSON`.
  private func expectSynthesizedJSON(_ profile: Profile, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let texts = try TwinTexts(profile, as: ProfileTwin.self)
    let written = String(decoding: try JSONEncoding.encode(profile), as: UTF8.self)
    #expect(written == texts.synthesized, "writeJSON", sourceLocation: sourceLocation)
    #expect(texts.encoded == texts.synthesized, "encode(to:)", sourceLocation: sourceLocation)
  }

  @Test func codableStructsWriteTheJSONSynthesizedCodableGives() throws {
    var profile = Profile()
    try expectSynthesizedJSON(profile)
    profile.nickname = "B\"lob\n"
    profile.tags = ["a", "é"]
    profile.visit()
    profile.visit()
    profile.nested.items.append(Item(id: 1, title: "milk"))
    profile.nested.ratio = nil
    try expectSynthesizedJSON(profile)
    #expect(conforms(Profile.self, to: (any JSONDiffable).self))
    #expect(conforms(Profile.Nested.self, to: (any JSONDiffable).self))
  }

  @Test func customCodingKeysAreHonoured() throws {
    #expect(conforms(Renamed.self, to: (any JSONDiffable).self))
    #expect(String(decoding: try JSONEncoding.encode(Renamed()), as: UTF8.self) == #"{"Count":1}"#)
  }

  @Test func patchesOfRandomEditsRebuildTheNewJSON() throws {
    var generator = SeededGenerator(seed: 99)
    var profile = Profile()
    for round in 0..<500 {
      var next = profile
      switch Int.random(in: 0..<6, using: &generator) {
      case 0: next.nickname = Bool.random(using: &generator) ? nil : "n\(round)"
      case 1: next.tags.append("t\(round)")
      case 2: next.visit()
      case 3: next.nested.items.append(Item(id: round, title: "item \(round)"))
      case 4: if !next.nested.items.isEmpty { next.nested.items.remove(at: 0) }
      default: next.nested.ratio = Bool.random(using: &generator) ? nil : Double(round) / 7
      }
      let patch = try StoreSnapshot(state: next, version: 2).patch(from: StoreSnapshot(state: profile, version: 1))
      let oldJSON = try JSONEncoding.encode(profile)
      let newJSON = try JSONEncoding.encode(next)
      let operations = try JSONDecoder().decode([JSONPatchOperation].self, from: Data(patch.operations))
      #expect(try JSONPatch.apply(operations, to: JSONValue(parsing: oldJSON)) == JSONValue(parsing: newJSON))
      #expect(patch.sizeChange == newJSON.count - oldJSON.count)
      profile = next
    }
  }

  @Test func publishedSnapshotsWriteSharedValuesAsTheyWereThen() throws {
    let total = Shared(1)
    let store = Store(initialState: Tally.State(total: total)) { Tally() }
    let published = Mutex<[StoreSnapshot<Tally.State>]>([])
    let observation = store.observe { snapshot in published.withLock { $0.append(snapshot) } }
    store.send(.bumpLocal)
    total.withLock { $0 = 5 }
    let versions = published.withLock { $0 }
    #expect(versions.map(\.version) == [0, 1, 2])
    #expect(String(decoding: try versions[1].encodedState(), as: UTF8.self) == #"{"local":2,"total":1}"#)
    #expect(String(decoding: try versions[2].encodedState(), as: UTF8.self) == #"{"local":2,"total":5}"#)
    let patch = try versions[2].patch(from: versions[1])
    #expect(String(decoding: patch.operations, as: UTF8.self) == #"[{"op":"replace","path":"/total","value":5}]"#)
    observation.cancel()
  }

  @Test func aSharedChangeInsideAnEnumCaseIsPatchedThere() throws {
    let total = Shared(1)
    let store = Store(initialState: Board(slot: .tally(Tally.State(total: total)))) {
      Reduce<Board, Bool> { state, _ in
        state.moves += 1
        return .none
      }
    }
    let first = store.snapshot
    total.withLock { $0 = 5 }
    let patch = try store.snapshot.patch(from: first)
    #expect(String(decoding: patch.operations, as: UTF8.self) == #"[{"op":"replace","path":"/slot","value":{"tally":{"local":1,"total":5}}}]"#)
  }

  @Test func aPatchFromTheStoresSnapshotShowsTheFirstSharedChange() throws {
    let total = Shared(1)
    let store = Store(initialState: Tally.State(total: total)) { Tally() }
    let first = store.snapshot
    total.withLock { $0 = 5 }
    #expect(String(decoding: try first.encodedState(), as: UTF8.self) == #"{"local":1,"total":1}"#)
    let patch = try store.snapshot.patch(from: first)
    #expect(String(decoding: patch.operations, as: UTF8.self) == #"[{"op":"replace","path":"/total","value":5}]"#)
  }
}
