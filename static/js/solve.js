// The solve-your-own page: enter a puzzle by clicking and typing or by pasting text, see
// clashes at once, then ask /api/v1/solver/analyse/ how many solutions it has, its grade and
// its logical steps; step through them on the board, or start a game on the puzzle.
// The setter's bench: "Check as a setter" asks /api/v1/solver/check/ for the solution count
// (two solutions shown apart by the cells that differ), the grade and where the logic
// stalls, never the solution. A pasted SudokuPad or f-puzzles link or JSON keeps its rules
// and constraints while the givens are edited on the board. "Draw a puzzle" opens the
// setter's bench (bench.js, loaded then), from a pasted puzzle's rules if there is one;
// /solve/?puzzle=<shared text> (the bench's own link) loads that puzzle here.
// The verdict and the steps are shown by solve_analysis.js.

import {
  api,
  boardString,
  buildBoard,
  cellWhere,
  clashes,
  errorMessage,
  geometry,
  pageData,
  paintCell,
  parseBoard,
  symbol,
  toast,
  valueOf,
} from "./sudoku.js";
import { checkVerdict, loadDrawing, looksLikeSource } from "./setter.js";
import { conflictText, showAnalysis, showSteps, verdict } from "./solve_analysis.js";

const data = pageData("solve-data");
const $ = (id) => document.getElementById(id);
const SHAPES = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4], 25: [5, 5] };

const S = {
  geo: null,
  values: [], // the puzzle's givens as typed
  shown: [], // values the steps or the solution put in, drawn in another colour
  stepCells: new Set(),
  selected: 0,
  analysis: null, // the last answer, for the board it was made for
  analysedBoard: "",
  loadedText: "",
  failedText: "", // pasted text the solver could not read: Solve waits for a fix
  step: 0,
  source: null, // a pasted f-puzzles source: its rules go with every check of the givens
  sourceAnswer: null, // the check's answer for it: the bench draws on from its rules
  sourceGrid: "", // the source's own givens: a game opens on the source while they stand
};

let cells = [];
let padKeys = [];

let drawing = null; // variants.js and constraints.js, loaded for the first pasted source

function setShape(n, boxRows, boxCols, values, rules = null) {
  S.geo = rules && drawing ? drawing.V.variantGeometry(rules) : geometry(n, boxRows, boxCols);
  S.values = values || new Array(n * n).fill(0);
  S.shown = new Array(n * n).fill(0);
  S.selected = Math.min(S.selected, n * n - 1);
  const wrap = $("solve-wrap");
  for (const old of wrap.querySelectorAll("svg.constraints")) old.remove();
  for (const old of document.querySelectorAll(".constraint-rules")) old.remove();
  cells = buildBoard($("solve-board"), S.geo, interpolate(gettext("Your puzzle, %(n)s by %(n)s"), { n }, true));
  if (rules && drawing) {
    drawing.V.drawRules(cells, S.geo);
    drawing.C.drawConstraints(wrap, rules, data.constraint_words);
  }
  document.querySelector(".solve").classList.toggle("size-16", n > 9);
  for (const input of document.querySelectorAll("input[name=solve-size]")) {
    input.checked = Number(input.value) === n;
  }
  buildPad();
  forget();
}

function buildPad() {
  const pad = $("solve-pad");
  const n = S.geo.n;
  pad.textContent = "";
  // The digits and an erase key: one row up to 9x9, two rows of nine for 16x16.
  const columns = n > 9 ? Math.ceil((n + 1) / 2) : n + 1;
  pad.style.setProperty("--pad-wide", columns);
  pad.style.setProperty("--pad-narrow", columns);
  padKeys = [];
  for (let v = 0; v <= n; v++) {
    const key = document.createElement("button");
    key.type = "button";
    key.className = "pad-key";
    key.textContent = v ? symbol(v) : "⌫";
    key.setAttribute(
      "aria-label",
      v ? interpolate(gettext("Enter %(value)s"), { value: symbol(v) }, true) : gettext("Clear the cell"),
    );
    key.addEventListener("click", () => put(v));
    pad.appendChild(key);
    padKeys.push(key);
  }
}

