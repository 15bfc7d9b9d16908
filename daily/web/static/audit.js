// "In the day's signed log": a ranked result's proof (GET /results/{code}/proof), checked
// here as `daily verify-day --proof` checks it (docs/protocol.md, "Results log"): the
// RFC 6962 path from the game's leaf to the head's root (SHA-256), the head's Ed25519
// signature and the receipt's, by the day's results key: the one its day/2 descriptor
// names (remembered from the finish, while the day was open), else the results key of
// GET /keys. Ed25519 needs a browser whose WebCrypto has it; without it the path is
// still checked and the page says the signatures were not.
//
// The leaf hashed is the canonical JSON of the leaf as parsed, so a path that leads to
// the root proves the log's line is exactly that canonical text (a line with a key
// twice, spaces or other escapes hashes to something else).
//
// Receipts count: the receipt of a finish is kept in localStorage (the first one seen
// for a code, never replaced by a later answer), with the day's results key; after the
// close the leaf in the log must be that receipt's result, or the page says the log
// leaves it out.
import * as api from "./api.js";
import { checkCheckpoint } from "./checkpoint.js";
import { fmtDateTime, t } from "./i18n.js";
import { h } from "./ui.js";

const encoder = new TextEncoder();
const KEY_RECEIPTS = "dd.receipts";
const RECEIPTS_KEPT = 60;

function receipts() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY_RECEIPTS) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

// Keep the receipt of a ranked result the first time it is seen (the finish), with the
// results key the day's descriptor names then.
export async function rememberReceipt(result) {
  if (!result || !result.code || !result.receipt) return;
  const kept = receipts();
  if (kept[result.code]) return;
  let day = null;
  if (result.date && result.ruleset) {
    try {
      const descriptor = await api.getDay(result.date, result.ruleset);
      day = descriptor && descriptor.results_key ? descriptor.results_key : null;
    } catch { /* the day's key is then taken from its descriptor after the close */ }
  }
  const again = receipts();
  if (again[result.code]) return;
  again[result.code] = { receipt: result.receipt, accepted: result.accepted || null, results_key: day, at: Date.now() };
  const codes = Object.keys(again).sort((a, b) => (again[b].at || 0) - (again[a].at || 0));
  for (const old of codes.slice(RECEIPTS_KEPT)) delete again[old];
  try { localStorage.setItem(KEY_RECEIPTS, JSON.stringify(again)); } catch { /* full or private */ }
}

export const keptReceipt = (code) => receipts()[code] || null;

// The canonical JSON of the log: keys sorted, no spaces; JSON.stringify escapes strings
// as the server's json.dumps(ensure_ascii=False) does. Only integers, as the log holds.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const bytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
const hexOf = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

