// The setter's bench on the Solve page: draw a puzzle (givens, Jigsaw regions, lines, cages,
// marks, dots, outside clues, whole-grid rules) with the pointer (mouse or touch) or the
// keyboard, and see live what /api/v1/solver/check/ says of it: 600 ms after the last
// edit, one request in flight (a newer edit aborts the older), saying when the work budget
// or the rate limit stopped it. Then play it here, or take it to SudokuPad or f-puzzles.
// The drawing's data and its f-puzzles form live in bench_model.js, the check in
// bench_check.js, the list of what is drawn in bench_list.js. A Jigsaw region is painted
// by keyboard as a path is drawn: Space or Enter picks up the cell's region and then
// paints cells into it, [ and ] change it, Escape puts it down.

import * as M from "./bench_model.js";
import { buildBoard, cellWhere, paintCell, symbol, toast, unitName, valueOf } from "./sudoku.js";
import { checkVerdict, loadDrawing } from "./setter.js";
import { checker, verdict } from "./bench_check.js";
import { listDrawn } from "./bench_list.js";

const $ = (id) => document.getElementById(id);

let data = null;
let W = (t) => t;
let drawing = null; // variants.js and constraints.js
let m = M.emptyModel(6);
let cells = [];
let geo = null;
let check = null; // bench_check.js's live check of the drawing
// hold: the region the keyboard paints with (null: none picked up)
const B = { sel: 0, path: [], drag: null, answer: null, hold: null };

const tool = () => document.querySelector("input[name=bench-tool]:checked");
const kindOf = (t) => t.dataset.kind;
const say = (text, vars) => interpolate(W(text), vars || {}, true);

function number() {
  const raw = $("bench-number").value.trim();
  const v = Number(raw);
  return raw !== "" && Number.isInteger(v) && v >= 0 ? v : null;
}

/** The drawing as the page shows it, with the path being drawn as a preview. */
function shownRules() {
  const rules = M.drawnRules(m);
  const t = tool().value;
  if (B.path.length > 1 && M.LINE_TOOLS.includes(t)) {
    const preview = t === "arrow" ? { type: "arrow", circle: [B.path[0]], line: B.path.slice(1) } : { type: t, cells: B.path };
    rules.constraints = [...rules.constraints, preview];
  } else if (B.path.length && t === "extra_region") {
    rules.constraints = [...rules.constraints, { type: t, cells: B.path.slice() }];
  } else if (B.path.length && t === "cage") {
    rules.cages = [...rules.cages.filter((cage) => !cage.cells.some((c) => B.path.includes(c))), { cells: B.path.slice(), sum: null }];
  }
  return rules;
}

function render() {
  const wrap = $("bench-wrap");
  const focused = wrap.contains(document.activeElement);
  const rules = shownRules();
  geo = drawing.V.variantGeometry(rules);
  for (const old of wrap.querySelectorAll("svg.constraints")) old.remove();
  for (const old of wrap.parentElement.querySelectorAll(".constraint-rules")) old.remove();
  cells = buildBoard($("bench-board"), geo, interpolate(gettext("Your puzzle, %(n)s by %(n)s"), { n: m.size }, true));
  drawing.V.drawRules(cells, geo);
  drawing.C.drawConstraints(wrap, rules, data.constraint_words);
  const shown = (B.answer && B.answer.shown) || [];
  const marked = new Set((B.answer && B.answer.marked) || []);
  // Which region each cell is in, said while regions are drawn (the boxes say nothing).
  const regionWords = tool().value === "region" || !M.plainRegions(m);
  cells.forEach((el, c) => {
    const v = m.givens[c] || shown[c] || 0;
    paintCell(el, v, null, geo, false);
    el.classList.toggle("given", Boolean(m.givens[c]));
    el.classList.toggle("solved", !m.givens[c] && Boolean(shown[c]));
    el.classList.toggle("differ", marked.has(c));
    el.classList.toggle("selected", c === B.sel);
    el.classList.toggle("hint", B.path.includes(c) || m.regions[c] === B.hold);
    el.tabIndex = c === B.sel ? 0 : -1;
    el.setAttribute("aria-selected", c === B.sel ? "true" : "false");
    const region = regionWords ? say("region %(number)s", { number: m.regions[c] + 1 }) : "";
    const words = [cellWhere(geo, c), v ? symbol(v) : gettext("empty"), region, ...drawing.V.ruleWords(geo, c), ...drawing.C.constraintWords(rules, c)];
    el.setAttribute("aria-label", words.filter(Boolean).join(gettext(", ")));
  });
  if (focused) cells[B.sel].focus();
  $("bench-path").textContent = B.path.length
    ? say("Path: %(count)s cells. Space or Enter adds a cell, Escape ends it.", { count: B.path.length })
    : B.hold !== null
      ? say("Painting region %(number)s: Space or Enter paints a cell into it, [ and ] change the region, Escape ends.", { number: B.hold + 1 })
      : "";
  for (const box of document.querySelectorAll("input[name=bench-toggle]")) box.checked = M.toggleOn(m, box.value);
  for (const input of document.querySelectorAll("input[name=bench-size]")) input.checked = Number(input.value) === m.size;
  listDrawn($("bench-list"), m, W, changed);
}

