"""What the reader says about one photo: plain dataclasses and the pure functions that build them.

A tile is read in two steps: an oriented box around the whole face (the detector) and a value
for each of its two halves (the half classifier, or the detector's own half boxes). The set is
the last judge: a double-six set holds every tile once, so when two boxes read as the same tile
the readings are settled together, each half's second-best value included, by choosing the
assignment of boxes to distinct tiles that the evidence makes most likely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from scorer.tiles import FULL_SET, Tile

#: The 28 tiles as (low, high) pairs, the columns of the assignment.
_PAIRS = [(t.low, t.high) for t in FULL_SET]
_EPS = 1e-6
#: What a box pays (in log-likelihood, the same whatever its box confidence) to keep its own best
#: reading when the sets have given that tile out. Its second best costs it its box confidence
#: times the log-likelihood it gives up, so a box as sure as 1 turns to it only where it is at
#: least e^-1 (37 %) as likely as its best (29 % at 0.8), less what the swap costs the others.
#: Without it, a printed domino (a board's score track) read as plainly as a real tile forces one
#: of the two to give its tile up, and the real one loses as often as the print. Flat, not scaled
#: by box confidence, so that a faint box cannot keep a reading almost for nothing. Chosen on
#: synth-v11's validation photos among 0.5-4 (models/README.md, "Spare readings").
SPARE_COST = 1.0


@dataclass(frozen=True, slots=True)
class HalfReading:
    value: int
    center: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    #: probability of each value 0..6 for this half.
    probabilities: tuple[float, ...]

    @property
    def confidence(self) -> float:
        return self.probabilities[self.value]


@dataclass(frozen=True, slots=True)
class TileReading:
    tile: Tile
    center: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    #: the two halves in the order of `corners` (first half: the side of corners 0 and 3).
    halves: tuple[HalfReading, HalfReading]
    #: how sure the reader is of the whole tile: box confidence times both halves' probabilities.
    confidence: float
    #: True where the set's uniqueness changed what the halves alone said.
    corrected: bool = False
    #: the confidence as a right rate (`vision.read.calibration`): tiles at 0.9 or more were right
    #: at least 99.5 % of the time on held-out photos; None where the reader has no calibration
    calibrated: float | None = None
    #: True where the reader is not sure enough to score the tile without asking the player
    #: (its calibrated confidence under 0.9): the page and `spinner watch` ask about it
    unsure: bool = False
    #: the tile's long side in the pixels its halves were cut from (0: not known)
    pixels: float = 0.0
    #: what each half's pips counted say it holds (`vision.read.pips`; None: they cannot tell,
    #: or were not counted: they are counted only on a tile that would otherwise be sure), in the
    #: order of `halves`
    pips: tuple[int | None, int | None] = (None, None)
    #: True where its box overlaps another box that would be a sure tile too, by more than the
    #: reader allows (`reader.SURE_OVERLAP`): two tiles cannot lie there, so at least one of the
    #: two is no tile (a box across two tiles) and the reader asks about both (`Reader.judge`)
    overlapped: bool = False
    #: True where one half is read blank and its colour is not the tile's body colour, the other
    #: half's (`vision.read.body`): a hand, or what is not the tile, lies there; the reader asks
    #: about the tile (`Reader.judge`)
    blank_unlike: bool = False
    #: True where neither half's pips stand clear of the photo's noise (`vision.read.noise`: a dim
    #: room, the gain turned up): the reader asks about the tile (`Reader.judge`)
    faint: bool = False
    #: True where the box refiner's check says the box holds no tile lying face up (a tile
    #: standing on edge seen face on, a printed picture: `vision.read.refine`): the reader asks
    #: about the tile (`Reader.judge`)
    not_lying: bool = False
    #: True where its look (its halves' colour) lies far from every other sure tile's in the photo
    #: (`vision.read.set_look`: a printed picture in its printer's colours among the set's
    #: tiles): the reader asks about the tile (`Reader.judge`)
    unlike_set: bool = False
    #: True where a half read blank shows marks where pips lie (`vision.read.pips.marks`) and its
    #: pips, counted, do not call it blank: pale or coloured pips the classifier does not see. The
    #: reader asks about the tile (`Reader.judge`)
    blank_marked: bool = False

    @property
    def pips_disagree(self) -> bool:
        """Whether a half's pips, counted, say another value than the tile is read with: the
        reader then asks about the tile (`Reader.judge`)."""
        return any(p is not None and p != h.value for p, h in zip(self.pips, self.halves))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tile": str(self.tile),
            "center": _round(self.center),
            "corners": [_round(c) for c in self.corners],
            "halves": [
                {"value": h.value, "center": _round(h.center), "confidence": round(h.confidence, 4)}
                for h in self.halves
            ],
            "confidence": round(self.confidence, 4),
            "unsure": self.unsure,
        }
        if self.calibrated is not None:
            out["calibrated"] = round(self.calibrated, 4)
        if self.corrected:
            out["corrected"] = True
        if self.pips_disagree:  # why the tile is unsure: its pips, counted, say another value
            out["pips"] = list(self.pips)
        if self.overlapped:  # why the tile is unsure: its box overlaps another sure one
            out["overlapped"] = True
        if self.blank_unlike:  # why the tile is unsure: its blank half is not its body's colour
            out["blank_unlike"] = True
        if self.faint:  # why the tile is unsure: its pips hardly stand out of the photo's noise
            out["faint"] = True
        if self.not_lying:  # why the tile is unsure: its box shows no tile lying face up
            out["not_lying"] = True
        if self.unlike_set:  # why the tile is unsure: it looks unlike every other tile of the set
            out["unlike_set"] = True
        if self.blank_marked:  # why the tile is unsure: a half read blank shows marks
            out["blank_marked"] = True
        return out


@dataclass(frozen=True, slots=True)
class Ignored:
    """Something the detector boxed that is not a face-up tile, and so never read as one: a
    back ("face_down"), a tile standing on edge ("edge"), a printed picture ("printed")."""

    kind: str
    corners: tuple[tuple[float, float], ...]
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "corners": [_round(c) for c in self.corners],
            "confidence": round(self.confidence, 4),
        }


@dataclass(frozen=True, slots=True)
class Reading:
    image: str
    width: int
    height: int
    tiles: tuple[TileReading, ...]
    layout: dict[str, Any] | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    #: the reader's own `(rules, LayoutResult)` behind `layout`, so that following a game does not
    #: rebuild the same layout again (`vision.follow.follower.PhotoLayout`); not part of the JSON
    rebuilt: Any = field(default=None, compare=False, repr=False)
    #: what was boxed and is not a face-up tile (a detector with those classes only)
    ignored: tuple[Ignored, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "image": self.image,
            "tiles": [t.to_json() for t in self.tiles],
            "layout": self.layout,
            "ignored": [i.to_json() for i in self.ignored],
        }


def scaled(reading: Reading, factor: float, width: int, height: int) -> Reading:
    """The reading of a photo decoded at reduced size (`vision.read.photo`), its points moved to
    the photo's own pixels (`factor`: photo pixels per image pixel) and its size the photo's."""
    if factor == 1 and (width, height) == (reading.width, reading.height):
        return reading

    def point(p: Sequence[float]) -> tuple[float, float]:
        return (float(p[0]) * factor, float(p[1]) * factor)

    def half(h: HalfReading) -> HalfReading:
        return replace(h, center=point(h.center), corners=tuple(point(c) for c in h.corners))

    tiles = tuple(
        replace(
            t,
            center=point(t.center),
            corners=tuple(point(c) for c in t.corners),
            halves=(half(t.halves[0]), half(t.halves[1])),
        )
        for t in reading.tiles
    )
    ignored = tuple(replace(i, corners=tuple(point(c) for c in i.corners)) for i in reading.ignored)
    return replace(reading, width=width, height=height, tiles=tiles, ignored=ignored)


def _round(point: Sequence[float]) -> list[float]:
    return [round(float(v), 1) for v in point]


@dataclass(frozen=True, slots=True)
class TileCandidate:
    """A tile box with its two halves' value probabilities, before the set settles conflicts."""

    center: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    box_confidence: float
    half_centers: tuple[tuple[float, float], tuple[float, float]]
    half_corners: tuple[tuple[tuple[float, float], ...], tuple[tuple[float, float], ...]]
    half_probabilities: tuple[np.ndarray, np.ndarray]
    #: the box's long side in the pixels its halves were cut from (0: not known)
    pixels: float = 0.0


