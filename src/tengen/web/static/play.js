// The page: the game list and new-game form, and one game's board and controls.
// The server owns the game; this draws its state and sends intents.

import { $, h, single } from "./dom.js";
import { showEngineSettings, setupEngineSettings } from "./engines.js";
import { renderGameInfo, setupGameInfo, setupPlayFrom } from "./gameinfo.js";
import { openAnalysis, receive, renderAnalysis, setupAnalysis, setupEngines } from "./analysis.js";
import { follow, request, saveTokens, tokenFor, tokensFor } from "./api.js";
import { Board, vertex } from "./board.js";
import { renderClocks, syncClockFields, timeControl } from "./clock.js";
import { renderOpening, storedSeat } from "./opening.js";
import { confirming, moveSound, setupPrefs } from "./prefs.js";
import { renderReview, setupOpen, setupReview } from "./review.js";
import { markerChosen, pendingPoint, renderTools, setupTools, toolClick } from "./tools.js";

const SEAT_NAMES = { human: "you (this screen)", remote: "player on another device",
  random: "random moves", builtin: "built-in player", engine: "engine" };
const RULE_NAMES = { freestyle: "freestyle (five or more)", standard: "standard (exactly five)",
  renju: "renju (Black: no 3-3, 4-4, overline)", caro: "caro (a five blocked at both ends does not win)" };

const app = { id: null, state: null, stop: null, board: null, config: null, busy: false, pending: null };

function showMessage(text) {
  $("message").textContent = text || "";
}

function options() {
  return {
    coords: $("show-coords").checked,
    numbers: $("show-numbers").checked,
    chains: $("show-chains").checked,
    readonly: !Object.keys(tokensFor(app.id)).length,
    review: app.state?.mode === "review" && !markerChosen(),
    pending: app.state?.mode === "review" ? pendingPoint() : null,
  };
}

/** Post an action for the current game with a fitting token; errors go to the message line.
 * One at a time: while the server works on one, the controls are disabled and clicks ignored
 * (with `single`, which drops a double click's second click, a double-clicked undo takes back
 * one move however fast the server answers). */
async function act(path, body) {
  if (app.busy) return;
  const seat = app.state ? storedSeat(app.state, app.state.acting ?? app.state.to_play) : "black";
  setBusy(true);
  try {
    const state = await request("POST", `/api/games/${app.id}/${path}`,
      { body: body ?? {}, token: tokenFor(app.id, seat) });
    showMessage("");
    setState(state);
  } catch (err) {
    showMessage(err.reason && err.reason !== err.message ? `Refused (${err.reason}): ${err.message}` : err.message);
  } finally {
    setBusy(false);
  }
}

/** Disable the game's controls while an action is on its way, and say so. */
function setBusy(busy) {
  app.busy = busy;
  $("game").classList.toggle("busy", busy);
  $("board").setAttribute("aria-busy", String(busy));
  for (const e of document.querySelectorAll("#play-controls button, #type-move button, #review-controls button, #scoring button, #undo-request button, #confirm-move button, #opening button")) {
    e.disabled = busy || (e.id === "redo" && !app.state?.can_redo);
  }
  showWorking();
}

/** "Working…" while an action is on its way; "Computer thinking…" while a computer seat is to
 * move (its move comes over the websocket). */
function showWorking() {
  const s = app.state;
  const computer = s && s.mode === "play" && s.phase === "play" && ["random", "builtin", "engine"].includes(s.seats[s.acting ?? s.to_play]);
  const text = computer ? "Computer thinking…" : app.busy ? "Working…" : "";
  $("working").textContent = text;
  $("working").hidden = !text;
}

/** Show whether the game's websocket is connected (it reconnects by itself). */
function showConnection(up) {
  $("connection").textContent = up ? "" : "Disconnected from the server, reconnecting…";
  $("connection").hidden = up;
}

function setState(state) {
  if (app.state && state.id === app.state.id && state.version < app.state.version) return;
  const announce = !app.state || app.state.announce !== state.announce || app.state.version !== state.version;
  if (app.state && state.id === app.state.id && state.move_number > app.state.move_number && state.last_move) moveSound();
  if (app.state?.version !== state.version) app.pending = null;
  app.state = state;
  render();
  if (announce && state.announce) $("announce").textContent = state.announce;
}

