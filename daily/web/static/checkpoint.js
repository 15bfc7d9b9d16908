// The day's C2SP checkpoint (GET /days/{date}/{ruleset}/checkpoint), checked here as
// `daily verify-day --checkpoint --witness` checks it (docs/protocol.md, "Checkpoints,
// witnesses and tiles"): the results key's note signature, the head it must be, the
// cosignature of every witness the page was configured with (GET /keys, "witnesses"),
// and, against the last checkpoint this browser saw of the day set (localStorage), the
// same root at the same size or an RFC 6962 consistency proof to the larger one.
// "ok" | "unsigned" (no Ed25519 here) | "fork" | "unwitnessed" | "bad".
import { API } from "./api.js";

const encoder = new TextEncoder();
const STORE = "dd.checkpoint.";

const b64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const hexOf = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));

function joined(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

const sha256 = async (data) => new Uint8Array(await crypto.subtle.digest("SHA-256", data));
const node = (l, r) => sha256(joined(Uint8Array.of(1), l, r));

// The 4-byte key ID of a note key: SHA-256(name || 0x0A || type || key)[:4].
async function keyId(name, type, key) {
  return hexOf((await sha256(joined(encoder.encode(`${name}\n`), Uint8Array.of(type), key))).slice(0, 4));
}

// A signed note: its text and its signature lines {name, id (hex), data}.
export function parseNote(raw) {
  const split = raw.lastIndexOf("\n\n");
  if (split < 0 || !raw.endsWith("\n")) return null;
  const text = raw.slice(0, split + 1);
  const sigs = [];
  for (const line of raw.slice(split + 2, -1).split("\n")) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) return null;
    const all = b64(m[2]);
    if (all.length < 5) return null;
    sigs.push({ name: m[1], id: hexOf(all.slice(0, 4)), data: all.slice(4) });
  }
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3 || !/^(0|[1-9][0-9]*)$/.test(lines[1])) return null;
  return { text, sigs, origin: lines[0], size: Number(lines[1]), root: hexOf(b64(lines[2])) };
}

// A vkey "<name>+<hex id>+<base64(type || key)>".
function parseVkey(vkey) {
  const [name, id, rest] = [vkey.split("+")[0], vkey.split("+")[1], vkey.split("+").slice(2).join("+")];
  const raw = b64(rest || "");
  return raw.length === 33 ? { name, id, type: raw[0], key: raw.slice(1) } : null;
}

async function verify(key, signature, message) {
  let imported;
  try {
    imported = await crypto.subtle.importKey("raw", key, { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return null;
  }
  return crypto.subtle.verify({ name: "Ed25519" }, imported, signature, message);
}

// RFC 9162 2.1.4.2.
export async function consistent(oldSize, newSize, oldRoot, newRoot, path) {
  if (oldSize === newSize) return path.length === 0 && oldRoot === newRoot;
  if (oldSize === 0 || oldSize > newSize) return oldSize === 0;
  const nodes = path.map(fromHex);
  if ((oldSize & (oldSize - 1)) === 0) nodes.unshift(fromHex(oldRoot));
  if (!nodes.length) return false;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
  let fr = nodes[0];
  let sr = nodes[0];
  for (const c of nodes.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = await node(c, fr);
      sr = await node(c, sr);
      while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      sr = await node(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && hexOf(fr) === oldRoot && hexOf(sr) === newRoot;
}

async function fetchText(path) {
  const response = await fetch(API + path, { cache: "no-store" });
  return response.ok ? response.text() : null;
}

// Check the checkpoint of `head`; keys and witnesses from GET /keys.
export async function checkCheckpoint(head, keys, witnesses) {
  const base = `/days/${head.date}/${encodeURIComponent(head.ruleset)}`;
  const raw = await fetchText(`${base}/checkpoint?size=${head.size}`);
  // A head signed before checkpoints existed has none: without witnesses to require,
  // the proof's own checks stand.
  if (raw === null) return witnesses.length ? "unwitnessed" : "ok";
  const note = parseNote(raw);
  if (!note) return "bad";
  const tail = `/${head.date}/${head.ruleset}`;
  if (!note.origin.endsWith(tail) || note.size !== head.size || note.root !== head.root) return "fork";
  const name = note.origin.slice(0, -tail.length);
  const text = encoder.encode(note.text);
  let signed = false;
  for (const entry of keys.filter((k) => k.purpose === "results")) {
    const key = fromHex(entry.public_key);
    const id = await keyId(name, 1, key);
    for (const sig of note.sigs.filter((s) => s.name === name && s.id === id)) {
      const ok = await verify(key, sig.data, text);
      if (ok === null) return "unsigned";
      if (!ok) return "bad";
      signed = true;
    }
  }
  if (!signed) return "bad";
  for (const vkey of witnesses) {
    const w = parseVkey(vkey);
    const sig = w && note.sigs.find((s) => s.name === w.name && s.id === w.id);
    if (!sig || sig.data.length !== 72) return "unwitnessed";
    const time = new DataView(sig.data.buffer, sig.data.byteOffset, 8).getBigUint64(0);
    const message = joined(encoder.encode(`cosignature/v1\ntime ${time}\n`), text);
    if (!(await verify(w.key, sig.data.slice(8), message))) return "unwitnessed";
  }
  return remember(base, head, note);
}

// Compare with the last checkpoint seen of this day set, and keep the larger.
async function remember(base, head, note) {
  const slot = `${STORE}${head.date}.${head.ruleset}`;
  let seen = null;
  try { seen = JSON.parse(localStorage.getItem(slot) || "null"); } catch { seen = null; }
  if (seen && typeof seen.size === "number" && typeof seen.root === "string") {
    const [older, newer] = seen.size <= note.size ? [seen, note] : [note, seen];
    let ok = older.size === newer.size ? older.root === newer.root : false;
    if (older.size !== newer.size) {
      const answer = await fetchText(`${base}/consistency?from=${older.size}&to=${newer.size}`);
      let path = null;
      try { path = answer && JSON.parse(answer).path; } catch { path = null; }
      ok = Array.isArray(path) && await consistent(older.size, newer.size, older.root, newer.root, path);
    }
    if (!ok) return "fork";
    if (seen.size > note.size) return "ok";
  }
  try { localStorage.setItem(slot, JSON.stringify({ size: note.size, root: note.root })); } catch { /* full */ }
  return "ok";
}
