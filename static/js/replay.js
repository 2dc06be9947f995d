// The replay page: a finished game's board at every moment, rebuilt from its event log
// (each event carries the changes it made, applied in order from the givens), played back
// at 1x, 4x or 16x on the game's clock, with a timeline to scrub and the analysis beside it.
// The page gets the replay as the API answers it; it asks again only while the analysis is
// pending. Plain ES module, no build step.

import { drawRules, variantGeometry } from "./variants.js";
import { LEVEL_NAMES as SUDOKU_LEVEL_NAMES, api, buildBoard, errorMessage, formatMs, geometry, pageData, paintCell, paintColours, symbol, toast, valueOf } from "./sudoku.js";

const D = pageData("replay-data");
const $ = (id) => document.getElementById(id);
const P = D.puzzle;
const N = P.size;
const isVariant = Boolean((P.variant && P.variant !== "classic") || (Array.isArray(P.constraints) && P.constraints.length));
const geo = isVariant ? variantGeometry(P) : geometry(N, P.box_rows, P.box_cols);
const SPEEDS = [1, 4, 16];
const TICK_MS = 50;
const POLL_MS = 2000;
const POLL_TRIES = 60;
const LEVEL_NAMES = {
  ...SUDOKU_LEVEL_NAMES,
  guess: gettext("Guesses"),
  mistake: gettext("Mistakes"),
};

const given = [...P.givens].map((ch) => ch !== ".");
// Null while the puzzle's solution is held (play/disclosure.py): wrong values are then
// the ones the events say were wrong (null too on a shared replay of such a game).
const solution = P.solution ? [...P.solution].map(valueOf) : null;
const wrongValues = new Map();
for (const e of D.events) {
  if (e.kind === "value" && e.correct === false && e.cell != null) {
    if (!wrongValues.has(e.cell)) wrongValues.set(e.cell, new Set());
    wrongValues.get(e.cell).add(e.value);
  }
}
const isWrong = (c, v) => (solution ? v !== solution[c] : Boolean(wrongValues.get(c)?.has(v)));
const events = D.events;
const cells = buildBoard($("board"), geo, interpolate(gettext("Replay board, %(n)s by %(n)s"), { n: N }, true));
if (isVariant) drawRules(cells, geo);
if (Array.isArray(P.constraints) && P.constraints.length) {
  const { drawConstraints } = await import("./constraints.js");
  drawConstraints($("board").parentElement, P, D.constraint_words);
}

// frames[i]: the board after the first i events (frames[0] is the givens).
const frames = [];
const times = [0];
{
  let values = [...P.givens].map(valueOf);
  let notes = new Map();
  let corners = new Map(); // corner marks, kept as the notes are
  let colours = new Map();
  frames.push({ values, notes, corners, colours });
  for (const e of events) {
    values = values.slice();
    notes = new Map(notes);
    corners = new Map(corners);
    colours = new Map(colours);
    const ch = e.changes || {};
    for (const [cell, , after] of ch.entries || []) values[cell] = valueOf(after);
    for (const [marks, list] of [[notes, ch.notes], [corners, ch.corners], [colours, ch.colours]]) {
      for (const [cell, , after] of list || []) {
        if (after && after.length) marks.set(cell, new Set(after));
        else marks.delete(cell);
      }
    }
    frames.push({ values, notes, corners, colours });
    times.push(Math.max(times[times.length - 1], e.elapsed_ms || 0));
  }
}
const total = Math.max(D.game.elapsed_ms || 0, times[times.length - 1]);
const indexOfSeq = new Map(events.map((e, i) => [e.seq, i + 1]));

const S = { idx: 0, t: 0, speed: 1, playing: false, timer: 0, analysis: null };

// ---- Drawing ------------------------------------------------------------------------------

