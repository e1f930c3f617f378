// Unit tests for StoreHostClient (Public/storehost.js) against a fake server: fetch and
// EventSource are replaced by fakes, so these check the client's own logic (sessions,
// patches, resync, reconnection with backoff, the send queue, ended sessions, presence)
// without a browser.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";

import { StoreHostClient } from "../../../Public/storehost.js";

/** An EventSource the test drives: `open()`, `emit(type, data)`, `fail()`. */
class FakeEventSource {
  static instances = [];
  constructor(url) {
    this.url = url;
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
}

/**
 * Answers requests from `routes` ("METHOD /path" -> function returning [status, body, headers]
 * or throwing, which fails the fetch as a network error would).
 */
function fakeFetch(routes, calls) {
  return async (url, init) => {
    const key = `${init.method} ${url}`;
    calls.push({ key, body: init.body, idempotencyKey: init.headers["Idempotency-Key"], at: Date.now() });
    const route = routes[key];
    if (!route) return response(404, gone);
    const [status, body, headers] = route(init);
    return response(status, body, headers);
  };
}

function response(status, body, headers = {}) {
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: new Headers(headers),
    text: async () => (body === undefined ? "" : JSON.stringify(body)),
  };
}

const gone = { error: { code: "session_not_found", message: "No session has this id; it may have ended." } };

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

let calls;
let routes;
let clients;

beforeEach(() => {
  FakeEventSource.instances = [];
  calls = [];
  routes = {
    "POST /api/sessions": () => [201, { id: "s1", token: "t", version: 0, state: { count: 0 } }],
  };
  clients = [];
  globalThis.EventSource = FakeEventSource;
  globalThis.fetch = fakeFetch(routes, calls);
});

afterEach(() => {
  for (const client of clients) client.close();
  delete globalThis.EventSource;
  delete globalThis.fetch;
  delete globalThis.sessionStorage;
  delete globalThis.window;
});

function makeClient(options = {}) {
  const client = new StoreHostClient({ storageKey: null, urlParameter: null, initialDelay: 10, maxDelay: 80, ...options });
  clients.push(client);
  return client;
}

const actionCalls = () => calls.filter((call) => call.key.endsWith("/actions"));

