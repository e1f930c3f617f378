/// Who sent an action that a root store reduces.
@_spi(Hosting) public enum ActionOrigin: Sendable, Equatable {
  /// ``Store/send(_:)``: the store's owner (for a server, a client's request).
  case send
  /// A running effect, through its `Send`.
  case effect
  /// The action before it in the same send, as an `Effect.send`: reduced right after it,
  /// and part of the same change.
  case queued
}

/// Hosting: told about every action a root store reduces, in the store's serial section (so
/// one call at a time, in order); a server keeping a session's history is one.
///
/// Each `send` (by the owner or an effect) reduces its action and the actions queued behind
/// it, then makes at most one new version of the state: ``willReduce(_:origin:)`` comes
/// before each of those actions, the store's observers hear of the version (or the change
/// is refused, or there is none), then ``didReduceSend()``. A version a shared value makes
/// when it is changed elsewhere comes between two sends, without these calls.
@_spi(Hosting) public protocol StoreActionObserver<Action>: Sendable {
  associatedtype Action

  /// `action` is about to be reduced.
  func willReduce(_ action: Action, origin: ActionOrigin)

  /// The actions of one send are reduced, and their change published or not.
  func didReduceSend()
}
