// Drawing the game page: the board, the pad, the status, the hint panel and the end dialog.

import { api, cellWhere, clashes, formatMs, paintCell, paintColours, symbol } from "./sudoku.js";
import { $, announce, boardEl, C, cells, data, elapsedNow, enqueue, geo, given, movesWaiting, N, pendingCells, playable, puzzle, S, urls, V, wrapEl } from "./game_state.js";

let padKeys = [];

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

export function render() {
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

export function tick() {
  const text = formatMs(elapsedNow());
  const clock = $("clock");
  if (clock.textContent !== text) clock.textContent = text;
}

/** The pad's keys; `press` enters the key's value. */
export function buildPad(press) {
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
    key.addEventListener("click", () => press(v));
    pad.appendChild(key);
    keys.push(key);
  }
  padKeys = keys;
}

export function flash(cellList) {
  for (const c of cellList) {
    const el = cells[c];
    el.classList.remove("flash");
    void el.offsetWidth; // restart the animation
    el.classList.add("flash");
  }
}

/** Units through `cell` that are now full, clash-free and free of known mistakes. */
export function completedUnits(cell) {
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

// ---- Hints ----

/** Drop the hint and close its panel, also once it was applied (S.hint is then already null).
 * Focus inside the panel goes back to the board rather than being lost with it. */
export function clearHint() {
  const panel = $("hint-panel");
  const hadFocus = panel.contains(document.activeElement);
  S.hint = null;
  panel.hidden = true;
  if (hadFocus) cells[S.selected].focus({ preventScroll: true });
}

export function hint() {
  if (!playable() || S.offline) return;
  const level = S.hint ? Math.min(S.hint.stage + 1, 3) : 1;
  enqueue({ kind: "hint", level, url: urls.hint, body: () => ({ level, version: S.version }) });
}

/** Show what a hint stage revealed: where to look, then the technique, then the move made.
 * ``reveal``: the player just asked for it, so scroll the panel into view (on a phone it
 * opens below the board, out of sight); a hint restored on load does not move the page. */
export function showHint(body, { reveal = false } = {}) {
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

// ---- The finished dialog ----

export async function showResult() {
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
