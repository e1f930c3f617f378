@_spi(Hosting) import ComposableArchitecture
import Foundation
import Synchronization
import Testing

@testable import StoreHost

/// Saves the test answers one by one: each save waits until the test gives its outcome.
private final class HeldSaves: SessionPersistence {
  private let held = Mutex<[(version: Int, done: @Sendable ((any Error)?) -> Void)]>([])

  /// The versions of the saves waiting for an outcome, oldest first.
  var waiting: [Int] { held.withLock { $0.map(\.version) } }

  /// Ends the save of `version` with `error` (`nil`: durable).
  func answer(_ version: Int, _ error: (any Error)? = nil) {
    let done = held.withLock { held -> (@Sendable ((any Error)?) -> Void)? in
      guard let index = held.firstIndex(where: { $0.version == version }) else { return nil }
      return held.remove(at: index).done
    }
    done?(error)
  }

  func save(_ save: SessionSave, completion: @escaping @Sendable ((any Error)?) -> Void) {
    held.withLock { $0.append((save.version, completion)) }
  }

  func save(_ save: SessionSave) async throws {}
  func loadAll() async throws -> [SessionSnapshot] { [] }
  func load(_ id: SessionID) async throws -> SessionSnapshot? { nil }
  func sessions(lastActiveIn range: Range<Date>, savedThroughStateVersion stateVersion: Int, limit: Int)
    async throws -> [SessionID]
  { [] }
  func reserve(_ reservations: [SessionReservation]) async throws {}
  func delete(_ id: SessionID) async throws {}
  func forgetAnswers(answeredBefore date: Date) async throws {}
  func flush() async throws {}
  func close() async throws {}
}

private struct Unreachable: Error {}

/// What a session answers the requests waiting for their versions while its saves succeed,
/// fail or end in doubt, and when it is ended or leaves: each gets the outcome of the save
/// that covers its version, never an error for a change that becomes durable.
@Suite struct SessionSavingTests {
  /// A strict session at version 0, durable; `inCluster`: a failed save stops its saving.
  private func session(_ persistence: HeldSaves, inCluster: Bool) throws -> Session<Tally.State, Tally.Action> {
    try Session(
      id: SessionID.random(), version: 0, createdAt: Date(), restored: ([], 0), limits: SessionLimits(),
      durability: .strict, stateVersion: 0, epoch: 1, keepsUnsavedChanges: !inCluster, persistence: persistence,
      initialState: { Tally.State() }, dependencies: { _ in },
      makeStore: { state, dependencies, _, _, accept in
        Store(initialState: state, reducer: { Tally() }, withDependencies: dependencies, acceptingChange: accept)
      })
  }

  /// Sends `count` actions, each saved on its own, and waits until all their saves are queued.
  private func add(_ count: Int, to session: Session<Tally.State, Tally.Action>, _ persistence: HeldSaves) async throws {
    let target = session.version + count
    for _ in 0..<count {
      session.store.send(.add)
      try await waitUntil { persistence.waiting.last == session.version }
    }
    #expect(session.version == target)
  }

  /// The outcome of waiting for `version` to be publishable, once it is known.
  private func outcome(
    of version: Int, in session: Session<Tally.State, Tally.Action>
  ) -> Task<Result<Void, any Error>, Never> {
    Task { await outcome { try await session.waitUntilPublishable(version) } }
  }

  private func outcome(_ body: () async throws -> Void) async -> Result<Void, any Error> {
    do {
      try await body()
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  private func waitUntil(_ condition: @escaping () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
      guard ContinuousClock.now < deadline else { throw Unreachable() }
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  @Test func aLeavingSessionAnswersEachWaiterWithTheSaveThatCoversIt() async throws {
    let persistence = HeldSaves()
    let session = try session(persistence, inCluster: true)
    try await add(1, to: session, persistence)
    let waiter = outcome(of: 1, in: session)
    let finished = Task { await outcome { try await session.finish() } }
    try await waitUntil { persistence.waiting == [1, 1] }
    persistence.answer(1)
    #expect((try? await waiter.value.get()) != nil, "the save covering version 1 committed: its request was applied")
    persistence.answer(1)
    #expect((try? await finished.value.get()) != nil)
  }

  @Test func endingFailsOnlyTheWaitersNoQueuedSaveCovers() async throws {
    let persistence = HeldSaves()
    let session = try session(persistence, inCluster: true)
    try await add(1, to: session, persistence)
    let covered = outcome(of: 1, in: session)
    session.end(failingWaitersWith: SessionOwnershipLost(id: session.id))
    let uncovered = await outcome(of: 2, in: session).value
    #expect(throws: SessionOwnershipLost.self) { try uncovered.get() }
    persistence.answer(1, SessionOwnershipLost(id: session.id))
    await #expect(throws: SessionOwnershipLost.self) { try await covered.value.get() }
  }

  /// A request that reaches a session just dropped or replaced must not be answered as if
  /// its actions were applied at the version the session stopped at.
  @Test func anEndedSessionTakesNoMoreBatches() async throws {
    let persistence = HeldSaves()
    let session = try session(persistence, inCluster: true)
    try await add(1, to: session, persistence)
    #expect(session.applyingBatch { session.store.send(.add) } != nil)
    session.end(failingWaitersWith: SessionOwnershipLost(id: session.id))
    var ran = false
    #expect(session.applyingBatch { ran = true } == nil)
    #expect(!ran)
    #expect(session.version == 2)
  }

  @Test func inAClusterAFailedSaveWaitsForTheSavesQueuedAfterIt() async throws {
    let persistence = HeldSaves()
    let session = try session(persistence, inCluster: true)
    try await add(2, to: session, persistence)
    let first = outcome(of: 1, in: session)
    let second = outcome(of: 2, in: session)
    persistence.answer(1, Unreachable())
    persistence.answer(2)
    // Version 2's save holds version 1's change too: both requests were applied.
    #expect((try? await first.value.get()) != nil)
    #expect((try? await second.value.get()) != nil)
  }

  @Test func inAClusterSavingStopsOnceNoLaterSaveMadeAFailureGood() async throws {
    let persistence = HeldSaves()
    let session = try session(persistence, inCluster: true)
    try await add(2, to: session, persistence)
    let first = outcome(of: 1, in: session)
    let second = outcome(of: 2, in: session)
    persistence.answer(1, SaveOutcomeUnknown())
    persistence.answer(2, Unreachable())
    // Version 1's save may have committed; version 2's change is in no save that may have.
    await #expect(throws: SaveOutcomeUnknown.self) { try await first.value.get() }
    await #expect(throws: Unreachable.self) { try await second.value.get() }
    session.store.send(.add)
    await #expect(throws: Unreachable.self) { try await outcome(of: 3, in: session).value.get() }
    #expect(persistence.waiting.isEmpty, "nothing more is saved: a change answered as failed never becomes durable")
  }

  @Test func onOneProcessAFailedSaveIsMadeAgain() async throws {
    let persistence = HeldSaves()
    let session = try session(persistence, inCluster: false)
    try await add(1, to: session, persistence)
    persistence.answer(1, Unreachable())
    try await waitUntil { persistence.waiting == [1] }
    let waiter = outcome(of: 1, in: session)
    persistence.answer(1)
    #expect((try? await waiter.value.get()) != nil)
  }
}
