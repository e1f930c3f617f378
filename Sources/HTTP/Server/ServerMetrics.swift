/// A snapshot of a server's counters, e.g. for a `/metrics` endpoint.
public struct ServerMetrics: Sendable, Equatable {
  /// Connections open right now, across all event loops.
  public var openConnections: Int = 0
  /// Server-Sent Events streams open right now.
  public var openEventStreams: Int = 0
  /// Responses written since start, error answers included (a stream counts when it ends).
  public var responses: Int = 0
  /// Response bytes accepted by client sockets since start (after TLS: plaintext bytes).
  public var bytesWritten: Int = 0

  /// All zero.
  public init() {}

  init(openConnections: Int, openEventStreams: Int, responses: Int, bytesWritten: Int) {
    self.openConnections = openConnections
    self.openEventStreams = openEventStreams
    self.responses = responses
    self.bytesWritten = bytesWritten
  }
}
