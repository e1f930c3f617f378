/// Makes a struct of closures a dependency client, as TCA's `@DependencyClient` does.
///
/// ```swift
/// @DependencyClient
/// struct WeatherClient {
///   var forecast: @Sendable (_ location: Location) async throws -> Forecast
///   var search: @Sendable (_ query: String) async throws -> [Location]
/// }
///
/// extension WeatherClient: TestDependencyKey {
///   static let testValue = WeatherClient()
/// }
/// ```
///
/// Every closure property becomes a ``DependencyEndpoint(method:)``: it reports an issue when
/// it is called without an implementation, and closures with argument names get a labeled
/// method (`client.forecast(location:)`). The struct gets a memberwise initializer (the
/// endpoints' implementations) and one without the endpoints, where each is unimplemented:
/// `WeatherClient()` is the usual `testValue`.
@attached(member, names: named(init))
@attached(memberAttribute)
public macro DependencyClient() =
  #externalMacro(module: "ComposableMacrosPlugin", type: "DependencyClientMacro")

/// A closure property of a dependency client whose default reports its use.
///
/// Until it is given an implementation, calling it reports "Unimplemented" as an issue (a
/// test failure under `ComposableTesting`), then returns the property's default value, `nil`
/// for an optional result, or throws ``Unimplemented``. A non-throwing closure that returns
/// a value needs a default: `var isAuthorized: @Sendable () -> Bool = { false }`.
///
/// When the closure's type names its arguments, `(_ location: Location) async -> Forecast`,
/// a method with those labels calls it: `client.forecast(location:)`, or the method named by
/// `method`.
@attached(accessor, names: named(get), named(set))
@attached(peer, names: arbitrary)
public macro DependencyEndpoint(method: String = "") =
  #externalMacro(module: "ComposableMacrosPlugin", type: "DependencyEndpointMacro")

/// What an unimplemented throwing endpoint throws once it has reported its use.
public struct Unimplemented: Error, CustomStringConvertible {
  /// The endpoint, as in `WeatherClient.forecast`.
  public let endpoint: String

  public init(_ endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String { "Unimplemented: '\(endpoint)'" }
}

/// Reports the use of an endpoint that has no implementation: the first line of every
/// unimplemented endpoint `@DependencyEndpoint` writes.
public func _reportUnimplemented(
  _ endpoint: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  reportIssue("Unimplemented: '\(endpoint)'", fileID: fileID, filePath: filePath, line: line, column: column)
}
