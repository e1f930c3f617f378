import ComposableArchitecture
import StoreHostDemo
import StoreHostDemoClients
import Testing

/// The demo's `@DependencyClient`, from its own module, driving the demo's feature.
@MainActor
struct NumberFactClientTests {
  @Test func theFeatureCallsTheLabeledEndpoint() async {
    let store = TestStore(initialState: NumberFact.State()) {
      NumberFact()
    } withDependencies: {
      $0.numberFact.fetch = { number in "\(number) is the loneliest number." }
    }
    await store.send(.incrementButtonTapped) { $0.number = 1 }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factResponse("1 is the loneliest number.")) {
      $0.isLoading = false
      $0.fact = "1 is the loneliest number."
    }
  }

  @Test func theTestValueReportsTheUnimplementedEndpoint() async {
    let store = TestStore(initialState: NumberFact.State()) { NumberFact() }
    await withKnownIssue {
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("No fact is known about that number.")) {
        $0.isLoading = false
        $0.fact = "No fact is known about that number."
      }
    } matching: { issue in
      issue.description.contains("Unimplemented: 'NumberFactClient.fetch'")
    }
  }

  @Test func theLiveValueKnowsPrimes() async throws {
    #expect(try await NumberFactClient.liveValue.fetch(number: 7) == "7 is a prime number (up to its sign).")
  }
}
