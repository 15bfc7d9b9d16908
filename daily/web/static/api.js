// The one door to the JSON API (/api/v1): bearer token, JSON in and out, one error type.
import { lang } from "./i18n.js";
import { getToken, setToken } from "./store.js";

export const API = "/api/v1";

export class ApiError extends Error {
  constructor(status, code, message, detail = {}, retryAfter = null, state = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.retryAfter = retryAfter;
    this.state = state; // the current game state of a 409 stale_position
  }

  get isNetwork() {
    return this.status === 0;
  }
}

export async function api(method, path, body, { token } = {}) {
  // The server writes share texts in this language.
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const bearer = token === undefined ? getToken() : token;
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response;
  try {
    response = await fetch(API + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err && err.message ? err.message : err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    const retry = Number(response.headers.get("Retry-After"));
    throw new ApiError(
      response.status,
      error.code || (response.status === 429 ? "rate_limited" : `http_${response.status}`),
      error.message || response.statusText || `HTTP ${response.status}`,
      error,
      Number.isFinite(retry) && retry > 0 ? retry : null,
      (data && data.state) || null,
    );
  }
  return data;
}

// Told true while a new player is being prepared (a proof-of-work), then false.
let preparing = () => {};
export function onPreparingPlayer(listener) {
  preparing = listener;
}

async function createPlayer() {
  for (let attempt = 0; ; attempt += 1) {
    // The server says whether it wants a proof-of-work (bits > 0) for a new player.
    const ask = await api("GET", "/players/challenge");
    const body = {};
    if (ask.bits > 0) preparing(true);
    try {
      if (ask.bits > 0) body.pow = { challenge: ask.challenge, nonce: await (await import("./pow.js")).solvePow(ask.challenge, ask.bits) };
      const created = await api("POST", "/players", body);
      setToken(created.token);
      return;
    } catch (err) {
      // An expired challenge (a tab left asleep) or a changed network: once more.
      if (err.code !== "pow_stale" || attempt > 0) throw err;
    } finally {
      preparing(false);
    }
  }
}

// The player, created on first need (the first game); the token is kept in localStorage.
let creating = null;
export async function ensurePlayer() {
  if (getToken()) return;
  if (!creating) creating = createPlayer().finally(() => { creating = null; });
  await creating;
}

export const getToday = () => api("GET", "/today");
export const getGame = (id) => api("GET", `/games/${encodeURIComponent(id)}`);
export const startGame = (body) => api("POST", "/games", body);
// A move names the position it was decided at (daily-move/1): resending the same move
// is always safe, and a move on a position that moved on is refused with the state.
export const rollDice = (id, hold, position) =>
  api("POST", `/games/${encodeURIComponent(id)}/roll`, { hold, position });
export const scoreBox = (id, box, position) =>
  api("POST", `/games/${encodeURIComponent(id)}/score`, { box, position });
export const hint = (id) => api("POST", `/games/${encodeURIComponent(id)}/hint`, {});
export const analysis = (id) => api("GET", `/games/${encodeURIComponent(id)}/analysis`);
export const getBoard = (date, ruleset, limit = 100) =>
  api("GET", `/leaderboards/${date}/${encodeURIComponent(ruleset)}?limit=${limit}`);
export const getDay = (date, ruleset) => api("GET", `/days/${date}/${encodeURIComponent(ruleset)}`);
export const getDays = (from, to, ruleset) =>
  api("GET", `/days?from=${from}&to=${to}&ruleset=${encodeURIComponent(ruleset)}`);
export const getResult = (code) => api("GET", `/results/${encodeURIComponent(code)}`);
export const getProof = (code) => api("GET", `/results/${encodeURIComponent(code)}/proof`);
export const getKeys = () => api("GET", "/keys");
export const getMe = (token) => api("GET", "/players/me", undefined, { token });
export const renamePlayer = (name) => api("PATCH", "/players/me", { name });
export const rotateToken = () => api("POST", "/players/me/token", {});

// The QR code of this player's import link, drawn by the web blueprint for the token
// in the Authorization header (never in a URL).
export async function importQrSvg() {
  const response = await fetch("/qr.svg", {
    method: "POST",
    headers: { Authorization: `Bearer ${getToken()}` },
    cache: "no-store",
  });
  if (!response.ok) throw new ApiError(response.status, "qr", "QR code unavailable");
  return response.text();
}

// Friend challenges and groups.
export const createChallenge = (body) => api("POST", "/challenges", body);
export const getChallenge = (code) => api("GET", `/challenges/${encodeURIComponent(code)}`);
export const getGroups = () => api("GET", "/groups");
export const createGroup = (name) => api("POST", "/groups", { name });
export const joinGroup = (code) => api("POST", `/groups/${encodeURIComponent(code)}/members`, {});
export const leaveGroup = (code) => api("DELETE", `/groups/${encodeURIComponent(code)}/members/me`);
export const getGroup = (code, date) =>
  api("GET", `/groups/${encodeURIComponent(code)}${date ? `?date=${date}` : ""}`);
export const getGroupInvite = (code) => api("GET", `/groups/${encodeURIComponent(code)}/invite`);
