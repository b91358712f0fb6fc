// twelve, the memory game: the scorer taps the two tiles turned, and the pair is sent as one
// flip to the API, whose rules engine says whether it made 12 (removed) or not (turned back).
// Nothing here decides a rule: which tiles are face down and what each attempt did come from the
// server's board (webapp/twelve.py). The clock runs from the server's time of the first flip.
(() => {
  "use strict";
  const root = document.getElementById("board");
  if (!root || !window.spinnerBoard) return;
  const live = window.spinnerBoard;
  const say = window.spinnerSay || ((key) => key);
  const show = window.spinnerShow || ((el, text) => { el.textContent = text; });
  const whoHeader = window.spinnerWho || (() => "");

  // -- the clock, for every phone watching: seconds since the server recorded the first flip --
  const skew = root.dataset.now ? Date.parse(root.dataset.now) - Date.now() : 0;
  function clock(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
  }
  function tick() {
    const el = document.getElementById("twelve-clock");
    if (!el || el.dataset.running !== "1" || !el.dataset.startedAt) return;
    const started = Date.parse(el.dataset.startedAt);
    // never less than the last flip's time (an imported game's times come from another clock)
    const last = Number(el.dataset.time) || 0;
    if (!Number.isNaN(started)) el.textContent = clock(Math.max(last, (Date.now() + skew - started) / 1000));
  }
  setInterval(tick, 1000);

  // -- the scorer's pad ------------------------------------------------------------------------
  const pad = document.getElementById("twelve-pad");
  if (!pad) { live.onChange(tick); return; }
  const api = root.dataset.api;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const hint = document.getElementById("twelve-hint");
  const errorBox = document.getElementById("pad-error");
  const undo = document.getElementById("twelve-undo");
  const buttons = Array.from(pad.querySelectorAll(".flipbtn"));
  let first = null; // the first tile of the attempt being tapped: its button
  let firstOn = null; // the version the board stood at when it was tapped
  let why = ""; // why a tap was not taken, or a chosen tile let go
  // Taps are taken as they come, sending or not: each attempt tapped (both tiles) and each Undo
  // waits here, in order, and is sent once the one before it is recorded. A tile chosen stays
  // chosen through this phone's own changes; another phone's change lets it go, and says so.
  const queue = []; // {tiles, buttons, on} an attempt, or {undo: true, on}; `on`: the version tapped on
  let sending = false;
  const ours = new Set(); // the versions this phone's own changes made
  let latest = live.version; // the newest version known: the board's, or this phone's last change's
  let seen = live.version; // the version the choice on the pad was last checked against
  let seenAttempts = null;
  // Which copy of a tile fades once removed (two sets): the one tapped, where this phone tapped it;
  // the server knows only how many copies of each tile are left face down.
  const gone = {}; // tile -> copies this phone saw removed, in order

  // Whether a change other than this phone's own came after `from` up to `to`.
  function othersSince(from, to) {
    for (let v = from + 1; v <= to; v += 1) if (!ours.has(v)) return true;
    return false;
  }

  function pairWords(tiles) { return say("twelve_pair", { first: tiles[0], second: tiles[1] }); }

  async function post(item) {
    const path = item.undo ? "/undo" : "/events";
    const body = item.undo ? { why: "undo on the pad" } : { type: "flip", tiles: item.tiles };
    const response = await fetch(api + path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRF-Token": csrf,
        "If-Match": `"${latest}"`,
        "X-Spinner-Who": whoHeader(),
      },
      body: JSON.stringify({ ...body, source: "pad" }),
    });
    const data = await response.json().catch(() => ({ error: say("server_said", { status: response.status }) }));
    if (!response.ok) {
      errorBox.textContent = response.status === 409 && data.version ? data.say || say("changed") : data.say || data.error;
      return null;
    }
    return data;
  }

  // Send what waits, one after another; a refusal drops the attempts tapped after it (they were
  // tapped on a board that did not come), and the pad says which.
  async function drain() {
    if (sending) return;
    sending = true;
    pad.classList.add("busy");
    errorBox.textContent = "";
    try {
      while (queue.length) {
        const item = queue[0];
        latest = Math.max(latest, live.version);
        if (othersSince(item.on, latest)) {
          errorBox.textContent = say("changed");
          break;
        }
        let data = null;
        try {
          data = await post(item);
        } catch (error) {
          errorBox.textContent = say("offline_tap");
        }
        if (!data) break;
        queue.shift();
        ours.add(data.version);
        latest = Math.max(latest, data.version);
        const score = data.score || {};
        const at = data.change ? data.change.event : null;
        if (item.tiles && Array.isArray(score.removed_at) && score.removed_at.includes(at)) {
          item.buttons.forEach((b) => { (gone[b.dataset.tile] = gone[b.dataset.tile] || []).push(Number(b.dataset.copy)); });
        }
      }
      const dropped = queue.filter((item) => item.tiles).map((item) => pairWords(item.tiles));
      if (queue.length) why = dropped.length ? say("twelve_not_sent", { pairs: dropped.join("; ") }) : "";
      queue.length = 0;
    } finally {
      sending = false;
    }
    try { await live.refresh(); } catch (error) { /* the live board catches up by itself */ }
    render(live.board);
    if (!sending) pad.classList.remove("busy"); // not busy until the board shows what was sent
  }

  function enqueue(item) {
    queue.push(item);
    render(live.board);
    drain();
  }

  // Each tile's copies that show as removed: those this phone saw go first, then from the last copy.
  function fadedCopies(t) {
    const copies = {};
    t.tiles.forEach((x) => {
      const c = (copies[x.tile] = copies[x.tile] || { all: [], down: 0 });
      c.all.push(x.copy);
      if (x.down) c.down += 1;
    });
    const faded = new Set();
    Object.entries(copies).forEach(([tile, c]) => {
      const n = c.all.length - c.down;
      const mine = (gone[tile] || []).filter((copy) => c.all.includes(copy)).slice(0, n);
      gone[tile] = mine; // an undo brings back the last removed
      const rest = c.all.filter((copy) => !mine.includes(copy)).sort((a, b) => b - a);
      mine.concat(rest).slice(0, n).forEach((copy) => faded.add(`${tile}/${copy}`));
    });
    return faded;
  }

  function render(board) {
    const t = board.twelve;
    if (!t) return;
    const faded = fadedCopies(t);
    const isFaded = (b) => faded.has(`${b.dataset.tile}/${b.dataset.copy}`);
    // Another phone changed the game since this one looked: a tile chosen here is let go, in words
    // (whether it is still face down, and tapping it again starts the attempt anew). Judged once
    // nothing of this phone's is on its way, so that its own changes are known as its own.
    if (!sending && board.version > seen) {
      if (first && othersSince(Math.max(seen, firstOn), board.version)) {
        const tile = first.dataset.tile;
        const flipped = seenAttempts !== null && t.attempts > seenAttempts;
        if (isFaded(first)) why = say("twelve_let_go_gone", { tile });
        else why = say(flipped ? "twelve_let_go" : "twelve_let_go_changed", { tile });
        first = null;
      }
      seen = board.version;
    }
    if (first && isFaded(first)) { // removed meanwhile (it was in an attempt of this phone's that made 12)
      why = say("twelve_gone", { tile: first.dataset.tile });
      first = null;
    }
    if (!sending) seenAttempts = t.attempts;
    const waiting = new Set(queue.flatMap((item) => item.buttons || []));
    buttons.forEach((b) => {
      const isDown = !isFaded(b);
      const chosen = b === first || waiting.has(b);
      b.classList.toggle("removed", !isDown);
      b.setAttribute("aria-disabled", isDown && !t.finished ? "false" : "true");
      b.classList.toggle("chosen", chosen);
      b.classList.toggle("waiting", waiting.has(b));
      b.setAttribute("aria-pressed", chosen ? "true" : "false");
    });
    let text;
    const pending = queue.filter((item) => item.tiles);
    if (why) text = why;
    else if (first) text = say("twelve_second", { tile: first.dataset.tile });
    else if (pending.length) text = say("twelve_sending", { pairs: pending.map((item) => pairWords(item.tiles)).join("; ") });
    else if (t.finished) text = say("twelve_done");
    else if (t.last) {
      const [a, b] = t.last.tiles;
      text = say(t.last.removed ? "twelve_removed" : "twelve_back", { first: a, second: b });
    } else text = say("twelve_first");
    show(hint, text);
    hint.classList.toggle("why", Boolean(why));
    undo.disabled = !board.pad.can_undo && !pending.length;
    tick();
    pad.dataset.ready = "1";
  }

  pad.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    why = "";
    if (button === undo) {
      first = null;
      enqueue({ undo: true, on: live.version });
      return;
    }
    if (!button.classList.contains("flipbtn")) return;
    if (button.getAttribute("aria-disabled") === "true") {
      why = live.board.twelve.finished ? say("twelve_done") : say("twelve_gone", { tile: button.dataset.tile });
    } else if (first === button) {
      first = null; // tapped again: not turned after all
    } else if (first === null) {
      first = button;
      firstOn = live.version;
    } else {
      // the two tiles tapped, in the order tapped: the one attempt sent, whatever else waits
      const item = { tiles: [first.dataset.tile, button.dataset.tile], buttons: [first, button], on: firstOn };
      first = null;
      enqueue(item);
      return;
    }
    render(live.board);
  });

  const whoBox = document.getElementById("who");
  if (whoBox) {
    whoBox.value = localStorage.getItem("spinner-who") || "";
    whoBox.addEventListener("change", () => localStorage.setItem("spinner-who", whoBox.value.trim()));
  }
  live.onChange(render);
})();
