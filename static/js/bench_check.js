// The setter's bench, its live check: the drawing goes to /api/v1/solver/check/ 600 ms
// after the last edit, one request in flight (a newer edit aborts the older one). The
// verdict says when the work budget (422 too_hard) or the rate limit (429, retried after
// its Retry-After) stopped a check. "Play this" starts a game through the games API.

import { csrfToken, errorMessage, toast } from "./sudoku.js";

const DEBOUNCE_MS = 600;
const $ = (id) => document.getElementById(id);

export function verdict(text, tone) {
  const el = $("bench-verdict");
  el.textContent = text;
  el.className = `verdict${tone ? ` ${tone}` : ""}`;
}

function post(url, body, signal) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
    signal,
  });
}

/** The live check. `body()`: the drawing as the API takes it; `onAnswer(a)`: draw what
 * the check found on the board and return the verdict ({text, tone}); `W`: the page's
 * words (play/bench_words.py). */
export function checker({ urls, W, body, onAnswer }) {
  const say = (text, vars) => interpolate(W(text), vars || {}, true);
  let timer = 0;
  let retry = 0;
  let controller = null;

  function hideResults() {
    $("bench-play").hidden = true;
    $("bench-export").hidden = true;
  }

  function cancel() {
    clearTimeout(timer);
    clearTimeout(retry);
    if (controller) controller.abort();
    controller = null;
    hideResults();
  }

  function schedule() {
    cancel();
    verdict(W("Checking the drawing…"), "");
    timer = setTimeout(run, DEBOUNCE_MS);
  }

  async function run() {
    if (controller) controller.abort();
    const mine = new AbortController();
    controller = mine;
    let response;
    let answer = {};
    try {
      response = await post(urls.check, body(), mine.signal);
      answer = await response.json().catch(() => ({}));
    } catch {
      if (mine.signal.aborted) return; // a newer drawing took over
      verdict(gettext("No connection to the server."), "bad");
      return;
    }
    if (controller !== mine) return;
    controller = null;
    if (response.status === 429) {
      const seconds = Math.max(1, Number(response.headers.get("Retry-After")) || 5);
      verdict(say("Too many checks at once: the next one runs in %(seconds)s s.", { seconds }), "bad");
      retry = setTimeout(run, seconds * 1000);
      return;
    }
    if (response.status === 422) {
      verdict(W("The work budget ran out before the count finished: this puzzle is too hard to check here. Simplify it, or add givens."), "bad");
      return;
    }
    if (!response.ok) {
      verdict(say("The solver could not read the drawing: %(why)s", { why: errorMessage(answer, String(response.status)) }), "bad");
      return;
    }
    const found = onAnswer(answer);
    verdict(found.text, found.tone);
    $("bench-play").hidden = answer.solutions !== 1;
    showExport(answer.export);
  }

  function showExport(ex) {
    $("bench-export").hidden = !ex;
    if (!ex) return;
    $("bench-share").href = ex.solve_url;
    $("bench-sudokupad").href = ex.sudokupad_url;
    $("bench-fpuzzles").href = ex.fpuzzles_url;
    $("bench-json").href = `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(ex.fpuzzles))}`;
  }

  async function play() {
    const button = $("bench-play");
    button.disabled = true;
    const response = await post(urls.games, body()).catch(() => null);
    const answer = response ? await response.json().catch(() => ({})) : {};
    button.disabled = false;
    if (response && response.ok && answer.id) window.location.assign(`${urls.play}${answer.id}/`);
    else toast(errorMessage(answer, gettext("That puzzle cannot be played.")));
  }

  return { schedule, cancel, play };
}
