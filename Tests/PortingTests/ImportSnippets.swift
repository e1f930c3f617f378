// A test file that imports ComposableArchitecture alone, as TCA's documentation writes
// them: TestStore comes with it (the target links ComposableTesting, which routes its
// failures to Swift Testing or XCTest).
import ComposableArchitecture
import Testing

@MainActor
struct ImportSnippetTests {
  @Test func testStoreComesWithComposableArchitecture() async {
    let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
  }

  @Test func itsFailuresFailTheRunningTest() async {
    let store = TestStore(initialState: CounterFeature.State()) { CounterFeature() }
    await withKnownIssue {
      await store.send(.incrementButtonTapped) { $0.count = 2 }
    } matching: { issue in
      issue.description.contains("A state change does not match expectation")
    }
  }
}
