import ComposableArchitecture
import Foundation
import HTTP
import Testing

@testable import StoreHost

/// A level with associated values, which a decoder-driven schema could only call "an object".
@CasePathable
private enum Level: Codable, Equatable, Sendable {
  case low
  case custom(percent: Int)
}

/// A payload whose decoding stops the process.
private struct Armed: Codable, Equatable, Sendable {
  init(from decoder: any Decoder) throws { preconditionFailure("GET /api/schema ran Armed's init(from:)") }
  func encode(to encoder: any Encoder) throws {}
}

/// A feature whose decoding traps: the schema route must never run it.
@Reducer
private struct Guarded {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var level = Level.low

    init() {}

    init(from decoder: any Decoder) throws { preconditionFailure("GET /api/schema ran State's init(from:)") }
  }

  enum Action: Equatable, Sendable {
    case setLevel(Level)
    case arm(Armed)
    @Internal case tick
  }

  var body: some ReducerOf<Self> { EmptyReducer() }
}

@Suite struct SchemaRouteTests {
  @Test func theSchemaComesFromTheDeclarationsAndNoDecoderRuns() throws {
    let host = SessionHost<Guarded.State, Guarded.Action>(
      persistence: InMemorySessionPersistence(), tokenSigner: try SessionTokenSigner(secret: Array(repeating: 7, count: 32)),
      initialState: Guarded.State(), reducer: { Guarded() })
    guard case .bytes(let body) = host.schemaResponse().body else {
      Issue.record("the schema is not a complete body")
      return
    }
    let schema = try JSONValue(parsing: body)
    let state = try #require(schema["$defs"]?["State"])
    #expect(state["required"] == ["count", "level"])
    #expect(state["properties"]?["level"]?["oneOf"]?[1]?["properties"]?["custom"]?["required"] == ["percent"])
    let action = String(decoding: try JSONEncoding.encode(try #require(schema["$defs"]?["Action"])), as: UTF8.self)
    #expect(action.contains(#"{"setLevel":{"oneOf":[{"const":"low"},"#))
    #expect(action.contains("any JSON: Armed is not described"))
    #expect(!action.contains("tick"))
  }
}
