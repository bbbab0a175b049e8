// Game clocks on the page: the server keeps the time; the page counts down between its
// messages, and builds a new game's time control from the form.

import { $ } from "./dom.js";

const clocks = { view: null, at: 0, timer: null };

/** "4:59", or "0:28 (3)" in overtime: the same text as the server's `Clock.format`. */
function text(seconds, count) {
  const s = Math.max(0, Math.floor(seconds));
  const shown = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return count === null || count === undefined ? shown : `${shown} (${count})`;
}

/** The text of the running clock `c` (as the server sent it) after `spent` more seconds:
 * past the main time, byo-yomi starts its periods and Canadian its first period. */
function runDown(c, spent, view) {
  const left = c.remaining - spent;
  if (left > 0) return text(left, c.overtime);
  const over = -left;
  if (view.system === "byoyomi") {
    const periods = (c.in_overtime ? c.overtime - 1 : view.periods) - Math.floor(over / view.period);
    return periods > 0 ? text(view.period - (over % view.period), periods) : "0:00";
  }
  if (view.system === "canadian" && !c.in_overtime && over < view.period) {
    return text(view.period - over, view.stones);
  }
  return "0:00";
}

function draw() {
  const view = clocks.view;
  for (const color of ["black", "white"]) {
    const e = $(`clock-${color}`);
    if (!view) { e.hidden = true; continue; }
    const c = view[color];
    e.hidden = false;
    const running = view.running === color;
    const spent = running ? (performance.now() - clocks.at) / 1000 : 0;
    e.textContent = c.expired ? "time" : running ? runDown(c, spent, view) : c.text;
    e.classList.toggle("running", running);
    e.classList.toggle("expired", c.expired);
  }
}

/** Show the clocks of a game state (none for a game without). */
export function renderClocks(state) {
  clocks.view = state.clock ?? null;
  clocks.at = performance.now();
  draw();
  if (clocks.view?.running && !clocks.timer) clocks.timer = setInterval(draw, 250);
  if (!clocks.view?.running && clocks.timer) { clearInterval(clocks.timer); clocks.timer = null; }
}

/** The time control the new-game form asks for (`tengen.clock`'s text form), or null. */
export function timeControl(form) {
  const f = new FormData(form);
  const system = f.get("clock");
  if (!system) return null;
  const main = Number(f.get("clock_main")) * 60;
  const period = Number(f.get("clock_period"));
  if (system === "absolute") return `absolute:${main}`;
  if (system === "byoyomi") return `byoyomi:${main}+${Number(f.get("clock_periods"))}x${period}`;
  if (system === "canadian") return `canadian:${main}+${Number(f.get("clock_stones"))}/${period}`;
  return `fischer:${main}+${period}`;
}

/** Show the form's fields that the chosen system needs. */
export function syncClockFields(form) {
  const system = form.querySelector("[name=clock]").value;
  form.querySelector(".clock-main").hidden = !system;
  form.querySelector(".clock-periods").hidden = system !== "byoyomi";
  form.querySelector(".clock-stones").hidden = system !== "canadian";
  form.querySelector(".clock-period").hidden = !["byoyomi", "canadian", "fischer"].includes(system);
  form.querySelector(".clock-period-name").textContent =
    system === "fischer" ? "Increment (s)" : system === "canadian" ? "Period (s) for the stones" : "Period (s)";
}
