// Unit tests for StoreHostClient (Public/storehost.js) against a fake server: fetch and
// EventSource are replaced by fakes, so these check the client's own logic (sessions,
// patches, resync, reconnection with backoff) without a browser.
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

/** Answers requests from `routes` ("METHOD /path" -> function returning [status, body] or throwing). */
function fakeFetch(routes, calls) {
  return async (url, init) => {
    const key = `${init.method} ${url}`;
    calls.push({ key, body: init.body, at: Date.now() });
    const route = routes[key];
    if (!route) return response(404, { error: { code: "session_not_found", message: "No session has this id; it may have ended." } });
    const [status, body] = route(init);
    return response(status, body);
  };
}

function response(status, body) {
  return { ok: status >= 200 && status < 300, status, text: async () => (body === undefined ? "" : JSON.stringify(body)) };
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

beforeEach(() => {
  FakeEventSource.instances = [];
  calls = [];
  routes = {
    "POST /api/sessions": () => [201, { id: "s1", token: "t", version: 0, state: { count: 0 } }],
  };
  globalThis.EventSource = FakeEventSource;
  globalThis.fetch = fakeFetch(routes, calls);
});

afterEach(() => {
  delete globalThis.EventSource;
  delete globalThis.fetch;
});

function makeClient(options = {}) {
  return new StoreHostClient({ storageKey: null, urlParameter: null, initialDelay: 10, maxDelay: 80, ...options });
}

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

  it("creates a new session when the old one is gone", async () => {
    const client = makeClient();
    const events = [];
    client.onEvent((event) => events.push(event.type === "session" ? `session ${event.id}` : event.type));
    await client.connect();
    latest().open();
    routes["POST /api/sessions"] = () => [201, { id: "s2", token: "t", version: 0, state: { count: 0 } }];
    latest().fail(); // GET /api/sessions/s1 now answers 404
    await until(() => client.sessionId === "s2", "no new session");
    assert.match(latest().url, /^\/api\/sessions\/s2\/events/);
    assert.ok(calls.some((call) => call.key === "GET /api/sessions/s1"));
    assert.deepEqual(events, ["session s1", "state", "session s2", "state"]);
    client.close();
  });

  it("takes the server's state when the server lost versions", async () => {
    const client = makeClient();
    await client.connect();
    latest().emit("state", { version: 7, state: { count: 7 } });
    latest().emit("state", { version: 4, state: { count: 4 } });
    assert.deepEqual([client.version, client.state], [4, { count: 4 }]);
    client.close();
  });

  it("sends actions one after another and rejects with the server's message", async () => {
    let inFlight = 0;
    let most = 0;
    routes["POST /api/sessions/s1/actions"] = (init) => {
      const action = JSON.parse(init.body);
      if (action === "nope") return [400, { error: { code: "invalid_action", message: "Unknown action nope." } }];
      return [202, { version: 1 }];
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
    await client.connect();
    const results = await Promise.allSettled([client.send({ a: 1 }), client.send("nope"), client.send([{ b: 2 }, { c: 3 }])]);
    assert.equal(results[0].value, 1);
    assert.equal(results[1].reason.message, "Unknown action nope.");
    assert.equal(results[1].reason.code, "invalid_action");
    assert.equal(results[1].reason.status, 400);
    assert.equal(results[2].value, 1);
    assert.equal(most, 1, "sends overlapped");
    const bodies = calls.filter((call) => call.key.endsWith("/actions")).map((call) => call.body);
    assert.deepEqual(bodies, ['{"a":1}', '"nope"', '[{"b":2},{"c":3}]']);
    client.close();
  });
});