def tile_likelihoods(candidate: TileCandidate) -> np.ndarray:
    """P(tile) for each of the 28 tiles: the better of the two ways its halves can lie."""
    a, b = candidate.half_probabilities
    return np.array([max(a[lo] * b[hi], a[hi] * b[lo]) for lo, hi in _PAIRS])


def settle(candidates: Sequence[TileCandidate], sets: int = 1, sure: float = 0.0) -> list[TileReading]:
    """Read every candidate as a distinct tile, choosing the most likely assignment overall, each
    box's log-likelihood weighted by its box confidence.

    `sets` is how many double-six sets lie on the table (a game such as Double Double Dominoes
    plays with two): each tile may then be read that many times. A box may still keep a tile the
    sets have given out, at a cost (`SPARE_COST`): a printed domino (a board's score track, a
    card) or a second box on one tile reads a tile as clearly as the real one does, and forcing
    either to a reading its halves do not show only makes a wrong tile. So uniqueness changes a
    reading only where the halves leave it in doubt.

    Boxes under `sure` (box confidence) are settled after the others, with the tiles the sets have
    left: a faint box may add a tile but never changes how a sure box is read.
    """
    readings: list[TileReading | None] = [None] * len(candidates)
    left = np.full(len(_PAIRS), sets)
    sure_ones = [i for i, c in enumerate(candidates) if c.box_confidence >= sure]
    faint_ones = [i for i, c in enumerate(candidates) if c.box_confidence < sure]
    for tier in (sure_ones, faint_ones):
        if not tier:
            continue
        likelihood = np.stack([tile_likelihoods(candidates[i]) for i in tier])
        own_best = likelihood.argmax(axis=1)
        choice = _assign(likelihood, own_best, [candidates[i].box_confidence for i in tier], left)
        for row, i in enumerate(tier):
            k = int(choice[row])
            readings[i] = _reading(candidates[i], k, likelihood[row, k], bool(k != own_best[row]))
        left = np.maximum(left - np.bincount(choice, minlength=len(_PAIRS)), 0)
    return [r for r in readings if r is not None]


