// Drawing a variant's rules on a board built by sudoku.js's buildBoard: Killer cages (a
// dashed outline inside the cage, its sum in the first cell's corner, touching cages in
// different tints), shaded diagonals, Jigsaw's thick region lines.
// Also the Killer aids: a cage's remaining sum and the combinations that still fit.

import { symbol } from "./sudoku.js";

export const VARIANT_NAMES = {
  classic: gettext("Classic"),
  diagonal: gettext("Diagonal"),
  jigsaw: gettext("Jigsaw"),
  killer: gettext("Killer"),
};

/**
 * sudoku.js's geometry under a puzzle's rules (the API's {regions, diagonals, cages}): the
 * regions replace the boxes, the diagonals are houses too, and each cage is a unit (no
 * repeats) after them, so clashes and peers follow the variant. geo.extra names the units
 * after the 3N houses; geo.unitName names them for sudoku.js's unitName.
 */
export function variantGeometry(p) {
  const n = p.size;
  const ncells = n * n;
  const boxOf0 = (c) => Math.floor(Math.floor(c / n) / p.box_rows) * (n / p.box_cols) + Math.floor((c % n) / p.box_cols);
  const regions = Array.isArray(p.regions) && p.regions.length === ncells ? p.regions : null;
  const rowOf = [];
  const colOf = [];
  const boxOf = [];
  const units = [];
  for (let u = 0; u < 3 * n; u++) units.push([]);
  for (let c = 0; c < ncells; c++) {
    const r = Math.floor(c / n);
    const k = c % n;
    const b = regions ? regions[c] : boxOf0(c);
    rowOf.push(r);
    colOf.push(k);
    boxOf.push(b);
    units[r].push(c);
    units[n + k].push(c);
    units[2 * n + b].push(c);
  }
  const extra = []; // {kind: "diagonal"|"cage", number, sum?} per unit after the 3N houses
  const cageOf = new Array(ncells).fill(-1);
  if (p.diagonals) {
    units.push(Array.from({ length: n }, (_, i) => i * n + i));
    units.push(Array.from({ length: n }, (_, i) => (n - 1 - i) * n + i));
    extra.push({ kind: "diagonal", number: 1 }, { kind: "diagonal", number: 2 });
  }
  const cages = Array.isArray(p.cages) ? p.cages : [];
  cages.forEach((cage, i) => {
    units.push(cage.cells.slice());
    extra.push({ kind: "cage", number: i + 1, sum: cage.sum });
    for (const c of cage.cells) cageOf[c] = i;
  });
  const unitsOf = Array.from({ length: ncells }, () => []);
  units.forEach((unit, u) => unit.forEach((c) => unitsOf[c].push(u)));
  const peers = [];
  for (let c = 0; c < ncells; c++) {
    const set = new Set();
    for (const u of unitsOf[c]) for (const d of units[u]) set.add(d);
    set.delete(c);
    peers.push(set);
  }
  const irregular = boxOf.some((b, c) => b !== boxOf0(c));
  const unitName = (u) => {
    if (u < 3 * n) {
      const name = irregular ? gettext("region %(number)s") : gettext("box %(number)s");
      return interpolate(name, { number: u - 2 * n + 1 }, true);
    }
    const x = extra[u - 3 * n];
    if (x && x.kind === "diagonal") return interpolate(gettext("diagonal %(number)s"), { number: x.number }, true);
    return interpolate(gettext("cage %(number)s"), { number: x ? x.number : u - 3 * n + 1 }, true);
  };
  return { n, boxRows: p.box_rows, boxCols: p.box_cols, ncells, rowOf, colOf, boxOf, units, peers, extra, cages, cageOf, irregular, unitName };
}

/** The board's name for screen readers: "Killer Sudoku board, 9 by 9". */
export function boardLabel(p) {
  const variant = VARIANT_NAMES[p.variant] || p.variant;
  return interpolate(gettext("%(variant)s Sudoku board, %(n)s by %(n)s"), { variant, n: p.size }, true);
}

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
    if (geo.irregular) {
      // Jigsaw: a thick line wherever the region changes, instead of the boxes'.
      el.parentElement.classList.remove("bx-b");
      el.classList.toggle("bx-r", k !== n - 1 && geo.boxOf[c] !== geo.boxOf[c + 1]);
      if (r !== n - 1 && geo.boxOf[c] !== geo.boxOf[c + n]) el.classList.add("rg-b");
    }
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

/** Killer: the selected cell's cage, its remaining sum and the combinations that fit. */
export function renderCage(geo, values, selected, hidden, numeric) {
  const panel = document.getElementById("cage-panel");
  if (!panel) return;
  const info = hidden ? null : cageInfo(geo, values, selected);
  panel.hidden = !info;
  if (!info) return;
  const size = info.cage.cells.length;
  document.getElementById("cage-sum").textContent =
    info.remaining === null
      ? interpolate(ngettext("%(count)s cell, no sum", "%(count)s cells, no sum", size), { count: size }, true)
      : interpolate(
          ngettext("%(count)s cell, sum %(sum)s, %(left)s left", "%(count)s cells, sum %(sum)s, %(left)s left", size),
          { count: size, sum: info.cage.sum, left: info.remaining },
          true,
        );
  const list = document.getElementById("cage-combos");
  list.replaceChildren(
    ...info.combos.slice(0, 12).map((combo) => {
      const li = document.createElement("li");
      li.textContent = combo.map((v) => symbol(v, numeric)).join(" ");
      return li;
    }),
  );
  document.getElementById("cage-none").hidden = info.combos.length > 0 || info.remaining === null;
}
