// The game's information (players, ranks, event, date, komi, rules, result, name), shown and
// edited in the panel, and "play from here": a new game from the position shown in review.

import { request, saveTokens, tokensFor } from "./api.js";
import { $, h } from "./dom.js";

const FIELDS = [
  ["black", "Black"], ["black_rank", "Black's rank"], ["white", "White"], ["white_rank", "White's rank"],
  ["event", "Event"], ["date", "Date (YYYY-MM-DD)"], ["komi", "Komi"], ["handicap", "Handicap"], ["rules", "Rules"],
  ["result", "Result"], ["name", "Game name"],
];
const GO_ONLY = new Set(["komi", "handicap", "rules"]);
const NUMBERS = new Set(["komi", "handicap"]);
const SEATS = { human: "you (this screen)", remote: "player on another device",
  random: "random moves", builtin: "built-in player", engine: "engine" };
const info = { shown: {}, dirty: false, game: null, gomoku: false };

/** Build the form's fields and wire saving (`act` posts an action) and playing from here
 * (`opened(id)` goes to the new game). */
export function setupGameInfo(act, opened, fail) {
  const form = $("info-form");
  form.prepend(...FIELDS.map(([name, label]) => h("label", { class: GO_ONLY.has(name) ? "go-only" : null }, label,
    h("input", { name, type: NUMBERS.has(name) ? "number" : "text", step: name === "komi" ? "0.5" : null,
      maxlength: 100, autocomplete: "off" }))));
  form.addEventListener("input", () => { info.dirty = true; });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const changed = {};
    for (const [name] of FIELDS) {
      const input = form.elements[name];
      if (info.gomoku && GO_ONLY.has(name)) continue;
      const before = info.shown[name] === undefined ? "" : String(info.shown[name]);
      if (input.value.trim() === before) continue;
      changed[name] = NUMBERS.has(name) && input.value.trim() !== "" ? Number(input.value) : input.value.trim();
    }
    info.dirty = false;
    if (Object.keys(changed).length) act("info", changed);
  });
  $("play-from-here").addEventListener("click", async () => {
    const f = $("play-from");
    const body = { black: f.querySelector("[name=from_black]").value,
      white: f.querySelector("[name=from_white]").value, level: Number(f.querySelector("[name=from_level]").value) };
    try {
      const data = await request("POST", `/api/games/${info.game}/play-from-here`, { body });
      saveTokens(data.id, data.tokens);
      localStorage.setItem(`tengen.links.${data.id}`, JSON.stringify(data.links));
      opened(data.id);
    } catch (err) {
      fail(err.message);
    }
  });
}

/** Fill the choices of "play from here" from the server's configuration. */
export function setupPlayFrom(config) {
  const box = $("play-from");
  for (const seat of ["from_black", "from_white"]) {
    const select = box.querySelector(`[name=${seat}]`);
    if (select.options.length) continue;
    select.replaceChildren(...config.seats.map((kind) => new Option(SEATS[kind] ?? kind, kind)));
    select.value = seat === "from_black" ? "human" : "builtin";
  }
  const level = box.querySelector("[name=from_level]");
  if (!level.options.length) {
    for (const [n, label] of Object.entries(config.levels)) level.add(new Option(label, n));
    level.value = String(config.default_level);
  }
}

/** Show a state's information (kept while the person edits it). */
export function renderGameInfo(state) {
  info.game = state.id;
  info.gomoku = state.game === "gomoku";
  const form = $("info-form");
  const editable = Object.keys(tokensFor(state.id)).length > 0;
  for (const e of form.elements) e.disabled = !editable;
  $("play-from").hidden = state.mode !== "review" || state.game === "gomoku";
  if (info.dirty && form.contains(document.activeElement)) return;
  info.shown = state.info ?? {};
  for (const [name] of FIELDS) {
    const value = info.shown[name];
    form.elements[name].value = value === undefined ? "" : String(value);
  }
  for (const name of ["result", "handicap"]) form.elements[name].disabled = !editable || state.mode === "play";
}