function frameAt(t) {
  // The last frame whose time is <= t (binary search over the non-decreasing times).
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function describe(e) {
  const cell = e.cell == null ? "" : `r${Math.floor(e.cell / N) + 1}c${(e.cell % N) + 1}`;
  const value = e.value ? symbol(e.value) : "";
  const say = (fmt) => interpolate(fmt, { cell, value }, true);
  switch (e.kind) {
    case "value":
      if (!e.value) return cell ? say(gettext("Cleared %(cell)s")) : gettext("Cleared");
      return say(e.correct === false ? gettext("%(value)s in %(cell)s (wrong)") : gettext("%(value)s in %(cell)s"));
    case "note":
      return say(e.value ? gettext("Note %(value)s in %(cell)s") : gettext("Notes cleared in %(cell)s"));
    case "colour":
      return say(e.value ? gettext("Colour %(value)s in %(cell)s") : gettext("Colours cleared in %(cell)s"));
    case "corner":
      return say(e.value ? gettext("Corner mark %(value)s in %(cell)s") : gettext("Corner marks cleared in %(cell)s"));
    case "hint":
      return cell ? say(gettext("Hint applied %(cell)s")) : gettext("Hint applied");
    case "hint_reveal":
      return interpolate(gettext("Hint, stage %(stage)s"), { stage: e.value }, true);
    case "auto_notes":
      return gettext("Auto notes");
    case "undo":
      return gettext("Undo");
    case "redo":
      return gettext("Redo");
    case "restart":
      return gettext("Restart");
    case "pause":
      return gettext("Paused");
    case "resume":
      return gettext("Resumed");
    case "abandon":
      return gettext("Gave up");
    default:
      return e.kind;
  }
}

function render() {
  const f = frames[S.idx];
  const last = S.idx > 0 ? events[S.idx - 1] : null;
  for (let c = 0; c < geo.ncells; c++) {
    const v = f.values[c];
    const el = cells[c];
    el.classList.toggle("given", given[c]);
    el.classList.toggle("wrong", v !== 0 && !given[c] && isWrong(c, v));
    el.classList.toggle("selected", last !== null && last.cell === c);
    paintCell(el, v, f.notes.get(c), geo, false, 0, f.corners.get(c));
    paintColours(el, f.colours.get(c));
  }
  const done = S.idx === frames.length - 1 && S.t >= total;
  const ending =
    { completed: gettext("Solved"), abandoned: gettext("Gave up"), lost: gettext("Out of mistakes") }[D.game.status] ||
    gettext("End");
  $("caption").textContent = last
    ? interpolate(gettext("Move %(index)s of %(count)s: %(what)s"), { index: S.idx, count: events.length, what: describe(last) }, true) +
      (done ? ` · ${ending}` : "")
    : interpolate(gettext("Start · %(count)s moves"), { count: events.length }, true);
  $("caption").dataset.index = String(S.idx);
  $("clock").textContent = `${formatMs(S.t)} / ${formatMs(total)}`;
  $("timeline").value = String(Math.round(S.t));
  const playLabel = S.playing ? pgettext("replay", "Pause") : pgettext("replay", "Play");
  $("play").textContent = playLabel;
  $("play").setAttribute("aria-label", playLabel);
  for (const b of document.querySelectorAll(".speed")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === S.speed));
  }
  for (const b of document.querySelectorAll("#analysis [data-index]")) {
    b.classList.toggle("current", Number(b.dataset.index) === S.idx);
  }
}

function seek(t) {
  S.t = Math.min(total, Math.max(0, t));
  S.idx = frameAt(S.t);
  render();
}

function jumpTo(idx) {
  S.idx = Math.min(frames.length - 1, Math.max(0, idx));
  S.t = times[S.idx];
  render();
}

// ---- Playback -------------------------------------------------------------------------------

function play() {
  if (S.playing) return;
  if (S.t >= total) jumpTo(0);
  S.playing = true;
  S.timer = setInterval(() => {
    const t = S.t + TICK_MS * S.speed;
    if (t >= total) {
      seek(total);
      S.idx = frames.length - 1;
      pause();
      return;
    }
    seek(t);
  }, TICK_MS);
  render();
}

function pause() {
  S.playing = false;
  clearInterval(S.timer);
  render();
}

function step(delta) {
  pause();
  jumpTo(S.idx + delta);
}

