/// Serializes a status line and header section.
enum ResponseHead {
  /// Appends the head for `response` to `output`. `contentLength` is `nil` for streams;
  /// `keepAlive` decides the `Connection` header; `minorVersion` is the request's HTTP
  /// version; `date` is the `Date` value; `security` the server's security headers, each
  /// left out when the response sets it itself.
  static func write(
    _ response: Response, contentLength: Int?, keepAlive: Bool, minorVersion: Int, date: [UInt8],
    security: SecurityHeaderBlock, into output: inout [UInt8]
  ) {
    output.append(contentsOf: statusLine(response.status))
    var setByResponse: SecurityHeaderBlock.Fields = []
    for (name, value) in response.headers
    where !HTTPHeaders.namesEqual(name, "Content-Length") && !HTTPHeaders.namesEqual(name, "Connection") {
      setByResponse.formUnion(security.fields(named: name))
      appendField(name, value, to: &output)
    }
    security.write(skipping: setByResponse, into: &output)
    output.append(contentsOf: dateField)
    output.append(contentsOf: date)
    output.append(contentsOf: lineEnd)
    if let contentLength, response.status != 204 && response.status != 304 && response.status >= 200 {
      output.append(contentsOf: contentLengthField)
      appendDecimal(contentLength, to: &output)
      output.append(contentsOf: lineEnd)
    }
    if !keepAlive {
      output.append(contentsOf: closeField)
    } else if minorVersion == 0 {
      output.append(contentsOf: keepAliveField)
    }
    output.append(contentsOf: lineEnd)
  }

  /// Appends `name: value\r\n`, or nothing when `name` is not a token. A handler may echo
  /// client input into a header: CR, LF and NUL in `value` become spaces, so it can never
  /// start a new line.
  static func appendField(_ name: String, _ value: String, to output: inout [UInt8]) {
    guard !name.isEmpty, allSatisfy(name, isHeaderNameByte) else { return }
    output.append(contentsOf: name.utf8)
    output.append(contentsOf: separator)
    if allSatisfy(value, { $0 != CR && $0 != LF && $0 != 0 }) {
      output.append(contentsOf: value.utf8)
    } else {
      for byte in value.utf8 { output.append(byte == CR || byte == LF || byte == 0 ? SP : byte) }
    }
    output.append(contentsOf: lineEnd)
  }

  /// Whether every byte of `text` passes, read from its storage where it can be.
  private static func allSatisfy(_ text: String, _ predicate: (UInt8) -> Bool) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? text.utf8.allSatisfy(predicate)
  }

  /// `HTTP/1.1 <status> <reason>\r\n`, built once for the common statuses.
  private static func statusLine(_ status: Int) -> [UInt8] {
    if let index = commonStatuses.firstIndex(of: status) { return commonStatusLines[index] }
    return Array("HTTP/1.1 \(status) \(reasonPhrase(status))\r\n".utf8)
  }

  private static let commonStatuses = [200, 201, 202, 204, 304, 400, 401, 403, 404, 409, 413, 429, 503]
  private static let commonStatusLines = commonStatuses.map { Array("HTTP/1.1 \($0) \(reasonPhrase($0))\r\n".utf8) }
  private static let separator = Array(": ".utf8)
  private static let lineEnd = Array("\r\n".utf8)
  private static let dateField = Array("Date: ".utf8)
  private static let contentLengthField = Array("Content-Length: ".utf8)
  private static let closeField = Array("Connection: close\r\n".utf8)
  private static let keepAliveField = Array("Connection: keep-alive\r\n".utf8)

  private static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
    guard value >= 10 else {
      output.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    appendDecimal(value / 10, to: &output)
    output.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  private static func isHeaderNameByte(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: ":")
  }

  /// The reason phrase for common statuses.
  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status"
    }
  }
}

private let CR: UInt8 = 0x0D
private let LF: UInt8 = 0x0A
private let SP: UInt8 = 0x20
