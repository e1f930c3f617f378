// The demo app: one StoreHostClient for this tab, hash routing between the demo pages, and
// the connection in the top bar (status, sends on their way, who else watches), with a banner
// while disconnected and a notice once the session has ended. Each page script renders its
// part of the state.
import { Status, StoreHostClient } from "/storehost/v1/storehost.js";
import { plural } from "./pages/render.js";
import { setupCounter } from "./pages/counter.js";
import { setupTwoCounters } from "./pages/two-counters.js";
import { setupTodos } from "./pages/todos.js";
import { setupNumberFact } from "./pages/number-fact.js";
import { setupTimer } from "./pages/timer.js";
import { setupShared } from "./pages/shared.js";
import { setupContacts } from "./pages/contacts.js";
import { setupDebug } from "./pages/debug.js";

/** @type {StoreHostClient<import("./app-types").State, import("./app-types").Action>} */
const client = new StoreHostClient({ log: true, presence: true });
// Handy in the browser console (`storehost.state`, `storehost.send(...)`) and for tests.
window.storehost = client;

const toast = document.getElementById("toast");
let toastTimer;

/** Shows `message` briefly in an alert region (read out by screen readers). */
function showError(message) {
  toast.textContent = message;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.hidden = true), 5000);
}

/**
 * Sends `action`; a failure shows the server's message and brings the view back to the state.
 * Sends dropped because the session ended or was replaced need no message: the page shows that.
 */
function send(action) {
  return client.send(action).catch((error) => {
    if (client.status !== Status.ended && error.code !== "session_replaced") showError(error.message);
    if (client.state !== undefined) renderAll(client.state, client.version);
    throw error;
  });
}

/** @type {import("./pages/render.js").PageContext} */
const context = { client, send, showError };
/** @type {Array<[string, (section: HTMLElement, context: import("./pages/render.js").PageContext) => (state: any, version: number) => void]>} */
const setups = [
  ["counter", setupCounter],
  ["two-counters", setupTwoCounters],
  ["todos", setupTodos],
  ["number-fact", setupNumberFact],
  ["timer", setupTimer],
  ["shared", setupShared],
  ["contacts", setupContacts],
  ["debug", setupDebug],
];
const pages = new Map(
  setups.map(([name, setup]) => [name, setup(document.querySelector(`[data-page="${name}"]`), context)]),
);

function renderAll(state, version) {
  for (const render of pages.values()) render(state, version);
  document.body.dataset.version = String(version);
  document.getElementById("footer-version").textContent = String(version);
  document.getElementById("footer-session").textContent = client.sessionId ?? "–";
  updateOpenTabLinks();
}

/** "Open in another tab" links: this page, joined to this tab's session. */
function updateOpenTabLinks() {
  const url = new URL(location.href);
  if (client.sessionId) url.searchParams.set("session", client.sessionId);
  for (const link of document.querySelectorAll("[data-open-tab]")) link.setAttribute("href", url.href);
}

// MARK: Connection

const statusText = {
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  ended: "Ended",
  closed: "Offline",
};

const main = document.getElementById("main");
const pending = document.getElementById("pending");
const banner = document.getElementById("offline-banner");
const ended = document.getElementById("ended");
const restart = document.getElementById("ended-restart");
let pendingCount = 0;
// A first connection gets a moment before it counts as trouble, so page loads show no banner.
let connectingTooLong = false;
let connectingTimer;

function renderConnection() {
  const { status } = client;
  document.body.dataset.status = status;
  document.getElementById("connection-text").textContent = statusText[status] ?? status;
  pending.hidden = pendingCount === 0;
  pending.textContent = `Sending ${pendingCount}…`;
  // Controls stay usable while disconnected: what is clicked waits in the queue.
  banner.hidden = !(status === Status.reconnecting || (status === Status.connecting && connectingTooLong));
  document.getElementById("offline-title").textContent =
    status === Status.reconnecting ? "Connection lost. Reconnecting…" : "Connecting to the server…";
  document.getElementById("offline-detail").textContent =
    pendingCount > 0
      ? `Your ${plural(pendingCount, "change", "changes")} will be sent once it is back.`
      : "What you do meanwhile will be sent once it is back.";
  const wasEnded = !ended.hidden;
  ended.hidden = status !== Status.ended;
  main.inert = status === Status.ended;
  if (!wasEnded && status === Status.ended) restart.focus();
}

client.onStatus((status) => {
  clearTimeout(connectingTimer);
  connectingTooLong = false;
  if (status === Status.connecting) {
    connectingTimer = setTimeout(() => {
      connectingTooLong = true;
      renderConnection();
    }, 1000);
  }
  renderConnection();
});

client.onPending((count) => {
  pendingCount = count;
  renderConnection();
});

restart.addEventListener("click", () => {
  client.startNewSession().catch((error) => showError(error.message));
});

// MARK: Presence

const presenceText = {
  session: ({ session }) => `${plural(session, "tab", "tabs")} on this session`,
  everyone: ({ everyone }) => `${everyone} watching the shared counter`,
};

client.onPresence((presence) => {
  for (const holder of document.querySelectorAll("[data-shows-presence]")) holder.hidden = presence === null;
  if (presence === null) return;
  for (const part of document.querySelectorAll("[data-presence]")) {
    part.textContent = presenceText[part.dataset.presence](presence);
  }
});

// MARK: Routing

const defaultRoute = "counter";
let currentRoute = null;

function routeFromHash() {
  const name = location.hash.startsWith("#/") ? location.hash.slice(2) : "";
  return pages.has(name) ? name : null;
}

function show(route, { moveFocus }) {
  currentRoute = route;
  for (const section of document.querySelectorAll("[data-page]")) {
    section.hidden = section.dataset.page !== route;
  }
  for (const link of document.querySelectorAll("[data-route]")) {
    if (link.dataset.route === route) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const section = document.querySelector(`[data-page="${route}"]`);
  const heading = section.querySelector("h1");
  document.title = `${heading.textContent} · StoreHost demo`;
  document.querySelector(`[data-route="${route}"]`)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  updateTabEdges();
  updateOpenTabLinks();
  // After a navigation, start reading at the new page's heading, as a page load would.
  if (moveFocus) heading.focus({ preventScroll: true });
}

// Fade the tab bar's edge where more tabs hide (phones).
const tabList = document.querySelector(".tabs ul");
function updateTabEdges() {
  const { scrollLeft, scrollWidth, clientWidth } = tabList;
  tabList.classList.toggle("more-left", scrollLeft > 1);
  tabList.classList.toggle("more-right", scrollLeft + clientWidth < scrollWidth - 1);
}
tabList.addEventListener("scroll", updateTabEdges, { passive: true });
window.addEventListener("resize", updateTabEdges);

window.addEventListener("hashchange", () => {
  const route = routeFromHash();
  if (route) show(route, { moveFocus: true });
  else if (!currentRoute) show(defaultRoute, { moveFocus: false });
});

// The skip link targets #main, which is not a route: move focus without touching the hash.
document.querySelector("[data-skip]").addEventListener("click", (event) => {
  event.preventDefault();
  document.getElementById("main").focus();
});

show(routeFromHash() ?? defaultRoute, { moveFocus: false });

// MARK: Start

client.subscribe(renderAll);
client.connect().catch(() => {}); // it rejects only when the session is gone, which the ended notice shows
