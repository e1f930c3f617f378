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
  /// The session's version the answer reports. The answer is saved in the same write as a
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
  /// These answers and `newer` ones, a newer answer replacing an older one to the same key.
  func merged(with newer: [RememberedAnswer]) -> [RememberedAnswer] {
    guard !newer.isEmpty else { return self }
    let replaced = Set(newer.map(\.key))
    return filter { !replaced.contains($0.key) } + newer
  }
}
