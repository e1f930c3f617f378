import Composable

/// The seed's Counter.
struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: CasePathable {
    case incrementButtonTapped

    struct AllCasePaths {}
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}

/// A parent holding one child, to build trees of any depth: `Nested<Nested<Counter>>`.
struct Nested<Child: Reducer & Sendable>: Reducer, Sendable
where Child.State: Equatable & Sendable, Child.Action: Sendable {
  struct State: Equatable, Sendable { var child: Child.State }
  enum Action: Sendable, CasePathable {
    case child(Child.Action)

    struct AllCasePaths {
      var child: AnyCasePath<Action, Child.Action> {
        AnyCasePath(embed: Action.child) { if case let .child(action) = $0 { action } else { nil } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  let child: Child

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { child }
  }
}

typealias TenDeep = Nested<Nested<Nested<Nested<Nested<Nested<Nested<Nested<Nested<Nested<Counter>>>>>>>>>>

/// Builds the ten-level tree; outside `extension Nested`, where `Nested` means `Self`.
enum TenDeepTree {
  static var reducer: TenDeep {
    Nested(child: Nested(child: Nested(child: Nested(child: Nested(child: Nested(child:
      Nested(child: Nested(child: Nested(child: Nested(child: Counter()))))))))))
  }

  static var initialState: TenDeep.State {
    .init(child: .init(child: .init(child: .init(child: .init(child: .init(child:
      .init(child: .init(child: .init(child: .init(child: Counter.State()))))))))))
  }
}

extension TenDeepTree {
  /// Counter's increment, wrapped ten times.
  static var increment: TenDeep.Action {
    .child(.child(.child(.child(.child(.child(.child(.child(.child(.child(.incrementButtonTapped))))))))))
  }
}
