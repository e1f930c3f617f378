// Tree and stack navigation as TCA's tutorial ("Navigation") writes it (see
// DependencySnippets.swift for how these files are compiled).
import ComposableArchitecture
import ComposableTesting
import Foundation
import Testing

struct Contact: Equatable, Identifiable, Codable {
  let id: UUID
  var name: String
}

@Reducer
struct AddContactFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var contact: Contact
  }

  enum Action {
    case cancelButtonTapped
    case delegate(Delegate)
    case saveButtonTapped
    case setName(String)

    @CasePathable
    enum Delegate: Equatable {
      case saveContact(Contact)
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelButtonTapped:
        return .run { _ in await self.dismiss() }
      case .delegate:
        return .none
      case .saveButtonTapped:
        return .run { [contact = state.contact] send in
          await send(.delegate(.saveContact(contact)))
          await self.dismiss()
        }
      case let .setName(name):
        state.contact.name = name
        return .none
      }
    }
  }
}

@Reducer
struct ContactDetailFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var contact: Contact
  }

  enum Action {
    case closeButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .closeButtonTapped:
        return .run { _ in await self.dismiss() }
      }
    }
  }
}

@Reducer
struct ContactsFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var contacts: IdentifiedArrayOf<Contact> = []
    @Presents var destination: Destination.State?
    var path = StackState<ContactDetailFeature.State>()
  }

  enum Action {
    case addButtonTapped
    case deleteButtonTapped(id: Contact.ID)
    case destination(PresentationAction<Destination.Action>)
    case path(StackAction<ContactDetailFeature.State, ContactDetailFeature.Action>)

    @CasePathable
    enum Alert: Equatable {
      case confirmDeletion(id: Contact.ID)
    }
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addContact(AddContactFeature.State(contact: Contact(id: uuid(), name: "")))
        return .none
      case let .destination(.presented(.addContact(.delegate(.saveContact(contact))))):
        state.contacts.append(contact)
        return .none
      case let .destination(.presented(.alert(.confirmDeletion(id: id)))):
        state.contacts.remove(id: id)
        return .none
      case .destination:
        return .none
      case let .deleteButtonTapped(id: id):
        state.destination = .alert(
          AlertState {
            TextState("Are you sure?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion(id: id)) {
              TextState("Delete")
            }
          })
        return .none
      case .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path) {
      ContactDetailFeature()
    }
  }
}

extension ContactsFeature {
  @Reducer
  enum Destination {
    case addContact(AddContactFeature)
    case alert(AlertState<ContactsFeature.Action.Alert>)
  }
}

extension ContactsFeature.Destination.State: Equatable {}

@MainActor
struct NavigationSnippetTests {
  @Test func addFlow() async {
    let store = TestStore(initialState: ContactsFeature.State()) {
      ContactsFeature()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.addButtonTapped) {
      $0.destination = .addContact(AddContactFeature.State(contact: Contact(id: UUID(0), name: "")))
    }
    await store.send(\.destination.addContact.setName, "Blob Jr.") {
      $0.destination?.modify(\.addContact) { $0.contact.name = "Blob Jr." }
    }
    await store.send(\.destination.addContact.saveButtonTapped)
    await store.receive(\.destination.addContact.delegate.saveContact, Contact(id: UUID(0), name: "Blob Jr.")) {
      $0.contacts = [Contact(id: UUID(0), name: "Blob Jr.")]
    }
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
    #expect(!store.isDismissed, "the presented feature was dismissed, not this one")
  }

  @Test func aFeatureUnderTestDismissesItself() async {
    let store = TestStore(initialState: AddContactFeature.State(contact: Contact(id: UUID(0), name: "Blob"))) {
      AddContactFeature()
    }
    #expect(!store.isDismissed)
    await store.send(.cancelButtonTapped).finish()
    #expect(store.isDismissed)
  }

