import ComposableArchitecture
import Foundation

/// An entry of the address book. `@ObservableState` gives it the coding and schema of a
/// state, although no feature owns it.
@ObservableState
public struct Contact: Equatable, Codable, Identifiable, Sendable {
  public let id: UUID
  public var name: String

  public init(id: UUID, name: String) {
    self.id = id
    self.name = name
  }
}

/// An address book driven by server-side navigation: adding a contact presents a sheet,
/// deleting one asks first in an alert, and tapping one drills down a stack of detail
/// pages. The page draws each from the state and sends back `dismiss` and stack actions.
@Reducer
public struct Contacts {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var contacts: IdentifiedArrayOf<Contact> = []
    @Presents public var destination: Destination.State?
    public var path = StackState<ContactDetail.State>()

    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case addButtonTapped
    case contactTapped(id: Contact.ID)
    case deleteButtonTapped(id: Contact.ID)
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<ContactDetail>)

    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDeletion(id: Contact.ID)
    }
  }

  @Reducer
  public enum Destination {
    case addContact(ContactForm)
    case alert(AlertState<Contacts.Action.Alert>)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addContact(ContactForm.State(id: uuid()))
        return .none
      case let .contactTapped(id):
        guard let contact = state.contacts[id: id] else { return .none }
        state.path.append(ContactDetail.State(contact: contact))
        return .none
      case let .deleteButtonTapped(id):
        guard let contact = state.contacts[id: id] else { return .none }
        state.destination = .alert(Self.deletionAlert(for: contact))
        return .none
      case let .destination(.presented(.addContact(.delegate(.save(contact))))):
        state.contacts.append(contact)
        return .none
      case let .destination(.presented(.alert(.confirmDeletion(id)))):
        state.contacts.remove(id: id)
        state.path.removeAll()
        return .none
      case let .path(.element(id: _, action: .delegate(.delete(contact)))):
        state.destination = .alert(Self.deletionAlert(for: contact))
        return .none
      case .destination, .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path) { ContactDetail() }
  }

  static func deletionAlert(for contact: Contact) -> AlertState<Action.Alert> {
    AlertState {
      TextState("Delete \(contact.name)?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(id: contact.id)) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Keep") }
    } message: {
      TextState("This cannot be undone.")
    }
  }
}

extension Contacts.Destination.State: Equatable {}
extension Contacts.Destination.Action: Equatable {}
