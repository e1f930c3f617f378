import Foundation
import HTTP

/// What an actions request did: its answer (202, or the refusal of a change), and the
/// session's version it reports.
struct AppliedActions {
  let response: Response
  let version: Int
}

/// Actions were applied but their version could not be saved (strict durability); `error`
/// is the answer to give.
struct ActionsNotDurable: Error {
  let applied: AppliedActions
  let error: HTTPError
}

extension SessionHost {
  /// Answers an actions request sent with an `Idempotency-Key` at most once: the first
  /// time `apply` runs and its answer is remembered with the session (saved with it, before
  /// the answer under strict durability); a repeat with the same body gets that answer
  /// again, marked `Idempotent-Replayed: true`; the same key with another body answers 422,
  /// and while the first is being answered, 409. A request that applied nothing (it threw)
  /// leaves no answer, so its repeat is tried anew.
  func answerOnce(
    _ request: Request, key: String, session: Session<State, Action>,
    apply: () async throws -> AppliedActions
  ) async throws -> Response {
    let digest = IdempotencyKey.digest(request.body)
    switch session.admitIdempotent(key, digest: digest) {
    case .replay(let answer): return replay(answer)
    case .reused: throw HTTPError.idempotencyKeyReused()
    case .inUse: throw HTTPError.idempotencyKeyInUse()
    case .proceed: break
    }
    let applied: AppliedActions
    do {
      applied = try await apply()
    } catch let failure as ActionsNotDurable {
      // On one process the change stays applied (only its save failed): a repeat must not
      // apply it again. In a cluster the session was dropped and the change discarded, so a
      // repeat applies it anew.
      session.finishIdempotent(key, answer: cluster == nil ? remembered(failure.applied, key, digest) : nil)
      throw failure.error
    } catch {
      session.finishIdempotent(key, answer: nil)
      throw error
    }
    session.finishIdempotent(key, answer: remembered(applied, key, digest))
    do {
      try await session.saveCurrent()
    } catch {
      throw notDurable(session)
    }
    return applied.response
  }

  private func remembered(_ applied: AppliedActions, _ key: String, _ digest: String) -> RememberedAnswer {
    let body = if case .bytes(let bytes) = applied.response.body { String(decoding: bytes, as: UTF8.self) } else { "" }
    return RememberedAnswer(
      key: key, bodyDigest: digest, status: applied.response.status, body: body, version: applied.version,
      answeredAt: Date())
  }

  private func replay(_ answer: RememberedAnswer) -> Response {
    var response = jsonResponse(answer.body, status: answer.status)
    response.headers.set("Idempotent-Replayed", "true")
    return response
  }
}
