// StoreHost browser client: one session per tab, its state kept live over Server-Sent Events.
//
// A dependency-free ES module that every StoreHost server serves; import it from there:
//
//   import { StoreHostClient } from "/storehost/v1/storehost.js";
//
//   const client = new StoreHostClient();
//   client.onStatus((status) => console.log("stream is", status));
//   client.subscribe((state, version) => render(state));
//   await client.connect();
//   const version = await client.send({ counter: "incrementButtonTapped" });
//
// All tabs of a browser share one event stream (stream-hub.js), held by a SharedWorker
// (stream-worker.js), or by one tab elected leader where there are no shared workers, so
// any number of tabs fits in the browser's six connections per server. The wire protocol
// it speaks is version 1 of StoreHost's wire protocol (Sources/StoreHost/StoreHost.docc/WireProtocol.md).

import { applyPatch } from "./json-patch.js";
import { backoff, call, hubProtocol, parseJSON, serve, StreamHub } from "./stream-hub.js";

export { applyPatch, jsonEqual, parsePointer, PatchError } from "./json-patch.js";

/**
 * The connection states a client reports through {@link StoreHostClient#onStatus}.
 *
 * - `connecting`: creating or resuming the session and opening the first stream.
 * - `open`: the event stream is open; state changes arrive as they happen.
 * - `reconnecting`: the stream closed on an error; it is reopened after a wait (exponential
 *   backoff with jitter). Sends made meanwhile wait in the queue.
 * - `ended`: the session is gone: it ended (in another tab, say) or was evicted (404), or
 *   this browser holds no token for it (401). The client never replaces it by itself: its
 *   queued sends are rejected, and {@link StoreHostClient#startNewSession} begins a new one.
 * - `closed`: {@link StoreHostClient#close} was called, or {@link StoreHostClient#connect}
 *   not yet.
 * @readonly
 * @enum {string}
 */
export const Status = Object.freeze({
  connecting: "connecting",
  open: "open",
  reconnecting: "reconnecting",
  ended: "ended",
  closed: "closed",
});

/**
 * An error answered by the server (`{"error": {"code", "message"}}`), or a failure to reach it.
 * `message` is the server's own sentence, fit to show to a user.
 */
export class StoreHostError extends Error {
  /**
   * @param {string} message What went wrong, in one sentence.
   * @param {{status?: number, code?: string, retryAfter?: number|null, cause?: unknown}} [details]
   *   `status`: the HTTP status (0 when the server could not be reached);
   *   `code`: the server's snake_case error code, or `network_error`;
   *   `retryAfter`: the seconds of the answer's `Retry-After`, if it had one.
   */
  constructor(message, { status = 0, code = "network_error", retryAfter = null, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "StoreHostError";
    /** The HTTP status, or 0 when the server could not be reached. */
    this.status = status;
    /** The server's error code (such as `invalid_action`), or `network_error`. */
    this.code = code;
    /** Seconds the server asked to wait before trying again (`Retry-After`), or `null`. */
    this.retryAfter = retryAfter;
  }
}

/**
 * @typedef {object} ClientOptions
 * @property {string} [baseURL] Where the server is; default: this page's origin. The token
 *   cookie is SameSite=Strict, so the client is meant for pages the server itself serves.
 * @property {boolean} [patches=true] Ask for `event: patch` (RFC 6902) instead of a full
 *   state on every change.
 * @property {boolean} [log=false] Ask for `event: action` too, one per reduced action
 *   (see {@link StoreHostClient#onEvent}); meant for debugging views.
 * @property {boolean} [presence=false] Ask for `event: presence`: how many tabs watch
 *   this session and the whole server (see {@link StoreHostClient#onPresence}).
 * @property {string|null} [storageKey="storehost.session"] The sessionStorage key that keeps
 *   the tab's session id across its reloads (other tabs start sessions of their own);
 *   `null` keeps nothing.
 * @property {string|null} [urlParameter="session"] A query parameter that names the session
 *   to join (`?session=ID`); it wins over sessionStorage. `null` ignores the URL.
 * @property {number} [initialDelay=500] First reconnection (and send retry) delay in milliseconds.
 * @property {number} [maxDelay=10000] Longest reconnection (and send retry) delay in milliseconds.
 * @property {number} [stableAfter=5000] An open stream that lasts this long (or delivers an
 *   event) resets the backoff to `initialDelay`.
 */

/**
 * @callback StateListener
 * @param {any} state The session's latest state, as JSON. Treat it as read-only: parts that
 *   did not change are shared between versions.
 * @param {number} version The state's version: it grows with every change (by one in a
 *   running server; it may jump after the server recovered from a crash).
 */

/**
 * @typedef {object} Presence Who watches, as the server last said: the tabs of this browser
 *   one by one, another browser's once per session (its tabs share one stream).
 * @property {number} session Watchers of this session (tabs showing it).
 * @property {number} everyone Watchers of any session on the whole server.
 */

/**
 * @typedef {object} ClientEvent What the client received, in arrival order.
 * @property {"session"|"state"|"patch"|"action"} type `session`: the client adopted a
 *   session (`id`, `created`); `state`: a full state (`version`, `state`); `patch`: a change
 *   (`version`, `from`, `ops`); `action`: an action the session's reducer ran (`action`;
 *   only with `log: true`), sent just before the state it produced.
 * @property {Date} receivedAt When the client got it.
 */

/**
 * One browser tab's connection to a StoreHost session.
 *
 * `connect()` joins the session named by `?session=` or kept in this tab's sessionStorage,
 * or creates a new one (the server keeps its token in an HttpOnly cookie scoped to that
 * session). It then watches the session on the event stream the browser's tabs share, which
 * is kept open: when it fails, it is reopened with exponential backoff and jitter, resuming
 * from the last versions seen. When the session is gone, the status becomes `ended` until
 * `startNewSession()`.
 *
 * Sends are queued and delivered exactly once, in order: each carries an `Idempotency-Key`,
 * and one the server could not answer is sent again with the same key. Use one client per tab.
 */
export class StoreHostClient {
  #options;
  #sessionId = null;
  #state = undefined;
  #version = null;
  #status = Status.closed;
  #hasOpened = false;
  #endedBy = null; // the StoreHostError that ended the session
  #presence = null;

