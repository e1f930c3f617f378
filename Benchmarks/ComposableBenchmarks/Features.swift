import ComposableArchitecture

// Ten concrete features, each scoping the one below, as a deep app tree would.

/// The seed's Counter, level 0 of the tree.
@Reducer
struct Counter {
  struct State: Equatable { var count = 0 }
  enum Action { case incrementButtonTapped }

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}

@Reducer
struct Level1 {
  struct State: Equatable { var child = Counter.State() }
  enum Action { case child(Counter.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Counter() } }
}

@Reducer
struct Level2 {
  struct State: Equatable { var child = Level1.State() }
  enum Action { case child(Level1.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level1() } }
}

@Reducer
struct Level3 {
  struct State: Equatable { var child = Level2.State() }
  enum Action { case child(Level2.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level2() } }
}

@Reducer
struct Level4 {
  struct State: Equatable { var child = Level3.State() }
  enum Action { case child(Level3.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level3() } }
}

@Reducer
struct Level5 {
  struct State: Equatable { var child = Level4.State() }
  enum Action { case child(Level4.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level4() } }
}

@Reducer
struct Level6 {
  struct State: Equatable { var child = Level5.State() }
  enum Action { case child(Level5.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level5() } }
}

@Reducer
struct Level7 {
  struct State: Equatable { var child = Level6.State() }
  enum Action { case child(Level6.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level6() } }
}

@Reducer
struct Level8 {
  struct State: Equatable { var child = Level7.State() }
  enum Action { case child(Level7.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level7() } }
}

@Reducer
struct Level9 {
  struct State: Equatable { var child = Level8.State() }
  enum Action { case child(Level8.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level8() } }
}

@Reducer
struct Level10 {
  struct State: Equatable { var child = Level9.State() }
  enum Action { case child(Level9.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level9() } }
}

extension Level10.Action {
  /// Counter's increment, wrapped ten times.
  static var increment: Self {
    .child(.child(.child(.child(.child(.child(.child(.child(.child(.child(.incrementButtonTapped))))))))))
  }
}
