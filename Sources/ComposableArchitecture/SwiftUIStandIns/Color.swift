#if !canImport(SwiftUI)
  /// Where SwiftUI is missing, a color kept in a feature's state: a named color (`.red`), an
  /// asset's name (`Color("oxblood")`) or components. In JSON it is its description
  /// (`"red"`, `"oxblood"`, `"#ff8000"`), for a page to map to CSS.
  public struct Color: Hashable, Sendable, Codable, CustomStringConvertible {
    public let description: String

    /// The color of the asset `name`.
    public init(_ name: String) { self.description = name }

    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
      func byte(_ component: Double) -> String {
        let value = Int((min(max(component, 0), 1) * 255).rounded())
        return String(value, radix: 16).count == 1 ? "0" + String(value, radix: 16) : String(value, radix: 16)
      }
      self.description = "#" + byte(red) + byte(green) + byte(blue) + (opacity < 1 ? byte(opacity) : "")
    }

    public init(from decoder: any Decoder) throws {
      self.description = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(description)
    }

    public static let black = Color("black")
    public static let white = Color("white")
    public static let gray = Color("gray")
    public static let red = Color("red")
    public static let orange = Color("orange")
    public static let yellow = Color("yellow")
    public static let green = Color("green")
    public static let mint = Color("mint")
    public static let teal = Color("teal")
    public static let cyan = Color("cyan")
    public static let blue = Color("blue")
    public static let indigo = Color("indigo")
    public static let purple = Color("purple")
    public static let pink = Color("pink")
    public static let brown = Color("brown")
    public static let clear = Color("clear")
    public static let primary = Color("primary")
    public static let secondary = Color("secondary")
    public static let accentColor = Color("accentColor")
  }
#endif
