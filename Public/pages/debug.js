// Debug: the session's action log (`?log=1`) and every change, in arrival order, beside the
// live state. It listens from the moment the page loads, whichever page is showing. Below
// them, time travel over the history the server keeps of the session.
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

  const history = setupHistory(section, { client, showError });

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
    history.sessionChanged();
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

/**
 * Time travel: the steps of the session's history that the server keeps
 * (`GET /api/sessions/{id}/history`), a slider over them showing the state at each step's
 * version and the actions that made it, "Fork from here" (a new session from that state,
 * opened in a new tab) and "Export test" (the TestStore test that rebuilds the session).
 * View only: nothing here is sent to the live session. The history is loaded when the Debug
 * page opens, and again with "Reload history".
 *
 * @param {HTMLElement} section
 * @param {{ client: import("./render.js").PageContext["client"], showError: (message: string) => void }} context
 */
function setupHistory(section, { client, showError }) {
  const body = section.querySelector("#history-body");
  const empty = section.querySelector("#history-empty");
  const slider = section.querySelector("#history-slider");
  const position = section.querySelector("#history-position");
  const versionText = section.querySelector("#history-version");
  const timeText = section.querySelector("#history-time");
  const kindText = section.querySelector("#history-kind");
  const actionsList = section.querySelector("#history-actions");
  const opsList = section.querySelector("#history-ops");
  const stateView = section.querySelector("#history-state");
  const load = section.querySelector("#history-load");
  const fork = section.querySelector("#history-fork");
  const exportLink = section.querySelector("#history-export");
  /** @type {Array<any>} */
  let steps = [];
  /** The states already fetched, by version. */
  const states = new Map();
  let loadedFor = null;
  let shownStep = 0;

  /** `path` below this session's URL, with its cookie; throws the server's error message. */
  async function request(path, init = {}) {
    const response = await fetch(`/api/sessions/${encodeURIComponent(client.sessionId ?? "")}${path}`, {
      credentials: "same-origin",
      ...init,
    });
    const answer = await response.json().catch(() => null);
    if (!response.ok) throw new Error(answer?.error?.message ?? `The server answered ${response.status}.`);
    return answer;
  }

  async function loadHistory() {
    const id = client.sessionId;
    if (!id) return;
    loadedFor = id;
    load.disabled = true;
    try {
      const loaded = [];
      let from = 0;
      for (;;) {
        const page = await request(`/history?from=${from}&limit=500`);
        loaded.push(...page.steps);
        if (page.next === null) break;
        from = page.next;
      }
      steps = loaded;
      states.clear();
      body.hidden = steps.length === 0;
      empty.hidden = steps.length > 0;
      slider.max = String(Math.max(steps.length - 1, 0));
      slider.value = slider.max;
      fork.disabled = steps.length === 0;
      exportLink.setAttribute("href", `/api/sessions/${encodeURIComponent(id)}/history/test.swift`);
      exportLink.setAttribute("aria-disabled", String(steps.length === 0));
      load.textContent = "Reload history";
      await showStep(steps.length - 1);
    } catch (error) {
      body.hidden = true;
      empty.hidden = false;
      empty.textContent = error.message;
    } finally {
      load.disabled = false;
    }
  }

  /** Shows step `index`: its version, time, kind, actions and patch, and the state after it. */
  async function showStep(index) {
    const step = steps[index];
    if (!step) return;
    shownStep = index;
    position.textContent = `step ${index + 1} of ${steps.length}`;
    versionText.textContent = `v${step.version}`;
    const time = new Date(step.time);
    timeText.textContent = formatTime(time);
    timeText.setAttribute("datetime", time.toISOString());
    kindText.textContent = stepKinds[step.kind] ?? step.kind;
    actionsList.replaceChildren(
      ...step.actions.map((recorded) => {
        const item = document.createElement("li");
        item.append(text("span", "log-payload", recorded.source === "effect" ? "effect → " : "client → "));
        item.append(describeAction(recorded.action));
        return item;
      }),
    );
    opsList.replaceChildren(...(step.patch ?? []).map(describeOp));
    if (step.patch?.length === 0) opsList.append(text("li", "log-payload", "no change"));
    let state = states.get(step.version);
    if (state === undefined) {
      try {
        state = JSON.stringify((await request(`/history/${step.version}`)).state, null, 2);
        states.set(step.version, state);
      } catch (error) {
        state = error.message;
      }
    }
    // A later step may have been chosen meanwhile.
    if (shownStep === index) stateView.textContent = state;
  }

  slider.addEventListener("input", () => showStep(Number(slider.value)));
  load.addEventListener("click", loadHistory);

  fork.addEventListener("click", async () => {
    const step = steps[Number(slider.value)];
    if (!step) return;
    // Opened now, while the click counts as the user's, so no popup blocker stops it.
    const tab = window.open("about:blank", "_blank");
    try {
      const forked = await request("/fork", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ version: step.version }),
      });
      const url = new URL(location.href);
      url.searchParams.set("session", forked.id);
      url.hash = "#/debug";
      if (tab) tab.location.href = url.href;
      else showError(`Forked session ${forked.id}; the browser did not let this page open a tab for it.`);
    } catch (error) {
      tab?.close();
      showError(error.message);
    }
  });

  exportLink.addEventListener("click", (event) => {
    if (exportLink.getAttribute("aria-disabled") === "true") event.preventDefault();
  });

  window.addEventListener("hashchange", () => {
    if (location.hash === "#/debug") loadHistory();
  });

  return {
    /** Loads the history the first time the page shows a session here, and again for a new one. */
    sessionChanged() {
      if (client.sessionId && loadedFor !== client.sessionId && !section.hidden) loadHistory();
    },
  };
}

/** What each kind of history step says. */
const stepKinds = {
  actions: "",
  shared: "a shared value changed elsewhere",
  created: "the session began",
  resumed: "the session was rebuilt from its saved state",
  cleared: "the history was cleared",
};

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
