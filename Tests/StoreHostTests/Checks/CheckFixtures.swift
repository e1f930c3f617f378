import ComposableArchitecture
import Foundation

@testable import StoreHost

/// A counter inside ``Score``, whose increment adds `step`: a build that changed it behaves
/// differently.
@Reducer
struct ScoreCounter {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case incrementButtonTapped
    case resetButtonTapped
  }

  var step = 1

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped: state.count += step
      case .resetButtonTapped: state.count = 0
      }
      return .none
    }
  }
}

/// A score as the running build has it: a counter and a label.
@Reducer
struct Score {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var counter = ScoreCounter.State()
    var label = ""
  }

  enum Action: Equatable, Sendable {
    case counter(ScoreCounter.Action)
    case rename(String)
  }

  var step = 1

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { ScoreCounter(step: step) }
    Reduce { state, action in
      if case let .rename(label) = action { state.label = label }
      return .none
    }
  }
}

/// The next build's score with a field added, with a default.
@Reducer
struct ScoreWithNote {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var counter = ScoreCounter.State()
    var label = ""
    var note = "none"
  }

  enum Action: Equatable, Sendable {
    case counter(ScoreCounter.Action)
    case rename(String)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { ScoreCounter() }
    Reduce { state, action in
      if case let .rename(label) = action { state.label = label }
      return .none
    }
  }
}

/// The next build's score with `label` renamed `title` and no migration: saved scores do
/// not decode.
@Reducer
struct ScoreRenamed {
  @ObservableState
  struct State: Equatable, Codable, Sendable {
    var counter = ScoreCounter.State()
    var title: String
  }

  enum Action: Equatable, Sendable {
    case counter(ScoreCounter.Action)
    case rename(String)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { ScoreCounter() }
    Reduce { state, action in
      if case let .rename(title) = action { state.title = title }
      return .none
    }
  }
}

/// Saves `count` scores in `database` through a host of the running build keeping their
/// history, each incremented, renamed and incremented again; their ids, most recently used
/// last.
func saveScores(_ count: Int, in database: TemporaryDatabase) async throws -> [SessionID] {
  var configuration = SessionHostConfiguration()
  configuration.historyLength = 50
  let host = SessionHost(
    configuration: configuration, persistence: try await database.open(),
    tokenSigner: try SessionTokenSigner(secret: Array(repeating: 3, count: 32)), initialState: Score.State(),
    reducer: { Score() })
  var ids: [SessionID] = []
  for index in 0..<count {
    let session = try await host.createSession()
    for action: Score.Action in [.counter(.incrementButtonTapped), .rename("score \(index)"), .counter(.incrementButtonTapped)] {
      session.store.send(action)
    }
    ids.append(session.id)
    try await Task.sleep(for: .milliseconds(2))
  }
  await host.shutdown()
  return ids
}

/// Saved sessions in memory, in order of id, counting the pages read.
final class SavedSessionsInMemory: SavedSessions {
  let snapshots: [SessionSnapshot]
  private(set) var pagesRead = 0

  init(_ snapshots: [SessionSnapshot]) {
    self.snapshots = snapshots.sorted { $0.id.rawValue < $1.id.rawValue }
  }

  func sessions(after id: SessionID?, limit: Int) throws -> [SessionSnapshot] {
    pagesRead += 1
    return Array(snapshots.filter { id == nil || $0.id.rawValue > id!.rawValue }.prefix(limit))
  }

  func recentlyActive(limit: Int) throws -> [SessionID] {
    Array(snapshots.sorted { $0.lastActiveAt > $1.lastActiveAt }.prefix(limit).map(\.id))
  }

  func history(of id: SessionID) throws -> [HistoryRecord] {
    snapshots.first { $0.id == id }?.history ?? []
  }
}

/// Another source's sessions, recording the size of every page it hands out.
final class PageCountingSessions<Base: SavedSessions>: SavedSessions {
  let base: Base
  private(set) var pageSizes: [Int] = []
  private(set) var limits: [Int] = []

  init(_ base: Base) { self.base = base }

  func sessions(after id: SessionID?, limit: Int) throws -> [SessionSnapshot] {
    let page = try base.sessions(after: id, limit: limit)
    limits.append(limit)
    pageSizes.append(page.count)
    return page
  }

  func recentlyActive(limit: Int) throws -> [SessionID] { try base.recentlyActive(limit: limit) }
  func history(of id: SessionID) throws -> [HistoryRecord] { try base.history(of: id) }
}
