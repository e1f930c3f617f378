import Composable
import Foundation
import HTTP

/// What a host does when its storage fails: answers that say what happened to the
/// request, refusals once fast mode's promise can no longer be kept, and readiness.
extension SessionHost {
  /// The error for a request whose change could not be saved.
  ///
  /// - In fast mode on one process the change stays applied and is saved once storage
  ///   works again: 503 `outcome_unknown` (a process that dies meanwhile loses it), which a
  ///   repeat with the same `Idempotency-Key` settles.
  /// - In strict mode, and in a cluster, the session is dropped here, so the next request
  ///   brings it back at its last saved state: the change is undone, never half-kept, and
  ///   the answer says nothing was applied (503 `storage_unavailable`, or in a cluster
  ///   `database_unavailable` or `session_moved`), unless the save's commit was sent and
  ///   its outcome is unknown (503 `outcome_unknown`).
  func saveFailed(_ session: Session<State, Action>, error: any Error) -> HTTPError {
    if keepsUnsavedChanges { return HTTPError.outcomeUnknown() }
    abandon(session)
    switch error {
    case is SaveOutcomeUnknown: return HTTPError.outcomeUnknown()
    case is SessionOwnershipLost: return cluster == nil ? HTTPError.storageUnavailable() : HTTPError.sessionMoved()
    default: return cluster == nil ? HTTPError.storageUnavailable() : HTTPError.databaseUnavailable()
    }
  }

  /// Throws 503 (nothing applied) while storage has failed for longer than
  /// ``StorageHealth/fastWindow``: in fast mode an acknowledged change is promised to be
  /// saved within about that long, so new changes and new sessions wait until a write
  /// works again. Strict mode answers each request by its own save.
  func checkStorageTakesChanges() throws {
    guard configuration.durability == .fast, let failing = storageHealth.failingDuration(),
      failing > StorageHealth.fastWindow
    else { return }
    throw cluster == nil ? HTTPError.storageUnavailable() : HTTPError.databaseUnavailable()
  }

  /// `GET /readyz`: 200 `{"status":"ready"}` while the host takes traffic; 503 `not_ready`
  /// with why while it drains, while writes to storage fail, or, in a cluster, while its
  /// lease on the database is not known to hold (the database is unreachable or slower
  /// than the lease). `/healthz` stays the liveness probe.
  func readinessResponse(_ request: Request) -> Response {
    let reason: String? =
      if request.isDraining {
        "the server is shutting down"
      } else if let cause = storageHealth.cause {
        "writes to storage fail: \(cause)"
      } else if let cluster, !cluster.holdsLease {
        "the cluster's database does not confirm this process's lease"
      } else {
        nil
      }
    guard let reason else { return readyResponse }
    return HTTPError(status: 503, code: "not_ready", message: "Not ready: \(reason).", headers: ["Retry-After": "1"])
      .response
  }
}

/// `GET /readyz` while ready: the same bytes every time.
private let readyResponse = Response(
  status: 200, headers: ["Content-Type": Response.jsonContentType], body: .bytes(Array(#"{"status":"ready"}"#.utf8)))