/** "B+T" as words: " (Black wins on time)"; "" for a result without a known ending. */
function resultWords(result) {
  const m = /^([BW])\+(T|R|Time|Resign|F|Forfeit|[\d.]+)$/i.exec(result ?? "");
  if (!m) return "";
  const who = m[1].toUpperCase() === "B" ? "Black" : "White";
  const how = m[2].toUpperCase();
  if (how.startsWith("T")) return ` (${who} wins on time)`;
  if (how.startsWith("R")) return ` (${who} wins by resignation)`;
  if (how.startsWith("F")) return ` (${who} wins by forfeit)`;
  return ` (${who} wins by ${m[2]} points)`;
}

function statusText(s) {
  if (s.phase === "over" && s.game === "gomoku") {
    const how = s.result === "draw" ? s.drawn_because : s.winning_line ? "five in a row" : "resignation";
    return `Game over: ${s.result} (${how})`;
  }
  if (s.phase === "over") return `Game over: ${s.result}${resultWords(s.result)}`;
  if (s.phase === "scoring") return "Both passed: mark dead stones, then accept.";
  if (s.phase === "handicap") return `Black: place ${s.handicap_left} more handicap stone(s).`;
  const who = s.to_play === "black" ? "Black" : "White";
  const prefix = s.mode === "review" ? `Move ${s.move_number} of ${s.line_length}. ` : `Move ${s.move_number}. `;
  const acting = s.acting ?? s.to_play; // in a swap opening, who places this stone
  const seat = s.seats[acting];
  const held = tokensFor(app.id)[storedSeat(s, acting)];
  const whose = s.mode === "review" ? "" : ["random", "builtin", "engine"].includes(seat) ? " (computer)" : held ? " (you)" : "";
  return `${prefix}${who} to play${whose}.${s.last_pass ? " Last move: pass." : ""}`;
}

function render() {
  const s = app.state;
  const review = s.mode === "review";
  $("game-title").textContent = s.title;
  $("name-black").textContent = s.players.black;
  $("name-white").textContent = s.players.white;
  $("caps-black").textContent = s.captures.black;
  $("caps-white").textContent = s.captures.white;
  renderClocks(s);
  showWorking();
  document.querySelector(".player.black").classList.toggle("to-play", s.to_play === "black");
  document.querySelector(".player.white").classList.toggle("to-play", s.to_play === "white");
  $("status").textContent = statusText(s);
  const gomoku = s.game === "gomoku";
  $("game").classList.toggle("gomoku", gomoku);
  $("game-kind").hidden = !gomoku;
  $("game-kind").textContent = gomoku ? `Gomoku · ${s.rule} · ${s.width}×${s.height}` : "";
  if (review && gomoku && s.result && s.move_number === s.line_length) {
    $("status").textContent += ` Result: ${s.result}.`;
  }
  $("warnings").textContent = [...s.warnings, ...s.problems].join(" · ");
  $("review-controls").hidden = !review;
  $("play-controls").hidden = review;
  $("to-review").textContent = s.seated ? "Review a copy" : "Review";
  $("redo").disabled = app.busy || !s.can_redo;
  $("undo").textContent = s.seated ? "Ask to undo" : "Undo";
  renderUndoRequest(s);
  renderOpening(s, act);
  renderGameInfo(s);
  $("to-game").hidden = !review || (s.imported && !s.copy_of);
  const scoring = s.scoring;
  $("scoring").hidden = !scoring;
  if (scoring) {
    $("score-result").textContent = scoring.result ? `Result: ${scoring.result}` : "Cannot count yet";
    $("score-explain").textContent = scoring.explain;
    const names = (seats) => seats.map((c) => c[0].toUpperCase() + c.slice(1)).join(" and ");
    $("score-agreement").textContent = s.phase === "over" || !scoring.accepted.length ? ""
      : `Accepted by ${names(scoring.accepted)}; waiting for ${names(scoring.waiting_for)}`;
    $("score-accept").hidden = s.phase === "over";
    $("score-cancel").hidden = s.phase === "over";
  }
  $("download").href = `/api/games/${s.id}/sgf`;
  const labels = $("show-chains").checked ? "?labels=1" : "";
  $("export-svg").href = `/api/games/${s.id}/position.svg${labels}`;
  $("export-png").href = `/api/games/${s.id}/position.png${labels}`;
  if (review) {
    renderReview(s, act);
    if (!gomoku) renderTools(s);
  }
  const overlay = gomoku ? null : renderAnalysis(s, act);
  app.board.render(s, { ...options(), overlay });
  renderPending(s);
}

