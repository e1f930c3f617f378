import ComposableArchitecture
import Foundation

/// A poll every browser edits at once. The board (question, choices, votes) is shared by
/// every session, so one browser's change reaches all of them; which choice a browser voted
/// for is its session's own.
@Reducer
public struct Poll {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    @Shared(.board) public var board
    /// The choice this session voted for.
    public var myVote: Choice.ID?

    public init(myVote: Choice.ID? = nil) {
      self.myVote = myVote
    }
  }

  public enum Action: Equatable, Sendable {
    /// Adds a choice; an empty title, a duplicate one or a full board changes nothing.
    case addChoice(title: String)
    /// Replaces the question; an empty one changes nothing.
    case editQuestion(text: String)
    /// Removes a choice nobody voted for.
    case removeChoice(id: Choice.ID)
    /// Votes for a choice, moving this session's vote there; voting for it again takes the
    /// vote back.
    case vote(id: Choice.ID)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addChoice(let title):
        guard let title = Self.cleaned(title) else { return .none }
        let id = uuid()
        state.$board.withLock { board in
          guard board.choices.count < BoardLimits.maxChoices,
            !board.choices.contains(where: { $0.title.lowercased() == title.lowercased() })
          else { return }
          board.choices.append(Choice(id: id, title: title))
        }
        return .none

      case .editQuestion(let text):
        guard let question = Self.cleaned(text) else { return .none }
        state.$board.withLock { $0.question = question }
        return .none

      case .removeChoice(let id):
        state.$board.withLock { board in
          guard board.choices[id: id]?.votes == 0 else { return }
          _ = board.choices.remove(id: id)
        }
        return .none

      case .vote(let id):
        guard state.board.choices[id: id] != nil else { return .none }
        let previous = state.myVote
        state.$board.withLock { board in
          if let previous, board.choices[id: previous] != nil {
            board.choices[id: previous]!.votes = max(0, board.choices[id: previous]!.votes - 1)
          }
          if previous != id { board.choices[id: id]?.votes += 1 }
        }
        state.myVote = previous == id ? nil : id
        return .none
      }
    }
  }

  /// `text` without surrounding spaces, cut to ``BoardLimits/maxTitleLength``; nil if empty.
  static func cleaned(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : String(trimmed.prefix(BoardLimits.maxTitleLength))
  }
}
