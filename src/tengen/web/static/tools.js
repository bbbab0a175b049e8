// Review's markup tools: the toolbar, and what a click on the board does with the tool chosen.
// A marker tool sends the "markup" action, which adds the mark or removes it if it is there;
// an arrow or line takes two clicks (from, to). The server keeps the record.

import { $ } from "./dom.js";
import { vertex } from "./board.js";

const HINTS = {
  stone: "Click a point to play there.",
  TR: "Click a point to add or remove a triangle.",
  SQ: "Click a point to add or remove a square.",
  CR: "Click a point to add or remove a circle.",
  MA: "Click a point to add or remove a cross.",
  AR: "Click where the arrow starts, then where it points.",
  LN: "Click one end of the line, then the other.",
  DD: "Click a point to dim it or light it again.",
  erase: "Click a point to remove every mark on it.",
};
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// The tool chosen; the first point of an arrow or line; the node it was chosen on.
const tools = { tool: "stone", from: null, node: null, state: null, act: null, redraw: null };

/** Wire the toolbar: `act(path, body)` posts an action, `redraw()` draws the board again. */
export function setupTools(act, redraw) {
  tools.act = act;
  tools.redraw = redraw;
  for (const button of document.querySelectorAll("#markup-tools [data-tool]")) {
    button.onclick = () => choose(button.dataset.tool);
  }
  $("label-mode").onchange = () => tools.state && renderTools(tools.state);
}

function choose(tool) {
  tools.tool = tool;
  tools.from = null;
  for (const button of document.querySelectorAll("#markup-tools [data-tool]")) {
    button.setAttribute("aria-pressed", String(button.dataset.tool === tool));
  }
  if (tools.state) renderTools(tools.state);
  tools.redraw();
}

/** The label the Label tool writes next: the first letter (or number) the node lacks. */
function nextLabel(state) {
  const used = new Set(state.markup.labels.map(([, , text]) => text));
  if ($("label-mode").value === "letters") {
    const letter = [...LETTERS].find((l) => !used.has(l));
    if (letter) return letter;
  }
  let n = 1;
  while (used.has(String(n))) n++;
  return String(n);
}

/** Show the tool's hint for `state`; an arrow's first point is forgotten on another node. */
export function renderTools(state) {
  tools.state = state;
  if (tools.node !== state.tree.current) tools.from = null;
  tools.node = state.tree.current;
  const hint = tools.tool === "LB" ? `Click a point to write ${nextLabel(state)}, or a label to remove it.`
    : tools.from ? "Now click the other end." : HINTS[tools.tool];
  $("tool-hint").textContent = hint;
}

/** Whether a markup tool (not the stone) is chosen: the board's arrow keys then move its
 * cursor and Enter marks there, instead of stepping through the moves. */
export function markerChosen() {
  return tools.tool !== "stone";
}

/** The first point of the arrow or line being drawn, [col, row], or null. */
export function pendingPoint() {
  return tools.from;
}

/** Let the chosen tool take a click at (col, row) of `state`: true if it did (a marker
 * tool), false for the stone tool, whose click is a move. */
export function toolClick(state, col, row) {
  const tool = tools.tool;
  if (tool === "stone" || !state.markup) return false;
  const at = vertex(col, row, state.height);
  if (tool === "AR" || tool === "LN") {
    if (!tools.from) {
      tools.from = [col, row];
      renderTools(state);
      tools.redraw();
      return true;
    }
    const from = vertex(...tools.from, state.height);
    tools.from = null;
    if (from === at) {
      renderTools(state); // the same point again: start over
      tools.redraw();
    } else {
      tools.act("markup", { kind: tool, vertex: from, to: at });
    }
    return true;
  }
  const body = { kind: tool, vertex: at };
  const labelled = state.markup.labels.some(([c, r]) => c === col && r === row);
  if (tool === "LB" && !labelled) body.text = nextLabel(state);
  tools.act("markup", body);
  return true;
}
