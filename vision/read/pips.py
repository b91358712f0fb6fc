"""A second opinion on a half's value that learns nothing: its pips counted.

The half classifier reads a half by its learnt appearance, and on a set it never saw (coloured
pips, black tiles, other pip shapes, other light) it can be sure and wrong. Pips have one thing
every set shares: where they lie. Here a half is split into its body and what stands out from it
in colour, in either direction (dark pips on ivory, white pips on black, coloured pips: the
distance from the body's median colour, not darkness); the blobs of pip size are counted, and the
places of a half's 3x3 grid they cover matched to a value's pattern. The opinion is a value only
where the half is large and clear enough and its pips say it plainly; otherwise None (it cannot
tell).

The reader counts the halves it already cut for the classifier (`vision.read.crops`, 32 px with a
margin: the half itself some 26 px), all of a photo's at once: the colours, thresholds and the
grid's places in numpy over every half together, the blobs found in one image of the halves laid
one under another (`count_many`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.crops import HALF_SIZE, MARGIN, rectify

#: where a half's pips lie on a 3x3 grid (row, column), for each value: both diagonals of 2 and
#: 3, both ways of 6 (a half is a square, and the tile lies any way round)
PATTERNS: dict[int, tuple[frozenset[tuple[int, int]], ...]] = {
    0: (frozenset(),),
    1: (frozenset({(1, 1)}),),
    2: (frozenset({(0, 0), (2, 2)}), frozenset({(0, 2), (2, 0)})),
    3: (frozenset({(0, 0), (1, 1), (2, 2)}), frozenset({(0, 2), (1, 1), (2, 0)})),
    4: (frozenset({(0, 0), (0, 2), (2, 0), (2, 2)}),),
    5: (frozenset({(0, 0), (0, 2), (2, 0), (2, 2), (1, 1)}),),
    6: (
        frozenset({(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)}),
        frozenset({(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)}),
    ),
}


@dataclass(frozen=True, slots=True)
class PipCount:
    """How a half's pips are counted, and when the count says nothing."""

    #: a half shorter than this (its side, in the photo's pixels) is not counted: its pips are a
    #: pixel or two across
    least_side: float = 16.0
    #: a half whose colours stray less than this from its body's (opponent colours) is blank;
    #: between this and `least_contrast` it may be blank or blurred: no opinion
    blank_below: float = 20.0
    least_contrast: float = 40.0
    #: how much each opponent colour's difference counts (squared): lightness, red-green,
    #: yellow-blue
    weights: tuple[float, float, float] = (1.0, 1.0, 1.0)
    #: a pip is what strays from the body by this share of the half's strongest contrast
    ratio: float = 0.5
    #: how far (a share of the half's side) a pip's centre may lie from its place on the grid
    tolerance: float = 0.12
    #: a grid place without a pip strays at most this share of the contrast (0: not checked)
    absent: float = 0.3


#: where a half lies in the classifier's crop (`crops.rectify` adds `MARGIN` of it on each side)
INNER = slice(round(HALF_SIZE * MARGIN / (1 + 2 * MARGIN)), HALF_SIZE - round(HALF_SIZE * MARGIN / (1 + 2 * MARGIN)))


