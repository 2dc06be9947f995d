// The setter's bench, its list of what is drawn: each item in words (what a screen reader
// reads, too) with a Remove button. The words are the page's (play/bench_words.py).

import * as M from "./bench_model.js";

const LINES = {
  thermometer: "Thermometer from %(cell)s, %(count)s cells",
  palindrome: "Palindrome from %(cell)s, %(count)s cells",
  renban: "Renban from %(cell)s, %(count)s cells",
  whispers: "German whispers from %(cell)s, %(count)s cells",
  region_sum: "Region-sum line from %(cell)s, %(count)s cells",
  between: "Between line from %(cell)s, %(count)s cells",
  extra_region: "Extra region from %(cell)s, %(count)s cells",
};
const TOGGLES = {
  antiknight: "Anti-knight",
  antiking: "Anti-king",
  nonconsecutive: "Non-consecutive",
  diagonals: "Both diagonals",
  black_dots_negative: "Every black dot given",
  xv_negative: "Every X and V given",
  regions: "Jigsaw regions",
};
const ARROWS = { DR: "↘", DL: "↙", UR: "↗", UL: "↖" };

/** One drawn item in words. `W(text)`: the page's words; `n`: the grid's size. */
export function describe(o, W, n) {
  const say = (text, vars) => interpolate(W(text), vars, true);
  const name = (c) => `r${Math.floor(c / n) + 1}c${(c % n) + 1}`;
  const count = (o.cells || []).length;
  const at = count ? name(o.cells[0]) : "";
  const t = o.type;
  if (t in LINES) return say(LINES[t], { cell: at, count });
  if (t in TOGGLES) return W(TOGGLES[t]);
  if (t === "arrow") return say("Arrow: circle %(cell)s, %(count)s cells on its line", { cell: name(o.circle[0]), count: o.line.length });
  if (t === "cage") return o.sum === null ? say("Killer cage at %(cell)s, %(count)s cells, no sum", { cell: at, count }) : say("Killer cage at %(cell)s, %(count)s cells, sum %(sum)s", { cell: at, count, sum: o.sum });
  if (t === "odd" || t === "even") return say(t === "odd" ? "Odd: %(cell)s" : "Even: %(cell)s", { cell: name(o.cell) });
  if (t === "kropki") return say(o.colour === "white" ? "White dot: %(cell)s and %(other)s" : "Black dot: %(cell)s and %(other)s", { cell: at, other: name(o.cells[1]) });
  if (t === "xv") return say("%(mark)s: %(cell)s and %(other)s", { mark: o.sum === 10 ? "X" : "V", cell: at, other: name(o.cells[1]) });
  if (t === "sandwich") return say(o.line === "row" ? "Sandwich sum %(sum)s on row %(number)s" : "Sandwich sum %(sum)s on column %(number)s", { sum: o.sum, number: o.index + 1 });
  if (t === "little_killer") return say("Little killer %(sum)s through %(cell)s, pointing %(direction)s", { sum: o.sum, cell: at, direction: ARROWS[o.direction] });
  return t;
}

/** Fill `list` (a <ul>) with the drawing's items; `onRemove()` runs after one is removed. */
export function listDrawn(list, m, W, onRemove) {
  list.textContent = "";
  const drawn = M.drawnList(m);
  if (!drawn.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = W("Nothing drawn yet.");
    list.appendChild(li);
  }
  for (const entry of drawn) {
    const li = document.createElement("li");
    const text = describe(entry.item, W, m.size);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button-small button-ghost";
    button.textContent = W("Remove");
    button.setAttribute("aria-label", `${W("Remove")}: ${text}`);
    button.addEventListener("click", () => {
      M.removeDrawn(m, entry);
      onRemove();
    });
    li.append(text, " ", button);
    list.appendChild(li);
  }
}
