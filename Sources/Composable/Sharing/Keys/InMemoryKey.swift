import Foundation
import Synchronization

/// Keeps shared values in memory, by name: nothing survives the process.
public final class InMemoryStorage: Sendable {
  private let values = Mutex<[InMemoryKeyID: any Sendable]>([:])

  /// An empty storage.
  public init() {}

  /// Forgets every value of the session `sessionID`, for example when the session ends.
  public func removeValues(forSession sessionID: String) {
    values.withLock { values in values = values.filter { $0.key.session != sessionID } }
  }

  func value(for id: InMemoryKeyID) -> (any Sendable)? { values.withLock { $0[id] } }

  func set(_ value: any Sendable, for id: InMemoryKeyID) { values.withLock { $0[id] = value } }
}

/// What an in-memory key refers to: a name in a storage, within a session or not.
public struct InMemoryKeyID: Hashable, Sendable {
  let storage: ObjectIdentifier
  let session: String?
  let name: String
}

/// A ``SharedKey`` for a value kept in memory under a name: ``SharedReaderKey/inMemory(_:scope:)``.
public struct InMemoryKey<Value: Sendable>: SharedKey {
  private let storage: InMemoryStorage
  public let id: InMemoryKeyID

  init(name: String, scope: SharedScope, dependencies: DependencyValues) {
    self.storage = dependencies.defaultInMemoryStorage
    let session: String?
    switch scope {
    case .process:
      session = nil
    case .session:
      if dependencies.sessionID == nil {
        reportIssue(
          """
          ".inMemory(\"\(name)\", scope: .session)" was used where no session id is set, so it is \
          shared like a process-scoped key. Set "sessionID" in the store's dependencies.
          """)
      }
      session = dependencies.sessionID
    }
    self.id = InMemoryKeyID(storage: ObjectIdentifier(storage), session: session, name: name)
  }

  public func load() -> Value? { storage.value(for: id) as? Value }

  public func save(_ value: Value) { storage.set(value, for: id) }

  public func subscribe(_ didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    .empty
  }
}

extension SharedReaderKey {
  /// A value kept in memory under `name`: `@Shared(.inMemory("visitors")) var visitors = 0`.
  ///
  /// - Parameters:
  ///   - name: The name of the value.
  ///   - scope: ``SharedScope/process`` (the default) shares the value with every store of
  ///     the process, such as every session of a server; ``SharedScope/session`` only with
  ///     stores of the same ``DependencyValues/sessionID``.
  public static func inMemory<Value>(_ name: String, scope: SharedScope = .process) -> Self
  where Self == InMemoryKey<Value> {
    InMemoryKey(name: name, scope: scope, dependencies: .current)
  }
}