function setSpeed(speed) {
  if (SPEEDS.includes(speed)) S.speed = speed;
  render();
}

$("play").addEventListener("click", () => (S.playing ? pause() : play()));
$("back").addEventListener("click", () => step(-1));
$("forward").addEventListener("click", () => step(1));
for (const b of document.querySelectorAll(".speed")) {
  b.addEventListener("click", () => setSpeed(Number(b.dataset.speed)));
}
$("timeline").max = String(total);
$("timeline").addEventListener("input", (e) => {
  const t = Number(e.target.value); // before pause() redraws the timeline
  pause();
  seek(t);
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input[type=text], textarea, select, [contenteditable]")) return;
  if (e.target.id === "timeline" && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
  if (e.key === " " || e.code === "Space") {
    if (e.target.closest && e.target.closest("button, input")) return; // a button's own Space
    e.preventDefault();
    S.playing ? pause() : play();
  } else if (e.key === "ArrowLeft") {
    e.preventDefault();
    step(-1);
  } else if (e.key === "ArrowRight") {
    e.preventDefault();
    step(1);
  }
});

// ---- Timeline marks ---------------------------------------------------------------------------

function addMark(kind, t, label) {
  const m = document.createElement("i");
  m.className = `mark ${kind}`;
  m.style.left = `${total ? (100 * t) / total : 0}%`;
  m.title = label;
  $("marks").appendChild(m);
}

function drawMarks() {
  $("marks").replaceChildren();
  events.forEach((e) => {
    if (e.kind === "value" && e.correct === false) addMark("mistake", e.elapsed_ms, describe(e));
    else if (e.kind === "hint" || e.kind === "hint_reveal") addMark("hint", e.elapsed_ms, describe(e));
  });
  const stalls = S.analysis ? S.analysis.summary.stalls : [];
  for (const s of stalls) addMark("stall", s.from_ms, interpolate(gettext("Stall of %(time)s"), { time: formatMs(s.thinking_ms) }, true));
}

// ---- Analysis ---------------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function techniqueText(p) {
  if (!p.correct) return gettext("wrong");
  return p.technique ? p.technique.name : gettext("not yet deducible (a guess)");
}

function renderAnalysis(a) {
  const box = $("analysis");
  const why = {
    held: gettext("The analysis is shown once this puzzle's daily or leaderboard period is over."),
    skipped: gettext("This game was not analysed: more games ended within an hour than are analysed."),
  }[D.analysis.status];
  if (why) {
    box.replaceChildren(el("p", { class: "muted", "data-testid": `analysis-${D.analysis.status}` }, why));
    return;
  }
  if (!a) {
    box.replaceChildren(el("p", { class: "muted", "data-testid": "analysis-pending" }, gettext("Analysing…")));
    return;
  }
  const s = a.summary;
  const figures = el(
    "dl",
    { class: "result-figures", "data-testid": "analysis-summary" },
    el("div", {}, el("dt", {}, gettext("Hardest")), el("dd", {}, s.hardest ? s.hardest.name : "–")),
    el("div", {}, el("dt", {}, gettext("Guesses")), el("dd", {}, String(s.guesses))),
    el("div", {}, el("dt", {}, gettext("Mistakes")), el("dd", {}, String(s.mistakes))),
    el("div", {}, el("dt", {}, gettext("Hints")), el("dd", {}, String(s.hints))),
  );
  const levels = el("ul", { class: "levels", "aria-label": gettext("Share of thinking time per level") });
  for (const row of s.time_by_level) {
    if (!row.ms) continue;
    const pct = Math.round(row.share * 100);
    const bar = el("span", { class: `bar ${row.level}` });
    bar.style.width = `${pct}%`;
    levels.append(el("li", {}, el("span", { class: "level" }, LEVEL_NAMES[row.level] || row.level), bar, `${pct}%`));
  }
  const stalls = el("ol", { class: "stalls" });
  s.stalls.forEach((st, i) => {
    const idx = indexOfSeq.get(st.seq) ?? 0;
    const avail = st.available
      ? interpolate(gettext(" · %(name)s was available"), { name: st.available.name }, true)
      : "";
    const b = el(
      "button",
      { type: "button", class: "link", "data-testid": `stall-${i}`, dataset: { index: String(idx) } },
      interpolate(gettext("%(time)s before %(cell)s"), { time: formatMs(st.thinking_ms), cell: st.cell_name }, true) + avail,
    );
    b.addEventListener("click", () => {
      pause();
      seek(st.from_ms);
    });
    stalls.append(el("li", {}, b));
  });
  const list = el("ol", { class: "placements", "data-testid": "placements" });
  for (const p of a.placements) {
    const idx = indexOfSeq.get(p.seq) ?? 0;
    const b = el(
      "button",
      {
        type: "button",
        class: `link ${p.correct ? (p.deducible ? "ok" : "guess") : "bad"}`,
        "data-testid": `placement-${p.seq}`,
        dataset: { index: String(idx) },
      },
      `${interpolate(gettext("%(value)s in %(cell)s"), { value: symbol(p.value), cell: p.cell_name }, true)} · ${techniqueText(p)} · ${formatMs(p.thinking_ms)}`,
    );
    b.addEventListener("click", () => {
      pause();
      jumpTo(idx);
    });
    list.append(el("li", {}, b));
  }
  box.replaceChildren(
    figures,
    el("h3", {}, gettext("Where the time went")),
    levels,
    el("h3", {}, gettext("Longest stalls")),
    s.stalls.length ? stalls : el("p", { class: "muted" }, gettext("None.")),
    el("h3", {}, gettext("Placements")),
    a.placements.length ? list : el("p", { class: "muted" }, gettext("No value placed.")),
  );
  box.dataset.ready = "1";
}

