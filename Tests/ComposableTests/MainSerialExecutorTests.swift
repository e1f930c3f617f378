import Composable
import Foundation
import Testing

/// A feature whose two effects each send two actions, to see how effects interleave.
private struct TwoEffects: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Equatable {
    case start
    case log(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .merge(
        .run { send in
          await send(.log("a1"))
          await Task.yield()
          await send(.log("a2"))
        },
        .run { send in
          await send(.log("b1"))
          await Task.yield()
          await send(.log("b2"))
        }
      )
    case let .log(message):
      state.log.append(message)
      return .none
    }
  }
}

/// The thread the main actor's jobs run on (in a test process it need not be the process's first
/// thread).
@MainActor private func mainActorThread() -> pthread_t { pthread_self() }

/// The serial executor applies to the whole process while it is on, so these tests run one at
/// a time, each turning it on only for its own body. They run on the main actor, as TCA's
/// tests do, so the test itself takes its turn with the work it starts.
@MainActor @Suite(.serialized) struct MainSerialExecutorTests {
  @Test func startedTasksRunOneAtATimeFirstComeFirstServed() async {
    for _ in 0..<5 {
      let recorder = Recorder<String>()
      await withMainSerialExecutor {
        let tasks = (0..<100).map { index in
          Task.detached {
            recorder.record("start \(index)")
            await Task.yield()
            recorder.record("end \(index)")
          }
        }
        await Task.yield()
        #expect(
          recorder.values == (0..<100).map { "start \($0)" },
          "each task ran up to its suspension, in order, before the test took its turn again")
        for task in tasks { await task.value }
      }
      #expect(recorder.values == (0..<100).map { "start \($0)" } + (0..<100).map { "end \($0)" })
    }
  }

  @Test func workNotIsolatedToAnActorRunsOnTheMainActorsThread() async {
    let main = mainActorThread()
    let onMainActorThread = Recorder<Bool>()
    await withMainSerialExecutor {
      await Task.detached { onMainActorThread.record(pthread_equal(pthread_self(), main) != 0) }.value
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask { onMainActorThread.record(pthread_equal(pthread_self(), main) != 0) }
        }
      }
    }
    #expect(onMainActorThread.values == Array(repeating: true, count: 5))
  }

  @Test func effectsInterleaveTheSameWayOnEveryRun() async {
    for _ in 0..<20 {
      await withMainSerialExecutor {
        let store = Store(initialState: TwoEffects.State()) { TwoEffects() }
        await store.send(.start).finish()
        #expect(store.log == ["a1", "b1", "a2", "b2"])
      }
    }
  }

  @Test func itIsOnOnlyWhileTheOperationRuns() async {
    let main = mainActorThread()
    #expect(!uncheckedUseMainSerialExecutor)
    await withMainSerialExecutor {
      await Task.yield()
      #expect(uncheckedUseMainSerialExecutor)
      withMainSerialExecutor { #expect(uncheckedUseMainSerialExecutor) }
      #expect(uncheckedUseMainSerialExecutor, "a nested use leaves it on for the outer one")
    }
    #expect(!uncheckedUseMainSerialExecutor)
    let onMainActorThread = await Task.detached { pthread_equal(pthread_self(), main) != 0 }.value
    #expect(!onMainActorThread)
  }
}
