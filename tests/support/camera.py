"""The camera's stand-ins: a photo, a reading as the reader's JSON has it, a scripted reader, and
an upload through the frames API. The reader here answers what each test tells it (the real one
needs its trained models); everything after the reading is real."""

from __future__ import annotations

import io
import threading
from typing import Any

import cv2
import numpy as np

from tests.support.web import Table


def photo(width: int = 64, height: int = 48, fmt: str = ".jpg") -> bytes:
    image = np.full((height, width, 3), 90, np.uint8)
    cv2.rectangle(image, (10, 10), (40, 25), (250, 250, 250), -1)
    ok, data = cv2.imencode(fmt, image)
    assert ok
    return data.tobytes()


def bare_table(width: int = 640, height: int = 480) -> bytes:
    """A photo of a bare table: nothing on it that a reader could take for a tile (`photo`'s white
    bar, 2:1, is a fair double blank to a detector that has seen many)."""
    ok, data = cv2.imencode(".jpg", np.full((height, width, 3), 90, np.uint8))
    assert ok
    return data.tobytes()


def seen(
    *tiles: str | tuple[str, float],
    arms: dict[str, list[str]] | None = None,
    centre: str | None = None,
    unsure: list[str] | None = None,
) -> dict[str, Any]:
    """A reading as the reader's JSON has it: tiles lying end to end in a line from west to east in
    the order given (a double crosswise), each half with its value and how sure it is read (the
    tile's confidence shared by its two halves), and the photo's layout as the reader says it."""
    out = []
    x, y, open_value = 200.0, 200.0, None
    for item in tiles:
        name, confidence = (item, 0.97) if isinstance(item, str) else item
        a, b = (int(v) for v in name.split("-"))
        if open_value is not None and b == open_value and a != b:
            a, b = b, a  # the half against the tile before shows its number
        half = round(confidence**0.5, 4)
        if a == b:  # crosswise: 30 wide, 60 long
            x += 15
            corners = [[x - 15, y - 30], [x + 15, y - 30], [x + 15, y + 30], [x - 15, y + 30]]
            halves = [[x, y - 15], [x, y + 15]]
            step = 15
        else:
            x += 30
            corners = [[x - 30, y - 15], [x + 30, y - 15], [x + 30, y + 15], [x - 30, y + 15]]
            halves = [[x - 15, y], [x + 15, y]]
            step = 30
        out.append(
            {
                "tile": name,
                "confidence": confidence,
                "center": [x, y],
                "corners": corners,
                "halves": [{"value": v, "center": c, "confidence": half} for v, c in zip((a, b), halves)],
            }
        )
        x += step
        open_value = b
    layout = {"arms": arms or {}, "centre": centre, "unsure": unsure or []} if centre else None
    return {"image": "", "tiles": out, "layout": layout}


class Script:
    """The stand-in reader: hands out the readings queued for it, optionally waiting on a gate."""

    def __init__(self) -> None:
        self.readings: list[dict[str, Any]] = []
        self.gate: threading.Event | None = None
        self.started = threading.Event()
        self.variants: list[str] = []

    def __call__(self, variant: str) -> Script:
        self.variants.append(variant)
        return self

    def read(self, image: np.ndarray, name: str = "") -> dict[str, Any]:
        self.started.set()
        if self.gate is not None:
            self.gate.wait(60)  # a bound for a test that forgot its gate, not a pace
        return self.readings.pop(0) if self.readings else seen()


def make_app(tmp_path, **config):
    from webapp import create_app
    from webapp.store import cache

    cache.clear()
    return create_app(
        {
            "SPINNER_DATA": tmp_path / "data",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "TESTING": True,
            "READ_WAIT": 10.0,
            **config,
        }
    )


def send(
    t: Table, data: bytes, query: str = "", content_type: str = "multipart", headers: dict[str, str] | None = None
):
    headers = {**t.auth, **(headers or {})}
    if content_type == "multipart":
        return t.client.post(
            f"/api/games/{t.id}/frames{query}",
            data={"photo": (io.BytesIO(data), "table.jpg")},
            headers=headers,
            content_type="multipart/form-data",
        )
    return t.client.post(f"/api/games/{t.id}/frames{query}", data=data, headers=headers, content_type=content_type)


def who_played(tile: str, seats: list[int], end: str | None = None) -> Any:
    """The follower's question of who laid `tile` (issue 34: passes no photo shows), as
    vision/follow/follower.py words it: one candidate a seat, likeliest first (the turn seat, then
    the later seats, the ones between passing), each that seat's play (a lead without `end`)."""
    from scorer.moves import Move
    from scorer.tiles import Tile
    from vision.follow.follower import Candidate, Outcome

    candidates = []
    for i, seat in enumerate(seats):
        event = {"type": "play", "seat": seat, "tile": tile} | ({"end": end} if end else {})
        move = Move(seat, Tile.parse(tile), end, tuple(seats[:i]))
        candidates.append([Candidate(move, event, 0, identity=0.97, geometry=1.0, share=1 / len(seats))])
    named = [f"seat {s}" for s in seats]
    reason = f"who played {tile}: {', '.join(named[:-1])} or {named[-1]}?"
    return Outcome("ask", reason, candidates=candidates, code="who_played", params={"tile": tile, "seats": seats})


class Asks:
    """The follower's next answers, given in place of what it makes of the photo (the reader's
    reading is still taken, the frame kept and the answer proposed as for any other): `install`
    puts it on the match's camera table (`vision.follow.table.Table.frame`) for one test."""

    def __init__(self) -> None:
        self.outcomes: list[Any] = []

    def install(self, monkeypatch: Any) -> Asks:
        from vision.follow.table import Table as CameraTable

        real = CameraTable.frame
        queued = self.outcomes

        def frame(table: Any, reading: Any, look: Any, seat: int | None = None, image: Any = None) -> Any:
            return queued.pop(0) if queued else real(table, reading, look, seat, image)

        monkeypatch.setattr(CameraTable, "frame", frame)
        return self
