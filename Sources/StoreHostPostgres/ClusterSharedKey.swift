import Composable
import Foundation

/// A `SharedKey` whose value every process of a cluster shares: kept in PostgreSQL and
/// announced on change through ``ClusterSharedValues``, so an increment in one process
/// reaches the stores, and the event streams, of every other process.
///
/// ```swift
/// @Shared(ClusterSharedKey<Int>(key: "visitors", values: cluster.sharedValues)) var visitors = 0
/// ```
///
/// Values are saved whole, as JSON. A change made with `withLock` is applied to the latest
/// stored value by compare-and-set, so changes made at once through several processes all
/// count (`AtomicSharedKey`). Its round trips block the thread that runs the reducer (a
/// host in a cluster reduces clients' actions off its event loops) and hold no lock. While
/// the database cannot be reached, a change applies to this process's value and is written
/// once it is back, unless another process changed the value meanwhile: then it is dropped,
/// and reported (see ``ClusterSharedValues``).
public struct ClusterSharedKey<Value: Codable & Sendable>: AtomicSharedKey {
  /// What a cluster key refers to: a key of one process's shared values.
  public struct ID: Hashable, Sendable {
    let values: ObjectIdentifier
    let key: String
  }

  private let key: String
  private let values: ClusterSharedValues

  /// The value stored under `key` in `values`. A `key` holds no newline.
  public init(key: String, values: ClusterSharedValues) {
    self.key = key
    self.values = values
  }

  public var id: ID { ID(values: ObjectIdentifier(values), key: key) }

  public func load() -> Value? {
    values.value(forKey: key).flatMap { try? JSONDecoder().decode(Value.self, from: Data($0.utf8)) }
  }

  public func save(_ value: Value) {
    do {
      values.set(String(decoding: try JSONEncoder().encode(value), as: UTF8.self), forKey: key)
    } catch {
      reportIssue("Could not encode \(Value.self) for the cluster shared key \"\(key)\": \(error)")
    }
  }

  /// Changes the stored value atomically for the cluster. A value that cannot be encoded is
  /// reported and not stored: the value stays as it was.
  public func update(from current: Value, _ change: (inout Value) throws -> Void) rethrows -> Value {
    let encoder = JSONEncoder()
    var updated = current
    var encodingError: (any Error)?
    let stored = try values.updateIfChanged(key, current: (try? encoder.encode(current)).map { String(decoding: $0, as: UTF8.self) } ?? "") {
      stored in
      var value = (try? JSONDecoder().decode(Value.self, from: Data(stored.utf8))) ?? current
      try change(&value)
      do {
        let encoded = String(decoding: try encoder.encode(value), as: UTF8.self)
        updated = value
        return encoded
      } catch {
        encodingError = error
        return nil
      }
    }
    if stored == nil, let encodingError {
      reportIssue("Could not encode \(Value.self) for the cluster shared key \"\(key)\": \(encodingError)")
      return load() ?? current
    }
    return updated
  }

  public func subscribe(_ didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    let cancel = values.subscribe(key) { text in
      guard let value = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else { return }
      didChange(value)
    }
    return SharedSubscription(cancel)
  }
}
