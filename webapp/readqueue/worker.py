"""A reader worker: takes frames from the queue, reads them, and acts on them as the server would.

One worker reads one frame at a time (run more workers for more at once: one per core, or one
on a GPU machine). Each turn of its loop puts back the frames of dead workers (`jobs.reap`),
claims the next frame, and reads it with `webapp.frames.process`, the same code the web process
runs when it reads for itself: the proposal, the play recorded through the store (and so the
change announced to every web process's viewers), the question for the scorer. A live camera's
frame gets its row and its file (under SPINNER_PHOTO_DIR) only now that it is read.

The live camera's motion guard (`webapp.table_changes`) keeps its state in memory in the process
that reads: with several workers, a table's frames may be read by different ones, and each then
knows only part of the table's changes (as a restarted server knows none); docs/deploy.md says so.
"""

from __future__ import annotations

import logging
import secrets
import threading
from pathlib import Path
from typing import Any

from flask import Flask

from .. import camera, fanout, frames, store
from ..db import db
from ..models import Frame
from ..readers import Readers, Unavailable, default_factory
from . import jobs

log = logging.getLogger(__name__)

#: seconds an idle worker waits for a notification before it looks at the queue anyway
IDLE_S = 5.0
#: settled jobs are forgotten after this long (their frames' rows and files stay)
KEEP_S = 24 * 3600.0


class Worker:
    """The queue's consumer in this process: `run()` until `stop()`, or `step()` one job at a time."""

    def __init__(self, app: Flask, readers: Readers | None = None) -> None:
        self.app = app
        self.readers = readers or Readers(
            app.config.get("SPINNER_READER")
            or default_factory(Path(app.config["SPINNER_MODELS"]), app.config.get("READER_THREADS"), processes=0)
        )
        #: the lease's key: random, so two workers never share one
        self.key = secrets.randbits(62) + 1
        self.stale_s: float | None = app.config.get("READ_LEASE_S")
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.lease_connection: Any = None
        self.listener = fanout.Listener(app.config["SQLALCHEMY_DATABASE_URI"], jobs.JOBS, self._heard)

    def _heard(self, payload: str) -> None:
        self.wake.set()

    def start(self) -> None:
        """Take the lease and listen for new frames (ready once `self.listener.listening` is set)."""
        self._take_lease()
        self.listener.start()

    def _take_lease(self) -> None:
        self.close()
        with self.app.app_context():
            self.lease_connection = db.engine.connect()
        jobs.lease(self.lease_connection, self.key)
        self.lease_connection.commit()  # the lock is the session's: it outlives the transaction

    def stop(self) -> None:
        """Stop after the frame being read (if any) is settled, and let the lease go."""
        self.stopping.set()
        self.wake.set()
        self.listener.stop()

    def close(self) -> None:
        if self.lease_connection is not None:
            try:  # the connection itself: back in the pool, it would hold the lease for ever
                self.lease_connection.invalidate()
            except Exception:  # a connection that is gone already has no lease to let go
                pass
            self.lease_connection = None

    def run(self) -> None:
        idle = 0
        while not self.stopping.is_set():
            self.wake.clear()
            if self.step():
                idle = 0
                continue
            idle += 1
            if idle == 1:
                self._prune()
            self.wake.wait(IDLE_S)
        self.close()

    def step(self) -> bool:
        """Put back dead workers' frames, then read one frame: whether there was one."""
        with self.app.app_context():
            with db.engine.begin() as connection:
                jobs.reap(connection, self.stale_s)
            with db.engine.begin() as connection:
                claimed = jobs.claim(connection, self.key)
        if claimed is None:
            return False
        answer = self.read(claimed)
        with self.app.app_context():
            with db.engine.begin() as connection:
                finished = jobs.finish(connection, answer, self.key)
        if not finished:  # the lease's connection dropped (or the read outlasted READ_LEASE_S)
            log.warning("frame job %s was put back while it was read here: taking the lease again", claimed.id)
            self._take_lease()
        return True

    def read(self, claimed: jobs.Claimed) -> jobs.Answer:
        """Read the claimed frame and act on it; the answer to settle its job with."""
        frame_id = claimed.frame_id
        with self.app.app_context():
            try:
                game = store.get_game(claimed.game_id)
                look = None
                if frame_id is None:  # a live frame, kept only now that a reader takes it
                    try:
                        self.readers.get(game.variant)
                    except Unavailable as error:
                        return jobs.Answer(claimed.id, "no-reader", None, str(error))
                    job = frames.Job(claimed.game_id, claimed.data, claimed.spec)
                    frame_id = frames.keep(
                        job, also=lambda frame: jobs.record_frame(db.session(), claimed.id, frame.id)
                    ).id
                    if claimed.spec.get("source") == "camera" and claimed.data:
                        width, height = int(claimed.spec.get("width") or 0), int(claimed.spec.get("height") or 0)
                        thumb = camera.thumbnail_of(claimed.data, width)
                        table = frames.tables(self.app).get(claimed.game_id, store.snapshot(game).record)
                        look = table.see(thumb, (width, height), claimed.spec.get("still"))
                frames.process(self.readers, frame_id, claimed.data, look)
                status = db.session.get(Frame, frame_id)
                state = "no-reader" if status is not None and status.status == "no-reader" else "done"
                return jobs.Answer(claimed.id, state, frame_id, status.message if status is not None else "")
            except Exception as error:  # one bad frame must not stop the worker
                log.exception("reading frame job %s failed", claimed.id)
                db.session.rollback()
                return jobs.Answer(claimed.id, "failed", frame_id, _failed(frame_id, error))
            finally:
                db.session.remove()

    def _prune(self) -> None:
        try:
            with self.app.app_context():
                with db.engine.begin() as connection:
                    jobs.prune(connection, KEEP_S)
        except Exception:  # housekeeping: never the reason a worker stops
            log.exception("forgetting old read jobs failed")


def _failed(frame_id: int | None, error: Exception) -> str:
    """Mark the frame's row unreadable (if it was still waiting); the message."""
    message = "the reader failed on this photo: score this play on the pad"
    if frame_id is not None:
        frame = db.session.get(Frame, frame_id)
        if frame is not None and frame.status == "queued":
            frame.status, frame.message = "unreadable", message
            db.session.commit()
    return message
