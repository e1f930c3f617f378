/// Why a request could not be parsed. Every parse error ends the connection: the server
/// answers `status` with a JSON error and `Connection: close`.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The status to answer: 400, 408, 411, 413, 414, 431, 501 or 505.
  public var status: Int
  /// A snake_case code for the JSON error body.
  public var code: String
  /// One sentence for the client.
  public var message: String

  public var description: String { "\(status) \(code): \(message)" }

  static func badRequest(_ message: String) -> Self { .init(status: 400, code: "bad_request", message: message) }
  static func ambiguousFraming(_ message: String) -> Self {
    .init(status: 400, code: "ambiguous_framing", message: message)
  }
  static let headTooLarge = Self(
    status: 431, code: "header_fields_too_large", message: "The request line and headers are too large.")
  static let uriTooLong = Self(
    status: 414, code: "uri_too_long", message: "The request target is longer than the server accepts.")
  static let tooManyHeaders = Self(
    status: 431, code: "header_fields_too_large", message: "The request has too many header fields.")
  static let bodyTooLarge = Self(status: 413, code: "content_too_large", message: "The request body is too large.")
  static let lengthRequired = Self(
    status: 411, code: "length_required", message: "This request needs a Content-Length header.")
  static let unsupportedTransferEncoding = Self(
    status: 501, code: "unsupported_transfer_encoding", message: "Only the chunked transfer coding is supported.")
  static let versionNotSupported = Self(
    status: 505, code: "http_version_not_supported", message: "Only HTTP/1.0 and HTTP/1.1 are supported.")
}
