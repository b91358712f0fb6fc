"""A match with its frames in one file: a ZIP of the record, its history, the frames' readings and photos.

    record.json     the match record (GAME_RECORD.md), with the draws a camera did not see written
                    out where it can be (`scorer.explicit`), so any reader scores it as we do
    match.json      {"format": "spinner-match/1", "title", "version", "history": [...]}: the
                    match's title and every change (who changed what, when and why: corrections,
                    disputes and their settling), as GET /api/games/ID/history answers them; and,
                    where record.json had draws written out, "record": the record as kept, which
                    the history's events (and each frame's "kept_event") index
    frames.json     {"format": "spinner-frames/1", "frames": [...]}: each kept frame's hand, the
                    event it made and what became of it since (`link`), the version it was read
                    on, its status, message, reading and proposal, and its "file"
    frames/N.ext    the photos, as they came (JPEG, PNG, WebP...; a HEIC is kept as a JPEG)

`spinner watch --export` writes the same archive (`vision.follow.evidence`), so a match followed
at the terminal loads into the companion with its photos. match.json and frames.json are
optional: an archive without match.json (older ones) imports with a history of one "import".

Importing checks everything before keeping anything: the names in the archive, the sizes as
they unpack (`webapp.safezip`: a small ZIP may unpack to gigabytes), the record (the scorer
replays it), the history (each change's shape, versions rising, the events it names as events),
the photos' pixels together (`MAX_IMPORT_PIXELS`, from their headers, before any decodes) and
that each photo decodes. Nothing of a refused archive is kept. The imported match takes the
history's versions, and its own "import" change comes after them: disputes left open are
settled by their version as before, and the record as it stood before the import is not kept.
"""

from __future__ import annotations

import json
import re
import tempfile
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from flask import current_app

from scorer.explicit import explicit_record
from scorer.schema import check_record
from scorer.tiles import Tile

from . import camera, frames, imagesize, safezip, schemas, store, validate, wording
from .auth import clean_text
from .db import db
from .errors import ApiError
from .models import Frame, Game

FORMAT = "spinner-frames/1"
MATCH_FORMAT = "spinner-match/1"
#: The most an archive may hold once unpacked, and the most frames.
MAX_UNPACKED = 512 * 1024 * 1024
MAX_FRAMES = 5000
#: The most pixels an import's photos may hold together, read from each header before any photo
#: is decoded: 200 photos of the 50 megapixels a photo may have (`imagesize.MAX_PIXELS`), or
#: about 830 of a phone's usual 12. Without it a 2.6 MB ZIP of 3,500 solid 50-megapixel PNGs
#: (741 bytes each, zipped) had the server decode them all: 30-45 minutes of CPU for one POST.
MAX_IMPORT_PIXELS = 200 * imagesize.MAX_PIXELS
#: frames.json: each frame's reading is a few kilobytes.
MAX_LISTING = 8 * 1024 * 1024
_FRAME_NAME = re.compile(r"^frames/([0-9]{1,9})\.(jpg|png|webp|gif|bmp|heic|heif)$")
_PROPOSAL = {"type": "object", "properties": {"proposal": schemas.PROPOSAL}}
#: a frame's statuses an archive may give (`webapp.models.Frame`); one still waiting for the
#: reader when it was exported ("queued") is kept as "nothing": nothing reads it here
_STATUSES = frames.SETTLED | set(frames.RUN)
#: changes whose `before` and `after` are the event at their (hand, event)
_EVENT_ACTIONS = {"event", "correct", "remove", "undo", "dispute"}


def export(game: Game) -> IO[bytes]:
    """The match as an archive in a temporary file, at its start, for the caller to send and close.

    On disk, not in memory: a match may hold hundreds of megabytes of photos (an import takes
    256 MB), and each request for it held the whole archive in memory, any number at once.
    """
    out = tempfile.TemporaryFile()
    try:
        _write(game, out)
    except BaseException:
        out.close()
        raise
    out.seek(0)
    return out