/** Drop the answer: the board changed, so it no longer applies. */
function forget() {
  S.failedText = "";
  S.analysis = null;
  S.analysedBoard = "";
  S.step = 0;
  S.shown.fill(0);
  S.stepCells = new Set();
  $("verdict").hidden = true;
  $("steps-box").hidden = true;
  $("play-it").hidden = true;
  $("steps").textContent = "";
  render();
}

function render() {
  const geo = S.geo;
  const clash = clashes(S.values, geo);
  const sel = S.selected;
  for (let c = 0; c < geo.ncells; c++) {
    const el = cells[c];
    const own = S.values[c];
    const v = own || S.shown[c];
    el.classList.toggle("given", Boolean(own));
    el.classList.toggle("solved", !own && Boolean(S.shown[c]));
    el.classList.toggle("clash", clash.has(c));
    el.classList.toggle("selected", c === sel);
    el.classList.toggle("hint", S.stepCells.has(c));
    el.classList.toggle(
      "peer",
      c !== sel && (geo.rowOf[c] === geo.rowOf[sel] || geo.colOf[c] === geo.colOf[sel] || geo.boxOf[c] === geo.boxOf[sel]),
    );
    el.tabIndex = c === sel ? 0 : -1;
    el.setAttribute("aria-selected", c === sel ? "true" : "false");
    paintCell(el, v, null, geo, false);
    const parts = [cellWhere(geo, c), v ? symbol(v) : gettext("empty")];
    if (S.shown[c] && !own) parts.push(gettext("solved"));
    if (clash.has(c)) parts.push(gettext("clashes"));
    el.setAttribute("aria-label", parts.join(gettext(", ")));
  }
  const count = S.values.filter(Boolean).length;
  const text = $("puzzle-text").value.trim();
  const pending = text !== S.loadedText;
  // Text that failed to load stays in the box with its error: solving now would solve
  // whatever the grid held before, not the puzzle the player pasted.
  const unread = S.failedText !== "" && text === S.failedText;
  for (const button of [$("solve-button"), $("check-button")]) {
    button.disabled = clash.size > 0 || unread || (count === 0 && !pending && !S.source);
    button.title = clash.size ? gettext("Fix the red cells first.") : unread ? gettext("Fix the pasted puzzle first.") : "";
  }
  $("solve-board").setAttribute("aria-invalid", clash.size ? "true" : "false");
}

function put(v) {
  if (S.values[S.selected] === v) return;
  S.values[S.selected] = v;
  forget();
}

function select(c) {
  S.selected = c;
  render();
  cells[c].focus();
}

/** Read simple layouts here (one char per cell); anything else goes to the server's parser. */
function quickParse(text) {
  const chars = [...text.replace(/[\s|+=\-]/g, "")];
  const n = Math.round(Math.sqrt(chars.length));
  if (n * n !== chars.length || !SHAPES[n] || n > 9) return null;
  if (!chars.every((ch) => ch === "." || ch === "0" || ch === "_" || (valueOf(ch) >= 1 && valueOf(ch) <= n))) return null;
  return { n, values: chars.map(valueOf).map((v) => (v > n ? 0 : v)) };
}

/** Ask the solver about a grid; a failure shows in the verdict. */
async function analyse(text) {
  const res = await api("POST", data.urls.analyse, { grid: text });
  if (!res.ok) verdict(errorMessage(res.data, gettext("The solver could not read that puzzle.")), "bad");
  return res;
}

function adoptGrid(a) {
  const values = parseBoard(a.grid, a.size * a.size);
  if (a.size !== S.geo.n || a.box_rows !== S.geo.boxRows) setShape(a.size, a.box_rows, a.box_cols, values);
  else {
    S.values = values;
    forget();
  }
}


/** Ask the setter's check about the board (with the pasted source's rules, if any). */
async function check({ solve = false, fresh = null } = {}) {
  const body = fresh ? { fpuzzles: fresh } : S.source ? { fpuzzles: S.source, grid: boardString(S.values) } : { grid: boardString(S.values) };
  if (solve) body.solve = true;
  const res = await api("POST", data.urls.check, body);
  if (!res.ok) verdict(errorMessage(res.data, gettext("The solver could not read that puzzle.")), "bad");
  return res;
}

