// A lesson's example: the position the solver reached just before it used the technique,
// stepped through in stages (the board, the units, the pattern, the conclusion, after it).
// A variant's example (Killer) carries its rules: variants.js, loaded for it only, draws
// them as the game page does. A constraint's example carries its constraints, drawn by
// constraints.js (loaded for it only) over the board.

import { buildBoard, cellWhere, geometry, pageData, parseBoard, symbol } from "./sudoku.js";

const ex = pageData("lesson-data");
const $ = (id) => document.getElementById(id);
const V = ex.variant && ex.variant !== "classic" ? await import("./variants.js") : null;
const C = ex.constraints?.length ? await import("./constraints.js") : null;
const geo = V ? V.variantGeometry(ex) : geometry(ex.size, ex.box_rows, ex.box_cols);
const givens = parseBoard(ex.givens, ex.size * ex.size);
const values = parseBoard(ex.values, ex.size * ex.size);
const step = ex.step;
// A cage's or a constraint's step names no house: its cells are what to look at.
const unitCells = new Set((V || C) && !step.units.length ? step.cells : step.units.flatMap((u) => geo.units[u]));
const pattern = new Set(step.cells);
const elim = new Set(step.eliminations.map((e) => `${e.cell}:${e.value}`));
const place = new Map(step.placements.map((p) => [p.cell, p.value]));
const units = step.unit_names.join(gettext(", "));

const STAGES = [
  gettext("The position the solver reached, with every cell's candidates."),
  units ? interpolate(gettext("Look at %(where)s."), { where: units }, true) : gettext("Look at the highlighted cells."),
  interpolate(gettext("The pattern: %(cells)s."), { cells: step.cell_names.join(gettext(", ")) }, true),
  // A constraint's extra peers are shown on a single: first why the cell takes its value.
  ex.single ? `${ex.single.sentence} ${step.sentence}` : step.sentence,
  step.placements.length
    ? gettext("After the step: the value is placed.")
    : interpolate(
        ngettext(
          "After the step: %(count)s candidate removed.",
          "After the step: %(count)s candidates removed.",
          step.eliminations.length,
        ),
        { count: step.eliminations.length },
        true,
      ),
];

const cells = buildBoard($("lesson-board"), geo, interpolate(gettext("%(name)s example, %(n)s by %(n)s"), { name: $("lesson-board").dataset.name || step.name, n: ex.size }, true));
// Drawn first: it also sets the translated words constraintWords() reads.
if (C) C.drawConstraints($("lesson-board").parentElement, ex, ex.constraint_words);
// A variant's cells name their cage for screen readers ("row 1, column 2, cage of 2 cells,
// sum 11"), a constraint's cells where they sit on it, in hidden text before the value: an
// aria-label would hide the candidates shown.
const ruleWords = (c) => [...(V ? V.ruleWords(geo, c) : []), ...(C ? C.constraintWords(ex, c) : [])];
const where = V || C ? cells.map((_, c) => [cellWhere(geo, c), ...ruleWords(c)].join(gettext(", ")) + gettext(", ")) : null;
function withWhere(c, content) {
  if (!where) return [content];
  const s = document.createElement("span");
  s.className = "visually-hidden";
  s.textContent = where[c];
  return [s, content];
}
if (V) V.drawRules(cells, geo);
let stage = 0;

function paint() {
  const after = stage >= 4;
  for (let c = 0; c < cells.length; c++) {
    const el = cells[c];
    const value = values[c] || (after && place.get(c)) || 0;
    el.classList.toggle("given", Boolean(givens[c]));
    el.classList.toggle("hint-unit", stage >= 1 && unitCells.has(c));
    el.classList.toggle("hint", stage >= 2 && (pattern.has(c) || place.has(c)));
    if (value) {
      const v = document.createElement("span");
      v.className = "v";
      v.textContent = symbol(value);
      el.replaceChildren(...withWhere(c, v));
      continue;
    }
    const box = document.createElement("span");
    box.className = "notes";
    box.setAttribute("aria-hidden", "true");
    const cand = new Set(ex.candidates[c]);
    for (let d = 1; d <= geo.n; d++) {
      const s = document.createElement("span");
      const key = `${c}:${d}`;
      if (cand.has(d) && !(after && elim.has(key))) {
        s.textContent = symbol(d);
        if (stage === 3 && elim.has(key)) s.className = "elim";
        if (stage === 3 && place.get(c) === d) s.className = "place";
      }
      box.appendChild(s);
    }
    el.replaceChildren(...withWhere(c, box));
  }
  $("lesson-stage").textContent = `${stage + 1}/${STAGES.length}. ${STAGES[stage]}`;
  $("lesson-back").disabled = stage === 0;
  const last = stage === STAGES.length - 1;
  // The last stage offers to practise instead of a dead "Next" (a lesson without practice,
  // a constraint's, just stops).
  const practise = $("lesson-practise");
  $("lesson-next").hidden = last && Boolean(practise);
  $("lesson-next").disabled = last;
  if (practise) practise.hidden = !last;
}

$("lesson-next").addEventListener("click", () => {
  stage = Math.min(stage + 1, STAGES.length - 1);
  paint();
});
$("lesson-back").addEventListener("click", () => {
  stage = Math.max(stage - 1, 0);
  paint();
});
paint();
