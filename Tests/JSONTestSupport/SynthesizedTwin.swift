import Foundation

/// A struct declared with the same stored properties as `Original` but without
/// `@ObservableState`, so that its coding is the one the compiler synthesizes: the coding
/// the macro's must match. Its properties hold the twins of `Original`'s child states
/// where it has them, so the comparison reaches synthesized coding all the way down.
public protocol SynthesizedTwin: Encodable {
  associatedtype Original: Encodable
  init(_ original: Original)
}

/// The JSON texts a state gives through the code `@ObservableState` generates and through
/// its twin's synthesized `Encodable`, each written by Foundation's `JSONEncoder` (then with
/// keys sorted by their UTF-8 bytes, as ``LegacyPipeline``).
public struct TwinTexts: Sendable {
  /// The macro's `encode(to:)`, through `JSONEncoder`.
  public let encoded: String
  /// The twin's synthesized `encode(to:)`, through `JSONEncoder`.
  public let synthesized: String

  public init<Twin: SynthesizedTwin>(_ original: Twin.Original, as _: Twin.Type) throws {
    encoded = try LegacyPipeline.text(original)
    synthesized = try LegacyPipeline.text(Twin(original))
  }
}
