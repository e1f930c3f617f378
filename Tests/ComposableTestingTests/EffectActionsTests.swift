import ComposableArchitecture
import ComposableTesting
import Testing

@Test
func actionsOfAnEffectInOrder() async {
  let effect = Effect<Int>.concatenate(
    .send(1),
    .run { send in await send(2) },
    .merge(.send(3))
  )
  var received: [Int] = []
  for await action in effect.actions {
    received.append(action)
  }
  #expect(received == [1, 2, 3])
}

@Test
func cancelByIDStopsACancellableEffect() async {
  enum CancelID { case timer }
  let effect = Effect<Int>.run { send in
    await send(1)
    try? await Task.never()
    await send(2)
  }
  .cancellable(id: CancelID.timer)

  var received: [Int] = []
  for await action in effect.actions {
    received.append(action)
    Task.cancel(id: CancelID.timer)
  }
  #expect(received == [1])
}

@Test
func withTaskCancellationIsCancelledByID() async {
  enum CancelID { case work }
  let started = AsyncStream.makeStream(of: Void.self)
  let work = Task {
    await withTaskCancellation(id: CancelID.work) {
      started.continuation.yield()
      try? await Task.never()
      return Task.isCancelled
    }
  }
  for await _ in started.stream { break }
  Task.cancel(id: CancelID.work)
  #expect(await work.value)
}

@Test
func cancelEffectOfAStoreCancelsWithTaskCancellation() async {
  enum CancelID { case work }
  struct Feature: Reducer {
    enum Action: Equatable { case start, stop, stopped }
    var body: some Reducer<Int, Action> {
      Reduce { _, action in
        switch action {
        case .start:
          return .run { send in
            await withTaskCancellation(id: CancelID.work) {
              try? await Task.never()
            }
            await send(.stopped)
          }
        case .stop:
          return .cancel(id: CancelID.work)
        case .stopped:
          return .none
        }
      }
    }
  }
  let store = TestStore(initialState: 0) { Feature() }
  await store.send(.start)
  await store.send(.stop)
  await store.receive(.stopped)
}
