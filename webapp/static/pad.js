// The manual score pad: every tap becomes one event of GAME_RECORD.md sent to the API, which
// has the scorer check it. Nothing here decides a rule or a score: which ends a tile fits, whose
// turn it is and every number shown come from the server's board (the scorer's answer).
(() => {
  "use strict";
  const pad = document.getElementById("pad");
  const root = document.getElementById("board");
  if (!pad || !root || !window.spinnerBoard) return;
  const live = window.spinnerBoard;
  const say = window.spinnerSay || ((key) => key);
  const api = root.dataset.api;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const errorBox = document.getElementById("pad-error");
  const hint = document.getElementById("tiles-hint");
  let seat = null;
  let chosenSeat = false; // the scorer tapped a seat: keep it until the next event lands
  let tile = null;
  const shown = new Set(); // tiles picked for "Show tiles" at the end of a hand
  let busy = false;
  // The version the pad's choices were made on. Every event recorded (here, on another phone,
  // an undo) moves the turn on: a seat or tile chosen before it must not carry over to the next
  // tap, or a play lands on the wrong seat. The live stream may deliver the new board before
  // our own POST answers, so this is checked on every render, not only after `send`.
  let madeOn = null;
  let why = ""; // why the last tile tapped cannot be played, said next to the tiles

  const $ = (selector) => pad.querySelector(selector);
  const $$ = (selector) => Array.from(pad.querySelectorAll(selector));

  function fail(message) { errorBox.textContent = message || ""; }

  async function send(path, body, method = "POST") {
    if (busy) return null;
    busy = true;
    pad.classList.add("busy");
    fail("");
    try {
      const response = await fetch(api + path, {
        method,
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
        fail(response.status === 409 && data.version ? say("changed") : data.say || data.error);
        await live.refresh();
        return null;
      }
      forget();
      await live.refresh();
      render(live.board); // the stream may have brought this version before the answer came
      return data;
    } catch (error) {
      fail(say("offline_tap"));
      return null;
    } finally {
      busy = false;
      pad.classList.remove("busy");
    }
  }

  function inPlay() { return live.board.pad.in_play; }

  function forget() {
    why = "";
    tile = null;
    chosenSeat = false;
    shown.clear();
  }

  function render(board) {
    const cur = board.current;
    if (madeOn !== board.version) {
      if (madeOn !== null) forget();
      madeOn = board.version;
    }
    if (!chosenSeat) {
      if (cur && cur.end === null && cur.turn !== null && cur.turn !== undefined) seat = cur.turn;
      else if (cur && cur.end === null) seat = null; // nobody's turn yet: the scorer taps who leads
      else if (cur && cur.awaiting_pips && cur.awaiting_pips.length) seat = cur.awaiting_pips[0];
      else if (seat === null) seat = 0;
    }
    $$(".seat").forEach((b) => {
      const on = Number(b.dataset.seat) === seat;
      b.classList.toggle("on", on);
      b.setAttribute("aria-checked", on ? "true" : "false");
    });
    const onTable = new Set(board.pad.on_table);
    const fits = board.pad.fits;
    $$(".tilebtn").forEach((b) => {
      const name = b.dataset.tile;
      const played = onTable.has(name);
      const fitting = inPlay() && fits[name] && fits[name].length > 0;
      b.classList.toggle("played", played);
      b.classList.toggle("nofit", !played && inPlay() && !fitting);
      b.classList.toggle("chosen", name === tile || shown.has(name));
      // A tile that cannot be played now stays tappable, to say why (aria-disabled, not disabled).
      const off = played || (inPlay() ? !fitting : !cur);
      b.setAttribute("aria-disabled", off ? "true" : "false");
      b.setAttribute("aria-pressed", name === tile || shown.has(name) ? "true" : "false");
    });
    const ends = cur ? cur.open_ends || {} : {};
    const choices = tile && fits[tile] ? fits[tile] : [];
    $$(".end").forEach((b) => {
      const end = b.dataset.end;
      b.querySelector("b").textContent = end in ends ? ends[end] : "";
      b.disabled = !choices.includes(end);
      b.classList.toggle("on", choices.includes(end));
    });
    if (why) hint.textContent = why;
    else if (!cur) hint.textContent = say("start_hand");
    else if (inPlay()) {
      hint.textContent = tile ? say("where", { tile })
        : seat === null ? say("tap_leader") : say("tap_tile");
    } else hint.textContent = (cur.awaiting_pips || []).length ? say("tap_left") : say("hand_over");
    hint.classList.toggle("why", Boolean(why));
    $("#pass").disabled = !board.pad.can_pass;
    $("#draw").disabled = !board.pad.can_draw;
    $("#next-hand").hidden = !board.next_hand;
    $("#end-hand").open = Boolean(cur && cur.end !== null && (cur.awaiting_pips || []).length);
    pipsForEveryone(board);
  }

  // The pips of every player still to count, in one step: a box each, one button.
  function pipsForEveryone(board) {
    const box = $("#pips-all");
    const cur = board.current;
    const waiting = cur && cur.end !== null ? cur.awaiting_pips || [] : [];
    const key = `${board.version}:${waiting.join(",")}`;
    $("#send-all-pips").hidden = waiting.length < 2;
    if (box.dataset.key === key) return; // typed numbers stay while nothing changed
    box.dataset.key = key;
    box.replaceChildren(...(waiting.length < 2 ? [] : waiting.map((s) => {
      const label = document.createElement("label");
      label.textContent = board.players[s];
      const input = document.createElement("input");
      input.inputMode = "numeric";
      input.maxLength = 3;
      input.dataset.seat = String(s);
      label.append(input);
      return label;
    })));
  }

  async function sendAllPips() {
    const boxes = $$("#pips-all input");
    if (!boxes.every((b) => /^\d+$/.test(b.value.trim()))) { fail(say("pips_number")); return; }
    for (const b of boxes) { // one event each, in turn: each is checked as it lands
      const done = await send("/events", { type: "pips", seat: Number(b.dataset.seat), pips: Number(b.value.trim()) });
      if (!done) return;
    }
  }

  // Why a tile cannot be played now, in words (the server's board says what fits; this only words it).
  function whyNot(name) {
    const board = live.board;
    if (!inPlay()) return say("not_now");
    if (board.pad.on_table.includes(name)) return say("on_table", { tile: name });
    const lead = board.pad.lead;
    if (lead) return lead.tile ? say("lead_tile", { lead: lead.tile }) : say("lead_double");
    const ends = Object.entries(board.current.open_ends || {})
      .map(([end, n]) => say("end_shows", { end: say(`end_${end}`), n })).join(", ");
    return say("fits_nothing", { tile: name, ends });
  }

  function play(name, end) {
    const event = { type: "play", seat, tile: name };
    if (end && end !== "lead") event.end = end;
    return send("/events", event);
  }

  pad.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    why = "";
    if (button.classList.contains("tilebtn") && button.getAttribute("aria-disabled") === "true") {
      why = whyNot(button.dataset.tile);
    } else if (button.classList.contains("seat")) {
      seat = Number(button.dataset.seat);
      chosenSeat = true;
    } else if (button.classList.contains("tilebtn")) {
      const name = button.dataset.tile;
      if (inPlay() && seat === null) {
        why = say("tap_leader");
      } else if (!inPlay()) {
        if (shown.has(name)) shown.delete(name); else shown.add(name);
      } else {
        const ends = live.board.pad.fits[name] || [];
        if (ends.length === 1) { tile = null; play(name, ends[0]); return; } // one place only: one tap
        tile = tile === name ? null : name;
      }
    } else if (button.classList.contains("end")) {
      if (tile) { play(tile, button.dataset.end); return; }
    } else if (button.id === "pass") {
      send("/events", { type: "pass", seat }); return;
    } else if (button.id === "draw") {
      send("/events", { type: "draw", seat, count: 1 }); return;
    } else if (button.id === "undo") {
      send("/undo", { why: "undo on the pad" }); return;
    } else if (button.id === "next-hand") {
      send("/hands", {}); return;
    } else if (button.id === "send-all-pips") {
      sendAllPips(); return;
    } else if (button.id === "reveal") {
      send("/events", { type: "reveal", seat, tiles: Array.from(shown) }); return;
    } else if (button.id === "send-pips") {
      const pips = $("#pips").value.trim();
      if (!/^\d+$/.test(pips)) { fail(say("pips_number")); return; }
      send("/events", { type: "pips", seat, pips: Number(pips) }).then((ok) => { if (ok) $("#pips").value = ""; });
      return;
    } else if (button.id === "adjust") {
      const points = $("#adjust-points").value.trim();
      const reason = $("#adjust-reason").value.trim();
      if (!/^[+-]?\d+$/.test(points)) { fail(say("points_number")); return; }
      if (!reason) { fail(say("reason_needed")); return; }
      const side = Number($("#adjust-side").value);
      const event = { type: "adjust", points: Number(points), reason };
      if (live.board.teams) event.team = side; else event.seat = side;
      send("/events", event).then((ok) => { if (ok) { $("#adjust-points").value = ""; $("#adjust-reason").value = ""; } });
      return;
    }
    render(live.board);
  });

  const whoBox = document.getElementById("who");
  if (whoBox) {
    whoBox.value = localStorage.getItem("spinner-who") || "";
    whoBox.addEventListener("change", () => localStorage.setItem("spinner-who", whoBox.value.trim()));
  }

  // The camera (camera.js) asks which seat the scorer chose, when the board does not know whose turn it is.
  window.spinnerPad = { get seat() { return chosenSeat ? seat : null; }, fail, send };
  live.onChange(render);
})();
