import Foundation

/// One session's record of actions requests sent with an `Idempotency-Key`: the answers
/// kept for repeats, the keys being answered now, and the answers not yet saved. A pure
/// value, used under the session's lock.
///
/// Answers are kept for ``lifetime`` after they were given, however many there are: a
/// session can only give as many as its rate limit lets through in that time, which bounds
/// the memory (see ``SessionLimits/idempotencyKeyLifetime``).
struct IdempotencyLedger: Sendable {
  /// What to do with a request carrying a key.
  enum Admission: Equatable {
    /// First time: apply it, ``record(_:answer:)`` its answer (or ``abandon(_:)`` it), then
    /// ``finish(_:)``.
    case proceed
    /// Answered before: send this again, apply nothing.
    case replay(RememberedAnswer)
    /// Answered before for another body: a client error.
    case reused
    /// Being answered now by another request.
    case inUse
  }

  /// How long an answer is kept.
  let lifetime: Duration
  /// The kept answers, by key.
  private(set) var answers: [String: RememberedAnswer] = [:]
  /// The kept answers' keys, oldest first, with when each was given.
  private var expiries: [(key: String, answeredAt: Date)] = []
  /// Answers given but not yet saved, oldest first.
  private var unsaved: [RememberedAnswer] = []
  private var inFlight: [String: String] = [:]

  /// A ledger keeping answers for `lifetime`, starting with `restored` (answers saved with
  /// the session); those given longer ago than `lifetime` before `now` are left out.
  init(lifetime: Duration, restored: [RememberedAnswer] = [], now: Date = Date()) {
    self.lifetime = lifetime
    for answer in restored.sorted(by: { $0.answeredAt < $1.answeredAt }) { remember(answer) }
    forgetExpired(now: now)
  }

  /// Admits a request with `key` and body `digest` at `now`, marking it in flight when it
  /// may proceed.
  mutating func admit(_ key: String, digest: String, now: Date) -> Admission {
    forgetExpired(now: now)
    if let pending = inFlight[key] { return pending == digest ? .inUse : .reused }
    if let answer = answers[key] {
      return answer.bodyDigest == digest ? .replay(answer) : .reused
    }
    inFlight[key] = digest
    return .proceed
  }

  /// Remembers `answer` as the answer to the request with `key`, which changed the session
  /// (or was refused part way): replayed to repeats once the request is finished, and saved
  /// with the next save. A later answer to the same key replaces it.
  mutating func record(_ key: String, answer: RememberedAnswer) {
    remember(answer)
    unsaved.removeAll { $0.key == key }
    unsaved.append(answer)
  }

  /// Ends the request with `key`; repeats get its recorded answer from now on.
  mutating func finish(_ key: String) {
    inFlight[key] = nil
  }

  /// Ends the request with `key`, which applied nothing: a repeat is tried anew.
  mutating func abandon(_ key: String) {
    inFlight[key] = nil
  }

  /// The answers a save of the state at `version` writes: those not saved yet that report
  /// it or an earlier version.
  func unsavedAnswers(through version: Int) -> [RememberedAnswer] {
    unsaved.filter { $0.version <= version }
  }

  /// Records that a save of the state at `version`, with its answers, is durable.
  mutating func didSave(through version: Int) {
    unsaved.removeAll { $0.version <= version }
  }

  /// The number of answers kept.
  var count: Int { answers.count }

  private mutating func remember(_ answer: RememberedAnswer) {
    answers[answer.key] = answer
    expiries.append((answer.key, answer.answeredAt))
  }

  private mutating func forgetExpired(now: Date) {
    let oldest = now.addingTimeInterval(-lifetime.secondsValue)
    guard let first = expiries.first, first.answeredAt < oldest else { return }
    let expired = expiries.prefix { $0.answeredAt < oldest }
    for entry in expired where answers[entry.key]?.answeredAt == entry.answeredAt {
      answers[entry.key] = nil
    }
    expiries.removeFirst(expired.count)
  }
}
