"""Frames: photos kept under SPINNER_DATA, read one table at a time, newest first.

An upload is checked (`camera.decode`), written to `frames/<match>/<id>.<ext>` and queued.
Reader threads take the newest frame of each table: a camera sending faster than the reader
reads never builds a backlog, because a frame still waiting when a newer one of the same table
arrives is skipped (its file dropped, unless a player took it on purpose). A read frame becomes
the follower's answer (`vision.follow.table.Table`, one per match, the same follower as
`spinner watch`): a play is recorded at once through the store, like any play from the pad
(source "camera"); a question waits for the scorer's tap (`answer`), its candidates as choices.

A live camera's frame is looked at by the motion test as it arrives (`Table.see`), and the
follower decides only on a table that has settled after a change: a frame caught while an arm lays
the tile or a hand crosses the table is only a look. A photo someone took on purpose is a
deliberate look of its own and is decided at once.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from scorer.errors import RecordError
from scorer.match import Match
from scorer.tiles import Tile
from vision.follow.follower import Outcome, with_pass
from vision.follow.seats import SIDES
from vision.follow.table import Look, Table, Tables, reading_of
from vision.read.reading import Reading

from . import camera, camera_words, imagesize, store, wording
from .db import db
from .errors import ApiError, record_error
from .models import Frame, Game
from .readers import Readers, Unavailable, default_factory

if TYPE_CHECKING:
    import numpy as np

    from .readqueue.web import RemoteQueue

log = logging.getLogger(__name__)

#: What a frame's first bytes say it is, for keeping it as it came and serving it back.
KINDS = (
    (b"\xff\xd8\xff", "jpg", "image/jpeg"),
    (b"\x89PNG", "png", "image/png"),
    (b"GIF8", "gif", "image/gif"),
    (b"BM", "bmp", "image/bmp"),
)
MIMETYPES = {"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif", "bmp": "image/bmp", "webp": "image/webp"}
#: Statuses of a frame whose plays are kept with their seat open (`run_proposal`): "kept" (its
#: plays followed, not recorded) and "confirm" with code "passes_unsure" (the question held).
RUN = ("kept", "confirm")
#: Statuses after which nothing more happens to a frame by itself.
SETTLED = {
    "recorded",
    "accepted",
    "rejected",
    "superseded",
    "nothing",
    "looking",
    "over",
    "skipped",
    "no-reader",
    "unreadable",
}


def kind_of(data: bytes) -> str | None:
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return next((ext for magic, ext, _ in KINDS if data.startswith(magic)), None)


def folder(app: Flask) -> Path:
    return Path(app.config["SPINNER_PHOTOS"])


def file_of(frame: Frame) -> Path | None:
    return folder(current_app) / frame.path if frame.path else None


def table_of(game_id: str) -> wording.Table:
    """The names at the match's table, for the camera's words."""
    return wording.Table([str(p) for p in store.get_game(game_id).players or []])


def say(frame: Frame, table: wording.Table | None = None) -> str:
    """What the camera box says of the frame, in players' words and the page's language
    (`webapp.camera_words`); `message` keeps the follower's precise English."""
    return camera_words.frame_say(
        frame.status, frame.message, frame.proposal, frame.source, table or table_of(frame.game_id)
    )


def to_json(frame: Frame, *, reading: bool = True, table: wording.Table | None = None) -> dict[str, Any]:
    from flask import url_for

    out: dict[str, Any] = {
        "id": frame.id,
        "hand": frame.hand,
        "event": frame.event,
        # what became of the event it made: corrected since, or taken back (then `event` is null)
        "link": frame.link,
        "version": frame.version,
        "source": frame.source,
        "status": frame.status,
        "message": frame.message,
        "say": say(frame, table),
        "proposal": frame.proposal,
        "who": frame.who,
        "width": frame.width,
        "height": frame.height,
        "at": frame.at.isoformat() if frame.at else None,
        "image": url_for("frames.image", game_id=frame.game_id, frame_id=frame.id) if frame.path else None,
    }
    if reading:
        out["reading"] = frame.reading
    return out


# -- the queue ---------------------------------------------------------------------------------

SKIPPED = "a newer frame of this table came before this one was read"


@dataclass
class Job:
    """One upload on its way to the reader.

    A photo has its row and file at once (`frame_id`). A live camera's frame is only kept in
    memory until a reader takes it (`spec` is its row to be): most frames of a busy room are
    skipped for newer ones, and those cost neither a row nor a file.
    """

    game_id: str
    #: the photo; None for a frame taken back up after a restart (read from its file)
    data: bytes | None
    spec: dict[str, Any]
    frame_id: int | None = None
    #: a live camera's frame: what the motion test saw when it arrived (`Table.see`)
    look: Look | None = None
    skipped: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    #: why a reader worker could not read it, where no row was kept (`webapp.readqueue`)
    unreadable: str | None = None


