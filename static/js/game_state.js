// The game page's state and its link to the server. Requests go one at a time, in order, each
// carrying the version it was based on, except moves made or kept while offline: those are
// sent without one (the server checks each on the board it has), once each thanks to their
// client_move_id, and are kept in the page's storage until answered (static/js/offline.js).
// A heartbeat while the page is on screen keeps the server's clock counting (it counts at
// most a gap between two signs of life).

import { api, buildBoard, cellWhere, errorMessage, geometry, pageData, parseBoard, symbol, toast, unitName, uuid, valueOf } from "./sudoku.js";
import { forget, outboxLoad, outboxSave, snapshotSave } from "./offline.js";
import { completedUnits, flash, render, showHint, showResult } from "./game_board.js";

export const data = pageData("game-data");
export const $ = (id) => document.getElementById(id);

export const puzzle = data.game.puzzle;
// A variant's rules and aids load on its page only (the page's size budget).
export const C = puzzle.constraints?.length ? await import("./constraints.js") : null;
export const V = (puzzle.variant && puzzle.variant !== "classic") || C ? await import("./variants.js") : null;
export const geo = V ? V.variantGeometry(puzzle) : geometry(puzzle.size, puzzle.box_rows, puzzle.box_cols);
export const N = geo.n;
// The givens; the API leaves them out while the game is paused, so they may come later.
export let given = new Array(geo.ncells).fill(false);
export const urls = data.urls;
export const NUMERIC_KEY = "sudoku.numeric16";
export const AIDS_KEY = "sudoku.aids"; // a guest's aids (a player's are on the account: data.aids)
export const AUTO_PAUSE_KEY = `sudoku.leftRunning.${data.game.id}`;
export const GAME_ID = data.game.id;
// The most the server's clock counts between two signs of life; the page beats thrice per gap.
export const GAP_MS = data.clock_gap_ms || 60000;

export const S = {
  game: null,
  status: "in_progress",
  version: 0,
  values: new Array(geo.ncells).fill(0),
  notes: Array.from({ length: geo.ncells }, () => new Set()),
  corners: Array.from({ length: geo.ncells }, () => new Set()), // corner marks
  colours: Array.from({ length: geo.ncells }, () => new Set()), // 1 to 9, any cell
  wrong: new Map(), // cell -> the value the server judged wrong there
  selected: 0,
  notesMode: false, // centre notes
  cornerMode: false, // corner marks (wins over notesMode)
  colourMode: false, // digits colour the cell (wins over both)
  numeric: N > 9 && localStorage.getItem(NUMERIC_KEY) === "1",
  clockBase: 0,
  clockAt: performance.now(),
  queue: [],
  busy: false,
  hint: null, // {stage, cells:Set, unitCells:Set, text}
  typed: null, // 16x16 in numbers: the "1" waiting for a second digit
  finishedShown: false,
  offline: false,
  stalled: false, // moves wait for the player to resume a game paused elsewhere
  aids: data.aids || { highlight_same: true, highlight_peers: true, clear_peer_notes: true, ...JSON.parse(localStorage.getItem(AIDS_KEY) || "{}") },
};

export const boardEl = $("board");
export const wrapEl = $("board-wrap");
export const cells = buildBoard(boardEl, geo, V ? V.boardLabel(puzzle) : interpolate(gettext("Sudoku board, %(n)s by %(n)s"), { n: N }, true));
if (V) V.drawRules(cells, geo);
if (C) C.drawConstraints(wrapEl, puzzle, data.constraint_words);

// ---- State from the server ----

function notesFrom(raw, most = N) {
  const out = Array.from({ length: geo.ncells }, () => new Set());
  if (!raw) return out;
  for (const [cell, digits] of Object.entries(raw)) {
    const c = Number(cell);
    if (!(c >= 0 && c < geo.ncells)) continue;
    const list = Array.isArray(digits) ? digits : [...String(digits)].map(valueOf);
    for (const d of list) if (d >= 1 && d <= most) out[c].add(Number(d));
  }
  return out;
}

/** Take the server's game as the truth: board, notes, clock, counters. */
export function adopt(game, { board = true } = {}) {
  S.game = game;
  if (game.puzzle && typeof game.puzzle.givens === "string") {
    given = [...game.puzzle.givens].map((ch) => valueOf(ch) > 0);
  }
  S.version = game.version;
  S.status = game.status;
  S.clockBase = game.elapsed_ms || 0;
  S.clockAt = performance.now();
  if (["completed", "lost", "abandoned"].includes(game.status)) forget(GAME_ID);
  else snapshotSave(GAME_ID, game);
  if (board && typeof game.entries === "string") {
    S.values = parseBoard(game.entries, geo.ncells);
    S.notes = notesFrom(game.notes);
    S.corners = notesFrom(game.corners);
    S.colours = notesFrom(game.colours, 9);
    // Moves still waiting are not on the server's board yet: they stay on this one.
    for (const t of movesWaiting()) showMove(t);
  }
  if (board && Array.isArray(game.mistake_cells)) {
    S.wrong = new Map(game.mistake_cells.map((c) => [c, S.values[c]]));
  } else {
    for (const [c, v] of S.wrong) if (S.values[c] !== v) S.wrong.delete(c);
  }
  // A game given up or lost shows the solution, when the server sends it (docs/integrity.md).
  S.solution = game.solution && game.status !== "completed" ? parseBoard(game.solution, geo.ncells) : null;
}

