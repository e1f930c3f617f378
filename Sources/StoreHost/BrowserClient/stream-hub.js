// The event stream a browser's tabs share. Browsers open at most six HTTP/1.1 connections
// per origin, and an event stream holds one for as long as it is open: one stream per tab
// would freeze a sixth tab's sends. So one hub per browser watches every session its tabs
// show, on one `GET /api/events` stream (one per 64 sessions), and hands each tab the events
// of its session. The hub lives in a SharedWorker (stream-worker.js), or in one tab elected
// leader, or, where a browser has neither, each tab runs its own (storehost.js picks).
//
// A hub knows nothing of how messages travel: it answers each client through the `reply`
// function it was given, and `serve` turns the messages of the tabs into calls.

/** Changes whenever the messages between tabs and the hub change (see `serve`). */
export const hubProtocol = 1;

/** The most sessions the server lets one stream watch. */
export const maxSessionsPerStream = 64;

/**
 * One browser's stream of its tabs' sessions. A client (one StoreHostClient of a tab, by an
 * id unique in the browser) watches one session at a time; it gets, through its `reply`:
 *
 * - `{type: "status", status, version}`: `connecting` (not yet open), `open` (its session's
 *   events flow), or `reconnecting` (the stream failed; the hub tries again with backoff);
 *   `version` is the latest version of the session the hub knows of (or `null`), so a client
 *   that joins behind it knows to read the state.
 * - `{type: "event", event, data}`: an event of its session (`state`, `patch`, `action` with
 *   `log`, `presence` with `presence`), `data` as the server sent it (JSON text). Presence
 *   counts the tabs of this browser, which share one stream, one by one.
 * - `{type: "dropped", status, code, message}`: the session cannot be watched any more (401
 *   or 404: this browser has no token for it, or it ended); the hub forgets the client.
 */
export class StreamHub {
  #options;
  /** client id -> {session, version, patches, log, presence, reply} */
  #clients = new Map();
  /** session id -> {version, ticket, expires, refusals, stream, presence} */
  #sessions = new Map();
  /** Open streams: {source, sessions: Set, opened} */
  #streams = [];
  /** The flags the streams were opened with, as a query string. */
  #flags = "";
  #attempt = 0;
  #timer = null;
  #retrying = false;
  #stableTimer = null;
  #opening = false;
  #dirty = false;
  #hasOpened = false;

  /**
   * @param {{baseURL?: string, initialDelay?: number, maxDelay?: number, stableAfter?: number, settle?: number}} [options]
   *   `settle`: milliseconds to wait after a change of the watched sessions before reopening,
   *   so tabs opened together cost one reconnection.
   */
  constructor(options = {}) {
    this.#options = { baseURL: "", initialDelay: 500, maxDelay: 10_000, stableAfter: 5_000, settle: 10, ...options };
  }

  /** How many clients watch. */
  get clientCount() {
    return this.#clients.size;
  }

