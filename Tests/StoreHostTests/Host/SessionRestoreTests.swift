import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

/// A feature as a user writes it: a count shared by every session through a key, and
/// synthesized `Codable` with no decoding of its own.
@Reducer
private struct Visits {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    @Shared(.inMemory("SessionRestoreTests.visits")) var visits = 0
    var note = ""
  }

  enum Action: Equatable, Sendable {
    case visit
    case resumed
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .visit:
        state.$visits.withLock { $0 += 1 }
      case .resumed:
        state.note = "resumed"
      }
      return .none
    }
  }
}

@Suite struct SessionRestoreTests {
  private func host(_ persistence: some SessionPersistence) throws -> SessionHost<Visits.State, Visits.Action> {
    SessionHost(
      persistence: persistence, tokenSigner: try SessionTokenSigner(secret: Array(repeating: 7, count: 32)),
      initialState: Visits.State(), reducer: { Visits() }, resumedAction: .resumed)
  }

  @Test func aRestoredSessionFollowsItsKeyedSharedValuesAndHearsItResumed() async throws {
    let persistence = InMemorySessionPersistence()
    let first = try host(persistence)
    let created = try await first.createSession()
    created.store.send(.visit)
    try await created.flush()
    let visits = created.store.snapshot.state.visits

    let second = try host(persistence)
    #expect(second.session(created.id) == nil, "a saved session is brought back on its first request")
    let restored = try await second.liveSession(created.id)
    #expect(restored.store.snapshot.state.note == "resumed")
    // Another holder of the key changes it: the restored session's state follows. (Hosts
    // run live, so the key is resolved live, as a session's would be.)
    let shared = withDependencies { $0.context = .live } operation: {
      Shared(wrappedValue: 0, .inMemory("SessionRestoreTests.visits"))
    }
    #expect(shared.wrappedValue == visits)
    shared.withLock { $0 += 10 }
    #expect(restored.store.snapshot.state.visits == visits + 10)
    restored.store.send(.visit)
    #expect(shared.wrappedValue == visits + 11)
  }
}
