"""The read queue's table and statements (PostgreSQL): submit, claim, finish, reap.

Each function runs its statements on the connection or session it is given; the caller commits
(a notification is sent when it does, and only if it does). Semantics:

- **newest first**: `submit` marks the table's frame still waiting "skipped" (answered as such,
  never dropped silently) before queueing the new one, so a table never has more than one frame
  waiting. Submits of one table are serialized by a transaction-scoped advisory lock.
- **one frame of a table at a time**: `claim` takes the oldest waiting frame of a table that no
  worker is reading (`FOR UPDATE SKIP LOCKED`: workers never wait on each other).
- **no frame lost to a crash**: a claimed frame carries its worker's lease key; `reap` finds the
  frames whose worker holds its lease no more (its connection closed: the process died, or its
  machine went away) and queues them again, or skips them where a newer frame of the table came.
  A worker alive but stuck for longer than `stale_s` loses its frame the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from ..frames import SKIPPED

#: wakes the workers: a frame was queued
JOBS = "spinner_read_jobs"
#: wakes the web process waiting for a frame: a job was settled (payload: `Answer.payload`)
ANSWERS = "spinner_read_answers"
#: the first key of the two-key advisory locks that serialize one table's submits
TABLE_LOCKS = 38_001
#: what a job ends as
SETTLED = ("done", "skipped", "no-reader", "failed")

Executor = Connection | Session


@dataclass(frozen=True, slots=True)
class Answer:
    """What became of a job: settled (`state` in SETTLED), or still waiting or being read."""

    job: int
    state: str
    frame_id: int | None = None
    message: str = ""

    @property
    def settled(self) -> bool:
        return self.state in SETTLED

    def payload(self) -> str:
        # a notification's payload is at most 8000 bytes: the message is cut well short of it
        return json.dumps(
            {"job": self.job, "state": self.state, "frame": self.frame_id, "message": self.message[:2000]}
        )

    @classmethod
    def parse(cls, payload: str) -> Answer | None:
        """The answer a notification carries; None for anything else (never trusted blindly)."""
        try:
            said = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(said, dict):
            return None
        job, state, frame, message = said.get("job"), said.get("state"), said.get("frame"), said.get("message", "")
        if type(job) is not int or state not in SETTLED or not isinstance(message, str):
            return None
        if frame is not None and type(frame) is not int:
            return None
        return cls(job, state, frame, message)


@dataclass(frozen=True, slots=True)
class Claimed:
    """A job a worker took: the photo's row (`frame_id`), or the live frame and its row to be."""

    id: int
    game_id: str
    frame_id: int | None
    data: bytes | None
    spec: dict[str, Any]


def notify(executor: Executor, channel: str, payload: str = "") -> None:
    executor.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": channel, "payload": payload})


def _answered(executor: Executor, answers: list[Answer]) -> None:
    for answer in answers:
        notify(executor, ANSWERS, answer.payload())


def _skip_frames(executor: Executor, frame_ids: list[int]) -> None:
    """A photo skipped for a newer frame is kept, and says so."""
    if frame_ids:
        executor.execute(
            text("UPDATE frames SET status = 'skipped', message = :message WHERE id = ANY(:ids) AND status = 'queued'"),
            {"message": SKIPPED, "ids": frame_ids},
        )


def submit(
    executor: Executor, game_id: str, spec: dict[str, Any], data: bytes | None = None, frame_id: int | None = None
) -> tuple[int, list[Answer]]:
    """Queue a frame of `game_id`'s table: (the new job's id, the jobs it skipped)."""
    executor.execute(
        text("SELECT pg_advisory_xact_lock(:locks, hashtext(:game))"), {"locks": TABLE_LOCKS, "game": game_id}
    )
    rows = executor.execute(
        text(
            "UPDATE read_jobs SET state = 'skipped', data = NULL, message = :message, finished_at = now() "
            "WHERE game_id = :game AND state = 'waiting' RETURNING id, frame_id"
        ),
        {"game": game_id, "message": SKIPPED},
    ).all()
    skipped = [Answer(int(row.id), "skipped", row.frame_id, SKIPPED) for row in rows]
    _skip_frames(executor, [row.frame_id for row in rows if row.frame_id is not None])
    job = executor.execute(
        text(
            "INSERT INTO read_jobs (game_id, frame_id, state, data, spec, message, created_at) "
            "VALUES (:game, :frame, 'waiting', :data, :spec, '', now()) RETURNING id"
        ),
        {"game": game_id, "frame": frame_id, "data": data, "spec": json.dumps(spec)},
    ).scalar_one()
    notify(executor, JOBS)
    _answered(executor, skipped)
    return int(job), skipped


