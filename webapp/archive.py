"""A match with its frames in one file: a ZIP of the record, the frames' readings and their photos.

    record.json     the match record (GAME_RECORD.md)
    frames.json     {"format": "spinner-frames/1", "frames": [...]}: each kept frame's hand, the
                    event it made, its status, message, reading and proposal, and its "file"
    frames/N.ext    the photos, as they came (JPEG, PNG, WebP...)

Importing checks everything before keeping anything: the names in the archive, the sizes once
unpacked (a small ZIP may unpack to gigabytes), the record (the scorer replays it) and that each
photo decodes. Nothing of a refused archive is kept.
"""
from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

from flask import current_app

from . import camera, frames, store
from .db import db
from .errors import ApiError
from .models import Frame, Game

FORMAT = "spinner-frames/1"
#: The most an archive may hold once unpacked, and the most frames.
MAX_UNPACKED = 512 * 1024 * 1024
MAX_FRAMES = 5000
_FRAME_NAME = re.compile(r"^frames/(\d{1,9})\.(jpg|png|webp|gif|bmp)$")
_STATUSES = {"recorded", "accepted", "rejected", "confirm", "nothing", "over", "no-reader", "unreadable"}


def export(game: Game) -> bytes:
    snap = store.snapshot(game)
    listing: list[dict[str, Any]] = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("record.json", json.dumps(snap.record, indent=2, ensure_ascii=False) + "\n")
        for frame in frames.of_game(game.id):
            path = frames.file_of(frame)
            if path is None or not path.is_file():
                continue
            name = f"frames/{frame.id}{path.suffix}"
            archive.write(path, name, compress_type=zipfile.ZIP_STORED)  # photos are compressed already
            listing.append({"file": name, "hand": frame.hand, "event": frame.event, "source": frame.source,
                            "status": frame.status, "message": frame.message, "who": frame.who,
                            "width": frame.width, "height": frame.height, "at": frame.at.isoformat() if frame.at else None,
                            "reading": frame.reading, "proposal": frame.proposal})
        archive.writestr("frames.json", json.dumps({"format": FORMAT, "frames": listing}, indent=1) + "\n")
    return out.getvalue()


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def read(data: bytes, name: str = "the archive") -> tuple[dict[str, Any], list[tuple[dict[str, Any], bytes]]]:
    """The record and the frames (their entries and photo bytes) of an archive, all checked."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError) as error:
        raise ApiError(400, f"{name} is not a ZIP archive ({error})") from None
    names = {m.filename for m in members}
    if "record.json" not in names:
        raise ApiError(400, f"{name} has no record.json: export a match from Spinner to get one")
    strange = sorted(n for n in names if n not in ("record.json", "frames.json") and not _FRAME_NAME.match(n)
                     and not n.endswith("/"))
    if strange:
        raise ApiError(400, f"{name} holds files a Spinner archive does not: {', '.join(strange[:5])}")
    if sum(m.file_size for m in members) > MAX_UNPACKED or len(members) > MAX_FRAMES + 3:
        raise ApiError(413, f"{name} unpacks to more than {MAX_UNPACKED // 2**20} MB or {MAX_FRAMES} frames")
    try:
        record = json.loads(archive.read("record.json"))
        listing = json.loads(archive.read("frames.json")) if "frames.json" in names else {"format": FORMAT, "frames": []}
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ApiError(400, f"{name}: record.json or frames.json is not valid JSON ({error})") from None
    if not isinstance(listing, dict) or listing.get("format") != FORMAT or not isinstance(listing.get("frames"), list):
        raise ApiError(400, f"{name}: frames.json is not a {FORMAT} list of frames")
    kept: list[tuple[dict[str, Any], bytes]] = []
    for i, entry in enumerate(listing["frames"]):
        if not isinstance(entry, dict) or entry.get("file") not in names or not _FRAME_NAME.match(str(entry.get("file"))):
            raise ApiError(400, f"{name}: frame {i} in frames.json names no photo of the archive")
        photo = archive.read(entry["file"])
        camera.decode(photo, f"{name}: {entry['file']}")  # a photo that is not one is refused here
        kept.append((entry, photo))
    return record, kept


def load(data: bytes, *, who: str, name: str = "the archive") -> store.Created:
    """A new match from an archive: its record through the scorer, then its frames and photos."""
    record, kept = read(data, name)
    created = store.create(record, who=who, source="import")
    game = created.game
    hands = len(record.get("hands") or [])
    folder = frames.folder(current_app) / game.id
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for entry, photo in kept:
            hand = _int_or_none(entry.get("hand"))
            frame = Frame(
                game_id=game.id, hand=hand if hand is not None and hand < hands else None, version=1,
                event=_int_or_none(entry.get("event")), source="import",
                status=entry.get("status") if entry.get("status") in _STATUSES else "nothing",
                message=str(entry.get("message") or "")[:500], who=str(entry.get("who") or "")[:60],
                width=_int_or_none(entry.get("width")) or 0, height=_int_or_none(entry.get("height")) or 0,
                reading=entry.get("reading") if isinstance(entry.get("reading"), dict) else None,
                proposal=entry.get("proposal") if isinstance(entry.get("proposal"), dict) else None,
            )
            db.session.add(frame)
            db.session.flush()
            ext = Path(entry["file"]).suffix
            (folder / f"{frame.id}{ext}").write_bytes(photo)
            frame.path = f"{game.id}/{frame.id}{ext}"
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return created