/** The clock as the server counts it: without news from it, no more than a gap runs on. */
export function elapsedNow() {
  if (S.status !== "in_progress") return S.clockBase;
  return S.clockBase + Math.min(GAP_MS, performance.now() - S.clockAt);
}

export function playable() {
  return S.status === "in_progress";
}

const isMove = (task) => ["value", "note", "corner", "colour"].includes(task.kind);

/** The moves still waiting for the server (in the queue, in order). */
export function movesWaiting() {
  return S.queue.filter(isMove);
}

/** Cells whose last change the server has not answered yet, after a network failure. */
export function pendingCells() {
  return new Set(movesWaiting().filter((t) => t.rebase).map((t) => t.cell));
}

export function announce(text) {
  const live = $("live");
  live.textContent = "";
  requestAnimationFrame(() => {
    live.textContent = text;
  });
}

// ---- Talking to the server ----

export function enqueue(task) {
  S.queue.push(task);
  keepOutbox();
  if (S.offline) {
    task.rebase = true;
    render(); // the move shows as pending, and the banner counts it
  }
  pump();
}

/** Keep the waiting moves in the page's storage: a reload, online or not, sends them later. */
function keepOutbox() {
  outboxSave(GAME_ID, movesWaiting().map((t) => ({ id: t.id, kind: t.kind, cell: t.cell, value: t.value, keep: t.keep })));
}

// What refuses one move but leaves the game playable: that move is dropped, the rest go on.
const MOVE_REFUSED = new Set(["cell_is_given", "cell_has_value", "idempotency_conflict"]);
// A proxy's answers while the server is out of reach: wait and try again, as offline.
const UNREACHABLE = new Set([0, 502, 503, 504]);

function setOffline(offline) {
  if (offline === S.offline) return;
  S.offline = offline;
  if (offline) {
    toast(gettext("No connection: your moves are kept on this device and sent when it comes back."), 6000);
    // Whatever waits is sent without the version it was based on: the game may have moved on
    // (a pause from this page, another device), and each move is checked on the board it meets.
    for (const t of S.queue) t.rebase = true;
  } else if (movesWaiting().length) {
    toast(gettext("Connected again: sending your moves."));
  }
  render();
}

let wakeUp = null;

/** Wait for the network: the browser saying it is back, or a few seconds to try again. */
function waitForNetwork() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 5000);
    wakeUp = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

window.addEventListener("online", () => {
  if (wakeUp) wakeUp();
  heartbeat();
});
window.addEventListener("offline", () => setOffline(true));

export async function pump() {
  if (S.busy) return;
  S.busy = true;
  document.body.dataset.sync = "busy";
  let refused = false;
  try {
    while (S.queue.length && !S.stalled) {
      const task = S.queue[0];
      const res = await send(task);
      if (UNREACHABLE.has(res.status)) {
        // Offline: keep the moves, in order, and send them when the connection is back (a
        // retried move carries the same client_move_id, so it is never applied twice).
        setOffline(true);
        await waitForNetwork();
        continue;
      }
      S.queue.shift();
      keepOutbox();
      setOffline(false);
      const code = res.data && res.data.error && res.data.error.code;
      if (res.ok) {
        answer(task, res.data);
      } else if (isMove(task) && (MOVE_REFUSED.has(code) || res.status === 400)) {
        // The server's verdict on this move alone: it is not on the board; the rest go on.
        refused = true;
        const message = friendly(res.data);
        toast(message);
        announce(message);
      } else if (code === "game_paused" && (isMove(task) || movesWaiting().length)) {
        // Paused elsewhere while moves waited: they wait on (this one first) until the
        // player resumes here.
        S.queue = [task, ...S.queue].filter(isMove);
        keepOutbox();
        S.stalled = true;
        toast(friendly(res.data));
        await resync();
      } else {
        S.queue.length = 0;
        keepOutbox();
        const message = friendly(res.data);
        toast(message);
        announce(message);
        await resync();
      }
    }
    if (refused && !S.queue.length) await resync();
  } finally {
    S.busy = false;
    document.body.dataset.sync = S.queue.length ? "waiting" : "idle";
  }
}

