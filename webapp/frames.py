"""Frames: photos kept under SPINNER_DATA, read one table at a time, newest first.

An upload is checked (`camera.decode`), written to `frames/<match>/<id>.<ext>` and queued.
Reader threads take the newest frame of each table: a camera sending faster than the reader
reads never builds a backlog, because a frame still waiting when a newer one of the same table
arrives is skipped (its file dropped, unless a player took it on purpose). A read frame becomes
a proposal (`camera.propose`); a sure one is recorded at once through the store, like any play
from the pad (source "camera"), and an unsure one waits for the scorer's tap (`accept`).

A live camera's frame is acted on (recorded, or asked about) only when the frame read before it,
on the same board, proposed the same thing: a frame caught while an arm lays the tile or a hand
crosses the table is often read wrong, and one more look a second later settles it. A photo
someone took on purpose is a deliberate look of its own and is acted on at once.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
from flask import Flask, current_app
from sqlalchemy import select

from . import camera, imagesize, store
from .db import db
from .errors import ApiError
from .models import Frame
from .readers import Readers, Unavailable, default_factory
from .table_changes import Look, Tables

if TYPE_CHECKING:
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
#: Statuses after which nothing more happens to a frame by itself.
SETTLED = {"recorded", "accepted", "rejected", "nothing", "looking", "over", "skipped", "no-reader", "unreadable"}


def kind_of(data: bytes) -> str | None:
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return next((ext for magic, ext, _ in KINDS if data.startswith(magic)), None)


def folder(app: Flask) -> Path:
    return Path(app.config["SPINNER_PHOTOS"])


def file_of(frame: Frame) -> Path | None:
    return folder(current_app) / frame.path if frame.path else None


def to_json(frame: Frame, *, reading: bool = True) -> dict[str, Any]:
    from flask import url_for

    out: dict[str, Any] = {
        "id": frame.id,
        "hand": frame.hand,
        "event": frame.event,
        "version": frame.version,
        "source": frame.source,
        "status": frame.status,
        "message": frame.message,
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
    #: a live camera's frame: what the motion test saw when it arrived (`table_changes`)
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
    """The app's live cameras' table changes, one per match (`table_changes`)."""
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


def intake(game_id: str, data: bytes, *, source: str, who: str, seat: int | None, unreadable: str | None = None) -> Job:
    """Check an upload and make its job. A photo is kept at once (answered "no-reader" at once
    where the server cannot read); a live camera's frame only when a reader takes it, so never
    where there is none (the page stops its live camera on that answer). Nothing is kept for a
    bad upload."""
    imagesize.check(data)  # the header's size, before a decoder allocates what it claims
    width, height = imagesize.decodable(camera.check, data)
    ext = kind_of(data)
    if ext is None:  # decodable but not a web format (TIFF...): keep a PNG the page can show
        ok, encoded = cv2.imencode(".png", camera.decode(data))
        data, ext = encoded.tobytes(), "png"
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
    job = Job(game_id, data, spec)
    if source == "camera":  # kept once a reader takes it; never, where there is no reader
        job.look = tables(current_app).get(game_id).see(camera.thumbnail_of(data, width))
        return job
    keep(job, "no-reader", unreadable) if unreadable else keep(job)
    return job


def keep(job: Job, status: str = "queued", message: str = "", also: Callable[[Frame], None] | None = None) -> Frame:
    """Write the job's row and its file; `also(frame)` runs in the same transaction."""
    spec = {k: v for k, v in job.spec.items() if k != "ext"}
    frame = Frame(game_id=job.game_id, status=status, message=message, **spec)
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
    job.frame_id = frame.id
    return frame


def process(readers: Readers, frame_id: int, data: bytes | None, look: Look | None = None) -> None:
    frame = db.session.get(Frame, frame_id)
    if frame is None or frame.status != "queued":
        return
    game = store.get_game(frame.game_id)
    seat = (frame.proposal or {}).get("seat")
    try:
        reader = readers.get(game.variant)
    except Unavailable as error:
        frame.status, frame.message = "no-reader", str(error)
        db.session.commit()
        return
    path = file_of(frame)
    if data is None and path is not None and path.is_file():
        data = path.read_bytes()
    if hasattr(reader, "read_bytes"):  # the reader in its own process decodes the photo there
        try:
            read = reader.read_bytes(data or b"", f"frame {frame.id}")
        except ValueError as error:  # vision.read.reader.ReadError
            frame.status, frame.message = "unreadable", f"{error}: score this play on the pad"
            db.session.commit()
            return
        frame.reading, frame.width, frame.height = read["reading"], int(read["width"]), int(read["height"])
        decide(frame, seat, look)
        return
    try:
        image = camera.decode(data or b"", f"frame {frame.id}")
    except ApiError as error:
        frame.status, frame.message = "unreadable", f"{error.message}: score this play on the pad"
        db.session.commit()
        return
    height, width = image.shape[:2]
    frame.width, frame.height = int(width), int(height)
    reading = reader.read(image, f"frame {frame.id}")
    frame.reading = reading.to_json() if hasattr(reading, "to_json") else reading
    decide(frame, seat, look)


