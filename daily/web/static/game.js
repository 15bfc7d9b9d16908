// The play screen. Every rule comes from the game state: legal boxes, preview points,
// rolls left and joker reasons are only displayed here. A game's state comes from the
// server, or, for offline Practice, from local.js (rules generated from the core).
import * as api from "./api.js";
import { adviceText } from "./advice.js";
import { renderCard } from "./card.js";
import { endScreen } from "./end.js";
import { boxName, fmtDate, fmtNumber, rulesetName, t } from "./i18n.js";
import { jokerBanner, momentOf, rolledDice, showMoment } from "./feel.js";
import { isLocal, localGames, startLocal } from "./local.js";
import { hintRefusal, showServiceNotes } from "./notes.js";
import { rivalsPanel } from "./together.js";
import { confirmBoxes, forgetToken, loadHolds, rememberGame, saveHolds } from "./store.js";
import {
  announce, confirmDialog, dieFace, errorText, h, hideBanner, miniDice, showBanner, toast,
} from "./ui.js";

const SERVER_GAMES = { get: api.getGame, roll: api.rollDice, score: api.scoreBox };

// The navigation entry a page belongs to (a practice game belongs to Practice).
export function setNav(href) {
  window.dispatchEvent(new CustomEvent("dd:nav", { detail: href }));
}

// ---------- the play screen ----------

