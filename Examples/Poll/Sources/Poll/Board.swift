import ComposableArchitecture
import Foundation

/// What every session of the poll shares: the question and its choices with their votes.
/// `@ObservableState` gives it the coding and schema of a state (for `GET /api/schema`).
@ObservableState
public struct Board: Equatable, Codable, Sendable {
  public var question = "Where shall we meet?"
  public var choices: IdentifiedArrayOf<Choice> = []

  public init(question: String = "Where shall we meet?", choices: IdentifiedArrayOf<Choice> = []) {
    self.question = question
    self.choices = choices
  }
}

/// One answer of the poll and how many sessions chose it.
@ObservableState
public struct Choice: Equatable, Codable, Identifiable, Sendable {
  public let id: UUID
  public var title: String
  public var votes: Int

  public init(id: UUID, title: String, votes: Int = 0) {
    self.id = id
    self.title = title
    self.votes = votes
  }
}

/// Limits of the board, so that no client can grow it without bound.
public enum BoardLimits {
  /// The most choices a board holds.
  public static let maxChoices = 20
  /// The longest question or choice title, in characters.
  public static let maxTitleLength = 80
}

extension SharedReaderKey where Self == FileStorageKey<Board>.Default {
  /// The board, kept in `poll-board.json` in the working directory (in memory in tests).
  public static var board: Self {
    Self[.fileStorage(URL(fileURLWithPath: "poll-board.json")), default: Board()]
  }
}
