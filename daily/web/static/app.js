// Daily Dice single-page app: routing, navigation and the language switch.
import { onPreparingPlayer } from "./api.js";
import { GameView } from "./game.js";
import { detectLang, lang, setLang, t } from "./i18n.js";
import {
  boardPage, homePage, importPage, practicePage, profilePage, resultPage, rulesPage,
} from "./pages.js";
import { registerServiceWorker } from "./install.js";
import { showServiceNotes } from "./notes.js";
import { getLang, setLangPref } from "./store.js";
import { challengePage, groupInvitePage, groupPage } from "./together.js";
import { startAndOpen } from "./game.js";
import { h, hideBanner } from "./ui.js";

const view = document.getElementById("view");
let cleanup = () => {};
let current = null;

const NAV = [
  ["#/", "nav_home"], ["#/board", "nav_boards"], ["#/practice", "nav_practice"],
  ["#/profile", "nav_profile"], ["#/rules", "nav_rules"],
];

function renderChrome(active) {
  document.querySelector(".skip").textContent = t("skip");
  const nav = document.getElementById("nav");
  nav.replaceChildren(...NAV.map(([href, key]) => h("a", {
    href: `/${href}`, class: active === href ? "active" : null,
    "aria-current": active === href ? "page" : null, text: t(key),
  })));
  const button = document.getElementById("lang");
  button.textContent = t("lang_button");
  button.setAttribute("aria-label", t("lang_label"));
}

function parseRoute() {
  const hash = location.hash.replace(/^#/, "");
  const code = document.body.dataset.resultCode;
  if (!hash && code && location.pathname.startsWith("/r/")) return { name: "result", args: [code], nav: null };
  const challenge = document.body.dataset.challengeCode;
  if (!hash && challenge && location.pathname.startsWith("/c/")) return { name: "challenge", args: [challenge], nav: null };
  const group = document.body.dataset.groupCode;
  if (!hash && group && location.pathname.startsWith("/g/")) return { name: "invite", args: [group], nav: null };
  const parts = hash.split("/").filter(Boolean).map(decodeURIComponent);
  switch (parts[0]) {
    // a game's entry (Today or Practice) is known once it is loaded (GameView says it)
    case "play": return { name: "play", args: [parts[1]], nav: (parts[1] || "").startsWith("local-") ? "#/practice" : null };
    case "board": return { name: "board", args: [parts[1], parts[2]], nav: "#/board" };
    case "practice": return { name: "practice", args: [], nav: "#/practice" };
    case "profile": return { name: "profile", args: [], nav: "#/profile" };
    case "import": return { name: "import", args: [parts[1]], nav: "#/profile" };
    case "rules": return { name: "rules", args: [parts[1]], nav: "#/rules" };
    case "challenge": return { name: "challenge", args: [parts[1]], nav: "#/practice" };
    case "group": return { name: "group", args: [parts[1], parts[2]], nav: "#/" };
    case "join": return { name: "invite", args: [parts[1]], nav: "#/" };
    default: return { name: "home", args: [], nav: "#/" };
  }
}

async function route() {
  cleanup();
  cleanup = () => {};
  hideBanner();
  const r = parseRoute();
  current = r;
  renderChrome(r.nav);
  showServiceNotes();
  const titles = {
    home: "nav_home", board: "nav_boards", practice: "nav_practice", profile: "nav_profile",
    import: "nav_profile", rules: "nav_rules", result: "result_title", play: "card",
    challenge: "challenge", group: "groups", invite: "groups",
  };
  document.title = `${t(titles[r.name])} · Daily Dice`;
  if (r.name === "play") {
    const game = new GameView(view, r.args[0]);
    cleanup = () => game.unmount();
    await game.mount();
    return;
  }
  const pages = {
    home: homePage, board: boardPage, practice: practicePage, profile: profilePage,
    import: importPage, rules: rulesPage, result: resultPage,
    challenge: (root, code) => challengePage(root, code, startAndOpen), group: groupPage,
    invite: groupInvitePage,
  };
  const done = await pages[r.name](view, ...r.args);
  if (current === r && typeof done === "function") cleanup = done;
}

function switchLang() {
  const next = lang() === "it" ? "en" : "it";
  setLang(next);
  setLangPref(next);
  route();
registerServiceWorker();
}

setLang(detectLang(getLang(), navigator.languages || [navigator.language]));
document.getElementById("lang").addEventListener("click", switchLang);
// The skip link must not change the hash (the hash is the route).
document.querySelector(".skip").addEventListener("click", (event) => {
  event.preventDefault();
  view.focus();
});
// A new player may take a moment (the server's proof-of-work): say so while it lasts.
onPreparingPlayer((on) => {
  const note = document.getElementById("preparing");
  note.textContent = on ? t("preparing_player") : "";
  note.hidden = !on;
});
// A page says which navigation entry it belongs to once it knows (a practice game).
window.addEventListener("dd:nav", (event) => { if (current) renderChrome(event.detail); });
window.addEventListener("hashchange", () => {
  route();
  view.focus({ preventScroll: true });
});
route();
registerServiceWorker();
// Reminders (reminders.js) load only for a browser that allowed notifications.
if (window.Notification && Notification.permission === "granted") {
  import("./reminders.js").then((m) => m.renewReminders());
}
