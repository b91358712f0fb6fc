"""A second opinion on a half's value that learns nothing: its pips counted.

The half classifier reads a half by its learnt appearance, and on a set it never saw (coloured
pips, black tiles, other pip shapes, other light) it can be sure and wrong. Pips have one thing
every set shares: where they lie. Here a half, rectified from the photo's pixels, is split into
its body and what stands out from it in colour, in either direction (dark pips on ivory, white
pips on black, coloured pips: the distance from the body's median colour, not darkness); the
blobs of pip size are counted, and the places of a half's 3x3 grid they cover matched to a
value's pattern. The opinion is a value only where both ways agree and the half is large and
clear enough; otherwise None (it cannot tell).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.crops import expand

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

    #: the side of the square a half is rectified to (its own pixels, no margin)
    size: int = 48
    #: a half shorter than this (its side, in the photo's pixels) is not counted: its pips are a
    #: pixel or two across
    least_side: float = 16.0
    #: a half whose colours stray less than this from its body's (Lab, chroma weighted twice) is
    #: blank; between this and `least_contrast` it may be blank or blurred: no opinion
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


def rectify_half(image: np.ndarray, quad: np.ndarray, size: int) -> np.ndarray:
    """The half inside `quad` as a size x size BGR image, no margin (`crops.rectify` adds one)."""
    src = expand(quad, 0.0).astype(np.float32)
    dst = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def count(half: np.ndarray, how: PipCount = PipCount()) -> int | None:
    """The value a rectified half's pips say (0..6), or None where they do not say it plainly."""
    size = half.shape[0]
    # opponent colours (lightness, red-green, yellow-blue): Lab's work at a tenth of its cost
    colours = cv2.transform(half.astype(np.float32), _OPPONENT)
    rim = max(2, int(round(0.1 * size)))
    # the body's colour: the median of the half within its rim (every other pixel is enough)
    body = np.median(colours[rim : size - rim : 2, rim : size - rim : 2].reshape(-1, 3), axis=0)
    # how far each pixel strays from the body's colour, in either direction and whatever the
    # colours: dark pips on ivory, white on black, a yellow pip on cream hardly darker, only yellower
    far = np.sqrt(np.square(colours - body) @ np.asarray(how.weights, np.float32))
    spread = far[rim : size - rim, rim : size - rim].ravel()
    top = int(0.99 * (len(spread) - 1))
    contrast = float(np.partition(spread, top)[top])
    if contrast < how.least_contrast:
        return 0 if contrast < how.blank_below else None
    mask = (far > how.ratio * contrast).astype(np.uint8)
    n, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    nominal = np.pi * (0.09 * size) ** 2
    places: set[tuple[int, int]] = set()
    for (x, y, w, h, area), (cx, cy) in zip(stats[1:].tolist(), centroids[1:].tolist()):
        touches = x == 0 or y == 0 or x + w == size or y + h == size
        inside = rim <= cx < size - rim and rim <= cy < size - rim
        if touches and not inside:
            continue  # the divider, the tile's edge, what lies beyond
        if area < 0.25 * nominal:
            if inside and area >= 0.1 * nominal:
                return None  # a speck that may be a faint pip
            continue
        if area > 2.0 * nominal or max(w, h) > 2.2 * min(w, h) or touches:
            return None  # a blob no pip makes: two run together, glare, a shadow
        row, col = _place(cy / size, how.tolerance), _place(cx / size, how.tolerance)
        if row is None or col is None or (row, col) in places:
            return None  # off the grid, or two pips in one place
        places.add((row, col))
    if not places:
        return None  # contrast, but nothing of a pip's size: a blank half says so by its lack of it
    value = next((v for v, ways in PATTERNS.items() if frozenset(places) in ways), None)
    if value is None or how.absent <= 0:
        return value
    # every place of the grid with no pip must be plainly the body: a pip faded by glare or blur
    # leaves a smudge there, and the count one short
    r = max(1, int(round(0.06 * size)))
    nearby = cv2.dilate(far, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    for row in range(3):
        for col in range(3):
            if (row, col) not in places and nearby[int(_AT[row] * size), int(_AT[col] * size)] > how.absent * contrast:
                return None
    return value


_AT = (0.25, 0.5, 0.75)
#: BGR -> (lightness, red - green, yellow - blue), rows for `cv2.transform`
_OPPONENT = np.asarray([[1 / 3, 1 / 3, 1 / 3], [0.0, -1.0, 1.0], [-1.0, 0.5, 0.5]], np.float32)


def _place(f: float, tolerance: float) -> int | None:
    for i, at in enumerate(_AT):
        if abs(f - at) <= tolerance:
            return i
    return None


def opinion(image: np.ndarray, quad: np.ndarray, how: PipCount = PipCount()) -> int | None:
    """What the pips of the half inside `quad` (4 corners around it, in `image`'s pixels) say it
    holds, or None: a half shorter than `how.least_side`, or pips that do not say it plainly."""
    corners = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    side = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).min())
    if side < how.least_side:
        return None
    return count(rectify_half(image, corners, how.size), how)
