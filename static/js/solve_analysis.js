// The Solve page's answer: the verdict line under the board, and the solver's logical steps,
// listed and stepped through on the board. solve.js owns the board and its state (S) and
// passes them in, with its render to redraw the board after.

import { LEVEL_NAMES, parseBoard, symbol, unitName } from "./sudoku.js";

const $ = (id) => document.getElementById(id);

/** The one line under the board saying what was found (read out too); tone: good or bad. */
export function verdict(text, tone) {
  const el = $("verdict");
  el.hidden = false;
  el.textContent = text;
  el.className = `verdict${tone ? ` ${tone}` : ""}`;
  $("live").textContent = text;
}

/** The first clash among the givens, in words. */
export function conflictText(a, geo) {
  const first = a.conflicts[0];
  return interpolate(
    gettext("The givens clash: %(first)s and %(second)s share %(value)s in %(unit)s."),
    { first: first.cell_names[0], second: first.cell_names[1], value: symbol(first.value), unit: unitName(geo, first.unit) },
    true,
  );
}

/** The solver's answer: a verdict and, for a proper puzzle, its steps, none shown yet. */
export function showAnalysis(S, a, render) {
  S.step = 0;
  S.stepCells = new Set();
  S.shown.fill(0);
  $("steps").textContent = "";
  if (a.conflicts.length) {
    verdict(conflictText(a, S.geo), "bad");
    render();
    return;
  }
  if (a.solutions === 0) {
    verdict(gettext("No solution: these givens lead to a contradiction."), "bad");
  } else if (a.solutions > 1) {
    verdict(
      interpolate(
        gettext("Several solutions: %(clues)s givens do not pin down one answer, so this is not a proper puzzle. Add givens."),
        { clues: a.clues },
        true,
      ),
      "bad",
    );
  } else {
    const level = LEVEL_NAMES[a.level] || a.level;
    const text = a.solved_by_logic
      ? gettext("One solution. Grade: %(level)s (score %(score)s, solved by logic alone).")
      : gettext("One solution. Grade: %(level)s (score %(score)s, logic stalls, so it needs trial and error).");
    verdict(interpolate(text, { level, score: a.score }, true), "good");
    S.shown = parseBoard(a.solution, a.size * a.size).map((v, c) => (S.values[c] ? 0 : v));
    $("steps-box").hidden = a.steps.length === 0;
    $("play-it").hidden = false;
    listSteps(a);
  }
  render();
}

function listSteps(a) {
  const list = $("steps");
  list.textContent = "";
  for (const step of a.steps) {
    const li = document.createElement("li");
    const name = document.createElement("strong");
    name.textContent = step.name;
    li.append(name, gettext(": ") + step.sentence);
    li.hidden = true;
    list.appendChild(li);
  }
  if (a.steps_truncated) {
    const li = document.createElement("li");
    li.textContent = interpolate(gettext("…and %(count)s more steps."), { count: a.steps_total - a.steps.length }, true);
    li.hidden = true;
    li.className = "more";
    list.appendChild(li);
  }
}

/** Replay the first `count` steps on the board: their placements appear, the last is lit. */
export function showSteps(S, count, render) {
  const a = S.analysis;
  S.step = Math.max(0, Math.min(count, a.steps.length));
  S.shown.fill(0);
  for (const step of a.steps.slice(0, S.step)) {
    for (const p of step.placements) S.shown[p.cell] = p.value;
  }
  const last = a.steps[S.step - 1];
  S.stepCells = new Set(last ? [...last.cells, ...last.placements.map((p) => p.cell)] : []);
  const items = $("steps").children;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    item.hidden = item.className === "more" ? S.step < a.steps.length : i >= S.step;
    item.classList.toggle("current", i === S.step - 1);
  }
  if (last) {
    $("live").textContent = last.name + gettext(": ") + last.sentence;
    items[S.step - 1].scrollIntoView({ block: "nearest" });
  }
  render();
}