async function pollAnalysis(tries = 0) {
  if (S.analysis || tries >= POLL_TRIES) return;
  const res = await api("GET", D.urls.replay);
  if (res.ok && res.data.analysis.status === "ready") {
    S.analysis = res.data.analysis.data;
    renderAnalysis(S.analysis);
    drawMarks();
    render();
    return;
  }
  setTimeout(() => pollAnalysis(tries + 1), POLL_MS);
}

// ---- Sharing (the owner's page only) ------------------------------------------------------

function renderShare(share) {
  const link = $("share-link");
  if (!link) return;
  $("share-username").checked = share.show_username;
  $("share-off").hidden = !share.shared;
  $("share-on").textContent = share.shared ? gettext("Update") : gettext("Share this replay");
  link.replaceChildren();
  if (share.shared) {
    const url = new URL(share.url, window.location.origin).href;
    link.append(el("a", { href: share.url, "data-testid": "share-url" }, url));
  }
}

if (D.owner && $("share-on")) {
  renderShare(D.share);
  $("share-on").addEventListener("click", async () => {
    const res = await api("POST", D.urls.share, { show_username: $("share-username").checked });
    if (!res.ok) return toast(errorMessage(res.data));
    renderShare(res.data);
    toast(gettext("Anyone with the link can watch this replay."));
  });
  $("share-off").addEventListener("click", async () => {
    const res = await api("DELETE", D.urls.share);
    if (!res.ok && res.status !== 204) return toast(errorMessage(res.data));
    renderShare({ shared: false, url: null, show_username: false });
    toast(gettext("The link no longer works."));
  });
}

// ---- Start: the query's speed and position when they make sense, else ignored -----------------

const query = new URLSearchParams(window.location.search);
const qSpeed = Number(query.get("speed"));
if (SPEEDS.includes(qSpeed)) S.speed = qSpeed;
const qPos = query.get("position");
if (qPos !== null && /^\d+$/.test(qPos) && indexOfSeq.has(Number(qPos))) {
  jumpTo(indexOfSeq.get(Number(qPos)));
}

S.analysis = D.analysis.status === "ready" ? D.analysis.data : null;
renderAnalysis(S.analysis);
drawMarks();
render();
if (!S.analysis && D.analysis.status === "pending") setTimeout(() => pollAnalysis(), POLL_MS);
document.body.dataset.ready = "1";
