// The setter's bench on the Solve page: what /api/v1/solver/check/ found, put in words and
// on the board (never the solution unless asked), and the drawing of a pasted puzzle's rules.

import { LEVEL_NAMES, parseBoard, symbol } from "./sudoku.js";

/** A SudokuPad or f-puzzles link, its JSON or its compressed text. */
export function looksLikeSource(text) {
  return /^(https?:|sudokupad:|\{|N4Ig)/i.test(text) || /f-puzzles\.com|sudokupad\.app/i.test(text);
}

/** variants.js and constraints.js (and their styles), loaded once for a pasted source. */
export async function loadDrawing(cssUrl) {
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = cssUrl;
  document.head.appendChild(css);
  const [V, C] = await Promise.all([import("./variants.js"), import("./constraints.js")]);
  return { V, C };
}

/** The check's verdict: its text and tone, the cells to mark (where two solutions differ)
 * and the values to show on the board (the logic's stall, or the solution when asked),
 * none over the givens in `values`. */
export function checkVerdict(a, values) {
  const over = (text) => parseBoard(text, a.size * a.size).map((v, c) => (values[c] ? 0 : v));
  if (a.contradiction) {
    return { text: interpolate(gettext("No solution: %(why)s."), { why: a.contradiction }, true), tone: "bad", marked: [], shown: null };
  }
  if (a.solutions === 0) {
    return { text: gettext("No solution: these givens lead to a contradiction."), tone: "bad", marked: [], shown: null };
  }
  if (a.solutions > 1) {
    const d = a.difference;
    const where = d.cell_names.map((name, i) => `${name} ${symbol(d.first[i])}/${symbol(d.second[i])}`).join(gettext(", "));
    const text = interpolate(
      gettext("Two or more solutions. Two of them differ in %(count)s cells (marked): %(cells)s."),
      { count: d.cells.length, cells: where },
      true,
    );
    return { text, tone: "bad", marked: d.cells, shown: null };
  }
  const level = LEVEL_NAMES[a.level] || a.level;
  const hardest = a.hardest_name || a.hardest || "—";
  const text = a.stall
    ? interpolate(
        gettext("One solution. Grade: %(level)s (hardest step: %(hardest)s). The logic stalls after placing %(placed)s values, with %(empty)s cells left: the board shows where it stops."),
        { level, hardest, placed: a.stall.placed, empty: a.stall.empty },
        true,
      )
    : interpolate(gettext("One solution. Grade: %(level)s (hardest step: %(hardest)s); logic alone solves it."), { level, hardest }, true);
  const shown = a.solution ? over(a.solution) : a.stall ? over(a.stall.grid) : null;
  return { text, tone: "good", marked: [], shown };
}
