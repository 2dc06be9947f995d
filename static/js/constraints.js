// Drawing a puzzle's constraints (the API's `constraints` list) over a board built by
// sudoku.js's buildBoard: an SVG layer on the board's wrapper, one unit per cell, that
// never takes a tap. Lines (thermometers, arrows, palindromes, renban, whispers, region-sum
// and between lines), dots and XV marks on the edge between two cells, odd circles and
// even squares; outside clues (little killers, sandwiches) and whole-grid rules are listed
// in words under the board. constraintWords() says where a cell sits for screen readers.

const SVG = "http://www.w3.org/2000/svg";

// The words come translated with the page (play/constraint_words.py), not in the
// JavaScript catalog every page loads: only a puzzle with constraints needs them.
let WORDS = {};
const T = (text) => WORDS[text] || text;

const LINE_KINDS = {
  palindrome: "palindrome line",
  renban: "renban line",
  whispers: "German whispers line",
  region_sum: "region-sum line",
  between: "between line",
};

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

function centre(n, c) {
  return [(c % n) + 0.5, Math.floor(c / n) + 0.5];
}

function polyline(n, cells, cls, parent) {
  const points = cells.map((c) => centre(n, c).join(",")).join(" ");
  return el("polyline", { points, class: cls, fill: "none" }, parent);
}

function edge(n, a, b) {
  const [x1, y1] = centre(n, a);
  const [x2, y2] = centre(n, b);
  return [(x1 + x2) / 2, (y1 + y2) / 2];
}

/** Draw every constraint of puzzle `p` over the board in `wrap`; list the rest in words.
 * `translated`: the page's translated constraint words (its data's constraint_words). */