class Queue:
    """The newest waiting frame per table, and the threads that read them."""

    def __init__(self, app: Flask, threads: int) -> None:
        self.app = app
        self.threads = threads
        #: game -> the newest job of that table not read yet
        self.waiting: OrderedDict[str, Job] = OrderedDict()
        self.lock = threading.Condition()
        self.started = False
        self.readers = Readers(
            app.config.get("SPINNER_READER")
            or default_factory(
                Path(app.config["SPINNER_MODELS"]),
                app.config.get("READER_THREADS"),
                int(app.config["READER_PROCESSES"]),
            )
        )

    def submit(self, job: Job) -> None:
        with self.lock:
            if not self.started:
                for i in range(self.threads):
                    threading.Thread(target=self._work, name=f"spinner-reader-{i}", daemon=True).start()
                self.started = True
            old = self.waiting.pop(job.game_id, None)
            self.waiting[job.game_id] = job
            self.lock.notify()
        if old is not None:
            self._skip(old)

    def _skip(self, job: Job) -> None:
        job.skipped = True
        if job.frame_id is not None:
            with self.app.app_context():
                frame = db.session.get(Frame, job.frame_id)
                if frame is not None and frame.status == "queued":
                    frame.status, frame.message = "skipped", SKIPPED
                    db.session.commit()
                db.session.remove()
        job.done.set()

    def _work(self) -> None:
        while True:
            with self.lock:
                while not self.waiting:
                    self.lock.wait()
                _, job = self.waiting.popitem(last=False)
            try:
                with self.app.app_context():
                    frame_id = job.frame_id if job.frame_id is not None else keep(job).id
                    process(self.readers, frame_id, job.data, job.look)
                    db.session.remove()
            except ApiError as refused:  # the match was deleted while its frame waited: nothing to read
                log.info("frame of match %s not read: %s", job.game_id, refused.message)
            except Exception:  # one bad frame must not stop the reader
                log.exception("reading frame %s failed", job.frame_id)
                with self.app.app_context():
                    frame = db.session.get(Frame, job.frame_id) if job.frame_id is not None else None
                    if frame is not None and frame.status == "queued":
                        frame.status, frame.message = (
                            "unreadable",
                            "the reader failed on this photo: score this play on the pad",
                        )
                        db.session.commit()
                    db.session.remove()
            finally:
                job.done.set()


def requeue(app: Flask) -> list[Job]:
    """Queue again the frames a previous run of the server answered "queued" and never read (it
    was stopped or killed first): their rows and files are kept, so each is read from its file.
    Call it once at start, before serving. As for any frame, the newest of a table is read and the
    older ones waiting with it are skipped (their photos stay kept)."""
    with app.app_context():
        waiting = list(
            db.session.execute(select(Frame.id, Frame.game_id).where(Frame.status == "queued").order_by(Frame.id))
        )
        db.session.remove()
    jobs = [Job(game_id, None, {}, frame_id=frame_id) for frame_id, game_id in waiting]
    for job in jobs:
        queue(app).submit(job)
    return jobs


def unavailable(app: Flask, variant: str) -> str | None:
    """Why this server cannot read photos of this variant now, or None when it can."""
    readers = queue(app).readers
    if readers is None:  # read by the reader workers, which answer "no-reader" themselves
        return None
    try:
        readers.get(variant)
    except Unavailable as error:
        return str(error)
    return None


_QUEUE_LOCK = threading.Lock()


def tables(app: Flask) -> Tables:
    """The app's followers, one per match (`vision.follow.table`)."""
    found = app.extensions.get("spinner_tables")
    if found is None:
        with _QUEUE_LOCK:
            found = app.extensions.setdefault("spinner_tables", Tables())
    return found


def queue(app: Flask) -> Queue | RemoteQueue:
    """The app's one queue (and so one set of readers and reader processes), made on first use:
    `Queue`, or with SPINNER_READERS=queue the reader workers' (`webapp.readqueue.web.RemoteQueue`)."""
    found = app.extensions.get("spinner_frames")
    if found is None:
        with _QUEUE_LOCK:  # two first photos at once must not make two queues
            found = app.extensions.get("spinner_frames")
            if found is None and app.config.get("READERS") == "queue":
                from .readqueue.web import RemoteQueue

                found = app.extensions["spinner_frames"] = RemoteQueue(app)
            elif found is None:
                found = app.extensions["spinner_frames"] = Queue(app, int(app.config["READER_WORKERS"]))
    return found


def _drop_file(frame: Frame) -> None:
    if frame.source == "camera" and frame.path:  # a live camera's frame that led nowhere: not kept
        path = folder(current_app) / frame.path
        path.unlink(missing_ok=True)
        frame.path = ""


# -- taking and reading a frame ------------------------------------------------------------------


def intake(
    game_id: str,
    data: bytes,
    *,
    source: str,
    who: str,
    seat: int | None,
    unreadable: str | None = None,
    still: bool | None = None,
) -> Job:
    """Check an upload and make its job. A photo is kept at once (answered "no-reader" at once
    where the server cannot read); a live camera's frame only when a reader takes it, so never
    where there is none (the page stops its live camera on that answer). Nothing is kept for a
    bad upload. `still`: the live camera saw the table still as it took the frame (`Table.see`)."""
    imagesize.check(data)  # the header's size, before a decoder allocates what it claims
    if kind_of(data) is None:  # decodable but not a web format: a HEIC kept as a JPEG, a TIFF a PNG
        data, _ = imagesize.decodable(camera.web_copy, data)
    width, height = imagesize.decodable(camera.check, data)
    ext = kind_of(data)
    snap = store.snapshot(store.get_game(game_id))
    spec = {
        "hand": max(0, len(snap.record["hands"]) - 1) if snap.record["hands"] else None,
        "version": snap.version,
        "source": source,
        "who": who,
        "width": width,
        "height": height,
        "ext": ext,
        "proposal": {"seat": seat} if seat is not None else None,
    }
    if still is not None:  # for a reader worker's motion test (`webapp.readqueue.worker`)
        spec["still"] = still
    job = Job(game_id, data, spec)
    if source == "camera":  # kept once a reader takes it; never, where there is no reader
        table = tables(current_app).get(game_id, snap.record)
        job.look = table.see(camera.thumbnail_of(data, width), (width, height), still)
        return job
    keep(job, "no-reader", unreadable) if unreadable else keep(job)
    return job


