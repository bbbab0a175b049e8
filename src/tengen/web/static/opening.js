// A Gomoku game's swap opening on the page: what the step is, and the choices for the person
// who owes it (the server judges; this only shows and sends).

import { $ } from "./dom.js";
import { tokensFor } from "./api.js";

const NAMES = { swap: "Swap", keep: "Keep Black", two: "Place two more" };

/** The seat name this browser saved the token of `color`'s holder under: the colour it had
 * when the game was made (a swap opening may have given it the other colour since). */
export function storedSeat(state, color) {
  const first = state.black_player ?? 1; // the player (1 or 2) who now holds Black
  const player = color === "black" ? first : 3 - first;
  return player === 1 ? "black" : "white";
}

/** The sentence for the opening's step, seen from this page. */
function sentence(o, n, mine) {
  const who = mine ? "You" : `The player with ${o.actor === "black" ? "Black" : "White"}`;
  if (o.step === "three") return `${who}: place the first three stones (black, white, black): ${n} of 3.`;
  if (o.step === "two") return `${who}: place stone 4 (white), then stone 5 (black)${o.pending ? ": now stone 5" : ""}.`;
  if (n === 5) return `${who}: keep Black, or take White and play stone 6.`;
  const two = o.choices.includes("two") ? ", or place two more stones" : "";
  return `${who}: play White's stone 4, or swap to take Black${two}.`;
}

/** Show the opening box for a state (hidden when there is no opening step left). */
export function renderOpening(state, act) {
  const o = state.opening;
  const box = $("opening");
  box.hidden = !o || o.step === "done";
  if (box.hidden) return;
  const mine = Boolean(tokensFor(state.id)[storedSeat(state, o.actor)]);
  $("opening-text").textContent = `${o.rule === "swap2" ? "Swap2" : "Swap"} opening. ${sentence(o, state.move_number, mine)}`;
  const buttons = $("opening-choices");
  buttons.replaceChildren(...(mine ? o.choices : []).map((choice) => {
    const b = document.createElement("button");
    b.textContent = choice === "swap" && state.move_number === 5 ? "Take White" : choice === "swap" ? "Swap (take Black)" : NAMES[choice];
    b.dataset.choice = choice;
    b.onclick = () => act("opening", { choice });
    return b;
  }));
}