  // Grows whenever the client stops following a session (closed, ended, replaced): a
  // recovery started for an older generation gives up.
  #generation = 0;
  #link = null; // the tab's way to the shared stream (see hubLink)
  #watchID = null; // this client's id at the hub while it watches, new for every watch
  #resyncing = false;
  #attempt = 0;
  #wakeUp = null;
  #recovery = null; // {generation, done}
  #ready = null;

  #queue = []; // sends not yet answered, oldest first: {body, key, resolve, reject}
  #draining = false;
  #sendAttempt = 0;

  #stateListeners = new Set();
  #statusListeners = new Set();
  #eventListeners = new Set();
  #pendingListeners = new Set();
  #presenceListeners = new Set();

  /** @param {ClientOptions} [options] */
  constructor(options = {}) {
    this.#options = {
      baseURL: "",
      patches: true,
      log: false,
      presence: false,
      storageKey: "storehost.session",
      urlParameter: "session",
      initialDelay: 500,
      maxDelay: 10_000,
      stableAfter: 5_000,
      ...options,
    };
  }

  /** The session's id, or `null` before one is known. */
  get sessionId() {
    return this.#sessionId;
  }

  /** The latest state (read-only), or `undefined` before the first one arrives. */
  get state() {
    return this.#state;
  }

  /** The latest state's version, or `null` before the first one arrives. */
  get version() {
    return this.#version;
  }

  /** The connection status: one of {@link Status}. */
  get status() {
    return this.#status;
  }

  /** How many sends are queued or on their way and not answered yet. */
  get pendingCount() {
    return this.#queue.length;
  }

  /** The latest {@link Presence}, or `null` while the stream is not open (or without `presence: true`). */
  get presence() {
    return this.#presence;
  }