def keep(job: Job, status: str = "queued", message: str = "", also: Callable[[Frame], None] | None = None) -> Frame:
    """Write the job's row and its file; `also(frame)` runs in the same transaction."""
    spec = {k: v for k, v in job.spec.items() if k not in ("ext", "still")}
    frame = Frame(game_id=job.game_id, status=status, message=message, **spec)
    path: Path | None = None
    try:
        db.session.add(frame)
        db.session.flush()
        relative = f"{job.game_id}/{frame.id}.{job.spec['ext']}"
        path = folder(current_app) / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(job.data or b"")
        except OSError as error:
            db.session.rollback()
            raise ApiError(
                507, f"the photo could not be kept on this server ({error.strerror}): nothing was recorded"
            ) from None
        frame.path = relative
        if also is not None:
            also(frame)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        if path is not None:  # written for a row that never was: the match's delete cannot find it
            path.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                path.parent.rmdir()  # the match's folder, if this photo was all it held
        if db.session.get(Game, job.game_id) is not None:
            raise
        raise ApiError(404, f"no match {job.game_id!r} on this server: it was deleted as the photo arrived") from None
    job.frame_id = frame.id
    return frame


def process(readers: Readers, frame_id: int, data: bytes | None, look: Look | None = None) -> None:
    frame = db.session.get(Frame, frame_id)
    if frame is None or frame.status != "queued":
        return
    game = store.get_game(frame.game_id)
    if look is not None:  # a live frame of a moving table, or of one not changed, is not worth reading
        unread = tables(current_app).get(frame.game_id, store.snapshot(game).record).without_reading(look)
        if unread is not None:
            _settle(frame, "nothing", unread.reason, unread.code, unread.params)
            return
    try:
        reader = readers.get(game.variant)
    except Unavailable as error:
        frame.status, frame.message = "no-reader", str(error)
        db.session.commit()
        return
    path = file_of(frame)
    if data is None and path is not None and path.is_file():
        data = path.read_bytes()
    name = f"frame {frame.id}"
    try:
        # the frame's pixels go to the follower with its reading: a back gone from the boneyard is
        # a draw only where the table shows at its place, not under a cup or a hand. A photo taken on
        # purpose takes no back: the reader in its own process sends them back for a live frame alone
        if hasattr(reader, "read_bytes"):  # the reader in its own process decodes the photo there
            read = reader.read_bytes(data or b"", name, pixels=look is not None)
            frame.reading, frame.width, frame.height = read["reading"], int(read["width"]), int(read["height"])
            decide(frame, look, read.get("object"), read.get("pixels"))
            return
        if hasattr(reader, "read_upright"):  # the reader here: upright, a large JPEG decoded at reduced size
            reading, image = reader.read_upright(data or b"", name)
            size = (int(reading.width), int(reading.height))
        else:  # a reader of decoded images (a stand-in of the tests, the truth of a filmed game)
            image = camera.decode(data or b"", name)
            reading = reader.read(image, name)
            size = (int(image.shape[1]), int(image.shape[0]))
    except ValueError as error:  # vision.read.reader.ReadError
        frame.status, frame.message = "unreadable", f"{error}: score this play on the pad"
        db.session.commit()
        return
    except ApiError as error:  # camera.decode's
        frame.status, frame.message = "unreadable", f"{error.message}: score this play on the pad"
        db.session.commit()
        return
    frame.width, frame.height = size
    frame.reading = reading.to_json() if hasattr(reading, "to_json") else reading
    decide(frame, look, reading if isinstance(reading, Reading) else None, image)


