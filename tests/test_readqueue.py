"""The read queue in PostgreSQL (`webapp.readqueue`): newest frame per table first, an older waiting
frame skipped and answered so, one frame of a table read at a time, and a dead worker's frame put
back. Every wait here is on an event (a worker's reader starting, a lease gone), never on a clock.
Skipped where the PostgreSQL server binaries are not installed."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.camera import photo, seen, send
from tests.support.waiting import until
from tests.support.web import Table, app_on_postgresql, new_table

pytestmark = pytest.mark.slow

SPEC = {"source": "camera", "who": "", "width": 64, "height": 48, "ext": "jpg", "hand": 0, "version": 2}


@pytest.fixture
def queued(postgres, tmp_path, script) -> Iterator[Any]:
    """A companion on PostgreSQL that queues its frames for reader workers (SPINNER_READERS=queue)."""
    url = postgres.create_database(f"readqueue_{uuid.uuid4().hex}")  # a port number may come twice
    for app in app_on_postgresql(tmp_path, url, READERS="queue", SPINNER_READER=script, CAMERA_WAIT=30.0):
        yield app
        from webapp import frames

        if "spinner_frames" in app.extensions:
            frames.queue(app).close()


@pytest.fixture
def engine(queued) -> Any:
    from webapp.db import db

    with queued.app_context():
        return db.engine


def two_tables(app) -> tuple[Table, Table]:
    client = app.test_client()
    return new_table(client), new_table(client)


class Lease:
    """A worker's lease on a connection of its own: `end()` closes it, as a worker's death does."""

    def __init__(self, engine, key: int) -> None:
        from webapp.readqueue import jobs

        self.key, self.connection = key, engine.connect()
        jobs.lease(self.connection, key)
        self.connection.commit()

    def end(self) -> None:
        self.connection.invalidate()  # the connection itself closes (not back to the pool, lease and all)


def run(engine, step, *args):
    with engine.begin() as connection:
        return step(connection, *args)


def test_a_newer_frame_skips_the_one_waiting_and_says_so(queued, engine):
    from webapp.readqueue import jobs

    one, two = two_tables(queued)
    first, none = run(engine, jobs.submit, one.id, SPEC, b"first")
    assert none == []
    other, _ = run(engine, jobs.submit, two.id, SPEC, b"other table")
    newest, skipped = run(engine, jobs.submit, one.id, SPEC, b"newest")
    assert skipped == [jobs.Answer(first, "skipped", None, jobs.SKIPPED)]
    with engine.connect() as connection:
        assert jobs.answer_of(connection, first) == jobs.Answer(first, "skipped", None, jobs.SKIPPED)
        assert jobs.counts(connection) == {"skipped": 1, "waiting": 2}
    # the oldest waiting table first; of the first table, its newest frame, not the skipped one
    Lease(engine, 1)
    taken = [run(engine, jobs.claim, 1), run(engine, jobs.claim, 1), run(engine, jobs.claim, 1)]
    assert [(c.id, c.data) for c in taken if c is not None] == [(other, b"other table"), (newest, b"newest")]
    assert taken[2] is None


def test_a_kept_photo_skipped_for_a_newer_frame_says_so_in_its_row(queued, engine):
    from webapp.db import db
    from webapp.models import Frame
    from webapp.readqueue import jobs

    one, _ = two_tables(queued)
    with queued.app_context():
        frame = Frame(game_id=one.id, status="queued", source="photo", path="")
        db.session.add(frame)
        db.session.commit()
        photo_id = frame.id
    job, _ = run(engine, jobs.submit, one.id, {}, None, photo_id)
    _, skipped = run(engine, jobs.submit, one.id, SPEC, b"newer")
    assert skipped == [jobs.Answer(job, "skipped", photo_id, jobs.SKIPPED)]
    with queued.app_context():
        assert (db.session.get(Frame, photo_id).status, db.session.get(Frame, photo_id).message) == (
            "skipped",
            jobs.SKIPPED,
        )


def test_one_frame_of_a_table_is_read_at_a_time(queued, engine):
    from webapp.readqueue import jobs

    one, _ = two_tables(queued)
    Lease(engine, 1), Lease(engine, 2)
    first, _ = run(engine, jobs.submit, one.id, SPEC, b"first")
    assert run(engine, jobs.claim, 1).id == first
    second, skipped = run(engine, jobs.submit, one.id, SPEC, b"second")
    assert skipped == []  # the frame being read is not skipped: it is being read
    assert run(engine, jobs.claim, 2) is None  # its table is being read by worker 1
    assert run(engine, jobs.finish, jobs.Answer(first, "done", None), 1)
    assert run(engine, jobs.claim, 2).id == second


def test_a_dead_workers_frame_goes_back_to_the_queue(queued, engine):
    from webapp.readqueue import jobs

    one, _ = two_tables(queued)
    dying, living = Lease(engine, 11), Lease(engine, 12)
    job, _ = run(engine, jobs.submit, one.id, SPEC, b"the frame")
    assert run(engine, jobs.claim, dying.key).id == job
    assert run(engine, jobs.reap) == [] and run(engine, jobs.claim, living.key) is None  # its worker lives
    dying.end()  # the worker's process dies: its connection closes, its lease goes

    def taken_again():
        run(engine, jobs.reap)
        return run(engine, jobs.claim, living.key)

    again = until(taken_again, "the dead worker's frame to be claimed again")
    assert (again.id, again.data) == (job, b"the frame")
    assert not run(engine, jobs.finish, jobs.Answer(job, "done", None), dying.key)  # too late for the dead
    assert run(engine, jobs.finish, jobs.Answer(job, "done", None), living.key)


def test_a_dead_workers_frame_is_skipped_if_a_newer_one_came(queued, engine):
    from webapp.readqueue import jobs

    one, _ = two_tables(queued)
    dying, living = Lease(engine, 21), Lease(engine, 22)
    old, _ = run(engine, jobs.submit, one.id, SPEC, b"old")
    assert run(engine, jobs.claim, dying.key).id == old
    new, _ = run(engine, jobs.submit, one.id, SPEC, b"new")
    dying.end()
    skipped = until(lambda: run(engine, jobs.reap), "the dead worker's frame to be reaped")
    assert skipped == [jobs.Answer(old, "skipped", None, jobs.SKIPPED)]
    assert run(engine, jobs.claim, living.key).id == new


def test_answers_are_parsed_strictly():
    from webapp.readqueue.jobs import Answer

    answer = Answer(3, "done", 7, "nothing new")
    assert Answer.parse(answer.payload()) == answer
    for bad in ("", "3 done", "[]", '{"job": "3", "state": "done"}', '{"job": 3, "state": "eaten"}'):
        assert Answer.parse(bad) is None
    assert Answer.parse('{"job": 3, "state": "done", "frame": 1.5}') is None
    assert Answer.parse('{"job": 3, "state": "reading"}') is None  # not an answer: still being read


# -- the worker and the web process together, in this process ------------------------------------------


@pytest.fixture
def worker(queued) -> Iterator[Any]:
    """A reader worker in a thread, reading with the test's scripted reader."""
    from webapp.readqueue.worker import Worker

    found = Worker(queued)
    found.start()
    thread = threading.Thread(target=found.run, daemon=True)
    thread.start()
    yield found
    found.stop()
    thread.join(30)


