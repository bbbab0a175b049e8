// Building the page: one helper for every module. Elements are made node by node, never from
// HTML text, so data from a record or another player can only ever be text.

export const NS = "http://www.w3.org/2000/svg";

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** A click handler that ignores the second click of a double click (the event's `detail`,
 * its click count; 0 from the keyboard): the page ignores clicks only while an action is on
 * its way, and a local server answers the first click of a person's double click before the
 * second comes, so a double-clicked pass or undo would act twice. */
export function single(handler) {
  return (e) => { if (e.detail <= 1) handler(); };
}

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