def _write(game: Game, out: IO[bytes]) -> None:
    from .api import change_json

    snap = store.snapshot(game)
    # for any reader: the draws the camera did not see written out, each frame's event moved with it
    shared = store.handed_out(game)  # made once a version
    rewritten = shared.record != snap.record
    listing: list[dict[str, Any]] = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("record.json", json.dumps(shared.record, indent=2, ensure_ascii=False) + "\n")
        history = [change_json(c) for c in store.history(game.id)]
        about = {"format": MATCH_FORMAT, "title": game.title, "version": snap.version, "history": history}
        if rewritten:  # the record the history indexes, for an import back into Spinner
            about["record"] = snap.record
        archive.writestr("match.json", json.dumps(about, indent=1, ensure_ascii=False) + "\n")
        for frame in frames.of_game(game.id):
            path = frames.file_of(frame)
            if path is None or not path.is_file():
                continue
            name = f"frames/{frame.id}{path.suffix}"
            archive.write(path, name, compress_type=zipfile.ZIP_STORED)  # photos are compressed already
            listing.append(
                {
                    "file": name,
                    "hand": frame.hand,
                    "event": shared.where(frame.hand, frame.event)
                    if frame.hand is not None and frame.event is not None
                    else frame.event,
                    **({"kept_event": frame.event} if rewritten else {}),
                    "link": frame.link,
                    "version": frame.version,
                    "source": frame.source,
                    "status": frame.status,
                    "message": frame.message,
                    "who": frame.who,
                    "width": frame.width,
                    "height": frame.height,
                    "at": frame.at.isoformat() if frame.at else None,
                    "reading": frame.reading,
                    "proposal": frame.proposal,
                }
            )
        archive.writestr("frames.json", json.dumps({"format": FORMAT, "frames": listing}, indent=1) + "\n")


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


@dataclass
class Contents:
    """An archive, read and checked: the record, and each frame's entry with its photo on disk."""

    record: dict[str, Any]
    frames: list[tuple[dict[str, Any], Path]]
    #: match.json's title and changes, checked (None: an archive without match.json)
    title: str | None = None
    history: list[dict[str, Any]] | None = None
    #: each change's time, read
    times: list[datetime | None] = field(default_factory=list)
    #: the record is match.json's (as kept: record.json has draws written out), which the frames'
    #: "kept_event" index
    as_kept: bool = False


