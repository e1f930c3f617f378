import Synchronization

/// Counts the `Shared` and `SharedReader` values made in this process (copies aside), so
/// a store can tell cheaply whether an action may have put a new one in its state.
enum SharedHandles {
  static let made = Atomic<Int>(0)

  static func didMake() { made.add(1, ordering: .relaxed) }
}
