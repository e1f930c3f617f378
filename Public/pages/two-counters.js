// Two counters: the Counter feature scoped twice.
import { setText } from "./render.js";

export function setupTwoCounters(section, { send }) {
  for (const button of section.querySelectorAll("[data-counter]")) {
    button.addEventListener("click", () => {
      const step = button.dataset.step === "increment" ? "incrementButtonTapped" : "decrementButtonTapped";
      send({ twoCounters: { [button.dataset.counter]: step } }).catch(() => {});
    });
  }
  const first = section.querySelector("#first-count");
  const second = section.querySelector("#second-count");
  return (state) => {
    setText(first, state.twoCounters?.first?.count ?? "–", { bump: true });
    setText(second, state.twoCounters?.second?.count ?? "–", { bump: true });
  };
}
