// What the browser remembers: the player token, the language and the games in progress.
// Everything else lives on the server; a game resumes from GET /games/{id}.

const KEY_TOKEN = "dd.token";
const KEY_LANG = "dd.lang";
const KEY_GAMES = "dd.games";
const KEY_HOLDS = "dd.holds";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full storage: the server still has everything committed */
  }
}

export const getToken = () => read(KEY_TOKEN, null);
export const setToken = (token) => write(KEY_TOKEN, token);

// Tokens this browser used before, newest first: replacing the player (an import link,
// a pasted token, a new player after a refused token) never destroys the old token.
const KEY_PREVIOUS = "dd.tokens.previous";
const PREVIOUS_KEPT = 5;

export function previousTokens() {
  const list = read(KEY_PREVIOUS, []);
  const legacy = read(`${KEY_TOKEN}.old`, null); // the one slot of earlier versions
  return [...new Set([...(Array.isArray(list) ? list : []), ...(legacy ? [legacy] : [])])];
}

export function keepPrevious(token) {
  if (!token) return;
  const list = [token, ...previousTokens().filter((old) => old !== token)];
  write(KEY_PREVIOUS, list.slice(0, PREVIOUS_KEPT));
  write(`${KEY_TOKEN}.old`, null);
}

// Use another player's token, keeping the current one among the previous ones.
export function replaceToken(token) {
  const current = getToken();
  if (current && current !== token) keepPrevious(current);
  write(KEY_PREVIOUS, previousTokens().filter((old) => old !== token));
  setToken(token);
}

// A token the server no longer accepts is set aside (not destroyed) before a new player.
export function forgetToken() {
  keepPrevious(getToken());
  write(KEY_TOKEN, null);
}
export const getLang = () => read(KEY_LANG, null);
export const setLangPref = (lang) => write(KEY_LANG, lang);

// Games in progress by "date|ruleset|mode" so the home page can offer "Resume".
export function rememberGame(game) {
  const games = read(KEY_GAMES, {});
  games[`${game.date || "-"}|${game.ruleset}|${game.mode}`] = game.id;
  games.last = game.id;
  write(KEY_GAMES, games);
}

export function rememberedGame(date, ruleset, mode = "ranked") {
  return read(KEY_GAMES, {})[`${date || "-"}|${ruleset}|${mode}`] || null;
}

// Dice the player marked as kept but has not rolled yet (not a committed move, a courtesy).
export function saveHolds(gameId, turn, roll, holds) {
  write(KEY_HOLDS, { gameId, turn, roll, holds });
}

export function loadHolds(gameId, turn, roll) {
  const saved = read(KEY_HOLDS, null);
  if (saved && saved.gameId === gameId && saved.turn === turn && saved.roll === roll) {
    return saved.holds;
  }
  return null;
}

// The computer opponents the player last chose (levels), offered again next time.
const KEY_OPPONENTS = "dd.opponents";
export const getOpponents = () => {
  const saved = read(KEY_OPPONENTS, []);
  return Array.isArray(saved) ? saved : [];
};
export const setOpponents = (levels) => write(KEY_OPPONENTS, levels);

// Whether a ranked game asks to confirm the box chosen (tap, then Confirm): on unless
// the player turned it off on Profile (kept in this browser).
const KEY_CONFIRM = "dd.confirm.boxes";
export const confirmBoxes = () => read(KEY_CONFIRM, true) !== false;
export const setConfirmBoxes = (on) => write(KEY_CONFIRM, Boolean(on));
