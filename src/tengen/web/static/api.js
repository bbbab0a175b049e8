// Talking to the server: JSON requests with the seat token, the game's websocket, saved tokens.

const KEY = "tengen.tokens";

/** The tokens this browser holds for a game: {black?: token, white?: token}. */
export function tokensFor(gameId) {
  const all = JSON.parse(localStorage.getItem(KEY) || "{}");
  return all[gameId] || {};
}

/** Remember tokens for a game (merged with those already held). */
export function saveTokens(gameId, tokens) {
  const all = JSON.parse(localStorage.getItem(KEY) || "{}");
  all[gameId] = { ...(all[gameId] || {}), ...tokens };
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** A token for `seat` if held, else any token of the game, else null. */
export function tokenFor(gameId, seat) {
  const tokens = tokensFor(gameId);
  return tokens[seat] || Object.values(tokens)[0] || null;
}

/** Fetch JSON; throws an Error carrying the server's message on a non-2xx answer. */
export async function request(method, url, { body, token, raw } = {}) {
  const headers = {};
  if (token) headers["X-Token"] = token;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body: payload });
  } catch {
    const err = new Error("No answer from the server (disconnected): nothing was changed. Reconnecting…");
    err.offline = true;
    throw err;
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    const err = new Error(data.error || response.statusText);
    err.reason = data.reason;
    throw err;
  }
  return data;
}

/** Follow a game over its websocket, reconnecting after a drop: states go to `onState`,
 * analysis progress ({analysis} or {graph}) to `onAnalysis`, up/down to `onStatus`.
 * Returns a stop function. */
export function follow(gameId, onState, onStatus, onAnalysis) {
  let socket = null;
  let stopped = false;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws`);
    socket.onopen = () => onStatus(true);
    socket.onmessage = (e) => {
      const data = JSON.parse(e.data);
      if (data.analysis !== undefined || data.graph !== undefined) onAnalysis(data);
      else if (!data.error) onState(data);
    };
    socket.onclose = () => {
      onStatus(false);
      if (!stopped) setTimeout(open, 1000);
    };
  };
  open();
  return () => {
    stopped = true;
    socket?.close();
  };
}
