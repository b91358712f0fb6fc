"""Real servers for browser and load tests: the companion on cheroot in a thread (as `spinner serve`
runs it), and headless Chromium from the system."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

from tests.support.waiting import PATIENCE_S, until

ROOT = Path(__file__).resolve().parent.parent.parent


class Running:
    """A started companion: its app (config, data folder) and the address to open."""

    def __init__(self, app: Any, url: str) -> None:
        self.app = app
        self.url = url


def start(tmp_path: Path, threads: int = 32, **config: Any) -> tuple[Any, Running]:
    """The companion on cheroot (the hardened `webapp.headfirst.Server`, as `spinner serve` runs it) at a
    free port of 127.0.0.1, serving from a thread; stop with `.stop()`."""
    from webapp import create_app
    from webapp.headfirst import Server
    from webapp.store import cache

    cache.clear()
    app = create_app(
        {
            "SPINNER_DATA": tmp_path / "data",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'live.db'}",
            "SSE_MAX_STREAMS": max(1, threads - 8),
            **config,
        }
    )
    server = Server(("127.0.0.1", 0), app, numthreads=threads, max=threads)
    server.prepare()
    port = server.bind_addr[1]
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    return server, Running(app, f"http://127.0.0.1:{port}")


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


# -- `spinner serve` in a process of its own ---------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, int]:
    """`spinner serve ARGS` at a free port, its data under tmp_path, on the embedded database."""
    port = free_port()
    env = {**os.environ, "SPINNER_DATA": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from spinner.cli import main; main()",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--threads",
            "16",
            *args,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return process, port


def wait_for(url: str, context: ssl.SSLContext | None = None, process: subprocess.Popen | None = None) -> bytes:
    """The page at `url` once the server answers (it is starting); fails if `process` ends first."""
    failed: list[BaseException] = []

    def answer() -> bytes | None:
        if process is not None and process.poll() is not None:
            raise AssertionError(
                f"the server ended ({process.returncode}) before {url} answered: {process.stdout.read()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=PATIENCE_S, context=context) as response:
                return response.read()
        except (OSError, ssl.SSLError) as error:
            failed[:] = [error]
            return None

    try:
        return until(answer, f"{url} to answer")
    except AssertionError as error:
        raise AssertionError(f"{error} (last: {failed[-1] if failed else None})") from None


def stop(process: subprocess.Popen) -> str:
    process.terminate()
    out, _ = process.communicate(timeout=PATIENCE_S)
    return out
