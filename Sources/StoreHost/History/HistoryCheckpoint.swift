import StoreHostJSON
import Synchronization

/// A whole state kept in a session's history: its JSON, made when first needed (by a save
/// or a read) rather than in the store's serial section, then kept.
final class HistoryCheckpoint: Sendable {
  private enum Contents {
    case pending(@Sendable () throws -> [UInt8])
    /// `nil`: the state could not be encoded.
    case made([UInt8]?)
  }

  private let contents: Mutex<Contents>

  /// A state whose JSON `encode` makes.
  init(encode: @escaping @Sendable () throws -> [UInt8]) {
    contents = Mutex(.pending(encode))
  }

  /// A state whose JSON is known.
  init(json: [UInt8]) {
    contents = Mutex(.made(json))
  }

  /// The state's compact JSON; `nil` when it could not be encoded.
  var json: [UInt8]? {
    contents.withLock { contents in
      switch contents {
      case .made(let json):
        return json
      case .pending(let encode):
        let json = try? encode().trimmed()
        contents = .made(json)
        return json
      }
    }
  }
}
