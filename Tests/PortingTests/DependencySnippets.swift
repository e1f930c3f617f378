// Features and tests as TCA's documentation writes them, compiled in the Swift 6 language
// mode here and in the Swift 5 mode by PortingSwift5Tests (the same file, linked).
import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

struct FactClient {
  var fetch: @Sendable (Int) async throws -> String
}

extension FactClient: TestDependencyKey {
  static let testValue = FactClient(fetch: unimplemented("FactClient.fetch"))
}

extension FactClient: DependencyKey {
  static let liveValue = FactClient { number in "\(number) is a good number." }
}

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}

@Reducer
struct Stamp {
  @ObservableState
  struct State: Equatable {
    var id: UUID?
    var stampedAt: Date?
    var fact: String?
  }

  enum Action {
    case stampButtonTapped
    case factButtonTapped
    case factResponse(Result<String, any Error>)
  }

  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid
  @Dependency(\.factClient) var factClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .stampButtonTapped:
        state.id = uuid()
        state.stampedAt = now
        return .none
      case .factButtonTapped:
        return .run { send in
          await send(.factResponse(Result { try await factClient.fetch(42) }))
        }
      case let .factResponse(.success(fact)):
        state.fact = fact
        return .none
      case .factResponse(.failure):
        state.fact = nil
        return .none
      }
    }
  }
}

@MainActor
struct DependencySnippetTests {
  @Test func dateNowAndUUIDZeroAsInTCA() async {
    let store = TestStore(initialState: Stamp.State()) {
      Stamp()
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
      $0.uuid = .incrementing
    }
    await store.send(.stampButtonTapped) {
      $0.id = UUID(0)
      $0.stampedAt = Date(timeIntervalSince1970: 1_234_567_890)
    }
  }

  @Test func overridingOneEndpointOfATestDependencyReportsNothing() async {
    let store = TestStore(initialState: Stamp.State()) {
      Stamp()
    } withDependencies: {
      $0.factClient.fetch = { "\($0) is the answer." }
    }
    await store.send(.factButtonTapped)
    await store.receive(\.factResponse) { $0.fact = "42 is the answer." }
  }

  @Test func anUnimplementedEndpointFailsTheTestThatCallsIt() async {
    let store = TestStore(initialState: Stamp.State(fact: "old")) { Stamp() }
    await withKnownIssue {
      await store.send(.factButtonTapped)
      await store.receive(\.factResponse) { $0.fact = nil }
    } matching: { issue in
      issue.description.contains("Unimplemented: \"FactClient.fetch\" was called.")
    }
  }

  @Test func sharedValueLabelAsInTCA() {
    let count = Shared(value: 3)
    #expect(count.wrappedValue == 3)
  }

  @Test func taskNeverEndsWhenCancelled() async {
    let task = Task<Void, any Error> { try await Task.never() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}

@Test func clockTimerOnTheClockDependency() async {
  let clock = TestClock()
  let ticks = await withDependencies {
    $0.continuousClock = clock
  } operation: {
    @Dependency(\.continuousClock) var continuousClock
    let timer = Task {
      var count = 0
      for await _ in continuousClock.timer(interval: .seconds(1)) {
        count += 1
        if count == 3 { break }
      }
      return count
    }
    for _ in 0..<3 {
      await clock.advance(by: .seconds(1))
    }
    return await timer.value
  }
  #expect(ticks == 3)
}

/// The seed's "testing with persistence": a feature keeping its count in app storage.
@Reducer
struct PersistedCounter {
  @ObservableState
  struct State: Equatable {
    @Shared(.appStorage("count")) var count = 0
  }

  enum Action {
    case incrementButtonTapped
    case resetButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.$count.withLock { $0 += 1 }
        return .none
      case .resetButtonTapped:
        state.$count.withLock { $0 = 0 }
        return .none
      }
    }
  }
}

@MainActor
struct TestContextSnippetTests {
  @Test func dependenciesTakeTheirTestValuesWheneverTestsRun() async {
    @Dependency(\.context) var context
    #expect(context == .test)
    let store = Store(initialState: Stamp.State()) { Stamp() }
    // The plain store's effect uses FactClient's test value, which is unimplemented.
    await withKnownIssue {
      await store.send(.factButtonTapped).finish()
    } matching: { issue in
      issue.description.contains("FactClient.fetch")
    }
  }

  // The two tests below run at once and use one key: each sees only its own storage.
  @Test func testingWithPersistence() async {
    @Shared(.appStorage("count")) var count = 42
    let store = TestStore(initialState: PersistedCounter.State()) { PersistedCounter() }
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0 = 43 }
    }
    #expect(count == 43)
  }

  @Test func resettingASharedValueToItsValueIsAChangeToAssert() async {
    let store = TestStore(initialState: PersistedCounter.State()) { PersistedCounter() }
    await store.send(.resetButtonTapped) {
      $0.$count.withLock { $0 = 0 }
    }
  }

  @Test func testingWithPersistenceAgain() async {
    @Shared(.appStorage("count")) var count = 42
    let store = TestStore(initialState: PersistedCounter.State()) { PersistedCounter() }
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0 = 43 }
    }
    #expect(count == 43)
    #expect(!FileManager.default.fileExists(atPath: ".storehost/shared/count.json"))
  }
}

struct Score: Codable, Equatable, Identifiable, Sendable {
  var id: Int
  var points: Int
}

extension SharedReaderKey where Self == AppStorageKey<IdentifiedArrayOf<Score>>.Default {
  /// A key with its own default, as SyncUps declares `.syncUps`.
  static var scores: Self { Self[.appStorage("scores"), default: []] }
}

@Test func aTestSeedsAKeyWithADefaultWithALiteral() {
  let score = Score(id: 1, points: 3)
  @Shared(.scores) var scores = [score]
  #expect(scores.ids == [1])
  @Shared(.scores) var same
  #expect(same[id: 1] == score)
}