/** The API's error as a player reads it. */
function friendly(body) {
  const code = body && body.error && body.error.code;
  if (code === "stale_version") return gettext("This game changed elsewhere (another tab or device): here it is as saved.");
  if (code === "game_paused") return gettext("The game is paused: resume it to play.");
  return errorMessage(body);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST a task, retrying network failures and 5xx with the same body (moves are idempotent). */
async function send(task) {
  const body = task.body ? task.body() : {};
  let wait = 400;
  for (let attempt = 0; ; attempt++) {
    if (!navigator.onLine) return { ok: false, status: 0, data: {} };
    const res = await api("POST", task.url, body, { keepalive: Boolean(task.keepalive) });
    if ((res.status !== 0 && res.status < 500) || attempt >= 3) return res;
    await sleep(wait);
    wait *= 2;
  }
}

async function resync() {
  const res = await api("GET", urls.game);
  if (res.ok) {
    adopt(res.data);
    S.hint = null;
    render();
    if (isFinished()) showResult();
  }
}

export function isFinished() {
  return ["completed", "lost", "abandoned"].includes(S.status);
}

/** Handle a successful answer. Later queued moves already show on the board, so the board is
 * taken from the server only when nothing else is waiting. */
function answer(task, body) {
  const game = body.game || body;
  const quiet = S.queue.length > 0;
  adopt(game, { board: !quiet });
  if (S.status === "in_progress" && S.queue.some((t) => t.kind === "pause")) {
    // A pause is on its way: keep the board covered and the clock still meanwhile.
    S.clockBase = elapsedNow();
    S.clockAt = performance.now();
    S.status = "paused";
  }
  if (task.kind === "value" && S.status !== "paused") {
    if (body.correct === false) {
      S.wrong.set(task.cell, task.value);
      announce(
        interpolate(gettext("Mistake: %(value)s does not belong in %(where)s."), { value: symbol(task.value, S.numeric), where: cellWhere(geo, task.cell) }, true),
      );
    } else {
      S.wrong.delete(task.cell);
      if (task.value && body.correct === true && !body.completed) {
        const units = completedUnits(task.cell);
        if (units.length) {
          flash(units.flatMap((u) => geo.units[u]));
          announce(interpolate(gettext("%(units)s complete."), { units: units.map((u) => unitName(geo, u)).join(gettext(", ")) }, true));
        }
      }
    }
  }
  if (task.kind === "hint") showHint(body, { reveal: true });
  if (task.kind === "undo" || task.kind === "redo" || task.kind === "restart") S.hint = null;
  render();
  if (isFinished()) showResult();
}

// keep: a placed value stays in its peers' notes (the player turned that aid off).
export function moveTask(kind, cell, value, id = uuid(), keep = kind === "value" && !S.aids.clear_peer_notes) {
  const task = { kind, cell, value, id, keep, rebase: false, url: urls.moves };
  const move = { client_move_id: id, cell, value, kind, ...(keep && { clear_peer_notes: false }) };
  task.body = () => (task.rebase ? move : { ...move, version: S.version });
  return task;
}

/** Show a waiting move on the board as the page did when it was made. */
function showMove(task) {
  const { cell: c, value: v } = task;
  if (given[c]) return;
  if (task.kind === "value") {
    S.values[c] = v;
    clearMarks(c, v, !task.keep);
  } else if (task.kind === "colour" || !S.values[c]) {
    const marks = (task.kind === "colour" ? S.colours : task.kind === "corner" ? S.corners : S.notes)[c];
    if (!v) marks.clear();
    else if (marks.has(v)) marks.delete(v);
    else marks.add(v);
  }
}

/** A value placed in c: its own marks go, and with the aid on, v goes from its peers'. */
export function clearMarks(c, v, peers) {
  S.notes[c].clear();
  S.corners[c].clear();
  if (v && peers) for (const p of geo.peers[c]) for (const m of [S.notes, S.corners]) m[p].delete(v);
}

/** The moves a previous load of this page kept and the server never answered: shown as
 * pending and sent first, without a version (see the top of this file). */
export function restoreOutbox() {
  for (const kept of outboxLoad(GAME_ID)) {
    const task = moveTask(kept.kind, kept.cell, kept.value, kept.id, !!kept.keep);
    task.rebase = true;
    showMove(task);
    S.queue.push(task);
  }
}

export function simple(kind, url, extra = {}) {
  return { kind, url, body: () => ({ version: S.version }), ...extra };
}

/** A sign of life while the game is on screen: the server's clock counts up to now. Its
 * answer sets the clock, and a version this page does not know means another device wrote. */
export async function heartbeat() {
  if (!playable() || document.hidden) return;
  const res = await api("POST", urls.heartbeat, {});
  if (res.status === 0) {
    setOffline(true);
    return;
  }
  if (!res.ok || S.busy || S.queue.length) return;
  setOffline(false);
  if (res.data.version !== S.version || res.data.status !== S.status) {
    await resync();
    return;
  }
  S.clockBase = res.data.elapsed_ms;
  S.clockAt = performance.now();
}
