"""Several server processes on one PostgreSQL: a change made through one reaches the streams of
another through LISTEN/NOTIFY (`webapp.fanout`), not through the heartbeat's look at the database.
Skipped where the PostgreSQL server binaries are not installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cluster import Viewer, call
from tests.support.servers import free_port
from tests.support.waiting import until
from tests.support.web import PLAYERS

pytestmark = pytest.mark.slow


def start_serve(url: str, folder: Path) -> tuple[subprocess.Popen, str]:
    """`spinner serve` in a process of its own on the database at `url`; its address once it serves."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SPINNER_DATA": str(folder),
        "SPINNER_MODELS": str(folder / "no-models"),
        "SPINNER_READER_PROCESSES": "0",
        # the streams never look at the database themselves: only a notification brings a change
        "SPINNER_SSE_HEARTBEAT": "3600",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "spinner.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr"],
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:  # it prints its address just before it starts serving
        if "open http" in line:
            return process, f"http://127.0.0.1:{port}"
    raise AssertionError(f"spinner serve exited with {process.wait()}")


def answering(url: str) -> dict:
    """The first answer of a fresh server (it may still be binding its port when it prints)."""

    def answer() -> dict | None:
        try:
            return call(f"{url}/api/games")
        except OSError:
            return None

    return until(answer, f"{url} to answer")


@pytest.fixture
def other_process(postgres, tmp_path):
    url = postgres.create_database(f"fanout_{os.getpid()}_{free_port()}")
    process, address = start_serve(url, tmp_path / "other")
    try:
        answering(address)
        yield url, address
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_change_in_another_process_wakes_this_ones_streams(other_process, tmp_path):
    from webapp import create_app
    from webapp.live import hub
    from webapp.store import cache

    database, other = other_process
    created = call(f"{other}/api/games", "POST", {"variant": "partners", "players": PLAYERS})
    cache.clear()
    # This process: an app on the same database, its streams never looking at the database
    # (heartbeat an hour away), so only a notification can bring them the change.
    app = create_app({"SPINNER_DATA": tmp_path / "this", "DATABASE_URL": database, "SSE_HEARTBEAT": 3600.0})
    listener = app.extensions["spinner.listener"]
    assert listener is not None and listener.listening.wait(60), "this process never started listening"
    game, token = created["id"], created["token"]
    seen = created["version"]
    assert hub.version(game) < seen or hub.version(game) == 0

    started = call(f"{other}/api/games/{game}/hands", "POST", {}, token)
    assert hub.wait(game, started["version"] - 1, timeout=60) >= started["version"]
    played = call(f"{other}/api/games/{game}/events", "POST", {"type": "play", "seat": 0, "tile": "6-6"}, token)
    assert hub.wait(game, started["version"], timeout=60) == played["version"]


def test_notifications_are_parsed_strictly():
    from webapp.fanout import parse

    assert parse("abc 7") == ("abc", 7)
    assert parse("abc ²") is None and parse("abc") is None and parse(" 3") is None


def test_three_processes_every_viewer_sees_every_version(postgres, tmp_path):
    """Matches played through three server processes, each change made on a different one than
    the last; viewers on every process see every version (a stream sends the newest board, so a
    version can be skipped only where two changes landed before one was drawn: none here, as
    each change waits for every viewer)."""
    url = postgres.create_database(f"three_{os.getpid()}_{free_port()}")
    started = [start_serve(url, tmp_path / f"server{k}") for k in range(3)]
    try:
        servers = [address for _, address in started]
        for address in servers:
            answering(address)
        hand = [
            {"type": "play", "seat": 0, "tile": "6-6"},
            {"type": "play", "seat": 1, "tile": "6-5", "end": "east"},
            {"type": "play", "seat": 2, "tile": "5-5", "end": "east"},
            {"type": "play", "seat": 3, "tile": "6-4", "end": "west"},
        ]
        for match in range(2):
            created = call(f"{servers[match % 3]}/api/games", "POST", {"variant": "partners", "players": PLAYERS})
            game, token, version = created["id"], created["token"], created["version"]
            last = version + 1 + len(hand)
            viewers = [Viewer(address, game, last) for address in servers for _ in range(2)]
            for viewer in viewers:
                viewer.start()
            changes = [("hands", {})] + [("events", event) for event in hand]
            for k, (what, body) in enumerate(changes):
                for viewer in viewers:  # each has the board of the version before this change
                    until(
                        lambda v=viewer, at=version: v.versions and v.versions[-1] >= at,
                        f"a viewer on {viewer.url} to see version {version} (it saw {viewer.versions})",
                    )
                version = call(f"{servers[(match + k) % 3]}/api/games/{game}/{what}", "POST", body, token)["version"]
            for viewer in viewers:
                assert viewer.done.wait(60), f"a viewer on {viewer.url} stopped at {viewer.versions}"
                assert viewer.versions == list(range(viewer.versions[0], last + 1)), viewer.versions
                assert viewer.versions[0] == created["version"]
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(timeout=30)
