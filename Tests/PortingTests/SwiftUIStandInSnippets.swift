// Where SwiftUI is missing, the values TCA's examples keep in their logic: animations that
// `send` accepts, an edit mode, colors and string keys in state.
import ComposableArchitecture
import Testing

@Reducer
struct Ticker {
  enum Filter: LocalizedStringKey, CaseIterable, Hashable {
    case all = "All"
    case active = "Active"
  }

  @ObservableState
  struct State: Equatable {
    var color = Color.black
    var editMode: EditMode = .inactive
    var filter: Filter = .all
    var ticks = 0
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case startButtonTapped
    case ticked(Color)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .startButtonTapped:
        return .run { send in
          await send(.ticked(.red), animation: .interpolatingSpring(stiffness: 3000, damping: 40))
          await send(.ticked(.blue), animation: .default)
        }
      case let .ticked(color):
        state.color = color
        state.ticks += 1
        return .none
      }
    }
  }
}

@MainActor
struct SwiftUIStandInSnippetTests {
  @Test func sendWithAnAnimationSendsTheAction() async {
    let store = TestStore(initialState: Ticker.State()) { Ticker() }
    await store.send(.startButtonTapped)
    await store.receive(\.ticked) {
      $0.color = .red
      $0.ticks = 1
    }
    await store.receive(\.ticked) {
      $0.color = .blue
      $0.ticks = 2
    }
  }

  @Test func editModeAndFiltersBindLikeAnyField() async {
    let store = TestStore(initialState: Ticker.State()) { Ticker() }
    await store.send(\.binding.editMode, .active) {
      $0.editMode = .active
    }
    await store.send(\.binding.filter, .active) {
      $0.filter = .active
    }
    #expect(Ticker.Filter.active.rawValue == "Active")
  }
}