def decide(
    frame: Frame, look: Look | None = None, reading: Reading | None = None, image: np.ndarray | None = None
) -> None:
    """What the match's follower makes of the frame's reading (`vision.follow.table`): a play is
    recorded through the store (source "camera"), a question waits for a tap, and the rest is
    "nothing" (or "over"). `look`: a live camera's frame as the motion test saw it when it arrived;
    None for a photo taken on purpose. `reading`: the reader's own `Reading`, where it gave one
    (else it is made again from the frame's JSON). `image`: the frame's pixels as read, where known
    (`Table.frame`: a back gone from the boneyard is a draw only where the table shows there)."""
    game_id = frame.game_id
    seat = (frame.proposal or {}).get("seat")
    snap = store.snapshot(store.get_game(game_id))
    if frame.source == "camera" and store.opens_counts(snap):
        # the live camera does not see every draw: the hand it follows keeps its tile counts open
        # (`unseen_draws`, as `spinner watch` does), so no count ends it that a draw could change
        try:
            store.counts_open(
                game_id, None, who="camera", why=f"frame {frame.id}: the camera follows the hand", source="camera"
            )
            snap = store.snapshot(store.get_game(game_id))
        except ApiError:  # refused (a guard): followed as it stands
            db.session.rollback()
    frame.version = snap.version
    frame.hand = len(snap.record["hands"]) - 1 if snap.record["hands"] else None
    hand = snap.match.current if snap.match is not None else None
    if hand is None:
        _settle(frame, "nothing", "no hand has started: start one, then take the photo", "no_hand")
        return
    seen = reading if reading is not None else reading_of(frame.reading or {}, frame.width or 0, frame.height or 0)
    table = tables(current_app).get(game_id, snap.record)
    with table.lock:
        table.sync(snap.record)
        _drop_kept(game_id, table)
        outcome = table.frame(seen, look if frame.source == "camera" else None, seat, image)
        proposal = proposal_of(
            outcome, frame.source == "camera", table.follower.leader_known, len(snap.record.get("players") or [])
        )
        run = table.follower.open_run()
        kept: list[dict[str, Any]] = []
        if outcome.kind == "play" and run is not None:
            # plays whose seat is open are followed, not recorded: one question for all of them
            split = next((k for k, w in enumerate(outcome.where) if w >= run), len(outcome.events))
            kept = outcome.events[split:]
            outcome.events, outcome.where = outcome.events[:split], outcome.where[:split]
            proposal = {**run_proposal(table), "status": "kept", "kept": kept}
            if table.follower.hand.over:  # over as followed: asked now, before the next photo is taken
                proposal["status"] = "confirm"
        if outcome.code == "passes_unsure":
            proposal = run_proposal(table)
        if outcome.kind == "nothing" and not seen.tiles and frame.source != "camera":
            proposal["message"] = (
                "the reader found no tile in this photo: hold the phone over the whole layout, "
                "or score this play on the pad"
            )
            proposal["code"], proposal["params"] = "no_tile_read", {}
        frame.proposal, frame.status, frame.message = proposal, proposal["status"], proposal["message"]
        if outcome.kind == "ask":
            table.asked = frame.id
        if outcome.kind != "play" or not outcome.events:
            if frame.status in ("nothing", "over"):
                _drop_file(frame)
            db.session.commit()
            return
        frame_id, version, done = frame.id, snap.version, None
        db.session.commit()
        try:
            for event in outcome.events:
                done = store.append_event(
                    game_id, event, version, who="camera", why=f"frame {frame_id}", source="camera", made_by=(frame_id,)
                )
                version = done.version
        except ApiError as error:
            # a phone scored first, or the scorer refused: the follower starts again from the record
            table.sync(store.snapshot(store.get_game(game_id)).record)
            refused = db.session.get(Frame, frame_id)
            assert refused is not None
            refused.status, refused.message = "nothing", f"the camera's play was not recorded: {error.message}"
            why = {k: error.extra[k] for k in ("code", "params") if k in error.extra}
            refused.proposal = {
                **proposal,
                "status": "nothing",
                "sure": False,
                "message": refused.message,
                "code": "not_recorded",
                "params": {"error": error.message}
                | ({"rule": why["code"], "rule_params": why.get("params") or {}} if why.get("code") else {}),
            }
            _drop_file(refused)
            db.session.commit()
            return
        recorded = db.session.get(Frame, frame_id)
        assert done is not None and recorded is not None
        recorded.version = done.version  # its event linked as it was recorded (`made_by`)
        if not kept:
            recorded.status = "recorded"
        db.session.commit()


def run_proposal(table: Table) -> dict[str, Any]:
    """The one question for the plays the table's follower keeps with their seat open: did anyone
    pass from the first of them on? `events` holds them as followed (each the turn seat's)."""
    question = table.follower.run_question()
    assert question is not None
    plays = list(question.params["plays"])
    return {
        "status": "confirm",
        "sure": False,
        "events": plays,
        "choices": [],
        "new": [],
        "reason": question.reason,
        "code": question.code,
        "params": question.params,
        "message": f"the camera asks: {question.reason}",
    }


def _run_frames(game_id: str) -> list[Frame]:
    """The frames of the plays kept to confirm and of their question."""
    found = db.session.scalars(select(Frame).where(Frame.game_id == game_id, Frame.status.in_(RUN)))
    return [f for f in found if f.status == "kept" or (f.proposal or {}).get("code") == "passes_unsure"]


def _drop_kept(game_id: str, table: Table) -> None:
    """The record changed under plays kept to confirm (a play scored on the pad, an undo): the
    table is followed from the record, and their frames say so."""
    if not table.dropped:
        return
    table.dropped = False
    _mark_dropped(game_id)


def _mark_dropped(game_id: str) -> None:
    message = "the plays kept to confirm were dropped (the record changed): score them on the pad"
    for frame in _run_frames(game_id):
        frame.status, frame.message = "rejected", message
        frame.proposal = {**(frame.proposal or {}), "status": "rejected", "code": "kept_dropped", "params": {}}
    db.session.commit()


def _settle(frame: Frame, status: str, message: str, code: str = "", params: dict[str, Any] | None = None) -> None:
    frame.status, frame.message = status, message
    frame.proposal = {
        "status": status,
        "message": message,
        "sure": False,
        "events": [],
        "choices": [],
        "new": [],
        "code": code,
        "params": params or {},
    }
    if status in SETTLED:
        _drop_file(frame)
    db.session.commit()


