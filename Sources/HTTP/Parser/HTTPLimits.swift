/// Every limit the server puts on a client, in one place. Each default is what a public
/// server can afford per connection; tests configure smaller ones.
public struct HTTPLimits: Sendable, Equatable {
  /// Bytes of the request line plus all header lines (and of a chunked body's trailers).
  /// Beyond it: 431. Default 16 KiB.
  public var maxHeadBytes: Int = 16 * 1024
  /// Bytes of the request target (path and query). Beyond it: 414. Default 8 KiB.
  public var maxRequestTargetBytes: Int = 8 * 1024
  /// Header fields in one request (or trailer section). Beyond it: 431. Default 100.
  public var maxHeaderCount: Int = 100
  /// Bytes of one request body, declared or chunked. Beyond it: 413. Default 1 MiB.
  public var maxBodyBytes: Int = 1024 * 1024
  /// How long a keep-alive connection may sit with no request before it is closed
  /// silently. Default 60 s.
  public var idleTimeout: Duration = .seconds(60)
  /// Deadline for a whole request head, from its first byte (slowloris guard). Beyond it:
  /// 408 and close. Default 10 s.
  public var requestHeadTimeout: Duration = .seconds(10)
  /// Deadline for a whole request body, from the end of its head. Beyond it: 408 and
  /// close. Default 30 s.
  public var requestBodyTimeout: Duration = .seconds(30)
  /// Open connections across all event loops. A connection beyond it is answered 503 and
  /// closed; the listener keeps accepting. Default 20,000 (mind `ulimit -n`).
  public var maxConnections: Int = 20_000
  /// Whether POST, PUT and PATCH must declare their body framing (Content-Length or
  /// chunked). Without it: 411. Default `true`.
  public var requireLengthForBodies: Bool = true

  /// The defaults listed on each property.
  public init() {}
}
