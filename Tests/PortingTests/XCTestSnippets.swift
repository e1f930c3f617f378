// The seed's "testing with persistence" under XCTest, as TCA's documentation writes it
// there: each test case gets its own app storage.
import ComposableArchitecture
import XCTest

final class PersistenceXCTests: XCTestCase {
  @MainActor
  func testIncrementFromTheStoredValue() async {
    @Shared(.appStorage("count")) var count = 42
    let store = TestStore(initialState: PersistedCounter.State()) { PersistedCounter() }
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0 = 43 }
    }
    XCTAssertEqual(count, 43)
  }

  @MainActor
  func testIncrementFromTheStoredValueAgain() async {
    @Shared(.appStorage("count")) var count = 42
    let store = TestStore(initialState: PersistedCounter.State()) { PersistedCounter() }
    await store.send(.incrementButtonTapped) {
      $0.$count.withLock { $0 = 43 }
    }
    XCTAssertEqual(count, 43)
  }
}
