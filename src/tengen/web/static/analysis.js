// The AI's view of a Go game: the analysis panel, its drawing on the board, the win-rate graph.
// The server runs the searches (web/analysis.py); this asks for them, shows their progress
// as it arrives over the game's websocket, and draws the last result of each.

import { request, tokenFor, tokensFor } from "./api.js";
import { vertex } from "./board.js";
import { $, h, svg as svgEl } from "./dom.js";

const shown = { analysis: null, graph: null };
let redraw = () => {};

/** The position a state shows, written as the server writes an analysis's `key`. */
export function positionKey(state) {
  return `${state.to_play}:${state.board.join("/")}`;
}

const percent = (x) => `${(100 * x).toFixed(1)}%`;
const count = (n) => (n >= 10000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : `${n}`);

/** Wire the panel: `current()` gives {id, state}; `draw()` is called when a result changes. */
export function setupAnalysis(current, draw) {
  redraw = draw;
  const post = async (path, body) => {
    const { id, state } = current();
    try {
      const views = await request("POST", `/api/games/${id}/${path}`,
        { body, token: tokenFor(id, state?.to_play ?? "black") });
      receive(views);
    } catch (err) {
      $("analysis-status").textContent = err.message;
    }
  };
  const engine = () => $("analysis-engine").value || "builtin";
  const start = () => post("analysis", { seconds: Number($("analysis-seconds").value), engine: engine() });
  $("analyse").onclick = start;
  $("analysis-stop").onclick = () => post("analysis/stop", {});
  $("graph-start").onclick = () => post("graph", { engine: engine() });
  $("graph-stop").onclick = () => post("analysis/stop", {});
  $("show-ownership").addEventListener("change", () => redraw());
  $("candidate-measure").addEventListener("change", () => redraw());
  $("mistake-threshold").addEventListener("change", () => redraw());
  document.addEventListener("keydown", (e) => {
    if ($("game").hidden || e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey) return;
    if (e.key === "a" || e.key === "A") {
      e.preventDefault();
      if (shown.analysis?.running) post("analysis/stop", {});
      else start();
    }
  });
}

/** Offer the server's analysis engines (the built-in search first), keeping the one chosen
 * while it is there; hidden when the built-in one is the only one. */
export function setupEngines(names) {
  const select = $("analysis-engine");
  if ([...select.options].map((o) => o.value).join("\n") === names.join("\n")) return;
  const chosen = select.value;
  select.replaceChildren(...names.map((name) => new Option(name === "builtin" ? "built-in (tengen)" : name, name)));
  if (names.includes(chosen)) select.value = chosen;
  select.closest("label").hidden = names.length < 2;
}

/** Forget the last game's results and fetch this game's (after a reload, say). */
export async function openAnalysis(gameId) {
  shown.analysis = shown.graph = null;
  try {
    receive(await request("GET", `/api/games/${gameId}/analysis`));
  } catch {
    // a Gomoku game has no analysis; the panel stays hidden there
  }
}

/** Take {analysis?, graph?} views from the server (an answer or a websocket message). */
export function receive(views) {
  if (views.analysis !== undefined) shown.analysis = views.analysis;
  if (views.graph !== undefined) shown.graph = views.graph;
  redraw();
}

/** Show the panel and graph for `state` (`act` posts a game action: the graph navigates);
 * return the function that draws the analysis on the board, or null. */