def read(file: IO[bytes], name: str, spool: Path) -> Contents:
    """The record and the frames of an archive, all checked; the photos inflated under `spool`."""
    config = current_app.config
    archive = safezip.Archive(file, name, max_members=MAX_FRAMES + 3, max_total=MAX_UNPACKED)
    names = archive.names()
    if "record.json" not in archive:
        old_watch = [n for n in names if n.count("/") == 1 and n.endswith("/index.json")]
        if old_watch and f"{old_watch[0].split('/')[0]}/record.json" in archive:
            raise ApiError(
                400,
                f"{name} is the archive of an older `spinner watch --export` (its files under "
                f"{old_watch[0].split('/')[0]}/): import its record.json by itself, or follow the match "
                "again with this version's `spinner watch --export`, whose archive brings the photos too",
            )
        raise ApiError(400, f"{name} has no record.json: export a match from Spinner to get one")
    strange = sorted(
        n
        for n in names
        if n not in ("record.json", "frames.json", "match.json") and not _FRAME_NAME.match(n) and not n.endswith("/")
    )
    if strange:
        raise ApiError(400, f"{name} holds files a Spinner archive does not: {', '.join(strange[:5])}")
    record = validate.loads(archive.read("record.json", config["MAX_JSON_BYTES"]), f"{name}: record.json")
    listing = (
        validate.loads(archive.read("frames.json", MAX_LISTING), f"{name}: frames.json")
        if "frames.json" in archive
        else {"format": FORMAT, "frames": []}
    )
    if not isinstance(listing, dict) or listing.get("format") != FORMAT or not isinstance(listing.get("frames"), list):
        raise ApiError(400, f"{name}: frames.json is not a {FORMAT} list of frames")
    if len(listing["frames"]) > MAX_FRAMES:
        raise ApiError(413, f"{name} lists {len(listing['frames'])} frames: at most {MAX_FRAMES}")
    kept: list[tuple[dict[str, Any], Path]] = []
    named: set[str] = set()
    pixels = 0
    for i, entry in enumerate(listing["frames"]):
        file_name = entry.get("file") if isinstance(entry, dict) else None
        if not isinstance(file_name, str) or file_name not in archive or not _FRAME_NAME.match(file_name):
            raise ApiError(400, f"{name}: frame {i} in frames.json names no photo of the archive")
        if file_name in named:  # one photo would become as many rows and files as it is named
            raise ApiError(400, f"{name}: frame {i} in frames.json names {file_name}, which an earlier frame names")
        named.add(file_name)
        if isinstance(entry.get("proposal"), dict):  # an answer records the plays it holds
            validate.check({"proposal": entry["proposal"]}, _PROPOSAL, f"{name}: frame {i} in frames.json")
        _check_frame(entry, f"{name}: frame {i} in frames.json")
        path = spool / f"{i}{Path(file_name).suffix}"
        with path.open("wb") as out:
            archive.extract(file_name, out, config["MAX_CONTENT_LENGTH"])
        width, height = imagesize.check(path.read_bytes(), f"{name}: {file_name}")
        pixels += width * height
        if pixels > MAX_IMPORT_PIXELS:  # before any photo is decoded
            raise ApiError(
                413,
                f"{name}: its photos hold more pixels than an import takes (at {file_name}): at most {MAX_IMPORT_PIXELS // 1_000_000_000} gigapixels per import (200 photos of "
                f"{imagesize.MAX_PIXELS // 1_000_000} megapixels)",
            )
        kept.append((entry, path))
    for k, (entry, path) in enumerate(kept):  # every header read and the budget kept: now each photo decodes
        file_name = entry["file"]
        data = path.read_bytes()
        kind = frames.kind_of(data)  # its content says what it is, whatever its name says
        if kind is None:  # a phone's HEIC: kept as a JPEG the page can show
            data, ext = imagesize.decodable(camera.web_copy, data, f"{name}: {file_name}")
            path.unlink()
            path = path.with_suffix(f".{ext}")
            path.write_bytes(data)
            kept[k] = (entry, path)
        elif path.suffix != f".{kind}":  # a JPEG named .heic: kept, and served, as the JPEG it is
            path = path.rename(path.with_suffix(f".{kind}"))
            kept[k] = (entry, path)
        imagesize.decodable(camera.check, data, f"{name}: {file_name}")
    contents = Contents(record, kept)
    if "match.json" in archive:
        about = validate.loads(archive.read("match.json", MAX_LISTING), f"{name}: match.json")
        _check_match(about, f"{name}: match.json", contents)
    return contents


def _check_frame(entry: dict[str, Any], where: str) -> None:
    """A frame's status and link, where it gives them: a status Spinner gives a frame, and a link
    that says what became of its event (taken back: it names none; corrected: it names its place)."""
    status = entry.get("status")
    if status is not None and status != "queued" and status not in _STATUSES:
        raise ApiError(400, f"{where}: {str(status)[:40]!r} is no status of a frame ({', '.join(sorted(_STATUSES))})")
    link = entry.get("link")
    validate.check({"link": link}, {"type": "object", "properties": {"link": schemas.LINK}}, where)
    _check_link(entry, "event", where)


def _check_link(entry: dict[str, Any], key: str, where: str) -> None:
    """A play taken back names no event (`key`: the event the import takes), any other one does."""
    link = entry.get("link")
    if isinstance(link, dict) and (link["state"] == "taken back") != (entry.get(key) is None):
        said = "names no event" if entry.get(key) is None else f"names event {entry.get(key)!r}"
        raise ApiError(400, f"{where}: its play was {link['state']}, and it {said}")


