/// A coding key with any name: a case name, a payload label, or a field name.
public struct ActionCodingKey: CodingKey, Hashable, Sendable {
  public let stringValue: String
  public let intValue: Int?

  /// The key `name`.
  public init(_ name: String) {
    self.stringValue = name
    self.intValue = nil
  }

  public init?(stringValue: String) { self.init(stringValue) }

  public init?(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}