export function renderAnalysis(state, act) {
  const a = shown.analysis;
  const here = a && !a.error && a.key === positionKey(state);
  const held = Object.keys(tokensFor(state.id)).length > 0;
  $("analyse").disabled = !held;
  $("graph-start").disabled = !held;
  $("analyse").hidden = !!a?.running;
  // The built-in search paused on this position goes on from where it was (its visits add up).
  const resume = here && !a.running && !!a.resumable;
  $("analyse").textContent = resume ? "Resume" : "Analyse";
  $("analyse").title = resume ? "Go on with the paused analysis of this position (A)" : "The AI's view of this position (A)";
  $("analysis-stop").hidden = !a?.running;
  $("analysis").dataset.state = !a ? "none" : a.error ? "error" : a.running ? "running" : "done";
  const status = $("analysis-status");
  const list = $("analysis-moves");
  list.replaceChildren();
  $("winbar").hidden = !here || !a.visits;
  if (!a) {
    status.textContent = held ? "Press Analyse (or A) for the AI's view of this position." : "";
  } else if (a.error) {
    status.textContent = `The analysis failed: ${a.error}`;
  } else if (!here) {
    status.textContent = a.running ? "Analysing another position…" : "The last analysis is of another position.";
  } else if (!a.visits) {
    status.textContent = "Analysing…";
  } else {
    const lead = a.black_lead >= 0 ? `Black leads by ${a.black_lead.toFixed(1)}` : `White leads by ${(-a.black_lead).toFixed(1)}`;
    status.textContent = `${a.running ? "Analysing… " : a.resumable ? "Paused · " : ""}Black ${percent(a.black_winrate)} · ${lead} · ${count(a.visits)} playouts${a.engine ? ` · ${a.engine}` : ""}`;
    $("winbar-black").style.width = percent(a.black_winrate);
    for (const m of a.moves) {
      const li = document.createElement("li");
      const score = `${m.score_lead >= 0 ? "+" : ""}${m.score_lead.toFixed(1)}`;
      li.textContent = `${m.vertex}: ${percent(m.winrate)} (${score}) · ${count(m.visits)} visits · ${m.pv.slice(0, 8).join(" ")}`;
      list.appendChild(li);
    }
  }
  renderGraph(state, act);
  return here && a.visits ? (svg, geometry) => drawOnBoard(svg, geometry, a, state.board) : null;
}

/** Candidate moves, coloured by how much worse than the best each is (points of score lead
 * or win rate, the user's choice: green the best, red 5 points or 10% worse), and, if shown,
 * the ownership: on empty points and on stones the other side owns (dead), never on a stone
 * its own side owns. Hovering (or focusing) a candidate shows its line as numbered stones. */
function drawOnBoard(svg, { x, y, cell, el }, a, board) {
  const layer = el("g", { class: "analysis-layer" }, svg);
  if ($("show-ownership").checked) {
    a.ownership.forEach((v, i) => {
      if (Math.abs(v) < 0.2) return;
      const c = i % a.width, r = Math.floor(i / a.width);
      if (board[r][c] === (v > 0 ? "B" : "W")) return;
      const side = cell * 0.55 * Math.abs(v);
      el("rect", { x: x(c) - side / 2, y: y(r) - side / 2, width: side, height: side,
        class: v > 0 ? "own-black" : "own-white", "data-vertex": vertex(c, r, board.length) }, layer);
    });
  }
  const best = a.moves[0];
  const points = $("candidate-measure").value === "points";
  const loss = (m) => (points ? (best.score_lead - m.score_lead) / 5 : (best.winrate - m.winrate) / 0.1);
  const pv = el("g", { class: "pv-layer" }, svg);
  a.moves.forEach((m, order) => {
    if (!m.point) return;
    const [c, r] = m.point;
    const worse = Math.min(1, Math.max(0, loss(m)));
    const g = el("g", { class: "candidate", "data-vertex": m.vertex, "data-visits": m.visits,
      "data-col": c, "data-row": r, // a click plays it, as on the point under it
      "data-loss": (points ? best.score_lead - m.score_lead : best.winrate - m.winrate).toFixed(3),
      tabindex: 0, role: "button", "aria-label": `${m.vertex}: ${Math.round(100 * m.winrate)}%, ${m.visits} visits; line ${m.pv.join(" ")}` }, layer);
    el("circle", { cx: x(c), cy: y(r), r: cell * 0.46, fill: `hsl(${Math.round(120 * (1 - worse))} 70% 50%)`,
      stroke: order === 0 ? "#1d4ed8" : "#0006", "stroke-width": order === 0 ? 3 : 1 }, g);
    el("text", { x: x(c), y: y(r) - cell * 0.12, class: "candidate-rate" }, g).textContent =
      points ? `${m.score_lead >= 0 ? "+" : ""}${m.score_lead.toFixed(1)}` : `${Math.round(100 * m.winrate)}`;
    el("text", { x: x(c), y: y(r) + cell * 0.18, class: "candidate-visits" }, g).textContent = count(m.visits);
    const show = () => drawLine(pv, m, a, board.length, { x, y, cell, el });
    const hide = () => pv.replaceChildren();
    g.addEventListener("mouseenter", show);
    g.addEventListener("focus", show);
    g.addEventListener("mouseleave", hide);
    g.addEventListener("blur", hide);
  });
}

