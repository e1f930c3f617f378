// Shared counter: one count for every session on the server (`state.shared`), when the
// server's feature has it.
import { setText } from "./render.js";

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupShared(section, { send }) {
  const count = section.querySelector("#shared-count");
  const button = section.querySelector("#shared-increment");
  const unavailable = section.querySelector("#shared-unavailable");
  const label = section.querySelector("#shared-label");
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-disabled") === "true") return;
    send({ shared: "incrementButtonTapped" }).catch(() => {});
  });
  return (state) => {
    const available = typeof state.shared?.count === "number";
    unavailable.hidden = available;
    label.hidden = !available;
    button.setAttribute("aria-disabled", String(!available));
    section.dataset.available = String(available);
    setText(count, available ? state.shared.count : "", { bump: true });
  };
}
