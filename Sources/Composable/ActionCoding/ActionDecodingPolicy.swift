/// Which actions a decoder accepts, read from the decoder's `userInfo`.
///
/// Set it with ``ActionDecoding`` (or by hand on a `JSONDecoder`) when the bytes come from
/// an untrusted client; leave it unset when decoding your own persisted actions or logs.
public enum ActionDecodingPolicy: Sendable {
  /// Every case that can be decoded: for persistence and logs. The default.
  case trusted
  /// Only client-sendable cases: internal cases (effect responses, timers, delegate
  /// actions) are rejected.
  case client
}

extension CodingUserInfoKey {
  /// The `userInfo` key holding an ``ActionDecodingPolicy``.
  public static let actionDecodingPolicy = CodingUserInfoKey(
    rawValue: "Composable.ActionDecodingPolicy")!
}

extension Decoder {
  /// The policy in `userInfo`, or `.trusted` when none is set.
  public var actionDecodingPolicy: ActionDecodingPolicy {
    userInfo[.actionDecodingPolicy] as? ActionDecodingPolicy ?? .trusted
  }
}
