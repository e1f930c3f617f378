import Foundation

/// One session's record of actions requests sent with an `Idempotency-Key`: the answers
/// kept for repeats, the keys being answered now, and the answers not yet saved. A pure
/// value, used under the session's lock.
///
/// Answers are kept for ``lifetime`` after they were given, and at most the newest
/// ``maxAnswers`` of them (see ``SessionLimits/maxIdempotencyAnswers``): recording one costs
/// the same however many are kept.
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

  /// An answer, with the order it was recorded in.
  private struct Recorded: Sendable {
    let answer: RememberedAnswer
    let serial: Int
  }

  /// How long an answer is kept.
  let lifetime: Duration
  /// How many answers are kept at most: the newest.
  let maxAnswers: Int
  /// The kept answers, by key.
  private var answers: [String: Recorded] = [:]
  /// Every recording still counted against ``maxAnswers``, oldest first from `oldest` on: a
  /// queue whose front moves on without shifting the rest. An answer given again to the
  /// same key is recorded again; the older recording then forgets nothing when it leaves.
  private var recordings: [(key: String, serial: Int, answeredAt: Date)] = []
  private var oldest = 0
  private var nextSerial = 0
  /// Answers given but not yet saved, by key.
  private var unsaved: [String: Recorded] = [:]
  private var inFlight: [String: String] = [:]

  /// A ledger keeping answers for `lifetime`, at most `maxAnswers` of them, starting with
  /// `restored` (answers saved with the session): those given longer ago than `lifetime`
  /// before `now`, and all but the newest `maxAnswers`, are left out.
  init(
    lifetime: Duration, maxAnswers: Int = SessionLimits().maxIdempotencyAnswers,
    restored: [RememberedAnswer] = [], now: Date = Date()
  ) {
    self.lifetime = lifetime
    self.maxAnswers = maxAnswers
    for answer in restored.sorted(by: { $0.answeredAt < $1.answeredAt }).suffix(maxAnswers) { remember(answer) }
    forgetExpired(now: now)
  }

  /// Admits a request with `key` and body `digest` at `now`, marking it in flight when it
  /// may proceed.
  mutating func admit(_ key: String, digest: String, now: Date) -> Admission {
    forgetExpired(now: now)
    if let pending = inFlight[key] { return pending == digest ? .inUse : .reused }
    if let answer = answers[key]?.answer {
      return answer.bodyDigest == digest ? .replay(answer) : .reused
    }
    inFlight[key] = digest
    return .proceed
  }

  /// Remembers `answer` as the answer to the request with `key`, which changed the session
  /// (or was refused part way): replayed to repeats once the request is finished, and saved
  /// with the next save. A later answer to the same key replaces it.
  mutating func record(_ key: String, answer: RememberedAnswer) {
    unsaved[key] = remember(answer)
  }

  /// Ends the request with `key`; repeats get its recorded answer from now on.
  mutating func finish(_ key: String) {
    inFlight[key] = nil
  }

  /// Ends the request with `key`, which applied nothing: a repeat is tried anew.
  mutating func abandon(_ key: String) {
    inFlight[key] = nil
  }

  /// The answers a save of the state at `version` writes, in the order they were given:
  /// those not saved yet that report it or an earlier version.
  func unsavedAnswers(through version: Int) -> [RememberedAnswer] {
    unsaved.values.filter { $0.answer.version <= version }.sorted { $0.serial < $1.serial }.map(\.answer)
  }

  /// Records that a save of the state at `version`, with its answers, is durable.
  mutating func didSave(through version: Int) {
    unsaved = unsaved.filter { $0.value.answer.version > version }
  }

  /// The number of answers kept.
  var count: Int { answers.count }

  @discardableResult
  private mutating func remember(_ answer: RememberedAnswer) -> Recorded {
    let recorded = Recorded(answer: answer, serial: nextSerial)
    nextSerial += 1
    answers[answer.key] = recorded
    recordings.append((answer.key, recorded.serial, answer.answeredAt))
    while recordings.count - oldest > maxAnswers { forgetOldest() }
    return recorded
  }

  private mutating func forgetExpired(now: Date) {
    let limit = now.addingTimeInterval(-lifetime.secondsValue)
    while oldest < recordings.count, recordings[oldest].answeredAt < limit { forgetOldest() }
  }

  /// Drops the oldest recording, and its answer unless the key was answered again since.
  private mutating func forgetOldest() {
    let recording = recordings[oldest]
    if answers[recording.key]?.serial == recording.serial { answers[recording.key] = nil }
    oldest += 1
    // Shifting the rest once half the queue is spent keeps each forgetting O(1) on average.
    if oldest * 2 >= recordings.count {
      recordings.removeFirst(oldest)
      oldest = 0
    }
  }
}
