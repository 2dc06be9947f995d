// Drawing a variant's rules on a board built by sudoku.js's buildBoard: Killer cages (a
// dashed outline inside the cage, its sum in the first cell's corner, touching cages in
// different tints), shaded diagonals. Jigsaw's thick region lines are drawn by buildBoard.
// Also the Killer aids: a cage's remaining sum and the combinations that still fit.

export const VARIANT_NAMES = {
  classic: gettext("Classic"),
  diagonal: gettext("Diagonal"),
  jigsaw: gettext("Jigsaw"),
  killer: gettext("Killer"),
};

const TINTS = 4;

/** A tint per cage so that no two cages that share a side have the same one. */
export function cageTints(geo) {
  const n = geo.n;
  const tints = new Array(geo.cages.length).fill(-1);
  geo.cages.forEach((cage, i) => {
    const used = new Set();
    for (const c of cage.cells) {
      const r = geo.rowOf[c];
      const k = geo.colOf[c];
      const around = [r > 0 ? c - n : -1, r < n - 1 ? c + n : -1, k > 0 ? c - 1 : -1, k < n - 1 ? c + 1 : -1];
      for (const d of around) {
        const j = d >= 0 ? geo.cageOf[d] : -1;
        if (j >= 0 && j !== i && tints[j] >= 0) used.add(tints[j]);
      }
    }
    let t = 0;
    while (used.has(t) && t < TINTS - 1) t++;
    tints[i] = t;
  });
  return tints;
}

/** Put the rules on the board's cells (classes and data attributes; CSS draws them). */
export function drawRules(cells, geo) {
  const n = geo.n;
  const tints = cageTints(geo);
  for (let c = 0; c < geo.ncells; c++) {
    const el = cells[c];
    const r = geo.rowOf[c];
    const k = geo.colOf[c];
    if (geo.extra.some((x) => x.kind === "diagonal")) {
      if (r === k) el.classList.add("diag-a");
      if (r + k === n - 1) el.classList.add("diag-b");
    }
    const i = geo.cageOf[c];
    if (i < 0) continue;
    const same = (d) => d >= 0 && geo.cageOf[d] === i;
    el.classList.add("cage", `tint-${tints[i]}`);
    if (!(r > 0 && same(c - n))) el.classList.add("cg-t");
    if (!(r < n - 1 && same(c + n))) el.classList.add("cg-b");
    if (!(k > 0 && same(c - 1))) el.classList.add("cg-l");
    if (!(k < n - 1 && same(c + 1))) el.classList.add("cg-r");
    const cage = geo.cages[i];
    if (cage.sum !== null && cage.sum !== undefined && c === Math.min(...cage.cells)) {
      el.dataset.sum = String(cage.sum);
    }
  }
}

/** "cage of 3 cells, sum 15" (and "on a diagonal") for a cell's screen-reader label. */
export function ruleWords(geo, c) {
  const parts = [];
  const i = geo.cageOf[c];
  if (i >= 0) {
    const cage = geo.cages[i];
    const size = cage.cells.length;
    parts.push(
      cage.sum === null || cage.sum === undefined
        ? interpolate(ngettext("cage of %(count)s cell", "cage of %(count)s cells", size), { count: size }, true)
        : interpolate(
            ngettext("cage of %(count)s cell, sum %(sum)s", "cage of %(count)s cells, sum %(sum)s", size),
            { count: size, sum: cage.sum },
            true,
          ),
    );
  }
  if (geo.extra.some((x) => x.kind === "diagonal") && (geo.rowOf[c] === geo.colOf[c] || geo.rowOf[c] + geo.colOf[c] === geo.n - 1)) {
    parts.push(gettext("on a diagonal"));
  }
  return parts;
}

/** Every set of `size` different values from 1..n adding up to `sum`, smallest first. */
export function combinations(size, sum, n) {
  const out = [];
  const pick = (start, left, total, chosen) => {
    if (left === 0) {
      if (total === sum) out.push(chosen.slice());
      return;
    }
    for (let v = start; v <= n; v++) {
      if (total + v > sum) break;
      chosen.push(v);
      pick(v + 1, left - 1, total + v, chosen);
      chosen.pop();
    }
  };
  pick(1, size, 0, []);
  return out;
}

/** The selected cell's cage: its sum, what remains, and the combinations that still fit. */
export function cageInfo(geo, values, c) {
  const i = geo.cageOf[c];
  if (i < 0) return null;
  const cage = geo.cages[i];
  const placed = cage.cells.map((d) => values[d]).filter((v) => v);
  if (cage.sum === null || cage.sum === undefined) return { cage, placed, remaining: null, combos: [] };
  const remaining = cage.sum - placed.reduce((a, b) => a + b, 0);
  const have = new Set(placed);
  const combos = combinations(cage.cells.length, cage.sum, geo.n).filter((combo) => placed.every((v) => combo.includes(v)) && have.size === placed.length);
  return { cage, placed, remaining, combos };
}
