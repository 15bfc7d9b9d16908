// Reminders: Web Push notifications on this device when today's dice are ready, and in the
// evening when a streak is about to end (the server sends them: daily/service/reminders).
// Permission is asked only when the player clicks "Turn on reminders".
import { api } from "./api.js";
import { t } from "./i18n.js";
import { getToken } from "./store.js";
import { errorText, h } from "./ui.js";

const RENEWED = "dd-reminders-renewed";

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

// This browser's push subscription for the server's key (made if there is none).
async function browserSubscription(publicKey) {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready);
  const key = keyBytes(publicKey);
  let sub = await registration.pushManager.getSubscription();
  const same = sub && sub.options && sub.options.applicationServerKey
    && new Uint8Array(sub.options.applicationServerKey).every((b, i) => b === key[i]);
  if (sub && !same) {
    await sub.unsubscribe();
    sub = null;
  }
  return sub || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

// The body of PUT /reminders/subscription.
export function settingsBody(sub, hour, kinds, zone = timeZone()) {
  const json = sub.toJSON ? sub.toJSON() : sub;
  return {
    subscription: { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } },
    hour, time_zone: zone, reminders: kinds,
  };
}

export const getReminders = () => api("GET", "/reminders/subscription");
export const putReminders = (body) => api("PUT", "/reminders/subscription", body);
export const deleteReminders = () => api("DELETE", "/reminders/subscription");

// Renew the subscription once a day when the app opens (it lapses after 60 days unused).
export async function renewReminders() {
  if (!pushSupported() || !getToken() || Notification.permission !== "granted") return;
  const today = new Date().toISOString().slice(0, 10);
  if (localStorage.getItem(RENEWED) === today) return;
  try {
    const state = await getReminders();
    const current = state.subscription;
    if (!current) return;
    const key = await api("GET", "/reminders/key");
    const sub = await browserSubscription(key.public_key);
    await putReminders(settingsBody(sub, current.hour, current.reminders));
    localStorage.setItem(RENEWED, today);
  } catch {
    // quietly: the next opening tries again
  }
}

// The profile's section: turn reminders on or off, and choose the hour and which ones.
export async function remindersSection() {
  const status = h("p", { class: "muted", role: "status", "data-testid": "reminders-status" });
  const hour = h("select", { id: "reminder-hour", "data-testid": "reminder-hour" },
    Array.from({ length: 24 }, (_, n) => h("option", { value: String(n), text: `${String(n).padStart(2, "0")}:00` })));
  hour.value = "9";
  const daily = h("input", { type: "checkbox", id: "reminder-daily", checked: true });
  const streak = h("input", { type: "checkbox", id: "reminder-streak", checked: true });
  const toggle = h("button", { type: "button", class: "btn", "data-testid": "reminders-toggle" });
  const save = h("button", { type: "button", class: "btn small ghost", "data-testid": "reminders-save", text: t("reminders_save"), hidden: true });
  let on = false;

  const show = (state) => {
    on = Boolean(state);
    toggle.textContent = on ? t("reminders_off") : t("reminders_on");
    save.hidden = !on;
    if (state) {
      hour.value = String(state.hour);
      daily.checked = state.reminders.includes("daily");
      streak.checked = state.reminders.includes("streak");
    }
  };
  const kinds = () => [daily.checked && "daily", streak.checked && "streak"].filter(Boolean);

  const enable = async () => {
    if (!pushSupported()) { status.textContent = t("reminders_unsupported"); return; }
    if (!kinds().length) { status.textContent = t("reminders_pick_one"); return; }
    const permission = await Notification.requestPermission();
    if (permission !== "granted") { status.textContent = t("reminders_denied"); return; }
    try {
      const key = await api("GET", "/reminders/key");
      const sub = await browserSubscription(key.public_key);
      show(await putReminders(settingsBody(sub, Number(hour.value), kinds())));
      status.textContent = t("reminders_enabled");
    } catch (err) {
      status.textContent = err && err.code ? errorText(err) : t("reminders_failed");
    }
  };
  const disable = async () => {
    try {
      await deleteReminders();
      show(null);
      status.textContent = t("reminders_disabled");
      if (pushSupported()) {
        const registration = await navigator.serviceWorker.getRegistration("/");
        const sub = registration && await registration.pushManager.getSubscription();
        if (sub) await sub.unsubscribe();
      }
    } catch (err) {
      status.textContent = errorText(err);
    }
  };
  toggle.addEventListener("click", () => (on ? disable() : enable()));
  save.addEventListener("click", () => enable());

  try {
    show((await getReminders()).subscription);
  } catch {
    show(null);
  }
  return h("section", { class: "panel settings", "data-testid": "reminders" },
    h("h2", { text: t("reminders_title") }),
    h("p", { class: "muted", text: t("reminders_help") }),
    h("label", { class: "check", for: "reminder-daily" }, daily, ` ${t("reminders_daily")}`),
    h("div", { class: "row" }, h("label", { for: "reminder-hour", text: t("reminders_hour") }), hour),
    h("label", { class: "check", for: "reminder-streak" }, streak, ` ${t("reminders_streak")}`),
    h("p", { class: "muted", text: t("reminders_zone", { zone: timeZone() }) }),
    h("div", { class: "row" }, toggle, save),
    status);
}
