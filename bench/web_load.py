"""Load on the companion: many tables, each watched live by several phones and sending camera frames.

    .venv/bin/python bench/web_load.py [--tables 50] [--viewers 4] [--seconds 60] [--event-every 2]
        [--frame-every 1] [--models DIR] [--database-url URL | --postgres] [--servers 1] [--threads 320] [--json]

It starts `spinner serve` in its own process (--servers N: N of them on the one PostgreSQL, each
table's scorer on one and its viewers on the others, so every board a viewer sees crossed
processes through LISTEN/NOTIFY) (a fresh SPINNER_DATA and SQLite database in a temp
folder, or --database-url), makes the matches, and then, for --seconds:
- each table's scorer posts one event every --event-every seconds (the plays of a blocked hand,
  its passes and pips, then the next hand), without a version, as the pad does;
- each table's viewers hold the live stream (server-sent events) open;
- each table's camera posts a 1280x960 JPEG of a synthetic table every --frame-every seconds
  (`?source=camera`, waiting for the reading as the page does; the reader reads the newest frame of
  each table and skips the rest). --models names the reader's models; without them every frame
  is answered "no reader" (decoded and kept, not read).
Every viewer must see every version (or a later one: a stream sends the newest board); the update
latency of an event is the time from the scorer sending it to a viewer receiving the board with it.
The clients are asyncio (one thread) in this process, so they do not share the server's GIL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]
# A blocked partners hand (tests/support/records.py, SIX_BLOCK_PLAYS), its passes and pips.
HAND = [
    {"type": "play", "seat": 0, "tile": "6-6"},
    {"type": "play", "seat": 1, "tile": "6-1", "end": "east"},
    {"type": "play", "seat": 2, "tile": "1-2", "end": "east"},
    {"type": "play", "seat": 3, "tile": "2-6", "end": "east"},
    {"type": "play", "seat": 0, "tile": "6-0", "end": "west"},
    {"type": "play", "seat": 1, "tile": "0-3", "end": "west"},
    {"type": "play", "seat": 2, "tile": "3-6", "end": "west"},
    {"type": "play", "seat": 3, "tile": "6-4", "end": "east"},
    {"type": "play", "seat": 0, "tile": "4-5", "end": "east"},
    {"type": "play", "seat": 1, "tile": "5-6", "end": "east"},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "pass", "seat": 0},
    {"type": "pass", "seat": 1},
    {"type": "pips", "seat": 0, "pips": 20},
    {"type": "pips", "seat": 1, "pips": 25},
    {"type": "pips", "seat": 2, "pips": 20},
    {"type": "pips", "seat": 3, "pips": 25},
]


class Client:
    """A minimal HTTP/1.0 client on asyncio streams (one connection per request, like a phone's fetch)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        head = [f"{method} {path} HTTP/1.0", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await writer.drain()
        data = await reader.read()
        writer.close()
        status_line, _, rest = data.partition(b"\r\n")
        _, _, payload = rest.partition(b"\r\n\r\n")
        return int(status_line.split()[1]), payload

    async def json(self, method: str, path: str, value: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        status, payload = await self.request(
            method, path, json.dumps(value).encode() if value is not None else b"", headers
        )
        return status, json.loads(payload) if payload else None


class Run:
    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}  # (game, version) -> when its event was sent
        self.answered: dict[tuple[str, int], float] = {}  # ... and when the POST was answered
        self.seen: dict[tuple[str, int], list[tuple[int, float]]] = defaultdict(
            list
        )  # (game, viewer) -> [(version, t)]
        self.event_errors: Counter[str] = Counter()
        self.frame_status: Counter[str] = Counter()
        self.frame_times: list[float] = []
        self.stream_errors: Counter[str] = Counter()
        self.stop = False


async def viewer(client: Client, run: Run, game: str, index: int, ready: asyncio.Event) -> None:
    while not run.stop:
        try:
            reader, writer = await asyncio.open_connection(client.host, client.port)
            writer.write(
                f"GET /api/games/{game}/stream HTTP/1.0\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                run.stream_errors[status.decode().strip()] += 1
                writer.close()
                await asyncio.sleep(1)
                continue
            while (await reader.readline()).strip():  # headers
                pass
            ready.set()
            while not run.stop:
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"id: "):
                    run.seen[(game, index)].append((int(line[4:]), time.perf_counter()))
            writer.close()
        except (ConnectionError, OSError) as error:
            run.stream_errors[type(error).__name__] += 1
            await asyncio.sleep(0.5)


async def scorer(client: Client, run: Run, game: str, token: str, every: float, ends: float, offset: float) -> None:
    await asyncio.sleep(offset)
    step = 0
    while time.perf_counter() < ends:
        started = time.perf_counter()
        position = step % (len(HAND) + 1)
        if position == 0:
            path, body = f"/api/games/{game}/hands", {}
        else:  # the lead passes round the table: hand k is the first hand with every seat moved on by k
            event = dict(HAND[position - 1])
            event["seat"] = (event["seat"] + step // (len(HAND) + 1)) % len(PLAYERS)
            path, body = f"/api/games/{game}/events", event
        status, answer = await client.json("POST", path, body, token)
        if status in (200, 201):
            version = answer["version"]
            run.sent[(game, version)] = started
            run.answered[(game, version)] = time.perf_counter()
        else:
            run.event_errors[f"{status} {(answer or {}).get('error', '')[:80]}"] += 1
        step += 1
        await asyncio.sleep(max(0.0, every - (time.perf_counter() - started)))


async def camera(
    client: Client,
    run: Run,
    game: str,
    token: str,
    photos: list[bytes],
    every: float,
    ends: float,
    offset: float,
    hold: int = 1,
) -> None:
    """A table's live camera: a frame every `every` seconds, each photo for `hold` frames running
    (1: the picture changes every frame, never still, so the reader is never asked; a real camera
    sees the table still between plays, and the reader reads the frame that settles a change)."""
    await asyncio.sleep(offset)
    i = 0
    while time.perf_counter() < ends:
        started = time.perf_counter()
        status, payload = await client.request(
            "POST",
            f"/api/games/{game}/frames?source=camera",
            photos[(i // hold) % len(photos)],
            {"Content-Type": "image/jpeg", "Authorization": f"Bearer {token}"},
        )
        run.frame_times.append(time.perf_counter() - started)
        try:
            run.frame_status[json.loads(payload).get("status", str(status)) if status < 300 else f"HTTP {status}"] += 1
        except ValueError:
            run.frame_status[f"HTTP {status}"] += 1
        i += 1
        await asyncio.sleep(max(0.0, every - (time.perf_counter() - started)))


# The set-up both load benchmarks (this one and bench/scale_load.py) share: the matches, the
# viewers' streams, the scorers' changes and what the viewers received of them.


async def create_games(clients: list[Client], tables: int) -> list[tuple[str, str]]:
    """`tables` partners matches, made through the clients in turn: each one's (id, token)."""
    games: list[tuple[str, str]] = []
    for t in range(tables):
        status, created = await clients[t % len(clients)].json(
            "POST", "/api/games", {"variant": "partners", "players": PLAYERS, "title": f"table {t}"}
        )
        assert status == 201, created
        games.append((created["id"], created["token"]))
    return games


async def open_streams(
    run: Run, games: list[tuple[str, str]], viewers: int, server_of: Callable[[int, int], Client], within: float
) -> list[asyncio.Task[None]]:
    """Each table's `viewers` live streams, viewer v of table t on `server_of(t, v)`: their tasks,
    once every stream is open (`within` seconds at most)."""
    ready = [asyncio.Event() for _ in range(len(games) * viewers)]
    watching = [
        asyncio.create_task(viewer(server_of(t, v), run, game, v, ready[t * viewers + v]))
        for t, (game, _) in enumerate(games)
        for v in range(viewers)
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), within)
    return watching


def spread(t: int, every: float, tables: int) -> float:
    """How long table t waits before it first sends: the tables start spread over one period, not at once."""
    return every * t / tables


def scorers(
    run: Run, games: list[tuple[str, str]], server_of: Callable[[int], Client], every: float, ends: float
) -> list[Coroutine[Any, Any, None]]:
    """Each table's scorer, on `server_of(t)`, posting a change every `every` seconds until `ends`."""
    return [
        scorer(server_of(t), run, game, token, every, ends, spread(t, every, len(games)))
        for t, (game, token) in enumerate(games)
    ]


def photos(count: int) -> list[bytes]:
    sys.path.insert(0, str(ROOT))
    from vision.synth.dataset import make_sample

    return [make_sample(7, i, 1280, 960).jpeg for i in range(count)]


def start_server(args: argparse.Namespace, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        **os.environ,
        "SPINNER_DATA": str(folder / "data"),
        "PYTHONPATH": str(ROOT),
        "SPINNER_MODELS": str(args.models or folder / "no-models"),
        "SPINNER_READER_THREADS": "1",
    }
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
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
            str(args.threads),
            "--no-qr",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "server.log", "wb"),
    )
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1).read()
            return server, port
        except OSError:
            if server.poll() is not None:
                raise SystemExit(f"the server did not start: {(folder / 'server.log').read_text()[-2000:]}") from None
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not answer within 20 s")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


