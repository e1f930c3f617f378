@_spi(Reflection) import Swift
import Glibc

/// A value that refers to a shared box: ``Shared`` or ``SharedReader``.
protocol SharedBoxHolder {
  var sharedBox: AnySharedBox { get }
  /// The current value, which ``customDump(_:)`` shows in place of the holder.
  var dumpedValue: Any { get }
}

extension Shared: SharedBoxHolder {
  var sharedBox: AnySharedBox { reference.box }
  var dumpedValue: Any { wrappedValue }
}

extension SharedReader: SharedBoxHolder {
  var sharedBox: AnySharedBox { reference.box }
  var dumpedValue: Any { wrappedValue }
}

/// Finds the shared values a state holds (in structs, enums, tuples, optionals and
/// collections; not inside classes or inside shared values).
///
/// Each type is looked at once, into a ``Plan``: a plain struct is read field by field at
/// the fields' offsets, only the fields whose types can hold shared values; what has no such
/// layout (enums with payloads, collections, existentials) is read through its `Mirror`.
/// A store that looks again after a change compares the state with the one before it
/// (``tallyChanges(fromValueAt:to:into:)``) and searches only the parts whose bytes differ, so it
/// pays for what changed, not for the whole state.
enum SharedScan {
  /// The boxes of the shared values anywhere in `value`, each once.
  static func boxes<Value>(in value: Value) -> [AnySharedBox] {
    tally(of: value).counts.values.map(\.box)
  }

  /// The shared values of `value`, each with the number of places holding it.
  static func tally<Value>(of value: Value) -> Tally {
    var tally = Tally()
    _ = search(value) { tally.add($0, 1) }
    return tally
  }

  /// Counts the shared values `new` holds in the parts where its bytes differ from `old`'s,
  /// less those `old` holds there. Parts with the same bytes hold the same shared values:
  /// values reach what they hold through copy-on-write buffers and immutable boxes, which a
  /// change replaces while `old` is alive (classes are not searched). The values are read
  /// where they are: a copy would retain all they hold.
  static func tallyChanges<Value>(
    fromValueAt old: UnsafePointer<Value>, to new: UnsafePointer<Value>, into tally: inout Tally
  ) {
    tallyChanges(Value.self, size: MemoryLayout<Value>.size, from: old, to: new, into: &tally)
  }

  /// Whether the value of type `type` stored at `address` holds a shared value whose box is
  /// one of `boxes`. Stops at the first one, and allocates nothing where the value's plan
  /// reads fields at their offsets.
  static func holdsAny(of boxes: Set<ObjectIdentifier>, in type: Any.Type, at address: UnsafeRawPointer) -> Bool {
    !searchField(of: type, at: address) { !boxes.contains(ObjectIdentifier($0)) }
  }

  /// Shared boxes with a count each: how many places hold them, or how many more do.
  struct Tally {
    fileprivate(set) var counts: [ObjectIdentifier: (box: AnySharedBox, count: Int)] = [:]

    /// Adds `count` places holding `box`; `true`, so a search goes on.
    fileprivate mutating func add(_ box: AnySharedBox, _ count: Int) -> Bool {
      counts[ObjectIdentifier(box), default: (box, 0)].count += count
      return true
    }
  }

  /// How values of one type are searched.
  private enum Plan {
    /// The type cannot hold shared values.
    case skip
    /// A ``Shared`` or ``SharedReader``.
    case holder
    /// A struct or tuple read at these offsets: its fields that can hold shared values.
    case fields([(offset: Int, size: Int, type: Any.Type)])
    /// An existential: searched by the type of the value it holds.
    case dynamic
    /// Anything else: its mirror's children.
    case mirror
  }

  /// Calls `visit` with the box of each shared value in `value`, once for each place
  /// holding it, until `visit` returns `false`; `false` when it did.
  private static func search<Value>(_ value: Value, _ visit: (AnySharedBox) -> Bool) -> Bool {
    switch plan(for: Value.self) {
    case .skip:
      return true
    case .holder:
      return visit((value as! any SharedBoxHolder).sharedBox)
    case .fields(let fields):
      return withUnsafeBytes(of: value) { bytes in
        fields.allSatisfy { searchField(of: $0.type, at: bytes.baseAddress! + $0.offset, visit) }
      }
    case .dynamic:
      // A dynamic cast looks through the box; `value as Any` would box it once more.
      if let holder = value as? any SharedBoxHolder { return visit(holder.sharedBox) }
      return searchChildren(of: Mirror(reflecting: value), visit)
    case .mirror:
      return searchChildren(of: Mirror(reflecting: value), visit)
    }
  }

  private static func searchChildren(of mirror: Mirror, _ visit: (AnySharedBox) -> Bool) -> Bool {
    guard mirror.displayStyle != .class else { return true }
    return mirror.children.allSatisfy { searchDynamic($0.value, visit) }
  }

  /// Reads the field of type `type` stored at `address` and searches it.
  private static func searchField(of type: Any.Type, at address: UnsafeRawPointer, _ visit: (AnySharedBox) -> Bool) -> Bool {
    func read<Field>(_: Field.Type) -> Bool {
      search(address.load(as: Field.self), visit)
    }
    return _openExistential(type, do: read)
  }

