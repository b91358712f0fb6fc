"""Live updates: a change wakes every stream watching its match.

In one process, `publish` wakes the waiting streams at once through a condition variable.
A stream also looks at the database's version every heartbeat, so a change written by another
process (a second server on the same PostgreSQL) still arrives, just later.

Each open stream holds one of waitress's threads (see `webapp.serve`), so the number of
streams is capped; past the cap the stream answers 503 and the page polls instead.
"""

from __future__ import annotations

import threading
import time


class Hub:
    def __init__(self) -> None:
        self._versions: dict[str, int] = {}
        # One condition per match: a change wakes only the streams watching that match.
        self._conditions: dict[str, threading.Condition] = {}
        self._lock = threading.Lock()
        #: set once the server stops: streams end instead of waiting
        self.closing = False
        self._streams = 0

    def _condition(self, game_id: str) -> threading.Condition:
        with self._lock:
            condition = self._conditions.get(game_id)
            if condition is None:
                condition = self._conditions[game_id] = threading.Condition()
            return condition

    def publish(self, game_id: str, version: int) -> None:
        condition = self._condition(game_id)
        with condition:
            if version > self._versions.get(game_id, 0):
                self._versions[game_id] = version
            condition.notify_all()

    def wait(self, game_id: str, seen: int, timeout: float) -> int:
        """Block until the match is past version `seen` or `timeout` passes; the newest version known."""
        condition = self._condition(game_id)
        deadline = time.monotonic() + timeout
        with condition:
            while self._versions.get(game_id, 0) <= seen and not self.closing:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                condition.wait(left)
            return self._versions.get(game_id, 0)

    def close(self) -> None:
        """The server is stopping: every waiting stream returns now, so its thread can end (a
        stream would otherwise hold the server's stop until its next heartbeat)."""
        with self._lock:
            self.closing = True
            conditions = list(self._conditions.values())
        for condition in conditions:
            with condition:
                condition.notify_all()

    def version(self, game_id: str) -> int:
        """The newest version of the match published in this process (0: none yet)."""
        return self._versions.get(game_id, 0)

    def open_slot(self, limit: int) -> Slot | None:
        """A stream's place under the cap of `limit` open streams, or None when they are all taken."""
        return Slot(self) if self.open_stream(limit) else None

    def open_stream(self, limit: int) -> bool:
        with self._lock:
            if self._streams >= limit:
                return False
            self._streams += 1
            return True

    def close_stream(self) -> None:
        with self._lock:
            self._streams -= 1

    @property
    def streams(self) -> int:
        return self._streams


class Slot:
    """One open stream's place under the cap, given back once however the stream ends: at the end
    of its body, or when the server closes a body it never read (Werkzeug answers a HEAD without
    reading it), which never reaches the body's own end."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._lock = threading.Lock()
        self._held = True

    def release(self) -> None:
        with self._lock:
            if not self._held:
                return
            self._held = False
        self._hub.close_stream()


hub = Hub()


def publish(game_id: str, version: int) -> None:
    hub.publish(game_id, version)
