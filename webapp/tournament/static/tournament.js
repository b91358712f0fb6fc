// Tournament night: the round clock counts down to the server's times, and the page follows
// the tournament (results reach it from the tables' matches) by asking the API every few seconds.
// The board swaps its content in place (no flicker on a projector); the director's page reloads,
// unless the director is typing, when it offers to.
(() => {
  "use strict";
  const root = document.getElementById("tournament");
  if (!root) return;
  const POLL_MS = Number(root.dataset.pollMs) || 4000;
  const board = Boolean(root.dataset.board);
  let clock = null;
  let skew = 0; // how far this machine's clock is from the server's, which rules
  let bellShown = false;
  let seen = null;
  // The page's words, in its language (webapp/wording.py, script_words); English if words.js is missing.
  const say = (key, english) => (window.spinnerSay ? window.spinnerSay(key) : english);

  function readClock() {
    const el = document.getElementById("clock");
    clock = el ? JSON.parse(el.dataset.clock) : null;
    if (clock) {
      skew = Date.parse(clock.now) - Date.now();
      bellShown = bellShown || clock.rung;
    }
  }

  function two(n) { return String(n).padStart(2, "0"); }
  function span(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    return `${Math.floor(s / 60)}:${two(s % 60)}`;
  }

  function beep() {
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.6);
    } catch (e) { /* no sound: the clock turns red anyway */ }
  }

  // Times come in UTC from the server; show them in this machine's own time.
  function localTimes() {
    document.querySelectorAll("time[datetime]").forEach((el) => {
      const moment = new Date(el.dateTime);
      if (!Number.isNaN(moment.getTime())) {
        el.textContent = moment.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      }
    });
  }

  function tick() {
    const el = document.getElementById("clock");
    if (!el || !clock) return;
    const phase = el.dataset.phase;
    const now = Date.now() + skew;
    const time = document.getElementById("clock-time");
    const note = document.getElementById("clock-note");
    el.classList.remove("rung", "break");
    if (phase === "round" && clock.rings_at) {
      const left = Date.parse(clock.rings_at) - now;
      if (left > 0) {
        time.textContent = span(left);
        note.textContent = "";
      } else {
        el.classList.add("rung");
        time.textContent = say("clock_bell", "bell");
        note.textContent = say("clock_rung", "Bell rung: each table finishes the hand in play; the higher score wins.");
        if (!bellShown) { bellShown = true; beep(); poll(); }
      }
    } else if (phase === "break" && clock.break_until) {
      const left = Date.parse(clock.break_until) - now;
      el.classList.add("break");
      time.textContent = left > 0 ? span(left) : "0:00";
      if (left <= 0) note.textContent = say("break_over", "The break is over: call the players back.");
    } else {
      time.textContent = "";
    }
  }

  // The page's own copy marks the names in its sentences (U+2068...U+2069, webapp/bidi.py); the API's does not.
  const plain = (text) => String(text).replace(/[\u2068\u2069]/g, "");
  function signature(data) {
    const tables = data.rounds.length ? data.rounds[data.rounds.length - 1].tables : [];
    return JSON.stringify([data.version, data.phase, tables.map((t) => [t.game_version, plain(t.status), t.score])]);
  }

  function editing() {
    const active = document.activeElement;
    if (active && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName)) return true;
    return Array.from(document.querySelectorAll("details.result-form[open], #register-form")).some((el) =>
      Array.from(el.querySelectorAll("input[name=reason], input[name=name], input[name=player1]")).some((i) => i.value));
  }

  async function swap() {
    const response = await fetch(window.location.href, { cache: "no-store" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("tournament");
    if (!fresh) return;
    root.innerHTML = fresh.innerHTML;
    root.dataset.version = fresh.dataset.version;
    readClock();
    localTimes();
    tick();
  }

  async function poll() {
    try {
      const response = await fetch(root.dataset.api, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!response.ok) return;
      const data = await response.json();
      clock = data.clock;
      skew = Date.parse(clock.now) - Date.now();
      const sig = signature(data);
      if (seen === null) { seen = sig; return; }
      if (sig === seen) return;
      if (board) {
        seen = sig;
        await swap();
      } else if (!editing()) {
        window.location.reload();
      } else {
        document.getElementById("stale").hidden = false;
      }
    } catch (e) { /* offline for a moment: try again at the next poll */ }
  }

  const reload = document.getElementById("reload");
  if (reload) reload.addEventListener("click", () => window.location.reload());
  const initial = document.getElementById("tournament-data");
  if (initial) seen = signature(JSON.parse(initial.textContent));
  readClock();
  localTimes();
  tick();
  setInterval(tick, 1000);
  setInterval(poll, POLL_MS);
  poll();
  window.spinnerTournament = { poll, version: () => Number(root.dataset.version) };
})();