async function clickPoint(col, row) {
  const s = app.state;
  if (!s) return;
  const v = vertex(col, row, s.height);
  if (s.scoring && s.phase !== "over") return act("score/toggle", { vertex: v });
  if (s.mode === "review" && toolClick(s, col, row)) return;
  if (confirming() && s.mode === "play" && app.pending !== v) {
    app.pending = v; // the first tap marks the point; a second tap, or the button, plays
    return render();
  }
  app.pending = null;
  return act("move", { vertex: v });
}

/** The move waiting for confirmation: its button, and a mark on the board. */
function renderPending(s) {
  const v = app.pending;
  $("confirm-move").hidden = !v;
  if (v) $("confirm-play").textContent = `Play ${v}`;
  for (const e of document.querySelectorAll("#board .confirming")) e.classList.remove("confirming");
  if (!v) return;
  const col = "ABCDEFGHJKLMNOPQRSTUVWXYZ".indexOf(v[0]);
  const row = s.height - Number(v.slice(1));
  document.querySelector(`#board .pt[data-col="${col}"][data-row="${row}"]`)?.classList.add("confirming");
}

/** An undo asked in a game between two people: the other answers it, the asker may withdraw. */
function renderUndoRequest(s) {
  const asker = s.undo_request;
  const box = $("undo-request");
  box.hidden = !asker;
  if (!asker) return;
  const other = asker === "black" ? "white" : "black";
  const tokens = tokensFor(app.id);
  const held = { [asker]: tokens[storedSeat(s, asker)], [other]: tokens[storedSeat(s, other)] };
  const name = (c) => c[0].toUpperCase() + c.slice(1);
  const answering = held[other] && !held[asker];
  $("undo-request-text").textContent = answering
    ? `${name(asker)} asks to take back their last move.`
    : `${name(asker)} asked to take back their last move; waiting for ${name(other)}.`;
  $("undo-accept").hidden = !answering;
  $("undo-decline").hidden = !held[asker] && !held[other];
  $("undo-decline").textContent = answering ? "Decline" : "Withdraw";
}

async function openGame(id) {
  app.stop?.();
  app.id = id;
  app.state = null;
  $("home").hidden = true;
  $("game").hidden = false;
  showMessage("");
  try {
    setState(await request("GET", `/api/games/${id}`));
  } catch (err) {
    showMessage(err.message);
    return;
  }
  app.stop = follow(id, setState, (up) => {
    if (app.id !== id) return;
    showConnection(up);
    if (up) request("GET", `/api/games/${id}`).then(setState, () => {});
  }, receive);
  openAnalysis(id);
  showSeatLinks();
  app.config ??= await request("GET", "/api/config").catch(() => null);
  if (app.config) {
    setupPlayFrom(app.config);
    setupEngines(app.config.analysis_engines ?? ["builtin"]);
  }
  $("board").focus();
}

function showSeatLinks() {
  const links = JSON.parse(localStorage.getItem(`tengen.links.${app.id}`) || "{}");
  const box = $("seat-links");
  box.replaceChildren();
  for (const [seat, url] of Object.entries(links)) {
    box.appendChild(h("p", {}, "Link for the ", h("b", {}, seat), " player: ",
      h("a", { href: url, class: "seat-link", "data-seat": seat }, url)));
  }
}

// -- the game list and the new-game form -------------------------------------------------------

async function showHome() {
  app.stop?.();
  app.id = null;
  $("game").hidden = true;
  $("home").hidden = false;
  const config = await request("GET", "/api/config");
  const rules = document.querySelector("[name=ruleset]");
  if (!rules.options.length) {
    for (const [name, komi] of Object.entries(config.rulesets)) rules.add(new Option(name, name));
    rules.onchange = () => { document.querySelector("[name=komi]").value = config.rulesets[rules.value]; };
    const rule = document.querySelector("[name=rule]");
    for (const name of config.gomoku.rules) rule.add(new Option(RULE_NAMES[name] ?? name, name));
    const level = document.querySelector("[name=level]");
    for (const [n, label] of Object.entries(config.levels)) level.add(new Option(label, n));
    level.value = String(config.default_level);
    app.config = config;
    syncForm();
  }
  $("games").querySelector("tbody").replaceChildren();
  showEngineSettings();
  await listGames(0);
}