/** A candidate's principal variation as numbered ghost stones, the player to move first. */
function drawLine(layer, m, a, height, { x, y, cell, el }) {
  layer.replaceChildren();
  const columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  m.pv.forEach((v, i) => {
    if (v.toLowerCase() === "pass") return;
    const c = columns.indexOf(v[0].toUpperCase()), r = height - Number(v.slice(1));
    const black = (a.to_play === "black") === (i % 2 === 0);
    const g = el("g", { class: `pv-stone ${black ? "black" : "white"}`, "data-vertex": v, "data-order": i + 1 }, layer);
    el("circle", { cx: x(c), cy: y(r), r: cell * 0.46, fill: black ? "#111c" : "#fffc", stroke: "#0008" }, g);
    el("text", { x: x(c), y: y(r), class: `stone-text on-${black ? "black" : "white"}` }, g).textContent = String(i + 1);
  });
}

/** KaTrain's classes of a move's loss in points (its default `eval_thresholds`), worst first:
 * each mistake is drawn in its class's colour, and the list shows those from a class up. */
export const LOSS_CLASSES = [12, 6, 3, 1.5, 0.5];

/** The class of a loss: the largest threshold it reaches, or null under the smallest. */
export function lossClass(lost) {
  return LOSS_CLASSES.find((t) => lost >= t) ?? null;
}

/** The moves that lost the most points (Black's score lead before and after, from the
 * mover's side), `threshold` points or more, per player, each a button to the position before
 * it with the engine's better move and line. */
export function mistakes(points, count = 5, threshold = 1.5) {
  const byMove = new Map(points.map((p) => [p.move, p]));
  const found = { black: [], white: [] };
  for (const after of points) {
    const before = byMove.get(after.move - 1);
    if (!before || after.black_lead == null || before.black_lead == null) continue;
    const mover = after.to_play ? (after.to_play === "black" ? "white" : "black") : before.to_play;
    if (!mover) continue;
    const lost = mover === "black" ? before.black_lead - after.black_lead : after.black_lead - before.black_lead;
    if (lost >= threshold) found[mover].push({ move: after.move, lost, best: before.best, pv: before.pv ?? [] });
  }
  for (const side of ["black", "white"]) found[side] = found[side].sort((a, b) => b.lost - a.lost).slice(0, count);
  return found;
}

function renderMistakes(g, act) {
  const box = $("mistakes");
  const threshold = Number($("mistake-threshold").value);
  const found = g && !g.running ? mistakes(g.points, 5, threshold) : { black: [], white: [] };
  const analysed = !!g && !g.running && g.points.some((p) => p.black_lead != null);
  $("mistake-filter").hidden = !analysed;
  box.hidden = !analysed;
  box.replaceChildren(...["black", "white"].map((side) => h("div", { class: "mistake-list" },
    h("h4", {}, `${side === "black" ? "Black" : "White"}'s biggest mistakes`),
    found[side].length ? h("ol", {}, ...found[side].map((m) => h("li", {},
      h("button", { class: "mistake", "data-move": m.move, "data-class": lossClass(m.lost) },
        `Move ${m.move}: −${m.lost.toFixed(1)} points`),
      m.best ? ` better ${m.best}${m.pv.length > 1 ? ` (${m.pv.slice(0, 6).join(" ")})` : ""}` : "")))
      : h("p", { class: "no-mistakes" }, `None of ${threshold} points or more.`))));
  for (const b of box.querySelectorAll("button.mistake")) {
    b.onclick = () => act("nav", { move: Number(b.dataset.move) - 1 });
  }
}

/** The graph of the current line: Black's win rate and score lead after each move, with
 * labelled axes; click to go to a move. */
