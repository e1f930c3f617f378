import ComposableArchitecture
import Foundation

// Measures the core's hot paths. Run: swift run -c release ComposableBenchmarks

print("| benchmark | result | target |")
print("| --- | --- | --- |")

let root = Store(initialState: Counter.State()) { Counter() }
report("root send (Counter increment)", nanosecondsPerOperation(iterations: 1_000_000) {
  root.send(.incrementButtonTapped)
}, target: "<= 1000 ns")

let deep = Store(initialState: Level10.State()) { Level10() }
report("root send through 10 nested Scopes", nanosecondsPerOperation(iterations: 200_000) {
  deep.send(.increment)
})

/// A store scoped 10 levels down the TenDeep tree.
let tenLevels: Store<Counter.State, Counter.Action> = {
  let s0 = deep
  let s1 = s0.scope(state: \.child, action: \.child)
  let s2 = s1.scope(state: \.child, action: \.child)
  let s3 = s2.scope(state: \.child, action: \.child)
  let s4 = s3.scope(state: \.child, action: \.child)
  let s5 = s4.scope(state: \.child, action: \.child)
  let s6 = s5.scope(state: \.child, action: \.child)
  let s7 = s6.scope(state: \.child, action: \.child)
  let s8 = s7.scope(state: \.child, action: \.child)
  let s9 = s8.scope(state: \.child, action: \.child)
  return s9.scope(state: \.child, action: \.child)
}()
report("send through a store scoped 10 levels deep", nanosecondsPerOperation(iterations: 200_000) {
  tenLevels.send(.incrementButtonTapped)
}, target: "<= 5000 ns")

let parent = Store(initialState: Level1.State()) { Level1() }
report("create a scoped store", nanosecondsPerOperation(iterations: 200_000) {
  blackHole(parent.scope(state: \.child, action: \.child))
})

report("merge 100 .none effects", nanosecondsPerOperation(iterations: 100_000) {
  var effect = Effect<Counter.Action>.none
  for _ in 0..<100 { effect = effect.merge(with: .none) }
  blackHole(effect)
})

func readDependency() -> Double {
  @Dependency(\.uuid) var uuid
  return nanosecondsPerOperation(iterations: 1_000_000) { blackHole(uuid) }
}
let fixedUUID = UUIDGenerator.constant(UUID())
report("read a dependency (@Dependency(\\.uuid), overridden)", withDependencies {
  $0.uuid = fixedUUID
} operation: {
  readDependency()
})

let shared = Store(initialState: Counter.State()) { Counter() }
let actionsPerTask = 500_000
let started = ContinuousClock.now
await withTaskGroup(of: Void.self) { group in
  for _ in 0..<2 {
    group.addTask { for _ in 0..<actionsPerTask { shared.send(.incrementButtonTapped) } }
  }
}
let elapsed = ContinuousClock.now - started
report(
  "actions per second through one store (2 tasks sending)",
  Double(2 * actionsPerTask) / (elapsed.nanoseconds / 1e9), unit: "actions/s")

report(
  "one shared value held by 1,000 stores: withLock to the last store publishing",
  sharedFanOutMicroseconds(storeCount: 1_000), unit: "µs", target: "< 5000 µs")

let sharedRoot = Store(initialState: SharedCountFeature.State(count: Shared(0))) { SharedCountFeature() }
report("root send incrementing a @Shared count", nanosecondsPerOperation(iterations: 200_000) {
  sharedRoot.send(())
})
