// JSON Patch (RFC 6902) and JSON Pointer (RFC 6901), as the StoreHost client applies the
// `event: patch` changes of a session's state. Dependency-free; usable on its own:
//
//   import { applyPatch } from "/storehost/v1/json-patch.js";
//   const next = applyPatch(state, [{ op: "replace", path: "/counter/count", value: 2 }]);

/** A JSON Patch that cannot be applied; `index` is the failing operation's position. */
export class PatchError extends Error {
  /**
   * @param {string} message
   * @param {number} [index]
   */
  constructor(message, index) {
    super(index === undefined ? message : `operation ${index}: ${message}`);
    this.name = "PatchError";
    this.index = index;
  }
}

/**
 * Splits a JSON Pointer (RFC 6901) into its unescaped reference tokens: `~1` becomes `/`
 * and `~0` becomes `~`. `""` is the whole document and gives `[]`.
 * @param {string} pointer Such as `/todos/todos/0/isComplete`.
 * @returns {string[]}
 * @throws {PatchError} When the pointer is not empty and does not start with `/`, or holds
 *   a `~` not followed by `0` or `1`.
 */
export function parsePointer(pointer) {
  if (typeof pointer !== "string") throw new PatchError(`a JSON Pointer must be a string, not ${typeof pointer}`);
  if (pointer === "") return [];
  if (pointer[0] !== "/") throw new PatchError(`the JSON Pointer "${pointer}" must start with "/"`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new PatchError(`the JSON Pointer "${pointer}" has a "~" that is not "~0" or "~1"`);
      return token.replaceAll("~1", "/").replaceAll("~0", "~");
    });
}

/**
 * Applies a JSON Patch (RFC 6902: `add`, `remove`, `replace`, `move`, `copy`, `test`) and
 * returns the new document. `document` is left unchanged: containers on the changed paths
 * are copied, the rest is shared with the result. All or nothing: if one operation fails,
 * it throws and no result exists.
 * @param {any} document A JSON value.
 * @param {Array<{op: string, path: string, value?: any, from?: string}>} operations
 * @returns {any} The patched document.
 * @throws {PatchError} When an operation is malformed, names a missing location, or a
 *   `test` fails.
 */
export function applyPatch(document, operations) {
  if (!Array.isArray(operations)) throw new PatchError("a JSON Patch must be an array of operations");
  const patcher = new Patcher(document);
  operations.forEach((operation, index) => {
    try {
      patcher.apply(operation);
    } catch (error) {
      throw error instanceof PatchError ? new PatchError(error.message, index) : error;
    }
  });
  return patcher.root;
}

/** Applies operations one by one, copying each container before its first change. */
class Patcher {
  /** Containers made by this patch: safe to change in place. */
  #owned = new WeakSet();

  constructor(root) {
    this.root = root;
  }

  apply(operation) {
    if (operation === null || typeof operation !== "object") throw new PatchError("an operation must be an object");
    const { op } = operation;
    const path = parsePointer(operation.path);
    switch (op) {
      case "add":
        return this.#add(path, requireValue(operation));
      case "remove":
        return this.#remove(path);
      case "replace":
        return this.#replace(path, requireValue(operation));
      case "move": {
        const from = parsePointer(operation.from);
        if (isProperPrefix(from, path)) throw new PatchError(`cannot move "${operation.from}" into its own child "${operation.path}"`);
        if (from.length === path.length && from.every((token, i) => token === path[i])) {
          this.#get(from); // must exist, but moving to itself changes nothing
          return;
        }
        const value = this.#get(from);
        this.#remove(from);
        return this.#add(path, value);
      }
      case "copy": {
        const value = this.#get(parsePointer(operation.from));
        // A deep copy, so later operations on either place cannot change the other.
        return this.#add(path, deepCopy(value));
      }
      case "test": {
        const actual = this.#get(path);
        if (!jsonEqual(actual, requireValue(operation))) throw new PatchError(`test failed at "${operation.path}"`);
        return;
      }
      default:
        throw new PatchError(`unknown op ${JSON.stringify(op)}`);
    }
  }

  #get(tokens) {
    let node = this.root;
    for (const token of tokens) {
      if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
      else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
      else throw new PatchError(`nothing at "${formatPointer(tokens)}"`);
    }
    return node;
  }

  #add(tokens, value) {
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const { parent, key } = this.#parentOf(tokens);
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
    else defineMember(parent, key, value);
  }

  #remove(tokens) {
    if (tokens.length === 0) throw new PatchError("cannot remove the whole document");
    const { parent, key } = this.#parentOf(tokens);
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
    else if (Object.hasOwn(parent, key)) delete parent[key];
    else throw new PatchError(`nothing to remove at "${formatPointer(tokens)}"`);
  }

  #replace(tokens, value) {
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const { parent, key } = this.#parentOf(tokens);
    if (Array.isArray(parent)) parent[arrayIndex(parent, key, false)] = value;
    else if (Object.hasOwn(parent, key)) defineMember(parent, key, value);
    else throw new PatchError(`nothing to replace at "${formatPointer(tokens)}"`);
  }

  /** The container that holds `tokens`' last token, made safe to change (copied once). */
  #parentOf(tokens) {
    this.root = this.#own(this.root, []);
    let node = this.root;
    for (let i = 0; i < tokens.length - 1; i++) {
      const token = tokens[i];
      let index = token;
      if (Array.isArray(node)) index = arrayIndex(node, token, false);
      else if (!Object.hasOwn(node, token)) throw new PatchError(`nothing at "${formatPointer(tokens.slice(0, i + 1))}"`);
      const child = this.#own(node[index], tokens.slice(0, i + 1));
      if (Array.isArray(node)) node[index] = child;
      else defineMember(node, index, child);
      node = child;
    }
    return { parent: node, key: tokens[tokens.length - 1] };
  }

  #own(container, tokens) {
    if (!Array.isArray(container) && !isObject(container)) {
      throw new PatchError(`"${formatPointer(tokens)}" is not an object or array`);
    }
    if (this.#owned.has(container)) return container;
    // Spread defines own properties, so a "__proto__" member stays a member.
    const copy = Array.isArray(container) ? [...container] : { ...container };
    this.#owned.add(copy);
    return copy;
  }
}

function requireValue(operation) {
  if (!Object.hasOwn(operation, "value")) throw new PatchError(`"${operation.op}" needs a "value"`);
  return operation.value;
}

/** An array index token: `0` or digits without a leading zero; `-` (the end) only to add. */
function arrayIndex(array, token, forAdding) {
  if (forAdding && token === "-") return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`"${token}" is not an array index`);
  const index = Number(token);
  if (index > array.length || (!forAdding && index === array.length)) {
    throw new PatchError(`index ${index} is out of bounds (length ${array.length})`);
  }
  return index;
}

function defineMember(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isProperPrefix(prefix, tokens) {
  return prefix.length < tokens.length && prefix.every((token, i) => token === tokens[i]);
}

function formatPointer(tokens) {
  return tokens.map((token) => "/" + token.replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

function deepCopy(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** JSON equality: same type and value; objects compare members regardless of order. */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}
