// The player's own settings, remembered in this browser: a move sound (off unless chosen) and
// a confirm-move step for touch screens (a first tap marks the point, a second plays there).

import { $ } from "./dom.js";

const KEY = "tengen.prefs";
let audio = null;

function load() {
  try {
    return { sound: false, confirm: false, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { sound: false, confirm: false };
  }
}

/** Wire the checkboxes to the remembered settings; `changed()` is called after a change. */
export function setupPrefs(changed) {
  const prefs = load();
  for (const [id, name] of [["move-sound", "sound"], ["confirm-moves", "confirm"]]) {
    $(id).checked = prefs[name];
    $(id).addEventListener("change", () => {
      localStorage.setItem(KEY, JSON.stringify({ ...load(), [name]: $(id).checked }));
      changed();
    });
  }
}

/** Whether a move waits for a second tap (or the confirm button). */
export function confirming() {
  return $("confirm-moves").checked;
}

/** A short wooden click for a stone put down, when the sound is on. */
export function moveSound() {
  if (!$("move-sound").checked) return;
  audio ??= new AudioContext();
  const now = audio.currentTime;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.setValueAtTime(900, now);
  osc.frequency.exponentialRampToValueAtTime(300, now + 0.06);
  gain.gain.setValueAtTime(0.4, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.09);
  osc.connect(gain).connect(audio.destination);
  osc.start(now);
  osc.stop(now + 0.1);
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
}
