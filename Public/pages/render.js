// Small helpers the page scripts share, and the types they are checked against
// (Public/app-types.d.ts, from `storehost schema --typescript`).

/**
 * @typedef {import("../app-types").State} State
 * @typedef {import("../app-types").Action} Action
 * @typedef {object} PageContext What every page script gets from app.js.
 * @property {import("/storehost/v1/storehost.js").StoreHostClient<State, Action>} client
 * @property {(action: Action | Action[]) => Promise<number>} send Sends and shows a failure.
 * @property {(message: string) => void} showError
 */

/**
 * Sets an element's text when it changed; with `bump`, plays a short highlight animation
 * so a change made elsewhere (another tab, an effect) is noticed.
 */
export function setText(element, value, { bump = false } = {}) {
  const text = String(value);
  if (element.textContent === text) return;
  const hadText = element.dataset.rendered === "1";
  element.textContent = text;
  element.dataset.rendered = "1";
  if (bump && hadText && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
    element.classList.remove("bump");
    void element.offsetWidth; // restart the animation
    element.classList.add("bump");
  }
}

/** "1 item", "2 items". */
export function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}
