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
 *   with jitter) and reopens it, or creates a new session if the old one is gone.
 * - `closed`: {@link StoreHostClient#close} was called, or {@link StoreHostClient#connect}
 *   not yet.
 * @readonly
 * @enum {string}
 */
export const Status = Object.freeze({
  connecting: "connecting",
  open: "open",
  reconnecting: "reconnecting",
  closed: "closed",
});

/**
 * An error answered by the server (`{"error": {"code", "message"}}`), or a failure to reach it.
 * `message` is the server's own sentence, fit to show to a user.
 */
export class StoreHostError extends Error {
  /**
   * @param {string} message What went wrong, in one sentence.
   * @param {{status?: number, code?: string, cause?: unknown}} [details]
   *   `status`: the HTTP status (0 when the server could not be reached);
   *   `code`: the server's snake_case error code, or `network_error`.
   */
  constructor(message, { status = 0, code = "network_error", cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "StoreHostError";
    /** The HTTP status, or 0 when the server could not be reached. */
    this.status = status;
    /** The server's error code (such as `invalid_action`), or `network_error`. */
    this.code = code;
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
 * @property {string|null} [storageKey="storehost.session"] The localStorage key that keeps
 *   the session id across reloads; `null` keeps nothing.
 * @property {string|null} [urlParameter="session"] A query parameter that names the session
 *   to resume (`?session=ID`); it wins over localStorage. `null` ignores the URL.
 * @property {number} [initialDelay=500] First reconnection delay in milliseconds.
 * @property {number} [maxDelay=10000] Longest reconnection delay in milliseconds.
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
 * `connect()` resumes the session named by `?session=` or kept in localStorage, or creates
 * a new one (the server keeps its token in an HttpOnly cookie). It then opens one event
 * stream and keeps it open: when the stream fails, it retries with exponential backoff and
 * jitter, resuming from the last version it saw; when the session is gone, it creates a
 * new one. Use one client per tab.
 */
export class StoreHostClient {
  #options;
  #sessionId = null;
  #state = undefined;
  #version = null;
  #status = Status.closed;
  #hasOpened = false;

  #stream = null;
  #attempt = 0;
  #stableTimer = null;
  #wakeUp = null;
  #recovering = null;
  #ready = null;
  #sendQueue = Promise.resolve();

  #stateListeners = new Set();
  #statusListeners = new Set();
  #eventListeners = new Set();

  /** @param {ClientOptions} [options] */
  constructor(options = {}) {
    this.#options = {
      baseURL: "",
      patches: true,
      log: false,
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

  /**
   * Resumes or creates the session and opens its event stream. Safe to call more than
   * once: later calls return the first call's promise. If the server cannot be reached it
   * keeps trying (status `connecting`) and resolves once it can.
   * @returns {Promise<{id: string, version: number, state: any}>} The session as first seen.
   */
  connect() {
    if (this.#ready && this.#status !== Status.closed) return this.#ready;
    if (typeof window !== "undefined") window.addEventListener("online", this.#onOnline);
    this.#setStatus(Status.connecting);
    this.#ready = this.#recover(this.#requestedSessionId(), { waitFirst: false }).then(() => ({
      id: this.#sessionId,
      version: this.#version,
      state: this.#state,
    }));
    return this.#ready;
  }

  /**
   * Sends one action, or an array of actions applied in order (all or none). Sends leave
   * in the order they were made, each after the previous one was answered, so a binding
   * followed by a button tap reaches the reducer in that order.
   * @param {any} action An action in its JSON form, such as `{counter: "incrementButtonTapped"}`.
   * @returns {Promise<number>} The session's version once the reducer ran the action(s).
   *   Rejects with a {@link StoreHostError} carrying the server's message (an unknown
   *   action, a rate limit, ...).
   */
  send(action) {
    const attempt = this.#sendQueue.then(() => this.#post(action));
    this.#sendQueue = attempt.catch(() => {});
    return attempt;
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
   * Ends the current session on the server (its effects stop) and starts a new one.
   * @returns {Promise<void>}
   */
  async startNewSession() {
    const old = this.#sessionId;
    // Close the stream first: the server ends it on delete, and that is no error to recover from.
    this.#dropStream();
    if (old) {
      try {
        await this.#request("DELETE", `/api/sessions/${encodeURIComponent(old)}`);
      } catch (error) {
        if (!(error instanceof StoreHostError) || error.status !== 404) {
          this.#streamFailed(); // keep following the old session
          throw error;
        }
      }
    }
    this.#sessionId = null;
    this.#setStatus(Status.connecting);
    await this.#recover(null, { waitFirst: false });
  }

  /** Closes the event stream and stops reconnecting; status becomes `closed`. */
  close() {
    this.#dropStream();
    if (typeof window !== "undefined") window.removeEventListener("online", this.#onOnline);
    this.#wakeUp?.();
    this.#setStatus(Status.closed);
  }

  // MARK: Session

  /** Finds or creates a session, adopts it and opens its stream, retrying with backoff. */
  #recover(sessionId, { waitFirst }) {
    if (this.#recovering) return this.#recovering;
    this.#recovering = (async () => {
      const candidate = sessionId;
      let wait = waitFirst;
      while (this.#status !== Status.closed) {
        if (wait) await this.#sleep(this.#nextDelay());
        if (this.#status === Status.closed) return;
        wait = true;
        try {
          const session = await this.#resumeOrCreate(candidate);
          if (this.#status === Status.closed) return;
          this.#adopt(session);
          this.#openStream();
          return;
        } catch {
          // Unreachable, draining or at capacity: try again after the next delay.
        }
      }
    })().finally(() => {
      this.#recovering = null;
    });
    return this.#recovering;
  }

  /** `GET` the session named `id`, or `POST` a new one when there is none or it is gone. */
  async #resumeOrCreate(id) {
    if (id) {
      try {
        return await this.#request("GET", `/api/sessions/${encodeURIComponent(id)}`);
      } catch (error) {
        // 404: ended or evicted; 401: this browser holds no token for it (another
        // browser's link, or the server's secret changed). Either way, start afresh.
        if (!(error instanceof StoreHostError) || ![400, 401, 404].includes(error.status)) throw error;
      }
    }
    const created = await this.#request("POST", "/api/sessions");
    created.created = true;
    return created;
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

  /** The session id from the URL, else from localStorage, else `null`. */
  #requestedSessionId() {
    const { urlParameter, storageKey } = this.#options;
    if (urlParameter && typeof location !== "undefined") {
      const fromURL = new URL(location.href).searchParams.get(urlParameter);
      if (fromURL) return fromURL;
    }
    if (storageKey) {
      try {
        return globalThis.localStorage?.getItem(storageKey) ?? null;
      } catch {
        return null; // storage disabled: every load starts a session
      }
    }
    return null;
  }

  /** Keeps `id` in localStorage, and in the URL if the URL named a session. */
  #remember(id) {
    const { urlParameter, storageKey } = this.#options;
    if (storageKey) {
      try {
        globalThis.localStorage?.setItem(storageKey, id);
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
  }

  #dropStream() {
    clearTimeout(this.#stableTimer);
    if (this.#stream) {
      this.#stream.close();
      this.#stream = null;
    }
  }

  /** The stream closed on an error: wait, then reopen it (or find out the session is gone). */
  #streamFailed() {
    this.#dropStream();
    if (this.#status === Status.closed) return;
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

  /** Reopens the stream without a version, so the server sends the full latest state. */
  #resync() {
    this.#openStream({ snapshot: true });
  }

  // MARK: Backoff

  /** The next reconnection delay: exponential, capped, with "equal jitter" (half random). */
  #nextDelay() {
    const { initialDelay, maxDelay } = this.#options;
    const ceiling = Math.min(maxDelay, initialDelay * 2 ** Math.min(this.#attempt, 30));
    this.#attempt += 1;
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** Sleeps `ms`, or less if the browser comes back online or the client closes. */
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

  // MARK: Requests

  async #post(action) {
    if (!this.#ready) throw new StoreHostError("Call connect() before send().", { code: "not_connected" });
    if (!this.#sessionId) await this.#ready;
    if (!this.#sessionId) await this.#recovering;
    const id = this.#sessionId;
    try {
      const answer = await this.#request("POST", `/api/sessions/${encodeURIComponent(id)}/actions`, action);
      return answer.version;
    } catch (error) {
      // The session ended under us: the stream will notice too, but start the recovery now.
      if (error instanceof StoreHostError && (error.status === 404 || error.status === 401) && id === this.#sessionId) {
        this.#streamFailed();
      }
      throw error;
    }
  }

  async #request(method, path, body) {
    const headers = { Accept: "application/json" };
    const init = { method, headers, credentials: this.#options.baseURL ? "include" : "same-origin" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
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
      throw new StoreHostError(message, { status: response.status, code: json?.error?.code ?? "http_error" });
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

  #emitEvent(event) {
    if (this.#eventListeners.size === 0) return;
    const stamped = { ...event, receivedAt: new Date() };
    for (const listener of [...this.#eventListeners]) call(listener, stamped);
  }
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