export class GameView {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.moves = isLocal(gameId) ? localGames : SERVER_GAMES;
    this.game = null;
    this.holds = [];
    this.busy = false;
    this.unsettled = null;
    this.alive = true;
    this.onKey = (event) => this.key(event);
    this.onOnline = () => this.online();
    // A button's own Space action fires on keyup: Space means "roll" on this screen.
    this.onKeyUp = (event) => {
      if (event.key === " " && this.handlesKeys(event)) event.preventDefault();
    };
  }

  async mount() {
    this.root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("keyup", this.onKeyUp);
    window.addEventListener("online", this.onOnline);
    try {
      this.apply(await this.moves.get(this.gameId), { restoreHolds: true });
      const g = this.game;
      if (g) {
        setNav(g.mode === "practice" ? "#/practice" : "#/");
        // Hints need the ruleset's strategy table: its state concerns a practice game.
        if (g.mode === "practice" && !g.local) showServiceNotes(g.ruleset);
      }
    } catch (err) {
      this.root.replaceChildren(h("div", { class: "panel" },
        h("p", { text: err.status === 404 ? t("not_found") : errorText(err) }),
        h("a", { class: "btn", href: "/#/", text: t("back_home") })));
    }
  }

  unmount() {
    this.alive = false;
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("keyup", this.onKeyUp);
    window.removeEventListener("online", this.onOnline);
  }

  apply(game, { restoreHolds = false } = {}) {
    if (!this.alive) return;
    const previous = this.game;
    if (!game.history) {
      // A move's lighter answer (docs/api.md): the turns shown before, plus the one this
      // move filled. If they do not add up (another tab moved), ask for the whole game.
      const before = previous && previous.id === game.id ? previous.history || [] : [];
      const history = game.last_turn ? before.concat([game.last_turn]) : before;
      game = { ...game, history };
      if (history.length !== game.turn - 1 && !game.over) {
        this.moves.get(game.id).then((full) => this.apply(full)).catch(() => {});
      }
    }
    if (!previous || previous.turn !== game.turn || previous.roll !== game.roll || game.over) this.selected = null;
    this.game = game;
    if (!game.local) rememberGame(game);
    const n = (game.dice || []).length;
    const newTurn = !previous || previous.turn !== game.turn || game.over;
    this.rolling = rolledDice(previous, game, this.holds);
    if (restoreHolds) {
      const saved = loadHolds(game.id, game.turn, game.roll);
      this.holds = saved && saved.length === n ? saved : Array(n).fill(false);
    } else if (newTurn || this.holds.length !== n) {
      this.holds = Array(n).fill(false);
    }
    this.render();
    this.rolling = null;
    const moment = previous && previous.id === game.id ? momentOf(previous, game) : null;
    if (moment) showMoment(moment);
    if (game.over && previous && !previous.over) {
      // The game just ended: bring the end screen into view and give it the focus.
      const title = this.root.querySelector("#end-title");
      if (title) {
        title.tabIndex = -1;
        title.focus({ preventScroll: true });
        window.scrollTo({ top: 0 });
      }
    }
  }

  get canRoll() {
    const g = this.game;
    return !this.busy && g && !g.over && g.rolls_left > 0 && !this.holds.every(Boolean);
  }

  render() {
    if (!this.alive) return;
    const g = this.game;
    // Keep the keyboard focus where it was across renders, including the busy render
    // (its disabled buttons drop the focus) and the one after the server's answer.
    const active = document.activeElement && this.root.contains(document.activeElement)
      ? document.activeElement.dataset.key || document.activeElement.dataset.box : null;
    let focusKey = active || null;
    if (this.busy && active) this.pendingFocus = active;
    if (!this.busy) {
      focusKey = focusKey || this.pendingFocus || null;
      this.pendingFocus = null;
    }
    const head = h("div", { class: "game-head" },
      h("h1", {}, rulesetName(g.ruleset),
        h("span", { class: `badge ${g.mode}`, text: g.mode === "ranked" ? t("ranked_mode") : t("practice_mode") }),
        g.local ? h("span", { class: "badge offline", "data-testid": "offline-badge", text: t("offline_badge") }) : null),
      h("p", { class: "muted" }, g.date ? fmtDate(g.date) : "", g.date ? " · " : "",
        g.over ? t("game_over") : t("turn_of", { turn: g.turn, turns: g.turns }),
        g.over ? null : h("span", { class: "head-total" }, ` · ${t("total")} `, h("strong", { text: g.total ?? 0 }))));
    const section = h("section", {
      class: "game", "data-game-id": g.id, "data-turn": g.turn, "data-roll": g.roll,
      "data-over": g.over ? "1" : "0", "data-busy": this.busy ? "1" : "0",
      "data-confirm": this.confirming ? "1" : "0",
    }, head);
    if (g.over) {
      section.append(h("div", { class: "game-grid over" }, endScreen(g, startOffline),
        h("div", { class: "card-column" }, renderCard(g), rivalsPanel(g))));
    } else {
      section.append(h("div", { class: "game-grid" }, this.playPanel(),
        h("div", { class: "card-column" }, jokerBanner(g), this.cardPanel(), rivalsPanel(g))));
    }
    this.root.replaceChildren(section);
    if (focusKey) {
      const target = this.root.querySelector(`[data-key="${focusKey}"], button[data-box="${focusKey}"]:not([disabled])`);
      if (target) { target.tabIndex = 0; target.focus(); }
    }
  }

  playPanel() {
    const g = this.game;
    const dice = (g.dice || []).map((face, i) => {
      const kept = this.holds[i];
      const rolling = this.rolling && this.rolling.has(i) ? " rolling" : "";
      return h("button", {
        type: "button", class: (kept ? "die kept" : "die") + rolling, "data-key": `die${i}`, "data-index": i,
        "aria-pressed": kept ? "true" : "false", disabled: this.busy || g.rolls_left <= 0,
        "aria-label": `${t("die_label", { i: i + 1, face })}, ${kept ? t("die_kept") : t("die_free")}`,
        onclick: () => this.toggle(i),
      }, dieFace(face), h("span", { class: "kept-label", text: kept ? t("kept") : `${i + 1}` }));
    });
    const left = g.rolls_left;
    const leftText = left === 0 ? t("rolls_left_0") : left === 1 ? t("rolls_left_1") : t("rolls_left", { n: left });
    const dots = Array.from({ length: Math.max(0, g.max_rolls - 1) }, (_, i) =>
      h("span", { class: i < left ? "dot on" : "dot" }));
    return h("div", { class: "play-panel" },
      h("div", { class: "dice", role: "group", "aria-label": t("roll_hint") }, dice),
      h("div", { class: "roll-row" },
        h("button", {
          type: "button", class: "btn primary roll", "data-key": "roll", "data-testid": "roll",
          disabled: !this.canRoll, onclick: () => this.roll(),
        }, t("roll")),
        h("span", { class: "rolls-left", "data-testid": "rolls-left", "data-left": left },
          h("span", { class: "dots", "aria-hidden": "true" }, dots), leftText)),
      left === 0
        ? h("p", { class: "hint rolls-out", "data-testid": "rolls-out", role: "status", text: t("rolls_out") })
        : left > 0 && this.holds.length && this.holds.every(Boolean)
        ? h("p", { class: "hint muted", text: t("all_kept") })
        : h("p", { class: "hint muted", "data-testid": "roll-hint" },
          h("span", { class: "long", text: t("roll_hint") }),
          left > 0 ? h("span", { class: "tap", text: t("tap_hint") }) : null),
      h("p", { class: "hint muted keys", text: t("keys_hint", { n: (g.dice || []).length }) }),
      g.ruleset === "generala" && g.roll === 1 && !g.over
        ? h("p", { class: "hint served", "data-testid": "served", text: t("served_hint") }) : null,
      g.mode === "practice" && !g.local ? this.advicePanel() : null,
      this.pastTurns());
  }

  // Practice games only: the strategy engine's advice (POST /games/{id}/hint).
  advicePanel() {
    const g = this.game;
    const current = this.advice && this.advice.turn === g.turn && this.advice.roll === g.roll
      ? this.advice : null;
    const body = [];
    if (current && current.pending) {
      body.push(h("p", { class: "advice-pending", role: "status", "data-testid": "hint-pending" },
        h("span", { class: "spinner", "aria-hidden": "true" }), t("hint_pending")));
    }
    if (current && current.error) body.push(h("p", { class: "muted", "data-testid": "hint-error", text: current.error }));
    if (current && current.hint) {
      const best = current.hint.best;
      body.push(h("p", { class: "advice-best", "data-testid": "advice" },
        h("strong", { text: adviceText(best) }),
        ` · ${t("expected", { value: fmtNumber(best.value, 1) })}`));
      // No "(heuristic)" label: where the values are a lookahead player's (Triple
      // Yahtzee), one plain sentence says so under the advice.
      if (current.hint.heuristic) body.push(h("p", { class: "muted", "data-testid": "heuristic", text: t("heuristic_note") }));
      if (best.kind === "keep" && best.hold) {
        body.push(h("button", {
          type: "button", class: "btn small", text: t("apply_hint"),
          onclick: () => {
            this.holds = [...best.hold].map((c) => c === "1");
            saveHolds(g.id, g.turn, g.roll, this.holds);
            this.render();
          },
        }));
      }
      const others = current.hint.alternatives || [];
      if (others.length) {
        body.push(h("ul", { class: "advice-others" }, others.map((a) =>
          h("li", {}, `${adviceText(a)} (−${fmtNumber(a.loss, 1)})`))));
      }
    }
    return h("section", { class: "advice", "aria-label": t("hint") },
      h("button", {
        type: "button", class: "btn small ghost", "data-testid": "hint", text: t("hint"),
        disabled: this.busy || Boolean(current && current.pending), "aria-busy": current && current.pending ? "true" : null,
        onclick: () => this.askAdvice(),
      }), body);
  }

  async askAdvice() {
    const g = this.game;
    const at = { turn: g.turn, roll: g.roll };
    this.advice = { ...at, pending: true };
    this.render();
    try {
      const hint = await api.hint(g.id);
      this.advice = { ...at, hint };
    } catch (err) {
      this.advice = { ...at, error: await hintRefusal(err, g.ruleset) };
    }
    this.render();
  }

  // The turns played so far, latest first (wide screens only: phones show the card).
  pastTurns() {
    const turns = (this.game.history || []).slice(-6).reverse();
    if (!turns.length) return null;
    return h("section", { class: "past-turns", "aria-label": t("history") },
      h("h2", { text: t("history") }),
      h("ol", { class: "turns" }, turns.map((turn) => h("li", { class: "turn" },
        h("div", { class: "turn-head" },
          h("span", {}, t("turn_n", { n: turn.turn })),
          h("span", {}, `${boxName(turn.box)}: `, h("strong", { text: turn.points }),
            turn.bonus ? ` (+${turn.bonus})` : "")),
        miniDice(turn.rolls[turn.rolls.length - 1])))));
  }

  // A ranked game asks to confirm the box chosen (select, then Confirm) unless the
  // player turned that off on Profile; a 0 always asks, in the dialog.
  get confirming() {
    const g = this.game;
    return Boolean(g && g.mode === "ranked" && !g.local && confirmBoxes());
  }

  cardPanel() {
    const card = renderCard(this.game, { interactive: true });
    const buttons = [...card.querySelectorAll("button.box-btn:not([disabled])")];
    if (buttons.length) buttons[0].tabIndex = 0;
    for (const button of buttons) {
      button.disabled = this.busy;
      if (this.selected === button.dataset.box) {
        button.classList.add("selected");
        button.setAttribute("aria-pressed", "true");
      }
      button.addEventListener("click", () => this.choose(button.dataset.box, Number(button.dataset.points)));
      button.addEventListener("keydown", (event) => this.arrow(event, buttons));
    }
    if (this.selected && buttons.some((b) => b.dataset.box === this.selected)) {
      const box = this.selected;
      const points = Number(buttons.find((b) => b.dataset.box === box).dataset.points);
      card.prepend(h("div", { class: "confirm-bar", "data-testid": "confirm-bar", role: "group", "aria-label": t("confirm_box", { points, box: boxName(box) }) },
        h("span", { class: "confirm-text", text: t("confirm_box", { points, box: boxName(box) }) }),
        h("button", {
          type: "button", class: "btn primary small", "data-testid": "box-confirm", "data-key": "box-confirm",
          disabled: this.busy, text: t("confirm_box_yes"), onclick: () => this.score(box, points),
        }),
        h("button", {
          type: "button", class: "btn small ghost", "data-testid": "box-cancel", "data-key": "box-cancel",
          disabled: this.busy, text: t("confirm_box_no"),
          onclick: () => { this.selected = null; this.render(); this.root.querySelector(`button[data-box="${box}"]`)?.focus(); },
        })));
    }
    return card;
  }

  arrow(event, buttons) {
    const index = buttons.indexOf(event.currentTarget);
    let next = null;
    if (event.key === "ArrowDown" || event.key === "ArrowRight") next = buttons[(index + 1) % buttons.length];
    if (event.key === "ArrowUp" || event.key === "ArrowLeft") next = buttons[(index - 1 + buttons.length) % buttons.length];
    if (event.key === "Home") next = buttons[0];
    if (event.key === "End") next = buttons[buttons.length - 1];
    if (next) {
      event.preventDefault();
      event.stopPropagation();
      for (const b of buttons) b.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  }

  handlesKeys(event) {
    if (!this.game || this.game.over || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (document.querySelector("dialog[open]")) return false;
    const tag = event.target && event.target.tagName;
    return !(tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT");
  }

  key(event) {
    if (!this.handlesKeys(event)) return;
    const n = (this.game.dice || []).length;
    if (/^[1-6]$/.test(event.key) && Number(event.key) <= n) {
      event.preventDefault();
      this.toggle(Number(event.key) - 1);
    } else if (event.key === " " || event.key === "r" || event.key === "R") {
      event.preventDefault();
      this.roll();
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !event.target.closest?.(".card")) {
      const buttons = [...this.root.querySelectorAll(".card button.box-btn:not([disabled])")];
      if (buttons.length) {
        event.preventDefault();
        const target = event.key === "ArrowDown" ? buttons[0] : buttons[buttons.length - 1];
        for (const b of buttons) b.tabIndex = -1;
        target.tabIndex = 0;
        target.focus();
      }
    }
  }

  toggle(index) {
    const g = this.game;
    if (this.busy || g.over || g.rolls_left <= 0 || index >= this.holds.length) return;
    this.holds[index] = !this.holds[index];
    saveHolds(g.id, g.turn, g.roll, this.holds);
    const face = g.dice[index];
    announce(`${t("die_label", { i: index + 1, face })}, ${this.holds[index] ? t("die_kept") : t("die_free")}`);
    this.render();
  }

  async roll() {
    if (!this.canRoll) return;
    const hold = this.holds.map((k) => (k ? "1" : "0")).join("");
    const { id, position } = this.game;
    await this.commit(() => this.moves.roll(id, hold, position), (next) => {
      const left = next.rolls_left;
      const leftText = left === 0 ? t("rolls_left_0") : left === 1 ? t("rolls_left_1") : t("rolls_left", { n: left });
      announce(`${t("rolled", { dice: next.dice.join(" ") })} ${leftText}`);
    });
  }

  async choose(box, points) {
    if (this.busy || this.game.over) return;
    if (points !== 0 && this.confirming && this.selected !== box) {
      this.selected = box;
      this.render();
      this.root.querySelector("[data-testid=box-confirm]")?.focus();
      return;
    }
    await this.score(box, points);
  }

  async score(box, points) {
    if (this.busy || this.game.over) return;
    this.selected = null;
    if (points === 0) {
      const ok = await confirmDialog(t("scratch_q", { box: boxName(box) }), t("scratch_yes"));
      if (!ok) {
        this.root.querySelector(`button[data-box="${box}"]`)?.focus();
        return;
      }
    }
    const { id, position } = this.game;
    await this.commit(() => this.moves.score(id, box, position), () => {
      announce(t("scored", { box: boxName(box), points }));
    });
  }

  // Send one move. It names the position it was decided at, so when its answer is
  // lost the very same request can simply be sent again: the server applies it at most
  // once and answers the same state, or says where the game stands now. While a move
  // is in doubt, the next action sends that move again instead (the player then sees
  // where the game really is before deciding anything else).
  async commit(send, after) {
    if (this.unsettled) ({ send, after } = this.unsettled);
    this.unsettled = null;
    this.busy = true;
    this.render();
    try {
      const next = await send();
      hideBanner();
      this.busy = false;
      this.apply(next);
      after(next);
    } catch (err) {
      this.busy = false;
      this.render();
      this.failed(err, send, after);
    }
  }

  failed(err, send, after) {
    if (err.status === 0 || err.status >= 500 || err.status === 429) {
      this.unsettled = { send, after };
      const retry = async () => {
        if (this.busy || !this.unsettled) return;
        await this.commit(send, after);
      };
      showBanner(errorText(err), "error", [{ label: t("retry"), run: retry }]);
      const wait = err.status === 429 ? (err.retryAfter || 30) * 1000 : null;
      if (wait) setTimeout(retry, wait);
      return;
    }
    if (err.code === "day_not_open") {
      showBanner(errorText(err), "warn", [
        { label: t("nav_practice"), run: () => { location.hash = "#/practice"; } },
      ]);
      return;
    }
    // The server refused the move (state moved on elsewhere, e.g. another tab): show
    // its message and the game as the server has it (a stale position comes with it).
    showBanner(errorText(err), "error");
    if (err.code === "stale_position" && err.state) {
      this.apply(err.state, { restoreHolds: true });
      return;
    }
    this.moves.get(this.game.id).then((fresh) => this.apply(fresh)).catch(() => {});
  }

  // Back online: send a move in doubt again (safe: it names its position).
  online() {
    if (this.unsettled && !this.busy) this.commit(this.unsettled.send, this.unsettled.after);
  }
}


function open(id) {
  const target = `/#/play/${id}`;
  if (location.pathname !== "/") location.href = target;
  else location.hash = `#/play/${id}`;
}

// Practice on random dice with no server: the rules generated from the core, in this
// browser. Used when the page is offline.
export async function startOffline(ruleset) {
  try {
    open(await startLocal(ruleset));
    toast(t("offline_started"));
  } catch (err) {
    showBanner(t("offline_unavailable"), "error");
  }
}

// Start (or resume) a game and open it; used by the home, practice and result pages.
// Practice on random dice goes on offline, in the browser, when the server is out of reach.
export async function startAndOpen(body) {
  const offlinePractice = body.mode === "practice" && !body.date && !body.challenge && !body.options;
  if (offlinePractice && navigator.onLine === false) {
    await startOffline(body.ruleset);
    return;
  }
  try {
    await api.ensurePlayer();
    const game = await api.startGame(body);
    rememberGame(game);
    open(game.id);
  } catch (err) {
    if (offlinePractice && err.status === 0) {
      await startOffline(body.ruleset);
      return;
    }
    const actions = err.code === "unauthorized"
      ? [{ label: t("new_player"), run: () => { forgetToken(); startAndOpen(body); } }] : [];
    showBanner(errorText(err), err.code === "already_ranked" ? "warn" : "error", actions);
  }
}
