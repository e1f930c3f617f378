import ComposableArchitecture
import ComposableTesting
import Testing

/// A feature that presents another of itself, as a folder presents a subfolder.
@Reducer
struct Folder {
  struct State: Equatable {
    @Presents var subfolder: Folder.State?
    var name = ""
  }

  enum Action {
    case openSubfolderTapped(String)
    case subfolder(PresentationAction<Folder.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .openSubfolderTapped(name):
        state.subfolder = Folder.State(name: name)
        return .none
      case .subfolder:
        return .none
      }
    }
    .ifLet(\.$subfolder, action: \.subfolder) {
      Folder()
    }
  }
}

@MainActor
@Test func aFeatureCanPresentItself() async {
  let store = TestStore(initialState: Folder.State(name: "Documents")) {
    Folder()
  }
  await store.send(.openSubfolderTapped("Taxes")) {
    $0.subfolder = Folder.State(name: "Taxes")
  }
  await store.send(.subfolder(.presented(.openSubfolderTapped("2025")))) {
    $0.subfolder?.subfolder = Folder.State(name: "2025")
  }
  await store.send(.subfolder(.presented(.subfolder(.dismiss)))) {
    $0.subfolder?.subfolder = nil
  }
}

@Test func copiesOfAPresentationDoNotShareChanges() {
  var original = Folder.State(name: "Documents")
  original.subfolder = Folder.State(name: "Taxes")
  var copy = original
  copy.subfolder?.name = "Receipts"
  #expect(original.subfolder?.name == "Taxes")
  #expect(copy.subfolder?.name == "Receipts")
}

/// A state whose comparison is counted.
private struct Counted: Equatable {
  nonisolated(unsafe) static var comparisons = 0
  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons += 1
    return true
  }
}

@Test func copiesOfAPresentationAreEqualWithoutComparingTheirStates() {
  let presented = PresentationState(wrappedValue: Counted())
  let copy = presented
  #expect(presented == copy)
  #expect(Counted.comparisons == 0)
}
