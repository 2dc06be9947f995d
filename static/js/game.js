// The game page: draws the board from the server's game object and drives it through the
// game API (/api/v1/games/<id>/...). The server owns correctness, the clock, hints and the
// score; the page only shows clashes it can see on the board and answers instantly while the
// move travels. Requests go one at a time, in order, each carrying the version it was based on,
// except moves made or kept while offline: those are sent without one (the server checks each
// on the board it has), once each thanks to their client_move_id, and are kept in the page's
// storage until answered (static/js/offline.js). A heartbeat while the page is on screen keeps
// the server's clock counting (it counts at most a gap between two signs of life).

import {
  api,
  buildBoard,
  candidates,
  cellWhere,
  clashes,
  errorMessage,
  formatMs,
  geometry,
  pageData,
  paintCell,
  paintColours,
  parseBoard,
  symbol,
  toast,
  unitName,
  uuid,
  valueOf,
} from "./sudoku.js";
import { forget, keepPageOffline, outboxLoad, outboxSave, snapshotNewer, snapshotSave } from "./offline.js";

const data = pageData("game-data");
const $ = (id) => document.getElementById(id);

const puzzle = data.game.puzzle;
// A variant's rules and aids load on its page only (the page's size budget).
const C = puzzle.constraints?.length ? await import("./constraints.js") : null;
const V = (puzzle.variant && puzzle.variant !== "classic") || C ? await import("./variants.js") : null;
const geo = V ? V.variantGeometry(puzzle) : geometry(puzzle.size, puzzle.box_rows, puzzle.box_cols);
const N = geo.n;
// The givens; the API leaves them out while the game is paused, so they may come later.
let given = new Array(geo.ncells).fill(false);
const urls = data.urls;
const NUMERIC_KEY = "sudoku.numeric16";
const AIDS_KEY = "sudoku.aids"; // a guest's aids (a player's are on the account: data.aids)
const AUTO_PAUSE_KEY = `sudoku.leftRunning.${data.game.id}`;
const GAME_ID = data.game.id;
// The most the server's clock counts between two signs of life; the page beats thrice per gap.
const GAP_MS = data.clock_gap_ms || 60000;

