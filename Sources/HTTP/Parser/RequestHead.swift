/// How a request's body is delimited.
public enum BodyFraming: Sendable, Equatable {
  /// No body.
  case none
  /// `Content-Length` bytes.
  case length(Int)
  /// `Transfer-Encoding: chunked`.
  case chunked
}

/// A parsed request line and header section.
public struct RequestHead: Sendable, Equatable {
  /// The method token as sent, e.g. `GET` (methods are case-sensitive).
  public var method: String
  /// The request target as sent, e.g. `/api/items?limit=5`.
  public var target: String
  /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
  public var minorVersion: Int
  /// The header fields.
  public var headers: HTTPHeaders
  /// How the body is delimited.
  public var framing: BodyFraming

  /// Whether the connection may carry another request after this one.
  public var keepAlive: Bool {
    if headers.containsToken("close", in: "Connection") { return false }
    return minorVersion >= 1 || headers.containsToken("keep-alive", in: "Connection")
  }

  /// Whether the client waits for `100 Continue` before sending its body.
  public var expectsContinue: Bool {
    minorVersion >= 1 && framing != .none && framing != .length(0)
      && headers["Expect"].map { HTTPHeaders.namesEqual($0.trimmingOWS(), "100-continue") } == true
  }
}