def claim(executor: Executor, worker: int) -> Claimed | None:
    """The oldest waiting frame of a table no worker is reading, now the worker's; None if none."""
    row = executor.execute(
        text(
            "UPDATE read_jobs SET state = 'reading', worker = :worker, claimed_at = now() WHERE id = ("
            " SELECT j.id FROM read_jobs j WHERE j.state = 'waiting'"
            " AND NOT EXISTS (SELECT 1 FROM read_jobs r WHERE r.game_id = j.game_id AND r.state = 'reading')"
            " ORDER BY j.id LIMIT 1 FOR UPDATE SKIP LOCKED"
            ") RETURNING id, game_id, frame_id, data, spec"
        ),
        {"worker": worker},
    ).first()
    if row is None:
        return None
    spec = row.spec if isinstance(row.spec, dict) else json.loads(row.spec)
    return Claimed(int(row.id), row.game_id, row.frame_id, bytes(row.data) if row.data is not None else None, spec)


def record_frame(executor: Executor, job: int, frame_id: int) -> None:
    """The live frame's row is written: a read again after a crash finds it, not a second row."""
    executor.execute(text("UPDATE read_jobs SET frame_id = :frame WHERE id = :job"), {"frame": frame_id, "job": job})


def finish(executor: Executor, answer: Answer, worker: int) -> bool:
    """Settle a job the worker read; False if it is the worker's no more (reaped: read elsewhere)."""
    if not answer.settled:
        raise ValueError(f"a job is finished as one of {', '.join(SETTLED)}, not {answer.state!r}")
    done = executor.execute(
        text(
            "UPDATE read_jobs SET state = :state, frame_id = COALESCE(:frame, frame_id), message = :message, "
            "data = NULL, worker = NULL, finished_at = now() "
            "WHERE id = :job AND state = 'reading' AND worker = :worker RETURNING frame_id"
        ),
        {
            "state": answer.state,
            "frame": answer.frame_id,
            "message": answer.message,
            "job": answer.job,
            "worker": worker,
        },
    ).first()
    if done is None:
        return False
    _answered(executor, [Answer(answer.job, answer.state, done.frame_id, answer.message)])
    return True


def lease(executor: Executor, worker: int) -> None:
    """Take the worker's lease: held by the connection `executor` for as long as it is open."""
    executor.execute(text("SELECT pg_advisory_lock(:worker)"), {"worker": worker})


def reap(executor: Executor, stale_s: float | None = None) -> list[Answer]:
    """Put back the frames whose worker's lease is gone (or older than `stale_s`): waiting again,
    or skipped where a newer frame of the table was queued meanwhile. The ones it skipped."""
    dead = executor.execute(
        text(
            "SELECT j.id, j.game_id, j.worker FROM read_jobs j WHERE j.state = 'reading' AND ("
            " NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted"
            "  AND ((l.classid::bigint << 32) | l.objid::bigint) = j.worker)"
            " OR (CAST(:stale AS float8) IS NOT NULL AND j.claimed_at < now() - make_interval(secs => :stale)))"
        ),
        {"stale": stale_s},
    ).all()
    skipped: list[Answer] = []
    requeued = False
    for job in dead:
        executor.execute(
            text("SELECT pg_advisory_xact_lock(:locks, hashtext(:game))"), {"locks": TABLE_LOCKS, "game": job.game_id}
        )
        row = executor.execute(
            text(
                "UPDATE read_jobs j SET worker = NULL, claimed_at = NULL, state = CASE WHEN EXISTS ("
                " SELECT 1 FROM read_jobs n WHERE n.game_id = j.game_id AND n.id > j.id) THEN 'skipped' ELSE 'waiting' END"
                " WHERE j.id = :job AND j.state = 'reading' AND j.worker = :worker RETURNING j.state, j.frame_id"
            ),
            {"job": job.id, "worker": job.worker},
        ).first()
        if row is None:
            continue
        if row.state == "skipped":
            executor.execute(
                text("UPDATE read_jobs SET data = NULL, message = :message, finished_at = now() WHERE id = :job"),
                {"message": SKIPPED, "job": job.id},
            )
            _skip_frames(executor, [row.frame_id] if row.frame_id is not None else [])
            skipped.append(Answer(int(job.id), "skipped", row.frame_id, SKIPPED))
        else:
            requeued = True
    if requeued:
        notify(executor, JOBS)
    _answered(executor, skipped)
    return skipped


def answer_of(executor: Executor, job: int) -> Answer | None:
    row = executor.execute(text("SELECT state, frame_id, message FROM read_jobs WHERE id = :job"), {"job": job}).first()
    return Answer(job, row.state, row.frame_id, row.message) if row is not None else None


def counts(executor: Executor) -> dict[str, int]:
    """How many jobs are in each state."""
    rows = executor.execute(text("SELECT state, count(*) AS n FROM read_jobs GROUP BY state")).all()
    return {row.state: int(row.n) for row in rows}


def prune(executor: Executor, keep_s: float) -> int:
    """Forget settled jobs older than `keep_s` seconds (their frames' rows stay); how many."""
    done = executor.execute(
        text(
            "DELETE FROM read_jobs WHERE state IN ('done', 'skipped', 'no-reader', 'failed') "
            "AND finished_at < now() - make_interval(secs => :keep)"
        ),
        {"keep": keep_s},
    )
    return int(getattr(done, "rowcount", 0) or 0)
