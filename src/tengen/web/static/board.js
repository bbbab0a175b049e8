// The SVG board: draws a game state and turns clicks and keys into points. No game logic.

import { svg as el } from "./dom.js";
import { drawMarkup, marked } from "./markup.js";

const C = 40; // one cell, in SVG units
const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/** GTP name of a point: column letter (no I), row counted from the bottom. */
export function vertex(col, row, height) {
  return `${COLUMNS[col]}${height - row}`;
}

export class Board {
  /** `container` receives the SVG; `onPoint(col, row)` is called on a click or Enter. */
  constructor(container, onPoint) {
    this.container = container;
    this.onPoint = onPoint;
    this.cursor = null;
    this.state = null;
    this.options = {};
    container.addEventListener("keydown", (e) => this.key(e));
    // A press and a release on the same point play it. The two are matched by point, not by
    // element: the board is drawn anew on every update, which may fall between them, and then
    // the browser sends no click. A click without a pointer (detail 0: a screen reader's
    // activation) plays its point directly.
    this.pressed = null;
    container.addEventListener("pointerdown", (e) => {
      this.pressed = e.isPrimary && e.button === 0 ? pointAt(e.clientX, e.clientY) : null;
    });
    container.addEventListener("pointerup", (e) => {
      const down = this.pressed;
      this.pressed = null;
      const up = e.isPrimary ? pointAt(e.clientX, e.clientY) : null;
      if (down && up && down[0] === up[0] && down[1] === up[1]) this.onPoint(...up);
    });
    container.addEventListener("click", (e) => {
      const pt = e.detail === 0 ? pointOf(e.target) : null;
      if (pt) this.onPoint(...pt);
    });
  }

  /** Draw `state` with options {coords, numbers, chains, readonly, review, overlay, pending};
   * `overlay` draws more on the SVG, given {x(col), y(row), cell, el}; `pending` is the first
   * point of an arrow or line being drawn with the markup tools. */
  render(state, options) {
    this.state = state;
    this.options = options;
    const { width: w, height: h } = state;
    if (this.cursor && (this.cursor[0] >= w || this.cursor[1] >= h)) this.cursor = null;
    // Margin from the edge to the first line: with coordinates, room for the labels outside
    // the half-stone that overhangs the edge lines.
    const m = options.coords ? C * 1.4 : C * 0.6;
    const geo = { w, h, m, x: (c) => m + c * C, y: (r) => m + r * C };
    const svg = el("svg", {
      viewBox: `0 0 ${2 * m + (w - 1) * C} ${2 * m + (h - 1) * C}`,
      class: options.readonly ? "readonly" : "",
      "data-to-play": state.to_play,
      role: "presentation", // the grid for screen readers is the points' rows and cells
    });
    drawWood(svg, geo);
    drawGrid(svg, state, geo, options.coords);
    drawPoints(svg, state, geo, options.numbers);
    drawMarks(svg, state, geo, options);
    if (this.cursor) {
      const [c, r] = this.cursor;
      this.container.setAttribute("aria-activedescendant", `pt-${c}-${r}`);
      el("rect", { x: geo.x(c) - C / 2 + 2, y: geo.y(r) - C / 2 + 2, width: C - 4, height: C - 4,
        class: "cursor" }, svg);
    }
    this.container.replaceChildren(svg);
  }

  /** Arrow keys move the cursor; Enter or Space plays there. */
  key(e) {
    if (!this.state || this.options.review) return; // in review the arrows step through moves
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const { width: w, height: h } = this.state;
    if (e.key in moves) {
      const [dc, dr] = moves[e.key];
      const [c, r] = this.cursor ?? [Math.floor(w / 2), Math.floor(h / 2)];
      this.cursor = this.cursor ? [Math.min(w - 1, Math.max(0, c + dc)), Math.min(h - 1, Math.max(0, r + dr))] : [c, r];
      this.render(this.state, this.options);
      e.preventDefault();
      e.stopPropagation();
    } else if ((e.key === "Enter" || e.key === " ") && this.cursor) {
      this.onPoint(...this.cursor);
      e.preventDefault();
      e.stopPropagation();
    }
  }
}

/** The [col, row] of the point (or analysis candidate) that `target` is in, or null. */
function pointOf(target) {
  const pt = target instanceof Element ? target.closest(".pt, .candidate") : null;
  return pt ? [Number(pt.dataset.col), Number(pt.dataset.row)] : null;
}

/** The point under the given page coordinates, as drawn now. */
function pointAt(x, y) {
  return pointOf(document.elementFromPoint(x, y));
}

