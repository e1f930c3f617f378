import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

@testable import ComposableMacrosPlugin

/// What `@DependencyClient` and `@DependencyEndpoint` write, as text.
struct DependencyClientExpansionTests {
  @Test func aClientGetsEndpointsAndTwoInitializers() {
    let expanded = expand(
      """
      @DependencyClient
      public struct WeatherClient {
        public var forecast: @Sendable (_ location: Location) async throws -> Forecast
        public var units = "metric"
      }
      """)
    #expect(
      expanded == """
        public struct WeatherClient {
          public var forecast: @Sendable (_ location: Location) async throws -> Forecast {
            get {
              _forecast
            }
            set {
              _forecast = newValue
            }
          }

          public func forecast(location p0: Location) async throws -> Forecast {
            try await self.forecast(p0)
          }

          private var _forecast: @Sendable (_ location: Location) async throws -> Forecast = { _ in
            DependenciesMacros._reportUnimplemented("WeatherClient.forecast")
            throw DependenciesMacros.Unimplemented("WeatherClient.forecast")
          }
          public var units = "metric"

          public init(
            units: Swift.String = "metric",
            forecast: @escaping @Sendable (_ location: Location) async throws -> Forecast
          ) {
            self.units = units
            self.forecast = forecast
          }

          public init(
            units: Swift.String = "metric"
          ) {
            self.units = units
          }
        }
        """)
  }

  @Test func anEndpointWithADefaultReportsThenReturnsIt() {
    let expanded = expand(
      """
      struct SpeechClient {
        @DependencyEndpoint
        var isAuthorized: @Sendable () -> Bool = { false }
      }
      """)
    #expect(expanded.contains("""
        private var _isAuthorized: @Sendable () -> Bool = {
          DependenciesMacros._reportUnimplemented("SpeechClient.isAuthorized")
          return false
        }
      """))
    #expect(!expanded.contains("func isAuthorized"))
  }

  @Test func optionalAndVoidResultsNeedNoDefault() {
    let expanded = expand(
      """
      struct Client {
        @DependencyEndpoint
        var last: () -> Int?
        @DependencyEndpoint(method: "record")
        var log: (_ message: String, inout Int) -> Void
      }
      """)
    #expect(expanded.contains("return nil"))
    #expect(expanded.contains("func record(message p0: String, _ p1: inout Int) -> Void {"))
    #expect(expanded.contains("self.log(p0, &p1)"))
  }

  @Test func aNonThrowingEndpointWithAResultAndNoDefaultIsAnError() {
    var diagnostics: [String] = []
    let expanded = expand(
      """
      struct Client {
        @DependencyEndpoint
        var count: () -> Int
      }
      """, diagnostics: &diagnostics)
    #expect(!expanded.contains("private var _count"))
    #expect(diagnostics.contains { $0.contains("a non-throwing endpoint needs a default value") })
  }

  private func expand(_ source: String) -> String {
    var diagnostics: [String] = []
    return expand(source, diagnostics: &diagnostics)
  }

  private func expand(_ source: String, diagnostics: inout [String]) -> String {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(sourceFiles: [
      file: .init(moduleName: "Client", fullFilePath: "Client.swift")
    ])
    let expanded = file.expand(
      macros: ["DependencyClient": DependencyClientMacro.self, "DependencyEndpoint": DependencyEndpointMacro.self],
      contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) },
      indentationWidth: .spaces(2)
    ).trimmedDescription
    diagnostics = context.diagnostics.map(\.message)
    return expanded
  }
}
