// The service worker of the installable app (daily/web/pwa.py writes VERSION and SHELL,
// the shell's URLs, above this line).
//
// - /api/ requests: the network only, never a cache: daily dice, boards and every answer
//   are always the server's of the moment.
// - pages: the network first; offline, the cached shell (the app then offers Practice
//   on random dice, which it plays in the browser).
// - the shell's files (modules, styles, icons, manifest, offline rules): from the cache
//   of this version; a release changes VERSION, and the new worker replaces them all.
// - reminders (Web Push, daily/service/reminders/delivery.py): a push shows the title and
//   body the server wrote in the player's language; a click opens (or focuses) the app.
const CACHE = `dd-shell-${VERSION}`;
const SHELL_PATHS = new Set(SHELL);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return; // the network only
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("/", { cacheName: CACHE })));
    return;
  }
  if (SHELL_PATHS.has(url.pathname) && !url.search) {
    event.respondWith(caches.match(request, { cacheName: CACHE }).then((hit) => hit || fetch(request)));
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = data.title || "Daily Dice";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.kind ? `dd-${data.kind}` : "dd-reminder",
    icon: "/icons/192.png",
    badge: "/icons/maskable-192.png",
    data: { url: data.url || "/#/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/#/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => new URL(w.url).origin === target.origin);
    if (open) return open.focus().then((w) => (w && w.navigate ? w.navigate(target.href) : w));
    return self.clients.openWindow(target.href);
  }));
});
