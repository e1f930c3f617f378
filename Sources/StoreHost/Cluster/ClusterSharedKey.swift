import Composable
import Foundation

/// A ``SharedKey`` whose value every process of a cluster shares: kept in PostgreSQL and
/// announced on change through ``ClusterSharedValues``, so an increment in one process
/// reaches the stores, and the event streams, of every other process.
///
/// ```swift
/// @Shared(ClusterSharedKey<Int>(key: "visitors", values: cluster.sharedValues)) var visitors = 0
/// ```
///
/// Values are saved whole, as JSON: when two processes change a value at the same moment,
/// the last commit wins everywhere.
public struct ClusterSharedKey<Value: Codable & Sendable>: SharedKey {
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

  public func subscribe(_ didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    let cancel = values.subscribe(key) { text in
      guard let value = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else { return }
      didChange(value)
    }
    return SharedSubscription(cancel)
  }
}
