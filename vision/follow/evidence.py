"""The evidence of a followed match: each frame that produced an event, and what was read in it.

So that a replay can show why each point was scored, every frame the follower acted on (a play,
an ask, a reveal) is kept as a JPEG beside a JSON of what was read and decided, and an index
links each event of the record (hand, event) to its frame. One folder per match:

    DIR/MATCH/frames/0003.jpg      the photo
    DIR/MATCH/frames/0003.json     the reading, the outcome (events, candidates, why)
    DIR/MATCH/index.json           [{"frame": "0003", "kind": "play", "events": [[hand, event]], ...}]
    DIR/MATCH/record.json          the match record as it stands (written by `save_record`)

`export` zips the record with its frames in the companion's archive format (webapp/archive.py:
record.json, frames.json, frames/N.jpg), so a match followed at the terminal loads into the
companion with its photos (its import form, or POST /api/games), each photo linked to the play
it made as the record holds it.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.follow.follower import Outcome
from vision.read.reading import Reading

JPEG_QUALITY = 85
#: frames.json's format in the companion's archive (`webapp.archive.FORMAT`)
FRAMES_FORMAT = "spinner-frames/1"


def _place(
    hands: list[dict[str, Any]], hand: int | None, made: dict[str, Any] | None, where: list[tuple[int, int]]
) -> int | None:
    """Where the event a frame made stands in the record: a play by its tile in its hand, anything
    else at the place it was followed at if the record holds it there; None where it does not."""
    if made is None or hand is None or not 0 <= hand < len(hands):
        return None
    events = hands[hand].get("events") or []
    if made.get("type") == "play" and made.get("tile"):
        tile = _tile_key(made["tile"])
        return next(
            (k for k, e in enumerate(events) if e.get("type") == "play" and _tile_key(e.get("tile")) == tile), None
        )
    h, e = where[-1] if where else (hand, -1)
    return e if h == hand and 0 <= e < len(events) and events[e] == made else None


def _tile_key(tile: object) -> tuple[str, ...]:
    return tuple(sorted(str(tile).split("-")))


def _words(event: dict[str, Any]) -> str:
    """An event in a few words, as the companion's messages say it."""
    seat = event.get("seat")
    who = f"seat {seat}" if seat is not None else ""
    kind = event.get("type")
    if kind == "play":
        end = f" on the {event['end']}" if isinstance(event.get("end"), str) else ""
        return f"{who} playing {event.get('tile')}{end}"
    if kind == "reveal":
        return f"{who} showing {', '.join(map(str, event.get('tiles') or [])) or 'no tiles'}"
    return f"{who} {kind}".strip()


def write_atomically(path: str | Path, text: str) -> None:
    """Write `text` to `path` whole or not at all.

    Written beside it and renamed over it: a write cut short (a full disk, a Ctrl-C) leaves the
    record that was there, where writing in place had already truncated it.
    """
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        # O_EXCL: never someone else's file; 0o666 less the umask, as a plain write would create it
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


