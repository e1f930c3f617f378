// A client module as TCA apps write one: it imports Dependencies and DependenciesMacros only,
// so it builds without the architecture's macros or any host.
import Dependencies
import DependenciesMacros

public struct Location: Equatable, Sendable {
  public var name: String
  public init(name: String) { self.name = name }
}

public struct Forecast: Equatable, Sendable {
  public var temperature: Double
  public init(temperature: Double) { self.temperature = temperature }
}

@DependencyClient
public struct WeatherClient: Sendable {
  public var forecast: @Sendable (_ location: Location) async throws -> Forecast
  public var search: @Sendable (_ query: String) async throws -> [Location]
  public var isAvailable: @Sendable () -> Bool = { false }
  public var lastQuery: @Sendable () -> String?
  public var log: @Sendable (_ message: String, _ level: Int) -> Void
  public var units = "metric"
}

extension WeatherClient: TestDependencyKey {
  public static let testValue = WeatherClient()
}

extension DependencyValues {
  public var weatherClient: WeatherClient {
    get { self[WeatherClient.self] }
    set { self[WeatherClient.self] = newValue }
  }
}
