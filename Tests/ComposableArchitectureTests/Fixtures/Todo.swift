import ComposableArchitecture
import Foundation

/// A list element with bindable fields and internal actions.
@Reducer
struct Todo {
  @ObservableState
  struct State: Equatable, Identifiable {
    let id: UUID
    @BindingState var title = ""
    @BindingState var isComplete = false
    var isSaving = false
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case deleteButtonTapped
    @Internal case saved(Bool)
    @Internal case delegate(Delegate)

    @CasePathable
    enum Delegate: Equatable {
      case didDelete
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none
      case .deleteButtonTapped:
        return .send(.delegate(.didDelete))
      case let .saved(success):
        state.isSaving = !success
        return .none
      }
    }
  }
}