function renderGraph(state, act) {
  const g = shown.graph;
  renderMistakes(g, act);
  const box = $("graph");
  $("graph-start").hidden = !!g?.running;
  $("graph-stop").hidden = !g?.running;
  const status = $("graph-status");
  if (!g) {
    status.textContent = "";
    box.replaceChildren();
    $("graph-progress").hidden = true;
    return;
  }
  status.textContent = g.error ? `The graph failed: ${g.error}`
    : `${g.running ? "Working: " : ""}${g.points.length} of ${g.total} positions${g.engine ? ` · ${g.engine}` : ""}`;
  const bar = $("graph-progress");
  bar.hidden = !g.running;
  bar.max = g.total;
  bar.value = g.points.length;
  const w = 300, tall = 90;
  const last = Math.max(1, state.line_length, ...g.points.map((p) => p.move));
  const leads = g.points.filter((p) => p.black_lead != null);
  const scale = leadScale(leads.map((p) => p.black_lead));
  const px = (move) => (move / last) * w;
  const py = (rate) => tall - rate * tall;
  const pyLead = (lead) => tall / 2 - (Math.max(-scale, Math.min(scale, lead)) / scale) * (tall / 2);
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${tall}`, preserveAspectRatio: "none",
    "data-points": g.points.length, "data-lead-scale": scale, role: "img",
    "aria-label": `Black's win rate (black line, 0 to 100%) and score lead (blue line, ±${scale} points) by move, 0 to ${last}` });
  const line = g.points.map((p) => `${px(p.move).toFixed(1)},${py(p.black_winrate).toFixed(1)}`).join(" ");
  const end = g.points.length ? px(g.points.at(-1).move).toFixed(1) : 0;
  svgEl("rect", { width: w, height: tall, class: "graph-back" }, svg);
  svgEl("line", { x1: 0, x2: w, y1: tall / 2, y2: tall / 2, class: "graph-half" }, svg);
  svgEl("polygon", { points: `0,${tall} ${line} ${end},${tall}`, class: "graph-area" }, svg);
  svgEl("polyline", { points: line, class: "graph-line" }, svg);
  svgEl("polyline", { class: "graph-lead", "data-points": leads.length,
    points: leads.map((p) => `${px(p.move).toFixed(1)},${pyLead(p.black_lead).toFixed(1)}`).join(" ") }, svg);
  const now = px(state.move_number);
  svgEl("line", { x1: now, x2: now, y1: 0, y2: tall, class: "graph-now" }, svg);
  svg.addEventListener("click", (e) => {
    if (!g.points.length) return;
    const box = svg.getBoundingClientRect();
    const move = ((e.clientX - box.left) / box.width) * last;
    const nearest = g.points.reduce((a, b) => (Math.abs(b.move - move) < Math.abs(a.move - move) ? b : a));
    act("nav", { move: nearest.move });
  });
  // The axes' labels, in the page's text (the drawing stretches to the box's width):
  // win rate on the left, score lead on the right, moves below, and what each line is.
  const axis = (cls, ...labels) => h("div", { class: `graph-axis ${cls}`, "aria-hidden": "true" },
    ...labels.map((t) => h("span", {}, t)));
  box.replaceChildren(
    h("div", { class: "graph-plot" },
      axis("graph-rate", "100%", "50%", "0%"), svg, axis("graph-points", `B+${scale}`, "0", `W+${scale}`)),
    axis("graph-moves", "move 0", `${Math.round(last / 2)}`, `${last}`),
    h("p", { class: "graph-legend" }, h("span", { class: "key-rate" }, "Black's win rate"),
      " · ", h("span", { class: "key-lead" }, "Black's score lead (points)")));
}

/** The score lead the graph's height spans either side of 0: a round number of points above
 * the largest lead, at least 5, so that a close game is not drawn as a landslide. */
export function leadScale(leads) {
  const most = Math.max(5, ...leads.map((x) => Math.abs(x)));
  const step = most <= 10 ? 5 : most <= 50 ? 10 : most <= 100 ? 25 : 50;
  return Math.ceil(most / step) * step;
}
