"""Real servers for browser and load tests: the companion on cheroot in a thread (as `spinner serve`
runs it), and headless Chromium from the system."""
from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any


class Running:
    """A started companion: its app (config, data folder) and the address to open."""

    def __init__(self, app: Any, url: str) -> None:
        self.app = app
        self.url = url


def start(tmp_path: Path, threads: int = 32, **config: Any) -> tuple[Any, Running]:
    """The companion on cheroot at a free port of 127.0.0.1, serving from a thread; stop with `.stop()`."""
    from cheroot import wsgi

    from webapp import create_app
    from webapp.store import cache

    cache.clear()
    app = create_app({"SPINNER_DATA": tmp_path / "data", "DATABASE_URL": f"sqlite:///{tmp_path / 'live.db'}",
                      "SSE_MAX_STREAMS": max(1, threads - 8), **config})
    server = wsgi.Server(("127.0.0.1", 0), app, numthreads=threads, max=threads)
    server.prepare()
    port = server.bind_addr[1]
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    return server, Running(app, f"http://127.0.0.1:{port}")


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