function joined(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

async function sha256(data) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

// RFC 9162 2.1.3.2: from the leaf's hash along the audit path to the root.
export async function pathLeadsToRoot(leafBytes, index, size, path, rootHex) {
  if (!(index >= 0 && index < size)) return false;
  let fn = index;
  let sn = size - 1;
  let r = await sha256(joined(Uint8Array.of(0), leafBytes));
  for (const node of path) {
    if (sn === 0) return false;
    const p = bytes(node);
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(joined(Uint8Array.of(1), p, r));
      while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      r = await sha256(joined(Uint8Array.of(1), r, p));
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && hexOf(r) === rootHex;
}

// Ed25519 by WebCrypto; null when this browser has no Ed25519.
async function ed25519(publicHex, signatureHex, message) {
  let key;
  try {
    key = await crypto.subtle.importKey("raw", bytes(publicHex), { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return null;
  }
  return crypto.subtle.verify({ name: "Ed25519" }, key, bytes(signatureHex), message);
}

// "ok" | "unsigned" (path checked, no Ed25519 here) | "bad" | "missing" (the receipt
// kept from the finish is not the log's leaf). `dayKey` is the {id, public_key} the
// day's descriptor names: then only that key may sign the head and the receipt.
export async function checkProof(proof, keys, { held = null, dayKey = null } = {}) {
  const { leaf, head } = proof;
  if (!leaf || !head || leaf.kind !== "result") return "bad";
  const leafBytes = encoder.encode(canonical(leaf));
  if (!(await pathLeadsToRoot(leafBytes, proof.index, head.size, proof.audit_path, head.root))) return "bad";
  if (held && (held.receipt !== leaf.receipt
      || (held.accepted && canonical(held.accepted) !== canonical(leaf.accepted)))) return "missing";
  const key = dayKey
    ? (id) => (id === dayKey.id ? { id, public_key: dayKey.public_key } : undefined)
    : (id) => keys.find((k) => k.id === id && k.purpose === "results");
  const [receiptKey, signature] = String(leaf.receipt).split(":");
  if (!key(head.key_id) || !key(receiptKey)) return "bad";
  const { signature: headSignature, ...signed } = head;
  const headOk = await ed25519(key(head.key_id).public_key, headSignature,
    encoder.encode(`daily-head/v1\n${canonical(signed)}`));
  const digest = hexOf(await sha256(encoder.encode(`daily-accepted/v1\n${canonical(leaf.accepted)}`)));
  const receiptOk = await ed25519(key(receiptKey).public_key, signature,
    encoder.encode(`daily-receipt/v1\n${receiptKey}\n${digest}`));
  if (headOk === null || receiptOk === null) return "unsigned";
  return headOk && receiptOk ? "ok" : "bad";
}

// The block of a ranked result: filled once the proof is fetched and checked.
export function auditBlock(result) {
  if (!result || !result.code || result.mode !== "ranked") return null;
  const box = h("p", { class: "audit muted", "data-testid": "audit", hidden: true });
  const show = (state, text) => {
    box.dataset.state = state;
    const warn = state === "bad" || state === "missing" || state === "fork" || state === "unwitnessed";
    box.className = `audit ${warn ? "warn-note" : state === "ok" ? "" : "muted"}`;
    box.textContent = text;
    box.hidden = false;
  };
  const remembered = rememberReceipt(result);
  (async () => {
    let proof;
    try {
      await remembered;
      proof = await api.getProof(result.code);
    } catch (err) {
      if (err.code === "log_not_sealed" && err.detail && err.detail.available_at) {
        show("pending", t("log_closes", { time: fmtDateTime(err.detail.available_at) }));
      }
      return;
    }
    if (!globalThis.crypto || !crypto.subtle) { show("unavailable", t("log_no_crypto")); return; }
    try {
      const { keys, witnesses } = await api.getKeys();
      const held = keptReceipt(result.code);
      let dayKey = held && held.results_key;
      if (!dayKey) {
        const descriptor = await api.getDay(proof.head.date, proof.head.ruleset).catch(() => null);
        dayKey = descriptor && descriptor.results_key ? descriptor.results_key : null;
      }
      let state = await checkProof(proof, keys || [], { held, dayKey });
      if (state === "ok") {
        // The head must be the day's checkpoint, signed by the day's results key,
        // cosigned by the page's witnesses and consistent with the last one this
        // browser saw.
        const signers = dayKey ? [{ ...dayKey, purpose: "results" }] : keys || [];
        const seen = await checkCheckpoint(proof.head, signers, witnesses || []);
        state = seen === "unsigned" ? "unsigned" : seen;
      }
      const where = { index: proof.index + 1, size: proof.head.size, count: (witnesses || []).length };
      show(state, state === "ok" ? t("log_in", where)
        : state === "unsigned" ? t("log_in_unsigned", where)
          : state === "missing" ? t("log_receipt_missing", { code: result.code })
            : state === "fork" ? t("log_fork", where)
              : state === "unwitnessed" ? t("log_unwitnessed", where) : t("log_bad"));
    } catch {
      show("unavailable", t("log_no_crypto"));
    }
  })();
  return box;
}
