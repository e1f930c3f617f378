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
    appendStatusLine(response.status, to: &output)
    var setByResponse: SecurityHeaderBlock.Fields = []
    for (name, value) in response.headers.fields where !isSetByServer(name) {
      setByResponse.formUnion(security.fields(named: name))
      appendField(name, value, to: &output)
    }
    security.write(skipping: setByResponse, into: &output)
    append("Date: ", to: &output)
    output.append(contentsOf: date)
    append("\r\n", to: &output)
    if let contentLength, response.status != 204 && response.status != 304 && response.status >= 200 {
      append("Content-Length: ", to: &output)
      appendDecimal(contentLength, to: &output)
      append("\r\n", to: &output)
    }
    if !keepAlive {
      append("Connection: close\r\n", to: &output)
    } else if minorVersion == 0 {
      append("Connection: keep-alive\r\n", to: &output)
    }
    append("\r\n", to: &output)
  }

  /// Whether the server writes the field `name` itself, ignoring a handler's.
  private static func isSetByServer(_ name: String) -> Bool {
    HTTPHeaders.namesEqual(name, "Content-Length") || HTTPHeaders.namesEqual(name, "Connection")
  }

  /// Appends `name: value\r\n`, or nothing when `name` is not a token. A handler may echo
  /// client input into a header: CR, LF and NUL in `value` become spaces, so it can never
  /// start a new line.
  static func appendField(_ name: String, _ value: String, to output: inout [UInt8]) {
    guard !name.isEmpty, allSatisfy(name, isHeaderNameByte) else { return }
    output.append(contentsOf: name.utf8)
    append(": ", to: &output)
    if allSatisfy(value, { $0 != CR && $0 != LF && $0 != 0 }) {
      output.append(contentsOf: value.utf8)
    } else {
      for byte in value.utf8 { output.append(byte == CR || byte == LF || byte == 0 ? SP : byte) }
    }
    append("\r\n", to: &output)
  }

  /// Whether every byte of `text` passes, read from its storage where it can be.
  private static func allSatisfy(_ text: String, _ predicate: (UInt8) -> Bool) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? text.utf8.allSatisfy(predicate)
  }

  /// Appends `HTTP/1.1 <status> <reason>\r\n`, from constant text and the status's digits.
  private static func appendStatusLine(_ status: Int, to output: inout [UInt8]) {
    append("HTTP/1.1 ", to: &output)
    appendDecimal(status, to: &output)
    output.append(SP)
    append(reasonPhrase(status), to: &output)
    append("\r\n", to: &output)
  }

  /// Appends constant text: read in place, with no array to count references to.
  private static func append(_ text: StaticString, to output: inout [UInt8]) {
    text.withUTF8Buffer { output.append(contentsOf: $0) }
  }

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
  static func reasonPhrase(_ status: Int) -> StaticString {
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
