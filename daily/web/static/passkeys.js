// Passkeys (WebAuthn): add one to this player, sign in with one on any device (each
// sign-in is a token of its own: the player's other browsers stay signed in). The
// server's options come as JSON with base64url binary values (/api/v1/passkeys/...);
// the browser's answer goes back in the same form. The token QR code stays a fallback.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { getToken, replaceToken, setToken } from "./store.js";
import { confirmDialog, errorText, h, passkeysSupported, toast } from "./ui.js";

const TRANSPORTS = new Set(["usb", "nfc", "ble", "smart-card", "hybrid", "internal", "cable"]);

function fromB64u(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
}

function toB64u(buffer) {
  let bin = "";
  for (const byte of new Uint8Array(buffer)) bin += String.fromCharCode(byte);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: fromB64u(c.id) }));

// The credential as the API takes it (PublicKeyCredential.toJSON(), built by hand:
// not every browser has toJSON yet).
function credentialJson(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64u(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64u(r.attestationObject);
    const transports = typeof r.getTransports === "function" ? r.getTransports() : [];
    response.transports = transports.filter((x) => TRANSPORTS.has(x));
  } else {
    response.authenticatorData = toB64u(r.authenticatorData);
    response.signature = toB64u(r.signature);
    if (r.userHandle && r.userHandle.byteLength) response.userHandle = toB64u(r.userHandle);
  }
  const out = { id: cred.id, rawId: toB64u(cred.rawId), type: cred.type, response };
  if (cred.authenticatorAttachment === "platform" || cred.authenticatorAttachment === "cross-platform") {
    out.authenticatorAttachment = cred.authenticatorAttachment;
  }
  return out;
}

// A new passkey for the player of this browser.
export async function addPasskey() {
  const offered = await api("POST", "/passkeys/register/options", {});
  const pk = offered.publicKey;
  const cred = await navigator.credentials.create({ publicKey: {
    ...pk, challenge: fromB64u(pk.challenge), user: { ...pk.user, id: fromB64u(pk.user.id) },
    excludeCredentials: descriptors(pk.excludeCredentials),
  } });
  return api("POST", "/passkeys/register", { ticket: offered.ticket, credential: credentialJson(cred) });
}

// Sign in with a passkey this device offers; this browser keeps the player's new token
// (a player it had before stays among the previous ones).
export async function signInWithPasskey() {
  const offered = await api("POST", "/passkeys/login/options", {}, { token: null });
  const pk = offered.publicKey;
  const cred = await navigator.credentials.get({ publicKey: {
    ...pk, challenge: fromB64u(pk.challenge), allowCredentials: descriptors(pk.allowCredentials),
  } });
  const signed = await api("POST", "/passkeys/login", { ticket: offered.ticket, credential: credentialJson(cred) },
    { token: null });
  const current = getToken();
  if (current && current.split(".")[0] === signed.player.id) setToken(signed.token);
  else replaceToken(signed.token);
  return signed.player;
}

// What went wrong, in the player's words: a cancelled prompt is no error of the API.
export function failureText(err) {
  if (err && (err.name === "NotAllowedError" || err.name === "AbortError")) return t("passkey_cancelled");
  if (err && err.name === "InvalidStateError") return t("passkey_already");
  if (err && typeof err.status === "number") return errorText(err);
  return t("passkey_unsupported");
}

const reload = () => window.dispatchEvent(new HashChangeEvent("hashchange"));

// The profile's passkeys: the list, delete, and "Add a passkey".
export async function passkeySection() {
  const note = h("p", { class: "muted", role: "status", "data-testid": "passkey-note" });
  const list = h("ul", { class: "day-list", "data-testid": "passkey-list" });
  const fill = async () => {
    let keys = [];
    try {
      keys = (await api("GET", "/passkeys")).passkeys;
    } catch (err) {
      note.textContent = errorText(err);
    }
    list.replaceChildren(...keys.map((key) => h("li", { "data-testid": "passkey" },
      h("span", { text: t("passkey_item", { label: key.label, date: key.created.slice(0, 10) }) }),
      h("button", {
        type: "button", class: "btn small ghost", text: t("passkey_delete"),
        onclick: async () => {
          if (!await confirmDialog(t("passkey_delete_confirm", { label: key.label }), t("passkey_delete"))) return;
          try {
            await api("DELETE", `/passkeys/${encodeURIComponent(key.id)}`);
            await fill();
          } catch (err) {
            note.textContent = errorText(err);
          }
        },
      }))));
    if (!keys.length) list.replaceChildren(h("li", { class: "muted", text: t("passkey_none") }));
    out.hidden = !keys.length; // without a passkey, signing out everywhere would lose the player
  };
  // Sign out everywhere: every token of the player stops working, this browser's too;
  // the passkeys stay and sign the player in again.
  const out = h("button", {
    type: "button", class: "btn small ghost", "data-testid": "signout-everywhere", text: t("passkey_signout_all"),
    hidden: true,
    onclick: async () => {
      if (!await confirmDialog(t("passkey_signout_confirm"), t("passkey_signout_all"))) return;
      try {
        await api("DELETE", "/players/me/tokens");
        setToken(null);
        toast(t("passkey_signed_out"));
        reload();
      } catch (err) {
        note.textContent = errorText(err);
      }
    },
  });
  await fill();
  const add = passkeysSupported() ? h("button", {
    type: "button", class: "btn primary", "data-testid": "passkey-add", text: t("passkey_add"),
    onclick: async () => {
      note.textContent = "";
      try {
        await addPasskey();
        note.textContent = t("passkey_added");
        await fill();
      } catch (err) {
        note.textContent = failureText(err);
      }
    },
  }) : h("p", { class: "muted", text: t("passkey_unsupported") });
  return h("section", { class: "panel", "data-testid": "passkeys" },
    h("h2", { text: t("passkey_title") }),
    h("p", { class: "muted", text: t("passkey_help") }),
    list, add, note, out);
}
