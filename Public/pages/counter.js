// Counter: a number and two buttons.
import { setText } from "./render.js";

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupCounter(section, { send }) {
  const count = section.querySelector("#counter-count");
  section.querySelector("#counter-increment").addEventListener("click", () => {
    send({ counter: "incrementButtonTapped" }).catch(() => {});
  });
  section.querySelector("#counter-decrement").addEventListener("click", () => {
    send({ counter: "decrementButtonTapped" }).catch(() => {});
  });
  return (state) => {
    setText(count, state.counter?.count ?? "–", { bump: true });
  };
}
