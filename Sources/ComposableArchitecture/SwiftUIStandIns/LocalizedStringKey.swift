#if !canImport(SwiftUI)
  /// Where SwiftUI is missing, the key of a localized string, as TCA's Todos uses for its
  /// filters' raw values (`enum Filter: LocalizedStringKey { case all = "All" }`). It is the
  /// key's text; in JSON, a string.
  public struct LocalizedStringKey: Hashable, Sendable, Codable, ExpressibleByStringInterpolation,
    CustomStringConvertible
  {
    public let description: String

    public init(_ key: String) { self.description = key }
    public init(stringLiteral key: String) { self.description = key }

    public init(from decoder: any Decoder) throws {
      self.description = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(description)
    }
  }
#endif
