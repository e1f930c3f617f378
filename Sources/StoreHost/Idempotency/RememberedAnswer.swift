import Foundation

/// The answer to an actions request sent with an `Idempotency-Key`, kept with its session so
/// that a repeat of the request gets the same answer instead of applying its actions again.
public struct RememberedAnswer: Codable, Hashable, Sendable {
  /// The client's key.
  public var key: String
  /// The SHA-256 of the request body, base64url: a repeat must send the same body.
  public var bodyDigest: String
  /// The answer's status: 202, or 413 when the batch was refused part way.
  public var status: Int
  /// The answer's JSON body.
  public var body: String
  /// The session's version the answer reports. The answer is saved only together with a
  /// state at this version or later, so a restored answer never claims a lost change.
  public var version: Int
  /// When it was answered; answers older than ``SessionLimits/idempotencyKeyLifetime`` are
  /// forgotten.
  public var answeredAt: Date

  public init(key: String, bodyDigest: String, status: Int, body: String, version: Int, answeredAt: Date) {
    self.key = key
    self.bodyDigest = bodyDigest
    self.status = status
    self.body = body
    self.version = version
    self.answeredAt = answeredAt
  }
}

extension [RememberedAnswer] {
  /// The JSON persistences store: `nil` for none.
  var storedJSON: Data? {
    isEmpty ? nil : try? JSONEncoder().encode(self)
  }

  /// The answers stored as `json`; none when it is empty or does not decode.
  init(storedJSON json: Data) {
    self = (json.isEmpty ? nil : try? JSONDecoder().decode([RememberedAnswer].self, from: json)) ?? []
  }
}