  /**
   * Starts watching `session` for `client` (stopping what it watched before), from
   * `version`, the version the client has.
   * @param {string} client
   * @param {{session: string, version: number|null, patches?: boolean, log?: boolean, presence?: boolean}} watch
   * @param {(message: object) => void} reply
   */
  watch(client, { session, version = null, patches = true, log = false, presence = false }, reply) {
    if (this.#clients.has(client)) this.unwatch(client);
    this.#clients.set(client, { session, patches, log, presence, reply });
    let entry = this.#sessions.get(session);
    if (!entry) {
      entry = { version, ticket: null, expires: 0, refusals: 0, stream: null, presence: null };
      this.#sessions.set(session, entry);
      this.#changed();
    } else if (this.#wantedFlags() !== this.#flags) {
      this.#changed();
    }
    call(reply, this.#status(entry));
    this.#tellPresence();
  }

  /**
   * Stops `client`'s watch.
   * @returns {number} How many other clients still watch its session.
   */
  unwatch(client) {
    const watcher = this.#clients.get(client);
    if (!watcher) return 0;
    this.#clients.delete(client);
    const others = this.#watchersOf(watcher.session).length;
    if (others === 0) {
      this.#sessions.delete(watcher.session);
      this.#changed();
    } else if (this.#wantedFlags() !== this.#flags) {
      this.#changed();
    }
    this.#tellPresence();
    return others;
  }

  /** Stops the watches of every client whose id starts with `prefix` (a tab that went away). */
  unwatchAll(prefix) {
    for (const client of [...this.#clients.keys()]) {
      if (client.startsWith(prefix)) this.unwatch(client);
    }
  }

  /** Stops: closes the streams, forgets every client and waits for nothing more. */
  close() {
    clearTimeout(this.#timer);
    this.#retrying = false;
    this.#clients.clear();
    this.#sessions.clear();
    this.#closeStreams();
  }

  /** The network is back: retry now rather than after the backoff. */
  wake() {
    this.#attempt = 0;
    if (this.#retrying) this.#schedule(0);
  }

  // MARK: Streams

  #changed() {
    if (this.#opening) {
      this.#dirty = true;
    } else if (!this.#retrying) {
      this.#schedule(this.#options.settle);
    }
  }

  #schedule(delay) {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#reopen(), delay);
  }

  /** Closes the streams and opens them again for the sessions watched now. */
  async #reopen() {
    this.#timer = null;
    this.#retrying = false;
    if (this.#opening) return;
    this.#opening = true;
    try {
      do {
        this.#dirty = false;
        if (!(await this.#open())) {
          this.#retryLater();
          return;
        }
      } while (this.#dirty);
    } finally {
      this.#opening = false;
    }
  }

  #retryLater() {
    this.#closeStreams();
    this.#tellStatus();
    this.#retrying = true;
    this.#schedule(this.#delay(this.#attempt++));
  }

  /** @returns {Promise<boolean>} `false` when the server could not be reached. */
  async #open() {
    this.#closeStreams();
    if (!(await this.#mintTickets())) return false;
    if (this.#dirty) return true; // the sessions changed meanwhile: start over
    this.#flags = this.#wantedFlags();
    const sessions = [...this.#sessions.keys()];
    for (let start = 0; start < sessions.length; start += maxSessionsPerStream) {
      this.#openStream(sessions.slice(start, start + maxSessionsPerStream));
    }
    // Clients hear nothing until the new streams open (or fail): a reopen because a tab
    // came or went loses no event (each session resumes from its version), so it is no
    // reconnection to show.
    return true;
  }

  /** Gets a ticket for every session without one that lasts a while yet. */
  async #mintTickets() {
    const soon = Date.now() + 30_000;
    const needed = [...this.#sessions].filter(([, entry]) => !entry.ticket || entry.expires < soon);
    const results = await Promise.all(needed.map(([session]) => this.#ticket(session)));
    let reached = true;
    needed.forEach(([session, entry], index) => {
      const result = results[index];
      if (this.#sessions.get(session) !== entry) return; // unwatched meanwhile
      if (result.ticket) {
        entry.ticket = result.ticket;
        entry.expires = Date.now() + result.expiresIn * 1000;
      } else if (result.status === 401 || result.status === 404) {
        this.#drop(session, result);
      } else {
        reached = false;
      }
    });
    return reached;
  }

  /** `POST /api/sessions/{id}/tickets`: `{ticket, expiresIn}`, or the failure `{status, code, message}`. */
  async #ticket(session) {
    const { baseURL } = this.#options;
    const path = `/api/sessions/${encodeURIComponent(session)}/tickets`;
    try {
      const response = await fetch(baseURL ? new URL(path, baseURL).href : path, {
        method: "POST",
        headers: { Accept: "application/json" },
        credentials: baseURL ? "include" : "same-origin",
      });
      const json = await response.json().catch(() => null);
      if (response.ok && typeof json?.ticket === "string") return { ticket: json.ticket, expiresIn: json.expiresIn ?? 60 };
      return {
        status: response.status,
        code: json?.error?.code ?? "http_error",
        message: json?.error?.message ?? `The server answered ${response.status}.`,
      };
    } catch {
      return { status: 0, code: "network_error", message: "The server cannot be reached." };
    }
  }

  #openStream(sessions) {
    const query = new URLSearchParams(this.#flags);
    for (const session of sessions) {
      const entry = this.#sessions.get(session);
      query.append("watch", entry.version === null ? entry.ticket : `${entry.ticket}.${entry.version}`);
    }
    const { baseURL } = this.#options;
    const path = `/api/events?${query}`;
    const source = new EventSource(baseURL ? new URL(path, baseURL).href : path, { withCredentials: baseURL !== "" });
    const stream = { source, sessions: new Set(sessions), opened: false };
    for (const session of sessions) this.#sessions.get(session).stream = stream;
    this.#streams.push(stream);
    const current = (handler) => (event) => {
      if (this.#streams.includes(stream)) handler(event);
    };
    source.onopen = current(() => {
      stream.opened = true;
      this.#hasOpened = true;
      clearTimeout(this.#stableTimer);
      this.#stableTimer = setTimeout(() => (this.#attempt = 0), this.#options.stableAfter);
      this.#tellStatus(stream.sessions);
    });
    // EventSource retries by itself only after some errors, and without the sessions'
    // versions: closing it on every error keeps one retry policy (ours) for all of them.
    source.onerror = current(() => this.#retryLater());
    for (const type of ["state", "patch", "action", "presence", "dropped"]) {
      source.addEventListener(type, current((event) => this.#receive(stream, type, event.data)));
    }
  }

  #closeStreams() {
    clearTimeout(this.#stableTimer);
    for (const stream of this.#streams) stream.source.close();
    this.#streams = [];
    for (const entry of this.#sessions.values()) {
      entry.stream = null;
      entry.presence = null;
    }
  }

  #receive(stream, type, text) {
    const data = parseJSON(text);
    const entry = typeof data?.id === "string" ? this.#sessions.get(data.id) : undefined;
    if (!entry || entry.stream !== stream) return;
    switch (type) {
      case "state":
      case "patch":
        if (typeof data.version === "number") entry.version = data.version;
        entry.refusals = 0;
        this.#attempt = 0;
        this.#forward(data.id, type, text, () => true);
        break;
      case "action":
        this.#forward(data.id, type, text, (watcher) => watcher.log);
        break;
      case "presence":
        entry.presence = { session: data.session, everyone: data.everyone };
        this.#tellPresence();
        break;
      case "dropped":
        this.#dropped(data.id, entry, data);
        break;
    }
  }

  /** The server stopped watching a session on the stream; the others go on. */
  #dropped(session, entry, { status, error }) {
    const failure = { status, code: error?.code ?? "http_error", message: error?.message ?? "The session was dropped." };
    entry.stream = null;
    entry.presence = null;
    if (status === 404 || (status === 401 && ++entry.refusals > 1)) {
      // Gone, or a fresh ticket refused too: this browser cannot watch it.
      this.#drop(session, failure);
    } else if (status === 401) {
      entry.ticket = null; // expired: another ticket, another stream
      this.#changed();
    } else {
      // At its limit of streams, or the server is busy: try again later.
      this.#tellStatus([session]);
      if (!this.#retrying && !this.#opening) {
        this.#retrying = true;
        this.#schedule(this.#delay(this.#attempt++));
      }
    }
  }

  /** Tells the session's clients it is gone and forgets them. */
  #drop(session, failure) {
    this.#sessions.delete(session);
    for (const [client, watcher] of this.#watchersOf(session)) {
      this.#clients.delete(client);
      call(watcher.reply, { type: "dropped", ...failure });
    }
    this.#tellPresence();
  }

  // MARK: Telling clients

  #forward(session, event, data, wants) {
    for (const [, watcher] of this.#watchersOf(session)) {
      if (wants(watcher)) call(watcher.reply, { type: "event", event, data });
    }
  }

  /** Tells the clients of `sessions` (all, by default) whether their session's events flow. */
  #tellStatus(sessions = null) {
    for (const watcher of this.#clients.values()) {
      if (sessions && ![...sessions].includes(watcher.session)) continue;
      call(watcher.reply, this.#status(this.#sessions.get(watcher.session)));
    }
  }

  #status(entry) {
    const status = entry?.stream?.opened ? "open" : this.#hasOpened ? "reconnecting" : "connecting";
    return { type: "status", status, version: entry?.version ?? null };
  }

  /**
   * Presence as the tabs see it: the server counts this browser's stream once per session
   * (one stream, every tab), so its own share is replaced by the number of its tabs.
   */
  #tellPresence() {
    const watched = [...this.#sessions.values()].filter((entry) => entry.stream?.opened).length;
    for (const watcher of this.#clients.values()) {
      const presence = watcher.presence && this.#sessions.get(watcher.session)?.presence;
      if (!presence) continue;
      const tabs = this.#watchersOf(watcher.session).length;
      const data = JSON.stringify({
        session: Math.max(presence.session - 1 + tabs, tabs),
        everyone: Math.max(presence.everyone - watched + this.#clients.size, this.#clients.size),
      });
      call(watcher.reply, { type: "event", event: "presence", data });
    }
  }

  // MARK: Helpers

  #watchersOf(session) {
    return [...this.#clients].filter(([, watcher]) => watcher.session === session);
  }

  /** The query flags the clients need: patches unless one wants full states, log and presence if one wants them. */
  #wantedFlags() {
    const watchers = [...this.#clients.values()];
    const query = new URLSearchParams();
    if (watchers.every((watcher) => watcher.patches)) query.set("patch", "1");
    if (watchers.some((watcher) => watcher.log)) query.set("log", "1");
    if (watchers.some((watcher) => watcher.presence)) query.set("presence", "1");
    return query.toString();
  }

  #delay(attempt) {
    return backoff(attempt, this.#options);
  }
}

/**
 * Runs one message a tab sent to the hub. `replyTo(client)` gives the function that answers
 * that client. The messages:
 *
 * - `{type: "watch", client, session, version, patches, log, presence}`: see `StreamHub#watch`.
 * - `{type: "unwatch", client, ref}`: stops the watch; with a `ref`, answers
 *   `{type: "left", ref, others}` (how many clients still watch the session).
 * - `{type: "online"}`: the network is back.
 * - `{type: "bye", tab}`: the tab is going away; its clients' ids start with `tab/`.
 * @param {StreamHub} hub
 * @param {any} message
 * @param {(client: string) => (message: object) => void} replyTo
 */
export function serve(hub, message, replyTo) {
  switch (message?.type) {
    case "watch":
      hub.watch(message.client, message, replyTo(message.client));
      break;
    case "unwatch": {
      const others = hub.unwatch(message.client);
      if (message.ref !== undefined) call(replyTo(message.client), { type: "left", ref: message.ref, others });
      break;
    }
    case "online":
      hub.wake();
      break;
    case "bye":
      if (typeof message.tab === "string") hub.unwatchAll(`${message.tab}/`);
      break;
  }
}

// MARK: Helpers storehost.js uses too

/**
 * The wait after `attempt` failures in a row: exponential from `initialDelay`, capped at
 * `maxDelay`, with "equal jitter" (half of it random), in milliseconds.
 */
export function backoff(attempt, { initialDelay, maxDelay }) {
  const ceiling = Math.min(maxDelay, initialDelay * 2 ** Math.min(attempt, 30));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Calls `listener`; an error it throws is reported, and stops neither the caller nor other listeners. */
export function call(listener, ...args) {
  try {
    listener(...args);
  } catch (error) {
    if (typeof reportError === "function") reportError(error);
    else console.error(error);
  }
}

/** The JSON value of `text`, or `null` when it is not JSON. */
export function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
