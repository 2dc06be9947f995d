// The race page (the lobby, the countdown, the live standings and the results), and the
// race panel beside a racer's board on the game page, kept up to date over the race socket (/ws/races/<code>/, docs/api.md "Races"). The server sends the
// whole race on connecting (and again after a reconnect), then small updates; it never
// sends a cell, only how many each racer has right. Times come from the server as
// "milliseconds from now", so this page never trusts its own clock for the race.

import { formatMs, pageData, toast } from "./sudoku.js";

const data = pageData("race-data");
let race = data.race;
let you = data.you;
let socket = null;
let retry = 0;
let deadline = null; // performance.now() at which the countdown or the time limit ends
let sawCountdown = race.status === "countdown";

const el = (id) => document.getElementById(id);
const statusEl = el("race-status");
const body = el("standings-body");
const live = el("race-live");
const connection = el("race-connection");
const buttons = { join: el("race-join"), leave: el("race-leave"), start: el("race-start") };
const play = el("race-play");
const login = el("race-login");

const OUTCOMES = {
  racing: gettext("Racing"),
  completed: gettext("Finished"),
  lost: gettext("Out of mistakes"),
  gave_up: gettext("Gave up"),
  timed_out: gettext("Out of time"),
};

// --- Screen readers: progress, politely, at most one summary every few seconds -------------

let pending = "";
let announceTimer = 0;

function announce(text, now = false) {
  pending = text;
  if (announceTimer && !now) return;
  clearTimeout(announceTimer);
  live.textContent = pending;
  announceTimer = setTimeout(() => {
    announceTimer = 0;
    if (live.textContent !== pending) live.textContent = pending;
  }, 3000);
}

// --- Drawing ------------------------------------------------------------------------------

const MARKS = {
  held: gettext("Not ranked: held for a staff review"),
  flagged: gettext("Not ranked: flagged as faster than people play"),
  provisional: gettext("provisional: a new player"),
};

function placeText(racer) {
  // Before the start nobody races yet: a racer has joined.
  if (race.status === "lobby" || race.status === "countdown") return gettext("Joined");
  if (racer.mark && racer.place) {
    return `${interpolate(gettext("#%(place)s in %(time)s"), { place: racer.place, time: formatMs(racer.time_ms) }, true)} (${MARKS[racer.mark] || racer.mark})`;
  }
  if (racer.mark) {
    return `${OUTCOMES[racer.outcome] || racer.outcome} (${MARKS[racer.mark] || racer.mark})`;
  }
  if (racer.place) {
    return interpolate(gettext("#%(place)s in %(time)s"), { place: racer.place, time: formatMs(racer.time_ms) }, true);
  }
  return OUTCOMES[racer.outcome] || racer.outcome;
}

function row(racer) {
  const tr = document.createElement("tr");
  tr.dataset.player = racer.player;
  tr.dataset.testid = "racer";
  if (racer.player === you.player) tr.classList.add("is-you");
  const name = document.createElement("th");
  name.scope = "row";
  name.textContent = racer.name;
  const progress = document.createElement("td");
  if (race.cells) {
    const bar = document.createElement("progress");
    bar.max = race.cells;
    bar.value = racer.progress;
    bar.setAttribute("aria-label", interpolate(gettext("%(name)s's progress"), { name: racer.name }, true));
    const count = document.createElement("span");
    count.className = "count";
    count.dataset.testid = "racer-progress";
    count.textContent = `${racer.progress}/${race.cells}`;
    progress.append(bar, " ", count);
  } else {
    progress.textContent = "–";
  }
  const mistakes = document.createElement("td");
  mistakes.textContent = racer.mistakes;
  mistakes.dataset.testid = "racer-mistakes";
  const result = document.createElement("td");
  result.dataset.testid = "racer-result";
  result.textContent = placeText(racer);
  if (racer.replay && race.status === "finished") {
    const link = document.createElement("a");
    link.href = racer.replay;
    link.textContent = gettext("Replay");
    link.dataset.testid = "racer-replay";
    result.append(" · ", link);
  }
  tr.append(name, progress, mistakes, result);
  return tr;
}

function statusText() {
  const left = deadline === null ? 0 : Math.max(0, deadline - performance.now());
  switch (race.status) {
    case "lobby":
      return interpolate(
        gettext("Waiting for racers: %(count)s of %(capacity)s. The host starts the race."),
        { count: race.racers.length, capacity: race.capacity },
        true,
      );
    case "countdown":
      return interpolate(gettext("Starting in %(seconds)s…"), { seconds: Math.ceil(left / 1000) }, true);
    case "running":
      return interpolate(gettext("Running: %(time)s left"), { time: formatMs(left) }, true);
    default:
      return gettext("The race is over.");
  }
}

