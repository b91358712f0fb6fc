"""A scorer's change while live streams and half-sent requests hold the server's sockets.

    python bench/slow_clients.py [--streams 300] [--half 500] [--changes 100] [--plain]

Starts the companion as `spinner serve` does (320 threads, the stream cap below them) in a
process of its own, opens `--streams` live streams on a listed match and `--half` connections
that send half a request head and then nothing, and times `--changes` scorer changes (an event,
then its undo, each on a new connection) while they are all held. `--plain` runs cheroot's own
connection manager instead of `webapp.headfirst`, for the comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THREADS = 320


def serve(port: int, data: str, plain: bool) -> None:
    """The server process: the companion as `spinner serve` builds it."""
    sys.path.insert(0, str(ROOT))
    from cheroot import wsgi

    from webapp import create_app, headfirst
    from webapp.serve import SPARE_THREADS

    app = create_app({"SPINNER_DATA": data, "SSE_MAX_STREAMS": THREADS - SPARE_THREADS})
    kind = wsgi.Server if plain else headfirst.Server
    server = kind(("127.0.0.1", port), app, numthreads=THREADS, max=THREADS, request_queue_size=256)
    print("ready", flush=True)
    server.start()


def call(url: str, method: str = "GET", body: object = None, token: str | None = None, timeout: float = 120) -> dict:
    request = urllib.request.Request(
        url,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"{}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--half", type=int, default=500)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--plain", action="store_true", help="cheroot's own connection manager")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DATA"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], args.plain)
        return 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("DATABASE_URL", None)
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(port), data] + (["--plain"] if args.plain else []),
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        held: list[socket.socket] = []
        try:
            assert server.stdout.readline().strip() == "ready"
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    call(f"{base}/api/games", timeout=2)
                    break
                except OSError:
                    time.sleep(0.1)  # the server is binding its socket
            game = call(f"{base}/api/games", "POST", {"variant": "partners", "players": ["A", "B", "C", "D"]})
            call(f"{base}/api/games/{game['id']}/hands", "POST", {}, game["token"])
            opened = 0
            for _ in range(args.streams):
                stream = socket.create_connection(("127.0.0.1", port))
                stream.sendall(f"GET /api/games/{game['id']}/stream HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
                held.append(stream)
            for stream in held:  # each stream answered (200, or 503 past the cap) before going on
                stream.settimeout(120)
                opened += stream.recv(64).startswith(b"HTTP/1.1 200")
            for _ in range(args.half):
                half = socket.create_connection(("127.0.0.1", port))
                half.sendall(f"POST /api/games/{game['id']}/events HTTP/1.1\r\nHost: bench\r\n".encode())
                held.append(half)
            times = []
            for i in range(args.changes):
                started = time.perf_counter()
                if i % 2 == 0:
                    call(
                        f"{base}/api/games/{game['id']}/events",
                        "POST",
                        {"type": "play", "seat": 0, "tile": "6-6"},
                        game["token"],
                    )
                else:
                    call(f"{base}/api/games/{game['id']}/undo", "POST", {}, game["token"])
                times.append(time.perf_counter() - started)
            times.sort()
            p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
            print(
                f"{'cheroot' if args.plain else 'headfirst'}: {opened} streams open, {args.half} half-sent requests; "
                f"{len(times)} scorer changes: median {statistics.median(times) * 1000:.1f} ms, "
                f"p99 {p99 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"
            )
        finally:
            for sock in held:
                sock.close()
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