// -- the layers, bottom to top; `geo` is {w, h, m (margin), x(col), y(row)} -----------------

/** The wood: its gradient, the stones' gradients, and a faint grain. */
function drawWood(svg, { w, h, m }) {
  const defs = el("defs", {}, svg);
  const wood = el("linearGradient", { id: "wood", x1: 0, y1: 0, x2: 1, y2: 1 }, defs);
  el("stop", { offset: "0", "stop-color": "#ebc57d" }, wood);
  el("stop", { offset: "1", "stop-color": "#d6a14b" }, wood);
  for (const [id, a, b] of [["bs", "#666", "#070707"], ["ws", "#ffffff", "#c9c6bd"]]) {
    const g = el("radialGradient", { id, cx: ".35", cy: ".33", r: ".7" }, defs);
    el("stop", { offset: "0", "stop-color": a }, g);
    el("stop", { offset: "1", "stop-color": b }, g);
  }
  el("rect", { width: "100%", height: "100%", fill: "url(#wood)" }, svg);
  for (let i = 0; i < 12; i++) {
    const yy = ((i * 37) % 100) / 100 * (2 * m + (h - 1) * C);
    el("path", {
      d: `M0 ${yy} Q ${w * C / 2} ${yy + 14 * Math.sin(i)} ${2 * m + (w - 1) * C} ${yy + 6}`,
      stroke: "#b8873a", "stroke-opacity": ".18", fill: "none", "stroke-width": 2 + (i % 3),
    }, svg);
  }
}

/** The lines, the star points (from the server, as every diagram's) and the coordinates. */
function drawGrid(svg, state, { w, h, m, x, y }, coords) {
  const grid = el("g", { class: "grid" }, svg);
  for (let c = 0; c < w; c++) {
    el("line", { x1: x(c), y1: y(0), x2: x(c), y2: y(h - 1),
      class: c === 0 || c === w - 1 ? "edge" : "" }, grid);
  }
  for (let r = 0; r < h; r++) {
    el("line", { x1: x(0), y1: y(r), x2: x(w - 1), y2: y(r),
      class: r === 0 || r === h - 1 ? "edge" : "" }, grid);
  }
  for (const [c, r] of state.stars) el("circle", { cx: x(c), cy: y(r), r: 4, class: "star" }, svg);
  if (!coords) return;
  const label = C * 0.45; // label centres, from the outer edge
  for (let c = 0; c < w; c++) {
    for (const yy of [label, y(h - 1) + m - label]) {
      el("text", { x: x(c), y: yy, class: "coord" }, svg).textContent = COLUMNS[c] ?? "";
    }
  }
  for (let r = 0; r < h; r++) {
    for (const xx of [label, x(w - 1) + m - label]) {
      el("text", { x: xx, y: y(r), class: "coord" }, svg).textContent = String(h - r);
    }
  }
}

/** Each point, a grid cell for screen readers named for what is on it: its stone (with its
 * move number, and a cross when marked dead), a ghost stone to hover, or renju's foul mark. */
