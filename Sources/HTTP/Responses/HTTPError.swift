/// An error that carries its own HTTP answer. Throw it from a handler and the client gets
/// `status` with the JSON body `{"error": {"code": code, "message": message}}`.
public struct HTTPError: Error, Sendable, Equatable {
  /// The status code, e.g. 404.
  public var status: Int
  /// A snake_case code, e.g. `not_found`.
  public var code: String
  /// One clear sentence for the client.
  public var message: String
  /// Extra headers for the answer, e.g. `Allow` on a 405.
  public var headers: HTTPHeaders

  /// An error answered with `status`, `code` and `message`.
  public init(status: Int, code: String, message: String, headers: HTTPHeaders = [:]) {
    self.status = status
    self.code = code
    self.message = message
    self.headers = headers
  }

  /// 404 `not_found`.
  public static func notFound(_ message: String = "No resource exists at this path.") -> HTTPError {
    HTTPError(status: 404, code: "not_found", message: message)
  }

  /// 400 `bad_request`.
  public static func badRequest(_ message: String) -> HTTPError {
    HTTPError(status: 400, code: "bad_request", message: message)
  }

  /// The body of the JSON answer: `{"error": {"code", "message"}}`.
  public var body: [UInt8] { JSONErrorBody.encode(code: code, message: message) }

  /// The JSON answer for this error.
  public var response: Response {
    var response = Response(status: status, headers: headers, body: .bytes(body))
    response.headers.set("Content-Type", Response.jsonContentType)
    return response
  }
}

/// Writes the error body by hand, so an error answer can never fail to encode.
enum JSONErrorBody {
  static func encode(code: String, message: String) -> [UInt8] {
    Array("{\"error\":{\"code\":\(quoted(code)),\"message\":\(quoted(message))}}".utf8)
  }

  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
