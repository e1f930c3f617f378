// Timer: a ticking effect on the server, started, stopped and reset from here.

const circumference = 2 * Math.PI * 52;

/**
 * @param {HTMLElement} section
 * @param {import("./render.js").PageContext} context
 */
export function setupTimer(section, { send }) {
  const time = section.querySelector("#timer-time");
  const status = section.querySelector("#timer-state");
  const progress = section.querySelector("#timer-progress");
  const toggle = section.querySelector("#timer-toggle");
  toggle.addEventListener("click", () => send({ timer: "toggleButtonTapped" }).catch(() => {}));
  section.querySelector("#timer-reset").addEventListener("click", () => {
    send({ timer: "resetButtonTapped" }).catch(() => {});
  });
  return (state) => {
    const timer = state.timer ?? { isRunning: false, secondsElapsed: 0 };
    const seconds = timer.secondsElapsed;
    const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    if (time.textContent !== text) time.textContent = text;
    time.setAttribute("aria-label", `Time elapsed: ${seconds} ${seconds === 1 ? "second" : "seconds"}`);
    // One turn of the ring per minute.
    const fraction = seconds % 60 === 0 && seconds > 0 ? 1 : (seconds % 60) / 60;
    progress.style.strokeDashoffset = String(circumference * (1 - fraction));
    const running = timer.isRunning;
    const label = running ? "Running" : seconds > 0 ? "Paused" : "Stopped";
    if (status.textContent !== label) status.textContent = label;
    toggle.textContent = running ? "Stop" : seconds > 0 ? "Resume" : "Start";
    toggle.classList.toggle("btn-primary", !running);
    toggle.classList.toggle("btn-secondary", running);
    section.dataset.running = String(running);
  };
}
