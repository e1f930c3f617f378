// Unit tests for StoreHostClient (storehost.js) and the stream its tabs share
// (stream-hub.js) against a fake server: fetch and EventSource are replaced by fakes, so
// these check the client's own logic (sessions, tickets, one stream for many clients,
// patches, resync, reconnection with backoff, the send queue, ended sessions, presence)
// without a browser. Node has no SharedWorker and no Web Locks, so each test's clients share
// a hub of their own, in this process, as tabs without either would.
import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { afterEach, beforeEach, describe, it } from "node:test";

import { StoreHostClient } from "../../../Sources/StoreHost/BrowserClient/storehost.js";
import { serve, StreamHub } from "../../../Sources/StoreHost/BrowserClient/stream-hub.js";

// Browsers have `crypto` (for Idempotency-Keys and tab ids); Node has it as a global from 19 on.
globalThis.crypto ??= webcrypto;

/** The path and query of `url`, absolute or not. */
function local(url) {
  const parsed = new URL(url, "http://host");
  return parsed.pathname + parsed.search;
}

/** An EventSource the test drives: `open()`, `emit(type, data)`, `fail()`. */
class FakeEventSource {
  static instances = [];
  constructor(url) {
    this.url = local(url);
    this.closed = false;
    this.listeners = {};
    FakeEventSource.instances.push(this);
  }
  addEventListener(type, listener) {
    (this.listeners[type] ??= []).push(listener);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.({});
  }
  emit(type, data) {
    for (const listener of this.listeners[type] ?? []) listener({ data: JSON.stringify(data) });
  }
  fail() {
    this.onerror?.({});
  }
  get query() {
    return new URL(this.url, "http://host").searchParams;
  }
  /** The `watch` items, in order. */
  get watches() {
    return this.query.getAll("watch");
  }
}

/**
 * Answers requests from `routes` ("METHOD /path" -> function returning [status, body, headers]
 * or throwing, which fails the fetch as a network error would). A session's tickets are
 * `T-<id>` unless a route says otherwise.
 */
function fakeFetch(routes, calls) {
  return async (url, init) => {
    const key = `${init.method} ${local(url)}`;
    calls.push({ key, body: init.body, idempotencyKey: init.headers["Idempotency-Key"], at: Date.now() });
    const ticket = key.match(/^POST \/api\/sessions\/([^/]+)\/tickets$/);
    const route = routes[key] ?? (ticket && (() => [200, { ticket: `T-${ticket[1]}`, expiresIn: 300 }]));
    if (!route) return response(404, gone);
    const [status, body, headers] = route(init);
    return response(status, body, headers);
  };
}

function response(status, body, headers = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: new Headers(headers),
    text: async () => text,
    json: async () => JSON.parse(text),
  };
}

const gone = { error: { code: "session_not_found", message: "No session has this id; it may have ended." } };
const dropped = (id, status, code, message = "Dropped.") => ({ id, status, error: { code, message } });

/** A sessionStorage stand-in. */
class FakeStorage {
  items = new Map();
  getItem(key) {
    return this.items.get(key) ?? null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
}

const latest = () => FakeEventSource.instances.at(-1);
const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition, message, timeout = 2000) {
  const deadline = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${message}`);
    await tick(2);
  }
}

/** Waits for the stream after `count` streams (the hub opens it a moment after a change). */
async function stream(count = 0) {
  await until(() => FakeEventSource.instances.length > count, `stream ${count + 1} never opened`);
  return FakeEventSource.instances[count];
}

let calls;
let routes;
let clients;
let server = 0;
let baseURL;

beforeEach(() => {
  FakeEventSource.instances = [];
  calls = [];
  routes = {
    "POST /api/sessions": () => [201, { id: "s1", token: "t", version: 0, state: { count: 0 } }],
  };
  clients = [];
  // A server of its own per test, so a hub of its own.
  baseURL = `http://server${++server}.test`;
  globalThis.EventSource = FakeEventSource;
  globalThis.fetch = fakeFetch(routes, calls);
});

afterEach(async () => {
  for (const client of clients) client.close();
  await tick(20); // the hub closes its streams once nobody watches
  delete globalThis.EventSource;
  delete globalThis.fetch;
  delete globalThis.sessionStorage;
  delete globalThis.window;
});

