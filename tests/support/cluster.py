"""Many processes on one PostgreSQL, as docs/deploy.md runs them: `spinner serve` web processes that
queue their photos (SPINNER_READERS=queue) and `spinner reader-worker`s that read them, sharing
one folder of kept photos; and a phone watching a match's live stream. For the slow tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

from tests.support.servers import ROOT, free_port
from tests.support.waiting import until


def call(url: str, method: str = "GET", body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(
        url, method=method, headers=headers, data=json.dumps(body).encode() if body is not None else None
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def post_photo(url: str, data: bytes, token: str, query: str = "") -> dict[str, Any]:
    request = urllib.request.Request(
        f"{url}{query}",
        method="POST",
        data=data,
        headers={"Content-Type": "image/jpeg", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class Cluster:
    """The processes of one deployment on the database at `url`; `stop()` ends them all."""

    def __init__(self, url: str, folder: Path, models: Path | None = None) -> None:
        self.url, self.folder = url, folder
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": url,
            "SPINNER_READERS": "queue",
            "SPINNER_PHOTO_DIR": str(folder / "photos"),
            "SPINNER_SECRET_KEY": "one key for every process",
            "SPINNER_MODELS": str(models or folder / "no-models"),
            "SPINNER_READER_THREADS": "1",
            # the streams never look at the database themselves: only a notification brings a change
            "SPINNER_SSE_HEARTBEAT": "3600",
        }
        self.processes: list[subprocess.Popen[str]] = []

    def _start(self, name: str, *args: str) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-m", "spinner.cli", *args],
            env={**self.env, "SPINNER_DATA": str(self.folder / name)},
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.processes.append(process)
        return process

    def _ready(self, process: subprocess.Popen[str], line: str) -> list[str]:
        assert process.stdout is not None
        said = []
        for out in process.stdout:
            said.append(out)
            if line in out:
                # the rest of its output is drained, so a chatty process never blocks on a full pipe
                threading.Thread(target=process.stdout.read, daemon=True).start()
                return said
        raise AssertionError(f"the process ended ({process.wait()}) before it said {line!r}: {''.join(said)}")

    def serve(self) -> str:
        """A web process; its address once it answers."""
        port = free_port()
        process = self._start(f"web{port}", "serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr")
        self._ready(process, "open http")
        address = f"http://127.0.0.1:{port}"

        def answer() -> Any:
            try:
                return call(f"{address}/api/games")
            except OSError:
                return None

        until(answer, f"{address} to answer")
        return address

    def worker(self) -> subprocess.Popen[str]:
        """A reader worker, once it listens for frames."""
        process = self._start(f"worker{len(self.processes)}", "reader-worker")
        self._ready(process, "Reading photos from the queue")
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()


class Viewer(threading.Thread):
    """A phone watching a match's live stream on one web process: every version it is sent, in order."""

    def __init__(self, url: str, game: str, last: int | None = None) -> None:
        """`last`: the version it watches until (or later, `until_version`)."""
        super().__init__(daemon=True)
        self.url, self.game = url, game
        self.versions: list[int] = []
        self.last: int | None = last
        self.done = threading.Event()
        self.heard = threading.Condition()

    def until_version(self, version: int) -> None:
        self.last = version
        if self.versions and self.versions[-1] >= version:
            self.done.set()

    def saw(self, version: int, timeout: float = 60) -> bool:
        """Wait until it has been sent `version` or a later one."""
        with self.heard:
            return self.heard.wait_for(lambda: bool(self.versions) and self.versions[-1] >= version, timeout)

    def run(self) -> None:
        request = urllib.request.Request(f"{self.url}/api/games/{self.game}/stream")
        while not self.done.is_set():  # a stream ends after its lifetime: the page reconnects
            with urllib.request.urlopen(request, timeout=120) as stream:
                for raw in stream:
                    line = raw.decode()
                    if line.startswith("id: "):
                        with self.heard:
                            self.versions.append(int(line[4:]))
                            self.heard.notify_all()
                        if self.last is not None and self.versions[-1] >= self.last:
                            self.done.set()
                            return