describe("StoreHostClient", () => {
  it("creates a session, then follows it over one stream of patches", async () => {
    const client = makeClient();
    const seen = [];
    const statuses = [];
    client.subscribe((state, version) => seen.push([version, state.count]));
    client.onStatus((status) => statuses.push(status));
    const session = await client.connect();
    assert.deepEqual(session, { id: "s1", version: 0, state: { count: 0 } });
    assert.equal(FakeEventSource.instances.length, 1);
    assert.equal(latest().url, "/api/sessions/s1/events?patch=1&lastEventId=0");
    latest().open();
    latest().emit("patch", { version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 1 }] });
    latest().emit("patch", { version: 2, from: 1, ops: [{ op: "replace", path: "/count", value: 2 }] });
    assert.deepEqual(seen, [[0, 0], [1, 1], [2, 2]]);
    assert.deepEqual(statuses, ["closed", "connecting", "open"]);
    client.close();
    assert.equal(client.status, "closed");
    assert.ok(latest().closed);
  });

  it("ignores versions it has, and asks for a snapshot when a patch does not follow", async () => {
    const client = makeClient();
    await client.connect();
    const first = latest();
    first.emit("patch", { version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 1 }] });
    first.emit("patch", { version: 1, from: 0, ops: [{ op: "replace", path: "/count", value: 9 }] });
    assert.equal(client.state.count, 1);
    first.emit("patch", { version: 5, from: 3, ops: [] });
    assert.ok(first.closed, "the stream with a gap was closed");
    assert.equal(latest().query.get("lastEventId"), null, "the new stream asks for the full state");
    latest().emit("state", { version: 5, state: { count: 5 } });
    assert.deepEqual([client.version, client.state], [5, { count: 5 }]);
    client.close();
  });

  it("reopens a failed stream from the last version after a backoff", async () => {
    routes["GET /api/sessions/s1"] = () => [200, { id: "s1", version: 3, state: { count: 3 } }];
    const client = makeClient();
    await client.connect();
    latest().open();
    latest().emit("state", { version: 3, state: { count: 3 } });
    latest().fail();
    assert.equal(client.status, "reconnecting");
    await until(() => FakeEventSource.instances.length === 2, "the stream was not reopened");
    assert.equal(latest().query.get("lastEventId"), "3");
    latest().open();
    assert.equal(client.status, "open");
    client.close();
  });

  it("backs off exponentially while the server is unreachable", async () => {
    const client = makeClient();
    await client.connect();
    latest().open();
    globalThis.fetch = async (url, init) => {
      calls.push({ key: `${init.method} ${url}`, at: Date.now() });
      throw new TypeError("fetch failed");
    };
    const failedAt = Date.now();
    latest().fail();
    await until(() => calls.length >= 6, "not enough attempts", 3000);
    const times = [failedAt, ...calls.slice(1, 6).map((call) => call.at)];
    const gaps = times.slice(1).map((time, i) => time - times[i]);
    // Ceilings 10, 20, 40, 80, 80 ms, each waited at least half of (equal jitter).
    [5, 10, 20, 40, 40].forEach((least, i) => assert.ok(gaps[i] >= least - 2, `gap ${i} was ${gaps[i]} ms`));
    assert.equal(client.status, "reconnecting");
    client.close();
  });

  it("reports a session gone on reconnect as ended, and starts a new one only when asked", async () => {
    const client = makeClient();
    const events = [];
    const statuses = [];
    client.onEvent((event) => events.push(event.type === "session" ? `session ${event.id}` : event.type));
    await client.connect();
    latest().open();
    client.onStatus((status) => statuses.push(status));
    routes["GET /api/sessions/s1"] = () => [401, { error: { code: "unauthorized", message: "No token." } }];
    latest().fail();
    await until(() => client.status === "ended", "the session never ended");
    await tick(30); // several backoff delays: still no new session, no new stream
    assert.deepEqual(statuses, ["open", "reconnecting", "ended"]);
    assert.equal(calls.filter((call) => call.key === "POST /api/sessions").length, 1);
    assert.equal(FakeEventSource.instances.length, 1);
    assert.equal(client.sessionId, "s1");
    await assert.rejects(client.send({ a: 1 }), { status: 401, code: "unauthorized" });
    assert.equal(actionCalls().length, 0, "a send to an ended session was made");

    routes["POST /api/sessions"] = () => [201, { id: "s2", token: "t", version: 0, state: { count: 0 } }];
    await client.startNewSession();
    assert.equal(client.sessionId, "s2");
    assert.ok(!calls.some((call) => call.key === "DELETE /api/sessions/s1"), "an ended session was deleted");
    assert.match(latest().url, /^\/api\/sessions\/s2\/events/);
    latest().open();
    assert.equal(client.status, "open");
    assert.deepEqual(events, ["session s1", "state", "session s2", "state"]);
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
    routes["GET /api/sessions/s1"] = () => [200, { id: "s1", version: 4, state: { count: 4 } }];
    const reloaded = makeClient({ storageKey: "tab" });
    assert.deepEqual(await reloaded.connect(), { id: "s1", version: 4, state: { count: 4 } });
    assert.equal(calls.filter((call) => call.key === "POST /api/sessions").length, 1);
  });

  it("takes the server's state when the server lost versions", async () => {
    const client = makeClient();
    await client.connect();
    latest().emit("state", { version: 7, state: { count: 7 } });
    latest().emit("state", { version: 4, state: { count: 4 } });
    assert.deepEqual([client.version, client.state], [4, { count: 4 }]);
    client.close();
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
      inFlight += 1;
      most = Math.max(most, inFlight);
      await tick(3);
      try {
        return await wrapped(url, init);
      } finally {
        inFlight -= 1;
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
    await tick(20);
    assert.equal(actionCalls().length, 1, "resent before the stream opened or the backoff passed");
    assert.equal(client.pendingCount, 1);
    latest().open();
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
    latest().open();
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
    latest().open();
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
    latest().open();
    const results = await Promise.allSettled([client.send({ big: 1 }), client.send({ small: 1 })]);
    assert.equal(results[0].reason.code, "state_too_large");
    assert.equal(results[1].value, 2);
    assert.deepEqual(actionCalls().map((call) => call.body), ['{"big":1}', '{"small":1}']);
  });

  it("ends the session when a send answers 404, rejecting every queued send", async () => {
    routes["POST /api/sessions/s1/actions"] = () => [404, gone];
    const client = makeClient();
    await client.connect();
    latest().open();
    const results = await Promise.allSettled([client.send({ a: 1 }), client.send({ b: 2 }), client.send({ c: 3 })]);
    assert.deepEqual(results.map((result) => result.reason?.code), Array(3).fill("session_not_found"));
    assert.equal(actionCalls().length, 1, "sends went on after the session ended");
    assert.equal(client.status, "ended");
    assert.equal(client.pendingCount, 0);
    assert.ok(latest().closed, "the stream of an ended session stayed open");
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
    routes["POST /api/sessions"] = () => [201, { id: "s2", token: "t", version: 0, state: { count: 0 } }];
    const replacing = client.startNewSession();
    const fresh = client.send({ b: 2 });
    await assert.rejects(old, { code: "session_replaced" });
    await replacing;
    latest().open();
    assert.equal(await fresh, 1);
    assert.deepEqual(actionCalls().map((call) => call.key), ["POST /api/sessions/s1/actions", "POST /api/sessions/s2/actions"]);
  });

  it("closes the stream while the page is in the back/forward cache, and resumes it after", async () => {
    globalThis.window = new EventTarget();
    const pageEvent = (type, persisted) => window.dispatchEvent(Object.assign(new Event(type), { persisted }));
    const client = makeClient();
    await client.connect();
    latest().open();
    latest().emit("state", { version: 2, state: { count: 2 } });
    pageEvent("pagehide", false); // a page being unloaded for good closes its stream anyway
    assert.ok(!latest().closed);
    pageEvent("pagehide", true);
    assert.ok(latest().closed, "a cached page kept its stream");
    pageEvent("pageshow", true);
    assert.equal(FakeEventSource.instances.length, 2);
    assert.equal(latest().query.get("lastEventId"), "2");
  });

  it("asks for presence and reports it while the stream is open", async () => {
    const client = makeClient({ presence: true });
    const seen = [];
    client.onPresence((presence) => seen.push(presence));
    await client.connect();
    assert.equal(latest().query.get("presence"), "1");
    latest().open();
    latest().emit("presence", { session: 2, everyone: 5 });
    assert.deepEqual(client.presence, { session: 2, everyone: 5 });
    latest().fail();
    assert.deepEqual(seen, [null, { session: 2, everyone: 5 }, null]);
    assert.equal(makeClient().presence, null);
  });
});
