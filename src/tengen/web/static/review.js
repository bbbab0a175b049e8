// Review: open records (file, drop, paste), step through them, variations, tree, comments.

import { $, single, svg as svgEl } from "./dom.js";
import { request, saveTokens } from "./api.js";


/** Wire the "Open a record" card: `opened(id)` is called with the new game's id. */
export function setupOpen(opened, fail) {
  const send = async (raw, name) => {
    try {
      const data = await request("POST", `/api/games/import?name=${encodeURIComponent(name)}`, { raw });
      saveTokens(data.id, data.tokens);
      opened(data.id);
    } catch (err) {
      fail(err.message);
    }
  };
  const sendFile = async (file) => send(await file.arrayBuffer(), file.name);
  $("file").addEventListener("change", (e) => e.target.files[0] && sendFile(e.target.files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files[0]) sendFile(e.dataTransfer.files[0]);
  });
  $("open-paste").addEventListener("click", () => {
    const text = $("paste").value.trim();
    if (text) send(text, "pasted.sgf");
    else fail("Paste an SGF record first.");
  });
}

/** Wire the review controls; `act(path, body)` posts an action for the current game. */
export function setupReview(act) {
  const nav = (body) => act("nav", body);
  $("nav-start").onclick = () => nav({ to: "start" });
  $("nav-back").onclick = () => nav({ to: "back" });
  $("nav-forward").onclick = () => nav({ to: "forward" });
  $("nav-end").onclick = () => nav({ to: "end" });
  $("move-box").onchange = (e) => nav({ move: Number(e.target.value) });
  $("slider").onchange = (e) => nav({ move: Number(e.target.value) });
  $("save-comment").onclick = () => act("comment", { comment: $("comment").value });
  $("promote").onclick = single(() => act("promote"));
  $("delete-branch").onclick = single(() => act("delete-branch"));
  document.addEventListener("keydown", (e) => {
    if ($("review-controls").hidden || e.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: { to: "back" }, ArrowRight: { to: "forward" }, Home: { to: "start" },
      End: { to: "end" }, ArrowUp: { to: "previous" }, ArrowDown: { to: "next" } };
    if (e.key in keys) {
      e.preventDefault();
      nav(keys[e.key]);
    }
  });
}

/** Show the review part of the panel for `state`. */
export function renderReview(state, act) {
  $("move-box").value = state.move_number;
  $("move-box").max = state.line_length;
  $("slider").max = state.line_length;
  $("slider").value = state.move_number;
  if (document.activeElement !== $("comment")) $("comment").value = state.comment;
  const vars = $("variations");
  vars.replaceChildren();
  if (state.variations.length > 1 || state.sibling.count > 1) {
    const title = document.createElement("div");
    title.textContent = state.sibling.count > 1
      ? `Variation ${state.sibling.index + 1} of ${state.sibling.count}. Next:`
      : "Next:";
    vars.appendChild(title);
  }
  if (state.variations.length > 1) {
    for (const v of state.variations) {
      const b = document.createElement("button");
      b.textContent = `${String.fromCharCode(97 + (v.index % 26))}) ${v.label}`;
      b.className = v.index === 0 ? "current" : "";
      b.onclick = () => act("nav", { variation: v.index });
      vars.appendChild(b);
    }
  }
  drawTree(state.tree, (i) => act("nav", { node: i }));
}

/** The game tree: one column per move, one lane per variation; click a node to go there. */
function drawTree(tree, go) {
  const box = $("tree");
  const dx = 16, dy = 18, r = 5;
  const nodes = tree.nodes;
  let maxDepth = 0, maxLane = 0;
  for (const [d, l] of nodes) { maxDepth = Math.max(maxDepth, d); maxLane = Math.max(maxLane, l); }
  const px = (d) => 8 + d * dx, py = (l) => 10 + l * dy;
  const svg = svgEl("svg", { width: (maxDepth + 1) * dx + 10, height: (maxLane + 1) * dy + 6 });
  nodes.forEach(([d, l, parent]) => {
    if (parent >= 0) {
      const [pd, pl] = nodes[parent];
      svgEl("path", { d: `M${px(pd)} ${py(pl)} L${px(d) - dx / 2} ${py(l)} L${px(d)} ${py(l)}`,
        stroke: "#999", fill: "none" }, svg);
    }
  });
  nodes.forEach(([d, l, , color, onPath], i) => {
    const fill = color === "B" ? "#111" : color === "W" ? "#fff" : "#c89b4a";
    const stroke = i === tree.current ? "#d23" : onPath ? "#8a4b16" : "#666";
    svgEl("circle", { "data-node": i, cx: px(d), cy: py(l), r, fill, stroke,
      "stroke-width": i === tree.current ? 3 : 1 }, svg);
  });
  svg.addEventListener("click", (e) => {
    const node = e.target.dataset?.node;
    if (node !== undefined) go(Number(node));
  });
  box.replaceChildren(svg);
  const current = nodes[tree.current];
  if (current) box.scrollLeft = Math.max(0, px(current[0]) - box.clientWidth / 2);
}
