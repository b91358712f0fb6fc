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
  const name = window.spinnerName || ((n) => n);
  const show = window.spinnerShow || ((el, text) => { el.textContent = text; });
  const whoHeader = window.spinnerWho || (() => "");
  const api = root.dataset.api;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const errorBox = document.getElementById("pad-error");
  // Refused while the camera keeps plays to confirm (409 kept_open): the camera box asks their
  // question, and this button makes the change anyway, dropping them ("drop_kept": true).
  const dropButton = document.getElementById("pad-drop-kept");
  let dropRetry = null;
  // A play, pass or draw refused for a seat the scorer tapped while it was another seat's turn: the
  // pad goes back to the seat on turn, and this button sends the same tap for that seat (it names
  // them: nothing is recorded for a seat the scorer did not choose).
  const retryButton = document.getElementById("pad-retry");
  let retry = null;
  // A cross lead that a later play proves broke the rule of who leads (`lead_not_highest`,
  // `lead_duty`), refused here or in the fix dialog: the table deals the hand again (the hand voided,
  // then a new one started), or keeps it as played (its lead let stand, then the refused change sent
  // again). The one place on the page for both ways.
  const leadWays = document.getElementById("pad-lead-ways");
  const MISLED = ["lead_not_highest", "lead_duty"];
  let misled = null; // {hand, again}
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
  // What this phone's last pass, draw or play recorded ("Cruz passed"), said in the hint on the
  // version it made, so the scorer sees it without scrolling to the list of plays.
  let recorded = null; // {words, version}
  // This phone's last Pass or Draw that was recorded, and when its answer came. A second tap on the
  // same button soon after (a double tap, a tap the first answer overtook) would be sent for the
  // NEXT seat, since the turn moved on: it is held back once, and the hint says so.
  let last = null; // {kind, seat, version, at, words}
  let held = ""; // the hint after a held-back tap
  // A board another phone (or the camera) changed just now, drawn under the player's finger: a tap
  // this soon after it was aimed at the board before ("Carmen: tap the tile played"), not at the
  // next seat's turn. It is sent on the version the player saw, so the server refuses it (409
  // `changed`) and says what the other phone recorded; nothing is recorded for the wrong seat.
  let under = null; // {version (the board before), at}
  let mine = 0; // changes of this page on their way (the pad's own, the camera box's answers)

  const $ = (selector) => pad.querySelector(selector);
  const $$ = (selector) => Array.from(pad.querySelectorAll(selector));

  function fail(message) {
    errorBox.textContent = message || "";
    dropButton.hidden = true;
    dropRetry = null;
    offerRetry(null);
    offerWays(null);
  }

  function offerWays(ways) {
    misled = ways;
    if (leadWays) leadWays.hidden = !ways;
  }

  async function dealAgain() {
    const { hand } = misled;
    if (await send(`/hands/${hand}`, { why: say("why_deal_again") }, "DELETE")) await send("/hands", {});
  }

  async function keepAsPlayed() {
    const { hand, again } = misled;
    if (await send(`/hands/${hand}/lead-stands`, { why: say("why_lead_stands") })) await again();
  }

  function offerRetry(how, words = "") {
    retry = how;
    if (!retryButton) return;
    show(retryButton, words);
    retryButton.hidden = !how;
  }

  // `offerDrop`: a refusal over plays kept to confirm offers the button beside the pad's error (the
  // fix dialog offers its own: `refused` is the last refusal's answer).
  let refused = null;
  // `on`: the version the change was made on (a tap's: `tappedOn`), else the board's now.
  // `explain(message)`: a refusal by the rules (422) is worded by it, once the board is fresh.
  async function send(path, body, method = "POST", offerDrop = true, on = null, explain = null) {
    if (busy) return null;
    busy = true;
    pad.classList.add("busy");
    fail("");
    refused = null;
    try {
      const response = await fetch(api + path, {
        method,
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          "X-CSRF-Token": csrf,
          "If-Match": `"${on === null ? live.version : on}"`,
          "X-Spinner-Who": whoHeader(),
        },
        body: JSON.stringify({ ...body, source: "pad" }),
      });
      const data = await response.json().catch(() => ({ error: say("server_said", { status: response.status }) }));
      if (!response.ok) {
        refused = data;
        // another phone recorded first: the server says what ("Another phone recorded Carmen played 5-6...")
        if (data.code === "changed") under = null;
        const ways = MISLED.includes(data.code) && Number.isInteger(data.hand)
          ? { hand: data.hand, again: () => send(path, body, method, offerDrop, null, explain) } : null;
        if (explain && response.status === 422) {
          await live.refresh();
          explain(data.say || data.error);
          offerWays(ways);
          return null;
        }
        fail(response.status === 409 && data.version ? data.say || say("changed") : data.say || data.error);
        offerWays(ways);
        // plays kept to confirm come first: the camera box shows their question; or drop them
        if (data.code === "kept_open" && data.asks && window.spinnerCameraAsk) window.spinnerCameraAsk(data.asks);
        if (data.code === "kept_open" && offerDrop) {
          dropRetry = () => send(path, { ...body, drop_kept: true }, method);
          dropButton.hidden = false;
        }
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

  // How long after a recorded Pass/Draw a second tap on it is held back (ms); a test sets it long
  // through #pad's data-guard-ms rather than racing the clock.
  function guardMs() {
    const ms = Number(pad.dataset.guardMs);
    return Number.isFinite(ms) && ms >= 0 ? ms : 800;
  }

  // How long after another phone's change a tap is taken as aimed at the board before it (ms);
  // #pad's data-settle-ms, which a test sets long (the tap comes "at once") or 0.
  function settleMs() {
    const ms = Number(pad.dataset.settleMs);
    return Number.isFinite(ms) && ms >= 0 ? ms : 800;
  }

  // The version a tap was made on: the board the player saw, which is the one before a change
  // another phone made just now (`under`), else the board shown.
  function tappedOn() {
    if (under && performance.now() - under.at <= settleMs()) return under.version;
    under = null;
    return live.version;
  }

  // What a change moved on the pad: the hand, whose turn, the events and the tiles down. A change
  // that moves none of them (a rename, a dispute marked) leaves a tap aimed where it was.
  function turnKey(board) {
    const cur = board.current;
    return cur ? [cur.number, cur.turn, (cur.events || []).length, board.pad.on_table.length, cur.end].join(":") : "";
  }
  let shownKey = null;

  // The words of an event this phone recorded ("Dee drew a tile"), in the page's language (the
  // board's own list of plays comes as HTML per language; its JSON words are English).
  function wordsOf(event) {
    const who = name(live.board.players[event.seat]);
    if (event.type === "pass") return say("did_pass", { who });
    if (event.type === "draw") return say("did_draw", { who });
    if (event.type === "reveal") {
      return event.tiles.length ? say("did_reveal", { who, tiles: event.tiles.join(", ") }) : say("did_reveal_none", { who });
    }
    if (event.type === "pips") return say(event.pips === 1 ? "did_pips_one" : "did_pips", { who, num: event.pips });
    if (event.end) return say("did_play_end", { who, tile: event.tile, end: say(`end_${event.end}`) });
    return say("did_play", { who, tile: event.tile });
  }

  async function record(kind, event, on = null) {
    const picked = chosenSeat; // the scorer tapped this seat, rather than the pad following the turn
    const worded = ["play", "pass", "draw"].includes(kind) ? (why) => explain(kind, event, picked, why) : null;
    const data = await send("/events", event, "POST", true, on, worded);
    if (!data) return data;
    const words = wordsOf(event);
    recorded = { words, version: data.version };
    last = kind === "pass" || kind === "draw" ? { kind, seat: event.seat, version: data.version, at: performance.now(), words } : null;
    render(live.board);
    return data;
  }

  // A play, pass or draw refused by the rules: say what was tried ("Ana playing 4-4 was not
  // recorded: ...") before why. Where the scorer had tapped a seat that is not the one on turn, the
  // pad goes back to the seat on turn (the next tap is theirs) and offers the same tap for them.
  function explain(kind, event, picked, why) {
    const board = live.board;
    const cur = board.current;
    const who = name(board.players[event.seat]);
    let words = say(`refused_${kind}`, { who, tile: event.tile, why });
    const turn = cur && cur.end === null ? cur.turn : null;
    if (picked && chosenSeat && seat === event.seat && Number.isInteger(turn) && turn !== event.seat) {
      chosenSeat = false;
      render(board);
      const them = name(board.players[turn]);
      words = `${words} ${say("back_on_turn", { who: them })}`;
      const version = board.version;
      show(errorBox, words);
      offerRetry((on) => {
        // only on the board the refusal was made on (a change since hides the button anyway)
        if (live.version !== version) { offerRetry(null); return null; }
        return record(kind, { ...event, seat: turn }, on);
      }, say("record_for", { who: them }));
      return;
    }
    show(errorBox, words);
  }

  // Whether a tap on Pass/Draw is to be held back: it comes within the guard window after this
  // phone's own tap on the same button moved the turn on to another seat, and nothing changed since.
  // A draw that leaves the turn where it was (drawing until a tile fits) is never held back.
  function holdBack(kind) {
    const before = last;
    last = null; // held back once at most: the next tap is sent
    if (!before || before.kind !== kind) return false;
    if (live.board.version !== before.version || seat === before.seat || seat === null) return false;
    if (performance.now() - before.at > guardMs()) return false;
    held = say(`again_${kind}`, { done: before.words, who: name(live.board.players[seat]) });
    return true;
  }

  function forget() {
    why = "";
    tile = null;
    chosenSeat = false;
    shown.clear();
  }

  // What to tap for the lead, as the rules have it (the board's pad.lead): 6-6 in partners' first
  // hand, a double in cross, any tile else. The status line says who leads with what; this, the taps.
  function leadHint(board) {
    const lead = board.pad.lead || {};
    if (seat === null) {
      if (lead.tile) return say("tap_holder", { tile: lead.tile });
      if (lead.doubles_only && lead.duty !== null && lead.duty !== undefined) {
        return say("tap_duty_double", { who: name(board.players[lead.duty]) });
      }
      if (lead.doubles_only) return say(lead.highest ? "tap_holder_highest" : "tap_leader_double");
      return say("tap_leader");
    }
    const who = name(board.players[seat]);
    if (lead.tile) return say("tap_lead_tile_who", { who, tile: lead.tile });
    if (lead.doubles_only) return say("tap_lead_double_who", { who });
    return say("tap_lead_who", { who });
  }

  function render(board) {
    const cur = board.current;
    if (madeOn !== board.version) {
      const key = turnKey(board);
      // Another phone's change (not this page's own, on its way) that moved the turn: a tap now
      // was aimed at the board before it.
      if (madeOn !== null && !busy && !mine && key !== shownKey) {
        // two changes in a row: the board the player saw is still the one before the first
        const seen = under && performance.now() - under.at <= settleMs() ? under.version : madeOn;
        under = { version: seen, at: performance.now() };
      } else if (busy || mine) under = null;
      shownKey = key;
      if (madeOn !== null) forget();
      if (madeOn !== null && dropRetry) fail(""); // the question answered (or the match changed): the refusal is past
      if (madeOn !== null && retry) offerRetry(null); // the turn the refused tap was offered for is past
      if (madeOn !== null && misled && !busy) offerWays(null); // another change came: the refusal is past
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
    let next;
    if (!cur) next = say("start_hand");
    else if (inPlay()) {
      // Name the player, so a tap meant for someone else is caught before it is made.
      next = tile ? say("where", { tile })
        : seat === null || cur.turn === null || cur.turn === undefined || board.pad.lead ? leadHint(board)
          : say("tap_tile_who", { who: name(board.players[seat]) });
    } else if ((cur.awaiting_pips || []).length) {
      // whose tiles come next: the first still to count, unless the scorer chose another
      next = seat === null ? say("tap_left") : say("tap_left_who", { who: name(board.players[seat]) });
    } else next = say("hand_over");
    if (recorded && recorded.version !== board.version) recorded = null; // another change came since
    if (why) show(hint, why);
    else if (held) show(hint, held);
    else if (recorded && !tile) show(hint, say("done_then", { done: recorded.words, next }));
    else show(hint, next);
    hint.classList.toggle("why", Boolean(why));
    $("#pass").disabled = !board.pad.can_pass;
    $("#draw").disabled = !board.pad.can_draw;
    $("#undo").disabled = !board.pad.can_undo; // nothing recorded yet: nothing to take back
    $("#next-hand").hidden = !board.next_hand;
    $("#end-hand").open = Boolean(cur && cur.end !== null && (cur.awaiting_pips || []).length);
    pipsForEveryone(board);
    pad.dataset.ready = "1"; // drawn from the board at least once: the server's first hint is replaced
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
      show(label, name(board.players[s]));
      const input = document.createElement("input");
      input.inputMode = "numeric";
      input.maxLength = 3;
      input.dataset.seat = String(s);
      label.append(input);
      return label;
    })));
  }

  async function sendAllPips() {
    // The boxes filled: a box left empty is a player whose pips the score may not need (a partners
    // hand gone out scores on the losing team's alone); the board asks again for any it still needs.
    const boxes = $$("#pips-all input").filter((b) => b.value.trim() !== "");
    if (!boxes.length || !boxes.every((b) => /^\d+$/.test(b.value.trim()))) { fail(say("pips_number")); return; }
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

  function play(name, end, on) {
    const event = { type: "play", seat, tile: name };
    if (end && end !== "lead") event.end = end;
    return record("play", event, on);
  }

  pad.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    const on = tappedOn(); // read before anything is redrawn
    why = "";
    held = "";
    recorded = null;
    if (button.id !== "pass" && button.id !== "draw") last = null; // any other tap: the next Pass is meant
    if (button.classList.contains("tilebtn") && button.getAttribute("aria-disabled") === "true") {
      why = whyNot(button.dataset.tile);
    } else if (button.classList.contains("seat")) {
      seat = Number(button.dataset.seat);
      chosenSeat = true;
    } else if (button.classList.contains("tilebtn")) {
      const name = button.dataset.tile;
      if (inPlay() && seat === null) {
        why = say("tap_leader_first", { tile: name });
      } else if (!inPlay()) {
        if (shown.has(name)) shown.delete(name); else shown.add(name);
      } else {
        const ends = live.board.pad.fits[name] || [];
        if (ends.length === 1) { tile = null; render(live.board); play(name, ends[0], on); return; } // one place only: one tap
        tile = tile === name ? null : name;
      }
    } else if (button.classList.contains("end")) {
      if (tile) { render(live.board); play(tile, button.dataset.end, on); return; }
    } else if (button.id === "pass" || button.id === "draw") {
      if (!holdBack(button.id)) {
        render(live.board);
        record(button.id, button.id === "pass" ? { type: "pass", seat } : { type: "draw", seat, count: 1 }, on);
        return;
      }
    } else if (button.id === "pad-drop-kept") {
      if (dropRetry) dropRetry();
      return;
    } else if (button.id === "pad-retry") {
      if (retry) retry(on);
      return;
    } else if (button.id === "pad-deal-again") {
      if (misled) dealAgain();
      return;
    } else if (button.id === "pad-lead-stands") {
      if (misled) keepAsPlayed();
      return;
    } else if (button.id === "undo") {
      send("/undo", { why: "undo on the pad" }, "POST", true, on); return;
    } else if (button.id === "next-hand") {
      send("/hands", {}); return;
    } else if (button.id === "send-all-pips") {
      sendAllPips(); return;
    } else if (button.id === "reveal") {
      record("reveal", { type: "reveal", seat, tiles: Array.from(shown) }, on); return;
    } else if (button.id === "send-pips") {
      const pips = $("#pips").value.trim();
      if (!/^\d+$/.test(pips)) { fail(say("pips_number")); return; }
      record("pips", { type: "pips", seat, pips: Number(pips) }, on).then((ok) => { if (ok) $("#pips").value = ""; });
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
  // `mine(true)` ... `mine(false)`: around a change the camera box makes on this page (its answer
  // tapped here), so the board it brings is not taken for another phone's.
  window.spinnerPad = {
    get seat() { return chosenSeat ? seat : null; },
    get refused() { return refused; },
    fail,
    send,
    mine(on) { mine = Math.max(0, mine + (on ? 1 : -1)); },
  };
  live.onChange(render);
})();