def proposal_of(outcome: Outcome, live: bool, leader_known: bool = True, players: int = 0) -> dict[str, Any]:
    """The follower's answer as the page shows it: a play ("sure", recorded), a question
    ("confirm": its best candidate proposed, the other ends that tile fits as `choices`, every
    candidate under `candidates`), or "nothing" / "over" with the follower's reason. A lead whose
    player the record does not say is proposed without a seat: the scorer chooses it. A question
    of who laid the tile (code "who_played": passes no photo shows) also lists the seats that may
    have, likeliest first, as `seats`: one tap on a seat records that seat's play; so does a lead
    whose player is not known (each of the `players` seats), and a question about the tile whose
    proposed play no evidence gives a seat (a pass was possible and no arm was seen:
    `Candidate.seats`): its play is proposed without a seat, never the turn seat's as if known.
    Several new tiles in more than one legal order propose no play: `plays` lists the plays that
    may have come first, one tap each (none where a first play's seat is open too: the pad)."""
    new = [{"tile": str(t.tile), "confidence": round(t.confidence, 3)} for t in outcome.new_tiles]
    out: dict[str, Any] = {
        "sure": False,
        "events": [],
        "choices": [],
        "new": new,
        "reason": outcome.reason,
        # the reason's code and params: the page words them for players (`webapp.camera_words`)
        "code": outcome.code,
        "params": outcome.params,
    }
    if outcome.kind == "play":
        said = "; ".join(store.words(e) for e in outcome.events)
        return {**out, "status": "sure", "sure": True, "events": outcome.events, "message": f"the camera saw {said}"}
    if outcome.kind == "ask":
        best = outcome.candidates[0] if outcome.candidates else []
        firsts = outcome.params.get("plays") if outcome.code == "order_unknown" else None
        if isinstance(firsts, list) and not leader_known and any("end" not in e for e in firsts):
            best = []  # leads by a player nobody named: no seat is offered as if known (the pad says who)
        elif best and isinstance(firsts, list) and firsts:
            # several new tiles in more than one legal order: none is proposed as if known; the
            # plays that may have come first are the choices (one tap records one), and the rest
            # of the photo is taken up once it is answered
            return {
                **out,
                "status": "confirm",
                "plays": [dict(e) for e in firsts],
                # who laid the first play is open too: a tap on a play, then on a seat, records it
                **({"seats": list(outcome.params["open_seats"])} if outcome.params.get("open_seats") else {}),
                "candidates": [[c.to_json() for c in s] for s in outcome.candidates[:8]],
                "message": f"the camera asks: {outcome.reason}",
            }
        if not best:
            return {
                **out,
                "status": "confirm",
                "message": f"the camera cannot tell the play: {outcome.reason}; "
                "check the photo, or score this play on the pad",
            }
        event = best[0].event
        open_seats = list(best[0].seats) if outcome.code != "who_played" and best[0].seat_open else []
        lead_open = "end" not in event and not leader_known
        if lead_open or open_seats:
            event = {**event, "seat": None}
        tile = Tile.parse(event["tile"])
        ends = [
            s[0].event["end"]
            for s in outcome.candidates
            if s and "end" in s[0].event and Tile.parse(s[0].event["tile"]) is tile
        ]
        asked = {
            **out,
            "status": "confirm",
            "events": [event],
            "choices": list(dict.fromkeys(ends)),
            "candidates": [[c.to_json() for c in s] for s in outcome.candidates[:8]],
            "message": f"the camera thinks: {store.words(event).strip()}? ({outcome.reason})",
        }
        if outcome.code == "who_played":  # one candidate per seat, in the follower's order
            seats = [s[0].event.get("seat") for s in outcome.candidates if s]
            asked["seats"] = list(dict.fromkeys(s for s in seats if isinstance(s, int)))
        elif open_seats:  # who laid the tile is asked with it: a tap on a seat records the play
            asked["seats"] = open_seats
        elif lead_open and players > 1:
            # who leads is not known: every player may have, each a button of the question itself,
            # in seat order from the follower's stand-in (no photo says who is likelier)
            first = best[0].event.get("seat")
            first = first if isinstance(first, int) and 0 <= first < players else 0
            asked["seats"] = [(first + k) % players for k in range(players)]
        return asked
    if outcome.kind == "over":
        return {**out, "status": "over", "message": outcome.reason}
    # a photo in which no new tile was read says what to do: no "nothing to record" after it
    as_is = live or outcome.code == "no_new_tile_photo"
    message = outcome.reason if as_is else f"{outcome.reason}: nothing to record"
    return {**out, "status": "nothing", "message": message}


def answer(game_id: str, frame_id: int, accept: bool, event: Any, *, who: str, why: str, passes: Any = None) -> Frame:
    """The scorer's tap on a proposal: record its play (as proposed, or corrected), or turn it down.

    Two taps at once (Accept on one phone, Reject on another) take turns with the match's changes;
    between processes a turn-down only lands on a frame still asking, so a recorded play's frame
    never ends up "rejected"."""
    with store.in_turn(game_id):
        frame = get(game_id, frame_id, fresh=True)
        if frame in _run_frames(game_id):
            return _answer_run(game_id, frame, accept, passes, who=who, why=why)
        return _answer(game_id, frame_id, accept, event, who=who, why=why)


