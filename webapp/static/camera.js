// The camera on the scorer's phone: a photo (any phone, plain HTTP) or the live camera (HTTPS),
// sent to the reader; its answer shows at once. A sure play is already recorded (the board
// follows); an unsure one waits for one tap: "Yes" records it, an end button picks the end,
// "No" turns it down. Where passes no photo shows leave more than one seat that may have laid
// the tile, a button for each seat asks who did: one tap records the play for that seat. With no
// arm in view, such plays are followed as if no one passed and kept: one question for them all
// ("did anyone pass from 4-5 on?"), answered with one tap when no one did. Several new tiles in
// more than one order propose no play: a button for each play that may have come first, and the
// same photo then asks about (or records) the rest. What the box said is cleared once the board
// moves on past it.
// Nothing here reads a tile or checks a rule: the server does both.
(() => {
  "use strict";
  const box = document.getElementById("camera");
  if (!box || !window.spinnerBoard) return;
  const live = window.spinnerBoard;
  const words = window.spinnerSay || ((key) => key);
  const named = window.spinnerName || ((n) => n);
  const shown = window.spinnerShow || ((el, text) => { el.textContent = text; });
  const whoHeader = window.spinnerWho || (() => "");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const url = box.dataset.frames;
  const result = document.getElementById("cam-result");
  const say = document.getElementById("cam-say");
  const ends = document.getElementById("cam-ends");
  const seatsBox = document.getElementById("cam-seats");
  const yes = document.getElementById("cam-accept");
  const no = document.getElementById("cam-reject");
  const video = document.getElementById("cam-video");
  let asking = null; // the frame whose proposal waits for a tap
  let sending = false;
  let recording = false; // an answer on its way: a second tap must not send it twice
  let stream = null;
  let timer = null;
  let stopLive = () => {};

  function headers() {
    return { "X-CSRF-Token": csrf, "X-Spinner-Who": whoHeader() };
  }

  // The server's answer in players' words and the page's language (`say`), else its message.
  const said = (frame) => frame.say || frame.message;

  // The board's version a message was said at: once the board moves past it, the message is old
  // news (a question it asked was settled, the pad caught up) and the box is cleared.
  let shownAt = null;

  function show(text, kind, version) {
    // (a trouble with the camera or the network is no news of the board: it stays)
    const now = kind === "bad" || !live.board ? null : live.board.version;
    shownAt = version !== undefined && version !== null ? version : now;
    result.hidden = false;
    result.className = "cam-result " + (kind || "");
    shown(say, text);
    yes.hidden = no.hidden = true;
    ends.replaceChildren();
    seatsBox.replaceChildren();
    seatsBox.hidden = true;
  }

  function ask(frame) {
    const proposal = frame.proposal || {};
    if (proposal.code === "passes_unsure") { askRun(frame, []); return; }
    const event = (proposal.events || [])[0];
    show(frame.say || frame.message, "ask");
    asking = frame;
    shownAt = null;
    // Several new tiles in more than one order: no play is proposed as if known; a button for
    // each play that may have come first records it, and the rest of the photo comes next.
    const firsts = proposal.plays || [];
    if (!event && firsts.length) { askFirst(proposal, firsts); return; }
    // Nothing to say yes to: "No" (the tiles only lie there), or the play scored on the pad;
    // the camera films on meanwhile.
    if (!event) { no.hidden = false; return; }
    const choices = proposal.choices || [];
    if (choices.length > 1) {
      choices.forEach((end) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "end" + (event.end === end ? " on" : "");
        b.dataset.end = end;
        b.textContent = words(`end_${end}`);
        b.addEventListener("click", () => { event.end = end; ask(frame); });
        ends.append(b);
      });
    }
    // Who laid it is asked too (with the end, where the tile fits more than one)
    const seats = proposal.seats || [];
    if (seats.length > 1) { askSeat(proposal, event, seats); return; }
    yes.hidden = false;
    no.hidden = false;
  }

  // Who laid the tile: a button for each seat that may have, the likeliest first and marked (whose
  // turn it is; the later seats would mean passes no photo shows). One tap records it, no "Yes".
  // `likeliest`: false where the seats come in seat order, none likelier than another.
  function askSeat(proposal, event, seats, likeliest = true) {
    const players = (live.board && live.board.players) || [];
    seats.forEach((seat, i) => {
      const b = document.createElement("button");
      b.type = "button";
      const first = likeliest && i === 0;
      b.className = "big cam-seat" + (first ? " primary likely" : "");
      b.dataset.seat = String(seat);
      const name = named(players[seat] || String(seat + 1));
      shown(b, first && event.end ? words("cam_seat_turn", { who: name }) : name); // a lead has no turn yet
      b.addEventListener("click", () => record(playOf(proposal, event, seat)));
      seatsBox.append(b);
    });
    seatsBox.hidden = false;
    no.hidden = false;
  }

  // The plays that may have come first, a button each; where who laid one is open too (no seat
  // named: a pass was possible and no arm was seen), the tap on that play then asks who laid it.
  function askFirst(proposal, firsts) {
    const players = (live.board && live.board.players) || [];
    const oneSeat = new Set(firsts.map((e) => e.seat)).size === 1;
    const seats = proposal.seats || [];
    firsts.forEach((event, i) => {
      const unnamed = event.seat === null || event.seat === undefined;
      const plain = oneSeat || unnamed; // no name on the button: the same for all, or asked after
      const who = unnamed ? "" : named(players[event.seat] || String(event.seat + 1));
      const where = { tile: event.tile, end: words(`end_${event.end}`) };
      const text = plain ? words("cam_play_on", where) : words("cam_play_who", { who, ...where });
      const label = event.end ? text : plain ? event.tile : `${who}, ${event.tile}`; // a lead has no end
      const tap = unnamed && seats.length
        ? () => {
          seatsBox.replaceChildren();
          shown(say, words("cam_who_laid", { tile: event.tile }));
          askSeat(proposal, { ...event }, seats);
        }
        : () => record({ ...event });
      const b = button(label, "big cam-first" + (i === 0 ? " primary" : ""), tap);
      b.dataset.tile = event.tile;
      seatsBox.append(b);
    });
    seatsBox.hidden = false;
    no.hidden = false;
  }

  function button(text, className, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = className;
    shown(b, text);
    b.addEventListener("click", onClick);
    return b;
  }

  // Plays kept with their seat open: "No one passed" records them as followed; "Someone passed…"
  // names the first play laid right after a pass and who laid it, then the next such play, and
  // so on (`marks`: [play, seat] pairs, plays from 0), until "No other pass" records them so.
  // `refusal`: why the last answer was refused, said before the question.
  function askRun(frame, marks, refusal = "") {
    const proposal = frame.proposal || {};
    const plays = (proposal.params || {}).plays || [];
    const players = (live.board && live.board.players) || [];
    const marked = marks.map(([i, seat]) => words("cam_pass_marked", { who: named(players[seat] || String(seat + 1)), tile: (plays[i] || {}).tile })).join(" ");
    const question = marked ? `${said(frame)} ${marked}` : said(frame);
    show(refusal ? `${refusal} ${question}` : question, "ask");
    asking = frame;
    const after = marks.length ? marks[marks.length - 1][0] : -1;
    seatsBox.append(button(words(marks.length ? "cam_no_other_pass" : "cam_no_pass"), "big primary", () => recordRun(marks)));
    if (after < plays.length - 1) {
      seatsBox.append(button(words("cam_some_pass"), "big", () => {
        seatsBox.replaceChildren();
        say.textContent = words("cam_which_play");
        plays.forEach((play, i) => {
          if (i <= after) return;
          seatsBox.append(button(play.tile, "cam-play", () => {
            seatsBox.replaceChildren();
            say.textContent = words("cam_who_laid", { tile: play.tile });
            players.forEach((name, seat) => seatsBox.append(button(named(name), "big cam-seat", () => askRun(frame, [...marks, [i, seat]]))));
          }));
        });
      }));
    }
    seatsBox.hidden = false;
    no.hidden = false;
  }

  // A refusal of one of the passes named (`mark`: a play laid in turn, named as laid after a pass)
  // asks again from the passes named before it, the refusal said first: else the box kept the
  // buttons of an answer that could only be refused again, or "No" (the plays to the pad).
  const recordRun = (passes) => accept({ passes }, (data) => {
    if (!Number.isInteger(data.mark) || !asking) return false;
    askRun(asking, passes.slice(0, data.mark), data.say || data.error);
    return true;
  });

  // The follower's event for that seat (one candidate a seat), else the proposed one for that seat;
  // only a candidate of the same tile on the same end (a question about the tile lists others).
  function playOf(proposal, event, seat) {
    const found = (proposal.candidates || []).map((c) => c.length && c[c.length - 1].event)
      .find((e) => e && e.seat === seat && e.tile === event.tile && e.end === event.end);
    return { ...(found || event), seat };
  }

  const record = (event) => accept({ event });

  // The tap that answers the question asked: its play (or plays) recorded, once. `refused(data)`:
  // shows a refusal its own way (true), else it is said in the box.
  async function accept(body, refused = () => false) {
    if (!asking || recording) return;
    recording = true;
    // the plays it records are this page's: the pad does not take them for another phone's
    const pad = window.spinnerPad;
    if (pad) pad.mine(true);
    try {
      const [response, data] = await post(`/${asking.id}/accept`, body);
      if (!response.ok) { if (!refused(data)) say.textContent = data.say || data.error; return; }
      asking = null;
      const drawn = live.refresh();
      // a photo that asked before it was looked at is looked at once answered: it may ask in turn
      if (data.status === "confirm" || data.status === "kept") ask(data); else show(data.say || data.message, "", data.version);
      await drawn;
    } catch (error) {
      say.textContent = words("offline_tap");
    } finally {
      recording = false;
      if (pad) pad.mine(false);
    }
  }

  async function post(path, body) {
    const response = await fetch(url + path, {
      method: "POST", credentials: "same-origin",
      headers: { ...headers(), "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    return [response, await response.json().catch(() => ({ error: words("server_said", { status: response.status }) }))];
  }

  // The pad refused a tap while plays are kept to confirm: their question is shown here.
  window.spinnerCameraAsk = (frame) => { if (frame && (!asking || asking.id !== frame.id)) ask(frame); };

  // A question the record moved past (its play scored on the pad, or answered on a newer frame)
  // is settled by the server: once the board changes, it is looked up, and if it asks no more the
  // box says so and the live camera films on.
  let checkedAt = null;
  live.onChange(async (board) => {
    if (!asking && shownAt !== null && board && board.version > shownAt && !recording && !sending) {
      result.hidden = true; // said of a board that has moved on since
      shownAt = null;
    }
    const open = asking;
    if (!open || !board || recording || (open.proposal || {}).code === "passes_unsure") return;
    if (open.version === undefined || open.version === null || board.version <= open.version || checkedAt === board.version) return;
    checkedAt = board.version;
    try {
      const response = await fetch(`${url}/${open.id}`, { credentials: "same-origin", headers: headers() });
      if (!response.ok) return;
      const frame = await response.json();
      if (asking === open && frame.status !== "confirm") { asking = null; show(said(frame), "", board.version); }
    } catch (error) {
      // offline: the next change of the board looks again
    }
  });

  // The question open now (plays kept to confirm, a play to confirm), as the server keeps it: shown
  // when the page opens, reloaded or on another phone, and looked up again with each board, not
  // only after the pad is refused for it. A question of plays kept that the server dropped since
  // (a play scored in their place) leaves the box.
  let lookedAt = null;
  const runQuestion = (frame) => Boolean(frame) && (frame.status === "kept" || (frame.proposal || {}).code === "passes_unsure");
  live.onChange(async (board) => {
    if (!board || lookedAt === board.version || recording) return;
    if (asking && !runQuestion(asking)) return; // a play's question: looked after above
    lookedAt = board.version;
    const before = asking;
    try {
      const response = await fetch(`${url}/asks`, { credentials: "same-origin", headers: headers() });
      if (!response.ok) return;
      const open = (await response.json()).asks;
      if (recording || asking !== before) return; // a question came (or was answered) meanwhile
      if (open && (!asking || asking.id !== open.id)) ask(open);
      else if (!open && asking) { asking = null; result.hidden = true; }
    } catch (error) {
      // offline: the next board looks again
    }
  });

  yes.addEventListener("click", async () => {
    if (!asking) return;
    const event = { ...((asking.proposal.events || [])[0] || {}) };
    if (event.seat === null || event.seat === undefined) {
      // who laid it is not known: asked, a button a seat, never taken from the pad's seat (which
      // is whoever the pad last scored for, a guess)
      const listed = asking.proposal.seats || [];
      const everyone = ((live.board && live.board.players) || []).map((_, seat) => seat);
      yes.hidden = true;
      seatsBox.replaceChildren();
      askSeat(asking.proposal, event, listed.length ? listed : everyone, listed.length > 0);
      return;
    }
    await record(event);
  });
  no.addEventListener("click", async () => {
    if (!asking) return;
    const [response, data] = await post(`/${asking.id}/reject`, { why: "not what was played" });
    asking = null;
    show(response.ok ? words("cam_turned_down") : data.say || data.error, response.ok ? "" : "bad");
  });

  // Where each player sits: a select at each side of the camera's picture; every player at one
  // side (each their own), or nobody anywhere. Sent as each seat's side, in seat order.
  const seating = document.getElementById("cam-seating");
  const sideSelects = () => [...seating.querySelectorAll("select[data-side]")];
  const players = () => ((live.board && live.board.players) || []).length || seating.querySelector("select").options.length - 1;
  document.getElementById("cam-seating-save").addEventListener("click", async () => {
    const chosen = sideSelects().filter((s) => s.value !== "");
    const said = document.getElementById("cam-seating-said");
    const none = chosen.length === 0;
    const seats = new Set(chosen.map((s) => s.value));
    if (!none && (seats.size !== chosen.length || seats.size !== players())) {
      said.textContent = words("seating_each");
      return;
    }
    const sides = [];
    chosen.forEach((s) => { sides[Number(s.value)] = s.dataset.side; });
    try {
      const response = await fetch(`${document.getElementById("board").dataset.api}/seating`, {
        method: "PUT", credentials: "same-origin",
        headers: { ...headers(), "Content-Type": "application/json" },
        body: JSON.stringify({ seating: none ? null : sides }),
      });
      const data = await response.json().catch(() => ({ error: words("server_said", { status: response.status }) }));
      said.textContent = response.ok ? words(none ? "seating_forgotten" : "seating_saved") : data.say || data.error;
    } catch (error) {
      said.textContent = words("offline_tap");
    }
  });

  // The seating the camera learnt from the plays, shown once to be confirmed (where none is said).
  let offered = false;
  function offerSeating(sides) {
    const selects = sideSelects();
    if (offered || !sides || selects.some((s) => s.value)) return;
    offered = true;
    sides.forEach((side, seat) => { const s = selects.find((x) => x.dataset.side === side); if (s) s.value = String(seat); });
    seating.open = true;
    document.getElementById("cam-seating-said").textContent = words("seating_learnt");
  }

  async function send(blob, source, captures) {
    if (sending) return;
    sending = true;
    const form = new FormData();
    form.append("photo", blob, "table.jpg");
    if (captures) { form.append("before", captures[0], "before.jpg"); form.append("now", captures[1], "now.jpg"); }
    const seat = window.spinnerPad ? window.spinnerPad.seat : null;
    const query = new URLSearchParams({ source });
    if (seat !== null && seat !== undefined) query.set("seat", seat);
    if (source === "photo") show(words("cam_reading"));
    // a photo the player took is this page's change: the pad does not take what it records for
    // another phone's (a live camera's frames are not: a tap meant for the board before is refused)
    const own = source === "photo" ? window.spinnerPad : null;
    if (own) own.mine(true);
    try {
      const response = await fetch(`${url}?${query}`, { method: "POST", credentials: "same-origin", headers: headers(), body: form });
      const frame = await response.json().catch(() => ({ error: words("server_said", { status: response.status }) }));
      if (!response.ok) { show(frame.say || frame.error, "bad"); return; }
      offerSeating(frame.seating_learnt);
      if (frame.status === "confirm" || frame.status === "kept") ask(frame);
      else if (frame.asks && !asking) ask(frame.asks); // an earlier frame, read since, has a question
      else if (frame.status === "recorded") { asking = null; show(said(frame), "", frame.version); await live.refresh(); }
      else if (frame.status === "looking" && !asking) show(said(frame), "", frame.version); // a second look comes with the next frame
      else if (source === "photo" || frame.status === "no-reader") show(said(frame), frame.status === "no-reader" ? "bad" : "", frame.version);
      if (frame.status === "no-reader" && stream) stopLive(); // no use filming what cannot be read
    } catch (error) {
      show(words("cam_offline"), "bad");
    } finally {
      sending = false;
      if (own) own.mine(false);
    }
  }

  document.getElementById("photo-input").addEventListener("change", (event) => {
    const file = event.target.files && event.target.files[0];
    if (file) send(file, "photo");
    event.target.value = "";
  });

  const liveButton = document.getElementById("cam-live");
  if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    liveButton.hidden = true;
    document.getElementById("cam-https").hidden = false;
    return;
  }
  // A small capture every tick, sent or not: with the frame go the capture of a tick before and
  // its own, and alike they tell the server the table was still, however slow its reader is.
  const CAPTURE_WIDTH = 320;
  let previous = null;
  function capture(width, height) {
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    canvas.getContext("2d").drawImage(video, 0, 0, width, height);
    return canvas;
  }
  const jpeg = (canvas, quality) => new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
  async function grab() {
    if (!video.videoWidth) return;
    const small = capture(CAPTURE_WIDTH, Math.round((CAPTURE_WIDTH * video.videoHeight) / video.videoWidth));
    const before = previous;
    previous = small;
    // one question at a time; plays kept to confirm do not stop the camera (their question stands)
    const proposal = (asking && asking.proposal) || {};
    if (sending || (asking && asking.status === "confirm" && ((proposal.events || []).length || (proposal.plays || []).length))) return;
    const frame = await jpeg(capture(video.videoWidth, video.videoHeight), 0.85);
    if (!frame) return;
    const captures = before ? await Promise.all([jpeg(before, 0.9), jpeg(small, 0.9)]) : null;
    send(frame, "camera", captures && captures.every(Boolean) ? captures : null);
  }
  stopLive = () => {
    stream.getTracks().forEach((t) => t.stop());
    stream = null; clearInterval(timer); video.hidden = true; liveButton.textContent = words("cam_live");
  };
  // Why the live camera did not open, in players' words: the browser's error names
  // (getUserMedia's DOMException) are jargon, and each asks for something else. The pad below
  // scores as well, and "Take photo" uses the phone's own camera app, so both are offered.
  function cameraTrouble(name) {
    const key = ["NotFoundError", "OverconstrainedError", "DevicesNotFoundError"].includes(name) ? "cam_none"
      : ["NotAllowedError", "SecurityError", "PermissionDeniedError"].includes(name) ? "cam_denied"
        : ["NotReadableError", "TrackStartError", "AbortError"].includes(name) ? "cam_busy" : "cam_failed";
    const photo = document.getElementById("photo-label");
    return `${words(key)} ${words(photo && !photo.hidden ? "cam_instead_photo" : "cam_instead")}`;
  }
  window.spinnerCameraTrouble = cameraTrouble; // for the page's tests: each error name's sentence

  // A camera may give far less than the 1280 wide asked for (640x480: tiles of some 20 pixels,
  // which the reader misses and misreads): said once, with what to do about it.
  const SMALL_WIDTH = 1000;
  let toldSmall = false;
  function smallPicture() {
    const width = video.videoWidth;
    if (toldSmall || !width || width >= SMALL_WIDTH) return;
    toldSmall = true;
    show(words("cam_small", { size: `${width}×${video.videoHeight}` }), "bad");
  }

  liveButton.addEventListener("click", async () => {
    if (stream) { stopLive(); return; }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1280 } }, audio: false });
    } catch (error) {
      show(cameraTrouble(error && error.name), "bad");
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    liveButton.textContent = words("cam_stop");
    smallPicture();
    timer = setInterval(grab, 1000);
  });
})();
