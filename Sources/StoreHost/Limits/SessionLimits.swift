/// The bounds that keep one session, or many, from exhausting the server. Every field has a
/// default meant for a small public deployment; the `storehost` command exposes each.
public struct SessionLimits: Hashable, Sendable {
  /// Sessions in memory at once. Sessions at rest in storage do not count: at the limit,
  /// the least recently used idle one goes to rest to make room, and when none is idle,
  /// creating or bringing back one more answers 503. Default 10,000.
  public var maxSessions: Int = 10_000
  /// A session without requests, event streams or running effects for this long goes to
  /// rest: saved, and out of memory until its next request. Default 60 seconds.
  public var restAfter: Duration = .seconds(60)
  /// A session without actions or event streams for this long ends: it is deleted, from
  /// memory or from storage. Default 30 minutes.
  public var idleTimeout: Duration = .seconds(30 * 60)
  /// Actions per second a session's bucket refills; beyond it actions answer 429. Default 20.
  public var actionsPerSecond: Double = 20
  /// Actions a session may send at once before the rate applies (the bucket's size). Default 40.
  public var actionBurst: Int = 40
  /// Largest `POST .../actions` body in bytes; larger answers 413. Default 64 KiB.
  public var maxActionBodyBytes: Int = 64 * 1024
  /// Most actions in one batch (a JSON array body); more answers 413. Default 32,
  /// and never more than ``actionBurst``, so a full batch can pass the rate limit.
  public var maxActionsPerBatch: Int = 32
  /// Event streams watching one session (a stream of several sessions counts once for
  /// each); one more answers 429, or is dropped from a stream of several. Default 8.
  public var maxEventStreamsPerSession: Int = 8
  /// Effects running at once per session; actions that would start more answer 429. Default 64.
  public var maxRunningEffectsPerSession: Int = 64
  /// Recent versions kept per session so a reconnecting stream (`Last-Event-ID`) gets a patch
  /// instead of a snapshot. Default 32.
  public var eventHistoryLength: Int = 32
  /// Largest state, as bytes of its JSON, that an action may leave behind. An action that
  /// would pass it changes nothing and answers 413 `state_too_large` (see
  /// `Composable/Store/init(initialState:reducer:withDependencies:acceptingChange:observingActions:)`).
  /// Changes of shared values are never refused. Default 1 MiB.
  public var maxStateBytes: Int = 1 << 20
  /// How long the answer to an `Idempotency-Key` request is kept, in memory and in storage,
  /// so a repeat replays it; a repeat after that is applied anew. Default 10 minutes.
  public var idempotencyKeyLifetime: Duration = .seconds(600)
  /// Most `Idempotency-Key` answers a session keeps in memory (about 120 bytes each): the
  /// newest, each for ``idempotencyKeyLifetime`` at most. A repeat of an older one is applied
  /// anew. Default 256.
  public var maxIdempotencyAnswers: Int = 256

  /// Most bytes of a session's history (``SessionHostConfiguration/historyLength``) kept,
  /// as the JSON of its steps (actions and patches; the whole states kept one step in ten
  /// aside): older steps are dropped beyond it, back to the whole state before the limit.
  /// Default 4 MiB.
  public var maxHistoryBytes: Int = 4 << 20

  /// The defaults above.
  public init() {}

  /// Throws the first field that is out of range, or a batch limit above the burst.
  public func validate() throws(SessionLimitsError) {
    let positive: [(String, Bool)] = [
      ("maxSessions", maxSessions > 0),
      ("idleTimeout", idleTimeout > .zero),
      ("restAfter", restAfter > .zero),
      ("actionsPerSecond", actionsPerSecond > 0 && actionsPerSecond.isFinite),
      ("actionBurst", actionBurst > 0),
      ("maxActionBodyBytes", maxActionBodyBytes > 0),
      ("maxActionsPerBatch", maxActionsPerBatch > 0),
      ("maxEventStreamsPerSession", maxEventStreamsPerSession > 0),
      ("maxRunningEffectsPerSession", maxRunningEffectsPerSession > 0),
      ("eventHistoryLength", eventHistoryLength >= 0),
      ("maxStateBytes", maxStateBytes > 0),
      ("idempotencyKeyLifetime", idempotencyKeyLifetime > .zero),
      ("maxIdempotencyAnswers", maxIdempotencyAnswers > 0),
      ("maxHistoryBytes", maxHistoryBytes > 0),
    ]
    if let (field, _) = positive.first(where: { !$0.1 }) { throw .outOfRange(field) }
    guard maxActionsPerBatch <= actionBurst else {
      throw .batchExceedsBurst(batch: maxActionsPerBatch, burst: actionBurst)
    }
  }
}

/// Why a ``SessionLimits`` value cannot be used.
public enum SessionLimitsError: Error, Equatable, CustomStringConvertible {
  /// The named field must be positive (``SessionLimits/eventHistoryLength`` may be zero).
  case outOfRange(String)
  /// A full batch could never pass the rate limit.
  case batchExceedsBurst(batch: Int, burst: Int)

  public var description: String {
    switch self {
    case .outOfRange(let field): "the session limit \(field) must be positive"
    case .batchExceedsBurst(let batch, let burst):
      "maxActionsPerBatch (\(batch)) must not exceed actionBurst (\(burst)), or a full batch is always rate limited"
    }
  }
}
