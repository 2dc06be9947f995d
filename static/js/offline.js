// A game page that survives a bad network: the moves not yet answered are kept in the page's
// storage (so a reload, even offline, loses none), the last game the server sent is kept
// beside them (so a page served from the service worker's cache starts from it), and the
// service worker (/play/sw.js) keeps a copy of the page and its files to load offline.
// The server stays the judge: a kept move is only shown as pending until it answers.

// Each tab keeps its own outbox (its id lives in the tab's sessionStorage, so a reload keeps
// it): two tabs of one game must not overwrite each other's waiting moves.
const outboxPrefix = (gameId) => `sudoku.outbox.${gameId}.`;
const snapshotKey = (gameId) => `sudoku.game.${gameId}`;

function tabId() {
  try {
    let id = sessionStorage.getItem("sudoku.tab");
    if (!id) {
      id = Math.random().toString(36).slice(2, 10);
      sessionStorage.setItem("sudoku.tab", id);
    }
    return id;
  } catch {
    return "tab";
  }
}

const outboxKey = (gameId) => outboxPrefix(gameId) + tabId();

/** The storage keys of every tab's outbox for a game. */
function outboxKeys(gameId) {
  const keys = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(outboxPrefix(gameId))) keys.push(key);
    }
  } catch {
    // storage off: nothing kept
  }
  return keys;
}

function read(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null; // storage off (private mode) or a value not ours: nothing kept
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or off: the moves still go out while the page stays open.
  }
}

/**
 * The moves waiting for the server, oldest first: [{id, kind, cell, value}]: this tab's, then
 * those another tab of the game left (closed or killed before it could send them), which this
 * tab takes over. Were that tab still open, both would send them: the server applies a move id
 * once.
 */
export function outboxLoad(gameId) {
  const own = outboxKey(gameId);
  const keys = [own, ...outboxKeys(gameId).filter((key) => key !== own)];
  const seen = new Set();
  const moves = [];
  for (const key of keys) {
    const list = read(key);
    if (!Array.isArray(list)) continue;
    for (const m of list) {
      const valid =
        m && typeof m.id === "string" && (m.kind === "value" || m.kind === "note") && Number.isInteger(m.cell) && Number.isInteger(m.value);
      if (valid && !seen.has(m.id)) {
        seen.add(m.id);
        moves.push(m);
      }
    }
    if (key !== own) write(key, null);
  }
  outboxSave(gameId, moves);
  return moves;
}

export function outboxSave(gameId, moves) {
  write(outboxKey(gameId), moves.length ? moves : null);
}

/** The last game the server sent, if it is newer than `game` (a page from the cache). */
export function snapshotNewer(gameId, game) {
  const kept = read(snapshotKey(gameId));
  if (!kept || kept.id !== game.id || !(kept.version > game.version)) return null;
  return kept;
}

export function snapshotSave(gameId, game) {
  write(snapshotKey(gameId), game);
}

/** Forget what was kept for a game that is over. */
export function forget(gameId) {
  for (const key of outboxKeys(gameId)) write(key, null);
  write(snapshotKey(gameId), null);
}

/**
 * Register the service worker and have it keep this page and the files it loaded, so the
 * page loads again without a network. Resolves true once they are kept (false where
 * service workers are not available: plain http off localhost, or turned off).
 */
export async function keepPageOffline(workerUrl) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return false;
  try {
    await navigator.serviceWorker.register(workerUrl, { scope: new URL(".", new URL(workerUrl, location.href)).pathname });
    // A page the worker already controls was kept on its way in, with its files.
    if (navigator.serviceWorker.controller) return true;
    const registration = await navigator.serviceWorker.ready;
    const worker = registration.active;
    if (!worker) return false;
    const urls = [location.href];
    for (const entry of performance.getEntriesByType("resource")) {
      const url = new URL(entry.name);
      if (url.origin !== location.origin || url.pathname.startsWith("/api/")) continue;
      if (["script", "link", "img", "css", "other"].includes(entry.initiatorType)) urls.push(url.href);
    }
    return await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (e) => resolve(Boolean(e.data && e.data.kept));
      worker.postMessage({ type: "keep", urls }, [channel.port2]);
      setTimeout(() => resolve(false), 15000);
    });
  } catch {
    return false;
  }
}
