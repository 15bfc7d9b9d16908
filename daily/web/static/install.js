// The installable app: the service worker (registered once the page has settled) and
// the browser's install prompt, offered where the player looks for it.
let deferred = null;
const listeners = new Set();

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") setTimeout(register, 1000);
  else window.addEventListener("load", () => setTimeout(register, 1000), { once: true });
}

window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  deferred = event;
  for (const listener of listeners) listener(true);
});

window.addEventListener("appinstalled", () => {
  deferred = null;
  for (const listener of listeners) listener(false);
});

// Told whether the browser offers to install the app now (true/false), now and on change.
export function onInstallable(listener) {
  listeners.add(listener);
  listener(Boolean(deferred));
  return () => listeners.delete(listener);
}

export async function promptInstall() {
  if (!deferred) return false;
  const event = deferred;
  deferred = null;
  event.prompt();
  const choice = await event.userChoice.catch(() => ({ outcome: "dismissed" }));
  for (const listener of listeners) listener(false);
  return choice.outcome === "accepted";
}
