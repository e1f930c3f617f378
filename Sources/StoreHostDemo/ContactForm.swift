import ComposableArchitecture
import Foundation

/// The sheet that adds a contact: its name is a binding; saving hands the contact to the
/// address book and dismisses the sheet, cancelling only dismisses it.
@Reducer
public struct ContactForm {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public let id: UUID
    @BindingState public var name = ""

    public init(id: UUID, name: String = "") {
      self.id = id
      self.name = name
    }
  }

  public enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    @Internal case delegate(Delegate)
    case saveButtonTapped

    @CasePathable
    public enum Delegate: Equatable, Sendable {
      case save(Contact)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none
      case .cancelButtonTapped:
        return .run { [dismiss] _ in await dismiss() }
      case .saveButtonTapped:
        let name = state.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return .none }
        return .run { [id = state.id, dismiss] send in
          await send(.delegate(.save(Contact(id: id, name: String(name.prefix(100))))))
          await dismiss()
        }
      }
    }
  }
}

/// A page of the drill-down: one contact, a way back, and a delete that the address book
/// confirms.
@Reducer
public struct ContactDetail {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var contact: Contact

    public init(contact: Contact) {
      self.contact = contact
    }
  }

  public enum Action: Equatable, Sendable {
    case backButtonTapped
    @Internal case delegate(Delegate)
    case deleteButtonTapped

    @CasePathable
    public enum Delegate: Equatable, Sendable {
      case delete(Contact)
    }
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .backButtonTapped:
        return .run { [dismiss] _ in await dismiss() }
      case .delegate:
        return .none
      case .deleteButtonTapped:
        return .send(.delegate(.delete(state.contact)))
      }
    }
  }
}
