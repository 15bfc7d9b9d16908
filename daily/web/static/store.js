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
// A token the server no longer accepts is set aside (not destroyed) before a new player.
export function forgetToken() {
  const old = getToken();
  if (old) write(`${KEY_TOKEN}.old`, old);
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