  @Test func deleteContactAfterTheAlert() async {
    let store = TestStore(
      initialState: ContactsFeature.State(
        contacts: [Contact(id: UUID(0), name: "Blob"), Contact(id: UUID(1), name: "Blob Jr.")])
    ) {
      ContactsFeature()
    }

    await store.send(.deleteButtonTapped(id: UUID(1))) {
      $0.destination = .alert(
        AlertState {
          TextState("Are you sure?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion(id: UUID(1))) {
            TextState("Delete")
          }
        })
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(id: UUID(1)))))) {
      $0.contacts.remove(id: UUID(1))
      $0.destination = nil
    }
  }

  @Test func aDismissedFeaturesEffectsAreCancelled() async {
    let store = TestStore(initialState: ContactsFeature.State()) {
      ContactsFeature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addContact(AddContactFeature.State(contact: Contact(id: UUID(0), name: "")))
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  @Test func drillDownAndBackWithDismiss() async {
    let blob = Contact(id: UUID(0), name: "Blob")
    let store = TestStore(initialState: ContactsFeature.State(contacts: [blob])) {
      ContactsFeature()
    }

    await store.send(.path(.push(id: 0, state: ContactDetailFeature.State(contact: blob)))) {
      $0.path[id: 0] = ContactDetailFeature.State(contact: blob)
    }
    await store.send(\.path[id: 0].closeButtonTapped)
    await store.receive(\.path.popFrom) {
      $0.path = StackState()
    }
  }

  @Test func navigationStateAndActionsTravelAsJSON() throws {
    var state = ContactsFeature.State(contacts: [Contact(id: UUID(0), name: "Blob")])
    state.path.append(ContactDetailFeature.State(contact: Contact(id: UUID(0), name: "Blob")))
    state.destination = .alert(AlertState { TextState("Sure?") } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(id: UUID(0))) { TextState("Delete") }
    })
    let json = String(decoding: try JSONEncoding.encode(state), as: UTF8.self)
    let id = "00000000-0000-0000-0000-000000000000"
    #expect(json.contains(#""destination":{"alert":{"buttons":[{"action":{"confirmDeletion":{"id":"\#(id)"}},"label":"Delete","role":"destructive"}],"title":"Sure?"}}"#))
    #expect(json.contains(#""path":[{"id":0,"state":{"contact":{"id":"\#(id)","name":"Blob"}}}]"#))
    let decoded = try JSONDecoder().decode(ContactsFeature.State.self, from: Data(json.utf8))
    #expect(decoded == state)

    let dismiss = try ActionDecoding.decodeClientAction(ContactsFeature.Action.self, from: Data(#"{"destination":"dismiss"}"#.utf8))
    #expect(dismiss.is(\.destination.dismiss))
    let pop = try ActionDecoding.decodeClientAction(ContactsFeature.Action.self, from: Data(#"{"path":{"popFrom":{"id":0}}}"#.utf8))
    #expect(pop[case: \.path.popFrom] == 0)
    let element = try ActionDecoding.decodeClientAction(
      ContactsFeature.Action.self, from: Data(#"{"path":{"element":{"id":3,"action":"closeButtonTapped"}}}"#.utf8))
    #expect(element.is(\.path[id: 3].closeButtonTapped))
    let confirm = try ActionDecoding.decodeClientAction(
      ContactsFeature.Action.self,
      from: Data(#"{"destination":{"presented":{"alert":{"confirmDeletion":{"id":"\#(id)"}}}}}"#.utf8))
    #expect(confirm.is(\.destination.presented.alert.confirmDeletion))
  }
}

/// A confirmation dialog as TCA's documentation presents one.
@Reducer
struct SortFeature {
  @ObservableState
  struct State: Equatable {
    @Presents var confirmationDialog: ConfirmationDialogState<Action.Dialog>?
    var order = "name"
  }

  enum Action {
    case confirmationDialog(PresentationAction<Dialog>)
    case sortButtonTapped

    @CasePathable
    enum Dialog: Equatable {
      case byDate
      case byName
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .confirmationDialog(.presented(.byDate)):
        state.order = "date"
        return .none
      case .confirmationDialog(.presented(.byName)):
        state.order = "name"
        return .none
      case .confirmationDialog:
        return .none
      case .sortButtonTapped:
        state.confirmationDialog = ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Sort by")
        } actions: {
          ButtonState(action: .byDate) { TextState("Date") }
          ButtonState(action: .byName) { TextState("Name") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        }
        return .none
      }
    }
    .ifLet(\.$confirmationDialog, action: \.confirmationDialog)
  }
}

@MainActor
@Test func aConfirmationDialogIsAnsweredByItsButton() async {
  let store = TestStore(initialState: SortFeature.State()) { SortFeature() }
  await store.send(.sortButtonTapped) {
    $0.confirmationDialog = ConfirmationDialogState(titleVisibility: .visible) {
      TextState("Sort by")
    } actions: {
      ButtonState(action: .byDate) { TextState("Date") }
      ButtonState(action: .byName) { TextState("Name") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    }
  }
  await store.send(\.confirmationDialog.byDate) {
    $0.confirmationDialog = nil
    $0.order = "date"
  }
}

/// A presented feature with an effect that runs until it is cancelled.
@Reducer
struct TickerFeature {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
  }

  enum Action {
    case startButtonTapped
    case tick
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

@Reducer
struct TickerHost {
  @ObservableState
  struct State: Equatable {
    @Presents var ticker: TickerFeature.State?
  }

  enum Action {
    case showButtonTapped
    case ticker(PresentationAction<TickerFeature.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showButtonTapped:
        state.ticker = TickerFeature.State()
        return .none
      case .ticker:
        return .none
      }
    }
    .ifLet(\.$ticker, action: \.ticker) { TickerFeature() }
  }
}

// The store ends with no effect running: dismissing cancelled the ticker's timer (a test
// store fails a test that ends with effects still running).
@Test func dismissingCancelsThePresentedFeaturesEffects() async {
  let clock = TestClock()
  let store = TestStore(initialState: TickerHost.State()) {
    TickerHost()
  } withDependencies: {
    $0.continuousClock = clock
  }
  await store.send(.showButtonTapped) { $0.ticker = TickerFeature.State() }
  await store.send(\.ticker.startButtonTapped)
  await clock.advance(by: .seconds(1))
  await store.receive(\.ticker.tick) { $0.ticker?.ticks = 1 }
  await store.send(.ticker(.dismiss)) { $0.ticker = nil }
  await clock.advance(by: .seconds(5))
}