@dataclass
class EvidenceStore:
    root: Path
    match_id: str = field(default_factory=lambda: time.strftime("match-%Y%m%d-%H%M%S"))

    def __post_init__(self) -> None:
        self.root = Path(self.root)
        self.folder = self.root / self.match_id
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        index = self.folder / "index.json"
        self.index: list[dict[str, Any]] = json.loads(index.read_text()) if index.exists() else []

    def keep(
        self,
        image: np.ndarray,
        reading: Reading | None,
        outcome: Outcome,
        motion: dict[str, Any] | None = None,
        hand: int | None = None,
    ) -> str:
        """Keep one frame and what came of it; returns the frame's id. `hand`: the hand being
        followed (else the hand of the events it made)."""
        frame_id = f"{len(self.index):04d}"
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:  # pragma: no cover - OpenCV encodes any uint8 BGR image
            raise RuntimeError("JPEG encoding failed")
        (self.folder / "frames" / f"{frame_id}.jpg").write_bytes(buf.tobytes())
        detail = {
            "frame": frame_id,
            "source": outcome.frame,
            "outcome": outcome.to_json(),
            "reading": reading.to_json() if reading is not None else None,
            "motion": motion,
            "width": int(image.shape[1]),
            "height": int(image.shape[0]),
            "hand": hand,
        }
        (self.folder / "frames" / f"{frame_id}.json").write_text(json.dumps(detail, indent=1))
        self.index.append(
            {
                "frame": frame_id,
                "source": outcome.frame,
                "kind": outcome.kind,
                "events": [list(w) for w in outcome.where],
                "reason": outcome.reason,
            }
        )
        (self.folder / "index.json").write_text(json.dumps(self.index, indent=1))
        return frame_id

    def link(self, frame_id: str, outcome: Outcome) -> None:
        """Events settled later (a person confirmed an ask) point to the frame that asked."""
        self.index.append(
            {
                "frame": frame_id,
                "source": outcome.frame,
                "kind": "confirmed",
                "events": [list(w) for w in outcome.where],
                "reason": outcome.reason,
            }
        )
        (self.folder / "index.json").write_text(json.dumps(self.index, indent=1))

    def relink(self, where: Callable[[int, int], int]) -> None:
        """The record's events moved (`where(hand, event)`: where each now stands, as in a record
        whose unseen draws are written out, `scorer.explicit`): the index follows them."""
        for row in self.index:
            row["events"] = [[hand, where(hand, event)] for hand, event in row["events"]]
        (self.folder / "index.json").write_text(json.dumps(self.index, indent=1))

    def frame_of(self, hand: int, event: int) -> str | None:
        """The frame that produced event `event` of hand `hand`, if one did."""
        for row in self.index:
            if [hand, event] in row["events"]:
                return row["frame"]
        return None

    def save_record(self, record: dict[str, Any]) -> Path:
        path = self.folder / "record.json"
        write_atomically(path, json.dumps(record, indent=1))
        return path

    def export(self, zip_path: str | Path, record: dict[str, Any]) -> Path:
        """One zip in the companion's archive format: the record, frames.json (each kept frame's
        hand, the event it made as the record holds it, its status, message, reading and what the
        follower made of it) and the photos. The folder keeps its own index and details."""
        self.save_record(record)
        zip_path = Path(zip_path)
        zip_path.parent.mkdir(parents=True, exist_ok=True)
        listing = self.listing(record)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("record.json", json.dumps(record, indent=1) + "\n")
            for entry in listing:
                photo = self.folder / "frames" / f"{entry['frame']}.jpg"
                archive.write(photo, entry["file"], compress_type=zipfile.ZIP_STORED)  # JPEG: compressed already
            frames = [{k: v for k, v in entry.items() if k != "frame"} for entry in listing]
            archive.writestr("frames.json", json.dumps({"format": FRAMES_FORMAT, "frames": frames}, indent=1) + "\n")
        return zip_path

    def listing(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """Each kept frame as the companion's frames.json lists it, in the order kept.

        A frame is linked to the play it made by its tile (a tile is played once a hand), so a
        pass named later (`settle_run`) that moves the plays after it keeps each photo at its
        play; a play the record does not hold (kept to confirm, an ask not answered) is linked to
        none. A frame that asked and was answered (`link`) made the events of the answer."""
        rows: dict[str, list[dict[str, Any]]] = {}
        for row in self.index:
            rows.setdefault(row["frame"], []).append(row)
        hands = record.get("hands") or []
        listing = []
        for frame_id, kept in rows.items():
            photo = self.folder / "frames" / f"{frame_id}.jpg"
            if not photo.is_file():
                continue
            path = self.folder / "frames" / f"{frame_id}.json"
            detail = json.loads(path.read_text()) if path.is_file() else {}
            outcome = detail.get("outcome") or {}
            where = [tuple(w) for row in kept for w in row["events"]]
            answered = [tuple(w) for row in kept if row["kind"] == "confirmed" for w in row["events"]]
            hand = where[-1][0] if where else detail.get("hand")
            made: dict[str, Any] | None = None
            if answered:  # the events of the answer, as the record holds them
                h, e = answered[-1]
                made = hands[h]["events"][e] if h < len(hands) and e < len(hands[h]["events"]) else None
            elif outcome.get("events"):
                made = outcome["events"][-1]
            event = _place(hands, hand, made, where)
            sure = outcome.get("kind") in ("play", "reveal")
            if event is not None:
                status = "accepted" if answered else "recorded"
                message = f"the camera saw {_words(made)}" if made is not None else str(outcome.get("reason", ""))
            elif where or outcome.get("kind") == "ask":
                status = "superseded"
                message = (
                    f"the camera asked ({outcome.get('reason', '')}) and the watch ended before an answer "
                    "recorded it (see 'pending' in the record): score this play on the pad"
                )
            else:
                status, message = "nothing", str(outcome.get("reason", ""))
            width, height = detail.get("width"), detail.get("height")
            if not isinstance(width, int) or not isinstance(height, int):
                image = cv2.imread(str(photo))  # a folder kept before the sizes were
                height, width = image.shape[:2] if image is not None else (0, 0)
            proposal = {
                "status": status,
                "sure": sure and event is not None,
                "events": outcome.get("events") or [],
                "choices": [],
                "new": [
                    {"tile": t.get("tile"), "confidence": t.get("confidence")} for t in outcome.get("new_tiles") or []
                ],
                "reason": outcome.get("reason", ""),
                "code": outcome.get("code", ""),
                "params": outcome.get("params") or {},
                "message": message,
                "candidates": outcome.get("candidates") or [],
            }
            if answered and made is not None:
                proposal["chosen"] = made
            listing.append(
                {
                    "frame": frame_id,
                    "file": f"frames/{frame_id}.jpg",
                    "hand": hand if isinstance(hand, int) and hand < len(hands) else None,
                    "event": event,
                    "source": "camera",
                    "status": status,
                    "message": f"{message} ({kept[0].get('source') or frame_id})",
                    "who": "spinner watch",
                    "width": width,
                    "height": height,
                    "reading": detail.get("reading"),
                    "proposal": proposal,
                }
            )
        return listing