function drawPoints(svg, state, { w, h, x, y }, showNumbers) {
  const key = (c, r) => `${c},${r}`;
  const dead = new Set((state.scoring?.dead ?? []).map(([c, r]) => key(c, r)));
  const numbers = new Map(state.numbers.map(([c, r, n]) => [key(c, r), n]));
  const forbidden = new Map((state.forbidden ?? []).map(([c, r, why]) => [key(c, r), why]));
  const liberties = new Map();
  for (const chain of state.chains ?? []) {
    for (const [c, r] of chain.stones) liberties.set(key(c, r), chain.liberties);
  }
  const describe = (c, r) => {
    const parts = [vertex(c, r, h), { ".": "empty", B: "black stone", W: "white stone" }[state.board[r][c]]];
    const libs = liberties.get(key(c, r));
    if (libs !== undefined) parts.push(libs === 1 ? "1 liberty" : `${libs} liberties`);
    if (dead.has(key(c, r))) parts.push("dead");
    if (forbidden.has(key(c, r))) parts.push(`forbidden to Black: ${forbidden.get(key(c, r))}`);
    const last = state.last_move;
    if (last && last[0] === c && last[1] === r) parts.push("last move");
    return parts.join(", ");
  };
  const cross = (c, r, d) => `M${x(c) - d} ${y(r) - d}L${x(c) + d} ${y(r) + d}M${x(c) + d} ${y(r) - d}L${x(c) - d} ${y(r) + d}`;
  const ghost = state.to_play === "black" ? "url(#bs)" : "url(#ws)";
  for (let r = 0; r < h; r++) {
    const row = el("g", { role: "row" }, svg);
    for (let c = 0; c < w; c++) {
      const g = el("g", { class: "pt", "data-col": c, "data-row": r, role: "gridcell",
        id: `pt-${c}-${r}`, "aria-label": describe(c, r) }, row);
      const stone = state.board[r][c];
      const why = forbidden.get(key(c, r));
      if (why !== undefined) {
        // Renju: Black may not play here; the title is the tooltip of the whole point.
        el("title", {}, g).textContent = `Forbidden to Black: ${why}`;
        const mark = el("g", { class: "forbidden", "data-reason": why, "data-vertex": vertex(c, r, h) }, g);
        el("path", { d: cross(c, r, C * 0.17) }, mark);
      } else if (stone === ".") {
        el("circle", { cx: x(c), cy: y(r), r: C * 0.47, fill: ghost, class: "ghost" }, g);
      } else {
        const isDead = dead.has(key(c, r));
        const color = stone === "B" ? "black" : "white";
        const s = el("g", { class: `stone ${color}${isDead ? " dead" : ""}`,
          "data-vertex": vertex(c, r, h) }, g);
        el("circle", { cx: x(c) + 1.5, cy: y(r) + 2, r: C * 0.47, fill: "#0004" }, s);
        el("circle", { cx: x(c), cy: y(r), r: C * 0.47, fill: stone === "B" ? "url(#bs)" : "url(#ws)",
          stroke: stone === "B" ? "#000" : "#777", "stroke-width": 0.8 }, s);
        const n = numbers.get(key(c, r));
        if (showNumbers && n !== undefined) {
          el("text", { x: x(c), y: y(r), class: `stone-text on-${color}` }, g).textContent = n;
        }
        if (isDead) el("path", { d: cross(c, r, C * 0.18), class: "dead-mark" }, g);
      }
      el("rect", { x: x(c) - C / 2, y: y(r) - C / 2, width: C, height: C, class: "hit" }, g);
    }
  }
}

/** Over the stones: the counted territory, the analysis overlay, the record's markup, the
 * last move, a winning row, the ko point, and the chains' labels. */
function drawMarks(svg, state, { h, x, y }, options) {
  for (const side of ["black", "white"]) {
    for (const [c, r] of state.scoring?.territory[side] ?? []) {
      el("rect", { x: x(c) - 6, y: y(r) - 6, width: 12, height: 12, class: `terr-${side}` }, svg);
    }
  }
  options.overlay?.(svg, { x, y, cell: C, el });
  if (state.markup) drawMarkup(svg, state, { x, y, cell: C, el, vertex }, options.pending);
  if (state.last_move && !options.numbers && !marked(state, ...state.last_move)) {
    const [c, r] = state.last_move;
    el("circle", { cx: x(c), cy: y(r), r: C * 0.22, class: "last" }, svg);
  }
  if (state.winning_line) {
    const line = state.winning_line;
    const [[c0, r0], [c1, r1]] = [line[0], line[line.length - 1]];
    const win = el("g", { class: "win", "data-points": line.map(([c, r]) => vertex(c, r, h)).join(" ") }, svg);
    for (const [c, r] of line) el("circle", { cx: x(c), cy: y(r), r: C * 0.47, class: "win-stone" }, win);
    el("line", { x1: x(c0), y1: y(r0), x2: x(c1), y2: y(r1), class: "win-line" }, win);
  }
  if (state.ko) {
    const [c, r] = state.ko;
    el("rect", { x: x(c) - C * 0.22, y: y(r) - C * 0.22, width: C * 0.44, height: C * 0.44,
      class: "ko", "data-ko": vertex(c, r, h) }, svg);
  }
  if (!options.chains) return;
  for (const chain of state.chains) {
    const [c, r] = firstStone(chain.stones);
    el("rect", { x: x(c) - C * 0.55, y: y(r) - 9, width: C * 1.1, height: 18, rx: 4,
      class: "label-box" }, svg);
    el("text", { x: x(c), y: y(r), class: "chain-label",
      fill: chain.liberties === 1 ? "#c00" : "#0b3d91" }, svg).textContent = `${chain.label}:${chain.liberties}`;
  }
}

/** The chain's first stone in reading order: where its label goes. */
function firstStone(stones) {
  return stones.reduce((a, b) => (b[1] < a[1] || (b[1] === a[1] && b[0] < a[0]) ? b : a));
}
