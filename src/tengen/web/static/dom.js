// Building the page: one helper for every module. Elements are made node by node, never from
// HTML text, so data from a record or another player can only ever be text.

export const NS = "http://www.w3.org/2000/svg";

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** An SVG element `name` with attributes, appended to `parent` when given. */
export function svg(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** An HTML element: `h("a", { href, class: "x" }, "text", child...)`; attributes set as
 * attributes, children as nodes or text. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children);
  return node;
}
