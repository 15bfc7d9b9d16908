// Small DOM helpers shared by every view: element builder, banner, toast, confirm,
// clipboard, dice faces and the histogram chart.
import { errorMessage, fmtNumber, ordinal, reasonText, t } from "./i18n.js";

// Whether this browser can use passkeys (WebAuthn).
export const passkeysSupported = () =>
  typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

// A block whose module loads when it is first shown, not with the first page (the audit,
// passkeys): a hidden placeholder now, replaced by what make(module) returns.
export function later(load, make) {
  const slot = h("span", { hidden: true });
  load().then((module) => {
    const block = make(module);
    if (block) slot.replaceWith(block); else slot.remove();
  }).catch(() => slot.remove());
  return slot;
}

export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

export function announce(text) {
  const live = document.getElementById("live");
  live.textContent = "";
  // A fresh text node after a tick makes screen readers repeat identical messages.
  setTimeout(() => { live.textContent = text; }, 30);
}

let toastTimer = null;
export function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 3500);
}

// A persistent message at the top with optional actions: [{label, run}].
export function showBanner(text, kind = "error", actions = []) {
  const banner = document.getElementById("banner");
  banner.replaceChildren(
    h("p", { text }),
    h("div", { class: "row" },
      actions.map((action) => h("button", {
        type: "button", class: "btn small", text: action.label,
        onclick: () => { hideBanner(); action.run(); },
      })),
      h("button", { type: "button", class: "btn small ghost", text: t("dismiss"), onclick: hideBanner }),
    ),
  );
  banner.className = `banner ${kind}`;
  banner.hidden = false;
}

export function hideBanner() {
  const banner = document.getElementById("banner");
  banner.hidden = true;
  banner.replaceChildren();
}

// The fields whose generic 422 means a typed value not in its form, by field.
const FIELD_CODES = { name: "bad_name", challenge: "bad_challenge_code" };

// The player's message for an ApiError (or anything thrown): what happened and what to
// do, in their language, by the error's code (never the API's English message).
export function errorText(err) {
  if (!err) return "";
  if (err.status === 0) return t("err_network");
  let code = err.code;
  const detail = err.detail || {};
  if (code === "illegal_move" && detail.why) {
    const why = reasonText(detail.why);
    if (why) return errorMessage("illegal_move_why", { why });
  }
  if (code === "invalid_field" && FIELD_CODES[detail.field]) code = FIELD_CODES[detail.field];
  const vars = {
    s: err.retryAfter || 30,
    min: Math.max(1, Math.ceil((err.retryAfter || 60) / 60)),
  };
  const known = code ? errorMessage(code, vars) : null;
  if (known) return known;
  if (err.status === 429) return errorMessage("rate_limited", vars);
  if (err.status === 503) return errorMessage("unavailable", vars);
  if (err.status >= 500) return errorMessage("internal", vars);
  return errorMessage("error", vars);
}

export function confirmDialog(text, yes) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-yes").textContent = yes;
  document.getElementById("confirm-no").textContent = t("cancel");
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.showModal();
    document.getElementById("confirm-no").focus();
  });
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No async clipboard (plain http, or permission refused): the older copy command.
    const area = h("textarea", { readonly: true, class: "sr-only" }, text);
    document.body.append(area);
    area.select();
    let done = false;
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
    area.remove();
    return done;
  }
}

const PIPS = {
  1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
};

// The face of a die as nine cells with pips; the number is also in the accessible name.
export function dieFace(face, extraClass = "") {
  const on = new Set(PIPS[face] || []);
  const cells = [];
  for (let i = 0; i < 9; i += 1) cells.push(h("span", { class: on.has(i) ? "pip on" : "pip" }));
  return h("span", { class: `face ${extraClass}`.trim(), "data-face": face, "aria-hidden": "true" }, cells);
}

export function miniDice(dice, holds) {
  return h("span", { class: "mini-dice", role: "img", "aria-label": dice.join(" ") },
    dice.map((face, i) => dieFace(face, holds && holds[i] === "1" ? "mini kept" : "mini")));
}

