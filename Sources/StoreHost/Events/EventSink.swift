import HTTP

/// Where a session's events go for one client: an SSE stream, or a fake in tests.
public protocol EventSink: AnyObject, Sendable {
  /// Queues an event, or refuses it with backpressure while the client is behind.
  func send(event: String?, id: String?, data: String) -> EventStream.SendResult
  /// Queues an event, or keeps it as the one pending event ("latest wins").
  func sendLatest(event: String?, id: String?, data: String) -> EventStream.SendResult
}

extension EventStream: EventSink {}
