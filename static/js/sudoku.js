// Shared pieces of the browser pages: board geometry, clash detection, symbols, the board's
// DOM and a small JSON client for the API (session cookie + CSRF header). No build step.

export const SYMBOLS = "123456789ABCDEFGHIJKLMNOP";

// The grader's levels as the pages name them.
export const LEVEL_NAMES = {
  easy: gettext("Easy"),
  medium: gettext("Medium"),
  hard: gettext("Hard"),
  expert: gettext("Expert"),
  master: gettext("Master"),
};

/** The text shown for value v (1..N): 1-9 then A-P, or plain numbers when `numeric`. */
export function symbol(v, numeric = false) {
  return numeric ? String(v) : SYMBOLS[v - 1];
}

/** The value of one board character: 0 for an empty cell or an unknown character. */
export function valueOf(ch) {
  const i = SYMBOLS.indexOf(String(ch).toUpperCase());
  return i < 0 ? 0 : i + 1;
}

/** A board string ("." empty) as an array of values. */
export function parseBoard(text, ncells) {
  const out = new Array(ncells).fill(0);
  for (let i = 0; i < ncells && i < text.length; i++) out[i] = valueOf(text[i]);
  return out;
}

export function boardString(values) {
  return values.map((v) => (v ? SYMBOLS[v - 1] : ".")).join("");
}

const geometries = new Map();

/** Rows, columns, boxes and peers of an N x N board with boxes of boxRows x boxCols. */
export function geometry(n, boxRows, boxCols) {
  const key = `${n}:${boxRows}:${boxCols}`;
  if (geometries.has(key)) return geometries.get(key);
  const ncells = n * n;
  const rowOf = [];
  const colOf = [];
  const boxOf = [];
  const units = [];
  for (let u = 0; u < 3 * n; u++) units.push([]);
  for (let c = 0; c < ncells; c++) {
    const r = Math.floor(c / n);
    const k = c % n;
    const b = Math.floor(r / boxRows) * (n / boxCols) + Math.floor(k / boxCols);
    rowOf.push(r);
    colOf.push(k);
    boxOf.push(b);
    units[r].push(c);
    units[n + k].push(c);
    units[2 * n + b].push(c);
  }
  const peers = [];
  for (let c = 0; c < ncells; c++) {
    const set = new Set([...units[rowOf[c]], ...units[n + colOf[c]], ...units[2 * n + boxOf[c]]]);
    set.delete(c);
    peers.push(set);
  }
  const geo = { n, boxRows, boxCols, ncells, rowOf, colOf, boxOf, units, peers };
  geometries.set(key, geo);
  return geo;
}

/** Cells whose value repeats in their row, column or box. */
export function clashes(values, geo) {
  const out = new Set();
  for (const unit of geo.units) {
    const seen = new Map();
    for (const c of unit) {
      const v = values[c];
      if (!v) continue;
      if (seen.has(v)) {
        out.add(c);
        out.add(seen.get(v));
      } else {
        seen.set(v, c);
      }
    }
  }
  return out;
}

/** The values no peer holds, for an empty cell. */
export function candidates(values, geo, cell) {
  const taken = new Set();
  for (const p of geo.peers[cell]) if (values[p]) taken.add(values[p]);
  const out = [];
  for (let v = 1; v <= geo.n; v++) if (!taken.has(v)) out.push(v);
  return out;
}

export function unitName(geo, u) {
  const n = geo.n;
  if (u >= 2 * n && geo.unitName) return geo.unitName(u);
  if (u < n) return interpolate(gettext("row %(number)s"), { number: u + 1 }, true);
  if (u < 2 * n) return interpolate(gettext("column %(number)s"), { number: u - n + 1 }, true);
  return interpolate(gettext("box %(number)s"), { number: u - 2 * n + 1 }, true);
}

/** "row 3, column 5": where cell c is, in words (for screen readers and messages). */
export function cellWhere(geo, c) {
  return interpolate(gettext("row %(row)s, column %(column)s"), { row: geo.rowOf[c] + 1, column: geo.colOf[c] + 1 }, true);
}