function makeClient(options = {}) {
  const client = new StoreHostClient({
    baseURL, storageKey: null, urlParameter: null, initialDelay: 10, maxDelay: 80, ...options,
  });
  clients.push(client);
  return client;
}

const actionCalls = () => calls.filter((call) => call.key.endsWith("/actions"));
const ticketCalls = () => calls.filter((call) => call.key.endsWith("/tickets"));
const session = (id, version = 0, count = version) => () => [200, { id, version, state: { count } }];
const created = (id) => () => [201, { id, token: "t", version: 0, state: { count: 0 } }];

describe("StoreHostClient", () => {
  it("creates a session, then follows it on the shared stream, by a ticket, as patches", async () => {
    const client = makeClient();
    const seen = [];
    const statuses = [];
    client.subscribe((state, version) => seen.push([version, state.count]));
    client.onStatus((status) => statuses.push(status));
    assert.deepEqual(await client.connect(), { id: "s1", version: 0, state: { count: 0 } });
    const source = await stream();
    assert.equal(source.url, "/api/events?patch=1&watch=T-s1.0");
    assert.deepEqual(calls.map((call) => call.key), ["POST /api/sessions", "POST /api/sessions/s1/tickets"]);
    source.open();
    await until(() => client.status === "open", "never open");
    source.emit("patch", { id: "s1", version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 1 }] });
    source.emit("patch", { id: "s1", version: 2, from: 1, ops: [{ op: "replace", path: "/count", value: 2 }] });
    await until(() => seen.length === 3, "the patches were not applied");
    assert.deepEqual(seen, [[0, 0], [1, 1], [2, 2]]);
    assert.deepEqual(statuses, ["closed", "connecting", "open"]);
    client.close();
    assert.equal(client.status, "closed");
    await until(() => source.closed, "the stream outlived its only client");
    assert.equal(FakeEventSource.instances.length, 1, "a stream was opened for nobody");
  });

  it("ignores versions it has, and reads the state when a patch does not follow", async () => {
    const client = makeClient();
    await client.connect();
    const source = await stream();
    source.emit("patch", { id: "s1", version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 1 }] });
    source.emit("patch", { id: "s1", version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 9 }] });
    await until(() => client.version === 1, "the first patch was not applied");
    await tick(5);
    assert.equal(client.state.count, 1);
    routes["GET /api/sessions/s1"] = session("s1", 5);
    source.emit("patch", { id: "s1", version: 5, from: 3, ops: [] });
    await until(() => client.version === 5, "the state was not read again");
    assert.deepEqual(client.state, { count: 5 });
    assert.ok(!source.closed, "a gap in one session's patches closed the stream of all");
    assert.equal(FakeEventSource.instances.length, 1);
  });

  it("reopens a failed stream from the last version after a backoff", async () => {
    const client = makeClient();
    await client.connect();
    const first = await stream();
    first.open();
    first.emit("state", { id: "s1", version: 3, state: { count: 3 } });
    await until(() => client.version === 3, "the state was not applied");
    first.fail();
    await until(() => client.status === "reconnecting", "the failure went unnoticed");
    const second = await stream(1);
    assert.deepEqual(second.watches, ["T-s1.3"]);
    assert.equal(ticketCalls().length, 1, "a ticket still valid was not used again");
    second.open();
    await until(() => client.status === "open", "not open again");
  });

  it("backs off exponentially while the stream keeps failing", async () => {
    const client = makeClient();
    await client.connect();
    (await stream()).open();
    const opened = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const source = latest();
      opened.push(Date.now());
      source.fail();
      await stream(attempt + 1);
    }
    const gaps = opened.slice(1).map((time, i) => time - opened[i]);
    // Ceilings 10, 20, 40, 80, 80 ms, each waited at least half of (equal jitter).
    [5, 10, 20, 40, 40].forEach((least, i) => assert.ok(gaps[i] >= least - 2, `gap ${i} was ${gaps[i]} ms`));
    assert.equal(client.status, "reconnecting");
  });

  it("reports a session dropped as gone as ended, and starts a new one only when asked", async () => {
    const client = makeClient();
    const events = [];
    const statuses = [];
    client.onEvent((event) => events.push(event.type === "session" ? `session ${event.id}` : event.type));
    await client.connect();
    const first = await stream();
    first.open();
    await until(() => client.status === "open", "never open");
    client.onStatus((status) => statuses.push(status));
    first.emit("dropped", dropped("s1", 404, "session_not_found", "No session has this id; it may have ended."));
    await until(() => client.status === "ended", "the session never ended");
    await tick(30); // several backoff delays: still no new session
    assert.deepEqual(statuses, ["open", "ended"]);
    assert.equal(calls.filter((call) => call.key === "POST /api/sessions").length, 1);
    assert.equal(client.sessionId, "s1");
    await assert.rejects(client.send({ a: 1 }), { status: 404, code: "session_not_found" });
    assert.equal(actionCalls().length, 0, "a send to an ended session was made");

    routes["POST /api/sessions"] = created("s2");
    await client.startNewSession();
    assert.equal(client.sessionId, "s2");
    assert.ok(!calls.some((call) => call.key === "DELETE /api/sessions/s1"), "an ended session was deleted");
    const second = await stream(1);
    assert.deepEqual(second.watches, ["T-s2.0"]);
    second.open();
    await until(() => client.status === "open", "the new session is not open");
    assert.deepEqual(events, ["session s1", "state", "session s2", "state"]);
  });

  it("ends the session when its ticket is refused for good (no token here, 401)", async () => {
    const client = makeClient();
    await client.connect();
    (await stream()).open();
    await until(() => client.status === "open", "never open");
    routes["POST /api/sessions/s1/tickets"] = () => [401, { error: { code: "unauthorized", message: "No token." } }];
    latest().emit("dropped", dropped("s1", 401, "invalid_ticket", "This watch ticket has expired."));
    await until(() => client.status === "ended", "the session never ended");
    await assert.rejects(client.send({ a: 1 }), { status: 401, code: "unauthorized" });
  });

  it("gets a new ticket when the stream refuses an expired one, and gives up after a fresh one is refused", async () => {
    const client = makeClient();
    await client.connect();
    (await stream()).open();
    latest().emit("dropped", dropped("s1", 401, "invalid_ticket", "This watch ticket has expired."));
    const second = await stream(1);
    assert.equal(ticketCalls().length, 2, "no new ticket was asked for");
    second.open();
    await until(() => client.status === "open", "not open with the new ticket");
    second.emit("dropped", dropped("s1", 401, "invalid_ticket", "This watch ticket was not issued by this server."));
    await until(() => client.status === "ended", "a refused fresh ticket did not end the session");
  });

  it("waits and watches again when the session has too many streams (429)", async () => {
    const client = makeClient();
    await client.connect();
    const first = await stream();
    first.open();
    await until(() => client.status === "open", "never open");
    first.emit("dropped", dropped("s1", 429, "rate_limited", "This session has 8 event streams open already."));
    await until(() => client.status === "reconnecting", "the drop went unnoticed");
    const second = await stream(1);
    assert.deepEqual(second.watches, ["T-s1.0"]);
    second.open();
    await until(() => client.status === "open", "not open again");
  });

  it("rejects connect when the session it is to join is gone", async () => {
    globalThis.sessionStorage = new FakeStorage();
    sessionStorage.setItem("tab", "old");
    const client = makeClient({ storageKey: "tab" });
    await assert.rejects(client.connect(), { status: 404, code: "session_not_found" });
    assert.equal(client.status, "ended");
    assert.deepEqual(calls.map((call) => call.key), ["GET /api/sessions/old"]);
  });

  it("keeps the tab's session id in sessionStorage and joins it on the next load", async () => {
    globalThis.sessionStorage = new FakeStorage();
    await makeClient({ storageKey: "tab" }).connect();
    assert.equal(sessionStorage.getItem("tab"), "s1");
    routes["GET /api/sessions/s1"] = session("s1", 4);
    const reloaded = makeClient({ storageKey: "tab" });
    assert.deepEqual(await reloaded.connect(), { id: "s1", version: 4, state: { count: 4 } });
    assert.equal(calls.filter((call) => call.key === "POST /api/sessions").length, 1);
  });

  it("always takes a full state: after a crash the server may have lost versions, or reused one", async () => {
    const client = makeClient();
    await client.connect();
    const source = await stream();
    source.emit("state", { id: "s1", version: 7, state: { count: 7 } });
    source.emit("state", { id: "s1", version: 4, state: { count: 4 } });
    await until(() => client.version === 4, "the older state was not taken");
    assert.deepEqual(client.state, { count: 4 });
    source.emit("state", { id: "s1", version: 4, state: { count: 40 } });
    await until(() => client.state.count === 40, "a state at the version the client has was ignored");
    // Versions may jump: a patch from the version the client has applies, however far it goes.
    source.emit("patch", { id: "s1", version: 19, from: 4, ops: [{ op: "replace", path: "/count", value: 19 }] });
    await until(() => client.version === 19, "a jump in versions was refused");
    assert.deepEqual(client.state, { count: 19 });
  });

  it("sends queued actions in order, one at a time, each with its own key, and counts them", async () => {
    let inFlight = 0;
    let most = 0;
    let version = 0;
    routes["POST /api/sessions/s1/actions"] = (init) => {
      const action = JSON.parse(init.body);
      if (action === "nope") return [400, { error: { code: "invalid_action", message: "Unknown action nope." } }];
      return [202, { version: ++version }];
    };
    const wrapped = globalThis.fetch;
    globalThis.fetch = async (url, init) => {
      const counted = local(url).endsWith("/actions");
      if (counted) {
        inFlight += 1;
        most = Math.max(most, inFlight);
      }
      await tick(3);
      try {
        return await wrapped(url, init);
      } finally {
        if (counted) inFlight -= 1;
      }
    };
    const client = makeClient();
    const pending = [];
    client.onPending((count) => pending.push(count));
    await client.connect();
    const sends = [client.send({ a: 1 }), client.send("nope"), client.send([{ b: 2 }, { c: 3 }])];
    assert.equal(client.pendingCount, 3);
    const results = await Promise.allSettled(sends);
    assert.equal(results[0].value, 1);
    assert.equal(results[1].reason.message, "Unknown action nope.");
    assert.equal(results[1].reason.code, "invalid_action");
    assert.equal(results[1].reason.status, 400);
    assert.equal(results[2].value, 2, "the send after a refused one was not made");
    assert.equal(most, 1, "sends overlapped");
    assert.deepEqual(actionCalls().map((call) => call.body), ['{"a":1}', '"nope"', '[{"b":2},{"c":3}]']);
    const keys = actionCalls().map((call) => call.idempotencyKey);
    assert.equal(new Set(keys).size, 3, "keys were reused");
    for (const key of keys) assert.match(key, /^[A-Za-z0-9-]{1,64}$/);
    assert.deepEqual(pending, [0, 1, 2, 3, 2, 1, 0]);
    assert.equal(client.pendingCount, 0);
  });

  it("resends with the same key after a network error as soon as the stream opens", async () => {
    const answers = [
      () => {
        throw new TypeError("fetch failed");
      },
      () => [202, { version: 1 }],
    ];
    routes["POST /api/sessions/s1/actions"] = () => answers.shift()();
    // The backoff alone would wait 2.5 s or more before the resend.
    const client = makeClient({ initialDelay: 5000, maxDelay: 5000 });
    await client.connect();
    const sent = client.send({ a: 1 });
    await until(() => actionCalls().length === 1, "the send was not made");
    const source = await stream();
    await tick(20);
    assert.equal(actionCalls().length, 1, "resent before the stream opened or the backoff passed");
    assert.equal(client.pendingCount, 1);
    source.open();
    assert.equal(await sent, 1);
    const [first, second] = actionCalls();
    assert.equal(second.idempotencyKey, first.idempotencyKey, "the resend used another key");
    assert.equal(client.pendingCount, 0);
  });

  it("resends with the same key after 502, 503 and 504, backing off", async () => {
    const answers = [
      () => [502, undefined],
      () => [503, { error: { code: "shutting_down", message: "Shutting down." } }],
      () => [504, undefined],
      () => [202, { version: 1 }],
    ];
    routes["POST /api/sessions/s1/actions"] = () => answers.shift()();
    const client = makeClient();
    await client.connect();
    (await stream()).open();
    assert.equal(await client.send({ a: 1 }), 1);
    const sends = actionCalls();
    assert.equal(sends.length, 4);
    assert.equal(new Set(sends.map((call) => call.idempotencyKey)).size, 1, "a resend used another key");
    // Ceilings 10, 20, 40 ms, each waited at least half of.
    [5, 10, 20].forEach((least, i) => {
      const gap = sends[i + 1].at - sends[i].at;
      assert.ok(gap >= least - 2, `resend ${i + 1} came ${gap} ms after the previous send`);
    });
  });

  it("waits Retry-After on 429, and a second on 409, before sending again with the same key", async () => {
    const answers = [
      () => [429, { error: { code: "rate_limited", message: "Slow down." } }, { "Retry-After": "1" }],
      () => [409, { error: { code: "idempotency_key_in_use", message: "Being answered." } }],
      () => [202, { version: 7 }],
    ];
    routes["POST /api/sessions/s1/actions"] = () => answers.shift()();
    const client = makeClient();
    await client.connect();
    (await stream()).open();
    assert.equal(await client.send({ a: 1 }), 7);
    const [first, second, third] = actionCalls();
    assert.ok(second.at - first.at >= 990, `429 retried after ${second.at - first.at} ms`);
    assert.ok(third.at - second.at >= 990, `409 retried after ${third.at - second.at} ms`);
    assert.deepEqual([second.idempotencyKey, third.idempotencyKey], [first.idempotencyKey, first.idempotencyKey]);
    assert.deepEqual([second.body, third.body], [first.body, first.body]);
  });

  it("gives up a send the server refused (413) without retrying it", async () => {
    const answers = [
      () => [413, { error: { code: "state_too_large", message: "Too large." } }],
      () => [202, { version: 2 }],
    ];
    routes["POST /api/sessions/s1/actions"] = () => answers.shift()();
    const client = makeClient();
    await client.connect();
    (await stream()).open();
    const results = await Promise.allSettled([client.send({ big: 1 }), client.send({ small: 1 })]);
    assert.equal(results[0].reason.code, "state_too_large");
    assert.equal(results[1].value, 2);
    assert.deepEqual(actionCalls().map((call) => call.body), ['{"big":1}', '{"small":1}']);
  });

  it("ends the session when a send answers 404, rejecting every queued send", async () => {
    routes["POST /api/sessions/s1/actions"] = () => [404, gone];
    const client = makeClient();
    await client.connect();
    const source = await stream();
    source.open();
    const results = await Promise.allSettled([client.send({ a: 1 }), client.send({ b: 2 }), client.send({ c: 3 })]);
    assert.deepEqual(results.map((result) => result.reason?.code), Array(3).fill("session_not_found"));
    assert.equal(actionCalls().length, 1, "sends went on after the session ended");
    assert.equal(client.status, "ended");
    assert.equal(client.pendingCount, 0);
    await until(() => source.closed, "the stream of an ended session stayed open");
    await tick(30);
    assert.equal(calls.filter((call) => call.key === "POST /api/sessions").length, 1, "a new session was created unasked");
  });

  it("rejects the old session's queued sends when a new session starts, and sends later ones to the new", async () => {
    routes["POST /api/sessions/s1/actions"] = () => {
      throw new TypeError("fetch failed");
    };
    routes["DELETE /api/sessions/s1"] = () => [204, undefined];
    routes["POST /api/sessions/s2/actions"] = () => [202, { version: 1 }];
    const client = makeClient({ initialDelay: 5000, maxDelay: 5000 });
    await client.connect();
    const old = client.send({ a: 1 });
    await until(() => actionCalls().length === 1, "the send was not made");
    routes["POST /api/sessions"] = created("s2");
    const replacing = client.startNewSession();
    const fresh = client.send({ b: 2 });
    await assert.rejects(old, { code: "session_replaced" });
    await replacing;
    assert.ok(calls.some((call) => call.key === "DELETE /api/sessions/s1"), "a session no tab shows was kept");
    await until(() => latest()?.watches.includes("T-s2.0"), "the new session is not watched");
    latest().open();
    assert.equal(await fresh, 1);
    assert.deepEqual(actionCalls().map((call) => call.key), ["POST /api/sessions/s1/actions", "POST /api/sessions/s2/actions"]);
  });

  it("stops watching while the page is in the back/forward cache, and resumes after", async () => {
    globalThis.window = new EventTarget();
    const pageEvent = (type, persisted) => window.dispatchEvent(Object.assign(new Event(type), { persisted }));
    const client = makeClient();
    await client.connect();
    const first = await stream();
    first.open();
    first.emit("state", { id: "s1", version: 2, state: { count: 2 } });
    await until(() => client.version === 2, "the state was not applied");
    pageEvent("pagehide", false); // a page being unloaded for good goes anyway
    await tick(20);
    assert.ok(!first.closed);
    pageEvent("pagehide", true);
    await until(() => first.closed, "a cached page kept watching");
    pageEvent("pageshow", true);
    const second = await stream(1);
    assert.deepEqual(second.watches, ["T-s1.2"]);
  });

  it("asks for presence and reports it while the stream is open", async () => {
    const client = makeClient({ presence: true });
    const seen = [];
    client.onPresence((presence) => seen.push(presence));
    await client.connect();
    const source = await stream();
    assert.equal(source.query.get("presence"), "1");
    source.open();
    source.emit("presence", { id: "s1", session: 2, everyone: 5 });
    await until(() => client.presence !== null, "no presence");
    assert.deepEqual(client.presence, { session: 2, everyone: 5 });
    source.fail();
    await until(() => client.presence === null, "presence outlived the stream");
    assert.deepEqual(seen, [null, { session: 2, everyone: 5 }, null]);
    assert.equal(makeClient().presence, null);
  });
});

