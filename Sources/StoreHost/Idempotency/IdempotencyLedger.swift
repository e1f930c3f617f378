import Foundation

/// One session's record of actions requests sent with an `Idempotency-Key`: the answers
/// kept for repeats, and the keys being answered now. A pure value, used under the
/// session's lock.
struct IdempotencyLedger: Sendable {
  /// What to do with a request carrying a key.
  enum Admission: Equatable {
    /// First time: apply it, then ``finish(_:digest:answer:now:)``.
    case proceed
    /// Answered before: send this again, apply nothing.
    case replay(RememberedAnswer)
    /// Answered before for another body: a client error.
    case reused
    /// Being answered now by another request.
    case inUse
  }

  /// Most answers kept; the oldest is forgotten first.
  let capacity: Int
  /// How long an answer is kept.
  let lifetime: Duration
  /// Oldest first.
  private(set) var answers: [RememberedAnswer]
  private var inFlight: [String: String] = [:]

  init(capacity: Int, lifetime: Duration, answers: [RememberedAnswer] = []) {
    self.capacity = capacity
    self.lifetime = lifetime
    self.answers = answers
  }

  /// Admits a request with `key` and body `digest` at `now`, marking it in flight when it
  /// may proceed.
  mutating func admit(_ key: String, digest: String, now: Date) -> Admission {
    forgetExpired(now: now)
    if let answer = answers.last(where: { $0.key == key }) {
      return answer.bodyDigest == digest ? .replay(answer) : .reused
    }
    if let pending = inFlight[key] { return pending == digest ? .inUse : .reused }
    inFlight[key] = digest
    return .proceed
  }

  /// Ends the request with `key`: remembers `answer` when the request changed the session
  /// (or was refused part way), forgets the key when it applied nothing.
  mutating func finish(_ key: String, answer: RememberedAnswer?) {
    inFlight[key] = nil
    guard let answer else { return }
    answers.append(answer)
    if answers.count > capacity { answers.removeFirst(answers.count - capacity) }
  }

  /// The answers a save of the state at `version` may carry: those reporting it or earlier.
  func answers(through version: Int) -> [RememberedAnswer] {
    answers.filter { $0.version <= version }
  }

  private mutating func forgetExpired(now: Date) {
    let oldest = now.addingTimeInterval(-lifetime.secondsValue)
    if let first = answers.first, first.answeredAt < oldest {
      answers.removeAll { $0.answeredAt < oldest }
    }
  }
}
