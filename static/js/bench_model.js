// The setter's bench, its data: a puzzle being drawn (givens, regions, cages and the
// constraints in the API's `constraints` shapes, as constraints.js draws them) and the
// f-puzzles object it becomes for /api/v1/solver/check/, the games API and the exports.
// No DOM here: bench.js draws it and takes the pointer and the keys.

export const LINE_TOOLS = ["thermometer", "arrow", "palindrome", "renban", "whispers", "region_sum", "between"];
export const DOT_TOOLS = ["white", "black", "x", "v"];
export const MARK_TOOLS = ["odd", "even"];
export const TOGGLES = ["antiknight", "antiking", "nonconsecutive", "diagonals", "black_dots_negative", "xv_negative"];
// The fewest cells a drawn line keeps (as the solver reads them): a shorter one is dropped.
const LEAST = { renban: 1, between: 3 };
const FP_LINE = { thermometer: "thermometer", palindrome: "palindrome", renban: "renban", whispers: "whispers", region_sum: "regionsumline", between: "betweenline" };
const STEPS = { DR: [1, 1], DL: [1, -1], UR: [-1, 1], UL: [-1, -1] };
const SHAPES = { 4: [2, 2], 6: [2, 3], 8: [2, 4], 9: [3, 3], 12: [3, 4], 16: [4, 4] };

export function boxShape(n) {
  return SHAPES[n];
}

/** An empty puzzle of size n: boxes for regions, nothing drawn. */
export function emptyModel(n) {
  const [boxRows, boxCols] = SHAPES[n];
  return { size: n, boxRows, boxCols, givens: new Array(n * n).fill(0), regions: boxes(n, boxRows, boxCols), cages: [], items: [], diagonals: false };
}

function boxes(n, br, bc) {
  return Array.from({ length: n * n }, (_, c) => Math.floor(Math.floor(c / n) / br) * (n / bc) + Math.floor((c % n) / bc));
}

/** True when the regions are the boxes (a puzzle with no Jigsaw regions). */
export function plainRegions(m) {
  const b = boxes(m.size, m.boxRows, m.boxCols);
  return m.regions.every((r, c) => r === b[c]);
}

export function resetRegions(m) {
  m.regions = boxes(m.size, m.boxRows, m.boxCols);
}

/** Two cells side by side (a dot's or an XV's pair). */
export function neighbours(n, a, b) {
  const [ra, ka, rb, kb] = [Math.floor(a / n), a % n, Math.floor(b / n), b % n];
  return Math.abs(ra - rb) + Math.abs(ka - kb) === 1;
}

const samePair = (cells, a, b) => cells && cells.length === 2 && Math.min(...cells) === Math.min(a, b) && Math.max(...cells) === Math.max(a, b);

/** Add a finished path (cells in drawing order) as `tool`; false when it is too short. */
export function addPath(m, tool, path, number) {
  if (tool === "arrow") {
    if (path.length < 2) return false;
    m.items.push({ type: "arrow", circle: [path[0]], line: path.slice(1) });
    return true;
  }
  if (tool === "cage") {
    if (!path.length || path.length > m.size) return false;
    const cells = [...path].sort((x, y) => x - y);
    m.cages = m.cages.filter((cage) => !cage.cells.some((c) => cells.includes(c)));
    m.cages.push({ cells, sum: Number.isInteger(number) ? number : null });
    return true;
  }
  if (tool === "extra_region") {
    // A set of cells like a cage's (in cell order), at least two to say anything.
    if (path.length < 2 || path.length > m.size) return false;
    m.items.push({ type: tool, cells: [...path].sort((x, y) => x - y) });
    return true;
  }
  if (DOT_TOOLS.includes(tool)) {
    if (path.length !== 2 || !neighbours(m.size, path[0], path[1])) return false;
    toggleDot(m, tool, path[0], path[1]);
    return true;
  }
  if (!LINE_TOOLS.includes(tool) || path.length < (LEAST[tool] || 2)) return false;
  const item = { type: tool, cells: path.slice() };
  if (tool === "whispers" && Number.isInteger(number)) item.difference = number;
  m.items.push(item);
  return true;
}

/** Put a dot or an X/V between a and b, replacing any mark there; the same mark again
 * takes it off. */
export function toggleDot(m, tool, a, b) {
  const at = m.items.findIndex((o) => (o.type === "kropki" || o.type === "xv") && samePair(o.cells, a, b));
  const old = at >= 0 ? m.items.splice(at, 1)[0] : null;
  const item =
    tool === "x" || tool === "v"
      ? { type: "xv", cells: [a, b], sum: tool === "x" ? 10 : 5 }
      : { type: "kropki", colour: tool, cells: [a, b], value: tool === "white" ? 1 : 2 };
  if (old && JSON.stringify(old) === JSON.stringify(item)) return;
  m.items.push(item);
}

/** Odd or even on a cell; the same mark again takes it off. */
export function toggleMark(m, tool, c) {
  const at = m.items.findIndex((o) => (o.type === "odd" || o.type === "even") && o.cell === c);
  const old = at >= 0 ? m.items.splice(at, 1)[0] : null;
  if (!old || old.type !== tool) m.items.push({ type: tool, cell: c });
}

/** A sandwich clue on cell c's row or column. */
export function addSandwich(m, line, c, sum) {
  const index = line === "row" ? Math.floor(c / m.size) : c % m.size;
  m.items = m.items.filter((o) => !(o.type === "sandwich" && o.line === line && o.index === index));
  m.items.push({ type: "sandwich", line, index, sum });
}

