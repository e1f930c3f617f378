#if !canImport(SwiftUI)
  /// Where SwiftUI is missing, the animation a TCA feature names when it sends an action,
  /// `await send(.tick, animation: .default)`: accepted and ignored, since a server draws
  /// nothing. Its description is the name it was made with.
  public struct Animation: Hashable, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }

    public static let `default` = Animation("default")
    public static let linear = Animation("linear")
    public static let easeIn = Animation("easeIn")
    public static let easeOut = Animation("easeOut")
    public static let easeInOut = Animation("easeInOut")
    public static let spring = Animation("spring")
    public static let bouncy = Animation("bouncy")
    public static let smooth = Animation("smooth")
    public static let snappy = Animation("snappy")

    public static func linear(duration: Double) -> Animation { Animation("linear(\(duration))") }
    public static func easeIn(duration: Double) -> Animation { Animation("easeIn(\(duration))") }
    public static func easeOut(duration: Double) -> Animation { Animation("easeOut(\(duration))") }
    public static func easeInOut(duration: Double) -> Animation { Animation("easeInOut(\(duration))") }

    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0)
      -> Animation
    {
      Animation("spring(\(response), \(dampingFraction))")
    }

    public static func interpolatingSpring(
      mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
    ) -> Animation {
      Animation("interpolatingSpring(\(stiffness), \(damping))")
    }

    public func speed(_ speed: Double) -> Animation { Animation("\(description).speed(\(speed))") }
    public func delay(_ delay: Double) -> Animation { Animation("\(description).delay(\(delay))") }
    public func repeatForever(autoreverses: Bool = true) -> Animation { Animation("\(description).repeatForever") }
  }
#endif