/** The drawing changed: draw it, and check it once the setter pauses. */
function changed() {
  B.answer = null;
  render();
  if (!m.givens.some(Boolean) && !M.drawnList(m).length) {
    check.cancel();
    verdict(W("Draw givens or constraints: the count shows here as you draw."), "");
    return;
  }
  check.schedule();
}

function showAnswer(a) {
  let found;
  if (a.conflicts.length) {
    const first = a.conflicts[0];
    const text = interpolate(
      gettext("The givens clash: %(first)s and %(second)s share %(value)s in %(unit)s."),
      { first: first.cell_names[0], second: first.cell_names[1], value: symbol(first.value), unit: unitName(geo, first.unit) },
      true,
    );
    found = { text, tone: "bad", marked: first.cells, shown: null };
  } else {
    found = checkVerdict(a, m.givens);
  }
  B.answer = found;
  render();
  return found;
}

// ---- Drawing with the pointer (mouse, pen and touch alike) and the keyboard ----------

/** The cell under a pointer and where in it (0..1 across and down), or null outside. */
function at(e) {
  const box = $("bench-board").getBoundingClientRect();
  const x = ((e.clientX - box.left) / box.width) * m.size;
  const y = ((e.clientY - box.top) / box.height) * m.size;
  if (x < 0 || y < 0 || x >= m.size || y >= m.size) return null;
  return { cell: Math.floor(y) * m.size + Math.floor(x), fx: x % 1, fy: y % 1 };
}

/** Apply a one-cell tool at c (a mark, an outside clue) or start a path there. */
function actAt(c) {
  const t = tool();
  if (t.value === "odd" || t.value === "even") M.toggleMark(m, t.value, c);
  else if (t.value === "sandwich" || t.value === "little_killer") {
    const sum = number();
    if (sum === null) {
      toast(W("Give a number first."));
      $("bench-number").focus();
      return;
    }
    if (t.value === "sandwich") M.addSandwich(m, $("bench-line").value, c, sum);
    else M.addLittleKiller(m, $("bench-direction").value, c, sum);
  } else return;
  changed();
}

/** The region numbered in Number (from 0), or `otherwise`. */
function numberedRegion(otherwise) {
  const n = number();
  return n !== null && n >= 1 && n <= m.size ? n - 1 : otherwise;
}

/** Put cell c in `region`; false when it is there already. */
function paint(c, region) {
  if (m.regions[c] === region) return false;
  m.regions[c] = region;
  return true;
}

/** Space or Enter with the Regions tool: pick up the cell's region (or the numbered one)
 * the first time, then paint the cell into the region held. */
function paintByKey() {
  if (B.hold === null) B.hold = numberedRegion(m.regions[B.sel]);
  if (paint(B.sel, B.hold)) changed();
  else render();
}

function extend(c) {
  const path = B.path;
  if (path[path.length - 1] === c) return;
  if (path.length > 1 && path[path.length - 2] === c) path.pop(); // dragging back undoes
  else if (!path.includes(c)) path.push(c);
}

/** End the path being drawn: add it as the tool's item (or drop it when too short). */
function finish() {
  const path = B.path;
  B.path = [];
  if (!path.length) return render();
  const t = tool().value;
  if (M.addPath(m, t, path, number())) changed();
  else {
    if (M.DOT_TOOLS.includes(t) && path.length === 2) toast(W("Pick two cells side by side."));
    else if (path.length > m.size) toast(W("Too many cells for this tool: nothing added."));
    else if (path.length > 1) toast(W("Too short for this tool: nothing added."));
    render();
  }
}

function onPointerDown(e) {
  const hit = at(e);
  if (!hit || e.button > 0) return;
  e.preventDefault();
  B.sel = hit.cell;
  const kind = kindOf(tool());
  if (kind === "cell") {
    render();
    cells[B.sel].focus();
    actAt(hit.cell);
    return;
  }
  $("bench-wrap").setPointerCapture(e.pointerId);
  B.drag = { start: hit, region: numberedRegion(m.regions[hit.cell]) };
  if (kind === "paint") {
    if (paint(hit.cell, B.drag.region)) changed();
    else render();
  } else {
    B.path = [hit.cell];
    render();
  }
  cells[B.sel].focus();
}

function onPointerMove(e) {
  if (!B.drag) return;
  const hit = at(e);
  // A cell counts once the pointer is near its middle: a diagonal drag cuts no corners.
  if (!hit || Math.hypot(hit.fx - 0.5, hit.fy - 0.5) > 0.42) return;
  const kind = kindOf(tool());
  if (kind === "paint") {
    if (paint(hit.cell, B.drag.region)) changed();
    return;
  }
  const before = B.path.length;
  extend(hit.cell);
  if (kind === "dot" && B.path.length > 2) B.path = B.path.slice(0, 2);
  if (B.path.length !== before || B.path[B.path.length - 1] !== hit.cell) render();
}