def test_a_photo_is_read_by_a_worker_and_answered(queued, worker, script):
    t = new_table(queued.test_client())
    t.app = queued
    script.readings.append(seen("6-6"))
    frame = send(t, photo(), "?seat=0")
    assert frame.status_code == 201, frame.get_json()
    assert frame.get_json()["status"] == "recorded"
    assert t.record()["hands"][0]["events"][0]["tile"] == "6-6"
    script.readings.append(seen("6-6"))  # the live camera sees the table as it is
    live = send(t, photo(), "?source=camera").get_json()
    assert live["status"] == "nothing" and live["id"] is not None, live["message"]


class Dies:
    """A reader that stops inside its read until told, then fails: a worker dying mid-read."""

    def __init__(self) -> None:
        self.started, self.gate = threading.Event(), threading.Event()

    def __call__(self, variant: str) -> Dies:
        return self

    def read(self, image, name: str = ""):
        self.started.set()
        self.gate.wait(60)  # a bound for a test that forgot its gate, not a pace
        raise RuntimeError("this worker died")


def test_a_frame_a_worker_died_reading_is_read_by_another_once(queued, script):
    from webapp.db import db
    from webapp.models import Frame
    from webapp.readers import Readers
    from webapp.readqueue.worker import Worker

    t = new_table(queued.test_client())
    t.app = queued
    dies = Dies()
    dying, living = Worker(queued, Readers(dies)), Worker(queued, Readers(script))
    dying.start(), living.start()
    try:
        answer = send(t, photo(), "?source=camera&wait=0").get_json()
        assert answer["status"] == "queued"
        reading = threading.Thread(target=dying.step, daemon=True)
        reading.start()
        assert dies.started.wait(60), "the first worker never started reading"
        assert not living.step()  # the frame is being read, by a worker that lives
        dying.close()  # ... until it dies
        until(living.step, "the other worker to read the frame")
        dies.gate.set()
        reading.join(60)
        with queued.app_context():
            rows = db.session.query(Frame).filter_by(game_id=t.id).all()
            assert [row.status for row in rows] == ["nothing"]  # read once, kept once
            db.session.remove()
    finally:
        dies.gate.set()
        for w in (dying, living):
            w.stop()
            w.close()


def test_a_worker_without_models_answers_no_reader(queued, tmp_path):
    from webapp.readers import Readers, default_factory
    from webapp.readqueue.worker import Worker

    t = new_table(queued.test_client())
    t.app = queued
    worker = Worker(queued, Readers(default_factory(tmp_path / "no-models", None, processes=0)))
    worker.start()
    answers: list[Any] = []
    try:
        # a live frame's request waits for the worker's answer: no row kept, and "no-reader" said
        asking = threading.Thread(target=lambda: answers.append(send(t, photo(), "?source=camera")))
        asking.start()
        until(worker.step, "the worker to take the live frame")
        asking.join(60)
        assert answers[0].status_code == 201
        assert answers[0].get_json()["status"] == "no-reader" and answers[0].get_json()["id"] is None
        assert "model is missing" in answers[0].get_json()["message"]
        kept = send(t, photo(), "?wait=0").get_json()  # a photo is kept at once and answered by its row
        assert worker.step()
        frame = t.get(f"/frames/{kept['id']}").get_json()
        assert frame["status"] == "no-reader" and "model is missing" in frame["message"]
    finally:
        worker.stop()
        worker.close()
