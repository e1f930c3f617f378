import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

/// A count every session shares through a key, and a note of each session's own.
@Reducer
private struct Board {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    @Shared(.inMemory("SharedChangeSaveTests.count")) var count = 0
    var note = ""
  }

  enum Action: Equatable, Sendable {
    case note(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .note(let text):
        state.note = text
        return .none
      }
    }
  }
}

@Suite struct SharedChangeSaveTests {
  private func host(_ persistence: some SessionPersistence) throws -> SessionHost<Board.State, Board.Action> {
    SessionHost(
      persistence: persistence, tokenSigner: try SessionTokenSigner(secret: Array(repeating: 7, count: 32)),
      initialState: Board.State(), reducer: { Board() })
  }

  /// Waits (at most two seconds) until `condition` holds.
  private func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
  }

  @Test func aKeyedSharedChangeIsPublishedToEverySessionWithoutASaveOfEach() async throws {
    let persistence = RecordingPersistence()
    let first = try host(persistence)
    let sessions = [try await first.createSession(), try await first.createSession()]
    for session in sessions { try await session.flush() }
    let shared = withDependencies { $0.context = .live } operation: {
      Shared(wrappedValue: 0, .inMemory("SharedChangeSaveTests.count"))
    }
    let before = sessions.map(\.version)
    for _ in 0..<3 { shared.withLock { $0 += 1 } }
    try await eventually { zip(sessions, before).allSatisfy { $0.version == $1 + 3 && $0.events.latest.version == $1 + 3 } }
    for (session, version) in zip(sessions, before) {
      #expect(session.version == version + 3, "each shared change is a version of every session")
      #expect(session.events.latest.version == version + 3, "and is published")
    }
    let savedBefore = sessions.map { persistence.versions($0.id) }
    #expect(savedBefore.map(\.last) == before.map(Optional.init))

    // The session's own change is saved, with the value the key holds now. A flush waits
    // for every save queued before it: a save of a shared change would be among them.
    sessions[0].store.send(.note("mine"))
    try await sessions[0].flush()
    #expect(persistence.versions(sessions[0].id) == savedBefore[0] + [before[0] + 4], "the shared changes saved no session")
    // A flush saves a latest version left unsaved.
    try await sessions[1].flush()
    #expect(persistence.versions(sessions[1].id) == savedBefore[1] + [before[1] + 3], "the shared changes saved no session")

    let second = try host(persistence)
    let restored = try await second.liveSession(sessions[0].id)
    #expect(restored.store.snapshot.state.note == "mine")
    #expect(restored.store.snapshot.state.count == shared.wrappedValue)
    #expect(restored.version >= before[0] + 4)
  }
}
