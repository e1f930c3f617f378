// Number fact: a number, and a button whose effect answers with a fact about it.
import { setText } from "./render.js";

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupNumberFact(section, { send }) {
  const count = section.querySelector("#fact-count");
  const button = section.querySelector("#fact-button");
  const buttonText = button.querySelector(".btn-text");
  const fact = section.querySelector("#fact-text");
  section.querySelector("#fact-increment").addEventListener("click", () => {
    send({ numberFact: "incrementButtonTapped" }).catch(() => {});
  });
  section.querySelector("#fact-decrement").addEventListener("click", () => {
    send({ numberFact: "decrementButtonTapped" }).catch(() => {});
  });
  button.addEventListener("click", () => {
    // aria-disabled rather than disabled, so the button keeps focus while it loads.
    if (button.getAttribute("aria-disabled") === "true") return;
    send({ numberFact: "factButtonTapped" }).catch(() => {});
  });
  return (state) => {
    const feature = state.numberFact ?? { number: 0, isLoading: false };
    setText(count, feature.number, { bump: true });
    const loading = Boolean(feature.isLoading);
    button.setAttribute("aria-busy", String(loading));
    button.setAttribute("aria-disabled", String(loading));
    buttonText.textContent = loading ? "Thinking…" : "Get a fact";
    const text = feature.fact ?? (loading ? "" : "Tap “Get a fact” to learn something about this number.");
    if (fact.textContent !== text) fact.textContent = text;
    fact.classList.toggle("is-placeholder", feature.fact == null);
  };
}
