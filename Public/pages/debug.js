// Debug: the session's action log (`?log=1`) and every change, in arrival order, beside the
// live state. It listens from the moment the page loads, whichever page is showing.
import { plural } from "./render.js";

const maxEntries = 500;

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupDebug(section, { client, showError }) {
  const log = section.querySelector("#debug-log");
  const empty = section.querySelector("#debug-empty");
  const stateView = section.querySelector("#debug-state");
  const stateVersion = section.querySelector("#debug-state-version");
  const sessionText = section.querySelector("#debug-session");
  const versionText = section.querySelector("#debug-version");
  const statusText = section.querySelector("#debug-status");
  const countText = section.querySelector("#debug-count");
  const showChanges = section.querySelector("#debug-show-changes");
  let received = 0;

  client.onStatus((status) => (statusText.textContent = status));

  client.onEvent((event) => {
    received += 1;
    countText.textContent = plural(received, "event", "events");
    const entry = renderEntry(event);
    if (!entry) return;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    log.append(entry);
    while (log.children.length > maxEntries) log.firstElementChild.remove();
    empty.hidden = true;
    if (atBottom) log.scrollTop = log.scrollHeight;
  });

  showChanges.addEventListener("change", () => {
    for (const entry of log.querySelectorAll(".log-change, .log-state")) entry.hidden = !showChanges.checked;
  });

  section.querySelector("#debug-clear").addEventListener("click", () => {
    log.replaceChildren();
    empty.hidden = false;
  });

  section.querySelector("#debug-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(client.state, null, 2));
    } catch {
      showError("The browser did not allow copying; select the state text instead.");
    }
  });

  section.querySelector("#debug-new-session").addEventListener("click", async () => {
    if (!confirm("Start a new, empty session in this tab? The current one ends, unless another tab shows it.")) return;
    try {
      await client.startNewSession();
    } catch (error) {
      showError(error.message);
    }
  });

  function renderEntry(event) {
    switch (event.type) {
      case "action":
        return entry("action", "action", event.receivedAt, describeAction(event.action));
      case "patch": {
        const ops = document.createElement("ul");
        ops.className = "log-ops";
        for (const op of event.ops) ops.append(describeOp(op));
        if (event.ops.length === 0) ops.append(text("li", "log-payload", "no change"));
        const row = entry("change", `v${event.version}`, event.receivedAt, ops);
        row.hidden = !showChanges.checked;
        return row;
      }
      case "state": {
        const row = entry("state", `v${event.version}`, event.receivedAt, text("span", "log-payload", "full state"));
        row.hidden = !showChanges.checked;
        return row;
      }
      case "session":
        return entry("session", "session", event.receivedAt,
          text("span", "log-payload", `${event.created ? "created" : "resumed"} ${event.id}`));
      default:
        return null;
    }
  }

  return (state, version) => {
    sessionText.textContent = client.sessionId ?? "–";
    versionText.textContent = String(version);
    stateVersion.textContent = `version ${version}`;
    const json = JSON.stringify(state, null, 2);
    if (stateView.textContent !== json) {
      stateView.textContent = json;
      if (!section.hidden && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
        stateView.classList.remove("flash");
        void stateView.offsetWidth;
        stateView.classList.add("flash");
      }
    }
  };
}

/** One log row: time, a kind badge, and a body. */
function entry(kind, badge, time, body) {
  const row = document.createElement("li");
  row.className = `log-entry log-${kind}`;
  const stamp = text("time", "log-time", formatTime(time));
  stamp.dateTime = time.toISOString();
  row.append(stamp, text("span", "log-kind", badge));
  const holder = document.createElement("div");
  holder.className = "log-body";
  if (body) holder.append(body);
  row.append(holder);
  return row;
}

/**
 * An action as its path of cases and the payload at the end, close to how TCA prints it:
 * `{"counter": "incrementButtonTapped"}` reads `counter.incrementButtonTapped`, and
 * `{"todos": {"binding": {"newTodoText": "Milk"}}}` reads `todos.binding \.newTodoText = "Milk"`.
 */
function describeAction(action) {
  const path = [];
  let value = action;
  while (isSingleKeyObject(value) && path.at(-1) !== "binding") {
    const [key] = Object.keys(value);
    path.push(key);
    value = value[key];
  }
  const fragment = document.createDocumentFragment();
  if (path.at(-1) === "binding" && isSingleKeyObject(value)) {
    const [field] = Object.keys(value);
    fragment.append(
      text("span", "log-name", path.join(".")),
      " ",
      text("span", "log-field", `\\.${field}`),
      " = ",
      text("span", "log-payload", shorten(JSON.stringify(value[field]))),
    );
    return fragment;
  }
  if (typeof value === "string") {
    // A case without payload, encoded as its name.
    path.push(value);
    value = undefined;
  }
  fragment.append(text("span", "log-name", path.join(".") || "(action)"));
  if (value !== undefined) fragment.append(" ", text("span", "log-payload", shorten(JSON.stringify(value))));
  return fragment;
}

function isSingleKeyObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1;
}

function describeOp(op) {
  const item = document.createElement("li");
  item.append(text("span", `op-name op-${op.op}`, op.op), " ", op.path ?? "");
  if (op.from !== undefined) item.append(` ← ${op.from}`);
  if (op.value !== undefined) item.append(" ", text("span", "log-payload", shorten(JSON.stringify(op.value))));
  return item;
}

function text(tag, className, content) {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = content;
  return element;
}

function shorten(string, limit = 160) {
  return string.length > limit ? `${string.slice(0, limit - 1)}…` : string;
}

function formatTime(date) {
  const pad = (n, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}
