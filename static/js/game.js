// The game page: draws the board from the server's game object and drives it through the
// game API (/api/v1/games/<id>/...). The server owns correctness, the clock, hints and the
// score; the page only shows clashes it can see on the board and answers instantly while the
// move travels. Here: the player's input, and the start; game_state.js keeps the game and
// talks to the server, game_board.js draws.

import { api, candidates, cellWhere, symbol, toast, valueOf } from "./sudoku.js";
import { keepPageOffline, snapshotNewer } from "./offline.js";
import {
  $,
  adopt,
  AIDS_KEY,
  announce,
  AUTO_PAUSE_KEY,
  boardEl,
  cells,
  clearMarks,
  data,
  elapsedNow,
  enqueue,
  GAME_ID,
  GAP_MS,
  geo,
  given,
  heartbeat,
  isFinished,
  moveTask,
  N,
  NUMERIC_KEY,
  playable,
  pump,
  restoreOutbox,
  S,
  simple,
  sleep,
  urls,
} from "./game_state.js";
import { buildPad, clearHint, hint, render, showHint, showResult, tick } from "./game_board.js";

// ---- Player actions ----

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

buildPad(enter);
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
