"""Load on a deployment past one laptop: PostgreSQL, N web processes, M reader workers (docs/deploy.md).

    .venv/bin/python bench/scale_load.py [--tables 500] [--viewers 4] [--seconds 60] [--event-every 1]
        [--camera-tables 50] [--frame-every 2] [--servers 3] [--workers 1] [--models DIR] [--by-match] [--hold 1] [--json]

It starts a throwaway PostgreSQL (tests/support/postgres.py), `--servers` `spinner serve` processes
with SPINNER_READERS=queue and one shared SPINNER_PHOTO_DIR, and `--workers` `spinner reader-worker`s
(reading with the bundled models, or --models). It makes the matches, and then, for --seconds:
- each table's scorer posts one change every --event-every seconds through the process of its table,
  as the pad does;
- each table's --viewers phones hold the live stream open on the other processes (every board a
  viewer sees crossed processes through LISTEN/NOTIFY), or with --by-match on the scorer's own
  process (what a proxy that routes by match does: one drawing of each board);
- --camera-tables of the tables send a 1280x960 live-camera frame every --frame-every seconds
  (`?source=camera`, waiting for the answer as the page does) through a third process (with
  --by-match, the table's own).
The clients are `bench/web_load.py`'s (asyncio, one thread, in this process). Reported: a change's
latency (scorer sends -> answered), viewer delivery (scorer sends -> a viewer has the board), every
viewer every version, the frames answered, skipped, still queued when answered and lost (the read
queue's ledger once drained), the CPU seconds and resident memory of every process.
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from web_load import (  # noqa: E402
    Client,
    Run,
    camera,
    create_games,
    deliveries,
    load_parser,
    open_streams,
    percentile,
    photos,
    scorers,
    spread,
)

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int, children: bool = False) -> float:
    """A process's CPU seconds (user + system), with its reaped children's where asked."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    used = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if children else 0)
    return used / TICKS


def rss_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak (MB)."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return round(int(status["VmRSS"].split()[0]) / 1024, 1), round(int(status["VmHWM"].split()[0]) / 1024, 1)


def postgres_pids(data: Path) -> tuple[int, list[int]]:
    """The postmaster and its children (backends, and PostgreSQL's own workers)."""
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    children = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(int(p.name)) == postmaster]
    return postmaster, children


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def postgres_cpu_s(data: Path) -> float:
    postmaster, children = postgres_pids(data)
    total = cpu_s(postmaster, children=True)
    for pid in children:
        try:
            total += cpu_s(pid)
        except OSError:  # a backend that ended meanwhile is counted in the postmaster's children
            pass
    return total


def postgres_rss_mb(data: Path) -> float:
    """PostgreSQL's resident memory, all its processes (shared buffers counted once per process)."""
    postmaster, children = postgres_pids(data)
    total = 0.0
    for pid in [postmaster, *children]:
        try:
            total += rss_mb(pid)[0]
        except OSError:
            pass
    return round(total, 1)


def start(args: list[str], env: dict[str, str], log: Path, ready: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "spinner.cli", *args],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=open(log, "w"),
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if ready in line:
            return process
    raise SystemExit(f"{' '.join(args[:1])} did not start: {log.read_text()[-2000:]}")


def answering(port: int) -> None:
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the server on port {port} did not answer")


