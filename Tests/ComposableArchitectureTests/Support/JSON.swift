import Foundation

/// `value` as compact JSON with sorted keys, so tests can compare exact text.
func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Decodes `text` without a client policy, as persistence and logs do.
func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try JSONDecoder().decode(type, from: Data(text.utf8))
}

/// A fixed id for list elements.
let todoID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