function onPointerUp() {
  const drag = B.drag;
  if (!drag) return;
  B.drag = null;
  const kind = kindOf(tool());
  if (kind === "paint") return;
  if (kind === "dot" && B.path.length === 1) {
    // A click near an edge puts the dot on that edge.
    const { cell, fx, fy } = drag.start;
    const n = m.size;
    const sides = [[fy, cell - n], [1 - fy, cell + n], [fx, cell - 1], [1 - fx, cell + 1]];
    const [dist, other] = sides.sort((p, q) => p[0] - q[0])[0];
    B.path = [];
    if (dist < 0.3 && other >= 0 && other < n * n && M.neighbours(n, cell, other)) {
      M.toggleDot(m, tool().value, cell, other);
      changed();
    } else render();
    return;
  }
  if (B.path.length === 1 && kind === "line") {
    B.path = []; // a click only selects the cell (a one-cell cage or renban: Space, Escape)
    render();
    return;
  }
  finish();
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const n = m.size;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const t = tool();
  if (arrows[e.key]) {
    e.preventDefault();
    const [dr, dc] = arrows[e.key];
    B.sel = ((Math.floor(B.sel / n) + dr + n) % n) * n + (((B.sel % n) + dc + n) % n);
    render();
    cells[B.sel].focus();
    return;
  }
  if (e.key === " " || e.key === "Enter") {
    e.preventDefault();
    const kind = kindOf(t);
    if (kind === "cell") actAt(B.sel);
    else if (kind === "paint") paintByKey();
    else {
      extend(B.sel);
      if (kind === "dot" && B.path.length === 2) finish();
      else render();
    }
    return;
  }
  if ((e.key === "[" || e.key === "]") && kindOf(t) === "paint") {
    e.preventDefault();
    const from = B.hold === null ? m.regions[B.sel] : B.hold;
    B.hold = (from + (e.key === "]" ? 1 : n - 1)) % n;
    render();
    return;
  }
  if (e.key === "Escape") {
    e.preventDefault();
    B.hold = null;
    finish();
    return;
  }
  const v = e.key === "Backspace" || e.key === "Delete" || e.key === "0" || e.key === "." ? 0 : e.key.length === 1 ? valueOf(e.key) : -1;
  if (v >= 0 && v <= n) {
    e.preventDefault();
    if (m.givens[B.sel] !== v) {
      m.givens[B.sel] = v;
      changed();
    }
  }
}

function setMode(draw) {
  if ($("bench")) $("bench").hidden = !draw;
  document.querySelector(".solve").hidden = draw;
  $("mode-draw").setAttribute("aria-pressed", String(draw));
  $("mode-solve").setAttribute("aria-pressed", String(!draw));
  $("mode-draw").classList.toggle("button-ghost", !draw);
  $("mode-solve").classList.toggle("button-ghost", draw);
}

/** Open the bench (loading the drawing modules the first time). `start`: a drawing to go on from. */
export async function openBench(pageData, start = null) {
  data = pageData;
  const words = data.bench_words || {};
  W = (t) => words[t] || t;
  if (!drawing) {
    drawing = await loadDrawing(data.urls.variants_css);
    const template = $("bench-template");
    template.replaceWith(template.content.cloneNode(true));
    check = checker({ urls: data.urls, W, body: () => ({ fpuzzles: M.toFpuzzles(m) }), onAnswer: showAnswer });
    wire();
  }
  if (start) m = start;
  B.hold = null;
  setMode(true);
  changed();
}

export function closeBench() {
  setMode(false);
}

function wire() {
  const wrap = $("bench-wrap");
  wrap.addEventListener("pointerdown", onPointerDown);
  wrap.addEventListener("pointermove", onPointerMove);
  wrap.addEventListener("pointerup", () => {
    onPointerUp();
    // The board is redrawn under the pointer: keys go on to the selected cell afterwards.
    setTimeout(() => cells[B.sel].focus());
  });
  wrap.addEventListener("pointercancel", onPointerUp);
  $("bench-board").addEventListener("keydown", onKey);
  for (const input of document.querySelectorAll("input[name=bench-tool]")) {
    input.addEventListener("change", () => {
      B.path = [];
      B.hold = null;
      render();
    });
  }
  for (const box of document.querySelectorAll("input[name=bench-toggle]")) {
    box.addEventListener("change", () => {
      M.setToggle(m, box.value, box.checked);
      changed();
    });
  }
  for (const input of document.querySelectorAll("input[name=bench-size]")) {
    input.addEventListener("change", () => {
      m = M.emptyModel(Number(input.value));
      B.sel = 0;
      B.hold = null;
      changed();
    });
  }
  $("bench-clear").addEventListener("click", () => {
    m = M.emptyModel(m.size);
    B.path = [];
    B.hold = null;
    changed();
  });
  $("bench-play").addEventListener("click", () => check.play());
  $("bench-number").addEventListener("input", () => {
    if (B.hold === null) return;
    B.hold = null; // the next Space picks up the region numbered now
    render();
  });
}