@dataclass
class Deliveries:
    """What the viewers received of the versions the scorers sent: each viewer every version, or a
    later one (a stream sends the newest board)."""

    after_sending: list[float] = field(default_factory=list)  # scorer sends -> a viewer has the board
    after_answer: list[float] = field(default_factory=list)  # the POST answered -> a viewer has the board
    missing: int = 0  # (version, viewer) pairs that never arrived
    direct: int = 0  # delivered as their own version, not in a newer board


def deliveries(run: Run, viewers: int) -> Deliveries:
    """For each version sent and each of its table's viewers, when the viewer had it or a later one."""
    counted = Deliveries()
    for (game, version), sent in run.sent.items():
        for v in range(viewers):
            got = next((t for seen, t in run.seen[(game, v)] if seen >= version), None)
            if got is None:
                counted.missing += 1
                continue
            counted.direct += any(seen == version for seen, _ in run.seen[(game, v)])
            counted.after_sending.append(got - sent)
            counted.after_answer.append(got - run.answered[(game, version)])
    return counted


async def main_async(args: argparse.Namespace, ports: list[int], images: list[bytes]) -> dict[str, Any]:
    clients = [Client("127.0.0.1", port) for port in ports]
    run = Run()
    games = await create_games(clients[:1], args.tables)

    # a table's scorer and camera on server t, its viewers on the next servers round (another process)
    def server_of(t: int, v: int = -1) -> Client:
        return clients[(t + 1 + v) % len(clients)]

    viewers = await open_streams(
        run, games, args.viewers, lambda t, v: server_of(t, v if len(clients) > 1 else -1), within=60
    )
    await asyncio.sleep(0.5)
    started = time.perf_counter()
    ends = started + args.seconds
    workers = scorers(run, games, server_of, args.event_every, ends)
    if args.frame_every > 0:
        workers += [
            camera(
                server_of(t),
                run,
                game,
                token,
                images,
                args.frame_every,
                ends,
                spread(t, args.frame_every, args.tables),
                args.hold,
            )
            for t, (game, token) in enumerate(games)
        ]
    await asyncio.gather(*workers)
    await asyncio.sleep(3)  # the last events reach the viewers
    run.stop = True
    elapsed = args.seconds
    for task in viewers:
        task.cancel()

    received = deliveries(run, args.viewers)
    latencies = received.after_sending
    expected = len(run.sent) * args.viewers
    return {
        "servers": len(clients),
        "tables": args.tables,
        "viewers_per_table": args.viewers,
        "seconds": round(elapsed, 1),
        "events": len(run.sent),
        "events_per_s": round(len(run.sent) / elapsed, 1),
        "event_errors": dict(run.event_errors),
        "deliveries_expected": expected,
        "delivered": expected - received.missing,
        "missing": received.missing,
        "delivered_as_their_own_version": received.direct,
        "latency_ms": {
            "p50": round(1000 * percentile(latencies, 50), 1),
            "p95": round(1000 * percentile(latencies, 95), 1),
            "p99": round(1000 * percentile(latencies, 99), 1),
            "max": round(1000 * max(latencies, default=0), 1),
            "mean": round(1000 * statistics.fmean(latencies), 1) if latencies else None,
        },
        "latency_after_answer_ms_p95": round(1000 * percentile(received.after_answer, 95), 1),
        "frames": sum(run.frame_status.values()),
        "frames_per_s": round(sum(run.frame_status.values()) / elapsed, 1),
        "frame_status": dict(run.frame_status),
        "frame_answer_ms": {
            "p50": round(1000 * percentile(run.frame_times, 50), 1),
            "p95": round(1000 * percentile(run.frame_times, 95), 1),
        },
        "stream_errors": dict(run.stream_errors),
    }


