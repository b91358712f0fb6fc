"""kill -9 the server again and again while events and photos flow; count what was lost.

    python bench/kill_nine.py [--rounds 10]

Each round starts the companion as `spinner serve` does (with its reader processes) on the same
data folder, sends events (a play and its undo, over and over) and photos (`?wait=0`, answered
"queued") from two threads, and kills the server with SIGKILL after one to three seconds of it.
Then it counts, after one more start that reads what was left waiting:
- answered events lost: changes the server answered (201/200 with a version) that its history
  does not hold as answered;
- photos left queued: frames answered "queued" whose status is still "queued";
- stray processes: the killed servers' reader processes and resource trackers still alive.
Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def call(
    url: str,
    method: str = "GET",
    body: object = None,
    token: str | None = None,
    data: bytes | None = None,
    kind: str = "application/json",
    timeout: float = 30,
) -> tuple[int, dict]:
    payload = data if data is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": kind, **({"Authorization": f"Bearer {token}"} if token else {})}
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, method=method, data=payload, headers=headers), timeout=timeout
        ) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, {}


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def start(data: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "SPINNER_DATA": data, "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
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
            "32",
            "--no-qr",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=2).read()
            return server
        except OSError:
            time.sleep(0.05)  # the server is starting
    raise SystemExit("the server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    image = np.full((480, 640, 3), 90, np.uint8)
    image[200:240, 280:360] = 250
    photo = cv2.imencode(".jpg", image)[1].tobytes()
    port = 19000 + os.getpid() % 1000
    base = f"http://127.0.0.1:{port}"
    answered_events: list[tuple[int, str]] = []
    queued_photos: list[int] = []
    strays: list[int] = []
    with tempfile.TemporaryDirectory() as data:
        game: dict = {}
        for round_ in range(args.rounds):
            server = start(data, port)
            if not game:
                game = call(f"{base}/api/games", "POST", {"variant": "partners", "players": ["A", "B", "C", "D"]})[1]
                call(f"{base}/api/games/{game['id']}/hands", "POST", {}, game["token"])
            stop = threading.Event()

            def events() -> None:
                played = any(a == "event" for _, a in answered_events[-1:])
                while not stop.is_set():
                    try:
                        if not played:
                            status, answer = call(
                                f"{base}/api/games/{game['id']}/events",
                                "POST",
                                {"type": "play", "seat": 0, "tile": "6-6"},
                                game["token"],
                            )
                        else:
                            status, answer = call(f"{base}/api/games/{game['id']}/undo", "POST", {}, game["token"])
                    except OSError:
                        return
                    if status in (200, 201):
                        answered_events.append((answer["version"], answer["change"]["action"]))
                        played = not played
                    elif status == 422:  # the last answer was lost with the server: the state says which
                        played = not played
                    elif status == 409:  # an undo took back the start of the hand: start another
                        call(f"{base}/api/games/{game['id']}/hands", "POST", {}, game["token"])
                        played = False

            def photos() -> None:
                while not stop.is_set():
                    try:
                        status, answer = call(
                            f"{base}/api/games/{game['id']}/frames?wait=0",
                            "POST",
                            data=photo,
                            kind="image/jpeg",
                            token=game["token"],
                        )
                    except OSError:
                        return
                    if status == 202 and answer.get("id") is not None:
                        queued_photos.append(answer["id"])

            workers = [threading.Thread(target=events), threading.Thread(target=photos)]
            for worker in workers:
                worker.start()
            time.sleep(random.uniform(1.0, 3.0))  # traffic for a while, then the kill
            children = descendants(server.pid)
            server.send_signal(signal.SIGKILL)
            server.wait(30)
            stop.set()
            for worker in workers:
                worker.join(60)
            deadline = time.monotonic() + 30
            while any(alive(c) for c in children) and time.monotonic() < deadline:
                time.sleep(0.1)  # the children learn of their parent's end from the kernel
            strays += [c for c in children if alive(c)]
            print(
                f"round {round_ + 1}: killed with {len(children)} child processes; "
                f"{len(answered_events)} events and {len(queued_photos)} queued photos answered so far",
                flush=True,
            )
        server = start(data, port)  # the last start reads what the killed ones left waiting
        try:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                frames = call(f"{base}/api/games/{game['id']}/frames")[1]["frames"]
                status = {f["id"]: f["status"] for f in frames}
                if not any(status.get(i) == "queued" for i in queued_photos):
                    break
                time.sleep(0.5)  # the reader works through them
            history = {c["version"]: c["action"] for c in call(f"{base}/api/games/{game['id']}/history")[1]["changes"]}
        finally:
            children = descendants(server.pid)
            server.terminate()
            server.wait(30)
    lost = [(v, a) for v, a in answered_events if history.get(v) != a]
    left = [i for i in queued_photos if status.get(i) == "queued"]
    deadline = time.monotonic() + 30
    while any(alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    strays += [c for c in children if alive(c)]
    print(
        f"{args.rounds} kills: {len(answered_events)} events answered, {len(lost)} lost; "
        f"{len(queued_photos)} photos answered queued, {len(left)} left queued "
        f"({sum(1 for i in queued_photos if status.get(i) == 'skipped')} skipped for a newer one); "
        f"{len(strays)} stray processes"
    )
    return 1 if lost or left or strays else 0


if __name__ == "__main__":
    sys.exit(main())
