@_spi(Hosting) import Composable
import ComposableArchitecture
import Foundation
import Testing

@testable import StoreHost

/// A list that grows by one line per action.
@Reducer
private struct Notes {
  @ObservableState
  struct State: Codable, Equatable {
    var lines: [String] = []
  }

  enum Action {
    case add(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(line): state.lines.append(line)
      }
      return .none
    }
  }
}

@Suite struct SessionChangesTests {
  private func changes(maxSize: Int) throws -> SessionChanges<Notes.State> {
    let initial = StoreSnapshot(state: Notes.State(), version: 0)
    return SessionChanges(initial: initial, size: try initial.encodedState().count, maxSize: maxSize)
  }

  @Test func theSizeFollowsEveryAcceptedVersionExactly() throws {
    let changes = try changes(maxSize: 1000)
    var state = Notes.State()
    for version in 1...20 {
      state.lines.append("line \(version)")
      let next = StoreSnapshot(state: state, version: version)
      #expect(changes.accept(next))
      _ = changes.didPublish(next)
      #expect(changes.size == (try next.encodedState()).count)
    }
  }

  @Test func aChangePastTheLimitIsRefusedWithTheSizeItWouldHave() throws {
    let changes = try changes(maxSize: 30)
    let fits = StoreSnapshot(state: Notes.State(lines: ["0123456789"]), version: 1)
    #expect(changes.accept(fits))
    _ = changes.didPublish(fits)
    let tooLarge = StoreSnapshot(state: Notes.State(lines: ["0123456789", "0123456789"]), version: 2)
    #expect(!changes.accept(tooLarge))
    guard case .tooLarge(let size, let limit) = changes.lastRefusal else {
      Issue.record("no refusal recorded")
      return
    }
    #expect(size == (try tooLarge.encodedState()).count)
    #expect(limit == 30)
    #expect(changes.size == (try fits.encodedState()).count)
  }

  @Test func aStoreRefusingTheChangeKeepsItsStateAndVersion() throws {
    let changes = try changes(maxSize: 40)
    let store = Store(initialState: Notes.State()) { Notes() } acceptingChange: { changes.accept($0) }
    let observation = store.observe { snapshot in if snapshot.version > 0 { _ = changes.didPublish(snapshot) } }
    #expect(!store.send(.add("short")).isRefused)
    let refused = store.send(.add(String(repeating: "x", count: 50)))
    #expect(refused.isRefused)
    #expect(store.snapshot.version == 1)
    #expect(store.withState { $0.lines } == ["short"])
    observation.cancel()
  }
}