def _answer_run(game_id: str, frame: Frame, accept: bool, passes: Any, *, who: str, why: str) -> Frame:
    """The answer to "did anyone pass from 4-5 on?", on the question's frame or any frame of the
    plays it keeps: `passes`, each play laid after a pass and its seat (`[[play, seat], ...]`, plays
    numbered from 0 in the order kept, none: no one passed), records them all; a turn-down drops
    them (the pad scores them)."""
    snap = store.snapshot(store.get_game(game_id))
    table = tables(current_app).get(game_id, snap.record)
    with table.lock:
        table.sync(snap.record)
        _drop_kept(game_id, table)
        frame = get(game_id, frame.id, fresh=True)
        follower = table.follower
        run = _run_frames(game_id)
        if frame not in run:
            raise ApiError(409, f"frame {frame.id} asks nothing now (it is {frame.status}): nothing was recorded")
        # the plays kept: this process's follower's, else (a reader worker's follower keeps them)
        # as the newest of their frames lists them
        here = follower.open_run() is not None
        newest = max(run, key=lambda f: f.id).proposal or {}
        events = follower.run_events() if here else _kept_plays(newest)
        if not events:
            raise ApiError(409, f"frame {frame.id} keeps no play now: nothing was recorded")
        if not accept:
            if here:
                table.rebuild(snap.record)
                table.dropped = False
            message = f"turned down by {who}" + (f": {why}" if why else "")
            for kept in run:
                kept.status, kept.message = "rejected", message
            db.session.commit()
            return get(game_id, frame.id)
        hand = snap.match.current if snap.match is not None else None
        if hand is None:
            raise ApiError(409, "no hand is being played: nothing was recorded")
        marks = _passes(passes)
        for k, (play, seat) in enumerate(marks):
            _check_mark(k, play, seat, marks[k - 1][0] if k else None, events, table_of(game_id))
            try:
                events = with_pass(events, play, seat, hand.next_seat, len(snap.record["players"]))
            except ValueError as error:
                raise ApiError(400, f"passes[{k}]: {error}", mark=k) from None
        record = {**snap.record, "hands": [dict(h) for h in snap.record["hands"]]}
        record["hands"][-1] = {**record["hands"][-1], "events": [*record["hands"][-1]["events"], *events]}
        try:
            Match.from_record(record, open_last=True)  # checked whole before any of it is written
        except RecordError as error:
            # in the players' words too (`say`), as any refusal by the rules: the camera box shows it
            raise store._said(record_error(error, what="these seats"), error, record) from None
        # everything that can fail is done before the first play is written: a refusal after it
        # would leave the plays recorded and the frames still asking
        shown = {kept.id: _laid_tile(kept.proposal) for kept in run}
        version = snap.version
        for event in events:
            # each play linked to the frames that showed it laid, as it is recorded (`made_by`)
            laid = Tile.parse(event["tile"]) if event.get("type") == "play" else None
            made_by = tuple(i for i, tile in shown.items() if laid is not None and tile is laid)
            version = store.append_event(
                game_id, event, version, who=who, why=why or "who played: answered", source="camera", made_by=made_by
            ).version
        table.answered(store.snapshot(store.get_game(game_id)).record)
        plays = [e for e in events if e.get("type") == "play"]
        message = f"confirmed by {who}: " + "; ".join(store.words(e) for e in plays)
        unseen = []  # photos that asked before they were looked at: looked at now
        for kept in _run_frames(game_id):
            if kept.status == "confirm" and "kept" not in (kept.proposal or {}) and kept.source != "camera":
                unseen.append(kept)
            kept.status, kept.message, kept.version = "accepted", message, version
            kept.proposal = {**(kept.proposal or {}), "chosen": plays}
        db.session.commit()
        answered = get(game_id, frame.id)
        for photo in unseen[-1:] if here else []:  # the newest: the table as it is now
            decide(photo)
            if photo.id == frame.id:
                answered = photo
        return answered


def kept_open(game_id: str) -> Frame | None:
    """The newest frame of the plays kept to confirm, where some still wait for "did anyone pass?"
    (this process's follower brought to the record first: a change since drops them)."""
    table = tables(current_app).find(game_id)
    if table is not None:
        snap = store.snapshot(store.get_game(game_id))
        with table.lock:
            table.sync(snap.record)
            _drop_kept(game_id, table)
    run = _run_frames(game_id)
    return max(run, key=lambda f: f.id) if run else None


def refuse_over_kept(game_id: str, change: str | None = None) -> None:
    """A change of the record while plays are kept to confirm would drop them: refused (409,
    `kept_open`), naming the question to answer first. `change`: None for a play, pass or draw
    scored on the pad (recorded against the record's turn, before plays laid first); else what
    would rewrite the record ("undoing the last event", "correcting hand 0, event 2"...)."""
    newest = kept_open(game_id)
    if newest is None:
        return
    plays = [e for e in _kept_plays(newest.proposal or {}) if e.get("type") == "play"]
    count = len(plays) or 1
    first = plays[0].get("tile") if plays else None
    question = f"did anyone pass from {first} on?" if first else "did anyone pass?"
    kept = "1 play is" if count == 1 else f"{count} plays are"
    them = "it" if count == 1 else "them"
    if change is None:
        error = (
            f"{kept} kept to confirm, laid before this: answer the camera's question "
            f"'{question}' first (frame {newest.id}), or turn {them} down; nothing was recorded "
            f'(send "drop_kept": true to record this in their place and drop {them})'
        )
    else:
        error = (
            f"{kept} kept to confirm, laid after the last play recorded: {change} now would drop {them}; "
            f"answer the camera's question '{question}' first (frame {newest.id}), or turn {them} down; "
            f'nothing was changed (send "drop_kept": true to make this change and drop {them})'
        )
    raise ApiError(
        409,
        error,
        code="kept_open",
        asks=to_json(newest, reading=False),
        say=camera_words.kept_open_words(count, rewrite=change is not None),
    )


@contextlib.contextmanager
def over_kept(game_id: str, drop: bool, change: str | None = None) -> Iterator[None]:
    """Around a change of the record (`store`), in the match's turn: while plays are kept to
    confirm it is refused (`refuse_over_kept`), unless `drop` ("drop_kept": true): then it is made
    and they are dropped at once (`drop_kept_now`). Every route that changes a match's record
    takes its turn here, so none drops the camera's kept plays without asking."""
    with store.in_turn(game_id):
        if not drop:
            refuse_over_kept(game_id, change)
        yield
        if drop:
            drop_kept_now(game_id)


def drop_kept_now(game_id: str) -> None:
    """The plays kept to confirm are dropped for an event scored in their place (`drop_kept`):
    their frames say so now, and this process's follower is followed from the record again."""
    table = tables(current_app).find(game_id)
    if table is not None:
        with table.lock:
            table.rebuild(store.snapshot(store.get_game(game_id)).record)
            table.dropped = False
    _mark_dropped(game_id)


