// `@DependencyClient` as TCA's documentation writes clients and their tests; the client and
// the public feature live in modules of their own (PortingClient, PortingFeature).
import ComposableArchitecture
import PortingClient
import PortingFeature
import Testing

@MainActor
struct DependencyClientSnippetTests {
  @Test func labeledMethodsCallTheEndpoints() async throws {
    let client = WeatherClient(
      forecast: { location in Forecast(temperature: location.name == "Paris" ? 21 : 0) },
      search: { query in [Location(name: query)] },
      isAvailable: { true },
      lastQuery: { "Par" },
      log: { _, _ in }
    )
    #expect(try await client.forecast(location: Location(name: "Paris")) == Forecast(temperature: 21))
    #expect(try await client.search(query: "Rome") == [Location(name: "Rome")])
    #expect(client.isAvailable())
    #expect(client.units == "metric")
  }

  @Test func anUnimplementedThrowingEndpointFailsTheTestAndThrows() async {
    let client = WeatherClient()
    await withKnownIssue {
      await #expect(throws: Unimplemented.self) {
        try await client.forecast(location: Location(name: "Paris"))
      }
    } matching: { issue in
      issue.description.contains("Unimplemented: 'WeatherClient.forecast'")
    }
  }

  @Test func unimplementedEndpointsReturnTheirDefaults() {
    let client = WeatherClient()
    withKnownIssue {
      #expect(client.isAvailable() == false)
    } matching: { issue in
      issue.description.contains("Unimplemented: 'WeatherClient.isAvailable'")
    }
    withKnownIssue {
      #expect(client.lastQuery() == nil)
    } matching: { issue in
      issue.description.contains("Unimplemented: 'WeatherClient.lastQuery'")
    }
    withKnownIssue {
      client.log(message: "hello", level: 1)
    } matching: { issue in
      issue.description.contains("Unimplemented: 'WeatherClient.log'")
    }
  }

  @Test func endpointsOfTheTestValueAreOverriddenOneByOne() async {
    let store = TestStore(initialState: Login.State()) {
      Login()
    } withDependencies: {
      $0.weatherClient.forecast = { _ in Forecast(temperature: 18) }
    }
    await store.send(.forecastButtonTapped)
    await store.receive(\.forecastResponse.success) {
      $0.forecast = Forecast(temperature: 18)
    }
  }

  @Test func theTestValueFailsTheTestThatUsesIt() async {
    let store = TestStore(initialState: Login.State()) { Login() }
    await withKnownIssue {
      await store.send(.forecastButtonTapped)
      await store.receive(\.forecastResponse.failure) {
        $0.alert = AlertState { TextState("No forecast") } actions: {
          ButtonState(action: .retry) { TextState("Retry") }
        }
      }
    } matching: { issue in
      issue.description.contains("Unimplemented: 'WeatherClient.forecast'")
    }
  }

  @Test func publicFeatureTypesNeedNoSendableConformance() async {
    let store = TestStore(initialState: Login.State()) { Login() }
    await store.send(\.binding.email, "blob@example.com") {
      $0.email = "blob@example.com"
    }
  }
}
