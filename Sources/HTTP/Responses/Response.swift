/// What a handler answers: a status, headers, and either bytes or an event stream.
public struct Response: Sendable {
  /// The body of a response.
  public enum Body: Sendable {
    /// A complete body; the server adds `Content-Length`.
    case bytes([UInt8])
    /// A file kept by ``StaticFiles``: written from memory it shares with other answers, or
    /// sent from an open descriptor with `sendfile`; the server adds `Content-Length`.
    case file(FileBody)
    /// A Server-Sent Events stream: the server sends the head, then runs the closure with
    /// an ``EventStream`` until it returns or the client goes away.
    case eventStream(@Sendable (EventStream) async -> Void)
    /// A Server-Sent Events stream kept by callbacks instead of a task: the server sends the
    /// head and calls the closure with the ``EventStream`` on the connection's event loop
    /// (so it must be quick); the stream lasts until ``EventStream/finish()`` or until the
    /// client goes away (see ``EventStream/onClose(_:)``).
    case openEventStream(@Sendable (EventStream) -> Void)
  }

  /// `application/json; charset=utf-8`.
  public static let jsonContentType = "application/json; charset=utf-8"

  /// The status code.
  public var status: Int
  /// The header fields. `Content-Length`, `Date` and `Connection` are set by the server.
  public var headers: HTTPHeaders
  /// The body.
  public var body: Body

  /// A response with the given parts.
  public init(status: Int = 200, headers: HTTPHeaders = [:], body: Body = .bytes([])) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A `text/plain; charset=utf-8` response.
  public static func text(_ text: String, status: Int = 200) -> Response {
    Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
  }

  /// A Server-Sent Events response (`text/event-stream`, no caching, no proxy buffering).
  /// `run` writes events until it returns or ``EventStream/isClosed`` becomes true.
  public static func eventStream(_ run: @escaping @Sendable (EventStream) async -> Void) -> Response {
    Response(status: 200, headers: eventStreamHeaders, body: .eventStream(run))
  }

  /// A Server-Sent Events response that holds no task while open: `onOpen` gets the stream
  /// once the head is written, on the connection's event loop, and must return quickly. The
  /// stream lasts until ``EventStream/finish()`` or until the client leaves, which
  /// ``EventStream/onClose(_:)`` reports. Thousands of idle streams cost only their memory.
  public static func eventStream(onOpen: @escaping @Sendable (EventStream) -> Void) -> Response {
    Response(status: 200, headers: eventStreamHeaders, body: .openEventStream(onOpen))
  }

  private static var eventStreamHeaders: HTTPHeaders {
    [
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    ]
  }

  /// The body bytes, empty for a stream.
  var bodyBytes: [UInt8] {
    switch body {
    case .bytes(let bytes): bytes
    case .file(let file): file.bytes
    case .eventStream, .openEventStream: []
    }
  }
}