function sourceNote(a) {
  const note = $("source-note");
  note.hidden = !S.source;
  if (!S.source) return;
  const count = (a.constraints || []).length + (a.cages || []).length;
  note.textContent = interpolate(
    gettext("Rules kept from the pasted puzzle: %(variant)s, %(count)s cages and constraints. Edit the givens on the board and check again."),
    { variant: a.variant, count },
    true,
  );
}

async function loadSource(text) {
  verdict(gettext("Checking…"), "");
  const res = await check({ fresh: text });
  if (!res.ok) {
    if (res.status >= 400 && res.status < 500 && res.status !== 429) S.failedText = text;
    render();
    return null;
  }
  S.source = text;
  S.loadedText = text;
  drawing = await loadDrawing(data.urls.variants_css);
  const a = res.data;
  S.sourceAnswer = a;
  S.sourceGrid = a.grid;
  setShape(a.size, a.box_rows, a.box_cols, parseBoard(a.grid, a.size * a.size), a);
  sourceNote(a);
  return res.data;
}

async function load() {
  const text = $("puzzle-text").value.trim();
  if (!text) {
    toast(gettext("Type or paste a puzzle first."));
    return;
  }
  if (looksLikeSource(text)) {
    const a = await loadSource(text);
    if (a) showCheck(a);
    return;
  }
  S.source = null;
  sourceNote(null);
  const quick = quickParse(text);
  if (quick) {
    S.loadedText = text;
    const [br, bc] = SHAPES[quick.n];
    setShape(quick.n, br, bc, quick.values);
    return;
  }
  const res = await analyse(text);
  if (res.ok) {
    const a = res.data;
    S.loadedText = text;
    adoptGrid(a);
    S.analysis = a;
    S.analysedBoard = boardString(S.values);
    if (a.conflicts.length) verdict(conflictText(a, S.geo), "bad");
    return;
  }
  // The grid still holds what it held before, so it must not be solved as if it were this
  // text. The solver rejected the text itself: Solve waits until it changes. Anything else
  // (no connection, busy): the text stays pending, so Solve tries it again.
  const rejected = res.status >= 400 && res.status < 500 && res.status !== 429;
  if (rejected) S.failedText = text;
  render();
}

async function checkNow({ solve = false } = {}) {
  const text = $("puzzle-text").value.trim();
  if (S.failedText && text === S.failedText) return;
  if (text && text !== S.loadedText) {
    if (looksLikeSource(text)) {
      const a = await loadSource(text);
      if (!a) return;
      if (!solve) {
        showCheck(a);
        return;
      }
    } else {
      await load();
      if (text !== S.loadedText) return;
    }
  }
  $("check-button").disabled = true;
  verdict(gettext("Checking…"), "");
  const res = await check({ solve });
  render();
  if (res.ok) showCheck(res.data);
}

/** What the setter's check found: count, the cells two solutions differ in, grade, stall. */
function showCheck(a) {
  S.step = 0;
  S.shown.fill(0);
  $("steps").textContent = "";
  $("steps-box").hidden = true;
  const found = a.conflicts.length ? { text: conflictText(a, S.geo), tone: "bad", marked: [], shown: null } : checkVerdict(a, S.values);
  S.stepCells = new Set(found.marked);
  if (found.shown) S.shown = found.shown;
  // A game opens on a pasted puzzle with its own givens (the games API takes it whole).
  $("play-it").hidden = found.tone !== "good" || (Boolean(S.source) && boardString(S.values) !== S.sourceGrid);
  verdict(found.text, found.tone);
  render();
}

async function solveNow() {
  const text = $("puzzle-text").value.trim();
  if (S.source || looksLikeSource(text)) {
    await checkNow({ solve: true });
    return;
  }
  if (S.failedText && text === S.failedText) return;
  if (text && text !== S.loadedText) {
    await load();
    if (text !== S.loadedText || S.values.every((v) => !v)) return;
  }
  const board = boardString(S.values);
  let a = S.analysedBoard === board ? S.analysis : null;
  if (!a) {
    $("solve-button").disabled = true;
    verdict(gettext("Solving…"), "");
    const res = await analyse(board);
    render();
    if (!res.ok) return;
    a = res.data;
    S.analysis = a;
    S.analysedBoard = board;
  }
  showAnalysis(S, a, render);
}