def _assign(likelihood: np.ndarray, own_best: np.ndarray, surety: Sequence[float], left: np.ndarray) -> np.ndarray:
    """Each box's tile (a column of `_PAIRS`): its own best, unless more boxes want a tile than
    `left` holds of it; then the most likely assignment within what is left, where each box may
    also keep its own best as a spare (a tile beyond the sets) for `SPARE_COST` more."""
    choice = own_best.copy()
    if not bool((np.bincount(own_best, minlength=len(_PAIRS)) > left).any()):
        return choice
    from scipy.optimize import linear_sum_assignment

    # Each box's say is weighted by how sure the detector is that it is a tile: two boxes read
    # as one tile, the faint one (a tile half out of the photo, under a hand) is read as its
    # second best, not the sure one in the middle of the table.
    weight = np.asarray(surety, dtype=np.float64)
    boxes = len(own_best)
    columns = np.repeat(np.arange(len(_PAIRS)), left)
    cost = -np.log(likelihood[:, columns] + _EPS) * weight[:, None]
    # One spare column per box, open to that box alone: its own best reading beyond the sets.
    spare = np.full((boxes, boxes), np.inf)
    spare[np.arange(boxes), np.arange(boxes)] = (
        -np.log(likelihood[np.arange(boxes), own_best] + _EPS) * weight + SPARE_COST
    )
    rows, cols = linear_sum_assignment(np.hstack([cost, spare]))
    taken = cols < len(columns)
    choice[rows[taken]] = columns[cols[taken]]
    return choice


def _reading(candidate: TileCandidate, column: int, likelihood: float, corrected: bool) -> TileReading:
    lo, hi = _PAIRS[column]
    a, b = candidate.half_probabilities
    # Which half shows which number: the orientation the probabilities favour.
    first, second = (lo, hi) if a[lo] * b[hi] >= a[hi] * b[lo] else (hi, lo)
    halves = (
        HalfReading(first, candidate.half_centers[0], candidate.half_corners[0], tuple(float(p) for p in a)),
        HalfReading(second, candidate.half_centers[1], candidate.half_corners[1], tuple(float(p) for p in b)),
    )
    return TileReading(
        tile=Tile.of(lo, hi),
        center=candidate.center,
        corners=candidate.corners,
        halves=halves,
        confidence=float(candidate.box_confidence * likelihood),
        corrected=corrected,
        pixels=candidate.pixels,
    )


def split_halves(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split a tile's four corners (in order around the box) into its two square halves.

    The halves are cut across the long axis; each comes back as 4 corners in order around it.
    The first half is the one holding corners 0 and 3 (after putting a short side first).
    """
    c = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    if np.linalg.norm(c[1] - c[0]) > np.linalg.norm(c[2] - c[1]):
        c = np.roll(c, -1, axis=0)  # make 0->1 a short side
    # Now 0->1 and 2->3 are the short sides; 1->2 and 3->0 the long ones.
    mid_12 = (c[1] + c[2]) / 2
    mid_30 = (c[3] + c[0]) / 2
    first = np.stack([c[0], c[1], mid_12, mid_30])
    second = np.stack([mid_30, mid_12, c[2], c[3]])
    return first, second
