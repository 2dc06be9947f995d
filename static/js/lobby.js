// The lobby's start form. The server marks each level with the rules and sizes it cannot be
// served at now, and why (data-missing on its label: "variant:size:reason", the reason
// not_made or later); CSS greys those out on its own. Here they also become disabled, and a
// change that leaves the chosen level unavailable moves the choice to the nearest level that
// is, saying why, so the form never asks for a puzzle that cannot be had.

const form = document.getElementById("new-game-form");
const levels = [...form.querySelectorAll("input[name=difficulty]")];
const note = document.getElementById("level-note");
const start = form.querySelector("[type=submit]");

const levelName = (input) => input.nextElementSibling.textContent.trim();

function chosenSize() {
  const size = form.querySelector("input[name=size]:checked");
  return size ? size.value : "";
}

function chosenVariant() {
  const variant = form.querySelector("input[name=variant]:checked");
  return variant ? variant.value : "classic";
}

/** Why the level `input` cannot be had at `size` under the chosen rules, or "". */
function lacks(input, size) {
  const missing = (input.closest(".choice").dataset.missing || "").split(" ");
  const token = missing.find((t) => t.startsWith(`${chosenVariant()}:${size}:`));
  return token ? token.split(":")[2] : "";
}

/** The level the size has that is closest to `from` (index), the easier one on a tie. */
function nearestOpen(from) {
  const open = levels.filter((input) => !input.disabled);
  const distance = (input) => Math.abs(levels.indexOf(input) - from);
  open.sort((a, b) => distance(a) - distance(b) || levels.indexOf(a) - levels.indexOf(b));
  return open[0] || null;
}

function sync() {
  const size = chosenSize();
  for (const input of levels) input.disabled = Boolean(lacks(input, size));
  const chosen = levels.find((input) => input.checked) || null;
  let message = "";
  if (!chosen || chosen.disabled) {
    const instead = nearestOpen(chosen ? levels.indexOf(chosen) : 0);
    if (instead) {
      instead.checked = true;
      if (chosen) {
        const names = { level: levelName(chosen), size, instead: levelName(instead) };
        message =
          lacks(chosen, size) === "not_made"
            ? interpolate(note.dataset.notMade, names, true) // the page's words: no catalog bytes
            : interpolate(gettext("No %(level)s %(size)s×%(size)s puzzles yet: %(instead)s instead."), names, true);
      }
    } else {
      message = interpolate(gettext("No %(size)s×%(size)s puzzles yet: pick another size."), { size }, true);
    }
  }
  start.disabled = !levels.some((input) => input.checked && !input.disabled);
  note.textContent = message;
  note.hidden = !message;
}

form.addEventListener("change", (e) => {
  if (e.target.name === "size" || e.target.name === "variant") sync();
});
// A level can no longer be submitted once it is unavailable: the button is off, and a stale
// form (restored by the browser) is checked again before it goes.
form.addEventListener("submit", (e) => {
  sync();
  if (start.disabled) e.preventDefault();
});
sync();
