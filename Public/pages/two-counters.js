// Two counters: the Counter feature scoped twice.
import { setText } from "./render.js";

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupTwoCounters(section, { send }) {
  for (const button of section.querySelectorAll("[data-counter]")) {
    button.addEventListener("click", () => {
      const step = button.dataset.step === "increment" ? "incrementButtonTapped" : "decrementButtonTapped";
      send({ twoCounters: button.dataset.counter === "first" ? { first: step } : { second: step } }).catch(() => {});
    });
  }
  const first = section.querySelector("#first-count");
  const second = section.querySelector("#second-count");
  return (state) => {
    setText(first, state.twoCounters?.first?.count ?? "–", { bump: true });
    setText(second, state.twoCounters?.second?.count ?? "–", { bump: true });
  };
}