def _kept_plays(proposal: dict[str, Any]) -> list[dict[str, Any]]:
    """The plays a run's frame lists (`params.plays`). An archive imported before proposals were
    checked may hold anything there: what is not a list of events is none."""
    params = proposal.get("params")
    plays = params.get("plays") if isinstance(params, dict) else None
    if not isinstance(plays, list) or not all(isinstance(e, dict) for e in plays):
        return []
    return [dict(e) for e in plays]


def _laid_tile(proposal: Any) -> Tile | None:
    """The tile a kept play's frame showed laid first, where its proposal says one it can be."""
    laid = proposal.get("kept") if isinstance(proposal, dict) else None
    first = next((e for e in laid if isinstance(e, dict) and e.get("tile")), None) if isinstance(laid, list) else None
    try:
        return Tile.parse(first["tile"]) if first is not None else None
    except ValueError:
        return None


def _check_mark(
    k: int, play: int, seat: int, before: int | None, events: list[dict[str, Any]], table: wording.Table
) -> None:
    """One [play, seat] of an answer to "did anyone pass?", with the plays as the marks before it
    left them: each play laid after a pass is named once, in the order laid, and by a seat that a
    pass before it makes its player (the turn seat laid it in turn: no one passed). A refusal names
    the mark (`mark`: k), so the page can ask again from the marks before it."""
    if before is not None and play == before:
        raise ApiError(400, f"passes[{k}]: play {play + 1} is named twice: one seat laid it", mark=k)
    if before is not None and play < before:
        raise ApiError(
            400,
            f"passes[{k}]: play {play + 1} comes before play {before + 1}: name the plays in the order laid",
            mark=k,
        )
    plays = [e for e in events if e.get("type") == "play"]
    if 0 <= play < len(plays) and plays[play].get("seat") == seat:
        tile = plays[play].get("tile")
        raise ApiError(
            400,
            f"passes[{k}]: seat {seat} laid play {play + 1} ({tile}) in turn: "
            "no one passed before it; name the seat that laid it after a pass",
            mark=k,
            say=camera_words.laid_in_turn_words(seat, tile, table),
        )