/** Build the board's rows and cells inside `el` (role=grid); returns the cell elements. */
export function buildBoard(el, geo, label) {
  el.textContent = "";
  el.setAttribute("role", "grid");
  el.setAttribute("aria-label", label);
  el.style.setProperty("--n", geo.n);
  el.style.setProperty("--br", geo.boxRows);
  el.style.setProperty("--bc", geo.boxCols);
  const cells = [];
  for (let r = 0; r < geo.n; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    if ((r + 1) % geo.boxRows === 0 && r !== geo.n - 1) row.classList.add("bx-b");
    for (let k = 0; k < geo.n; k++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = -1;
      cell.dataset.cell = String(r * geo.n + k);
      if ((k + 1) % geo.boxCols === 0 && k !== geo.n - 1) cell.classList.add("bx-r");
      row.appendChild(cell);
      cells.push(cell);
    }
    el.appendChild(row);
  }
  return cells;
}

/** Fill one cell's content: a value, or its pencil marks laid out like the box. */
export function paintCell(el, value, notes, geo, numeric, sameValue = 0, corners = null) {
  if (value) {
    const text = symbol(value, numeric);
    const span = el.firstChild;
    if (span && span.className.startsWith("v") && span.textContent === text) return;
    const v = document.createElement("span");
    v.className = text.length > 1 ? "v two" : "v";
    v.textContent = text;
    el.replaceChildren(v);
    return;
  }
  const marks = [];
  // Corner marks ("this value goes in one of these cells") sit round the cell's edge.
  if (corners && corners.size) {
    const edge = document.createElement("span");
    edge.className = "corners";
    edge.setAttribute("aria-hidden", "true");
    for (const d of [...corners].sort((a, b) => a - b)) {
      const s = document.createElement("span");
      s.textContent = symbol(d, numeric);
      if (d === sameValue) s.className = "on-same";
      edge.append(s, " ");
    }
    marks.push(edge);
  }
  if (!notes || notes.size === 0) {
    el.replaceChildren(...marks);
    return;
  }
  const box = document.createElement("span");
  box.className = marks.length ? "notes packed" : "notes";
  box.setAttribute("aria-hidden", "true");
  for (let d = 1; d <= geo.n; d++) {
    const s = document.createElement("span");
    if (notes.has(d)) {
      s.textContent = symbol(d, numeric);
      if (d === sameValue) s.className = "on-same";
      // A space between marks (a grid lays none out): the cell's text reads "2 5 8" as
      // its name does ("..., notes 2 5 8"), not "258" (axe: label-content-name-mismatch).
      if (box.textContent) box.append(" ");
    }
    box.appendChild(s);
  }
  el.replaceChildren(box, ...marks);
}

/** A cell's colours (1 to 9, the palette's --k1...--k9 in game.css) as its background:
 * one fills it, several share it as slices. Set through the CSSOM, which the CSP allows. */
export function paintColours(el, colours) {
  const list = colours ? [...colours].sort((a, b) => a - b) : [];
  const step = 100 / list.length;
  const image = !list.length
    ? ""
    : list.length === 1
      ? `linear-gradient(var(--k${list[0]}), var(--k${list[0]}))`
      : `conic-gradient(${list.map((k, i) => `var(--k${k}) ${i * step}% ${(i + 1) * step}%`).join(", ")})`;
  if (el.dataset.k !== image) el.style.backgroundImage = el.dataset.k = image;
}

export function formatMs(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

export function csrfToken() {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === "csrftoken") return decodeURIComponent(rest.join("="));
  }
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

/** A random version 4 UUID (crypto.randomUUID needs a secure context; this does not). */
export function uuid() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Call the JSON API. Resolves to {ok, status, data}; data.error carries the API's error
 * ({code, message}). Network failures resolve with status 0 so callers can retry.
 */
export async function api(method, url, body, { keepalive = false } = {}) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin", keepalive };
  if (method !== "GET") {
    headers["X-CSRFToken"] = csrfToken();
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    return { ok: false, status: 0, data: { error: { code: "network", message: gettext("No connection to the server.") } } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok && !(data && data.error)) {
    data = {
      error: {
        code: `http_${response.status}`,
        message: interpolate(gettext("The server answered %(status)s."), { status: response.status }, true),
      },
    };
  }
  return { ok: response.ok, status: response.status, data };
}

/** The first message of an API error body. */
export function errorMessage(data, fallback = gettext("Something went wrong.")) {
  return (data && data.error && data.error.message) || fallback;
}

/** Read the JSON a template put in <script type="application/json" id=...>. */
export function pageData(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

let toastTimer = 0;

/** Show a short message at the bottom of the screen (and to screen readers). */
export function toast(message, ms = 3200) {
  let el = document.getElementById("toast");
  if (!el) {
    el = document.createElement("div");
    el.id = "toast";
    el.className = "toast";
    el.setAttribute("role", "status");
    document.body.appendChild(el);
  }
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, ms);
}
