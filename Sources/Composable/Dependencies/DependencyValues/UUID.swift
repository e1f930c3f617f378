import Foundation
import Synchronization

extension DependencyValues {
  /// Makes UUIDs: random when live; in tests, set it (for example to ``UUIDGenerator/incrementing``).
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator { UUID() }
}

/// A function that makes a UUID: `uuid()`.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// A generator calling `generate`.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// A new UUID.
  public func callAsFunction() -> UUID { generate() }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> Self { Self { uuid } }

  /// `00000000-0000-0000-0000-000000000000`, then `…0001`, and so on: predictable in tests.
  public static var incrementing: Self {
    let counter = Mutex<UInt64>(0)
    return Self {
      let value = counter.withLock { value in
        defer { value += 1 }
        return value
      }
      return UUID(value)
    }
  }
}

extension UUID {
  /// `00000000-0000-0000-0000-00000000000n`, the n-th UUID of ``UUIDGenerator/incrementing``:
  /// `UUID(0)`, `UUID(1)`, ... in tests.
  public init(_ intValue: some BinaryInteger) {
    precondition(intValue >= 0 && intValue < 1 << 48, "UUID(_:) takes 0 ..< 2^48")
    self.init(uuidString: String(format: "00000000-0000-0000-0000-%012llx", UInt64(intValue)))!
  }
}
