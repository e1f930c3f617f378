import Composable
import Synchronization

/// The changes of one session's state, one version after another: for each, the patch
/// from the version before and the size of the state's JSON, and the size limit.
///
/// The store calls ``accept(_:)`` for every change an action makes, before it becomes a
/// version, and the session calls ``didPublish(_:)`` for every version, both in the store's
/// serial section and so in version order. Diffing costs what changed
/// (``Composable/StoreSnapshot/patch(from:)``), and the size is kept by adding each patch's
/// size change to the last one, so no change encodes the whole state.
final class SessionChanges<State: Encodable & Sendable>: Sendable {
  /// One version with the patch that led to it (`nil` when it could not be computed); a
  /// class, so the state is copied once however often the version is handed on.
  final class Change: Sendable {
    let snapshot: StoreSnapshot<State>
    let patch: StatePatch?
    /// Only keyed shared values changed (elsewhere): the saved state of the version before
    /// stands for this one too (see ``Composable/SharedSnapshot/changedOnlyKeyedValues(since:)``).
    let changedOnlyKeyedValues: Bool

    init(snapshot: StoreSnapshot<State>, patch: StatePatch?, changedOnlyKeyedValues: Bool = false) {
      self.snapshot = snapshot
      self.patch = patch
      self.changedOnlyKeyedValues = changedOnlyKeyedValues
    }
  }

  /// Why a change was refused.
  enum Refusal: Sendable {
    /// The state's JSON would have been `size` bytes, over the limit of `limit`.
    case tooLarge(size: Int, limit: Int)
    /// The state could not have been encoded as JSON (a NaN, say).
    case notEncodable(String)
  }

  private struct Changes {
    /// The latest version and its JSON's length in bytes.
    var latest: Change
    var size: Int
    /// The change ``accept(_:)`` let through, for ``didPublish(_:)`` to take.
    var accepted: Change?
    var lastRefusal: Refusal?
  }

  /// The most bytes the state's JSON may have after an action.
  let maxSize: Int
  private let changes: Mutex<Changes>

  init(initial: StoreSnapshot<State>, size: Int, maxSize: Int) {
    self.maxSize = maxSize
    self.changes = Mutex(Changes(latest: Change(snapshot: initial, patch: nil), size: size))
  }

  /// Takes the store's first snapshot, which records the shared values the state holds,
  /// in place of the one made before the store followed them; so the patch of a shared
  /// value's first change is made from what it was. Changes nothing once a version followed.
  func adoptInitial(_ snapshot: StoreSnapshot<State>) {
    changes.withLock { changes in
      guard changes.accepted == nil, changes.latest.snapshot.version == snapshot.version else { return }
      changes.latest = Change(snapshot: snapshot, patch: nil)
    }
  }

  /// The length of the latest version's JSON.
  var size: Int { changes.withLock { $0.size } }

  /// Why the last refused change was refused.
  var lastRefusal: Refusal? { changes.withLock { $0.lastRefusal } }

  /// Whether the store may make `next` a version: its JSON fits ``maxSize`` and can be
  /// encoded at all.
  func accept(_ next: StoreSnapshot<State>) -> Bool {
    changes.withLock { changes in
      do {
        let patch = try next.patch(from: changes.latest.snapshot)
        let size = changes.size + patch.sizeChange
        guard size <= maxSize else {
          changes.lastRefusal = .tooLarge(size: size, limit: maxSize)
          return false
        }
        changes.accepted = Change(snapshot: next, patch: patch)
        return true
      } catch {
        changes.lastRefusal = .notEncodable(String(describing: error))
        return false
      }
    }
  }

  /// Records `snapshot` as the latest version, with the patch from the one before: the one
  /// ``accept(_:)`` computed for it, or one computed now (a shared value changed).
  func didPublish(_ snapshot: StoreSnapshot<State>) -> Change {
    changes.withLock { changes in
      let change: Change
      if let accepted = changes.accepted, accepted.snapshot.version == snapshot.version {
        change = accepted
      } else {
        // Not made by an action: a shared value changed elsewhere, the rest is as it was.
        let previous = changes.latest.snapshot
        change = Change(
          snapshot: snapshot, patch: try? snapshot.patch(from: previous),
          changedOnlyKeyedValues: snapshot.sharedValues.changedOnlyKeyedValues(since: previous.sharedValues))
      }
      changes.accepted = nil
      changes.latest = change
      if let patch = change.patch {
        changes.size += patch.sizeChange
      } else if let json = try? snapshot.encodedState() {
        changes.size = json.count
      }
      return change
    }
  }
}