def _played(snap: store.Snapshot) -> frozenset[str]:
    """The tiles played in the match's current hand, as the scorer names them."""
    hands = snap.record["hands"]
    events = hands[-1]["events"] if hands else []
    return frozenset(camera.name_of(e["tile"]) for e in events if e.get("type") == "play")


def decide(frame: Frame, seat: int | None, look: Look | None = None) -> None:
    """Propose from the frame's reading; record a sure play at once (retrying once on a newer version).

    `look`: a live camera's frame as the motion test saw it: the table's changes since the last
    play that the reader found nothing new in make its play a question (`table_changes`), and so
    does a tile of a question since the camera's last play that is not played and that this frame
    no longer reads (turned down for its seat or end, it may be the play the camera lost sight of),
    and a tile turned down as a play since then that this frame reads as new again, unless the pad
    has scored since as many plays as were missed when it was asked."""
    changes = tables(current_app).get(frame.game_id) if look is not None else None
    for _ in range(2):
        game = store.get_game(frame.game_id)
        snap = store.snapshot(game)
        frame.version = snap.version
        frame.hand = len(snap.record["hands"]) - 1 if snap.record["hands"] else None
        background = _background(frame) if frame.source == "camera" else None
        played = _played(snap)
        proposal = camera.propose(frame.reading or {}, snap, seat, background)
        if changes is not None and look is not None:
            # the changes nothing explains, now that the tiles this frame reads as new are known
            new = frozenset(n["tile"] for n in proposal["new"])
            unexplained = changes.unexplained_before(look, snap.version, played, new)
            # and the tiles of a question since the camera's last play, not played, lost since
            last_play = _last_camera_play(frame)
            lost = sorted(_asked_tiles(frame, last_play) - played - {camera.name_of(t) for t in new})
            # and a tile turned down as a play since then, seen again as new, unless the pad has
            # scored since exactly as many plays as the question took for missed (changes with
            # nothing new seen, tiles it lost sight of): each missed play scored leaves the tile the
            # next seat's play. Fewer scored, a play is still missing before it; more, a padded play
            # took the change the tile came with, and nothing shows it was laid (a confident
            # misread beside the true play: the page bench's film 13 with the pruned detector)
            again = sorted(
                tile
                for tile, (missed, plays) in _turned_down_tiles(frame, last_play).items()
                if tile in {camera.name_of(t) for t in new} and missed != len(played) - plays
            )
            if unexplained or lost or again:
                proposal = camera.propose(frame.reading or {}, snap, seat, background, unexplained, lost, again)
        if changes is not None and look is not None:
            changes.explain(look, {n["tile"] for n in proposal["new"]})
        frame.hand = len(snap.record["hands"]) - 1 if snap.record["hands"] else None
        frame.proposal = proposal
        frame.message = proposal["message"]
        frame.status = proposal["status"]
        if frame.source == "camera" and proposal["status"] == "confirm" and _turned_down(frame, proposal):
            # "No" means: stop asking about this one (until the match changes); the pad takes it
            frame.status, frame.message = "nothing", f"{proposal['message']}: turned down already, not asked again"
            frame.proposal = {**proposal, "status": "nothing", "message": frame.message}
            break
        # acted on only from a still table: a frame caught while an arm moves over it is only a look
        if (
            frame.source == "camera"
            and proposal["status"] in ("sure", "confirm")
            and (not _seen_before(frame, proposal) or (look is not None and not look.still))
        ):
            frame.status, frame.message = (
                "looking",
                f"{proposal['message']}: looking once more before {'recording it' if proposal['sure'] else 'asking'}",
            )
            frame.proposal = {**proposal, "status": "looking", "sure": False, "message": frame.message}
            break
        if proposal["status"] != "sure":
            break
        frame_id = frame.id
        db.session.commit()
        try:
            done = store.append_event(
                frame.game_id,
                proposal["events"][0],
                snap.version,
                who="camera",
                why=f"frame {frame_id}",
                source="camera",
            )
        except ApiError as error:
            frame = get(frame.game_id, frame_id)
            if error.status == 409:  # a phone scored first: look again on the new version
                continue
            frame.status, frame.message = "confirm", f"the camera's play was refused: {error.message}"
            proposal["sure"] = False
            frame.proposal = {**proposal, "status": "confirm", "message": frame.message}
            break
        frame = get(frame.game_id, frame_id)
        frame.status, frame.event, frame.version = "recorded", done.change.event, done.version
        if changes is not None and look is not None:
            tile = camera.name_of(proposal["events"][0]["tile"])
            changes.settle(look, done.version, played | {tile}, tile)
        break
    if frame.status in ("nothing", "looking", "over"):
        _drop_file(frame)
    db.session.commit()


