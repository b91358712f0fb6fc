"""Hand-made readings for the follower's tests: tiles of known values, places and certainty, as the
reader would report them (tests/test_watch.py, tests/test_follow_table.py)."""

from __future__ import annotations

import numpy as np

from scorer.tiles import Tile
from vision.read.reading import HalfReading, Reading, TileReading


def tile(a: int, b: int, x: float, y: float, sure: float = 0.97, second: dict[int, float] | None = None) -> TileReading:
    """A tile lying west-east (half `a` west) of 60x30 pixels centred at (x, y)."""

    def probs(value: int) -> tuple[float, ...]:
        p = np.full(7, (1 - sure) / 6)
        p[value] = sure
        for v, q in (second or {}).items():
            p[v] = q
        return tuple(float(v) for v in p / p.sum())

    def half(value: int, cx: float) -> HalfReading:
        corners = ((cx - 15, y - 15), (cx + 15, y - 15), (cx + 15, y + 15), (cx - 15, y + 15))
        return HalfReading(value, (cx, y), corners, probs(value))

    corners = ((x - 30, y - 15), (x + 30, y - 15), (x + 30, y + 15), (x - 30, y + 15))
    return TileReading(Tile.of(a, b), (x, y), corners, (half(a, x - 15), half(b, x + 15)), sure * sure)


def upright(a: int, b: int, x: float, y: float) -> TileReading:
    """A tile lying north-south (half `a` north) of 30x60 pixels centred at (x, y)."""
    flat = tile(a, b, 0, 0)
    turn = lambda p: (x - p[1], y + p[0])  # noqa: E731  (a quarter turn about the centre)
    halves = tuple(
        HalfReading(h.value, turn(h.center), tuple(turn(c) for c in h.corners), h.probabilities) for h in flat.halves
    )
    return TileReading(flat.tile, (x, y), tuple(turn(c) for c in flat.corners), halves, flat.confidence)


def reading(*tiles: TileReading) -> Reading:
    return Reading("frame", 640, 480, tuple(tiles))


def read_right(reading, names: list[str]) -> int:  # type: ignore[no-untyped-def]
    """How many of the true tiles `names` ("a-b") the reading read, each read tile counted once."""
    read = [str(t.tile) for t in reading.tiles]
    right = 0
    for name in names:
        a, b = sorted(int(v) for v in name.split("-"))
        if f"{a}-{b}" in read:
            read.remove(f"{a}-{b}")
            right += 1
    return right
