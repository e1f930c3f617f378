// StoreHost browser client: one session per tab, its state kept live over Server-Sent Events.
//
// A dependency-free ES module; import it straight from the server:
//
//   import { StoreHostClient } from "/storehost.js";
//
//   const client = new StoreHostClient();
//   client.onStatus((status) => console.log("stream is", status));
//   client.subscribe((state, version) => render(state));
//   await client.connect();
//   const version = await client.send({ counter: "incrementButtonTapped" });
//
// The wire protocol it speaks is described in DESIGN.md ("Wire protocol, version 1").

import { applyPatch } from "./json-patch.js";

export { applyPatch, jsonEqual, parsePointer, PatchError } from "./json-patch.js";

/**
 * The connection states a client reports through {@link StoreHostClient#onStatus}.
 *
 * - `connecting`: creating or resuming the session and opening the first stream.
 * - `open`: the event stream is open; state changes arrive as they happen.
 * - `reconnecting`: the stream closed on an error; the client waits (exponential backoff
 *   with jitter) and reopens it. Sends made meanwhile wait in the queue.
 * - `ended`: the session is gone: it ended or was evicted (404), or this browser holds no
 *   token for it (401). The client never replaces it by itself: its queued sends are
 *   rejected, and {@link StoreHostClient#startNewSession} begins a new one.
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
 * @property {boolean} [presence=false] Ask for `event: presence`: how many streams watch
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
 * @param {number} version The state's version; it grows by one with every change.
 */