#: how many recent "nothing new" live frames of the hand lend their tiles' places to the background
BACKGROUND_FRAMES = 10


def _background(frame: Frame) -> list[dict[str, Any]]:
    """The tiles already lying on the table, by their places: those of the first live frame read on
    the version of the match that the camera's last play made (the frame that recorded it), or
    without one, on this frame's version (the first look after the pad changed the match; this
    frame itself where it is that first one), and those of the hand's recent live frames that saw
    nothing new, so that a loose tile the reader missed in one frame and found in another is not
    taken for a play. Plays scored on the pad since the camera's last play do not move the
    background on: the tiles laid meanwhile that the pad has not scored yet are still plays."""
    played = _last_camera_play(frame)
    version = played.version if played is not None else frame.version
    first = db.session.scalars(
        select(Frame)
        .where(
            Frame.game_id == frame.game_id,
            Frame.source == "camera",
            Frame.version == version,
            Frame.id < frame.id,
            Frame.reading.is_not(None),
        )
        .order_by(Frame.id)
        .limit(1)
    ).first()
    quiet = db.session.scalars(
        select(Frame)
        .where(
            Frame.game_id == frame.game_id,
            Frame.source == "camera",
            Frame.hand == frame.hand,
            Frame.status == "nothing",
            Frame.id < frame.id,
            Frame.reading.is_not(None),
        )
        .order_by(Frame.id.desc())
        .limit(BACKGROUND_FRAMES)
    )
    # The new tiles of the camera's last question are no background: a person who turned it down
    # and scored on the pad a play the camera missed leaves them still to be played.
    pending = _asked_tiles(frame, played)

    # a frame's own new tiles were no background when it was read (the frame that recorded a play
    # may have seen the next one laid already); but the play a frame recorded is on the table now:
    # its tiles are marked, and `camera.propose` keeps those the scorer has on the table (without
    # the tile just played, a box across it and the next tile was taken for a play)
    def new_in(f: Frame) -> set[str]:
        return {n["tile"] for n in (f.proposal or {}).get("new") or []}

    tiles = [
        tile if camera.name_of(tile["tile"]) not in new_in(f) else {**tile, camera.NEW_THEN: True}
        for f in (first or frame, *quiet)
        for tile in (f.reading or {}).get("tiles") or []
        if f is frame or camera.name_of(tile["tile"]) not in new_in(f) or f.status in ("recorded", "accepted")
    ]
    if not pending:
        return tiles
    # nor a box lying over one of them (the reader's box across that tile and its neighbour)
    held = [tile for tile in tiles if camera.name_of(tile["tile"]) in pending]
    return [tile for tile in tiles if camera.name_of(tile["tile"]) not in pending and not camera.lies_over(tile, held)]


def _last_camera_play(frame: Frame) -> Frame | None:
    """The frame of the camera's last play in this frame's hand (recorded, or confirmed), if any."""
    return db.session.scalars(
        select(Frame)
        .where(
            Frame.game_id == frame.game_id,
            Frame.source == "camera",
            Frame.hand == frame.hand,
            Frame.status.in_(("recorded", "accepted")),
            Frame.id < frame.id,
        )
        .order_by(Frame.id.desc())
        .limit(1)
    ).first()


def _asked_tiles(frame: Frame, played: Frame | None) -> set[str]:
    """The new tiles of the camera's last question in this hand, turned down or still open. A
    question asked before the camera's last play (`played`, `_last_camera_play`) is settled by
    it: its tile may be that play."""
    asked = db.session.scalars(
        select(Frame)
        .where(
            Frame.game_id == frame.game_id,
            Frame.source == "camera",
            Frame.hand == frame.hand,
            Frame.status.in_(("confirm", "rejected")),
            Frame.id < frame.id,
            Frame.id > (played.id if played is not None else -1),
        )
        .order_by(Frame.id.desc())
        .limit(1)
    ).first()
    return {camera.name_of(n["tile"]) for n in (asked.proposal or {}).get("new") or []} if asked is not None else set()


