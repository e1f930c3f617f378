import ComposableArchitecture
import Foundation
import StoreHostDemo

// State encoding and diffing on the demo's own state. Run: Benchmarks/encoding/run.sh
//
// The state is the demo's AppFeature.State holding 1,000 to-dos titled with 200 characters
// (about 270 KB of JSON), encoded by Foundation's JSONEncoder, by the pipeline the session
// host used before direct encoding (JSONEncoder, then the parser, then the serializer), and
// by JSONEncoding (the code @ObservableState generates); then one to-do toggled and diffed.

let lorem =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "
  + "labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris"

func demoState(todos count: Int) -> AppFeature.State {
  var state = AppFeature.State()
  for number in 0..<count {
    state.todos.todos.append(
      Todo.State(id: UUID(), title: String("Todo \(number): \(lorem)".prefix(200)), isComplete: number.isMultiple(of: 3)))
  }
  return state
}

/// The best of `rounds` timings of `body`, in seconds.
func bestTime(rounds: Int = 15, _ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<rounds {
    let started = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - started
    best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
  return best
}

@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

let state = demoState(todos: 1000)
let size = try JSONEncoding.encode(state).count
let foundation = try bestTime { keep(try JSONEncoder().encode(state)) }
let before = try bestTime { keep(try JSONValue(parsing: JSONEncoder().encode(state)).serialized()) }
let direct = try bestTime { keep(try JSONEncoding.encode(state, capacity: size + 64)) }
let sameBytes = try JSONValue(parsing: JSONEncoder().encode(state)).serializedBytes() == JSONEncoding.encode(state)

func megabytesPerSecond(_ seconds: Double) -> String { String(format: "%.0f MB/s", Double(size) / seconds / 1e6) }

print("state: AppFeature.State with 1,000 to-dos, \(size) bytes of JSON; direct output identical to before: \(sameBytes)")
print("| encoder | time | speed | vs JSONEncoder |")
print("| --- | --- | --- | --- |")
print("| Foundation JSONEncoder | \(String(format: "%.2f ms", foundation * 1000)) | \(megabytesPerSecond(foundation)) | 1.0x |")
print("| before: JSONEncoder + parser + serializer | \(String(format: "%.2f ms", before * 1000)) | \(megabytesPerSecond(before)) | \(String(format: "%.2fx", foundation / before)) |")
print("| JSONEncoding (generated writeJSON) | \(String(format: "%.2f ms", direct * 1000)) | \(megabytesPerSecond(direct)) | \(String(format: "%.1fx", foundation / direct)) |")

var toggled = state
toggled.todos.todos[500].isComplete.toggle()
let old = StoreSnapshot(state: state, version: 1)
let new = StoreSnapshot(state: toggled, version: 2)
let patchTime = try bestTime(rounds: 200) { keep(try new.patch(from: old)) }
let treeDiff = try bestTime(rounds: 15) {
  keep(JSONPatch.diff(from: try JSONValue(encoding: state), to: try JSONValue(encoding: toggled)))
}
let patch = try new.patch(from: old)
print("")
print("| one to-do toggled in that state | time |")
print("| --- | --- |")
print("| patch from the two states (JSONDiffable, \(patch.operationCount) operation, \(patch.operations.count) bytes) | \(String(format: "%.1f µs", patchTime * 1e6)) |")
print("| before: both states to JSON trees, trees diffed | \(String(format: "%.2f ms", treeDiff * 1000)) |")

// Actions as clients send them, decoded as the session host does (strict parse, client
// policy), and by Foundation's JSONDecoder with the same policy.
let actionBodies: [(name: String, body: [UInt8])] = [
  ("a case without payload", Array(#"{"counter":"incrementButtonTapped"}"#.utf8)),
  ("a labeled payload", Array(#"{"todos":{"deleteButtonTapped":{"id":"8C2B1A3E-6F4D-4E5B-9A7C-1D2E3F4A5B6C"}}}"#.utf8)),
  ("a binding", Array(#"{"todos":{"binding":{"newTodoText":"Milk"}}}"#.utf8)),
]
print("")
print("| action decoded | ActionDecoding | JSONDecoder |")
print("| --- | --- | --- |")
for (name, body) in actionBodies {
  let decoder = JSONDecoder()
  decoder.userInfo = ActionDecoding.clientUserInfo
  let direct = try bestTime(rounds: 200) {
    for _ in 0..<100 { keep(try ActionDecoding.decodeClientActions(AppFeature.Action.self, from: body)) }
  }
  let foundation = try bestTime(rounds: 200) {
    for _ in 0..<100 { keep(try decoder.decode(AppFeature.Action.self, from: Data(body))) }
  }
  print("| \(name) | \(String(format: "%.2f µs", direct * 1e4)) | \(String(format: "%.2f µs", foundation * 1e4)) |")
}
