import Composable
import Foundation
import HTTP

/// What an actions request did: its answer (202, or the refusal of a change), and the
/// session's version it reports.
struct AppliedActions {
  let response: Response
  let version: Int
}

/// Actions just sent: what they did, and the effects the request waits for.
struct SentActions {
  let applied: AppliedActions
  /// The effects to wait for before answering (`?wait=effects`); none otherwise.
  let effects: [StoreTask]
}

extension SessionHost {
  /// Answers an actions request sent with an `Idempotency-Key` at most once: the first
  /// time its actions are sent and its answer is remembered with the session, saved in the
  /// same write as the state it reports (so a crash keeps both or neither); a repeat with
  /// the same body gets that answer again, marked `Idempotent-Replayed: true`; the same key
  /// with another body answers 422, and while the first is being answered, 409. A request
  /// that applied nothing (it threw) leaves no answer, so its repeat is tried anew. A request
  /// that waits for its effects (`?wait=effects`) is remembered with the version its actions
  /// reached until its effects finish, then with the version they reached.
  func answerOnce(_ request: Request, key: String, session: Session<State, Action>) async throws -> Response {
    let digest = IdempotencyKey.digest(request.body)
    switch session.admitIdempotent(key, digest: digest) {
    case .replay(let answer):
      // The answer may be given only once the state it reports may be shown: durable, with
      // strict durability (a repeat can come while the first request's save is on its way).
      do {
        try await session.waitUntilPublishable(answer.version)
      } catch {
        throw saveFailed(session, error: error)
      }
      return replay(answer)
    case .reused: throw HTTPError.idempotencyKeyReused()
    case .inUse: throw HTTPError.idempotencyKeyInUse()
    case .proceed: break
    }
    // No save of the session is written from before the first action until the answer is
    // recorded: every save of a state this request made carries its answer.
    session.holdSaves()
    let sent: SentActions
    do {
      sent = try await sendActions(request, to: session)
    } catch {
      session.updateIdempotency { $0.abandon(key) }
      session.releaseSaves()
      throw error
    }
    session.updateIdempotency { $0.record(key, answer: remembered(sent.applied, key, digest)) }
    session.releaseSaves()
    let applied = await waitForEffectsIfAsked(sent, in: session)
    session.updateIdempotency { ledger in
      if applied.version != sent.applied.version { ledger.record(key, answer: remembered(applied, key, digest)) }
      ledger.finish(key)
    }
    do {
      try await session.waitUntilPublishable(applied.version)
    } catch {
      // In fast mode on one process the change stays applied, with its answer (saved with a
      // later save), so a repeat replays it. Otherwise the session is dropped here with
      // both, so a repeat applies it anew on the session's durable state, or replays the
      // answer when the save's outcome was unknown and it did commit.
      throw saveFailed(session, error: error)
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