def _passes(value: Any) -> list[tuple[int, int]]:
    """`passes` as sent: a list of [play, seat] pairs of whole numbers."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in value
    ):
        raise ApiError(400, "passes must be a list of [play, seat] pairs of whole numbers (plays from 0)")
    return [(p[0], p[1]) for p in value]


def _answer(game_id: str, frame_id: int, accept: bool, event: Any, *, who: str, why: str) -> Frame:
    settle_passed(game_id)
    frame = get(game_id, frame_id, fresh=True)
    if frame.status == "recorded" and (frame.proposal or {}).get("settled") == "recorded":
        chosen = (frame.proposal or {}).get("chosen")
        said = f" ({store.words(chosen).strip()}, event {frame.event})" if isinstance(chosen, dict) else ""
        raise ApiError(409, f"frame {frame_id}'s play is already recorded{said}: nothing was recorded")
    if frame.status == "superseded":
        raise ApiError(
            409,
            f"frame {frame_id} asks nothing now: the match changed since its question "
            f"(version {frame.version}); score the play on the pad: nothing was recorded",
        )
    if frame.status != "confirm":
        raise ApiError(409, f"frame {frame_id} asks nothing now (it is {frame.status}): nothing was recorded")
    if not accept:
        message = f"turned down by {who}" + (f": {why}" if why else "")
        turned = db.session.execute(
            update(Frame)
            .where(Frame.id == frame_id, Frame.status == "confirm")
            .values(status="rejected", message=message),
            execution_options={"synchronize_session": False},
        )
        if turned.rowcount != 1:  # type: ignore[attr-defined]  # answered in another process meanwhile
            db.session.rollback()
            now = get(game_id, frame_id, fresh=True).status
            raise ApiError(409, f"frame {frame_id} asks nothing now (it is {now}): nothing was turned down")
        db.session.commit()
        frame = get(game_id, frame_id)
        table = tables(current_app).find(game_id)
        if table is not None and table.asked == frame_id:  # the follower's open question
            table.decline()
        return frame
    proposed = (frame.proposal or {}).get("events")  # a list, unless an imported archive said otherwise
    chosen = event if event is not None else (proposed[0] if isinstance(proposed, list) and proposed else None)
    if chosen is None:
        raise ApiError(400, "this proposal has no play to record: send the event to record with it")
    if isinstance(chosen, dict) and chosen.get("type") not in ("play", "pass", "draw"):  # an adjust has no seat
        raise ApiError(
            400,
            f"a photo records a play, a pass or a draw, not an event of type {str(chosen.get('type'))[:20]!r}: "
            "send that event by itself (POST /api/games/ID/events)",
        )
    if isinstance(chosen, dict) and chosen.get("seat") is None:
        raise ApiError(400, "say who played it: the event needs its seat")
    done = store.append_event(
        game_id,
        chosen,
        frame.version,
        who=who,
        why=why or f"frame {frame_id}, confirmed",
        source="camera",
        made_by=(frame_id,),
    )
    table = tables(current_app).find(game_id)
    rest = False
    if table is not None and table.asked == frame_id:  # the follower's open question: settled
        with table.lock:
            table.answered(store.snapshot(store.get_game(game_id)).record)
            # the photo's other new tiles (several laid between two photos): taken up from it now, a
            # live camera's frame as a photo's (its next frames may show a table unchanged since)
            rest = bool(table.follower.leftover) and table.follower.pending is None
    frame = get(game_id, frame_id)
    frame.status, frame.version = "accepted", done.version  # its event linked as it was recorded
    frame.message = f"confirmed by {who}: {store.words(chosen)}"
    # a new dict: the JSON column sees the change (an earlier answer of the same photo is said no more)
    frame.proposal = {**{k: v for k, v in (frame.proposal or {}).items() if k != "answered"}, "chosen": chosen}
    db.session.commit()
    if rest:
        return _take_up_rest(frame, chosen)
    return frame


def _take_up_rest(frame: Frame, answered: dict[str, Any]) -> Frame:
    """A photo whose question about one of several new tiles was just answered: the same photo is
    looked at again for the others (`Follower.leftover`), as a live camera's next frame would be.
    It is recorded from, or asks its next question, like a new photo; its proposal keeps the play
    just answered (`answered`), which the camera box says first."""
    decide(frame)
    frame = get(frame.game_id, frame.id, fresh=True)
    frame.proposal = {**(frame.proposal or {}), "answered": answered}
    if frame.status in ("nothing", "over"):  # nothing more in it: the answer stands as the frame's word
        frame.status, frame.message = "accepted", f"confirmed: {store.words(answered)} ({frame.message})"
        frame.proposal["chosen"] = answered
    db.session.commit()
    return frame


def learnt_seating(game_id: str) -> list[str] | None:
    """Where the camera learnt from the plays that each player sits (the side of the picture each
    seat's arm comes from), where the record says nothing: the page shows it to be confirmed."""
    table = tables(current_app).find(game_id)
    if table is None or table.seating is not None:
        return None
    seating = table.follower.seats.seating
    if seating is None or any(side is None for side in seating.sides):
        return None
    return [SIDES[side] for side in seating.sides if side is not None]


def get(game_id: str, frame_id: int, fresh: bool = False) -> Frame:
    """The match's frame; `fresh`: read again from the database, not from this request's session."""
    frame = db.session.get(Frame, frame_id, populate_existing=fresh)
    if frame is None or frame.game_id != game_id:
        raise ApiError(404, f"no frame {frame_id} in this match")
    return frame


def settle_passed(game_id: str) -> list[Frame]:
    """Questions the record moved past are settled: a frame asks about a play on the version it
    was read on (its answer is recorded on that version), so once the match changed it can never be
    answered. Its play recorded since (on the pad, or answering a newer frame) makes it
    "recorded", with that event; anything else "superseded". The plays kept to confirm are not
    such questions (`_drop_kept` settles them). Answers the frames settled."""
    game = store.get_game(game_id)
    waiting = db.session.scalars(
        select(Frame).where(
            Frame.game_id == game_id,
            Frame.status == "confirm",
            Frame.version.is_not(None),
            Frame.version < game.version,
        )
    )
    passed = [f for f in waiting if (f.proposal or {}).get("code") != "passes_unsure"]
    if not passed:
        return []
    record = store.snapshot(game).record
    for frame in passed:
        proposal = frame.proposal if isinstance(frame.proposal, dict) else {}
        at, event = _recorded_since(record, frame.hand, proposal.get("events"))
        if at is not None and event is not None:
            frame.status, frame.event = "recorded", at
            frame.message = f"recorded meanwhile: {store.words(event)}"
            frame.proposal = {**proposal, "chosen": event, "settled": "recorded"}
        else:
            frame.status = "superseded"
            frame.message = (
                f"the match changed since this question (version {frame.version}): it asks no more; "
                "score this play on the pad"
            )
            frame.proposal = {**proposal, "settled": "superseded"}
    db.session.commit()
    table = tables(current_app).find(game_id)
    if table is not None and table.asked in {f.id for f in passed}:
        table.asked = None  # the follower's question was settled by the record (`Table.sync`)
    if table is not None and any(f.status == "superseded" for f in passed):
        # tiles a question asked about and nothing recorded since: the live camera's next still
        # frame is read, though the table looks as it did, and asks again (never silence)
        with table.lock:
            table.owed = (None, False)
    return passed


def _recorded_since(record: dict[str, Any], hand: int | None, proposed: Any) -> tuple[int | None, Any]:
    """Where the frame's proposed tile was played in its hand of the record, and the event."""
    first = next((e for e in proposed if isinstance(e, dict)), None) if isinstance(proposed, list) else None
    hands = record.get("hands") or []
    if first is None or not isinstance(first.get("tile"), str) or hand is None or not 0 <= hand < len(hands):
        return None, None
    try:
        tile = Tile.parse(first["tile"])
    except ValueError:
        return None, None
    for k, event in enumerate(hands[hand].get("events") or []):
        if event.get("type") == "play" and isinstance(event.get("tile"), str):
            try:
                if Tile.parse(event["tile"]) is tile:
                    return k, event
            except ValueError:
                continue
    return None, None


def asking(game_id: str) -> Frame | None:
    """The newest frame of the match whose proposal still waits for the scorer's tap, if any
    (questions the record moved past settled first: `settle_passed`)."""
    settle_passed(game_id)
    return db.session.scalars(
        select(Frame).where(Frame.game_id == game_id, Frame.status == "confirm").order_by(Frame.id.desc()).limit(1)
    ).first()


def of_game(game_id: str, hand: int | None = None) -> list[Frame]:
    query = select(Frame).where(Frame.game_id == game_id, Frame.path != "")
    if hand is not None:
        query = query.where(Frame.hand == hand)
    return list(db.session.scalars(query.order_by(Frame.id)))
