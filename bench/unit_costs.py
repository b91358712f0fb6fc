"""The per-unit costs behind docs/scale.md, each measured alone on a throwaway PostgreSQL.

    .venv/bin/python bench/unit_costs.py [--changes 300] [--notes 5000] [--reads 20] [--jobs 500] [--json]

- a change: one event posted through the app (Flask test client, no HTTP), one after another:
  its wall time, this process's CPU (the app, its test client and its listening thread), its SQL
  statements and their time as the app sees them, and PostgreSQL's own CPU;
- a notification: `pg_notify` sent --notes times, each in its own transaction, and heard by one
  listening connection (`webapp.fanout.Listener`): how many a second one process takes in;
- a frame's read on this CPU (`vision.read.reader.Reader`, one onnxruntime thread, 1280x960
  synthetic table photos) and the read queue's own cost per frame (submit, claim, finish).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scale_load import postgres_cpu_s  # noqa: E402
from web_load import HAND, PLAYERS  # noqa: E402


def changes(app: Any, data: Path, count: int) -> dict[str, Any]:
    from sqlalchemy import event

    from webapp.db import db

    client = app.test_client()
    statements: list[float] = []
    started_at: dict[int, float] = {}
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "before_cursor_execute")
    def before(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        started_at[id(cursor)] = time.perf_counter()

    @event.listens_for(engine, "after_cursor_execute")
    def after(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        statements.append(time.perf_counter() - started_at.pop(id(cursor), time.perf_counter()))

    walls: list[float] = []
    cpu_before = postgres_cpu_s(data)
    app_cpu_before = time.process_time()
    counted_before = len(statements)
    for step in range(count):
        if step % (5 * (len(HAND) + 1)) == 0:  # a new match every five hands, before one is won
            created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()
            auth = {"Authorization": f"Bearer {created['token']}"}
        position = step % (len(HAND) + 1)
        if position == 0:
            path, body = f"/api/games/{created['id']}/hands", {}
        else:
            body = dict(HAND[position - 1])
            body["seat"] = (body["seat"] + step // (len(HAND) + 1)) % 4
            path = f"/api/games/{created['id']}/events"
        began = time.perf_counter()
        answer = client.post(path, json=body, headers=auth)
        walls.append(time.perf_counter() - began)
        assert answer.status_code in (200, 201), answer.get_json()
    app_cpu = time.process_time() - app_cpu_before
    sql = statements[counted_before:]
    pg_cpu = postgres_cpu_s(data) - cpu_before
    return {
        "changes": count,
        "wall_ms_mean": round(1000 * statistics.fmean(walls), 2),
        "wall_ms_p95": round(1000 * sorted(walls)[int(0.95 * (len(walls) - 1))], 2),
        "app_cpu_ms_per_change": round(1000 * app_cpu / count, 2),
        "statements_per_change": round(len(sql) / count, 1),
        "sql_ms_per_change": round(1000 * sum(sql) / count, 2),
        "postgresql_cpu_ms_per_change": round(1000 * pg_cpu / count, 2),
    }


def notifications(url: str, count: int) -> dict[str, Any]:
    import psycopg

    from webapp import fanout

    heard = threading.Event()
    got = [0]

    def handle(payload: str) -> None:
        got[0] += 1
        if got[0] >= count:
            heard.set()

    listener = fanout.Listener(url, "bench_notes", handle)
    listener.start()
    assert listener.listening.wait(30)
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        began = time.perf_counter()
        for k in range(count):
            connection.execute("SELECT pg_notify('bench_notes', %s)", (f"game{k % 500} {k}",))
        sent = time.perf_counter() - began
        assert heard.wait(120), f"heard {got[0]} of {count}"
        done = time.perf_counter() - began
    listener.stop()
    return {
        "notes": count,
        "sent_per_s": round(count / sent),
        "heard_per_s": round(count / done),
        "ms_per_note_sent": round(1000 * sent / count, 3),
    }


def reads(count: int) -> dict[str, Any]:
    import cv2
    import numpy as np

    from vision.read.models import models_dir
    from vision.synth.dataset import make_sample
    from webapp.readers import default_factory

    reader = default_factory(models_dir(), 1, processes=0)("partners")
    images = [
        cv2.imdecode(np.frombuffer(make_sample(7, i, 1280, 960).jpeg, np.uint8), cv2.IMREAD_COLOR) for i in range(4)
    ]
    reader.read(images[0], "warm-up")
    took = []
    for k in range(count):
        began = time.process_time()
        reader.read(images[k % len(images)], f"frame {k}")
        took.append(time.process_time() - began)
    return {
        "reads": count,
        "cpu_ms_mean": round(1000 * statistics.fmean(took), 1),
        "cpu_ms_p95": round(1000 * sorted(took)[int(0.95 * (len(took) - 1))], 1),
    }


def queue_overhead(app: Any, count: int) -> dict[str, Any]:
    from webapp.db import db
    from webapp.readqueue import jobs

    client = app.test_client()
    games = [
        client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()["id"] for _ in range(10)
    ]
    payload = b"x" * 150_000  # a live frame's JPEG, about
    with app.app_context():
        engine = db.engine
    with engine.connect() as lease:
        jobs.lease(lease, 7)
        lease.commit()
        began = time.perf_counter()
        for k in range(count):
            with engine.begin() as connection:
                job, _ = jobs.submit(connection, games[k % len(games)], {"source": "camera"}, payload)
            with engine.begin() as connection:
                jobs.reap(connection)
            with engine.begin() as connection:
                claimed = jobs.claim(connection, 7)
            with engine.begin() as connection:
                assert claimed is not None and jobs.finish(connection, jobs.Answer(claimed.id, "done", None), 7)
        took = time.perf_counter() - began
        lease.invalidate()
    return {"frames": count, "ms_per_frame": round(1000 * took / count, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from tests.support import postgres as throwaway
    from webapp import create_app, fanout

    if throwaway.binaries() is None:
        raise SystemExit("no PostgreSQL server binaries (apt-get install postgresql)")
    database = throwaway.Server(throwaway.binaries())
    database.start()
    try:
        url = database.create_database("costs")
        with tempfile.TemporaryDirectory(prefix="spinner-costs-") as tmp:
            app = create_app({"SPINNER_DATA": tmp, "DATABASE_URL": url, "TESTING": True})
            result = {
                "change": changes(app, database.data, args.changes),
                "notification": notifications(app.config["SQLALCHEMY_DATABASE_URI"], args.notes),
                "queue": queue_overhead(app, args.jobs),
                "read": reads(args.reads),
            }
            fanout.stop_all()
    finally:
        database.stop()
    if args.json:
        print(json.dumps(result, indent=2))
        return
    c, n, q, r = result["change"], result["notification"], result["queue"], result["read"]
    print(
        f"a change     {c['wall_ms_mean']} ms in the app (p95 {c['wall_ms_p95']}; {c['app_cpu_ms_per_change']} ms of its "
        f"CPU), {c['statements_per_change']} SQL "
        f"statements taking {c['sql_ms_per_change']} ms, PostgreSQL CPU {c['postgresql_cpu_ms_per_change']} ms"
    )
    print(
        f"notification {n['heard_per_s']}/s heard by one listening process ({n['sent_per_s']}/s sent, "
        f"{n['ms_per_note_sent']} ms each)"
    )
    print(f"read queue   {q['ms_per_frame']} ms per frame (submit, reap, claim, finish; one after another)")
    print(f"a read       {r['cpu_ms_mean']} ms of CPU (p95 {r['cpu_ms_p95']}), 1280x960, one thread")


if __name__ == "__main__":
    main()