def _check_match(about: object, where: str, contents: Contents) -> None:
    """match.json held to its shape: the title, and each change as the history has it, in the
    order made (versions rising), what it says of an event an event of GAME_RECORD.md."""
    if not isinstance(about, dict) or about.get("format") != MATCH_FORMAT:
        raise ApiError(400, f"{where} is not a {MATCH_FORMAT} title and history")
    title, history = about.get("title", ""), about.get("history", [])
    if not isinstance(title, str) or len(title) > schemas.TITLE_LENGTH:
        raise ApiError(400, f"{where}: title is text of at most {schemas.TITLE_LENGTH} characters")
    if not isinstance(history, list):
        raise ApiError(400, f"{where}: history is a list of changes")
    if len(history) > schemas.MAX_CHANGES:
        raise ApiError(413, f"{where} lists {len(history)} changes: at most {schemas.MAX_CHANGES}")
    last = 0
    times: list[datetime | None] = []
    for i, change in enumerate(history):
        said = f"{where}: history[{i}]"
        validate.check(change, schemas.CHANGE, said)
        action, version = change["action"], change["version"]
        if action not in wording.ACTIONS:
            raise ApiError(400, f"{said}: {action!r} is no change of a match ({', '.join(wording.ACTIONS)})")
        if version <= last:
            raise ApiError(400, f"{said}: version {version} after version {last}: the changes go in the order made")
        last = version
        for key in ("before", "after"):
            note = change.get(key)
            about_event = action in _EVENT_ACTIONS and change.get("event") is not None
            if isinstance(note, dict) and ("type" in note or about_event):  # shown as an event
                schemas.check_event(note, f"{said}.{key}")
        settles = (change.get("after") or {}).get("settles")
        if action == "settle" and (type(settles) is not int or not 1 <= settles < version):
            raise ApiError(400, f"{said}: a settle names the version of the dispute it settles (after.settles)")
        times.append(validate.moment(change.get("at"), f"{said}.at"))
    contents.title, contents.history, contents.times = title, history, times
    if "record" in about:  # record.json had its unseen draws written out: the record as kept
        with validate.refused():
            kept = check_record(about["record"], f"{where}: record")
        # the two must be one match: record.json is what any other reader of the archive sees
        if explicit_record(kept).record != contents.record:
            raise ApiError(
                400, f"{where}: its record is not the one record.json holds with the unseen draws written out"
            )
        for i, (entry, _) in enumerate(contents.frames):
            _check_link(entry, "kept_event", f"{where.removesuffix('match.json')}frame {i} in frames.json")
        contents.record, contents.as_kept = kept, True


def load(file: IO[bytes], *, who: str, name: str = "the archive") -> store.Created:
    """A new match from an archive: its record through the scorer, then its frames and photos."""
    root = frames.folder(current_app)
    root.mkdir(parents=True, exist_ok=True)
    # Photos are inflated next to where they will be kept (one file system: kept by a rename).
    with tempfile.TemporaryDirectory(prefix=".import-", dir=root) as spool:
        contents = read(file, name, Path(spool))
        return _keep(contents, who=who)