def _turned_down_tiles(frame: Frame, played: Frame | None) -> dict[str, tuple[int, int]]:
    """The tiles the scorer turned down as plays in this hand since the camera's last play
    (`played`), each with the plays the question took for missed (the changes the camera saw
    nothing new in, and the tiles of an earlier question it no longer saw) and the plays on the
    table then (the latest question about it)."""
    said_no = db.session.scalars(
        select(Frame)
        .where(
            Frame.game_id == frame.game_id,
            Frame.source == "camera",
            Frame.hand == frame.hand,
            Frame.status == "rejected",
            Frame.id < frame.id,
            Frame.id > (played.id if played is not None else -1),
        )
        .order_by(Frame.id)
    )

    def missed(proposal: dict[str, Any]) -> int:
        return int(proposal.get("unexplained") or 0) + len(proposal.get("lost") or [])

    return {
        camera.name_of(e["tile"]): (missed(f.proposal or {}), int((f.proposal or {}).get("plays") or 0))
        for f in said_no
        for e in (f.proposal or {}).get("events") or []
        if e.get("tile")
    }


def _seen_before(frame: Frame, proposal: dict[str, Any]) -> bool:
    """Whether the live frame read just before this one, on the same version of the match, saw
    the same: the same proposed play (tile, end, player) among the same new tiles."""
    previous = db.session.scalars(
        select(Frame)
        .where(
            Frame.game_id == frame.game_id,
            Frame.source == "camera",
            Frame.id < frame.id,
            Frame.status.not_in(("queued", "skipped")),
        )
        .order_by(Frame.id.desc())
        .limit(1)
    ).first()
    if previous is None or previous.version != frame.version or not previous.proposal:
        return False
    return _what(previous.proposal) == _what(proposal)


def _turned_down(frame: Frame, proposal: dict[str, Any]) -> bool:
    """Whether the scorer already said "no" to this proposal on this version of the match."""
    said_no = db.session.scalars(
        select(Frame).where(
            Frame.game_id == frame.game_id,
            Frame.version == frame.version,
            Frame.status == "rejected",
            Frame.id < frame.id,
        )
    )
    return any(_what(f.proposal or {}) == _what(proposal) for f in said_no)


def _what(proposal: dict[str, Any]) -> tuple[Any, ...]:
    return (proposal.get("events") or [], sorted(n["tile"] for n in proposal.get("new") or []))


def answer(game_id: str, frame_id: int, accept: bool, event: Any, *, who: str, why: str) -> Frame:
    """The scorer's tap on a proposal: record its play (as proposed, or corrected), or turn it down."""
    frame = get(game_id, frame_id)
    if frame.status != "confirm":
        raise ApiError(409, f"frame {frame_id} asks nothing now (it is {frame.status}): nothing was recorded")
    if not accept:
        frame.status, frame.message = "rejected", f"turned down by {who}" + (f": {why}" if why else "")
        db.session.commit()
        return frame
    proposed = (frame.proposal or {}).get("events") or []
    chosen = event if event is not None else (proposed[0] if proposed else None)
    if chosen is None:
        raise ApiError(400, "this proposal has no play to record: send the event to record with it")
    if isinstance(chosen, dict) and chosen.get("seat") is None:
        raise ApiError(400, "say who played it: the event needs its seat")
    done = store.append_event(
        game_id, chosen, frame.version, who=who, why=why or f"frame {frame_id}, confirmed", source="camera"
    )
    frame = get(game_id, frame_id)
    frame.status, frame.event, frame.version = "accepted", done.change.event, done.version
    frame.message = f"confirmed by {who}: {store.words(chosen)}"
    db.session.commit()
    return frame


def get(game_id: str, frame_id: int) -> Frame:
    frame = db.session.get(Frame, frame_id)
    if frame is None or frame.game_id != game_id:
        raise ApiError(404, f"no frame {frame_id} in this match")
    return frame


def asking(game_id: str) -> Frame | None:
    """The newest frame of the match whose proposal still waits for the scorer's tap, if any."""
    return db.session.scalars(
        select(Frame).where(Frame.game_id == game_id, Frame.status == "confirm").order_by(Frame.id.desc()).limit(1)
    ).first()


def of_game(game_id: str, hand: int | None = None) -> list[Frame]:
    query = select(Frame).where(Frame.game_id == game_id, Frame.path != "")
    if hand is not None:
        query = query.where(Frame.hand == hand)
    return list(db.session.scalars(query.order_by(Frame.id)))
