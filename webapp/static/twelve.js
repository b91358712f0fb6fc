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
  let first = null; // the first tile turned: its button
  let why = ""; // why the last tile tapped cannot be turned
  let busy = false;
  let madeOn = null; // the version the first tap was made on: any change clears it

  async function send(path, body) {
    if (busy) return null;
    busy = true;
    pad.classList.add("busy");
    errorBox.textContent = "";
    try {
      const response = await fetch(api + path, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          "X-CSRF-Token": csrf,
          "If-Match": `"${live.version}"`,
          "X-Spinner-Who": localStorage.getItem("spinner-who") || "",
        },
        body: JSON.stringify({ ...body, source: "pad" }),
      });
      const data = await response.json().catch(() => ({ error: say("server_said", { status: response.status }) }));
      if (!response.ok) {
        errorBox.textContent = response.status === 409 && data.version ? data.say || say("changed") : data.say || data.error;
      }
      await live.refresh();
      render(live.board);
      return response.ok ? data : null;
    } catch (error) {
      errorBox.textContent = say("offline_tap");
      return null;
    } finally {
      busy = false;
      pad.classList.remove("busy");
    }
  }

  function render(board) {
    const t = board.twelve;
    if (!t) return;
    if (madeOn !== board.version) {
      if (madeOn !== null) { first = null; why = ""; }
      madeOn = board.version;
    }
    const down = new Set(t.tiles.filter((x) => x.down).map((x) => `${x.tile}/${x.copy}`));
    buttons.forEach((b) => {
      const isDown = down.has(`${b.dataset.tile}/${b.dataset.copy}`);
      b.classList.toggle("removed", !isDown);
      b.setAttribute("aria-disabled", isDown && !t.finished ? "false" : "true");
      b.classList.toggle("chosen", b === first);
      b.setAttribute("aria-pressed", b === first ? "true" : "false");
    });
    let text;
    if (why) text = why;
    else if (t.finished) text = say("twelve_done");
    else if (first) text = say("twelve_second", { tile: first.dataset.tile });
    else if (t.last) {
      const [a, b] = t.last.tiles;
      text = say(t.last.removed ? "twelve_removed" : "twelve_back", { first: a, second: b });
    } else text = say("twelve_first");
    show(hint, text);
    hint.classList.toggle("why", Boolean(why));
    undo.disabled = !board.pad.can_undo;
    tick();
    pad.dataset.ready = "1";
  }

  pad.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    why = "";
    if (button === undo) {
      first = null;
      send("/undo", { why: "undo on the pad" });
      return;
    }
    if (!button.classList.contains("flipbtn")) return;
    if (button.getAttribute("aria-disabled") === "true") {
      why = live.board.twelve.finished ? say("twelve_done") : say("twelve_gone", { tile: button.dataset.tile });
    } else if (first === button) {
      first = null; // tapped again: not turned after all
    } else if (first === null) {
      first = button;
    } else {
      const tiles = [first.dataset.tile, button.dataset.tile];
      first = null;
      render(live.board);
      send("/events", { type: "flip", tiles });
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
