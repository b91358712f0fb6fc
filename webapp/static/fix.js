// Correcting a recorded event, settling a dispute, or marking one, by tapping as on the pad: who,
// what (a play with its tile and end, a pass, a draw, pips, the tiles left), and why. The event
// made is GAME_RECORD.md's, sent through the pad's `send`; the server checks it like any other.
(() => {
  "use strict";
  const dialog = document.getElementById("fix-dialog");
  const pad = window.spinnerPad;
  if (!dialog || !pad || !window.spinnerBoard) return;
  const live = window.spinnerBoard;
  const say = window.spinnerSay || ((key) => key);
  const show = window.spinnerShow || ((el, text) => { el.textContent = text; });
  const $ = (selector) => dialog.querySelector(selector);
  const $$ = (selector) => Array.from(dialog.querySelectorAll(selector));
  const errorBox = $("#fix-error");
  // Refused while the camera keeps plays to confirm (409 kept_open): make the change anyway,
  // dropping them ("drop_kept": true), or cancel and answer the camera's question first.
  const dropButton = $("#fix-drop-kept");
  let dropRetry = null;
  // Refused because a later play no longer fits the correction ("play 16: 2-4 does not fit the west
  // end"): this button makes it with that play, and those after it, taken back (`take_back_from`),
  // to be tapped again. Later plays are never changed silently.
  const takeBackButton = $("#fix-take-back");
  let takeBack = null;
  // What is being fixed: {mode: "correct" | "settle", hand, index, version (a dispute's)}, and the event as tapped.
  let target = null;
  let draft = null;

  function eventOf(hand, index) {
    const cur = live.board.current;
    if (!cur || cur.number !== hand) return null;
    const row = (cur.events || []).find((e) => e.event === index);
    return row ? { raw: row.raw, words: row.words } : null;
  }

  function draftOf(raw) {
    const d = { type: "play", seat: 0, tile: null, end: null, pips: "", tiles: new Set(), count: 1 };
    if (!raw) return d;
    d.type = ["play", "pass", "draw", "pips", "reveal"].includes(raw.type) ? raw.type : "play";
    if (Number.isInteger(raw.seat)) d.seat = raw.seat;
    if (raw.type === "play") { d.tile = normal(raw.tile); d.end = raw.end || null; }
    if (raw.type === "draw") { d.tile = raw.tile ? normal(raw.tile) : null; d.count = raw.count || 1; }
    if (raw.type === "pips") d.pips = String(raw.pips ?? "");
    if (raw.type === "reveal") (raw.tiles || []).forEach((t) => d.tiles.add(normal(t)));
    return d;
  }

  // "6-4" and "4-6" are one tile: the buttons name it low first.
  function normal(text) {
    const parts = String(text || "").split("-").map(Number);
    return parts.length === 2 && parts.every(Number.isInteger) ? `${Math.min(...parts)}-${Math.max(...parts)}` : null;
  }

  function built() {
    const e = { type: draft.type, seat: draft.seat };
    if (draft.type === "play") {
      if (!draft.tile) return null;
      e.tile = draft.tile;
      if (draft.end) e.end = draft.end;
    } else if (draft.type === "draw") {
      if (draft.tile) e.tile = draft.tile; else e.count = draft.count;
    } else if (draft.type === "pips") {
      if (!/^\d+$/.test(draft.pips)) return null;
      e.pips = Number(draft.pips);
    } else if (draft.type === "reveal") {
      e.tiles = Array.from(draft.tiles);
    }
    return e;
  }

  // "The count after it: 5 = west 1-1 (2) + east 3", from the board's numbers (board.py _made), or
  // the open ends where the game counts nothing (block, draw).
  function madeWords(made) {
    if (!made) return "";
    const end = (where) => say(`end_${where}`);
    if (made.count === null || made.count === undefined) {
      const ends = Object.entries(made.ends || {}).map(([where, n]) => say("term_end", { end: end(where), n })).join(", ");
      return ends ? say("made_ends", { ends }) : "";
    }
    const terms = (made.terms || []).map(([where, tile, n]) => {
      if (where === "lead") return say("term_lead", { tile, n });
      if (where === "spinner") return say("term_spinner", { tile, n });
      const [a, b] = tile.split("-");
      return a === b ? say("term_double", { end: end(where), tile, n }) : say("term_end", { end: end(where), n });
    });
    return say("made_count", { n: made.count, terms: terms.join(" + ") || "0" });
  }

  function render() {
    $$("[data-fix-seat]").forEach((b) => b.setAttribute("aria-checked", Number(b.dataset.fixSeat) === draft.seat ? "true" : "false"));
    $$("[data-kind]").forEach((b) => b.setAttribute("aria-checked", b.dataset.kind === draft.type ? "true" : "false"));
    const tiles = ["play", "draw", "reveal"].includes(draft.type);
    $("#fix-tiles").hidden = !tiles;
    $$("[data-fix-tile]").forEach((b) => {
      const name = b.dataset.fixTile;
      const on = draft.type === "reveal" ? draft.tiles.has(name) : name === draft.tile;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.classList.toggle("chosen", on);
    });
    $("#fix-ends").hidden = draft.type !== "play";
    $$("[data-fix-end]").forEach((b) => b.setAttribute("aria-checked", b.dataset.fixEnd === draft.end ? "true" : "false"));
    $("#fix-pips-row").hidden = draft.type !== "pips";
    $("#fix-pips").value = draft.pips;
    const settling = target.mode === "settle";
    $("#fix-stands").hidden = !settling;
    $("#fix-dispute").hidden = settling;
    $("#fix-remove").hidden = settling;
    $("#fix-save").disabled = !built();
    takeBackButton.hidden = true; // offered for the correction as tapped: another one is sent first
    takeBack = null;
  }

  function open(mode, hand, index, version) {
    target = { mode, hand, index, version };
    // Settling: the play as disputed, where the board does not list it (a dispute of an earlier
    // hand, the next one started). Started from nothing, the dialog said nothing of what was
    // recorded and had the first player chosen, so a correction of the tile alone went in for them.
    const dispute = mode === "settle" ? (live.board.disputes || []).find((d) => d.version === version) : null;
    const disputed = dispute && dispute.raw ? { raw: dispute.raw, words: dispute.what } : null;
    const found = index === null ? null : eventOf(hand, index) || disputed;
    draft = draftOf(found ? found.raw : null);
    // A draw, a pass, a reveal... is named by its kind and its number in the list, not as a play.
    const kind = found && found.raw && found.raw.type !== "play" ? found.raw.type : null;
    const place = index === null
      ? say("hand_n", { n: hand + 1 })
      : kind && ["pass", "draw", "reveal", "pips", "adjust"].includes(kind)
        ? say("hand_no", { hand: hand + 1, n: index + 1, what: say(`kind_${kind}`) })
        : say("hand_play", { hand: hand + 1, play: index + 1 });
    $("#fix-title").textContent = mode === "settle" ? say("settle_title", { where: place }) : say("correct_title", { where: place });
    show($("#fix-now"), found ? say("now_recorded", { what: found.words }) : "");
    // Settling: what the play made, which is what the table argues about (the count and its ends).
    const made = madeWords(dispute && dispute.made);
    show($("#fix-made"), made);
    $("#fix-made").hidden = !made;
    $("#fix-why").value = "";
    errorBox.textContent = "";
    dropButton.hidden = true;
    dropRetry = null;
    render();
    dialog.showModal();
  }

  // ✎ on a line of the hand, and Settle on an open dispute: both are re-drawn with the board, so delegate.
  document.addEventListener("click", (event) => {
    const fix = event.target.closest("#board-bottom .fix");
    if (fix) { open("correct", Number(fix.dataset.hand), Number(fix.dataset.event), null); return; }
    const settle = event.target.closest("#board .settle");
    if (settle && settle.dataset.hand !== "") {
      open("settle", Number(settle.dataset.hand), settle.dataset.event === "" ? null : Number(settle.dataset.event),
        Number(settle.dataset.version));
    }
  });

  dialog.addEventListener("click", async (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled || !target) return;
    if (button.dataset.fixSeat !== undefined) draft.seat = Number(button.dataset.fixSeat);
    else if (button.dataset.kind) draft.type = button.dataset.kind;
    else if (button.dataset.fixTile) {
      const name = button.dataset.fixTile;
      if (draft.type === "reveal") { if (draft.tiles.has(name)) draft.tiles.delete(name); else draft.tiles.add(name); }
      else draft.tile = draft.tile === name ? null : name;
    } else if (button.dataset.fixEnd) draft.end = draft.end === button.dataset.fixEnd ? null : button.dataset.fixEnd;
    else if (button.value === "cancel") { dialog.close(); return; }
    else if (button === dropButton) { if (dropRetry) await dropRetry(); return; }
    else if (button === takeBackButton) { if (takeBack) await takeBack(); return; }
    else if (button.value) { await submit(button.value); return; }
    render();
  });
  $("#fix-pips").addEventListener("input", () => { draft.pips = $("#fix-pips").value.trim(); render(); });

  async function submit(action) {
    const why = $("#fix-why").value.trim();
    if (!why) { errorBox.textContent = say("why_needed"); $("#fix-why").focus(); return; }
    const { hand, index } = target;
    let request = null; // [path, body, method]
    if (action === "correct" && target.mode === "settle") {
      request = [`/disputes/${target.version}/settle`, { event: built(), why }, "POST"];
    } else if (action === "stands") {
      request = [`/disputes/${target.version}/settle`, { why }, "POST"];
    } else if (action === "correct") {
      request = [`/hands/${hand}/events/${index}`, { event: built(), why }, "PUT"];
    } else if (action === "remove") {
      request = [`/hands/${hand}/events/${index}`, { why }, "DELETE"];
    } else if (action === "dispute") {
      request = ["/disputes", { hand, event: index, why }, "POST"];
    }
    if (request) await sent(...request);
  }

  async function sent(path, body, method) {
    dropButton.hidden = true;
    dropRetry = null;
    takeBackButton.hidden = true;
    takeBack = null;
    const done = await pad.send(path, body, method, false);
    if (done) { dialog.close(); return; }
    errorBox.textContent = document.getElementById("pad-error").textContent;
    const refused = pad.refused;
    if (refused && Number.isInteger(refused.take_back_from) && method === "PUT" && target.mode === "correct") {
      const first = refused.take_back_from + 1;
      const last = Number.isInteger(refused.take_back_to) ? refused.take_back_to + 1 : first;
      const words = { play: target.index + 1, first, last };
      takeBackButton.textContent = say(last > first ? "fix_take_back_many" : "fix_take_back_one", words);
      takeBack = () => sent(path, { ...body, take_back_from: refused.take_back_from }, method);
      takeBackButton.hidden = false;
    }
    // a cross lead proved wrong: the pad behind says so and offers the table's two ways (pad.js)
    if (refused && ["lead_not_highest", "lead_duty"].includes(refused.code)) { dialog.close(); return; }
    if (refused && refused.code === "kept_open") { // the camera box behind asks their question
      dropRetry = () => sent(path, { ...body, drop_kept: true }, method);
      dropButton.hidden = false;
    }
  }
})();
