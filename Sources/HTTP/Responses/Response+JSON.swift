import Foundation

extension Response {
  /// A JSON response encoding `value`.
  ///
  /// - Throws: ``HTTPError`` 500 `encoding_failed` if `value` cannot be encoded.
  public static func json(_ value: some Encodable, status: Int = 200, encoder: JSONEncoder = JSONEncoder())
    throws(HTTPError) -> Response
  {
    do {
      let data = try encoder.encode(value)
      return Response(status: status, headers: ["Content-Type": jsonContentType], body: .bytes(Array(data)))
    } catch {
      throw HTTPError(status: 500, code: "encoding_failed", message: "The response could not be encoded as JSON.")
    }
  }
}

extension Request {
  /// Whether the request says `Content-Type: application/json` (any parameters).
  public var hasJSONContentType: Bool {
    guard let value = headers["Content-Type"] else { return false }
    let bytes = value.utf8
    var start = bytes.startIndex
    var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
    while start < end, bytes[bytes.index(before: end)] == 0x20 || bytes[bytes.index(before: end)] == 0x09 {
      end = bytes.index(before: end)
    }
    return bytes[start..<end].elementsEqual("application/json".utf8) { given, expected in
      given == expected || (given >= 0x41 && given <= 0x5A && given | 0x20 == expected)
    }
  }

  /// Decodes the body as JSON.
  ///
  /// - Throws: ``HTTPError`` 415 `unsupported_media_type` unless the request says
  ///   `Content-Type: application/json`; 400 `invalid_json` when the body does not decode,
  ///   naming what was wrong.
  public func decode<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws(HTTPError)
    -> Value
  {
    guard hasJSONContentType else {
      throw HTTPError(
        status: 415, code: "unsupported_media_type", message: "The request body must be sent as application/json.")
    }
    do {
      return try decoder.decode(type, from: Data(body))
    } catch let error as DecodingError {
      throw HTTPError(status: 400, code: "invalid_json", message: Self.describe(error))
    } catch {
      throw HTTPError(status: 400, code: "invalid_json", message: "The request body is not valid JSON.")
    }
  }

  private static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      return keys.isEmpty ? "the body" : "'" + keys.joined(separator: ".") + "'"
    }
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return "The request body is not valid JSON."
    case .dataCorrupted(let context):
      return "The value at \(path(context)) is invalid."
    case .keyNotFound(let key, let context):
      let parent = path(context)
      return "The key '\(key.stringValue)' is missing in \(parent)."
    case .typeMismatch(let type, let context):
      return "The value at \(path(context)) should be of type \(type)."
    case .valueNotFound(let type, let context):
      return "The value at \(path(context)) should be a \(type), not null."
    @unknown default:
      return "The request body does not have the expected shape."
    }
  }
}
