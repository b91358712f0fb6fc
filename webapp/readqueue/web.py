"""The web process's side of the read queue: a frame goes into PostgreSQL, its answer comes back.

`RemoteQueue` stands where `webapp.frames.Queue` stands in a server that reads for itself, with the
same `submit(job)`: the job is queued (`jobs.submit`) and its request waits on `job.done`. A reader
worker's answer arrives as a notification (`jobs.ANSWERS`), heard by one listening connection per
process, and fills the job in (`frame_id`, `skipped`, `unreadable`) as the in-process queue does.
Should the notification not come, the job's row is looked at when the wait ends, and every half
second while the listening connection is down: an answer is never missed, only heard later.
"""

from __future__ import annotations

import logging
import threading
import time

from flask import Flask

from .. import fanout
from ..db import db
from ..frames import Job
from . import jobs

log = logging.getLogger(__name__)

#: seconds between looks at a waited job's row while this process's listening connection is down
LOOK_EVERY = 0.5


class Awaited(threading.Event):
    """A queued job's `done`: set by the answer's notification; a wait that ends without one
    looks at the job's row before it says no."""

    def __init__(self, queue: RemoteQueue, job: Job) -> None:
        super().__init__()
        self.queue, self.job = queue, job
        self.id: int | None = None

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self.queue.listener.listening.is_set():  # no notification can come: look now and then
                left = LOOK_EVERY if left is None else min(left, LOOK_EVERY)
            if super().wait(left):
                return True
            if self.id is not None:
                self.queue.look(self.id)
            if self.is_set():
                return True
            if deadline is not None and time.monotonic() >= deadline:
                if self.id is not None:  # its request answers "queued" now: a later answer is for nobody
                    self.queue.forget(self.id)
                return False


class RemoteQueue:
    """Frames queued for the reader workers, and the requests waiting for their answers."""

    #: nothing is read here: `webapp.frames.unavailable` leaves "no reader" to the workers
    readers: None = None

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.lock = threading.Lock()
        #: job id -> the job a request of this process waits on
        self.waiting: dict[int, Job] = {}
        self.listener = fanout.Listener(app.config["SQLALCHEMY_DATABASE_URI"], jobs.ANSWERS, self.heard)
        self.listener.start()

    def close(self) -> None:
        self.listener.stop()

    def submit(self, job: Job) -> None:
        done = job.done = Awaited(self, job)
        spec = dict(job.spec)
        with self.app.app_context():
            with db.engine.begin() as connection:
                # a photo's row and file are kept already (its job carries only the row's id);
                # a live frame travels in the queue until a worker takes it
                data = job.data if job.frame_id is None else None
                job_id, skipped = jobs.submit(connection, job.game_id, spec, data, job.frame_id)
                done.id = job_id
                with self.lock:  # before the commit: the answer cannot come earlier
                    self.waiting[job_id] = job
        # the photo is in the queue now, not needed here: a request that does not wait (?wait=0)
        # leaves its job registered until the answer (or a newer frame's skip) comes
        job.data = None
        for answer in skipped:
            self.settle(answer)

    def heard(self, payload: str) -> None:
        answer = jobs.Answer.parse(payload)
        if answer is None:
            log.warning("a read answer that says nothing: %.80r", payload)
            return
        self.settle(answer)

    def look(self, job_id: int) -> None:
        """The job's row, looked at (its notification did not come in time)."""
        with self.app.app_context():
            with db.engine.connect() as connection:
                answer = jobs.answer_of(connection, job_id)
        if answer is not None and answer.settled:
            self.settle(answer)

    def settle(self, answer: jobs.Answer) -> None:
        with self.lock:
            job = self.waiting.pop(answer.job, None)
        if job is None:  # another process's frame, or one whose request gave up waiting
            return
        fill(job, answer)
        job.done.set()

    def forget(self, job_id: int) -> None:
        with self.lock:
            self.waiting.pop(job_id, None)


def fill(job: Job, answer: jobs.Answer) -> None:
    """Give the job what the worker's answer says, as the in-process queue would have."""
    if answer.frame_id is not None:
        job.frame_id = answer.frame_id
    job.skipped = answer.state == "skipped"
    if answer.frame_id is None and answer.state in ("no-reader", "failed"):
        job.unreadable = answer.message or "the reader workers could not read this frame: score this play on the pad"
