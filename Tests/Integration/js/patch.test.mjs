// Unit tests for the JSON Patch (RFC 6902) applier and JSON Pointer (RFC 6901) parser in
// json-patch.js (re-exported by storehost.js). Run: Tests/Integration/js_tests.sh
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { applyPatch, jsonEqual, parsePointer, PatchError } from "../../../Sources/StoreHost/BrowserClient/json-patch.js";

describe("parsePointer", () => {
  it("gives no tokens for the whole document", () => {
    assert.deepEqual(parsePointer(""), []);
  });

  it("splits on slashes, keeping empty tokens", () => {
    assert.deepEqual(parsePointer("/a/0/b"), ["a", "0", "b"]);
    assert.deepEqual(parsePointer("/"), [""]);
    assert.deepEqual(parsePointer("/a//b"), ["a", "", "b"]);
  });

  it("unescapes ~1 to / and ~0 to ~, in that order", () => {
    assert.deepEqual(parsePointer("/a~1b/m~0n/~01"), ["a/b", "m~n", "~1"]);
  });

  it("rejects a pointer without a leading slash or with a bad escape", () => {
    assert.throws(() => parsePointer("a/b"), PatchError);
    assert.throws(() => parsePointer("/a~2"), PatchError);
    assert.throws(() => parsePointer("/a~"), PatchError);
  });
});

describe("applyPatch", () => {
  it("adds object members and array elements, '-' appends", () => {
    const doc = { list: [1, 3] };
    const result = applyPatch(doc, [
      { op: "add", path: "/name", value: "x" },
      { op: "add", path: "/list/1", value: 2 },
      { op: "add", path: "/list/-", value: 4 },
      { op: "add", path: "/list/4", value: 5 },
    ]);
    assert.deepEqual(result, { list: [1, 2, 3, 4, 5], name: "x" });
  });

  it("add replaces an existing member", () => {
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: "add", path: "/a", value: [2] }]), { a: [2] });
  });

  it("removes members and elements", () => {
    const result = applyPatch({ a: 1, b: [1, 2, 3] }, [
      { op: "remove", path: "/a" },
      { op: "remove", path: "/b/0" },
    ]);
    assert.deepEqual(result, { b: [2, 3] });
  });

  it("replaces members, elements and the whole document", () => {
    assert.deepEqual(applyPatch({ a: { b: 1 }, c: [0] }, [
      { op: "replace", path: "/a/b", value: null },
      { op: "replace", path: "/c/0", value: "z" },
    ]), { a: { b: null }, c: ["z"] });
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: "replace", path: "", value: [1] }]), [1]);
  });

  it("moves values between objects and within an array", () => {
    assert.deepEqual(applyPatch({ a: { x: 1 }, b: {} }, [{ op: "move", from: "/a/x", path: "/b/y" }]), { a: {}, b: { y: 1 } });
    assert.deepEqual(applyPatch([1, 2, 3, 4], [{ op: "move", from: "/1", path: "/3" }]), [1, 3, 4, 2]);
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: "move", from: "/a", path: "/a" }]), { a: 1 });
  });

  it("refuses to move a value into its own child", () => {
    assert.throws(() => applyPatch({ a: { b: {} } }, [{ op: "move", from: "/a", path: "/a/b/c" }]), PatchError);
  });

  it("copies deeply, so later changes to the copy leave the source alone", () => {
    const result = applyPatch({ a: { n: 1 } }, [
      { op: "replace", path: "/a/n", value: 2 },
      { op: "copy", from: "/a", path: "/b" },
      { op: "add", path: "/b/m", value: 3 },
    ]);
    assert.deepEqual(result, { a: { n: 2 }, b: { n: 2, m: 3 } });
  });

  it("test compares JSON values regardless of member order", () => {
    const doc = { a: { x: [1, { y: "z" }], w: true } };
    assert.equal(applyPatch(doc, [{ op: "test", path: "/a", value: { w: true, x: [1, { y: "z" }] } }]), doc);
    assert.throws(() => applyPatch(doc, [{ op: "test", path: "/a/w", value: 1 }]), /test failed/);
    assert.throws(() => applyPatch(doc, [{ op: "test", path: "/a/x", value: [1] }]), PatchError);
  });

  it("resolves escaped member names", () => {
    const result = applyPatch({ "a/b": 1, "m~n": 2 }, [
      { op: "replace", path: "/a~1b", value: 10 },
      { op: "remove", path: "/m~0n" },
    ]);
    assert.deepEqual(result, { "a/b": 10 });
  });

  it("leaves the input unchanged and shares what did not change", () => {
    const doc = { counter: { count: 1 }, todos: { todos: [{ id: "a", done: false }] } };
    const before = JSON.parse(JSON.stringify(doc));
    const result = applyPatch(doc, [{ op: "replace", path: "/counter/count", value: 2 }]);
    assert.deepEqual(doc, before);
    assert.equal(result.counter.count, 2);
    assert.notEqual(result.counter, doc.counter);
    assert.equal(result.todos, doc.todos);
  });

  it("is all or nothing: a failing operation throws with its index", () => {
    const doc = { a: 1 };
    assert.throws(
      () => applyPatch(doc, [{ op: "replace", path: "/a", value: 2 }, { op: "remove", path: "/missing" }]),
      (error) => error instanceof PatchError && error.index === 1,
    );
    assert.deepEqual(doc, { a: 1 });
  });

  it("rejects missing locations, bad indexes and malformed operations", () => {
    const cases = [
      [{ a: [1] }, { op: "add", path: "/a/2", value: 0 }],
      [{ a: [1] }, { op: "add", path: "/a/01", value: 0 }],
      [{ a: [1] }, { op: "replace", path: "/a/1", value: 0 }],
      [{ a: [1] }, { op: "remove", path: "/a/-" }],
      [{ a: 1 }, { op: "add", path: "/b/c", value: 0 }],
      [{ a: 1 }, { op: "add", path: "/a/c", value: 0 }],
      [{ a: 1 }, { op: "replace", path: "/b", value: 0 }],
      [{ a: 1 }, { op: "add", path: "/b" }],
      [{ a: 1 }, { op: "copy", from: "/nope", path: "/b" }],
      [{ a: 1 }, { op: "remove", path: "" }],
      [{ a: 1 }, { op: "frobnicate", path: "/a" }],
      [{ a: 1 }, { path: "/a", value: 1 }],
    ];
    for (const [doc, operation] of cases) {
      assert.throws(() => applyPatch(doc, [operation]), PatchError, JSON.stringify(operation));
    }
  });

  it("treats __proto__ as an ordinary member", () => {
    const result = applyPatch({}, [{ op: "add", path: "/__proto__", value: { polluted: true } }]);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ["__proto__"]);
    assert.equal({}.polluted, undefined);
  });

  it("applies a server-shaped patch to the demo state", () => {
    const state = { todos: { filter: "all", newTodoText: "Milk", todos: [] } };
    const result = applyPatch(state, [
      { op: "replace", path: "/todos/newTodoText", value: "" },
      { op: "add", path: "/todos/todos/0", value: { id: "1", title: "Milk", isComplete: false } },
    ]);
    assert.ok(jsonEqual(result, { todos: { filter: "all", newTodoText: "", todos: [{ id: "1", title: "Milk", isComplete: false }] } }));
  });
});
