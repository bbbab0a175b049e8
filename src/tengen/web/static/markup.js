// SGF markup of the node shown, drawn over the stones: dimmed points, point marks, labels,
// arrows and lines (the server's `markup_view`). Each mark is drawn in the ink that shows on
// what lies under it: white on a black stone, black on a white stone or the bare board.

const SHAPES = { TR: "triangle", SQ: "square", CR: "circle", MA: "cross", SL: "selected" };

/** The ink of a mark at (c, r): "ink-white" on a black stone, else "ink-black". */
function ink(state, c, r) {
  return state.board[r][c] === "B" ? "ink-white" : "ink-black";
}

/** Whether the node's markup marks or labels (c, r): the last-move ring then stays off. */
export function marked(state, c, r) {
  const m = state.markup;
  return !!m && [...m.marks, ...m.labels].some(([mc, mr]) => mc === c && mr === r);
}

/** Draw `state.markup` on `svg` with the board's {x, y, cell, el, vertex}; `pending` ([c, r]
 * or null) is the first point of an arrow or line that waits for its second. */
export function drawMarkup(svg, state, { x, y, cell, el, vertex }, pending) {
  const { marks, labels, arrows, lines, dimmed } = state.markup;
  const h = state.height;
  const layer = el("g", { class: "markup" }, svg);
  for (const [c, r] of dimmed) {
    el("rect", { x: x(c) - cell / 2, y: y(r) - cell / 2, width: cell, height: cell,
      class: "dim", "data-vertex": vertex(c, r, h) }, layer);
  }
  for (const [c, r, kind] of marks) {
    drawMark(el, layer, SHAPES[kind], x(c), y(r), cell, ink(state, c, r), vertex(c, r, h));
  }
  for (const [c, r, text] of labels) {
    if (state.board[r][c] === ".") {
      el("circle", { cx: x(c), cy: y(r), r: cell * 0.36, class: "label-back" }, layer);
    }
    const t = el("text", { x: x(c), y: y(r), class: `mark label ${ink(state, c, r)}`,
      "data-vertex": vertex(c, r, h), "font-size": text.length > 2 ? 14 : 20 }, layer);
    t.textContent = text;
  }
  const head = el("marker", { id: "arrow-head", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, el("defs", {}, layer));
  el("path", { d: "M0 0L10 5L0 10Z", class: "arrow-head" }, head);
  for (const [kind, list] of [["arrow", arrows], ["line", lines]]) {
    for (const [c0, r0, c1, r1] of list) {
      const ends = { x1: x(c0), y1: y(r0), x2: x(c1), y2: y(r1) };
      const g = el("g", { class: `mark ${kind}`,
        "data-from": vertex(c0, r0, h), "data-to": vertex(c1, r1, h) }, layer);
      el("line", { ...ends, class: "halo" }, g);
      el("line", { ...ends, class: "stroke",
        ...(kind === "arrow" ? { "marker-end": "url(#arrow-head)" } : {}) }, g);
    }
  }
  if (pending) {
    const [c, r] = pending;
    el("circle", { cx: x(c), cy: y(r), r: cell * 0.4, class: "pending",
      "data-vertex": vertex(c, r, h) }, layer);
  }
}

/** One point mark of `shape` centred on (cx, cy). */
function drawMark(el, layer, shape, cx, cy, cell, inkClass, where) {
  const attrs = { class: `mark ${shape} ${inkClass}`, "data-vertex": where };
  const s = cell * 0.26;
  if (shape === "triangle") {
    const d = `M${cx} ${cy - s * 1.15}L${cx + s} ${cy + s * 0.58}L${cx - s} ${cy + s * 0.58}Z`;
    el("path", { ...attrs, d }, layer);
  } else if (shape === "square" || shape === "selected") {
    el("rect", { ...attrs, x: cx - s, y: cy - s, width: 2 * s, height: 2 * s }, layer);
  } else if (shape === "circle") {
    el("circle", { ...attrs, cx, cy, r: s }, layer);
  } else {
    el("path", { ...attrs, d: `M${cx - s} ${cy - s}L${cx + s} ${cy + s}M${cx + s} ${cy - s}L${cx - s} ${cy + s}` }, layer);
  }
}
