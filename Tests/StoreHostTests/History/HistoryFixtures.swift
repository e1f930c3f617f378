import ComposableArchitecture
import Foundation
import HTTP
import Testing

@testable import StoreHost

/// A journal whose actions exercise every kind of history step: a client's action, one
/// that returns `.send` (two actions, one version), one that changes nothing, one that
/// draws a UUID and a date, an effect that sends an action back (drawing a UUID of its
/// own), a change too large to be accepted, and a count shared by the stores of the session.
@Reducer
struct Journal {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var count = 0
    var entries: [Entry] = []
    var fetched = ""
    @Shared(.inMemory("visitors", scope: .session)) var visitors = 0
  }

  @ObservableState
  struct Entry: Equatable, Codable, Sendable {
    var id: UUID
    var text: String
    var at: Date
  }

  enum Action: Equatable, Sendable {
    case add(String)
    case fetch
    case increment
    case incrementTwice
    case nothing
    case visit
    @Internal case fetched(String)
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  /// How much `increment` adds: a build that changed it behaves differently.
  var step = 1

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .add(text):
        state.entries.append(Entry(id: uuid(), text: text, at: date.now))
        return .none
      case .fetch:
        return .run { [uuid] send in
          let drawn = uuid()
          await send(.fetched(drawn.uuidString))
        }
      case let .fetched(text):
        state.fetched = text
        return .none
      case .increment:
        state.count += step
        return .none
      case .incrementTwice:
        state.count += step
        return .send(.increment)
      case .nothing:
        return .none
      case .visit:
        state.$visitors.withLock { $0 += 1 }
        return .none
      }
    }
  }
}

let historySigner = try! SessionTokenSigner(secret: Array(repeating: 5, count: 32))

/// A host of ``Journal`` keeping `history` steps, whose `increment` adds `step`.
func journalHost(
  _ persistence: some SessionPersistence, history: Int = 100, step: Int = 1, maxStateBytes: Int = 1 << 20,
  limits: (inout SessionLimits) -> Void = { _ in }
) -> SessionHost<Journal.State, Journal.Action> {
  var configuration = SessionHostConfiguration()
  configuration.historyLength = history
  configuration.limits.maxStateBytes = maxStateBytes
  limits(&configuration.limits)
  return SessionHost(
    configuration: configuration, persistence: persistence, tokenSigner: historySigner,
    initialState: Journal.State(), reducer: { Journal(step: step) })
}

/// The kept steps of `session`'s history, from memory and storage, as JSON.
func historySteps(
  of session: Session<Journal.State, Journal.Action>, in host: SessionHost<Journal.State, Journal.Action>
) async throws -> [JSONValue] {
  try await host.records(of: session).map { try JSONValue(parsing: $0.json) }
}

/// Answers `method path` on `host`'s routes with `session`'s token, and its status and body.
func request(
  _ host: SessionHost<Journal.State, Journal.Action>, _ method: String, _ path: String, query: String? = nil,
  token: String, body: String? = nil
) async -> (status: Int, body: [UInt8], headers: HTTPHeaders) {
  var router = Router()
  host.addRoutes(to: &router)
  var headers: HTTPHeaders = ["Authorization": "Bearer \(token)"]
  if body != nil { headers.set("Content-Type", "application/json") }
  let response = await router.respond(
    to: Request(method: method, path: path, query: query, headers: headers, body: Array((body ?? "").utf8)))
  guard case .bytes(let bytes) = response.body else { return (response.status, [], response.headers) }
  return (response.status, bytes, response.headers)
}
