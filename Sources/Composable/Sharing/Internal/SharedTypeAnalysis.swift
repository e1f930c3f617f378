@_spi(Reflection) import Swift
import Foundation
import Glibc
import Synchronization

/// Whether values of a type can hold ``Shared`` or ``SharedReader`` values, from the type
/// alone: its stored properties, the elements of standard collections, enum payloads.
///
/// Used to skip parts of a state that can hold no shared value when a store looks for
/// them, and when a diff must not trust `==` (which reads shared values as they are now,
/// not as they were in the version being diffed). Classes are not looked into, as the
/// shared-value scan does not look into them; enums with payloads (unless `CasePathable`,
/// whose payload types are known), existentials and types with a custom mirror count as
/// possible holders.
enum SharedTypeAnalysis {
  private static let known = Mutex<[ObjectIdentifier: Bool]>([:])
  /// A copy of answers per thread, so the threads diffing thousands of sessions at once do
  /// not contend for `known`.
  private static let threadAnswersKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { $0.map { Unmanaged<ThreadAnswers>.fromOpaque($0).release() } }
    return key
  }()

  private final class ThreadAnswers {
    var answers: [ObjectIdentifier: Bool] = [:]
  }

  private static var threadAnswers: ThreadAnswers {
    if let pointer = pthread_getspecific(threadAnswersKey) {
      return Unmanaged<ThreadAnswers>.fromOpaque(pointer).takeUnretainedValue()
    }
    let answers = ThreadAnswers()
    pthread_setspecific(threadAnswersKey, Unmanaged.passRetained(answers).toOpaque())
    return answers
  }

  /// Types that never hold shared values: the standard scalars and Foundation's values.
  private static let leaves: Set<ObjectIdentifier> = Set(
    ([
      Bool.self, String.self, Substring.self, Character.self, Double.self, Float.self,
      Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self,
      UInt64.self, UUID.self, Date.self, Data.self, URL.self, Decimal.self, Duration.self,
    ] as [Any.Type]).map(ObjectIdentifier.init))

  /// Whether values of `type` may hold shared values.
  static func mayHoldSharedValues(_ type: Any.Type) -> Bool {
    let id = ObjectIdentifier(type)
    let local = threadAnswers
    if let answer = local.answers[id] { return answer }
    let answer =
      known.withLock({ $0[id] })
      ?? {
        var visiting: Set<ObjectIdentifier> = []
        let answer = analyze(type, visiting: &visiting)
        known.withLock { $0[id] = answer }
        return answer
      }()
    local.answers[id] = answer
    return answer
  }

  private static func analyze(_ type: Any.Type, visiting: inout Set<ObjectIdentifier>) -> Bool {
    let id = ObjectIdentifier(type)
    if leaves.contains(id) { return false }
    if type is any SharedBoxHolder.Type { return true }
    if let collection = type as? any SharedElementTypes.Type {
      return collection.sharedElementTypes.contains { analyze($0, visiting: &visiting) }
    }
    // A type met again while it is being analyzed adds nothing the first visit won't find.
    guard visiting.insert(id).inserted else { return false }
    defer { visiting.remove(id) }
    switch kind(of: type) {
    case .class, .function, .metatype, .existentialMetatype, .foreignClass, .objcClassWrapper:
      return false
    case .enum:
      // Enums with raw values, or all of whose cases are listed, carry no payload.
      if type is any RawRepresentable.Type || type is any CaseIterable.Type { return false }
      // A case-pathable enum names its payloads' types; any other may carry anything.
      guard let payloads = (type as? any CasePathable.Type)?._$casePayloadTypes else { return true }
      return payloads.contains { analyze($0, visiting: &visiting) }
    case .struct, .tuple:
      if type is any CustomReflectable.Type { return true }
      var holds = false
      _ = _forEachField(of: type) { _, _, fieldType, _ in
        holds = analyze(fieldType, visiting: &visiting)
        return !holds
      }
      return holds
    default:
      return true
    }
  }

  /// How values of a type keep what they hold.
  enum Layout {
    /// A struct or tuple holding its values in its own stored fields, which can be read at
    /// their offsets: not a standard collection (whose elements live in a buffer), not a
    /// type with a custom mirror.
    case plain
    /// An existential box.
    case existential
    /// Anything else (enums, collections, classes, custom mirrors).
    case other
  }

  static func layout(of type: Any.Type) -> Layout {
    switch kind(of: type) {
    case .struct, .tuple:
      type is any SharedElementTypes.Type || type is any CustomReflectable.Type ? .other : .plain
    case .existential:
      .existential
    default:
      .other
    }
  }

  private static func kind(of type: Any.Type) -> _MetadataKind {
    func kind<T>(_: T.Type) -> _MetadataKind {
      var found = _MetadataKind.unknown
      _ = _forEachField(of: (T, Bool).self) { _, _, _, kind in
        found = kind
        return false
      }
      return found
    }
    return _openExistential(type, do: kind)
  }
}

/// A collection type that names the types of what it holds.
protocol SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { get }
}

extension Optional: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [Wrapped.self] }
}

extension Array: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [Element.self] }
}

extension ContiguousArray: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [Element.self] }
}

extension ArraySlice: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [Element.self] }
}

extension Set: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [Key.self, Value.self] }
}

extension IdentifiedArray: SharedElementTypes {
  static var sharedElementTypes: [Any.Type] { [Element.self] }
}
