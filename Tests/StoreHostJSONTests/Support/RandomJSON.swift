import JSONTestSupport
@testable import StoreHostJSON

/// Random JSON documents built to stress diffing: few distinct keys and small values, so two
/// documents share structure, and keys that need pointer escaping.
enum RandomJSON {
  static let keys = ["a", "b", "c", "a/b", "m~n", "~1", "", "é"]

  static func document(depth: Int = 3, using generator: inout SeededGenerator) -> JSONValue {
    let kind = Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &generator)
    switch kind {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .int(Int64.random(in: -3...3, using: &generator))
    case 3: return .double([0.5, -1.25, 1e100][Int.random(in: 0..<3, using: &generator)])
    case 4: return .string(["", "x", "y", "/~"][Int.random(in: 0..<4, using: &generator)])
    case 5: return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in document(depth: depth - 1, using: &generator) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0...5, using: &generator) {
        members[keys.randomElement(using: &generator)!] = document(depth: depth - 1, using: &generator)
      }
      return .object(members)
    }
  }

  /// A copy of `value` with a few random edits, so diffs between the two are small.
  static func mutate(_ value: JSONValue, using generator: inout SeededGenerator) -> JSONValue {
    switch value {
    case .array(var elements) where Bool.random(using: &generator):
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: elements.insert(document(depth: 1, using: &generator), at: Int.random(in: 0...elements.count, using: &generator))
      case 1 where !elements.isEmpty: elements.remove(at: Int.random(in: 0..<elements.count, using: &generator))
      default:
        if let index = elements.indices.randomElement(using: &generator) {
          elements[index] = mutate(elements[index], using: &generator)
        }
      }
      return .array(elements)
    case .object(var members) where Bool.random(using: &generator):
      let key = keys.randomElement(using: &generator)!
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: members[key] = nil
      case 1: members[key] = document(depth: 1, using: &generator)
      default: members[key] = members[key].map { mutate($0, using: &generator) }
      }
      return .object(members)
    default:
      return Int.random(in: 0..<4, using: &generator) == 0 ? document(using: &generator) : value
    }
  }
}