def _keep(contents: Contents, *, who: str) -> store.Created:
    record = contents.record
    spec = {**record, "title": contents.title} if contents.title is not None else record
    created = store.create(spec, who=who, source="import", history=contents.history, times=contents.times)
    game = created.game
    hands = [len(h.get("events") or []) if isinstance(h, dict) else 0 for h in record.get("hands") or []]
    exported = contents.history[-1]["version"] if contents.history else None
    folder = frames.folder(current_app) / game.id
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for entry, photo in contents.frames:
            hand = _int_or_none(entry.get("hand"))
            hand = hand if hand is not None and hand < len(hands) else None
            event = _int_or_none(entry.get("kept_event" if contents.as_kept else "event"))
            # an event the record does not hold is none (an archive of before links were kept right)
            event = event if hand is not None and event is not None and event < hands[hand] else None
            link = entry.get("link")
            if isinstance(link, dict) and link["state"] == "corrected" and event is None:
                link = None  # its place is not in the record: nothing to say it was corrected
            if isinstance(link, dict):
                link = {**link, "who": clean_text(link.get("who"), 60), "why": clean_text(link.get("why"), 1000)}
            elif (
                event is not None and hand is not None and not _same_play(entry, record["hands"][hand]["events"][event])
            ):
                # an archive of before links were kept right ties the photo to another play: a
                # correction there, as the history has it, else it names none, and says so
                link = _corrected(contents.history or [], hand, event, record["hands"][hand]["events"][event])
                if link is None:
                    link = {
                        "state": "taken back",
                        "action": "import",
                        "version": game.version,
                        "event": event,
                        "who": who,
                        "why": "the archive tied this photo to another play",
                    }
                    event = None
            status = entry.get("status")
            frame = Frame(
                game_id=game.id,
                hand=hand,
                version=_version(entry.get("version"), exported, game.version),
                event=event,
                link=link,
                source="import",
                status=status if status in _STATUSES else "nothing",
                message=str(entry.get("message") or "")[:500],
                who=str(entry.get("who") or "")[:60],
                width=_int_or_none(entry.get("width")) or 0,
                height=_int_or_none(entry.get("height")) or 0,
                reading=entry.get("reading") if isinstance(entry.get("reading"), dict) else None,
                proposal=entry.get("proposal") if isinstance(entry.get("proposal"), dict) else None,
            )
            db.session.add(frame)
            db.session.flush()
            ext = photo.suffix
            photo.replace(folder / f"{frame.id}{ext}")
            frame.path = f"{game.id}/{frame.id}{ext}"
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return created


def _corrected(history: list[dict[str, Any]], hand: int, event: int, now: Any) -> dict[str, Any] | None:
    """The frame's link for the last correction the history made at (hand, event) to the event
    there now, if it made one."""
    fixed = [c for c in history if c["action"] == "correct" and (c.get("hand"), c.get("event")) == (hand, event)]
    if not fixed or fixed[-1].get("after") != now:
        return None
    change = fixed[-1]
    return {
        "state": "corrected",
        "action": "correct",
        "version": change["version"],
        "event": event,
        "who": clean_text(change.get("who"), 60),
        "why": clean_text(change.get("why"), 1000),
    }


def _same_play(entry: dict[str, Any], recorded: Any) -> bool:
    """Whether the event a frame's entry names is the play its proposal says it made (its tile),
    where the proposal says one: the play chosen, the first it kept to confirm, or the last seen."""
    proposal = entry.get("proposal")
    if not isinstance(proposal, dict):
        proposal = {}
    chosen, kept, seen = proposal.get("chosen"), proposal.get("kept"), proposal.get("events")
    made = chosen if isinstance(chosen, dict) else None
    if made is None and isinstance(kept, list) and kept:
        made = kept[0]
    if made is None and isinstance(seen, list) and seen:
        made = seen[-1]
    if not isinstance(made, dict) or not isinstance(made.get("tile"), str):
        return True  # nothing to tell it by
    try:
        tile = Tile.parse(made["tile"])
        return isinstance(recorded, dict) and recorded.get("type") == "play" and Tile.parse(recorded["tile"]) is tile
    except (KeyError, TypeError, ValueError):
        return False


def _version(value: object, exported: int | None, imported: int) -> int:
    """The version a frame was read on, in the imported match: as it was, where the history came
    with it; the version it was exported at is the import's (the same record); else the first."""
    version = _int_or_none(value)
    if exported is None or version is None or not 1 <= version <= exported:
        return 1
    return imported if version == exported else version
