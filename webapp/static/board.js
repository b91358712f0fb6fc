// The live board: server-sent events, with polling as the fallback. The server renders the
// board (webapp/templates/_board.html); this only swaps it in, newest version wins.
(() => {
  "use strict";
  const root = document.getElementById("board");
  if (!root) return;
  const bottom = document.getElementById("board-bottom");
  const status = document.getElementById("live");
  let board = JSON.parse(document.getElementById("board-data").textContent);
  let version = board.version;
  const listeners = [];
  let source = null;
  let pollTimer = null;
  let failures = 0;

  function say(text) { if (status) status.textContent = text; }

  let shown = version; // the version the page shows now

  function apply(data) {
    if (!data || data.version < version) return;
    if (data.version === shown) { board = data; return; } // nothing new to show
    shown = data.version;
    board = data;
    version = data.version;
    if (data.html) {
      root.innerHTML = data.html.top;
      if (bottom) bottom.innerHTML = data.html.bottom;
    }
    root.dataset.version = String(version);
    listeners.forEach((f) => f(board));
  }

  async function poll() {
    try {
      const response = await fetch(root.dataset.poll, {
        headers: { "If-None-Match": `"${version}"` }, cache: "no-store", credentials: "same-origin",
      });
      if (response.status === 200) apply(await response.json());
      if (pollTimer) say("updating every 2 s");
    } catch (error) {
      say("offline: trying again");
    }
  }

  function startPolling() {
    if (!pollTimer) pollTimer = setInterval(poll, 2000);
    poll();
    // Try the live stream again later: it may have been full, or the network may be back.
    setTimeout(() => { clearInterval(pollTimer); pollTimer = null; startStream(); }, 60000);
  }

  function startStream() {
    if (!("EventSource" in window)) { startPolling(); return; }
    source = new EventSource(root.dataset.stream);
    source.addEventListener("board", (event) => { failures = 0; say("live"); apply(JSON.parse(event.data)); });
    source.onopen = () => say("live");
    source.onerror = () => {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures > 3) {
        source.close();
        say("updating every 2 s");
        startPolling();
      } else {
        say("reconnecting…");
      }
    };
  }

  window.spinnerBoard = {
    get board() { return board; },
    get version() { return version; },
    onChange(f) { listeners.push(f); f(board); },
    refresh: poll,
    apply,
  };
  startStream();
})();