const PAGE = 50;

/** Add the page of stored games from `offset` to the list, with a button for the next. */
async function listGames(offset) {
  const { games, total } = await request("GET", `/api/games?limit=${PAGE}&offset=${offset}`);
  const body = document.querySelector("#games tbody");
  $("no-games").hidden = total > 0;
  for (const g of games) {
    const seats = Object.entries(g.seats).map(([k, v]) => `${k}: ${v}`).join(", ");
    const del = h("button", { class: "delete" }, "Delete");
    const tr = h("tr", {},
      h("td", {}, h("a", { href: `/game/${g.id}` }, g.title)),
      h("td", {}, `${g.game === "gomoku" ? "Gomoku, " : ""}${g.mode}`),
      h("td", {}, seats),
      h("td", {}, new Date(g.updated * 1000).toLocaleString()),
      h("td", {}, h("a", { class: "button", href: `/api/games/${g.id}/sgf`, download: true }, "SGF"), " ", del));
    const token = tokenFor(g.id, "black");
    del.disabled = !token;
    del.title = token ? "" : "only a player of this game can delete it";
    del.onclick = async () => {
      if (!confirm(`Delete ${g.title}?`)) return;
      try {
        await request("DELETE", `/api/games/${g.id}`, { token });
        showHome();
      } catch (err) {
        $("home-message").textContent = err.message;
      }
    };
    body.appendChild(tr);
  }
  const more = $("more-games");
  const next = offset + games.length;
  more.hidden = next >= total;
  more.textContent = `Show older games (${total - next} more)`;
  more.onclick = () => listGames(next);
}

/** Review a copy of a game between two people (the shared game goes on unchanged). */
async function reviewCopy() {
  try {
    const data = await request("POST", `/api/games/${app.id}/copy`, { body: {} });
    saveTokens(data.id, data.tokens);
    go(`/game/${data.id}`);
  } catch (err) {
    showMessage(err.message);
  }
}

/** Show the fields of the chosen game (Go or Gomoku) and offer its kinds of opponent. */
function syncForm() {
  const form = $("new-game");
  const gomoku = form.querySelector("[name=game]:checked").value === "gomoku";
  for (const e of form.querySelectorAll(".go-only")) e.hidden = gomoku;
  for (const e of form.querySelectorAll(".gomoku-only")) e.hidden = !gomoku;
  syncClockFields(form);
  form.querySelector(".other-size").hidden = gomoku || form.querySelector("[name=size]").value !== "other";
  form.querySelector(".gomoku-other-size").hidden = !gomoku || form.querySelector("[name=gomoku_size]").value !== "other";
  const config = app.config;
  if (!config) return;
  const kinds = gomoku ? config.gomoku.seats : config.seats;
  const engine = gomoku ? config.gomoku.engine : config.engine;
  for (const select of form.querySelectorAll("select.seat")) {
    const chosen = select.value;
    select.replaceChildren(...kinds.map((kind) =>
      new Option(kind === "engine" ? `engine: ${engine}` : SEAT_NAMES[kind], kind)));
    if (kinds.includes(chosen)) select.value = chosen;
  }
  const builtin = [...form.querySelectorAll("select.seat")].some((s) => s.value === "builtin");
  form.querySelector(".level-field").hidden = gomoku || !builtin;
}

