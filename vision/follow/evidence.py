"""The evidence of a followed match: each frame that produced an event, and what was read in it.

So that a replay can show why each point was scored, every frame the follower acted on (a play,
an ask, a reveal) is kept as a JPEG beside a JSON of what was read and decided, and an index
links each event of the record (hand, event) to its frame. One folder per match:

    DIR/MATCH/frames/0003.jpg      the photo
    DIR/MATCH/frames/0003.json     the reading, the outcome (events, candidates, why)
    DIR/MATCH/index.json           [{"frame": "0003", "kind": "play", "events": [[hand, event]], ...}]
    DIR/MATCH/record.json          the match record as it stands (written by `save_record`)

`export` zips the folder with the record, so a match travels with its evidence.
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
        self, image: np.ndarray, reading: Reading | None, outcome: Outcome, motion: dict[str, Any] | None = None
    ) -> str:
        """Keep one frame and what came of it; returns the frame's id."""
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
        """One zip: the record, the index and every kept frame with its JSON."""
        self.save_record(record)
        zip_path = Path(zip_path)
        zip_path.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(self.folder.rglob("*")):
                if path.is_file():
                    archive.write(path, f"{self.match_id}/{path.relative_to(self.folder)}")
        return zip_path
