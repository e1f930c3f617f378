import HTTP

/// Where a session's events go for one client: an SSE stream, or a fake in tests.
public protocol EventSink: AnyObject, Sendable {
  /// Queues a frame, or refuses it with backpressure while the client is behind.
  func send(_ frame: EventFrame) -> EventStream.SendResult
  /// Queues a frame, or keeps it as the one pending frame ("latest wins").
  func sendLatest(_ frame: EventFrame) -> EventStream.SendResult
}

extension EventStream: EventSink {}
