@_spi(Hosting) import Composable

/// Reads a saved session's state as bringing the session back does: migrated to this
/// build's state version and decoded with the session's dependencies, then given the keyed
/// shared values of a fresh initial state in place of the detached copies decoding makes, so
/// it follows its keys again. Used by ``SessionHost`` and by the checks a deploy runs.
struct SessionStateReader<State: Decodable> {
  /// The host's dependencies, before the session's id is set.
  let prepareDependencies: @Sendable (inout DependencyValues) -> Void
  let makeInitialState: @Sendable () -> State

  func read(_ snapshot: SessionSnapshot) throws -> State {
    try withDependencies({ values in
      prepareDependencies(&values)
      values.sessionID = snapshot.id.rawValue
    }) {
      var state = try SavedState.decode(State.self, from: snapshot.state, savedAt: snapshot.stateVersion)
      reattachSharedValues(&state, from: makeInitialState())
      return state
    }
  }
}

extension DependencyValues {
  /// Gives `.appStorage`, `.fileStorage` and `.inMemory` keys storage of their own, in
  /// memory: what a replay or a check does with states never changes the values the
  /// serving sessions share, nor any file.
  mutating func keepSharedValuesApart() {
    defaultAppStorage = .inMemory()
    defaultFileStorage = .inMemory()
    defaultInMemoryStorage = InMemoryStorage()
  }

  /// ``keepSharedValuesApart()``, for the session `id`.
  mutating func keepSharedValuesApart(session id: SessionID) {
    keepSharedValuesApart()
    sessionID = id.rawValue
  }
}
