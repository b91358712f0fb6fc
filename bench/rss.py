"""The server's peak memory under hostile uploads: a ZIP bomb, four at once, 100-megapixel photos.

    python bench/rss.py

Starts the companion as `spinner serve` does, in a process of its own, and for each case resets
the process's peak resident set (Linux: /proc/PID/clear_refs) and reads it back after the
answers: how far above its resting size the server went. No case is expected to take it more
than 64 MB above rest (the issue's bound). Linux only (it reads /proc).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def post(url: str, data: bytes, kind: str, token: str | None = None) -> int:
    headers = {"Content-Type": kind, **({"Authorization": f"Bearer {token}"} if token else {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=300) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def bomb(megabytes: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("record.json", "w", force_zip64=True) as member:
            member.write(b'{"variant": "partners", "players": ["A", "B", "C", "D"], "title": "')
            block = b" " * (1024 * 1024)
            for _ in range(megabytes):
                member.write(block)
            member.write(b'"}')
    return out.getvalue()


def photo(width: int, height: int, ext: str) -> bytes:
    image = np.full((height, width, 3), 90, np.uint8)
    ok, data = cv2.imencode(ext, image)
    assert ok
    return data.tobytes()


def main() -> int:
    with tempfile.TemporaryDirectory() as data:
        port = 18000 + os.getpid() % 1000
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
                "--no-qr",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"{base}/api/games", timeout=2).read()
                    break
                except OSError:
                    time.sleep(0.1)  # the server is starting
            game = json.loads(
                urllib.request.urlopen(
                    urllib.request.Request(
                        f"{base}/api/games",
                        data=json.dumps({"variant": "partners", "players": ["A", "B", "C", "D"]}).encode(),
                        headers={"Content-Type": "application/json"},
                    )
                ).read()
            )
            frames = f"{base}/api/games/{game['id']}/frames?wait=0"
            the_bomb = bomb(500)
            cases = {
                f"ZIP bomb ({len(the_bomb) // 1024} KB, record.json 500 MB)": [
                    (f"{base}/api/games", the_bomb, "application/zip", None)
                ],
                "four ZIP bombs at once": [(f"{base}/api/games", the_bomb, "application/zip", None)] * 4,
                "100 MP JPEG": [(frames, photo(10000, 10000, ".jpg"), "image/jpeg", game["token"])],
                "100 MP PNG": [(frames, photo(10000, 10000, ".png"), "image/png", game["token"])],
                "48 MP JPEG (taken)": [(frames, photo(8000, 6000, ".jpg"), "image/jpeg", game["token"])],
            }
            print(f"{'case':<40} {'answers':<16} {'rest MB':>8} {'peak MB':>8} {'above rest':>10}")
            for name, requests in cases.items():
                Path(f"/proc/{server.pid}/clear_refs").write_text("5")  # reset the peak to now
                rest = kb(server.pid, "VmRSS")
                answers: list[int] = []
                threads = [threading.Thread(target=lambda r=r: answers.append(post(*r))) for r in requests]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                peak = kb(server.pid, "VmHWM")
                print(
                    f"{name:<40} {','.join(map(str, sorted(answers))):<16} {rest / 1024:>8.0f} {peak / 1024:>8.0f} "
                    f"{(peak - rest) / 1024:>9.0f}"
                )
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
