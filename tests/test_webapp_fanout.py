"""Several server processes on one PostgreSQL: a change made through one reaches the streams of
another through LISTEN/NOTIFY (`webapp.fanout`), not through the heartbeat's look at the database.
Skipped where the PostgreSQL server binaries are not installed."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

import pg_server

pytestmark = pytest.mark.slow
PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]


@pytest.fixture(scope="module")
def postgres():
    from webapp import fanout

    for server in pg_server.running():
        yield server
        fanout.stop_all()  # before the server goes, so no listener is left knocking


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(url: str, method: str = "GET", body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(url, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture
def other_process(postgres, tmp_path):
    """`spinner serve` in a process of its own, on a fresh database of the throwaway server."""
    url = postgres.create_database(f"fanout_{os.getpid()}_{_free_port()}")
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "SPINNER_DATA": str(tmp_path / "other"),
           "SPINNER_MODELS": str(tmp_path / "no-models"), "SPINNER_READER_PROCESSES": "0"}
    process = subprocess.Popen([sys.executable, "-m", "spinner.cli", "serve", "--host", "127.0.0.1",
                                "--port", str(port), "--no-qr"], env=env, cwd=Path(__file__).resolve().parent.parent,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in process.stdout:  # it prints its address once it is about to serve
            if "open http" in line:
                break
        else:
            raise AssertionError(f"spinner serve exited with {process.wait()}")
        yield url, f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_change_in_another_process_wakes_this_ones_streams(other_process, tmp_path):
    from webapp import create_app
    from webapp.live import hub
    from webapp.store import cache

    database, other = other_process
    for _ in range(100):  # the other process may still be binding its port
        try:
            created = call(f"{other}/api/games", "POST", {"variant": "partners", "players": PLAYERS})
            break
        except OSError:
            subprocess.run([sys.executable, "-c", "import time; time.sleep(0.1)"], check=True)
    else:
        raise AssertionError("the other server never answered")
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