const S = {
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

const boardEl = $("board");
const wrapEl = $("board-wrap");
const cells = buildBoard(boardEl, geo, V ? V.boardLabel(puzzle) : interpolate(gettext("Sudoku board, %(n)s by %(n)s"), { n: N }, true));
if (V) V.drawRules(cells, geo);
if (C) C.drawConstraints(wrapEl, puzzle, data.constraint_words);
const padKeys = buildPad();

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
function adopt(game, { board = true } = {}) {
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

// ---- Drawing ----

/** The clock as the server counts it: without news from it, no more than a gap runs on. */
function elapsedNow() {
  if (S.status !== "in_progress") return S.clockBase;
  return S.clockBase + Math.min(GAP_MS, performance.now() - S.clockAt);
}

function playable() {
  return S.status === "in_progress";
}

function cellLabel(c, v, isClash, isWrong, isPending) {
  const where = [cellWhere(geo, c), ...(V ? V.ruleWords(geo, c) : []), ...(C ? C.constraintWords(puzzle, c) : [])].join(gettext(", "));
  if (S.status === "paused") return interpolate(gettext("%(where)s, hidden while paused"), { where }, true);
  if (v) {
    const parts = [where, symbol(v, S.numeric)];
    if (given[c]) parts.push(gettext("given"));
    if (isWrong) parts.push(gettext("mistake"));
    if (isClash) parts.push(gettext("clashes"));
    if (isPending) parts.push(gettext("not saved yet"));
    return parts.join(gettext(", "));
  }
  const list = (set) => [...set].sort((a, b) => a - b).map((d) => symbol(d, S.numeric)).join(" ");
  const marks = list(S.notes[c]);
  let label = marks
    ? interpolate(gettext("%(where)s, empty, notes %(notes)s"), { where, notes: marks }, true)
    : interpolate(gettext("%(where)s, empty"), { where }, true);
  if (S.corners[c].size) label += gettext(", ") + interpolate(gettext("corner marks %(marks)s"), { marks: list(S.corners[c]) }, true);
  return isPending ? label + gettext(", ") + gettext("not saved yet") : label;
}

/** The palette's colours by name (game.css's --k1 to --k9, in order). */
const colourNames = () => [gettext("orange"), gettext("sky blue"), gettext("green"), gettext("yellow"), gettext("blue"), gettext("red"), gettext("pink"), gettext("light grey"), gettext("dark grey")];

/** ", colours orange, blue": the cell's colours by name. */
function colourWords(c) {
  if (!S.colours[c].size || S.status === "paused") return "";
  const list = [...S.colours[c]].sort((a, b) => a - b).map((k) => colourNames()[k - 1]);
  return gettext(", ") + interpolate(gettext("colours %(names)s"), { names: list.join(gettext(", ")) }, true);
}

const isMove = (task) => ["value", "note", "corner", "colour"].includes(task.kind);

/** The moves still waiting for the server (in the queue, in order). */
function movesWaiting() {
  return S.queue.filter(isMove);
}

/** Cells whose last change the server has not answered yet, after a network failure. */
function pendingCells() {
  return new Set(movesWaiting().filter((t) => t.rebase).map((t) => t.cell));
}

function render() {
  const hidden = S.status === "paused";
  const sel = S.selected;
  const selValue = hidden ? 0 : S.values[sel];
  const clash = hidden ? new Set() : clashes(S.values, geo);
  if (C && !hidden) for (const c of C.constraintClashes(puzzle, S.values)) clash.add(c);
  const hintCells = S.hint ? S.hint.cells : new Set();
  const hintUnit = S.hint ? S.hint.unitCells : new Set();
  const pending = pendingCells();
  for (let c = 0; c < geo.ncells; c++) {
    const el = cells[c];
    const mine = S.values[c];
    const shown = S.solution && (!mine || S.wrong.get(c) === mine);
    const v = hidden ? 0 : shown ? S.solution[c] : mine;
    const isWrong = !shown && v !== 0 && S.wrong.get(c) === v;
    const isClash = clash.has(c);
    const cl = el.classList;
    cl.toggle("given", given[c] && !hidden);
    cl.toggle("selected", c === sel);
    cl.toggle("peer", S.aids.highlight_peers && c !== sel && geo.peers[sel].has(c));
    cl.toggle("same", S.aids.highlight_same && c !== sel && selValue !== 0 && v === selValue);
    cl.toggle("clash", isClash);
    cl.toggle("wrong", isWrong);
    cl.toggle("hint", hintCells.has(c));
    cl.toggle("hint-unit", hintUnit.has(c));
    cl.toggle("pending", pending.has(c) && !hidden);
    cl.toggle("shown", Boolean(shown));
    el.tabIndex = c === sel ? 0 : -1;
    el.setAttribute("aria-selected", c === sel ? "true" : "false");
    if (given[c]) el.setAttribute("aria-readonly", "true");
    paintCell(el, v, hidden ? null : S.notes[c], geo, S.numeric, selValue, hidden ? null : S.corners[c]);
    paintColours(el, hidden ? null : S.colours[c]);
    el.setAttribute("aria-label", cellLabel(c, v, isClash, isWrong, pending.has(c)) + colourWords(c) + (shown ? gettext(", ") + gettext("from the solution") : ""));
  }
  // The cover's Resume button goes with the cover: focus returns to the board.
  const coverHadFocus = !hidden && $("pause-cover").contains(document.activeElement);
  wrapEl.classList.toggle("paused", hidden);
  if (coverHadFocus) cells[sel].focus({ preventScroll: true });
  boardEl.setAttribute("aria-hidden", hidden ? "true" : "false");
  renderPad(hidden);
  if (V) V.renderCage(geo, S.values, S.selected, hidden, S.numeric);
  renderStatus();
  renderOffline();
}

function renderOffline() {
  const banner = $("offline-banner");
  banner.hidden = !S.offline;
  const waiting = movesWaiting().length;
  $("offline-count").textContent = waiting
    ? interpolate(ngettext("%(count)s move waiting.", "%(count)s moves waiting.", waiting), { count: waiting }, true)
    : "";
}

function renderPad(hidden) {
  const counts = new Array(N + 1).fill(0);
  for (let c = 0; c < geo.ncells; c++) {
    const v = S.values[c];
    if (v && S.wrong.get(c) !== v) counts[v] += 1;
  }
  for (let v = 1; v <= N; v++) {
    const key = padKeys[v - 1];
    const left = Math.max(0, N - counts[v]);
    key.querySelector(".sym").textContent = symbol(v, S.numeric);
    key.querySelector(".left").textContent = hidden ? "" : String(left);
    // In colour mode a key colours the cell: the count left does not matter, 1 to 9 only.
    key.disabled = hidden || !playable() || (S.colourMode ? v > 9 : left === 0);
    // The name begins with what the key shows (its symbol, then the count left), so voice
    // control finds the key by the symbol a player reads on it.
    let label;
    const marking = S.notesMode || S.cornerMode || S.colourMode;
    if (hidden) label = marking ? gettext("%(value)s, as a note") : gettext("%(value)s, enter");
    else label = marking ? gettext("%(value)s %(left)s left, as a note") : gettext("%(value)s %(left)s left, enter");
    if (S.colourMode && v <= 9) label = `%(value)s, ${colourNames()[v - 1]}`;
    key.setAttribute("aria-label", interpolate(label, { value: symbol(v, S.numeric), left }, true));
  }
  $("pad").classList.toggle("notes-on", S.notesMode || S.cornerMode || S.colourMode);
}

function renderStatus() {
  const g = S.game;
  const limit = g.mistake_limit;
  const mistakes = $("mistakes");
  mistakes.textContent = limit ? `${g.mistakes}/${limit}` : String(g.mistakes);
  mistakes.classList.toggle("bad", g.mistakes > 0);
  $("hints").textContent = String(g.hints_used);
  const live = playable();
  // Offline, only moves can be kept for later: the other tools need the server's answer.
  const online = live && !S.offline;
  $("undo").disabled = !online || !g.can_undo;
  $("redo").disabled = !online || !g.can_redo;
  for (const id of ["erase", "notes-toggle"]) $(id).disabled = !live;
  for (const id of ["auto-notes", "hint", "restart", "give-up"]) if ($(id)) $(id).disabled = !online;
  const notesButton = $("notes-toggle");
  notesButton.setAttribute("aria-pressed", S.notesMode || S.cornerMode || S.colourMode ? "true" : "false");
  notesButton.querySelector(".badge").textContent = S.colourMode ? gettext("COLOUR") : S.cornerMode ? gettext("CORNER") : S.notesMode ? gettext("ON") : gettext("OFF");
  const pauseButton = $("pause");
  const paused = S.status === "paused";
  pauseButton.disabled = !(live || paused);
  pauseButton.setAttribute("aria-label", paused ? gettext("Resume") : gettext("Pause"));
  pauseButton.classList.toggle("is-paused", paused);
  tick();
}

function tick() {
  const text = formatMs(elapsedNow());
  const clock = $("clock");
  if (clock.textContent !== text) clock.textContent = text;
}

function buildPad() {
  const pad = $("pad");
  pad.textContent = "";
  // Wide screens lay the keys out like a box; narrow ones in one or two rows.
  pad.style.setProperty("--pad-wide", N === 16 ? 4 : N === 4 ? 2 : 3);
  pad.style.setProperty("--pad-narrow", N > 9 ? Math.ceil(N / 2) : N);
  const keys = [];
  for (let v = 1; v <= N; v++) {
    const key = document.createElement("button");
    key.type = "button";
    key.className = "pad-key";
    key.dataset.v = String(v);
    const sym = document.createElement("span");
    sym.className = "sym";
    const left = document.createElement("span");
    left.className = "left";
    left.setAttribute("aria-hidden", "true");
    key.append(sym, " ", left);
    key.addEventListener("click", () => enter(v));
    pad.appendChild(key);
    keys.push(key);
  }
  return keys;
}

function announce(text) {
  const live = $("live");
  live.textContent = "";
  requestAnimationFrame(() => {
    live.textContent = text;
  });
}

function flash(cellList) {
  for (const c of cellList) {
    const el = cells[c];
    el.classList.remove("flash");
    void el.offsetWidth; // restart the animation
    el.classList.add("flash");
  }
}

/** Units through `cell` that are now full, clash-free and free of known mistakes. */
function completedUnits(cell) {
  const done = [];
  const units = [geo.rowOf[cell], N + geo.colOf[cell], 2 * N + geo.boxOf[cell]];
  for (const u of units) {
    const members = geo.units[u];
    const seen = new Set();
    let ok = true;
    for (const c of members) {
      const v = S.values[c];
      if (!v || seen.has(v) || S.wrong.get(c) === v) {
        ok = false;
        break;
      }
      seen.add(v);
    }
    if (ok) done.push(u);
  }
  return done;
}

// ---- Talking to the server ----

function enqueue(task) {
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

async function pump() {
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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

function isFinished() {
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

// ---- Player actions ----

// keep: a placed value stays in its peers' notes (the player turned that aid off).
function moveTask(kind, cell, value, id = uuid(), keep = kind === "value" && !S.aids.clear_peer_notes) {
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
function clearMarks(c, v, peers) {
  S.notes[c].clear();
  S.corners[c].clear();
  if (v && peers) for (const p of geo.peers[c]) for (const m of [S.notes, S.corners]) m[p].delete(v);
}

/** The moves a previous load of this page kept and the server never answered: shown as
 * pending and sent first, without a version (see the top of this file). */
function restoreOutbox() {
  for (const kept of outboxLoad(GAME_ID)) {
    const task = moveTask(kept.kind, kept.cell, kept.value, kept.id, !!kept.keep);
    task.rebase = true;
    showMove(task);
    S.queue.push(task);
  }
}

/** Drop the hint and close its panel, also once it was applied (S.hint is then already null).
 * Focus inside the panel goes back to the board rather than being lost with it. */
function clearHint() {
  const panel = $("hint-panel");
  const hadFocus = panel.contains(document.activeElement);
  S.hint = null;
  panel.hidden = true;
  if (hadFocus) cells[S.selected].focus({ preventScroll: true });
}

// note: false, true (a centre note) or "corner", whatever the mode (a held Shift or Ctrl).
function enter(v, { note = false } = {}) {
  if (!playable()) return;
  const c = S.selected;
  if (S.colourMode && !note) {
    if (v <= 9) toggleColour(c, v);
    return;
  }
  if (given[c]) {
    toast(interpolate(gettext("%(where)s is a given: it cannot change."), { where: cellWhere(geo, c) }, true));
    return;
  }
  if (note === "corner" || (!note && S.cornerMode)) toggleNote(c, v, "corner");
  else if (note || S.notesMode) toggleNote(c, v, "note");
  else placeValue(c, v);
}

function placeValue(c, v) {
  if (S.values[c] === v) return;
  clearHint();
  S.values[c] = v;
  clearMarks(c, v, S.aids.clear_peer_notes);
  render();
  enqueue(moveTask("value", c, v));
}

/** Colour v on or off in c (0: all of c's colours off); any cell, a given too. */
function toggleColour(c, v) {
  const marks = S.colours[c];
  if (!v && !marks.size) return;
  if (!v) marks.clear();
  else if (marks.has(v)) marks.delete(v);
  else marks.add(v);
  render();
  enqueue(moveTask("colour", c, v));
}

function toggleNote(c, v, kind) {
  if (S.values[c]) {
    toast(gettext("Clear the cell before pencilling notes in it."));
    return;
  }
  clearHint();
  const marks = (kind === "corner" ? S.corners : S.notes)[c];
  if (marks.has(v)) marks.delete(v);
  else marks.add(v);
  render();
  enqueue(moveTask(kind, c, v));
}

function erase() {
  if (!playable()) return;
  const c = S.selected;
  if (S.colourMode) return toggleColour(c, 0);
  if (given[c]) {
    toast(gettext("A given cannot be erased."));
    return;
  }
  if (S.values[c]) {
    placeValue(c, 0);
  } else {
    for (const kind of ["note", "corner"]) {
      const marks = (kind === "corner" ? S.corners : S.notes)[c];
      if (!marks.size) continue;
      clearHint();
      marks.clear();
      render();
      enqueue(moveTask(kind, c, 0));
    }
  }
}

function simple(kind, url, extra = {}) {
  return { kind, url, body: () => ({ version: S.version }), ...extra };
}

function undo() {
  if (playable() && !S.offline && S.game.can_undo) enqueue(simple("undo", urls.undo));
}

function redo() {
  if (playable() && !S.offline && S.game.can_redo) enqueue(simple("redo", urls.redo));
}

function autoNotes() {
  if (!playable() || S.offline) return;
  // The cost is said before the first charge on this page (the button's data-confirm).
  if (!S.aidAsked && !window.confirm($("auto-notes").dataset.confirm)) return;
  S.aidAsked = true;
  clearHint();
  for (let c = 0; c < geo.ncells; c++) {
    if (!S.values[c]) S.notes[c] = new Set(candidates(S.values, geo, c));
  }
  render();
  enqueue(simple("auto_notes", urls.auto_notes));
  announce(gettext("Notes filled with every candidate."));
}

function giveUp() {
  if (!playable() || S.offline) return;
  if (!window.confirm(gettext("Give up this game? It ends now, unsolved; the board then shows the solution unless the puzzle is still in play."))) return;
  clearHint();
  enqueue(simple("abandon", urls.abandon));
}

function restart() {
  if (!playable() || S.offline) return;
  if (!window.confirm(gettext("Clear all your entries and notes? The clock, mistakes and hints stay."))) return;
  clearHint();
  enqueue(simple("restart", urls.restart));
}

/** Pause; `leaving` when the tab is hidden (or the page unloads) rather than by the player. */
function pause(leaving = false) {
  if (!playable()) return;
  if (leaving) sessionStorage.setItem(AUTO_PAUSE_KEY, String(S.version));
  S.clockBase = elapsedNow();
  S.clockAt = performance.now();
  S.status = "paused";
  clearHint();
  render();
  enqueue(simple("pause", urls.pause, { keepalive: true }));
  if (!leaving) $("resume").focus();
}

function resume() {
  if (S.status !== "paused") return;
  sessionStorage.removeItem(AUTO_PAUSE_KEY);
  if (S.stalled) {
    // Moves wait behind a pause made elsewhere: the resume goes first, then they follow.
    S.stalled = false;
    S.queue.unshift(simple("resume", urls.resume));
    pump();
    return;
  }
  enqueue(simple("resume", urls.resume));
}

/** A sign of life while the game is on screen: the server's clock counts up to now. Its
 * answer sets the clock, and a version this page does not know means another device wrote. */
async function heartbeat() {
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

function hint() {
  if (!playable() || S.offline) return;
  const level = S.hint ? Math.min(S.hint.stage + 1, 3) : 1;
  enqueue({ kind: "hint", level, url: urls.hint, body: () => ({ level, version: S.version }) });
}

/** Show what a hint stage revealed: where to look, then the technique, then the move made.
 * ``reveal``: the player just asked for it, so scroll the panel into view (on a phone it
 * opens below the board, out of sight); a hint restored on load does not move the page. */
function showHint(body, { reveal = false } = {}) {
  const h = body.hint || body;
  const stage = h.level || h.stage || (S.hint ? S.hint.stage + 1 : 1);
  const cellsOf = (list) => new Set((list || []).map((x) => (typeof x === "object" ? x.cell : x)));
  const unitCells = new Set();
  for (const u of h.units || []) for (const c of geo.units[u] || []) unitCells.add(c);
  const look = (h.unit_names || []).join(gettext(", ")) || (h.cell_names || []).join(gettext(", "));
  let text = h.message || h.text || "";
  if (!text) {
    if (stage === 1) text = look ? interpolate(gettext("Look at %(where)s."), { where: look }, true) : gettext("Look at the highlighted cells.");
    else text = [h.name, h.sentence || h.explanation].filter(Boolean).join(gettext(": "));
  }
  const applied = stage >= 3;
  S.hint = applied ? null : { stage, cells: cellsOf(h.cells), unitCells, text };
  const panel = $("hint-panel");
  panel.hidden = false;
  $("hint-title").textContent = applied
    ? gettext("Hint applied")
    : stage === 1
      ? gettext("Where to look")
      : h.name || gettext("Technique");
  $("hint-text").textContent = text || gettext("Hint applied.");
  const lesson = $("hint-lesson");
  lesson.hidden = !h.lesson_url;
  if (h.lesson_url) {
    lesson.href = h.lesson_url;
    lesson.textContent = interpolate(gettext("Learn %(name)s"), { name: h.name || gettext("this technique") }, true);
  }
  const next = $("hint-next");
  const nextHadFocus = document.activeElement === next;
  next.hidden = applied;
  if (applied && nextHadFocus) $("hint-close").focus(); // "Apply it" is gone: stay in the panel
  next.textContent = stage === 1 ? gettext("Show technique") : gettext("Apply it");
  announce(text);
  if (reveal) {
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    panel.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  }
  if (applied && Array.isArray(h.placements) && h.placements.length) {
    const c = typeof h.placements[0] === "object" ? h.placements[0].cell : h.placements[0][0];
    if (c >= 0) S.selected = c;
  }
}

// ---- Selection and keys ----

function select(c, focus = true) {
  S.selected = c;
  if (S.typed) commitTyped();
  render();
  if (focus) cells[c].focus({ preventScroll: false });
}

function moveBy(dr, dc) {
  const r = (geo.rowOf[S.selected] + dr + N) % N;
  const k = (geo.colOf[S.selected] + dc + N) % N;
  select(r * N + k, true);
}

/** On 16x16 with numbers shown, "1" waits briefly for a second digit to make 10-16. */
function commitTyped() {
  const typed = S.typed;
  S.typed = null;
  clearTimeout(typed.timer);
  enter(1, { note: typed.note });
}

function typeDigit(d, note) {
  if (N > 9 && S.numeric) {
    if (S.typed) {
      const typed = S.typed;
      clearTimeout(typed.timer);
      S.typed = null;
      const v = 10 + d;
      if (v <= N) {
        enter(v, { note: typed.note });
        return;
      }
      enter(1, { note: typed.note });
    }
    if (d === 1) {
      S.typed = { note, timer: setTimeout(commitTyped, 700) };
      return;
    }
  }
  if (d === 0) erase();
  else if (d <= N) enter(d, { note });
}

const SYMBOL_KEYS = new Set([...Array(N)].map((_, i) => symbol(i + 1).toLowerCase()));

function onKey(e) {
  if (e.target.closest && e.target.closest("input, textarea, select, dialog, [contenteditable]")) return;
  if ($("result").open) return;
  const key = e.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  // Shift+digit pencils a corner mark, Ctrl+digit a centre note, whatever the mode (SudokuPad's
  // keys; with Shift the key is "!", "@"... so read the code).
  const digit = /^Digit([0-9])$/.exec(e.code) || /^Numpad([0-9])$/.exec(e.code);
  if ((e.ctrlKey || e.metaKey) && !e.altKey) {
    if (digit && S.status !== "paused") {
      e.preventDefault();
      typeDigit(Number(digit[1]), true);
    } else if (lower === "z") {
      e.preventDefault();
      if (e.shiftKey) redo();
      else undo();
    } else if (lower === "y") {
      e.preventDefault();
      redo();
    }
    return;
  }
  if (e.altKey || e.metaKey) return;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[key]) {
    e.preventDefault();
    moveBy(...arrows[key]);
    return;
  }
  if (S.status === "paused") {
    if (lower === "p" && !SYMBOL_KEYS.has("p")) resume();
    return;
  }
  if (key === "Backspace" || key === "Delete") {
    e.preventDefault();
    erase();
    return;
  }
  if (digit) {
    e.preventDefault();
    typeDigit(Number(digit[1]), e.shiftKey && "corner");
    return;
  }
  if (N > 9 && SYMBOL_KEYS.has(lower) && !/[0-9]/.test(lower)) {
    e.preventDefault();
    enter(valueOf(lower), { note: e.shiftKey && "corner" });
    return;
  }
  const modes = { z: "value", x: "corner", c: "note", v: "colour" }; // SudokuPad's mode keys
  if (modes[lower]) setMode(modes[lower]);
  else if (lower === "n") toggleNotesMode();
  else if (lower === "p") pause();
  else if (lower === "h") hint();
  else if (key === "Escape") clearHint();
  else if (key === "Home") select(geo.rowOf[S.selected] * N);
  else if (key === "End") select(geo.rowOf[S.selected] * N + N - 1);
}

function toggleNotesMode() {
  setMode(S.notesMode || S.cornerMode || S.colourMode ? "value" : "note");
}

/** The Notes button goes round: off, centre notes, corner marks, colours. */
function cycleMarkMode() {
  setMode(S.colourMode ? "value" : S.cornerMode ? "colour" : S.notesMode ? "corner" : "note");
}

function setMode(mode) {
  if (!playable()) return; // the Notes button is off once the game is over; so are its keys
  S.notesMode = mode === "note";
  S.cornerMode = mode === "corner";
  S.colourMode = mode === "colour";
  const said = { corner: gettext("Corner marks mode on"), colour: gettext("Colour mode on"), note: gettext("Notes mode on") };
  announce(said[mode] || gettext("Notes mode off"));
  render();
}

// ---- The finished dialog ----

async function showResult() {
  if (S.finishedShown) return;
  S.finishedShown = true;
  const g = S.game;
  const dialog = $("result");
  const won = g.status === "completed";
  $("result-title").textContent = won
    ? gettext("Solved!")
    : g.status === "lost"
      ? gettext("Out of mistakes")
      : gettext("You gave up");
  $("result-time").textContent = formatMs(g.elapsed_ms || 0);
  $("result-mistakes").textContent = g.mistake_limit ? `${g.mistakes}/${g.mistake_limit}` : String(g.mistakes);
  $("result-hints").textContent = String(g.hints_used);
  $("result-score").textContent = g.score == null ? "—" : String(g.score);
  $("result-rank").textContent = "…";
  showRatingChange(g);
  if (won) boardEl.classList.add("done");
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  announce(
    interpolate(
      gettext("%(title)s Time %(time)s, score %(score)s."),
      { title: $("result-title").textContent, time: formatMs(g.elapsed_ms || 0), score: g.score ?? gettext("none") },
      true,
    ),
  );
  const reason = unrankedReason(g);
  if (!won && !g.solution) showNote(gettext("The solution shows here once the puzzle is no longer in play."));
  else if (reason) showNote(reason);
  if (!won) $("result-rank").textContent = "—";
  else if (!data.username) $("result-rank").textContent = gettext("Log in to rank");
  else if (reason) $("result-rank").textContent = gettext("Unranked");
  else {
    const rank = await rankText(g);
    $("result-rank").textContent = rank || gettext("Unranked");
    // Ranked, signed in, solved, yet not on the board: the fair-play review holds it.
    if (!rank) showNote(gettext("Held off the board for review."));
  }
}

/** Why this game is not ranked, in one short line; null when it is (or may be) ranked.
 * The server's word when the game carries it (unranked_reason), else what the page knows. */
function unrankedReason(g) {
  if ("unranked_reason" in g) return g.unranked_reason ? g.unranked_reason.message : null;
  if (g.status !== "completed") return null;
  if (!data.username) return gettext("Guest games are not ranked.");
  if (data.ranked === false) return gettext("A replayed puzzle is not ranked.");
  return null;
}

function showNote(text) {
  const note = $("result-note");
  note.textContent = text;
  note.hidden = false;
}

/** Both sides' rating change after a ranked finish (the server sends it with the game). */
function showRatingChange(g) {
  const change = g.rating && g.rating.change;
  if (!change) return;
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
  // Two lines at most on a phone: the player's change, then the puzzle's, smaller.
  const mine = document.createElement("span");
  mine.className = "rating-mine";
  mine.textContent = `${change.player_before} → ${change.player_after} (${signed(change.player_delta)})`;
  const puzzle = document.createElement("span");
  puzzle.className = "rating-puzzle";
  puzzle.textContent = interpolate(gettext("puzzle %(delta)s"), { delta: signed(change.puzzle_delta) }, true);
  $("result-rating").replaceChildren(mine, " ", puzzle);
  $("result-rating-row").hidden = false;
}

/** The player's place on this puzzle's leaderboard (paged through, a few pages at most);
 * null when they are not on it. */
async function rankText(g) {
  let url = urls.leaderboard;
  for (let page = 0; url && page < 10; page++) {
    const res = await api("GET", url);
    if (!res.ok) return "—";
    const rows = res.data.results || [];
    const mine = rows.find((row) => row.username === data.username);
    if (mine) return interpolate(gettext("#%(rank)s of %(count)s"), { rank: mine.rank, count: res.data.count ?? rows.length }, true);
    url = res.data.next;
  }
  return url ? "—" : null; // "—": too far down to look for
}

// ---- Wiring ----

function wire() {
  boardEl.addEventListener("click", (e) => {
    const el = e.target.closest(".cell");
    if (el) select(Number(el.dataset.cell));
  });
  document.addEventListener("keydown", onKey);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("erase").addEventListener("click", erase);
  $("notes-toggle").addEventListener("click", cycleMarkMode);
  $("auto-notes").addEventListener("click", autoNotes);
  $("hint").addEventListener("click", hint);
  $("hint-next").addEventListener("click", hint);
  $("hint-close").addEventListener("click", () => {
    clearHint();
    render();
  });
  $("restart")?.addEventListener("click", restart);
  $("give-up").addEventListener("click", giveUp);
  $("pause").addEventListener("click", () => (S.status === "paused" ? resume() : pause()));
  $("resume").addEventListener("click", resume);
  $("result-close").addEventListener("click", () => $("result").close());
  // Closing the dialog gives focus back to what had it, unless that is now off (the last pad
  // key pressed): focus would stay in the closed dialog, then fall to the top of the page.
  // The board takes it instead.
  $("result").addEventListener("close", () => {
    const back = document.activeElement;
    if (!back || back === document.body || $("result").contains(back)) {
      cells[S.selected].focus({ preventScroll: true });
    }
  });
  for (const box of document.querySelectorAll("[data-aid]")) {
    const aid = box.dataset.aid;
    box.checked = S.aids[aid];
    box.addEventListener("change", () => {
      S.aids[aid] = box.checked;
      render();
      if (data.aids) api("PATCH", urls.aids, { [aid]: box.checked });
      else localStorage.setItem(AIDS_KEY, JSON.stringify(S.aids));
    });
  }
  const numeric = $("numeric");
  if (numeric) {
    numeric.checked = S.numeric;
    numeric.addEventListener("change", () => {
      S.numeric = numeric.checked;
      localStorage.setItem(NUMERIC_KEY, S.numeric ? "1" : "0");
      document.querySelector(".game").classList.toggle("numeric", S.numeric);
      render();
    });
    document.querySelector(".game").classList.toggle("numeric", S.numeric);
  }
  // A hidden tab stops the clock: the server pauses the game.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && playable()) pause(true);
  });
  setInterval(tick, 250);
  setInterval(heartbeat, GAP_MS / 3);
  window.addEventListener("focus", heartbeat);
}

/**
 * This tab paused the game when it was hidden or reloaded, not the player: carry on where it
 * was. The pause sent while unloading may still be on its way (the game is then still at the
 * version it was sent with): the page shows itself paused until it lands, then resumes.
 */
async function resumeAfterReload() {
  const sent = sessionStorage.getItem(AUTO_PAUSE_KEY);
  if (sent === null) return;
  sessionStorage.removeItem(AUTO_PAUSE_KEY);
  const inFlight = S.status === "in_progress" && S.version === Number(sent);
  if (inFlight) {
    const running = S.game;
    S.status = "paused";
    render();
    let landed = false;
    for (let i = 0; i < 20 && !landed; i++) {
      await sleep(150);
      const res = await api("GET", urls.game);
      if (!res.ok) break;
      landed = res.data.status !== "in_progress" || res.data.version !== Number(sent);
      if (landed) adopt(res.data);
    }
    if (!landed) adopt(running); // the pause never came: carry on as loaded
    render();
  }
  // Before any move kept from the last load: those need the game running.
  if (S.status === "paused") S.queue.unshift(simple("resume", urls.resume));
}

// A page the service worker served from its cache carries the game as it was when cached;
// the page's storage has the last game the server sent since.
adopt(snapshotNewer(GAME_ID, data.game) || data.game);
if (!isFinished()) restoreOutbox();
S.selected = Math.max(0, given.indexOf(false));
if (S.game.hint && playable()) showHint({ hint: S.game.hint });
wire();
render();
resumeAfterReload().then(pump);
document.body.dataset.ready = "1";
document.body.dataset.sync = S.queue.length ? "waiting" : "idle";
if (isFinished()) showResult();
if (!isFinished() && data.service_worker) {
  keepPageOffline(data.service_worker).then((kept) => {
    document.body.dataset.offlineReady = kept ? "1" : "0";
  });
}