/**
 * @typedef {object} Presence Who watches, as the server last said.
 * @property {number} session Event streams open on this session (tabs showing it).
 * @property {number} everyone Session event streams open on the whole server.
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
 * session). It then opens one event stream and keeps it open: when the stream fails, it
 * retries with exponential backoff and jitter, resuming from the last version it saw. When
 * the session is gone, the status becomes `ended` until `startNewSession()`.
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
  #stream = null;
  #attempt = 0;
  #stableTimer = null;
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
   * Ends the current session on the server (its effects stop; unless it has ended already)
   * and starts a new one. Sends still queued for the old session are rejected (code
   * `session_replaced`).
   * @returns {Promise<void>}
   */
  async startNewSession() {
    const old = this.#status === Status.ended ? null : this.#sessionId;
    // Stop following it first: the server ends the stream on delete, and that is no error to recover from.
    this.#abandon();
    this.#rejectQueue(new StoreHostError("A new session was started before this action was sent.", { code: "session_replaced" }));
    this.#sessionId = null;
    this.#endedBy = null;
    this.#setStatus(Status.connecting);
    if (old) {
      try {
        await this.#request("DELETE", `/api/sessions/${encodeURIComponent(old)}`);
      } catch (error) {
        if (!isGone(error)) {
          this.#sessionId = old; // keep following the old session
          this.#streamFailed();
          throw error;
        }
      }
    }
    await this.#recover(null, { waitFirst: false });
  }

  /** Closes the event stream, stops reconnecting and rejects queued sends; status becomes `closed`. */
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

  /** Finds (or, without an id, creates) a session, adopts it and opens its stream, retrying with backoff. */
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
        this.#openStream();
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
    // Normally the same or newer; older only if the server lost versions (see #receiveState).
    if (session.version !== this.#version) {
      this.#emitEvent({ type: "state", version: session.version, state: session.state });
      this.#setState(session.state, session.version);
    }
  }

  /** The session is gone: stop following it and refuse its sends. It is never replaced unasked. */
  #end(error) {
    this.#abandon();
    this.#endedBy = error;
    this.#setStatus(Status.ended);
    this.#rejectQueue(error);
  }

  /** Stops the stream and any recovery under way. */
  #abandon() {
    this.#generation += 1;
    this.#dropStream();
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

  #openStream({ snapshot = false } = {}) {
    this.#dropStream();
    const query = new URLSearchParams();
    if (this.#options.patches) query.set("patch", "1");
    if (this.#options.log) query.set("log", "1");
    if (this.#options.presence) query.set("presence", "1");
    if (!snapshot && this.#version !== null) query.set("lastEventId", String(this.#version));
    const path = `/api/sessions/${encodeURIComponent(this.#sessionId)}/events?${query}`;
    const stream = new EventSource(this.#url(path), { withCredentials: this.#options.baseURL !== "" });
    this.#stream = stream;
    const current = (handler) => (event) => {
      if (this.#stream === stream) handler(event);
    };
    stream.onopen = current(() => {
      this.#setStatus(Status.open);
      clearTimeout(this.#stableTimer);
      this.#stableTimer = setTimeout(() => (this.#attempt = 0), this.#options.stableAfter);
    });
    // EventSource retries by itself only after some errors and gives up after any non-200
    // answer; closing it on every error keeps one retry policy (ours) for all of them.
    stream.onerror = current(() => this.#streamFailed());
    stream.addEventListener("state", current((event) => this.#receiveState(event)));
    stream.addEventListener("patch", current((event) => this.#receivePatch(event)));
    stream.addEventListener("action", current((event) => this.#receiveAction(event)));
    stream.addEventListener("presence", current((event) => this.#receivePresence(event)));
  }

  #dropStream() {
    clearTimeout(this.#stableTimer);
    if (this.#stream) {
      this.#stream.close();
      this.#stream = null;
    }
    this.#setPresence(null);
  }

  /** The stream closed on an error: wait, then reopen it (or find out the session is gone). */
  #streamFailed() {
    this.#dropStream();
    if (this.#status === Status.closed || this.#status === Status.ended) return;
    this.#setStatus(this.#hasOpened ? Status.reconnecting : Status.connecting);
    this.#recover(this.#sessionId, { waitFirst: true });
  }

  #receiveState(event) {
    const data = parseJSON(event.data);
    if (!data || typeof data.version !== "number") return this.#resync();
    this.#attempt = 0;
    this.#emitEvent({ type: "state", version: data.version, state: data.state });
    if (data.version === this.#version) return; // the state shown already
    // Versions only grow, so the server sends an older full state only when it lost the
    // versions after it (a crash before they were saved): the server's state wins.
    if (data.version < this.#version) console.warn(`StoreHost: the server went back from version ${this.#version} to ${data.version}.`);
    this.#setState(data.state, data.version);
  }

  #receivePatch(event) {
    const data = parseJSON(event.data);
    if (!data || typeof data.version !== "number" || !Array.isArray(data.ops)) return this.#resync();
    this.#attempt = 0;
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

  /** Reopens the stream without a version, so the server sends the full latest state. */
  #resync() {
    this.#openStream({ snapshot: true });
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
    const { initialDelay, maxDelay } = this.#options;
    const ceiling = Math.min(maxDelay, initialDelay * 2 ** Math.min(attempt, 30));
    return ceiling / 2 + Math.random() * (ceiling / 2);
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
  };

  // A page kept in the back/forward cache must not hold its stream open (it would count as
  // a tab watching, and take one of the session's streams): closed when the page is put
  // away, reopened from the last version when it is shown again.
  #onPageHide = (event) => {
    if (event.persisted) this.#dropStream();
  };

  #onPageShow = (event) => {
    if (event.persisted && this.#status === Status.open && !this.#stream) this.#openStream();
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

/** 401 (no valid token here) or 404 (ended, evicted): the session is gone for this client. */
function isGone(error) {
  return error.status === 401 || error.status === 404;
}

/** A fresh `Idempotency-Key`: a random UUID, or 32 random hex digits where `randomUUID` is missing (insecure origins). */
function newKey() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function call(listener, ...args) {
  try {
    listener(...args);
  } catch (error) {
    // One broken listener must not stop the others or the client.
    if (typeof reportError === "function") reportError(error);
    else console.error(error);
  }
}

function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