async function playIt() {
  const board = boardString(S.values);
  if (S.source && board !== S.sourceGrid) return; // the edited givens lose the rules as a grid
  const body = S.source ? { fpuzzles: S.source } : { grid: board };
  const res = await api("POST", data.urls.games, body);
  if (res.ok && res.data.id) {
    window.location.assign(`${data.urls.play}${res.data.id}/`);
  } else {
    toast(errorMessage(res.data, gettext("That puzzle cannot be played.")));
  }
}

function onKey(e) {
  if (e.target.closest("input, textarea, select, button, #bench")) return;
  if (document.querySelector(".solve").hidden) return; // the bench has the board
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const geo = S.geo;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[e.key]) {
    e.preventDefault();
    const [dr, dc] = arrows[e.key];
    const r = (geo.rowOf[S.selected] + dr + geo.n) % geo.n;
    const k = (geo.colOf[S.selected] + dc + geo.n) % geo.n;
    select(r * geo.n + k);
    return;
  }
  if (e.key === "Backspace" || e.key === "Delete" || e.key === "0" || e.key === ".") {
    e.preventDefault();
    put(0);
    return;
  }
  if (e.key.length === 1) {
    const v = valueOf(e.key);
    if (v >= 1 && v <= geo.n) {
      e.preventDefault();
      put(v);
    }
  }
}

function wire() {
  $("solve-board").addEventListener("click", (e) => {
    const el = e.target.closest(".cell");
    if (el) select(Number(el.dataset.cell));
  });
  document.addEventListener("keydown", onKey);
  for (const input of document.querySelectorAll("input[name=solve-size]")) {
    input.addEventListener("change", () => {
      const n = Number(input.value);
      S.source = null;
      $("source-note").hidden = true;
      setShape(n, ...SHAPES[n]);
    });
  }
  $("load").addEventListener("click", load);
  // Simple layouts fill the grid as they are typed or pasted; others load on Solve.
  $("puzzle-text").addEventListener("input", () => {
    const text = $("puzzle-text").value.trim();
    const quick = quickParse(text);
    if (quick) {
      S.loadedText = text;
      S.source = null;
      $("source-note").hidden = true;
      setShape(quick.n, ...SHAPES[quick.n], quick.values);
    } else {
      render();
    }
  });
  $("clear").addEventListener("click", () => {
    S.values.fill(0);
    if (S.source) setShape(S.geo.n, S.geo.boxRows, S.geo.boxCols);
    S.source = null;
    $("source-note").hidden = true;
    $("puzzle-text").value = "";
    forget();
  });
  $("solve-button").addEventListener("click", solveNow);
  $("check-button").addEventListener("click", () => checkNow());
  $("play-it").addEventListener("click", playIt);
  $("step-next").addEventListener("click", () => showSteps(S, S.step + 1, render));
  $("step-all").addEventListener("click", () => showSteps(S, S.analysis.steps.length, render));
  $("step-reset").addEventListener("click", () => showSteps(S, 0, render));
  $("mode-draw").addEventListener("click", async () => {
    const bench = await import("./bench.js");
    const model = await import("./bench_model.js");
    const start = S.source && S.sourceAnswer ? model.fromAnswer(S.sourceAnswer, S.values) : null;
    S.sourceAnswer = null; // drawn on once: the bench keeps its own drawing after that
    bench.openBench(data, start);
  });
  $("mode-solve").addEventListener("click", async () => (await import("./bench.js")).closeBench());
}

/** A link from the bench (/solve/?puzzle=...) opens with its puzzle loaded and checked. */
function openShared() {
  const shared = new URLSearchParams(window.location.search).get("puzzle");
  if (!shared) return;
  $("puzzle-text").value = shared;
  load();
}

setShape(9, 3, 3);
wire();
openShared();
document.body.dataset.ready = "1";