def load_parser(description: str, tables: int, event_every: float, changes: str) -> argparse.ArgumentParser:
    """The arguments both load benchmarks take: how many tables, viewers a table, seconds, and how
    often a table's scorer sends (its `changes`, in the help)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tables", type=int, default=tables)
    parser.add_argument("--viewers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--event-every", type=float, default=event_every, help=f"seconds between one table's {changes}")
    parser.add_argument(
        "--hold",
        type=int,
        default=1,
        help="frames a camera sends of each photo before the next (1: never still, nothing read; "
        "5 at a frame every 2 s: a play every 10 s, each read once settled)",
    )
    return parser


def main() -> None:
    parser = load_parser(__doc__.split("\n")[0], tables=50, event_every=2.0, changes="events")
    parser.add_argument(
        "--frame-every", type=float, default=1.0, help="seconds between one table's camera frames (0: none)"
    )
    parser.add_argument(
        "--models", type=Path, help="the reader's models (default: none, every frame answered 'no reader')"
    )
    parser.add_argument("--database-url", help="a PostgreSQL URL instead of a fresh SQLite file")
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="start a throwaway PostgreSQL server for the run (tests/support/postgres.py; needs its binaries)",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes on the one database (more than 1 needs PostgreSQL)"
    )
    parser.add_argument("--threads", type=int, default=320, help="each server's worker threads")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    images = photos(8) if args.frame_every > 0 else []
    postgres = None
    if args.postgres:
        sys.path.insert(0, str(ROOT))
        from tests.support import postgres as throwaway

        if throwaway.binaries() is None:
            raise SystemExit("--postgres: no PostgreSQL server binaries (apt-get install postgresql)")
        postgres = throwaway.Server(throwaway.binaries())
        postgres.start()
        args.database_url = postgres.create_database("load")
    if args.servers > 1 and not args.database_url:
        raise SystemExit("--servers above 1 share one PostgreSQL: give --postgres or --database-url")
    with tempfile.TemporaryDirectory(prefix="spinner-load-") as tmp:
        folders = [Path(tmp) / f"server{k}" for k in range(args.servers)]
        servers = []
        try:
            for folder in folders:
                folder.mkdir()
                servers.append(start_server(args, folder))
            load_before = os.getloadavg()
            result = asyncio.run(main_async(args, [port for _, port in servers], images))
            ticks = os.sysconf("SC_CLK_TCK")
            cpu = []
            for server, _ in servers:
                fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
                cpu.append(round((int(fields[11]) + int(fields[12])) / ticks, 1))  # utime + stime
            result["server_cpu_s"] = round(sum(cpu), 1)
            result["load_average"] = [round(v, 1) for v in (load_before[0], os.getloadavg()[0])]
            result["cpus"] = os.cpu_count()
        finally:
            for server, _ in servers:
                server.terminate()
                server.wait(10)
            for folder in folders:
                log = (folder / "server.log").read_text(errors="replace") if (folder / "server.log").exists() else ""
                if "Traceback" in log:  # keep what went wrong on the server
                    Path("web_load-server.log").write_text(log)
                    print("the server logged errors: see web_load-server.log", file=sys.stderr)
            if postgres is not None:
                postgres.stop()
    result["reader"] = str(args.models) if args.models else "none"
    result["database"] = "postgresql" if args.database_url else "sqlite"
    if args.json:
        print(json.dumps(result, indent=2))
        return
    lat = result["latency_ms"]
    print(
        f"{result['servers']} server process(es), {result['tables']} tables x {result['viewers_per_table']} live viewers, {result['seconds']} s, "
        f"database {result['database']}, reader {result['reader']}"
    )
    print(f"  events      {result['events']} ({result['events_per_s']}/s), refused: {result['event_errors'] or 'none'}")
    print(
        f"  delivered   {result['delivered']} of {result['deliveries_expected']} (viewer x event), missing {result['missing']}; "
        f"{result['delivered_as_their_own_version']} as their own version, the rest in a newer board"
    )
    print(
        f"  latency     p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms, max {lat['max']} ms "
        f"(scorer sends -> viewer has the board)"
    )
    print(
        f"  frames      {result['frames']} ({result['frames_per_s']}/s): {result['frame_status']}; "
        f"answered p50 {result['frame_answer_ms']['p50']} ms, p95 {result['frame_answer_ms']['p95']} ms"
    )
    print(f"  streams     errors: {result['stream_errors'] or 'none'}")
    print(
        f"  machine     {result['cpus']} CPUs, load average {result['load_average'][0]} before, "
        f"{result['load_average'][1]} after; the server used {result['server_cpu_s']} s of CPU"
    )


if __name__ == "__main__":
    main()
