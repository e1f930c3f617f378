// `@Reducer enum` destinations and stack paths as TCA's navigation articles write them: the
// enum is a reducer, and its state's cases read as optional members in tests.
import ComposableArchitecture
import Testing

@Reducer
struct EditItem {
  @ObservableState
  struct State: Equatable {
    var title = ""
  }
  enum Action {
    case titleChanged(String)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .titleChanged(title):
        state.title = title
        return .none
      }
    }
  }
}

@Reducer
struct ItemCounter {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }
  enum Action {
    case incrementButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}

@Reducer
struct ItemList {
  @Reducer
  enum Destination {
    case edit(EditItem)
  }

  @Reducer
  enum Path {
    case detail(ItemCounter)
    case edit(EditItem)
  }

  @ObservableState
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var path = StackState<Path.State>()
  }

  enum Action {
    case destination(PresentationAction<Destination.Action>)
    case editButtonTapped
    case path(StackActionOf<Path>)
    case showDetailButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editButtonTapped:
        state.destination = .edit(EditItem.State(title: "Milk"))
        return .none
      case .showDetailButtonTapped:
        state.path.append(.detail(ItemCounter.State()))
        return .none
      case .destination, .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

extension ItemList.Destination.State: Equatable {}
extension ItemList.Path.State: Equatable {}

@MainActor
struct EnumReducerSnippetTests {
  @Test func aDestinationsStateIsChangedThroughItsCase() async {
    let store = TestStore(initialState: ItemList.State()) { ItemList() }
    await store.send(.editButtonTapped) {
      $0.destination = .edit(EditItem.State(title: "Milk"))
    }
    await store.send(\.destination.edit.titleChanged, "Eggs") {
      $0.destination?.edit?.title = "Eggs"
    }
  }

  @Test func aStackElementIsChangedThroughItsCase() async {
    let store = TestStore(initialState: ItemList.State()) { ItemList() }
    await store.send(.showDetailButtonTapped) {
      $0.path[id: 0] = .detail(ItemCounter.State())
    }
    await store.send(\.path[id: 0].detail.incrementButtonTapped) {
      $0.path[id: 0]?.detail?.count = 1
    }
  }

  @Test func theEnumIsAReducerAndItsBodyRunsTheCasesFeature() {
    var state = ItemList.Path.State.edit(EditItem.State())
    _ = ItemList.Path.body.reduce(into: &state, action: .edit(.titleChanged("Tea")))
    #expect(state.edit?.title == "Tea")
    #expect(state.detail == nil)
    let stackAction: StackActionOf<ItemList.Path> = .popFrom(id: 0)
    #expect("\(stackAction)".contains("popFrom"))
  }

  @Test func settingAnotherCasesMemberChangesNothing() {
    var state = ItemList.Path.State.edit(EditItem.State(title: "Milk"))
    state.detail?.count = 3
    #expect(state == .edit(EditItem.State(title: "Milk")))
  }
}

/// An enum of features that writes its own `body`, as TicTacToe's root does.
@Reducer
enum Session {
  case counting(ItemCounter)
  case editing(EditItem)

  static var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .counting(.incrementButtonTapped):
        if state.counting?.count == 2 {
          state = .editing(EditItem.State(title: "Done counting"))
        }
        return .none
      case .counting, .editing:
        return .none
      }
    }
    .ifCaseLet(\.counting, action: \.counting) { ItemCounter() }
    .ifCaseLet(\.editing, action: \.editing) { EditItem() }
  }
}

extension Session.State: Equatable {}

@MainActor
struct CaseReducerBodySnippetTests {
  @Test func anEnumsOwnBodyRunsItsCasesWithIfCaseLet() async {
    let store = TestStore(initialState: Session.State.counting(ItemCounter.State())) {
      Session.body
    }
    await store.send(\.counting.incrementButtonTapped) {
      $0.counting?.count = 1
    }
    await store.send(\.counting.incrementButtonTapped) {
      $0 = .editing(EditItem.State(title: "Done counting"))
    }
    await store.send(\.editing.titleChanged, "Again") {
      $0.editing?.title = "Again"
    }
  }

  @Test func anActionForAnotherCaseIsReported() async {
    let store = TestStore(initialState: Session.State.editing(EditItem.State())) {
      Session.body
    }
    await withKnownIssue {
      await store.send(\.counting.incrementButtonTapped)
    } matching: { issue in
      issue.description.contains("received a child action when child state was set to a different case")
    }
  }
}

/// SyncUps' shapes: a path case holding plain values, and destinations whose actions the
/// enum names itself, with an alert case marked `@ReducerCaseIgnored`.
@Reducer
struct Meetings {
  @Reducer
  enum Path {
    case counter(ItemCounter)
    case transcript(String, speaker: String)
  }

  @Reducer
  enum Destination {
    @ReducerCaseIgnored case alert(AlertState<Alert>)
    case edit(EditItem)

    @CasePathable
    enum Action {
      case alert(Alert)
      case edit(EditItem.Action)
    }

    @CasePathable
    enum Alert: Equatable {
      case confirmDeletion
    }
  }

  @ObservableState
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var path = StackState<Path.State>()
    var deleted = 0
  }

  enum Action {
    case deleteButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<Path>)
    case transcriptButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped:
        state.destination = .alert(AlertState { TextState("Delete?") } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
        })
        return .none
      case .destination(.presented(.alert(.confirmDeletion))):
        state.deleted += 1
        return .none
      case .destination, .path:
        return .none
      case .transcriptButtonTapped:
        state.path.append(.transcript("Hello", speaker: "Blob"))
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

extension Meetings.Path.State: Equatable {}
extension Meetings.Destination.State: Equatable {}

@MainActor
struct StateOnlyCaseSnippetTests {
  @Test func aPathCaseOfPlainValuesIsPushedAndPopped() async {
    let store = TestStore(initialState: Meetings.State()) { Meetings() }
    await store.send(.transcriptButtonTapped) {
      $0.path[id: 0] = .transcript("Hello", speaker: "Blob")
    }
    await store.send(\.path.popFrom, 0) {
      $0.path = StackState()
    }
  }

  @Test func anIgnoredAlertCaseIsAnsweredByTheActionsTheEnumNames() async {
    let store = TestStore(initialState: Meetings.State()) { Meetings() }
    await store.send(.deleteButtonTapped) {
      $0.destination = .alert(AlertState { TextState("Delete?") } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
      })
    }
    await store.send(\.destination.alert.confirmDeletion) {
      $0.deleted = 1
      $0.destination = nil
    }
  }
}
