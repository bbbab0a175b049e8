// The analysis engines on the home page: the list, and a form to add or remove one. Only a
// browser on the server's own machine may change them; the server says whether this one may.

import { request } from "./api.js";
import { $, h } from "./dom.js";

let changed = () => {};

/** Wire the form; `onChange()` is called after every change (the engine menus refresh). */
export function setupEngineSettings(onChange) {
  changed = onChange;
  $("engine-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    const name = form.engine_name.value.trim(), command = form.engine_command.value.trim();
    for (const field of form.elements) field.removeAttribute("aria-invalid");
    if (!name) return refuse(form.engine_name, "Give the engine a name, such as katago.");
    if (!command) return refuse(form.engine_command, "Give the command line that starts the engine.");
    try {
      render(await request("POST", "/api/engines", { body: { name, command, cwd: form.engine_cwd.value.trim() } }));
      form.reset();
      say(`Added ${name}.`, true);
      changed();
    } catch (err) {
      say(err.message);
    }
  });
}

/** Show what happened: a refusal (in red), or a change done. */
function say(text, done = false) {
  $("engines-message").textContent = text;
  $("engines-message").classList.toggle("done", done);
}

function refuse(field, text) {
  say(text);
  field.setAttribute("aria-invalid", "true");
  field.focus();
}

/** Fetch the engines and show them. */
export async function showEngineSettings() {
  try {
    render(await request("GET", "/api/engines"));
  } catch (err) {
    say(err.message);
  }
}

function render({ engines, editable }) {
  $("engine-form").hidden = !editable;
  $("engines-note").textContent = editable ? ""
    : "Engines run programs on the server's machine: they are added from a browser on that machine.";
  $("engines").hidden = !engines.length;
  $("no-engines").hidden = engines.length > 0;
  $("engines").querySelector("tbody").replaceChildren(...engines.map((e) => {
    const remove = editable && e.source === "settings"
      ? h("button", { class: "remove-engine", "aria-label": `Remove ${e.name}` }, "Remove") : "";
    if (remove) {
      remove.onclick = async () => {
        try {
          render(await request("DELETE", `/api/engines/${encodeURIComponent(e.name)}`));
          say(`Removed ${e.name}.`, true);
          changed();
        } catch (err) {
          say(err.message);
        }
      };
    }
    return h("tr", { "data-engine": e.name }, h("td", {}, e.name), h("td", {}, h("code", {}, e.command ?? "")),
      h("td", {}, e.cwd ?? ""), h("td", {}, e.source), h("td", {}, remove));
  }));
}