function show(element, visible) {
  if (element) element.hidden = !visible;
}

function render() {
  statusEl.dataset.status = race.status;
  statusEl.textContent = statusText();
  const racers = [...race.racers];
  if (race.status === "finished") {
    racers.sort((a, b) => (a.place || 99) - (b.place || 99));
  }
  body.replaceChildren(...racers.map(row));
  const signedIn = you.player !== null;
  const lobby = race.status === "lobby";
  show(buttons.join, signedIn && lobby && !you.racer && race.racers.length < race.capacity);
  show(buttons.leave, lobby && you.racer && !you.host);
  show(buttons.start, lobby && you.host);
  show(login, !signedIn && lobby);
  const mine = race.racers.find((r) => r.player === you.player);
  show(play, you.game && race.status === "running" && mine && mine.outcome === "racing");
  if (play && you.game) play.href = data.play.replace("{game}", you.game);
}

function setDeadline() {
  const ms = race.status === "countdown" ? race.starts_in_ms : race.status === "running" ? race.ends_in_ms : null;
  deadline = ms === null || ms === undefined ? null : performance.now() + ms;
}

setInterval(() => {
  if (deadline !== null) statusEl.textContent = statusText();
}, 250);

// --- Messages -----------------------------------------------------------------------------

function onRace(next) {
  const before = race;
  race = next;
  setDeadline();
  if (race.status === "countdown" && before.status !== "countdown") {
    sawCountdown = true;
    announce(statusText(), true);
  }
  if (race.status === "running" && before.status !== "running") {
    announce(gettext("The race has started!"), true);
    if (you.racer) send("snapshot"); // to learn our game
  }
  for (const racer of race.racers) {
    const old = before.racers.find((r) => r.player === racer.player);
    if (!old) announce(interpolate(gettext("%(name)s joined."), { name: racer.name }, true));
    else if (racer.outcome !== old.outcome) announce(`${racer.name}: ${placeText(racer)}`, true);
  }
  if (race.status === "finished" && before.status !== "finished") announce(gettext("The race is over."), true);
  render();
}

function onProgress(message) {
  const racer = race.racers.find((r) => r.player === message.player);
  if (!racer) return;
  racer.progress = message.progress;
  racer.mistakes = message.mistakes;
  render();
  announce(
    interpolate(
      gettext("%(name)s: %(progress)s of %(cells)s cells, %(mistakes)s mistakes"),
      { name: racer.name, progress: racer.progress, cells: race.cells, mistakes: racer.mistakes },
      true,
    ),
  );
}

function onSnapshot(message) {
  you = message.you;
  onRace(message.race);
  const mine = race.racers.find((r) => r.player === you.player);
  // Everyone who watched the countdown goes to their board the moment it starts.
  if (play && sawCountdown && you.game && race.status === "running" && mine && mine.outcome === "racing") {
    sawCountdown = false;
    window.location.assign(data.play.replace("{game}", you.game));
  }
}

function onMessage(event) {
  let message;
  try {
    message = JSON.parse(event.data);
  } catch {
    return;
  }
  if (message.type === "snapshot") onSnapshot(message);
  else if (message.type === "race") onRace(message.race);
  else if (message.type === "progress") onProgress(message);
  else if (message.type === "error") toast(message.error.message);
}

function send(type) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type }));
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}${data.socket}`, ["sudoku.race.v1"]);
  socket.addEventListener("open", () => {
    retry = 0;
    connection.textContent = "";
    document.body.dataset.raceLive = "1";
  });
  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", (event) => {
    document.body.dataset.raceLive = "0";
    if (event.code === 4404) {
      connection.textContent = gettext("This race cannot be followed live.");
      return;
    }
    if (event.code === 4409) {
      connection.textContent = gettext(
        "Too many race pages are open: close some, then reload this one.",
      );
      return;
    }
    // 4401: this page's sign-in ended (signed out, or the password changed elsewhere);
    // the page connects again with whatever sign-in the browser has now.
    connection.textContent = gettext("Connection lost: reconnecting…");
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 500 * 2 ** retry);
  });
}

for (const [type, button] of Object.entries(buttons)) {
  if (button) button.addEventListener("click", () => send(type));
}
el("race-copy")?.addEventListener("click", async () => {
  const link = el("race-link");
  link.select();
  try {
    await navigator.clipboard.writeText(link.value);
    toast(gettext("Link copied."));
  } catch {
    toast(gettext("Select the link and copy it."));
  }
});

setDeadline();
render();
connect();
