"""A match with its frames in one file: a ZIP of the record, the frames' readings and their photos.

    record.json     the match record (GAME_RECORD.md), with the draws a camera did not see written
                    out where it can be (`scorer.explicit`), so any reader scores it as we do
    frames.json     {"format": "spinner-frames/1", "frames": [...]}: each kept frame's hand, the
                    event it made, its status, message, reading and proposal, and its "file"
    frames/N.ext    the photos, as they came (JPEG, PNG, WebP...)

Importing checks everything before keeping anything: the names in the archive, the sizes as
they unpack (`webapp.safezip`: a small ZIP may unpack to gigabytes), the record (the scorer replays it) and that each
photo decodes. Nothing of a refused archive is kept.
"""

from __future__ import annotations

import json
import re
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from flask import current_app

from scorer.explicit import explicit_record

from . import camera, frames, imagesize, safezip, schemas, store, validate
from .db import db
from .errors import ApiError
from .models import Frame, Game

FORMAT = "spinner-frames/1"
#: The most an archive may hold once unpacked, and the most frames.
MAX_UNPACKED = 512 * 1024 * 1024
MAX_FRAMES = 5000
#: frames.json: each frame's reading is a few kilobytes.
MAX_LISTING = 8 * 1024 * 1024
_FRAME_NAME = re.compile(r"^frames/([0-9]{1,9})\.(jpg|png|webp|gif|bmp)$")
_PROPOSAL = {"type": "object", "properties": {"proposal": schemas.PROPOSAL}}
_STATUSES = {"recorded", "accepted", "rejected", "confirm", "nothing", "over", "no-reader", "unreadable"}


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
    snap = store.snapshot(game)
    # for any reader: the draws the camera did not see written out, each frame's event moved with it
    shared = explicit_record(snap.record)
    listing: list[dict[str, Any]] = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("record.json", json.dumps(shared.record, indent=2, ensure_ascii=False) + "\n")
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


def read(file: IO[bytes], name: str, spool: Path) -> Contents:
    """The record and the frames of an archive, all checked; the photos inflated under `spool`."""
    config = current_app.config
    archive = safezip.Archive(file, name, max_members=MAX_FRAMES + 3, max_total=MAX_UNPACKED)
    names = archive.names()
    if "record.json" not in archive:
        raise ApiError(400, f"{name} has no record.json: export a match from Spinner to get one")
    strange = sorted(
        n for n in names if n not in ("record.json", "frames.json") and not _FRAME_NAME.match(n) and not n.endswith("/")
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
    for i, entry in enumerate(listing["frames"]):
        file_name = entry.get("file") if isinstance(entry, dict) else None
        if not isinstance(file_name, str) or file_name not in archive or not _FRAME_NAME.match(file_name):
            raise ApiError(400, f"{name}: frame {i} in frames.json names no photo of the archive")
        if file_name in named:  # one photo would become as many rows and files as it is named
            raise ApiError(400, f"{name}: frame {i} in frames.json names {file_name}, which an earlier frame names")
        named.add(file_name)
        if isinstance(entry.get("proposal"), dict):  # an answer records the plays it holds
            validate.check({"proposal": entry["proposal"]}, _PROPOSAL, f"{name}: frame {i} in frames.json")
        path = spool / f"{i}{Path(file_name).suffix}"
        with path.open("wb") as out:
            archive.extract(file_name, out, config["MAX_CONTENT_LENGTH"])
        photo = path.read_bytes()
        imagesize.check(photo, f"{name}: {file_name}")
        imagesize.decodable(camera.check, photo, f"{name}: {file_name}")  # a photo that is not one is refused here
        kept.append((entry, path))
    return Contents(record, kept)


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
    created = store.create(record, who=who, source="import")
    game = created.game
    hands = len(record.get("hands") or [])
    folder = frames.folder(current_app) / game.id
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for entry, photo in contents.frames:
            hand = _int_or_none(entry.get("hand"))
            frame = Frame(
                game_id=game.id,
                hand=hand if hand is not None and hand < hands else None,
                version=1,
                event=_int_or_none(entry.get("event")),
                source="import",
                status=entry.get("status") if entry.get("status") in _STATUSES else "nothing",
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
