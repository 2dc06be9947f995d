// The game page's service worker (served at /play/sw.js, so its scope is /play/): it keeps
// a copy of each game page a player opened and of the files that page loaded, and serves
// them when the network is gone, so a reload in a tunnel still shows the game (game.js then
// starts from the last game the server sent and the moves still waiting, kept in the page's
// storage). Online, everything comes from the network first: the copies only stand in for
// a network that failed. The API is never touched: moves are the page's business.
// /play/ is where the installed app opens (the manifest's start_url): online the server
// sends it to the latest unfinished game; offline it is the last game page kept here.
const CACHE = "sudoku-game-pages-v1";
const GAME_PAGE = /^\/play\/\d+\/$/;
const START = "/play/";
const API = "/api/";
// What a controlled game page loads that it needs to start: kept on the way through.
const FILES = new Set(["script", "style", "image", "font"]);

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

function keepable(url) {
  return url.origin === self.location.origin && !url.pathname.startsWith(API);
}

// The page lists itself and the files it loaded before this worker controlled it.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const port = event.ports && event.ports[0];
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      let kept = true;
      for (const href of data.urls.slice(0, 50)) {
        const url = new URL(href, self.location.href);
        if (!keepable(url)) continue;
        try {
          const response = await fetch(url.href, { credentials: "same-origin" });
          if (response.ok) await cache.put(url.href, response);
          else kept = false;
        } catch {
          kept = false;
        }
      }
      if (port) port.postMessage({ kept });
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!keepable(url)) return;
  const page = request.mode === "navigate";
  if (page && !GAME_PAGE.test(url.pathname) && url.pathname !== START) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok && (page || FILES.has(request.destination))) {
          await cache.put(request, response.clone());
        }
        return response;
      } catch (error) {
        const kept = await cache.match(request, { ignoreVary: true, ignoreSearch: false });
        if (kept) return kept;
        if (url.pathname === START) {
          // Kept pages in the order they were last stored: the last is the latest game.
          const games = (await cache.keys()).filter((r) => GAME_PAGE.test(new URL(r.url).pathname));
          if (games.length) return cache.match(games[games.length - 1]);
        }
        throw error;
      }
    })(),
  );
});