// A histogram as an SVG bar chart; the player's bin is filled, striped and labelled.
export function histogram(hist, score, players) {
  const bins = (hist && hist.bins) || [];
  if (!bins.length) return null;
  const width = 320;
  const height = 130;
  const top = 30;
  const max = Math.max(...bins.map((b) => b.count), 1);
  const slot = width / bins.length;
  const barW = Math.min(slot - 2, 40);
  const mine = bins.findIndex((b) => score !== null && score !== undefined && score >= b.from && score <= b.to);
  const bars = bins.map((bin, i) => {
    const barH = Math.max(1, Math.round((bin.count / max) * (height - top - 14)));
    return svg("rect", {
      x: (i * slot + (slot - barW) / 2).toFixed(1), y: height - 14 - barH, width: Math.max(1, barW).toFixed(1),
      height: barH, class: i === mine ? "bar mine" : "bar",
    }, svg("title", {}, `${bin.from}–${bin.to}: ${bin.count}`));
  });
  const marks = [];
  if (mine >= 0) {
    const x = mine * slot + slot / 2;
    marks.push(
      svg("path", { d: `M${x - 5} ${top - 10} L${x + 5} ${top - 10} L${x} ${top - 2} Z`, class: "marker" }),
      svg("text", { x: Math.min(Math.max(x, 34), width - 34), y: 12, "text-anchor": "middle", class: "marker-label" },
        t("your_score", { score })),
    );
  }
  const first = bins[0].from;
  const last = bins[bins.length - 1].to;
  return h("figure", { class: "chart" },
    svg("svg", {
      viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": t("chart_label", { players: fmtNumber(players ?? bins.reduce((s, b) => s + b.count, 0)), score: score ?? "–" }),
    },
    bars, marks,
    svg("text", { x: 0, y: height - 2, class: "axis" }, first),
    svg("text", { x: width, y: height - 2, class: "axis", "text-anchor": "end" }, last)),
    h("figcaption", { text: t("distribution") }));
}

export function countdownText(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hh = String(Math.floor(total / 3600)).padStart(2, "0");
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
  const ss = String(total % 60).padStart(2, "0");
  return `${hh}:${mm}:${ss}`;
}

export function localDate(now = new Date()) {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

export function shiftDate(iso, days) {
  const [y, m, d] = iso.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d + days));
  return date.toISOString().slice(0, 10);
}

// A link to send to friends: the link itself, Copy link and, where the browser has the
// Web Share API, Share (the system's share sheet).
export function inviteBox(url, { title = "", text = "", testid = "invite" } = {}) {
  const field = h("input", {
    type: "text", readonly: true, value: url, class: "invite-link", "data-testid": `${testid}-url`,
    "aria-label": t("invite_link"), onfocus: (event) => event.target.select(),
  });
  return h("div", { class: "invite", "data-testid": testid },
    field,
    h("div", { class: "row wrap" },
      h("button", {
        type: "button", class: "btn small primary", "data-testid": `${testid}-copy`, text: t("copy_link"),
        onclick: async () => {
          if (await copyText(url)) toast(t("link_copied"));
          else { field.focus(); field.select(); toast(t("copy_failed")); }
        },
      }),
      navigator.share ? h("button", {
        type: "button", class: "btn small", "data-testid": `${testid}-share`, text: t("share"),
        onclick: () => navigator.share({ title, text, url }).catch(() => {}),
      }) : null));
}

// A standing in words: "Rank 3 of 120 · better than 97% of today's players", with "top
// 3%" where it says more (daily/standings.py defines the figures; the API sends them).
// A rank shared with others (`tied`) reads as a tie: "Tied 1st of 5 (with 3 others) ·
// nobody scored more", never a bare "better than 20%" that sounds like a loss.
export function standingText(s, players, { today = true } = {}) {
  if (!s || !s.rank) return "";
  const others = (s.tied || 1) - 1;
  const nth = ordinal(s.rank);
  const parts = [];
  if (others > 0) {
    const text = players ? t("rank_tied", { nth, players: fmtNumber(players), n: fmtNumber(others), count: others })
      : t("rank_tied_only", { nth });
    parts.push(text.charAt(0).toUpperCase() + text.slice(1));  // "Primo a pari merito"
  } else {
    parts.push(players ? t("rank_line", { rank: fmtNumber(s.rank), players: fmtNumber(players) })
      : t("rank_only", { rank: fmtNumber(s.rank) }));
  }
  if (players > 1 && typeof s.better_than === "number") {
    if (s.rank === 1 && others > 0) parts.push(t("nobody_more"));
    else {
      if (typeof s.top === "number" && s.top <= 10 && s.better_than > 0) {
        parts.push(t("top_share", { p: fmtNumber(s.top, 1) }));
      }
      if (s.better_than > 0) parts.push(t(today ? "better_today" : "better_day", { p: fmtNumber(s.better_than, 1) }));
    }
  }
  return parts.join(" · ");
}

// Names as shown on a board or in a group: where two players share a name, each gets a
// short tag from the public part of their player id ("Ada #3f2"; never the token).
// `entries` are [id, name]; the answer maps each id to the name to show.
export function distinctNames(entries, show = (name) => name) {
  const counts = new Map();
  for (const [, name] of entries) counts.set(show(name), (counts.get(show(name)) || 0) + 1);
  return new Map(entries.map(([id, name]) => {
    const shown = show(name);
    const tag = id ? String(id).replace(/^p_/, "").slice(0, 3) : "";
    return [id, counts.get(shown) > 1 && tag ? `${shown} #${tag}` : shown];
  }));
}

// Under a name field: its maximum length and how much of it is used, kept current.
export function lengthNote(input) {
  const max = Number(input.getAttribute("maxlength")) || 24;
  const note = h("small", { class: "muted length-note", "data-testid": "name-length" });
  const update = () => { note.textContent = t("name_max", { n: max, used: [...input.value].length }); };
  input.addEventListener("input", update);
  update();
  return note;
}