  /**
   * Joins or creates the session and opens its event stream. Safe to call more than once:
   * later calls return the first call's promise. If the server cannot be reached it keeps
   * trying (status `connecting`) and resolves once it can.
   * @returns {Promise<{id: string, version: number, state: any}>} The session as first seen.
   *   Rejects with the server's {@link StoreHostError} (401 or 404) when the session it was
   *   to join is gone (status `ended`).
   */
  connect() {
    if (this.#ready && this.#status !== Status.closed) return this.#ready;
    if (typeof window !== "undefined") {
      window.addEventListener("online", this.#onOnline);
      window.addEventListener("pagehide", this.#onPageHide);
      window.addEventListener("pageshow", this.#onPageShow);
    }
    this.#setStatus(Status.connecting);
    this.#ready = this.#recover(this.#requestedSessionId(), { waitFirst: false }).then(() => {
      if (this.#status === Status.ended) throw this.#endedBy;
      return { id: this.#sessionId, version: this.#version, state: this.#state };
    });
    return this.#ready;
  }

  /**
   * Queues one action, or an array of actions applied in order (all or none). Sends leave
   * in the order they were made, each after the previous one was answered, so a binding
   * followed by a button tap reaches the reducer in that order. A send the server could not
   * answer (unreachable, 502-504, 429 rate limited, 409 still in progress) stays at the
   * head of the queue and is sent again with the same `Idempotency-Key` after a wait, so it
   * is applied once, however often it is sent.
   * @param {any} action An action in its JSON form, such as `{counter: "incrementButtonTapped"}`.
   * @returns {Promise<number>} The session's version once the reducer ran the action(s).
   *   Rejects with a {@link StoreHostError} carrying the server's message (an unknown
   *   action, a state too large, the session ended, ...).
   */
  send(action) {
    if (this.#status === Status.closed) {
      return Promise.reject(new StoreHostError("Call connect() before send().", { code: "not_connected" }));
    }
    if (this.#status === Status.ended) return Promise.reject(this.#endedBy);
    return new Promise((resolve, reject) => {
      this.#queue.push({ body: JSON.stringify(action), key: newKey(), resolve, reject });
      this.#pendingChanged();
      this.#drain();
    });
  }

  /**
   * Calls `listener(state, version)` with every new state, and right away with the current
   * one if there is one.
   * @param {StateListener} listener
   * @returns {() => void} A function that stops the calls.
   */
  subscribe(listener) {
    this.#stateListeners.add(listener);
    if (this.#state !== undefined) call(listener, this.#state, this.#version);
    return () => this.#stateListeners.delete(listener);
  }

  /**
   * Calls `listener(status)` on every status change, and right away with the current one.
   * @param {(status: string) => void} listener Gets one of {@link Status}.
   * @returns {() => void} A function that stops the calls.
   */
  onStatus(listener) {
    this.#statusListeners.add(listener);
    call(listener, this.#status);
    return () => this.#statusListeners.delete(listener);
  }

  /**
   * Calls `listener(count)` whenever {@link StoreHostClient#pendingCount} changes, and right
   * away with the current count.
   * @param {(count: number) => void} listener
   * @returns {() => void} A function that stops the calls.
   */
  onPending(listener) {
    this.#pendingListeners.add(listener);
    call(listener, this.#queue.length);
    return () => this.#pendingListeners.delete(listener);
  }

  /**
   * Calls `listener(presence)` with each {@link Presence} the server sends (only with
   * `presence: true`), with `null` when the stream closes, and right away with the current one.
   * @param {(presence: Presence|null) => void} listener
   * @returns {() => void} A function that stops the calls.
   */
  onPresence(listener) {
    this.#presenceListeners.add(listener);
    call(listener, this.#presence);
    return () => this.#presenceListeners.delete(listener);
  }

  /**
   * Calls `listener(event)` with everything the client receives, in arrival order: the
   * raw material of a debugging view. Pass `log: true` to the constructor to get actions.
   * @param {(event: ClientEvent) => void} listener
   * @returns {() => void} A function that stops the calls.
   */
  onEvent(listener) {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  /**
   * Waits until the state has reached `version` (for example one returned by `send`).
   * @param {number} version
   * @returns {Promise<any>} The state at `version` or later.
   */
  waitForVersion(version) {
    return new Promise((resolve) => {
      const stop = this.subscribe((state, current) => {
        if (current >= version) {
          queueMicrotask(() => stop());
          resolve(state);
        }
      });
    });
  }

  /**
   * Leaves the current session and starts a new one in this tab. The old session is ended
   * on the server (its effects stop) unless another tab of this browser still shows it, or
   * it has ended already; tabs showing it keep it. Sends still queued for the old session
   * are rejected (code `session_replaced`).
   * @returns {Promise<void>}
   */
  async startNewSession() {
    const old = this.#status === Status.ended ? null : this.#sessionId;
    // Stop following it first: the server ends its events on delete, and that is no error.
    const leaving = this.#watchID ? this.#link.leave(this.#watchID) : Promise.resolve(0);
    this.#watchID = null;
    this.#abandon();
    this.#rejectQueue(new StoreHostError("A new session was started before this action was sent.", { code: "session_replaced" }));
    this.#sessionId = null;
    this.#endedBy = null;
    this.#setStatus(Status.connecting);
    if (old && (await leaving) === 0) {
      try {
        await this.#request("DELETE", `/api/sessions/${encodeURIComponent(old)}`);
      } catch (error) {
        if (!isGone(error)) {
          this.#sessionId = old; // keep following the old session
          this.#watch();
          throw error;
        }
      }
    }
    await this.#recover(null, { waitFirst: false });
  }

  /** Stops watching the session and rejects queued sends; status becomes `closed`. */
  close() {
    this.#abandon();
    if (typeof window !== "undefined") {
      window.removeEventListener("online", this.#onOnline);
      window.removeEventListener("pagehide", this.#onPageHide);
      window.removeEventListener("pageshow", this.#onPageShow);
    }
    this.#rejectQueue(new StoreHostError("The client was closed before this action was sent.", { code: "not_connected" }));
    this.#setStatus(Status.closed);
  }

  // MARK: Session

  /** Finds (or, without an id, creates) a session, adopts it and watches it, retrying with backoff. */
  #recover(sessionId, { waitFirst }) {
    const generation = this.#generation;
    if (this.#recovery?.generation === generation) return this.#recovery.done;
    const current = () => generation === this.#generation;
    const done = (async () => {
      let wait = waitFirst;
      while (current()) {
        if (wait) await this.#sleep(this.#delay(this.#attempt++));
        if (!current()) return;
        wait = true;
        let session;
        try {
          session = sessionId
            ? await this.#request("GET", `/api/sessions/${encodeURIComponent(sessionId)}`)
            : { ...(await this.#request("POST", "/api/sessions")), created: true };
        } catch (error) {
          if (current() && isGone(error)) this.#end(error);
          continue; // otherwise unreachable, draining or at capacity: try again after the next delay
        }
        if (!current()) return;
        this.#adopt(session);
        this.#watch();
        return;
      }
    })().finally(() => {
      if (this.#recovery?.done === done) this.#recovery = null;
    });
    this.#recovery = { generation, done };
    return done;
  }

  /** Takes `session` (`{id, version, state}`) as the current session or a newer version of it. */
  #adopt(session) {
    if (session.id !== this.#sessionId) {
      this.#sessionId = session.id;
      this.#remember(session.id);
      this.#version = null;
      this.#emitEvent({ type: "session", id: session.id, created: Boolean(session.created) });
    }
    // Always the server's state: normally the same version or newer; older, or another
    // state at the same version, only if the server lost versions (see #receiveState).
    this.#emitEvent({ type: "state", version: session.version, state: session.state });
    this.#setState(session.state, session.version);
  }

  /** The session is gone: stop following it and refuse its sends. It is never replaced unasked. */
  #end(error) {
    this.#abandon();
    this.#endedBy = error;
    this.#setStatus(Status.ended);
    this.#rejectQueue(error);
  }

  /** Stops watching and any recovery under way. */
  #abandon() {
    this.#generation += 1;
    this.#unwatch();
    this.#wakeUp?.();
  }

  /** The session id from the URL, else from sessionStorage, else `null`. */
  #requestedSessionId() {
    const { urlParameter, storageKey } = this.#options;
    if (urlParameter && typeof location !== "undefined") {
      const fromURL = new URL(location.href).searchParams.get(urlParameter);
      if (fromURL) return fromURL;
    }
    if (storageKey) {
      try {
        return globalThis.sessionStorage?.getItem(storageKey) ?? null;
      } catch {
        return null; // storage disabled: every load starts a session
      }
    }
    return null;
  }

  /** Keeps `id` in sessionStorage, and in the URL if the URL named a session. */
  #remember(id) {
    const { urlParameter, storageKey } = this.#options;
    if (storageKey) {
      try {
        globalThis.sessionStorage?.setItem(storageKey, id);
      } catch {
        // storage disabled: nothing to keep
      }
    }
    if (urlParameter && typeof location !== "undefined" && typeof history !== "undefined") {
      const url = new URL(location.href);
      if (url.searchParams.has(urlParameter) && url.searchParams.get(urlParameter) !== id) {
        url.searchParams.set(urlParameter, id);
        history.replaceState(history.state, "", url);
      }
    }
  }

  // MARK: Event stream

  /** Watches the session on the browser's shared stream, from the version the client has. */
  #watch() {
    if (this.#watchID) return;
    this.#link ??= hubLink(this.#options);
    this.#watchID = this.#link.newClientID();
    const id = this.#watchID;
    this.#link.watch(id, () => this.#watchRequest(), (message) => {
      if (this.#watchID === id) this.#receive(message);
    });
  }

  /** What the hub needs to watch the session for this client, as it is now. */
  #watchRequest() {
    const { patches, log, presence } = this.#options;
    return { session: this.#sessionId, version: this.#version, patches, log, presence };
  }

  #unwatch() {
    if (this.#watchID) this.#link.unwatch(this.#watchID);
    this.#watchID = null;
    this.#setPresence(null);
  }

  /** A message of the hub about this client's session. */
  #receive(message) {
    switch (message.type) {
      case "status":
        if (message.status === Status.open) {
          this.#attempt = 0;
          this.#setStatus(Status.open);
          // Other tabs watched the session meanwhile: the events before now went to them.
          if (typeof message.version === "number" && message.version > this.#version) this.#resync();
        } else if (this.#status !== Status.closed && this.#status !== Status.ended) {
          this.#setPresence(null);
          this.#setStatus(this.#hasOpened ? Status.reconnecting : Status.connecting);
        }
        break;
      case "event": {
        const event = { data: message.data };
        if (message.event === "state") this.#receiveState(event);
        else if (message.event === "patch") this.#receivePatch(event);
        else if (message.event === "action") this.#receiveAction(event);
        else if (message.event === "presence") this.#receivePresence(event);
        break;
      }
      case "dropped": {
        this.#watchID = null; // the hub forgot it
        const error = new StoreHostError(message.message, { status: message.status, code: message.code });
        if (isGone(error)) this.#end(error);
        else this.#watch();
        break;
      }
    }
  }

  #receiveState(event) {
    const data = parseJSON(event.data);
    if (!data || typeof data.version !== "number") return this.#resync();
    this.#emitEvent({ type: "state", version: data.version, state: data.state });
    // A full state is always the server's state, even at a version the client has: after a
    // crash the server may have lost versions a client saw, and then sends what it has.
    if (data.version < this.#version) console.warn(`StoreHost: the server went back from version ${this.#version} to ${data.version}.`);
    this.#setState(data.state, data.version);
  }

  #receivePatch(event) {
    const data = parseJSON(event.data);
    if (!data || typeof data.version !== "number" || !Array.isArray(data.ops)) return this.#resync();
    this.#emitEvent({ type: "patch", version: data.version, from: data.from, ops: data.ops });
    if (data.version <= this.#version) return;
    if (data.from !== this.#version) return this.#resync();
    let next;
    try {
      next = applyPatch(this.#state, data.ops);
    } catch (error) {
      console.warn("StoreHost: a patch did not apply; asking for the full state.", error);
      return this.#resync();
    }
    this.#setState(next, data.version);
  }

  #receiveAction(event) {
    const data = parseJSON(event.data);
    if (data) this.#emitEvent({ type: "action", action: data.action });
  }

  #receivePresence(event) {
    const data = parseJSON(event.data);
    if (typeof data?.session === "number" && typeof data.everyone === "number") {
      this.#setPresence({ session: data.session, everyone: data.everyone });
    }
  }

  /** Reads the session's latest state (`GET`), when the events no longer lead from the state the client has. */
  async #resync() {
    if (this.#resyncing) return;
    this.#resyncing = true;
    const generation = this.#generation;
    try {
      while (generation === this.#generation) {
        try {
          const session = await this.#request("GET", `/api/sessions/${encodeURIComponent(this.#sessionId)}`);
          if (generation === this.#generation) this.#adopt(session);
          return;
        } catch (error) {
          if (generation !== this.#generation) return;
          if (isGone(error)) return this.#end(error);
          await this.#sleep(this.#delay(this.#attempt++));
        }
      }
    } finally {
      this.#resyncing = false;
    }
  }

  // MARK: Sends

  /** Sends the queue's head until the queue is empty, one request at a time. */
  async #drain() {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        const entry = this.#queue[0];
        const id = this.#sessionId;
        if (!id) {
          await this.#pause(Infinity); // until a session is adopted and its stream opens
          continue;
        }
        let answer;
        let failure;
        try {
          answer = await this.#request("POST", `/api/sessions/${encodeURIComponent(id)}/actions`, entry.body, {
            "Idempotency-Key": entry.key,
          });
        } catch (error) {
          failure = error;
        }
        if (this.#queue[0] !== entry) continue; // rejected meanwhile: the session ended or was replaced
        if (!failure) {
          this.#sendAttempt = 0;
          this.#dequeue().resolve(answer.version);
        } else if (isGone(failure)) {
          this.#end(failure);
        } else {
          const wait = this.#retryDelay(failure);
          if (wait === null) this.#dequeue().reject(failure);
          else await this.#pause(wait);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /** Milliseconds to wait before sending a failed request again with its key, or `null` to give it up. */
  #retryDelay(error) {
    // While the stream is open the server is reachable: a request that did not get through
    // (or whose answer was lost) is tried again soon, not after the backoff of an outage.
    if (error.status === 0 && this.#status === Status.open) return this.#delay(0);
    if (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504) {
      return this.#delay(this.#sendAttempt++);
    }
    this.#sendAttempt = 0;
    if (error.status === 429 || error.code === "idempotency_key_in_use") return (error.retryAfter ?? 1) * 1000;
    return null;
  }

  /** Resolves after `ms`, or sooner when the stream opens or the client stops following the session. */
  #pause(ms) {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.#statusListeners.delete(onStatus);
        resolve();
      };
      const onStatus = (status) => {
        if (status === Status.open || status === Status.ended || status === Status.closed) finish();
      };
      const timer = Number.isFinite(ms) ? setTimeout(finish, ms) : undefined;
      this.#statusListeners.add(onStatus);
    });
  }

  /** Takes the answered head off the queue and returns it. */
  #dequeue() {
    const entry = this.#queue.shift();
    this.#pendingChanged();
    return entry;
  }

  #rejectQueue(error) {
    const entries = this.#queue.splice(0);
    if (entries.length === 0) return;
    this.#pendingChanged();
    for (const entry of entries) entry.reject(error);
  }

  // MARK: Backoff

  /** The reconnection delay after `attempt` failures: exponential, capped, with "equal jitter" (half random). */
  #delay(attempt) {
    return backoff(attempt, this.#options);
  }

  /** Sleeps `ms`, or less if the browser comes back online or the client stops. */
  #sleep(ms) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakeUp = done;
    }).finally(() => {
      this.#wakeUp = null;
    });
  }

  #onOnline = () => {
    this.#attempt = 0;
    this.#wakeUp?.();
    this.#link?.online();
  };

  // A page kept in the back/forward cache must not watch (it would count as a tab watching,
  // and keep its session on the stream): it stops when the page is put away, and watches
  // again from the last version when the page is shown again.
  #onPageHide = (event) => {
    if (event.persisted) this.#unwatch();
  };

  #onPageShow = (event) => {
    if (event.persisted && this.#sessionId && this.#status !== Status.closed && this.#status !== Status.ended) this.#watch();
  };

  // MARK: Requests

  /** Sends `body` (JSON text, if any); resolves to the answer's JSON or throws a {@link StoreHostError}. */
  async #request(method, path, body, extraHeaders = {}) {
    const headers = { Accept: "application/json", ...extraHeaders };
    const init = { method, headers, credentials: this.#options.baseURL ? "include" : "same-origin" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = body;
    }
    let response;
    try {
      response = await fetch(this.#url(path), init);
    } catch (cause) {
      throw new StoreHostError("The server cannot be reached.", { cause });
    }
    // The server answers again: the shared stream need not wait out its backoff.
    if (this.#status === Status.reconnecting) this.#link?.online();
    const text = await response.text().catch(() => "");
    const json = text ? parseJSON(text) : null;
    if (!response.ok) {
      const message = json?.error?.message ?? `The server answered ${response.status}.`;
      const retryAfter = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
      throw new StoreHostError(message, {
        status: response.status,
        code: json?.error?.code ?? "http_error",
        retryAfter: retryAfter >= 0 ? retryAfter : null,
      });
    }
    return json;
  }

  #url(path) {
    return this.#options.baseURL ? new URL(path, this.#options.baseURL).href : path;
  }

  // MARK: Notifying

  #setState(state, version) {
    this.#state = state;
    this.#version = version;
    for (const listener of [...this.#stateListeners]) call(listener, state, version);
  }

  #setStatus(status) {
    if (status === this.#status) return;
    this.#status = status;
    if (status === Status.open) this.#hasOpened = true;
    for (const listener of [...this.#statusListeners]) call(listener, status);
  }

  #pendingChanged() {
    for (const listener of [...this.#pendingListeners]) call(listener, this.#queue.length);
  }

  #setPresence(presence) {
    if (presence === null && this.#presence === null) return;
    this.#presence = presence;
    for (const listener of [...this.#presenceListeners]) call(listener, presence);
  }

  #emitEvent(event) {
    if (this.#eventListeners.size === 0) return;
    const stamped = { ...event, receivedAt: new Date() };
    for (const listener of [...this.#eventListeners]) call(listener, stamped);
  }
}

// MARK: The shared stream

/** This tab's links to hubs, one per server (`baseURL`). */
const links = new Map();

/** The link of this tab to the hub of the server `options.baseURL`, made by the first client. */
function hubLink(options) {
  let link = links.get(options.baseURL);
  if (!link) {
    link = new HubLink(options);
    links.set(options.baseURL, link);
  }
  return link;
}

/**
 * How a tab's clients reach the browser's hub (stream-hub.js): a SharedWorker where there is
 * one; else a hub in one tab elected leader (Web Locks), which the others reach over a
 * BroadcastChannel; else a hub of the tab's own. Each watch is kept, so that it can be made
 * again when the hub changes (a worker that failed to start, a new leader).
 */
class HubLink {
  /** A random id, unique among the browser's tabs; the ids of its clients start with it. */
  tab = newKey();
  #options;
  #name;
  #counter = 0;
  #refs = 0;
  #transport;
  /** client id -> {request: () => watch, listener} */
  #watches = new Map();
  /** ref -> resolve, for `leave` */
  #leaving = new Map();

  constructor(options) {
    const { baseURL, initialDelay, maxDelay, stableAfter } = options;
    this.#options = { baseURL, initialDelay, maxDelay, stableAfter };
    const server = baseURL || (typeof location === "undefined" ? "" : location.origin);
    // Tabs share a hub when they speak the same hub protocol to the same server.
    this.#name = `storehost-hub-v${hubProtocol} ${server}`;
    this.#transport = this.#connect();
  }

  newClientID() {
    return `${this.tab}/${++this.#counter}`;
  }

  /** Watches `request()` for `client`; the hub's messages go to `listener`. */
  watch(client, request, listener) {
    this.#watches.set(client, { request, listener });
    this.#transport.send({ type: "watch", client, ...request() });
  }

  unwatch(client) {
    this.#watches.delete(client);
    this.#transport.send({ type: "unwatch", client });
  }

  /**
   * Stops `client`'s watch.
   * @returns {Promise<number|null>} How many clients of this browser still watch its session,
   *   or `null` if the hub did not say within two seconds.
   */
  leave(client) {
    this.#watches.delete(client);
    const ref = ++this.#refs;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#leaving.delete(ref) && resolve(null), 2000);
      this.#leaving.set(ref, (others) => {
        clearTimeout(timer);
        resolve(others);
      });
      this.#transport.send({ type: "unwatch", client, ref });
    });
  }

  online() {
    this.#transport.send({ type: "online" });
  }

  /** A message of the hub for one of this tab's clients. */
  deliver(message) {
    if (message?.type === "left") {
      this.#leaving.get(message.ref)?.(message.others);
      this.#leaving.delete(message.ref);
    } else {
      this.#watches.get(message?.to)?.listener(message);
    }
  }

  /** Makes every watch of this tab again, at the hub there is now. */
  rewatch() {
    for (const [client, { request }] of this.#watches) this.#transport.send({ type: "watch", client, ...request() });
  }

  #connect() {
    if (typeof SharedWorker === "function") {
      try {
        return new WorkerTransport(this, this.#name, this.#options, () => {
          this.#transport = this.#fallback();
          this.rewatch();
        });
      } catch {
        // A worker of this script cannot start here (module workers unsupported, say).
      }
    }
    return this.#fallback();
  }

  #fallback() {
    if (typeof BroadcastChannel === "function" && globalThis.navigator?.locks) {
      return new LeaderTransport(this, this.#name, this.#options);
    }
    return new LocalTransport(this, new StreamHub(this.#options));
  }
}

/** A hub in this tab, for this tab's clients. */
class LocalTransport {
  #link;
  #hub;

  constructor(link, hub) {
    this.#link = link;
    this.#hub = hub;
  }

  send(message) {
    serve(this.#hub, message, (client) => (reply) => queueMicrotask(() => this.#link.deliver({ ...reply, to: client })));
  }
}

/** The hub in the browser's SharedWorker. */
class WorkerTransport {
  #port;

  constructor(link, name, options, failed) {
    const worker = new SharedWorker(new URL("./stream-worker.js", import.meta.url), { type: "module", name });
    // Fired when the worker's script cannot load or run: the tab falls back.
    worker.addEventListener("error", failed, { once: true });
    this.#port = worker.port;
    this.#port.onmessage = ({ data }) => link.deliver(data);
    this.#port.start();
    this.#port.postMessage({ type: "init", options });
    const lock = `${name} tab ${link.tab}`;
    holdForLife(lock).then((held) => {
      if (held) this.#port.postMessage({ type: "hello", tab: link.tab, lock });
    });
    addEventListener("pagehide", (event) => {
      if (!event.persisted) this.#port.postMessage({ type: "bye", tab: link.tab });
    });
  }

  send(message) {
    this.#port.postMessage(message);
  }
}

/**
 * The hub in the tab that holds the leader lock. The other tabs' messages reach it over a
 * BroadcastChannel, and its answers go back the same way, addressed to their clients. When
 * the leader goes (its lock is released with its page), the next tab in line takes the
 * lock, starts a hub, and says so: every tab watches again, from the versions it has.
 */
class LeaderTransport {
  #link;
  #options;
  #channel;
  #hub = null;
  #lockName;
  #leaderLock;
  #candidacy = null; // aborts the wait for the leader lock
  #resign = null; // releases the leader lock

  constructor(link, name, options) {
    this.#link = link;
    this.#options = options;
    this.#lockName = `${name} tab ${link.tab}`;
    this.#leaderLock = `${name} leader`;
    this.#channel = new BroadcastChannel(name);
    this.#channel.onmessage = ({ data }) => {
      if (data?.type === "to-hub") {
        if (this.#hub) this.#serve(data.message);
      } else if (data?.type === "leader") {
        this.#hello();
        link.rewatch();
      } else {
        link.deliver(data);
      }
    };
    holdForLife(this.#lockName).then(() => this.#hello());
    addEventListener("pagehide", (event) => {
      if (event.persisted) this.#stepDown();
      else if (!this.#hub) this.send({ type: "bye", tab: link.tab });
    });
    addEventListener("pageshow", (event) => {
      if (event.persisted) this.#standForLeader();
    });
    this.#standForLeader();
  }

  send(message) {
    if (this.#hub) this.#serve(message);
    else this.#channel.postMessage({ type: "to-hub", message });
  }

  /** Waits in line for the leader lock; leads, with a hub of its own, while it holds it. */
  #standForLeader() {
    this.#candidacy = new AbortController();
    navigator.locks
      .request(this.#leaderLock, { signal: this.#candidacy.signal }, () => {
        this.#hub = new StreamHub(this.#options);
        this.#link.rewatch();
        this.#channel.postMessage({ type: "leader" });
        return new Promise((resign) => (this.#resign = resign));
      })
      .catch(() => {}); // the wait was aborted: the page was put away
  }

  /**
   * A page put in the back/forward cache neither leads nor waits to: its hub stops, and the
   * next tab in line takes over. It stands again when it is shown.
   */
  #stepDown() {
    this.#candidacy?.abort();
    this.#hub?.close();
    this.#hub = null;
    this.#resign?.();
    this.#resign = null;
  }

  /** Runs a message for the hub here; answers go to this tab's clients directly, others' over the channel. */
  #serve(message) {
    if (message.type === "hello") {
      navigator.locks.request(message.lock, () => this.#hub?.unwatchAll(`${message.tab}/`));
      return;
    }
    serve(this.#hub, message, (client) => (reply) => {
      const addressed = { ...reply, to: client };
      if (client.startsWith(`${this.#link.tab}/`)) queueMicrotask(() => this.#link.deliver(addressed));
      else this.#channel.postMessage(addressed);
    });
  }

  /** Tells the leader (if any, and not this tab) which lock this tab holds while it lives. */
  #hello() {
    if (!this.#hub) this.#channel.postMessage({ type: "to-hub", message: { type: "hello", tab: this.#link.tab, lock: this.#lockName } });
  }
}

/**
 * Holds the Web Lock `name` until the page goes away (closed, crashed, discarded), so that
 * whoever asks for it next learns the page is gone.
 * @returns {Promise<boolean>} Resolves once it is held; `false` without Web Locks.
 */
function holdForLife(name) {
  if (!globalThis.navigator?.locks) return Promise.resolve(false);
  return new Promise((held) => {
    navigator.locks.request(name, () => {
      held(true);
      return new Promise(() => {});
    });
  });
}

/** 401 (no valid token here) or 404 (ended, evicted): the session is gone for this client. */
function isGone(error) {
  return error.status === 401 || error.status === 404;
}

/** A fresh `Idempotency-Key`: a random UUID, or 32 random hex digits where `randomUUID` is missing (insecure origins). */
function newKey() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
