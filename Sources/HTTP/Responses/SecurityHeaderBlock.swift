/// A server's security headers (``SecurityHeaders``) as bytes, made once when it starts.
/// An answer copies them whole, or, when its handler set some of them itself, the others.
/// A class: an answer's head takes one reference to it rather than one to each of its arrays.
final class SecurityHeaderBlock: Sendable {
  /// Which of the block's fields: bit `i` is the `i`-th.
  struct Fields: OptionSet, Sendable {
    let rawValue: UInt8
  }

  private let names: [String]
  /// Each field as `Name: value\r\n`.
  private let fieldBytes: [[UInt8]]
  /// Every field, one after the other.
  private let allBytes: [UInt8]
  /// Bit `n` set when some field's name is `n` bytes long: most names a response sets are
  /// ruled out by their length alone.
  private let nameLengths: UInt64

  /// The headers a server serving HTTPS (`https`) or plain HTTP sends.
  convenience init(_ headers: SecurityHeaders, https: Bool) {
    self.init(fields: headers.fields(https: https))
  }

  /// The given (name, value) fields, names being tokens shorter than 64 bytes.
  init(fields: [(name: String, value: String)]) {
    precondition(fields.count <= 8 && fields.allSatisfy { $0.name.utf8.count < 64 })
    names = fields.map(\.name)
    fieldBytes = fields.map { field in
      var bytes: [UInt8] = []
      ResponseHead.appendField(field.name, field.value, to: &bytes)
      return bytes
    }
    allBytes = fieldBytes.flatMap { $0 }
    nameLengths = names.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }
  }

  /// The field named `name` (case-insensitive), or none.
  func fields(named name: String) -> Fields {
    let length = name.utf8.count
    guard length < 64, nameLengths & (1 << UInt64(length)) != 0 else { return [] }
    guard let index = names.firstIndex(where: { HTTPHeaders.namesEqual($0, name) }) else { return [] }
    return Fields(rawValue: 1 << UInt8(index))
  }

  /// Appends every field but those in `skipped`.
  func write(skipping skipped: Fields, into output: inout [UInt8]) {
    guard !skipped.isEmpty else {
      output.append(contentsOf: allBytes)
      return
    }
    for (index, bytes) in fieldBytes.enumerated() where !skipped.contains(Fields(rawValue: 1 << UInt8(index))) {
      output.append(contentsOf: bytes)
    }
  }
}
