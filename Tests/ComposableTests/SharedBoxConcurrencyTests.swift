import Dispatch
import Synchronization
import Testing

@testable import Composable

/// Changes of a value whose key applies them (``AtomicSharedKey``, as a cluster's shared
/// value) run outside the box's lock, on many reducer threads at once.
@Suite struct SharedBoxConcurrencyTests {
  @Test func concurrentChangesThroughAKeyEachReadTheValueTheyChange() {
    let box = SharedBox(value: 0, storing: .update { current, change in
      var value = current
      try change(&value)
      return value
    })
    let misreads = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for step in 0..<5_000 {
        let marker = thread * 1_000_000 + step + 1
        box.withLock { value in
          value = marker
          // Read back a few times, so changes on other threads overlap this one.
          for _ in 0..<8 where box.value != marker { misreads.add(1, ordering: .relaxed) }
        }
      }
    }
    #expect(misreads.load(ordering: .relaxed) == 0)
  }
}
