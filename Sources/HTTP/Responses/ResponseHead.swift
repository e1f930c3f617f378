/// Serializes a status line and header section.
enum ResponseHead {
  /// The head for `response`. `contentLength` is `nil` for streams; `keepAlive` decides the
  /// `Connection` header; `minorVersion` is the request's HTTP version.
  static func serialize(
    _ response: Response, contentLength: Int?, keepAlive: Bool, minorVersion: Int, date: String
  ) -> [UInt8] {
    var text = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
    text.reserveCapacity(256)
    for (name, value) in response.headers
    where !HTTPHeaders.namesEqual(name, "Content-Length") && !HTTPHeaders.namesEqual(name, "Connection") {
      // A handler may echo client input into a header: never let it start a new line.
      guard !name.isEmpty, name.utf8.allSatisfy(isHeaderNameByte) else { continue }
      text += name + ": " + singleLine(value) + "\r\n"
    }
    text += "Date: " + date + "\r\n"
    if let contentLength, response.status != 204 && response.status != 304 && response.status >= 200 {
      text += "Content-Length: \(contentLength)\r\n"
    }
    if !keepAlive {
      text += "Connection: close\r\n"
    } else if minorVersion == 0 {
      text += "Connection: keep-alive\r\n"
    }
    text += "\r\n"
    return Array(text.utf8)
  }

  private static func isHeaderNameByte(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: ":")
  }

  private static func singleLine(_ value: String) -> String {
    guard value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else { return value }
    return String(value.unicodeScalars.map { $0 == "\r" || $0 == "\n" || $0 == "\0" ? " " : Character($0) })
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