def count_many(halves: np.ndarray, how: PipCount = PipCount()) -> list[int | None]:
    """The value each of N rectified halves' pips say (0..6, or 7..12: no double-six half), or
    None where they do not say it plainly. `halves`: (N, S, S, 3) BGR, each the half alone (no margin), S some 20 px or more."""
    n, size = len(halves), int(halves.shape[1]) if len(halves) else 0
    if n == 0:
        return []
    # opponent colours (lightness, red-green, yellow-blue): Lab's work at a tenth of its cost,
    # each a plane of its own (numpy is slow along an axis of 3)
    colours = cv2.transform(halves.reshape(n * size, size, 3).astype(np.float32), _OPPONENT)
    planes = [plane.reshape(n, size, size) for plane in cv2.split(colours)]
    rim = max(2, int(round(0.1 * size)))
    # how far each pixel strays from the body's colour (squared), in either direction and whatever
    # the colours: dark pips on ivory, white on black, a yellow pip on cream hardly darker, only
    # yellower; the body's colour the median of the half within its rim (every other pixel is
    # enough)
    far = np.zeros((n, size, size), np.float32)
    for plane, weight in zip(planes, how.weights):
        sample = np.sort(plane[:, rim : size - rim : 2, rim : size - rim : 2].reshape(n, -1), axis=1)
        middle = sample.shape[1] // 2
        body = sample[:, middle] if sample.shape[1] % 2 else 0.5 * (sample[:, middle - 1] + sample[:, middle])
        plane -= body[:, None, None]
        plane *= plane
        if weight != 1:
            plane *= np.float32(weight)
        far += plane
    spread = far[:, rim : size - rim, rim : size - rim].reshape(n, -1)
    top = int(0.99 * (spread.shape[1] - 1))
    contrast = np.sqrt(np.sort(spread, axis=1)[:, top])
    out: list[int | None] = [0 if c < how.blank_below else None for c in contrast.tolist()]
    live = np.flatnonzero(contrast >= how.least_contrast)
    if not len(live):
        return out
    # every live half's pips in one image, the halves one under another a blank row apart
    mask = np.zeros((len(live), size + 1, size), np.uint8)
    mask[:, :size] = far[live] > np.square(how.ratio * contrast[live, None, None])
    _, _, stats, centroids = cv2.connectedComponentsWithStats(mask.reshape(-1, size), connectivity=8)
    x, y, w, h, area = stats[1:].T
    cx, cy = centroids[1:].T
    which = y // (size + 1)  # the index into `live` of the half each blob lies in
    y, cy = y - which * (size + 1), cy - which * (size + 1)
    touches = (x == 0) | (y == 0) | (x + w == size) | (y + h == size)
    inside = (rim <= cx) & (cx < size - rim) & (rim <= cy) & (cy < size - rim)
    kept = ~(touches & ~inside)  # not the divider, the tile's edge, what lies beyond
    nominal = np.pi * (0.09 * size) ** 2
    small = area < 0.25 * nominal
    speck = kept & small & inside & (area >= 0.1 * nominal)  # may be a faint pip
    pip = kept & ~small
    row, col = _place(cy / size, how.tolerance), _place(cx / size, how.tolerance)
    odd = pip & (
        (area > 2.0 * nominal)  # two run together, glare, a shadow
        | (np.maximum(w, h) > 2.2 * np.minimum(w, h))
        | touches
        | (row < 0)  # off the grid
        | (col < 0)
    )
    doubt = np.zeros(len(live), bool)
    doubt[which[speck | odd]] = True
    fine = pip & ~odd
    places = np.zeros((len(live), 9), np.int32)
    np.add.at(places, (which[fine], (3 * row + col)[fine]), 1)
    doubt |= (places > 1).any(axis=1) | (places.sum(axis=1) == 0)  # two pips in one place; none
    bits = np.bitwise_or.reduce((places > 0) << np.arange(9), axis=1)
    values = _VALUE_OF[bits]
    if how.absent > 0:
        # every place of the grid with no pip must be plainly the body: a pip faded by glare or
        # blur leaves a smudge there, and the count one short
        r = max(1, int(round(0.06 * size)))
        at = np.asarray([int(a * size) for a in _AT])[:, None] + np.arange(-r, r + 1)  # (place, offset)
        # each place's pixels, as indices into a half's pixels: (row place, column place, dy, dx)
        window = (at[:, None, :, None] * size + at[None, :, None, :]).reshape(9, -1)
        nearby = far[live].reshape(len(live), -1)[:, window].max(axis=2)
        doubt |= ((places == 0) & (nearby > np.square(how.absent * contrast[live, None]))).any(axis=1)
    # more round pips than a half's grid holds, wherever they lie: a double-twelve set's 10 to 12
    # are smaller and fill no 3x3 grid, but nine or more round blobs of one size inside the half
    # are no 0-6 whatever the pattern (the count, up to 12, is the opinion, so that it disagrees
    # with any reading; fewer blobs off the grid may be a six's pips and a mark beside them)
    roundish = (
        kept
        & inside
        & ~touches
        & (area >= 0.1 * nominal)
        & (area <= 2.0 * nominal)
        & (np.maximum(w, h) <= 1.6 * np.minimum(w, h))
    )
    blobs = np.bincount(which[roundish], minlength=len(live))
    largest = np.zeros(len(live))
    smallest = np.full(len(live), np.inf)
    np.maximum.at(largest, which[roundish], area[roundish])
    np.minimum.at(smallest, which[roundish], area[roundish])
    crowded = (blobs >= max(MORE_THAN_SIX)) & (largest <= 2.0 * smallest)
    values = np.where(crowded, np.minimum(blobs, MOST_PIPS), values)
    doubt &= ~crowded
    for k, value, doubted in zip(live.tolist(), values.tolist(), doubt.tolist()):
        out[k] = None if doubted or value < 0 else value
    return out