describe("the stream a browser's tabs share", () => {
  /** Clients on sessions `ids` (each joined by `?session=`-like GETs), connected, on one open stream. */
  async function clientsOn(ids, options = {}) {
    const made = [];
    for (const id of ids) {
      routes[`GET /api/sessions/${id}`] = session(id);
      globalThis.sessionStorage = new FakeStorage();
      sessionStorage.setItem("tab", id);
      const client = makeClient({ storageKey: "tab", ...options });
      await client.connect();
      made.push(client);
    }
    return made;
  }

  it("watches every client's session on one stream, and gives each client its session's events", async () => {
    const [a, b] = await clientsOn(["s1", "s2"]);
    await until(() => latest()?.watches.length === 2, "the sessions are not on one stream");
    const source = latest();
    assert.deepEqual(source.watches.sort(), ["T-s1.0", "T-s2.0"]);
    source.open();
    await until(() => a.status === "open" && b.status === "open", "not both open");
    source.emit("patch", { id: "s2", version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 7 }] });
    await until(() => b.version === 1, "s2's client missed its patch");
    assert.deepEqual([a.version, a.state, b.state], [0, { count: 0 }, { count: 7 }]);
    assert.equal(FakeEventSource.instances.filter((instance) => !instance.closed).length, 1);
  });

  it("reopens the stream for a tab that comes without telling the others it reconnects", async () => {
    const [a] = await clientsOn(["s1"]);
    const first = await stream();
    first.open();
    await until(() => a.status === "open", "never open");
    const statuses = [];
    a.onStatus((status) => statuses.push(status));
    const [b] = await clientsOn(["s2"]);
    const second = await stream(1);
    assert.ok(first.closed, "the old stream stayed open beside the new one");
    assert.deepEqual(second.watches.sort(), ["T-s1.0", "T-s2.0"]);
    second.open();
    await until(() => b.status === "open", "the new tab is not open");
    assert.deepEqual(statuses, ["open"], "the first tab was told of a reconnection");
    second.fail();
    await until(() => a.status === "reconnecting", "a real failure went untold");
  });

  it("reads the state when it joins a session that other clients follow at a later version", async () => {
    const [a] = await clientsOn(["s1"]);
    const source = await stream();
    source.open();
    source.emit("patch", { id: "s1", version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 1 }] });
    source.emit("patch", { id: "s1", version: 2, from: 1, ops: [{ op: "replace", path: "/count", value: 2 }] });
    await until(() => a.version === 2, "the first client missed the patches");
    // The second client starts from an older version (a tab back from the back/forward
    // cache, say): no event will come for what it missed, so it reads the state.
    let reads = 0;
    routes["GET /api/sessions/s1"] = () => (++reads === 1 ? session("s1", 0)() : session("s1", 2)());
    globalThis.sessionStorage = new FakeStorage();
    sessionStorage.setItem("tab", "s1");
    const b = makeClient({ storageKey: "tab" });
    await b.connect();
    await until(() => b.version === 2, "the client that joined behind stayed behind");
    assert.deepEqual([b.state, reads, FakeEventSource.instances.length], [{ count: 2 }, 2, 1]);
  });

  it("puts clients of one session on one watch, and counts each as a tab in presence", async () => {
    const [a, b] = await clientsOn(["s1", "s1"], { presence: true });
    await until(() => latest() && b.status !== "closed", "no stream");
    const source = latest();
    assert.deepEqual(source.watches, ["T-s1.0"]);
    source.open();
    // The server counts this browser's one stream: 1 on the session, 3 on the server.
    source.emit("presence", { id: "s1", session: 1, everyone: 3 });
    await until(() => a.presence?.session === 2 && b.presence?.session === 2, "the tabs were not counted");
    assert.deepEqual(a.presence, { session: 2, everyone: 4 });
    b.close();
    await until(() => a.presence?.session === 1, "a closed tab still counted");
    source.emit("patch", { id: "s1", version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 1 }] });
    await until(() => a.version === 1, "the remaining client missed the patch");
  });

  it("leaves a session another client shows when one starts a new session, and ends it when none does", async () => {
    routes["DELETE /api/sessions/s1"] = () => [204, undefined];
    const [a, b] = await clientsOn(["s1", "s1"]);
    (await stream()).open();
    await until(() => a.status === "open" && b.status === "open", "not both open");
    routes["POST /api/sessions"] = created("s2");
    await a.startNewSession();
    assert.equal(a.sessionId, "s2");
    assert.ok(!calls.some((call) => call.key.startsWith("DELETE")), "a session another tab shows was ended");
    await until(() => latest().watches.length === 2, "the new session is not watched beside the old");
    latest().open();
    await until(() => b.status === "open", "the other tab is not open");
    latest().emit("patch", { id: "s1", version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 1 }] });
    await until(() => b.version === 1, "the other tab stopped following its session");
    assert.equal(a.version, 0);

    routes["POST /api/sessions"] = created("s3");
    await b.startNewSession();
    assert.ok(calls.some((call) => call.key === "DELETE /api/sessions/s1"), "a session no tab shows was kept");
  });

  it("turns patches off for the stream while a client wants full states", async () => {
    await clientsOn(["s1"]);
    assert.equal((await stream()).query.get("patch"), "1");
    const [full] = await clientsOn(["s2"], { patches: false, log: true });
    await until(() => latest().watches.length === 2, "the second session is not watched");
    assert.equal(latest().query.get("patch"), null);
    assert.equal(latest().query.get("log"), "1");
    latest().emit("action", { id: "s2", action: "tapped" });
    full.close();
    await until(() => latest().watches.length === 1 && latest().query.get("patch") === "1", "patches stayed off");
  });

  it("answers a client that leaves with how many others still watch, and stops for good when closed", async () => {
    const hub = new StreamHub({ baseURL, initialDelay: 10, maxDelay: 80 });
    const heard = [];
    const replyTo = (client) => (message) => heard.push([client, message]);
    serve(hub, { type: "watch", client: "tab1/1", session: "s1", version: 0 }, replyTo);
    serve(hub, { type: "watch", client: "tab2/1", session: "s1", version: 0 }, replyTo);
    serve(hub, { type: "watch", client: "tab2/2", session: "s2", version: 0 }, replyTo);
    const source = await stream();
    serve(hub, { type: "unwatch", client: "tab1/1", ref: 7 }, replyTo);
    assert.deepEqual(heard.at(-1), ["tab1/1", { type: "left", ref: 7, others: 1 }]);
    serve(hub, { type: "bye", tab: "tab2" }, replyTo);
    assert.equal(hub.clientCount, 0, "a tab that said bye kept its clients");
    serve(hub, { type: "watch", client: "tab3/1", session: "s3", version: 0 }, replyTo);
    hub.close();
    assert.ok(source.closed);
    assert.equal(hub.clientCount, 0);
    await tick(30);
    assert.ok(FakeEventSource.instances.every((instance) => instance.closed), "a closed hub opened a stream");
  });

  it("splits more sessions than one stream may watch over several streams", async () => {
    const ids = Array.from({ length: 70 }, (_, i) => `s${i + 1}`);
    await clientsOn(ids);
    await until(
      () => FakeEventSource.instances.filter((instance) => !instance.closed).reduce((n, s) => n + s.watches.length, 0) === 70,
      "not every session is watched");
    const open = FakeEventSource.instances.filter((instance) => !instance.closed);
    assert.deepEqual(open.map((source) => source.watches.length), [64, 6]);
  });
});