export function drawConstraints(wrap, p, translated) {
  WORDS = translated || {};
  const cons = Array.isArray(p.constraints) ? p.constraints : [];
  if (!cons.length) return;
  const n = p.size;
  const svg = el("svg", { viewBox: `0 0 ${n} ${n}`, class: "constraints", "aria-hidden": "true", preserveAspectRatio: "none" }, wrap);
  const under = el("g", {}, svg);
  const over = el("g", {}, svg);
  const words = [];
  for (const con of cons) {
    const t = con.type;
    if (t === "thermometer") {
      polyline(n, con.cells, "c-thermo", under);
      const [x, y] = centre(n, con.cells[0]);
      el("circle", { cx: x, cy: y, r: 0.36, class: "c-bulb" }, under);
    } else if (t === "arrow") {
      for (const c of con.circle) {
        const [x, y] = centre(n, c);
        el("circle", { cx: x, cy: y, r: 0.4, class: "c-arrow-circle" }, over);
      }
      const line = el("polyline", { points: [con.circle[con.circle.length - 1], ...con.line].map((c) => centre(n, c).join(",")).join(" "), class: "c-arrow", fill: "none" }, under);
      line.setAttribute("marker-end", "url(#c-head)");
    } else if (t in LINE_KINDS) {
      polyline(n, con.cells, `c-line c-${t}`, under);
      if (t === "between") {
        for (const c of [con.cells[0], con.cells[con.cells.length - 1]]) {
          const [x, y] = centre(n, c);
          el("circle", { cx: x, cy: y, r: 0.4, class: "c-between-end" }, over);
        }
      }
    } else if (t === "kropki") {
      const [x, y] = edge(n, con.cells[0], con.cells[1]);
      el("circle", { cx: x, cy: y, r: 0.13, class: `c-dot c-${con.colour}` }, over);
      const plain = con.colour === "white" ? 1 : 2;
      if (con.value !== plain) el("text", { x, y: y + 0.05, class: "c-dot-value" }, over).textContent = String(con.value);
    } else if (t === "xv") {
      const [x, y] = edge(n, con.cells[0], con.cells[1]);
      el("text", { x, y: y + 0.1, class: "c-xv" }, over).textContent = con.sum === 10 ? "X" : "V";
    } else if (t === "odd") {
      const [x, y] = centre(n, con.cell);
      el("circle", { cx: x, cy: y, r: 0.38, class: "c-parity" }, under);
    } else if (t === "even") {
      const [x, y] = centre(n, con.cell);
      el("rect", { x: x - 0.36, y: y - 0.36, width: 0.72, height: 0.72, class: "c-parity" }, under);
    } else if (t === "extra_region") {
      for (const c of con.cells) {
        const [x, y] = centre(n, c);
        el("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, class: "c-extra" }, under);
      }
    } else if (t === "little_killer") {
      const first = con.cells[0];
      const [x, y] = centre(n, first);
      const dx = con.direction[1] === "R" ? -1 : 1;
      const dy = con.direction[0] === "D" ? -1 : 1;
      el("text", { x: x + 0.3 * dx, y: y + 0.3 * dy + 0.08, class: "c-clue" }, over).textContent = String(con.sum);
      words.push(interpolate(T("Little killer: the diagonal from r%(row)sc%(col)s adds up to %(sum)s"), { row: Math.floor(first / n) + 1, col: (first % n) + 1, sum: con.sum }, true));
    } else if (t === "sandwich") {
      const name = con.line === "row" ? gettext("row %(number)s") : gettext("column %(number)s");
      words.push(interpolate(T("Sandwich: between the 1 and the %(n)s of %(line)s, %(sum)s"), { n, line: interpolate(name, { number: con.index + 1 }, true), sum: con.sum }, true));
    } else if (t === "antiknight") {
      words.push(T("Anti-knight: cells a knight's move apart differ"));
    } else if (t === "antiking") {
      words.push(T("Anti-king: cells a king's move apart differ"));
    } else if (t === "nonconsecutive") {
      words.push(T("Non-consecutive: neighbours are not consecutive unless a white dot joins them"));
    } else if (t === "black_dots_negative") {
      words.push(T("Every black dot is given"));
    } else if (t === "xv_negative") {
      words.push(T("Every X and V is given"));
    }
  }
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "c-head", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10", class: "c-arrow-head", fill: "none" }, marker);
  if (words.length) {
    const list = document.createElement("ul");
    list.className = "constraint-rules";
    for (const text of words) {
      const li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    }
    wrap.after(list);
  }
}

/** Where cell `c` sits on the constraints, for its screen-reader label. */
export function constraintWords(p, c) {
  const cons = Array.isArray(p.constraints) ? p.constraints : [];
  const out = [];
  for (const con of cons) {
    const cells = con.cells || [];
    const at = cells.indexOf(c);
    if (con.type === "thermometer" && at >= 0) {
      out.push(interpolate(T("on a thermometer, %(place)s of %(count)s cells from the bulb"), { place: at + 1, count: cells.length }, true));
    } else if (con.type === "arrow" && con.circle.includes(c)) {
      out.push(interpolate(T("in an arrow's circle, its line of %(count)s cells adds up to it"), { count: con.line.length }, true));
    } else if (con.type === "arrow" && con.line.includes(c)) {
      out.push(T("on an arrow"));
    } else if (con.type in LINE_KINDS && at >= 0) {
      out.push(interpolate(T("on a %(line)s, %(place)s of %(count)s cells"), { line: T(LINE_KINDS[con.type]), place: at + 1, count: cells.length }, true));
    } else if (con.type === "kropki" && at >= 0) {
      const other = cells[1 - at];
      const words = con.colour === "white" ? T("a white dot to r%(row)sc%(col)s") : T("a black dot to r%(row)sc%(col)s");
      out.push(interpolate(words, { row: Math.floor(other / p.size) + 1, col: (other % p.size) + 1 }, true));
    } else if (con.type === "xv" && at >= 0) {
      const other = cells[1 - at];
      out.push(interpolate(T("%(mark)s to r%(row)sc%(col)s"), { mark: con.sum === 10 ? "X" : "V", row: Math.floor(other / p.size) + 1, col: (other % p.size) + 1 }, true));
    } else if (con.type === "odd" && con.cell === c) {
      out.push(T("odd"));
    } else if (con.type === "even" && con.cell === c) {
      out.push(T("even"));
    } else if (con.type === "extra_region" && at >= 0) {
      out.push(T("in an extra region"));
    } else if (con.type === "little_killer" && at >= 0) {
      out.push(interpolate(T("on a little killer diagonal adding up to %(sum)s"), { sum: con.sum }, true));
    }
  }
  return out;
}

function neighbourPairs(n) {
  const out = [];
  for (let c = 0; c < n * n; c++) {
    if (c % n < n - 1) out.push([c, c + 1]);
    if (c + n < n * n) out.push([c, c + n]);
  }
  return out;
}

function apart(n, steps) {
  const out = [];
  for (let c = 0; c < n * n; c++) {
    const r = Math.floor(c / n);
    const k = c % n;
    for (const [dr, dk] of steps) {
      if (r + dr >= 0 && r + dr < n && k + dk >= 0 && k + dk < n) out.push([c, (r + dr) * n + k + dk]);
    }
  }
  return out;
}

const KNIGHT = [[1, 2], [2, 1], [1, -2], [2, -1]];
const KING = [[0, 1], [1, 0], [1, 1], [1, -1]];

/** The cells whose values (0: empty) already break a constraint, as the server says. */
export function constraintClashes(p, values) {
  const cons = Array.isArray(p.constraints) ? p.constraints : [];
  const n = p.size;
  const out = new Set();
  const mark = (...cells) => cells.forEach((c) => out.add(c));
  const both = (a, b) => values[a] && values[b];
  const marked = (test) => new Set(cons.filter(test).map((o) => `${Math.min(...o.cells)},${Math.max(...o.cells)}`));
  for (const con of cons) {
    const t = con.type;
    const cells = con.cells || [];
    if (t === "thermometer") {
      const filled = cells.filter((c) => values[c]);
      filled.forEach((a, i) => filled.slice(i + 1).forEach((b) => { if (values[a] >= values[b]) mark(a, b); }));
    } else if (t === "arrow") {
      if (con.circle.every((c) => values[c])) {
        const number = Number(con.circle.map((c) => values[c]).join(""));
        const filled = con.line.filter((c) => values[c]);
        const sum = filled.reduce((s, c) => s + values[c], 0);
        if (sum + con.line.length - filled.length > number || (filled.length === con.line.length && sum !== number)) mark(...con.circle, ...filled);
      }
    } else if (t === "kropki" || t === "xv") {
      const [a, b] = cells;
      if (!both(a, b)) continue;
      const x = values[a];
      const y = values[b];
      const ok = t === "xv" ? x + y === con.sum : con.colour === "white" ? Math.abs(x - y) === con.value : x === con.value * y || y === con.value * x;
      if (!ok) mark(a, b);
    } else if (t === "black_dots_negative" || t === "xv_negative" || t === "nonconsecutive") {
      const taken = marked((o) => (t === "xv_negative" ? o.type === "xv" : o.type === "kropki" && o.colour === (t === "nonconsecutive" ? "white" : "black")));
      for (const [a, b] of neighbourPairs(n)) {
        if (!both(a, b) || taken.has(`${a},${b}`)) continue;
        const x = values[a];
        const y = values[b];
        const bad = t === "xv_negative" ? x + y === 5 || x + y === 10 : t === "nonconsecutive" ? Math.abs(x - y) === 1 : x === 2 * y || y === 2 * x;
        if (bad) mark(a, b);
      }
    } else if (t === "antiknight" || t === "antiking") {
      for (const [a, b] of apart(n, t === "antiknight" ? KNIGHT : KING)) if (both(a, b) && values[a] === values[b]) mark(a, b);
    } else if (t === "odd" || t === "even") {
      const v = values[con.cell];
      if (v && v % 2 !== (t === "odd" ? 1 : 0)) mark(con.cell);
    } else if (t === "little_killer") {
      const filled = cells.filter((c) => values[c]);
      const sum = filled.reduce((s, c) => s + values[c], 0);
      if (sum + cells.length - filled.length > con.sum || (filled.length === cells.length && sum !== con.sum)) mark(...filled);
    } else if (t === "sandwich") {
      const line = Array.from({ length: n }, (_, i) => (con.line === "row" ? con.index * n + i : i * n + con.index));
      const row = line.map((c) => values[c]);
      const i1 = row.indexOf(1);
      const iN = row.indexOf(n);
      if (i1 < 0 || iN < 0) continue;
      const [a, b] = [Math.min(i1, iN), Math.max(i1, iN)];
      const inner = row.slice(a + 1, b);
      const sum = inner.reduce((s, v) => s + v, 0);
      if (sum > con.sum || (inner.every((v) => v) && sum !== con.sum)) mark(...line.slice(a, b + 1).filter((c) => values[c]));
    } else if (t === "palindrome") {
      for (let i = 0; i < Math.floor(cells.length / 2); i++) {
        const a = cells[i];
        const b = cells[cells.length - 1 - i];
        if (both(a, b) && values[a] !== values[b]) mark(a, b);
      }
    } else if (t === "renban") {
      const filled = cells.filter((c) => values[c]);
      const seen = filled.map((c) => values[c]);
      const repeats = new Set(seen).size !== seen.length;
      const spread = seen.length && Math.max(...seen) - Math.min(...seen) >= cells.length;
      if (repeats || spread) mark(...filled);
    } else if (t === "extra_region") {
      // Like a house: only the cells that repeat a value.
      cells.forEach((a, i) => cells.slice(i + 1).forEach((b) => { if (values[a] && values[a] === values[b]) mark(a, b); }));
    } else if (t === "whispers") {
      const d = con.difference || Math.floor((n + 1) / 2);
      for (let i = 0; i + 1 < cells.length; i++) {
        const [a, b] = [cells[i], cells[i + 1]];
        if (both(a, b) && Math.abs(values[a] - values[b]) < d) mark(a, b);
      }
    } else if (t === "region_sum") {
      const parts = new Map();
      for (const c of cells) {
        const r = p.regions ? p.regions[c] : 0;
        if (!parts.has(r)) parts.set(r, []);
        parts.get(r).push(c);
      }
      const full = [...parts.values()].filter((part) => part.every((c) => values[c]));
      const sums = new Set(full.map((part) => part.reduce((s, c) => s + values[c], 0)));
      if (sums.size > 1) full.forEach((part) => mark(...part));
    } else if (t === "between") {
      const a = values[cells[0]];
      const b = values[cells[cells.length - 1]];
      if (!a || !b) continue;
      const [lo, hi] = [Math.min(a, b), Math.max(a, b)];
      for (const c of cells.slice(1, -1)) if (values[c] && !(lo < values[c] && values[c] < hi)) mark(cells[0], c, cells[cells.length - 1]);
    }
  }
  return out;
}
