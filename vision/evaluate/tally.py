"""The counts behind the reader's figures, shared by the synthetic and the real-board evaluations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def blank_halves(a: int, b: int) -> int:
    """How many of a tile's halves are blank (0, 1 or 2)."""
    return int(a == 0) + int(b == 0)


@dataclass
class Tally:
    """Tiles and halves counted over photos: recall, precision, exact tile, per half, confusions."""

    truth: int = 0
    read: int = 0
    found: int = 0
    on_a_tile: int = 0
    exact: int = 0
    halves: int = 0
    halves_right: int = 0
    # Of those, the halves the truth marks as seen (at least `labels.MIN_VISIBLE` of the half in
    # view, as the labels count tiles): a half under a hand has no value to read, yet the reader
    # still names one. Synthetic photos only; the real board's truth has no such mark.
    seen_halves: int = 0
    seen_halves_right: int = 0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((7, 7), dtype=int))
    # True tiles and those found, by how many blank halves they have: a blank half has no pips to
    # mark it, and the detector finds such tiles least (model card).
    truth_by_blanks: np.ndarray = field(default_factory=lambda: np.zeros(3, dtype=int))
    found_by_blanks: np.ndarray = field(default_factory=lambda: np.zeros(3, dtype=int))
    failures: list[str] = field(default_factory=list)
    # Read tiles whose centre lies on something that is not a face-up tile: a back, a tile on
    # edge, a printed picture (synthetic truth only; issue 35: at most 1 per 100 photos).
    not_tiles: dict[str, int] = field(default_factory=lambda: {"face_down": 0, "edge": 0, "printed": 0})
    # ... and of them, those not marked unsure: read as tiles with no question asked
    sure_not_tiles: dict[str, int] = field(default_factory=lambda: {"face_down": 0, "edge": 0, "printed": 0})
    # Read tiles lying on no tile but with their halves on two touching ones (a box over their
    # joint), and of them those not marked unsure: a confident misread no target above counts
    across: int = 0
    sure_across: int = 0
    # (confidence, right) of every read tile the truth can judge: right where it lies on a
    # counted tile, the first read there, as the right tile; wrong where it is read as another
    # tile, lies on no face-up tile, or a tile already read (the reliability table's data).
    judged: list[tuple[float, bool]] = field(default_factory=list)

    def count_true(self, blanks: int) -> None:
        self.truth += 1
        self.truth_by_blanks[blanks] += 1

    def count_found(self, blanks: int) -> None:
        self.found += 1
        self.found_by_blanks[blanks] += 1

    def figures(self) -> dict[str, Any]:
        return {
            "tiles_true": self.truth,
            "tiles_read": self.read,
            "tile_recall": ratio(self.found, self.truth),
            "tile_precision": ratio(self.on_a_tile, self.read),
            "exact_tile": ratio(self.exact, self.found),
            "per_half": ratio(self.halves_right, self.halves),
            **({"per_half_seen": ratio(self.seen_halves_right, self.seen_halves)} if self.seen_halves else {}),
            "recall_by_blank_halves": {
                str(n): ratio(int(self.found_by_blanks[n]), int(self.truth_by_blanks[n])) for n in range(3)
            },
            "confusion": self.confusion.tolist(),
            "read_as_tiles": dict(self.not_tiles),
            "read_as_sure_tiles": dict(self.sure_not_tiles),
            "read_across_two_tiles": self.across,
            "sure_across_two_tiles": self.sure_across,
        }
