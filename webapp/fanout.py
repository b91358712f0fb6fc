"""Changes made in other processes: PostgreSQL's LISTEN/NOTIFY wakes this process's streams.

Several `spinner serve` processes on one PostgreSQL each keep their own `live.hub`. A change is
announced with NOTIFY inside the transaction that writes it, so it is delivered only if it
commits, and after it has. One listening connection per process and database turns each
notification into a local `hub.publish`, which wakes the streams watching that match at once.

PostgreSQL was chosen over a separate broker because it is already the one thing every process
shares: no new service to run, and a notification cannot overtake the change it announces. A
stream still looks at the database every heartbeat (`webapp.api.stream`), the fallback for a
listening connection that dropped and for SQLite, which has no NOTIFY (one process only).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url

from .live import hub

CHANNEL = "spinner_changes"
#: seconds before the first attempt to listen again after the connection dropped, and the most
#: between attempts (each failure doubles the wait)
RETRY = 1.0
RETRY_MOST = 30.0

log = logging.getLogger(__name__)


def is_postgresql(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"


def announce(session: Any, game_id: str, version: int) -> None:
    """Queue a notification of `version` of the match; PostgreSQL sends it when `session` commits."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{game_id} {version}"}
        )


def parse(payload: str) -> tuple[str, int] | None:
    """`"GAME VERSION"` -> (game, version); None for anything else (never trusted blindly)."""
    game_id, _, version = payload.partition(" ")
    if not game_id or not version.isascii() or not version.isdigit():
        return None
    return game_id, int(version)


def _publish(payload: str) -> None:
    said = parse(payload)
    if said is not None:
        hub.publish(*said)


class Listener:
    """One thread holding one connection that LISTENs on one channel, for one database: each
    notification's payload is handed to `handle` (by default: a change, to this process's hub).
    `webapp.readqueue` listens on channels of its own through it."""

    def __init__(self, url: str, channel: str = CHANNEL, handle: Callable[[str], None] = _publish) -> None:
        # psycopg takes libpq's URL: the SQLAlchemy driver name ("postgresql+psycopg") goes.
        self.url = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        if not channel.isidentifier():
            raise ValueError(f"not a channel name: {channel!r}")
        self.channel, self.handle = channel, handle
        self.stopping = threading.Event()
        self.listening = threading.Event()
        self.thread = threading.Thread(target=self._run, name="spinner-listen", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        wait = RETRY
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {self.channel}")
                    self.listening.set()
                    wait = RETRY
                    while not self.stopping.is_set():
                        # a timeout, so a stopping listener is noticed without a notification
                        for note in connection.notifies(timeout=1.0):
                            try:
                                self.handle(note.payload)
                            except Exception:  # one bad note must not stop the listening
                                log.exception("a notification on %s was not handled", self.channel)
            except psycopg.Error as error:
                if wait == RETRY:  # once per outage, not once per attempt
                    log.warning("listening for changes failed (%s); the streams poll until it is back", error)
                self.listening.clear()
                self.stopping.wait(wait)
                wait = min(RETRY_MOST, 2 * wait)


_listeners: dict[str, Listener] = {}
_lock = threading.Lock()


def stop_all() -> None:
    """Stop every listener of this process (a test's database is about to go)."""
    with _lock:
        listeners = list(_listeners.values())
        _listeners.clear()
    for listener in listeners:
        listener.stop()


def listen(url: str) -> Listener | None:
    """This process's listener for the database at `url` (started once), or None for SQLite."""
    if not is_postgresql(url):
        return None
    with _lock:
        found = _listeners.get(url)
        if found is None:
            found = _listeners[url] = Listener(url)
            found.start()
        return found
