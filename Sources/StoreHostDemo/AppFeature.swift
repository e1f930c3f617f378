import ComposableArchitecture

/// The demo's root feature: one of these runs for each browser session.
///
/// Its JSON shape is what the documentation's examples and the pages in Public/ rely on: state
/// `{"counter": {"count": 0}, "twoCounters": {...}, "todos": {...}, ..., "shared": {"count": n}, "contacts": {...}}`,
/// actions such as
/// `{"counter": "incrementButtonTapped"}` or `{"twoCounters": {"first": "incrementButtonTapped"}}`.
@Reducer
public struct AppFeature {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var counter = Counter.State()
    public var twoCounters = TwoCounters.State()
    public var todos = Todos.State()
    public var numberFact = NumberFact.State()
    public var timer = Timer.State()
    public var shared = SharedCounter.State()
    public var contacts = Contacts.State()

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case counter(Counter.Action)
    case twoCounters(TwoCounters.Action)
    case todos(Todos.Action)
    case numberFact(NumberFact.Action)
    case timer(Timer.Action)
    case shared(SharedCounter.Action)
    case contacts(Contacts.Action)
    /// Sent by the host when the session was rebuilt from its saved state on a new process.
    @Internal case sessionResumed
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { Counter() }
    Scope(state: \.twoCounters, action: \.twoCounters) { TwoCounters() }
    Scope(state: \.todos, action: \.todos) { Todos() }
    Scope(state: \.numberFact, action: \.numberFact) { NumberFact() }
    Scope(state: \.timer, action: \.timer) { Timer() }
    Scope(state: \.shared, action: \.shared) { SharedCounter() }
    Scope(state: \.contacts, action: \.contacts) { Contacts() }
    Reduce { _, action in
      guard case .sessionResumed = action else { return .none }
      return .send(.timer(.resumed))
    }
  }
}

extension AppFeature.State: MigratableState {
  /// 1: `numberFact.count` became `numberFact.number`. (Fields added with a default value
  /// need no version: decoding keeps the default.)
  public static var stateVersion: Int { 1 }

  public static func migrate(_ json: inout JSONValue, from version: Int) throws {
    if version == 0 { json["numberFact"]?.renameMember("count", to: "number") }
  }
}