def ledger(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as connection:
        return dict(connection.execute("SELECT state, count(*) FROM read_jobs GROUP BY state").fetchall())


async def load(args: argparse.Namespace, ports: list[int], images: list[bytes]) -> tuple[Run, dict[str, Any]]:
    clients = [Client("127.0.0.1", port) for port in ports]
    run = Run()
    run.change_times: list[float] = []  # type: ignore[misc]
    games = await create_games(clients, args.tables)

    def server_of(t: int, offset: int = 0) -> Client:
        return clients[(t + offset) % len(clients)]

    def viewer_server(t: int, v: int) -> Client:
        # --by-match: the proxy sends every request of a match to one process (docs/deploy.md)
        return server_of(t) if args.by_match else server_of(t, 1 + v % max(1, len(clients) - 1))

    watching = await open_streams(run, games, args.viewers, viewer_server, within=600)
    await asyncio.sleep(1.0)
    started = time.perf_counter()
    ends = started + args.seconds
    tasks = scorers(run, games, server_of, args.event_every, ends)
    tasks += [
        camera(
            server_of(t, 0 if args.by_match else 2),
            run,
            game,
            token,
            images,
            args.frame_every,
            ends,
            spread(t, args.frame_every, args.tables),
            args.hold,
        )
        for t, (game, token) in enumerate(games[: args.camera_tables])
    ]
    await asyncio.gather(*tasks)
    await asyncio.sleep(3)  # the last changes reach the viewers
    run.stop = True
    for task in watching:
        task.cancel()
    return run, {"elapsed": time.perf_counter() - started}


def report(args: argparse.Namespace, run: Run) -> dict[str, Any]:
    received = deliveries(run, args.viewers)
    changes = [run.answered[k] - run.sent[k] for k in run.sent]
    expected = len(run.sent) * args.viewers

    def ms(values: list[float]) -> dict[str, float]:
        return {
            "p50": round(1000 * percentile(values, 50), 1),
            "p95": round(1000 * percentile(values, 95), 1),
            "p99": round(1000 * percentile(values, 99), 1),
            "max": round(1000 * max(values, default=0), 1),
            "mean": round(1000 * statistics.fmean(values), 1) if values else float("nan"),
        }

    return {
        "changes": len(run.sent),
        "changes_per_s": round(len(run.sent) / args.seconds, 1),
        "change_errors": dict(run.event_errors),
        "change_ms": ms(changes),
        "delivery_ms": ms(received.after_sending),
        "deliveries_expected": expected,
        "delivered": expected - received.missing,
        "missing": received.missing,
        "delivered_as_their_own_version": received.direct,
        "stream_errors": dict(run.stream_errors),
        "frames_posted": sum(run.frame_status.values()),
        "frame_answers": dict(run.frame_status),
        "frame_answer_ms": ms(run.frame_times),
    }


def main() -> None:
    parser = load_parser(__doc__.split("\n")[0], tables=500, event_every=1.0, changes="changes")
    parser.add_argument("--camera-tables", type=int, default=50, help="tables whose live camera sends frames")
    parser.add_argument("--frame-every", type=float, default=2.0, help="seconds between one camera's frames")
    parser.add_argument("--servers", type=int, default=3, help="web processes")
    parser.add_argument("--workers", type=int, default=1, help="reader workers")
    parser.add_argument("--models", type=Path, help="the workers' models (default: the bundled ones)")
    parser.add_argument("--threads", type=int, help="each web process's threads (default: its streams + 64)")
    parser.add_argument(
        "--by-match",
        action="store_true",
        help="a table's viewers and camera on its scorer's process, as a proxy routing by match sends them",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from tests.support import postgres as throwaway
    from vision.read.models import models_dir

    if throwaway.binaries() is None:
        raise SystemExit("no PostgreSQL server binaries (apt-get install postgresql)")
    streams = args.tables * args.viewers
    threads = args.threads or (streams // max(1, args.servers - 1) + 64 if args.servers > 1 else streams + 64)
    images = photos(8) if args.camera_tables else []
    database = throwaway.Server(throwaway.binaries())
    database.start()
    processes: dict[str, subprocess.Popen[str]] = {}
    try:
        url = database.create_database("scale")
        with tempfile.TemporaryDirectory(prefix="spinner-scale-") as tmp:
            env = {
                **os.environ,
                "PYTHONPATH": str(ROOT),
                "DATABASE_URL": url,
                "SPINNER_READERS": "queue",
                "SPINNER_PHOTO_DIR": str(Path(tmp) / "photos"),
                "SPINNER_SECRET_KEY": "the bench's",
                "SPINNER_MODELS": str(args.models or models_dir()),
                "SPINNER_READER_THREADS": "1",
            }
            ports = []
            for k in range(args.servers):
                import socket

                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", 0))
                    port = sock.getsockname()[1]
                processes[f"web{k}"] = start(
                    ["serve", "--host", "127.0.0.1", "--port", str(port), "--threads", str(threads), "--no-qr"],
                    {**env, "SPINNER_DATA": str(Path(tmp) / f"web{k}")},
                    Path(tmp) / f"web{k}.log",
                    "open http",
                )
                answering(port)
                ports.append(port)
            for k in range(args.workers):
                processes[f"worker{k}"] = start(
                    ["reader-worker"],
                    {**env, "SPINNER_DATA": str(Path(tmp) / f"worker{k}")},
                    Path(tmp) / f"worker{k}.log",
                    "Reading photos",
                )
            cpu_before = {name: cpu_s(p.pid) for name, p in processes.items()}
            cpu_before["postgresql"] = postgres_cpu_s(database.data)
            load_before = os.getloadavg()[0]
            run, timing = asyncio.run(load(args, ports, images))
            cpu = {name: round(cpu_s(p.pid) - cpu_before[name], 1) for name, p in processes.items()}
            cpu["postgresql"] = round(postgres_cpu_s(database.data) - cpu_before["postgresql"], 1)
            rss = {name: rss_mb(p.pid) for name, p in processes.items()}
            rss["postgresql"] = (postgres_rss_mb(database.data), float("nan"))
            # the queue drains: every frame posted is a job, read or skipped (none lost)
            drained = ledger(url)
            for _ in range(600):
                if not drained.get("waiting") and not drained.get("reading"):
                    break
                time.sleep(0.1)
                drained = ledger(url)
            result = report(args, run)
            refused = sum(n for status, n in run.frame_status.items() if status.startswith("HTTP"))
            result.update(
                {
                    "tables": args.tables,
                    "viewers_per_table": args.viewers,
                    "streams": streams,
                    "seconds": args.seconds,
                    "servers": args.servers,
                    "workers": args.workers,
                    "threads_per_server": threads,
                    "camera_tables": args.camera_tables,
                    "queue_ledger": drained,
                    # a frame is lost if its job never settles, or if it was answered as taken (2xx)
                    # and no job holds it; a refusal (503: send it again) is an answer, not a loss
                    "frames_refused": refused,
                    "frames_lost": drained.get("waiting", 0)
                    + drained.get("reading", 0)
                    + max(0, result["frames_posted"] - refused - sum(drained.values())),
                    "cpu_s": cpu,
                    "rss_mb_now_peak": rss,
                    "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
                    "cpus": os.cpu_count(),
                }
            )
            for name in processes:
                log = (Path(tmp) / f"{name}.log").read_text(errors="replace")
                if "Traceback" in log:
                    Path(f"scale_load-{name}.log").write_text(log)
                    print(f"{name} logged errors: see scale_load-{name}.log", file=sys.stderr)
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
        database.stop()
    if args.json:
        print(json.dumps(result, indent=2))
        return
    c, d = result["change_ms"], result["delivery_ms"]
    print(
        f"PostgreSQL + {args.servers} web + {args.workers} reader worker(s); {args.tables} tables x {args.viewers} "
        f"viewers ({streams} streams), a change every {args.event_every} s per table, a frame every "
        f"{args.frame_every} s from {args.camera_tables} tables, {args.seconds} s"
    )
    print(f"  changes   {result['changes']} ({result['changes_per_s']}/s), refused {result['change_errors'] or 'none'}")
    print(f"  change    p50 {c['p50']} ms, p95 {c['p95']} ms, p99 {c['p99']} ms (scorer sends -> answered)")
    print(f"  delivery  p50 {d['p50']} ms, p95 {d['p95']} ms, p99 {d['p99']} ms (scorer sends -> viewer has it)")
    print(
        f"  viewers   {result['delivered']} of {result['deliveries_expected']} delivered, missing {result['missing']}, "
        f"{result['delivered_as_their_own_version']} as their own version; stream errors {result['stream_errors'] or 'none'}"
    )
    print(
        f"  frames    {result['frames_posted']} posted, answered {result['frame_answers']}; queue once drained "
        f"{result['queue_ledger']}, refused {result['frames_refused']}, lost {result['frames_lost']}"
    )
    print(f"  cpu s     {result['cpu_s']}")
    print(f"  rss MB    {result['rss_mb_now_peak']} (now, peak)")
    print(
        f"  machine   {result['cpus']} CPUs, load {result['load_average'][0]} before, {result['load_average'][1]} after"
    )


if __name__ == "__main__":
    main()