/** A little killer clue whose diagonal runs through c in `direction`, its clue outside. */
export function addLittleKiller(m, direction, c, sum) {
  const n = m.size;
  const [dr, dk] = STEPS[direction];
  let [r, k] = [Math.floor(c / n), c % n];
  while (r >= 0 && r < n && k >= 0 && k < n) [r, k] = [r - dr, k - dk];
  const clue = [r, k];
  const cells = [];
  for (let [y, x] = [r + dr, k + dk]; y >= 0 && y < n && x >= 0 && x < n; y += dr, x += dk) cells.push(y * n + x);
  m.items = m.items.filter((o) => !(o.type === "little_killer" && o.clue[0] === r && o.clue[1] === k && o.direction === direction));
  m.items.push({ type: "little_killer", clue, direction, sum, cells });
}

/** A whole-grid rule on or off (diagonals are the regions' business, the rest items). */
export function setToggle(m, name, on) {
  if (name === "diagonals") {
    m.diagonals = on;
    return;
  }
  m.items = m.items.filter((o) => o.type !== name);
  if (on) m.items.push({ type: name });
}

export function toggleOn(m, name) {
  return name === "diagonals" ? m.diagonals : m.items.some((o) => o.type === name);
}

/** Everything drawn, each with what removes it: [{kind, index, item}] for the list. */
export function drawnList(m) {
  const out = m.items.map((item, index) => ({ kind: "item", index, item }));
  m.cages.forEach((cage, index) => out.push({ kind: "cage", index, item: { type: "cage", ...cage } }));
  if (m.diagonals) out.push({ kind: "toggle", index: 0, item: { type: "diagonals" } });
  if (!plainRegions(m)) out.push({ kind: "regions", index: 0, item: { type: "regions" } });
  return out;
}

export function removeDrawn(m, entry) {
  if (entry.kind === "item") m.items.splice(entry.index, 1);
  else if (entry.kind === "cage") m.cages.splice(entry.index, 1);
  else if (entry.kind === "toggle") m.diagonals = false;
  else if (entry.kind === "regions") resetRegions(m);
}

/** The rules as the page draws them (variants.js and constraints.js: the API's shapes). */
export function drawnRules(m) {
  const cages = m.cages.map((cage) => ({ cells: cage.cells, sum: cage.sum }));
  const variant = !plainRegions(m) ? "jigsaw" : cages.length ? "killer" : m.diagonals ? "diagonal" : "classic";
  return { size: m.size, box_rows: m.boxRows, box_cols: m.boxCols, variant, regions: m.regions, diagonals: m.diagonals, cages, constraints: m.items };
}

const ref = (n, c) => `R${Math.floor(c / n) + 1}C${(c % n) + 1}`;

function push(out, key, value) {
  (out[key] = out[key] || []).push(value);
}

/** The f-puzzles object of the drawing: what the check, the games API and SudokuPad read. */
export function toFpuzzles(m) {
  const n = m.size;
  const b = boxes(n, m.boxRows, m.boxCols);
  const refs = (cells) => cells.map((c) => ref(n, c));
  const grid = [];
  for (let r = 0; r < n; r++) {
    const row = [];
    for (let k = 0; k < n; k++) {
      const c = r * n + k;
      const cell = m.givens[c] ? { value: m.givens[c], given: true } : {};
      if (m.regions[c] !== b[c]) cell.region = m.regions[c];
      row.push(cell);
    }
    grid.push(row);
  }
  const out = { size: n, grid };
  if (m.diagonals) {
    out["diagonal-"] = true;
    out["diagonal+"] = true;
  }
  for (const cage of m.cages) push(out, "killercage", cage.sum === null ? { cells: refs(cage.cells) } : { cells: refs(cage.cells), value: String(cage.sum) });
  for (const o of m.items) {
    const t = o.type;
    if (t in FP_LINE) {
      const entry = { lines: [refs(o.cells)] };
      if (t === "whispers" && o.difference) entry.value = String(o.difference);
      push(out, FP_LINE[t], entry);
    } else if (t === "arrow") push(out, "arrow", { cells: refs(o.circle), lines: [refs([o.circle[0], ...o.line])] });
    else if (t === "kropki") push(out, o.colour === "white" ? "difference" : "ratio", { cells: refs(o.cells) });
    else if (t === "xv") push(out, "xv", { cells: refs(o.cells), value: o.sum === 10 ? "X" : "V" });
    else if (t === "odd" || t === "even") push(out, t, { cell: ref(n, o.cell) });
    else if (t === "extra_region") push(out, "extraregion", { cells: refs(o.cells) });
    else if (t === "sandwich") push(out, "sandwichsum", { cell: o.line === "row" ? `R${o.index + 1}C0` : `R0C${o.index + 1}`, value: String(o.sum) });
    else if (t === "little_killer") push(out, "littlekillersum", { cell: `R${o.clue[0] + 1}C${o.clue[1] + 1}`, direction: o.direction, value: String(o.sum), cells: refs(o.cells) });
    else if (t === "black_dots_negative") push(out, "negative", "ratio");
    else if (t === "xv_negative") push(out, "negative", "xv");
    else out[t] = true; // antiknight, antiking, nonconsecutive
  }
  return out;
}

/** A drawing from the check's answer (a pasted puzzle, to draw on further). */
export function fromAnswer(a, givens) {
  if (!SHAPES[a.size] || a.box_rows !== SHAPES[a.size][0]) return null; // a shape not drawn here
  const m = emptyModel(a.size);
  const n = a.size;
  m.givens = givens.slice();
  if (Array.isArray(a.regions) && a.regions.length === n * n) m.regions = a.regions.slice();
  m.diagonals = Boolean(a.diagonals);
  m.cages = (a.cages || []).map((cage) => ({ cells: cage.cells.slice(), sum: cage.sum ?? null }));
  m.items = (a.constraints || []).map((o) => ({ ...o }));
  return m;
}