#: a half read blank whose pip places stand out of their surroundings this much (`marks`,
#: opponent colours 0-255) shows marks where pips lie: pale or coloured pips the classifier may
#: take for a bare face (`Reader.count_pips`, `TileReading.blank_marked`). Chosen on real photos
#: made to look like other sets (`bench/other_looks.py`): pastel pips read blank lie at 32-109;
#: the bare halves of right sure tiles on those photos and on synthetic held-out, new-sets and
#: mixed photos under it, but for 3 of about 2,500 (CHANGELOG 2026-11-29)
MARKED = 30.0
#: the window (a share of the half's side) whose median is a pixel's surroundings in `marks`:
#: twice a pip across, so that a pip is never its own surroundings, while a shadow's or a
#: glare's slow change, or a tile's edge, is
MARKS_WINDOW = 0.4
#: how far round each of the 3x3 grid's places (a share of the side) `marks` looks: a pip lies
#: there, the divider, the tile's edge and what lies beyond it do not
MARKS_REACH = 0.13


def marks(halves: np.ndarray) -> np.ndarray:
    """(N,) for N rectified halves (N, S, S, 3) BGR, each the half alone: how far what lies on
    the places of the half's 3x3 pip grid stands out of its own surroundings (the median of a
    window `MARKS_WINDOW` wide), in either direction and whatever the colours (opponent colours,
    as `count_many` counts); the 95th percentile over those places, so one pip is enough. A bare
    face gives little however it is lit, a pip of any colour or paleness much."""
    n = len(halves)
    if n == 0:
        return np.zeros(0, np.float32)
    size = int(halves.shape[1])
    window = max(3, int(round(MARKS_WINDOW * size)) | 1)
    ys, xs = np.mgrid[0:size, 0:size] + 0.5
    places = np.zeros((size, size), bool)
    for a in _AT:
        for b in _AT:
            places |= (xs - a * size) ** 2 + (ys - b * size) ** 2 <= (MARKS_REACH * size) ** 2
    out = np.empty(n, np.float32)
    for k, half in enumerate(np.ascontiguousarray(halves, dtype=np.uint8)):
        around = cv2.medianBlur(half, window).astype(np.float32)
        apart = cv2.transform(half.astype(np.float32) - around, _OPPONENT)
        out[k] = np.sqrt(np.percentile(np.square(apart).sum(axis=2)[places], 95))
    return out


def count(half: np.ndarray, how: PipCount = PipCount()) -> int | None:
    """The value one rectified half's pips say (0..12), or None (`count_many`)."""
    return count_many(half[None], how)[0]


def short(quads: Sequence[np.ndarray], how: PipCount = PipCount()) -> np.ndarray:
    """Whether each half (4 corners around it, in the photo's pixels) is too small to count."""
    corners = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2).min(axis=1)
    return np.asarray(sides < how.least_side)


def opinion(image: np.ndarray, quad: np.ndarray, how: PipCount = PipCount()) -> int | None:
    """What the pips of the half inside `quad` (4 corners around it, in `image`'s pixels) say it
    holds, counted on the classifier's crop as the reader counts it, or None: a half shorter than
    `how.least_side`, or pips that do not say it plainly."""
    if short([quad], how)[0]:
        return None
    return count(rectify(image, np.asarray(quad, np.float32))[INNER, INNER], how)


#: halves no double-six set has, as a double-nine or double-twelve set lays out 7, 8 and 9 on the
#: same grid: counted, they disagree with any reading (0..6), so the tile is asked about, never
#: scored as the six (or five) the classifier may take it for
MORE_THAN_SIX: dict[int, tuple[frozenset[tuple[int, int]], ...]] = {
    7: tuple(way | {(1, 1)} for way in PATTERNS[6]),
    8: (frozenset((r, c) for r in range(3) for c in range(3)) - {(1, 1)},),
    9: (frozenset((r, c) for r in range(3) for c in range(3)),),
}

#: the most pips a half of any common set holds (a double-twelve's)
MOST_PIPS = 12

_AT = (0.25, 0.5, 0.75)
#: BGR -> (lightness, red - green, yellow - blue), rows for `cv2.transform`
_OPPONENT = np.asarray([[1 / 3, 1 / 3, 1 / 3], [0.0, -1.0, 1.0], [-1.0, 0.5, 0.5]], np.float32)
#: the value whose pattern the grid's places hold (bit 3 * row + column each), -1 for none
_VALUE_OF = np.full(512, -1, np.int64)
for _value, _ways in (PATTERNS | MORE_THAN_SIX).items():
    for _way in _ways:
        _VALUE_OF[sum(1 << (3 * r + c) for r, c in _way)] = _value


def _place(f: np.ndarray, tolerance: float) -> np.ndarray:
    """The grid row (or column) of each centre, a share of the half's side; -1 off the grid."""
    i = np.clip(np.rint((f - 0.25) / 0.25), 0, 2).astype(np.int64)
    return np.where(np.abs(f - np.asarray(_AT)[i]) <= tolerance, i, -1)