function newGameOptions(form) {
  const f = new FormData(form);
  if (f.get("game") === "gomoku") {
    const other = f.get("gomoku_size") === "other";
    return {
      game: "gomoku",
      rule: f.get("rule"),
      opening: f.get("opening"),
      size: Number(other ? f.get("gomoku_size_other") : f.get("gomoku_size")),
      black: f.get("black"),
      white: f.get("white"),
      title: f.get("title"),
    };
  }
  const size = f.get("size") === "other" ? Number(f.get("size_other")) : Number(f.get("size"));
  return {
    size,
    ruleset: f.get("ruleset"),
    komi: Number(f.get("komi")),
    handicap: Number(f.get("handicap")),
    handicap_type: f.get("handicap_type"),
    black: f.get("black"),
    white: f.get("white"),
    title: f.get("title"),
    level: Number(f.get("level")),
    time: timeControl(form),
  };
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

function route() {
  const match = location.pathname.match(/^\/game\/([\w-]+)/);
  if (match) {
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("token")) {
      saveTokens(match[1], { [hash.get("seat") || "black"]: hash.get("token") });
      history.replaceState({}, "", location.pathname);
    }
    openGame(match[1]);
  } else {
    showHome();
  }
}

function setup() {
  app.board = new Board($("board"), clickPoint);
  const form = $("new-game");
  for (const name of ["game", "size", "gomoku_size", "black", "white", "clock"]) {
    for (const input of form.querySelectorAll(`[name=${name}]`)) input.addEventListener("change", syncForm);
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const bad = [...form.elements].find((f) => !f.closest("[hidden]") && !f.checkValidity());
    for (const f of form.elements) f.removeAttribute("aria-invalid");
    if (bad) {
      bad.setAttribute("aria-invalid", "true");
      bad.focus();
      const name = bad.closest("label")?.firstChild?.textContent.trim() || bad.name;
      $("home-message").textContent = `${name}: ${bad.validationMessage}`;
      return;
    }
    try {
      const data = await request("POST", "/api/games", { body: newGameOptions(form) });
      saveTokens(data.id, data.tokens);
      localStorage.setItem(`tengen.links.${data.id}`, JSON.stringify(data.links));
      go(`/game/${data.id}`);
    } catch (err) {
      $("home-message").textContent = err.message;
    }
  });
  setupOpen((id) => go(`/game/${id}`), (msg) => { $("home-message").textContent = msg; });
  setupReview(act);
  setupGameInfo(act, (id) => go(`/game/${id}`), showMessage);
  setupTools(act, () => app.state && render());
  setupAnalysis(() => ({ id: app.id, state: app.state }), () => app.state && render());
  setupEngineSettings(() => { app.config = null; }); // the next game asks for the engines again
  $("pass").onclick = single(() => act("pass"));
  $("undo").onclick = single(() => act("undo"));
  $("redo").onclick = single(() => act("redo"));
  $("undo-accept").onclick = single(() => act("undo/answer", { accept: true }));
  $("undo-decline").onclick = single(() => act("undo/answer", { accept: false }));
  $("confirm-play").onclick = single(() => app.pending && act("move", { vertex: app.pending }));
  $("confirm-cancel").onclick = () => { app.pending = null; render(); };
  setupPrefs(() => { app.pending = null; if (app.state) render(); });
  $("to-game").onclick = () => app.state?.copy_of ? go(`/game/${app.state.copy_of}`) : act("mode", { mode: "play" });
  $("resign").onclick = () => confirm("Resign this game?") && act("resign");
  $("score").onclick = single(() => act("score"));
  $("score-accept").onclick = single(() => act("score/accept"));
  $("score-cancel").onclick = single(() => act("score/cancel"));
  $("to-review").onclick = () => app.state?.seated ? reviewCopy() : act("mode", { mode: "review" });
  $("type-move").addEventListener("submit", (e) => {
    e.preventDefault();
    const v = $("vertex").value.trim();
    if (v) act("move", { vertex: v });
    $("vertex").value = "";
  });
  document.addEventListener("keydown", (e) => {
    if ($("play-controls").hidden || $("game").hidden || e.target.closest("input, textarea, select")) return;
    const key = e.key.toLowerCase();
    if (!(e.ctrlKey || e.metaKey) || !["z", "y"].includes(key)) return;
    e.preventDefault();
    act(key === "y" || e.shiftKey ? "redo" : "undo");
  });
  for (const id of ["show-coords", "show-numbers", "show-chains"]) {
    $(id).addEventListener("change", () => app.state && render());
  }
  $("nav-home").addEventListener("click", (e) => { e.preventDefault(); go("/"); });
  document.querySelector(".brand").addEventListener("click", (e) => { e.preventDefault(); go("/"); });
  window.addEventListener("popstate", route);
  route();
}

setup();