  /// Searches a value known only as `Any` (a mirror's child) by its dynamic type. Only for
  /// values whose static type is `Any`: a generic value of an existential type would be
  /// boxed again.
  private static func searchDynamic(_ value: Any, _ visit: (AnySharedBox) -> Bool) -> Bool {
    func open<Value>(_ value: Value) -> Bool { search(value, visit) }
    return _openExistential(value, do: open)
  }

  /// ``tallyChanges(fromValueAt:to:into:)`` for the `size` bytes of a `type` at `old` and `new`:
  /// a struct's fields are compared one by one, anything else searched whole when it differs.
  private static func tallyChanges(
    _ type: Any.Type, size: Int, from old: UnsafeRawPointer?, to new: UnsafeRawPointer?, into tally: inout Tally
  ) {
    guard size > 0, let old, let new, memcmp(old, new, size) != 0 else { return }
    switch plan(for: type) {
    case .skip:
      return
    case .fields(let fields):
      for field in fields {
        tallyChanges(field.type, size: field.size, from: old + field.offset, to: new + field.offset, into: &tally)
      }
    case .holder, .dynamic, .mirror:
      _ = searchField(of: type, at: old) { tally.add($0, -1) }
      _ = searchField(of: type, at: new) { tally.add($0, 1) }
    }
  }

  // MARK: Re-attaching

  /// Puts the keyed shared values of `fresh` (a state just made, whose `@Shared(key)`
  /// properties hold their keys' values) into `restored` (the same type decoded from JSON,
  /// whose shared values are detached copies) wherever both hold a shared value at the same
  /// place of their structs. So a state rebuilt from its saved JSON follows its keys again.
  /// Shared values inside enums and collections have no such place and stay as decoded.
  static func reattach<Value>(_ restored: inout Value, from fresh: Value) {
    withUnsafeMutableBytes(of: &restored) { target in
      withUnsafeBytes(of: fresh) { source in
        reattach(Value.self, at: target.baseAddress, from: source.baseAddress)
      }
    }
  }

  private static func reattach(_ type: Any.Type, at target: UnsafeMutableRawPointer?, from source: UnsafeRawPointer?) {
    guard let target, let source else { return }
    switch plan(for: type) {
    case .holder:
      func assign<Holder>(_: Holder.Type) {
        let keyed = source.load(as: Holder.self)
        guard (keyed as! any SharedBoxHolder).sharedBox.isKeyed else { return }
        target.assumingMemoryBound(to: Holder.self).pointee = keyed
      }
      _openExistential(type, do: assign)
    case .fields(let fields):
      for field in fields { reattach(field.type, at: target + field.offset, from: source + field.offset) }
    case .skip, .dynamic, .mirror:
      return
    }
  }

  // MARK: Plans

  private final class Plans {
    var byType: [ObjectIdentifier: Plan] = [:]
  }

  /// Plans per thread: made once per type and thread, read without a lock.
  private static let plansKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { $0.map { Unmanaged<Plans>.fromOpaque($0).release() } }
    return key
  }()

  private static var threadPlans: Plans {
    if let pointer = pthread_getspecific(plansKey) {
      return Unmanaged<Plans>.fromOpaque(pointer).takeUnretainedValue()
    }
    let plans = Plans()
    pthread_setspecific(plansKey, Unmanaged.passRetained(plans).toOpaque())
    return plans
  }

  private static func plan(for type: Any.Type) -> Plan {
    let plans = threadPlans
    let id = ObjectIdentifier(type)
    if let plan = plans.byType[id] { return plan }
    let plan = makePlan(for: type)
    plans.byType[id] = plan
    return plan
  }

  private static func size(of type: Any.Type) -> Int {
    func size<Value>(_: Value.Type) -> Int { MemoryLayout<Value>.size }
    return _openExistential(type, do: size)
  }

  private static func makePlan(for type: Any.Type) -> Plan {
    guard SharedTypeAnalysis.mayHoldSharedValues(type) else { return .skip }
    if type is any SharedBoxHolder.Type { return .holder }
    switch SharedTypeAnalysis.layout(of: type) {
    case .existential: return .dynamic
    case .other: return .mirror
    case .plain: break
    }
    var fields: [(offset: Int, size: Int, type: Any.Type)] = []
    _ = _forEachField(of: type) { _, offset, fieldType, _ in
      if SharedTypeAnalysis.mayHoldSharedValues(fieldType) { fields.append((offset, size(of: fieldType), fieldType)) }
      return true
    }
    return .fields(fields)
  }
}

/// Makes `restored`, a state decoded from saved JSON, follow the keyed shared values that
/// `fresh`, the same feature's initial state made now, holds at the same places (see
/// ``SharedScan/reattach(_:from:)``). Used by hosts that rebuild stores from saved states.
package func reattachSharedValues<State>(_ restored: inout State, from fresh: State) {
  SharedScan.reattach(&restored, from: fresh)
}
