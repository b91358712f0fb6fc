// The live board: server-sent events, with polling as the fallback. The server renders the
// board (webapp/templates/_board_top.html, _board_bottom.html); this only swaps it in, newest
// version wins. A tournament table's board also changes with the round clock (the bell) while
// the match stands still, and nothing is posted then: so this page counts down to the server's
// bell time, asks for the board when it comes, and asks every little while until the match is
// decided (the director may decide a table by hand). What the bell means is the server's word.
(() => {
  "use strict";
  const root = document.getElementById("board");
  if (!root) return;
  const bottom = document.getElementById("board-bottom");
  const status = document.getElementById("live");
  const say = window.spinnerSay || ((key) => key);
  // The live stream sends the board drawn in each of the page's languages: this page's is used.
  const lang = root.dataset.lang || document.documentElement.lang || "en";
  let board = JSON.parse(document.getElementById("board-data").textContent);
  let version = board.version;
  const listeners = [];
  let source = null;
  let pollTimer = null;
  let failures = 0;
  // The match was deleted (the server no longer knows it): the board stays as it last was, and
  // the page stops asking.
  let gone = false;

  function tell(key) {
    if (!status) return;
    // Offline wins: a page that cannot reach the server must not claim to be live.
    const shown = navigator.onLine === false ? "offline" : key;
    status.textContent = say(shown);
    status.dataset.state = shown;
  }

  // What the page shows now: the match's version, and for a tournament table what the tournament said.
  let shown = root.dataset.etag || `"${version}"`;

  function apply(data) {
    if (!data || data.version < version) return;
    const tag = data.etag || `"${data.version}"`;
    if (tag === shown) { board = data; return; } // nothing new to show
    shown = tag;
    board = data;
    version = data.version;
    const html = (data.html_in && data.html_in[lang]) || data.html;
    if (html) {
      root.innerHTML = html.top;
      if (bottom) bottom.innerHTML = html.bottom;
      localTimes();
      tickRound();
    }
    root.dataset.version = String(version);
    listeners.forEach((f) => f(board));
  }

  // The browser revalidates the board itself (ETag, If-None-Match): a 304 reaches this script as
  // the stored 200, so an unchanged board is neither a failed request nor a new drawing.
  async function poll() {
    try {
      const response = await fetch(root.dataset.poll, { cache: "no-cache", credentials: "same-origin" });
      if (response.status === 404) { stopAsking(); return; }
      if (response.ok) apply(await response.json());
      if (pollTimer) tell("polling");
    } catch (error) {
      tell("offline");
    }
  }

  function stopAsking() {
    gone = true;
    clearInterval(pollTimer);
    pollTimer = null;
    if (source) source.close();
    tell("gone");
  }

  function startPolling() {
    if (gone) return;
    if (!pollTimer) pollTimer = setInterval(poll, 2000);
    poll();
    // Try the live stream again later: it may have been full, or the network may be back.
    setTimeout(() => { clearInterval(pollTimer); pollTimer = null; startStream(); }, 60000);
  }

  function startStream() {
    if (gone) return;
    if (!("EventSource" in window)) { startPolling(); return; }
    source = new EventSource(root.dataset.stream);
    source.addEventListener("board", (event) => { failures = 0; tell("live"); apply(JSON.parse(event.data)); });
    // A stream opened again is a stream that works: an idle match sends no board on it, and its
    // ends (every SSE_LIFETIME) must not add up to the failures that turn the page to polling.
    source.onopen = () => { failures = 0; tell("live"); };
    source.onerror = () => {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures > 3) {
        source.close();
        tell("polling");
        startPolling();
      } else {
        tell("reconnecting");
      }
    };
  }

  // -- a tournament table's round clock ------------------------------------------------------
  // How far this phone's clock is from the server's, which rules the bell.
  const skew = root.dataset.now ? Date.parse(root.dataset.now) - Date.now() : 0;
  const tournamentPollMs = Number(root.dataset.tournamentPollMs) || 15000;
  let askedAt = 0;

  function undecided() { return board.tournament && board.tournament.state !== "decided"; }

  function two(n) { return String(n).padStart(2, "0"); }

  // Times come in UTC from the server; show them in this phone's own time.
  function localTimes() {
    root.querySelectorAll("#tournament-table time[datetime]").forEach((el) => {
      const moment = new Date(el.dateTime);
      if (!Number.isNaN(moment.getTime())) {
        el.textContent = moment.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      }
    });
  }

  function tickRound() {
    const t = board.tournament;
    const left = document.getElementById("round-clock-left");
    if (!t || !t.clock || t.rung || t.state === "decided") return;
    const ms = Date.parse(t.clock.rings_at) - (Date.now() + skew);
    if (left) {
      const s = Math.max(0, Math.ceil(ms / 1000));
      left.textContent = `${Math.floor(s / 60)}:${two(s % 60)}`;
    }
    // The bell's time has come by this phone's reckoning: ask the server (again every 2 s until it says so).
    if (ms <= 0 && Date.now() - askedAt > 2000) {
      askedAt = Date.now();
      poll();
    }
  }

  if (board.tournament) {
    localTimes();
    tickRound();
    setInterval(tickRound, 1000);
    setInterval(() => { if (undecided()) poll(); }, tournamentPollMs);
  }

  window.spinnerBoard = {
    get board() { return board; },
    get version() { return version; },
    onChange(f) { listeners.push(f); f(board); },
    refresh: poll,
    apply,
  };
  // Offline: say so at once (the stream may take a while to notice); back online: catch up.
  window.addEventListener("offline", () => tell("offline"));
  window.addEventListener("online", () => {
    if (gone) { tell("gone"); return; }
    tell("reconnecting");
    if (source && source.readyState !== EventSource.CLOSED) source.close();
    poll();
    if (!pollTimer) startStream();
  });
  tell("connecting");
  startStream();
})();
