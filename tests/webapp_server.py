"""A real companion server in a thread (cheroot, as `spinner serve` runs it), for browser and load tests."""
from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest


class Running:
    def __init__(self, app: Any, url: str) -> None:
        self.app = app
        self.url = url


def start(tmp_path: Path, threads: int = 32, **config: Any) -> tuple[Any, Running]:
    from webapp import create_app
    from webapp.headfirst import Server
    from webapp.store import cache

    cache.clear()
    app = create_app({"SPINNER_DATA": tmp_path / "data", "DATABASE_URL": f"sqlite:///{tmp_path / 'live.db'}",
                      "SSE_MAX_STREAMS": max(1, threads - 8), **config})
    server = Server(("127.0.0.1", 0), app, numthreads=threads, max=threads)
    server.prepare()
    port = server.bind_addr[1]
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    return server, Running(app, f"http://127.0.0.1:{port}")


@pytest.fixture
def live_server(tmp_path) -> Iterator[Running]:
    # Short-lived streams with frequent heartbeats: a closed page frees its thread within a second.
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=30.0)
    yield running
    server.stop()


class without_csp:
    """A Playwright browser whose contexts ignore the pages' Content-Security-Policy: Playwright's
    `wait_for_function` evaluates its predicate with eval, which the policy forbids (as it should
    for anything else). tests/test_webapp_security.py drives the pad with the policy in force."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        return self._browser.new_context(**{"bypass_csp": True, **options})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture
def browser():
    """Headless Chromium from the system (never a downloaded build); the test skips without it."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield without_csp(browser)
        browser.close()
