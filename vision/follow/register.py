"""How the camera moved between two photos of one table, from the tiles read in both.

A phone held in the hand moves between the photos it takes: a few pixels, a degree, a little
nearer or farther. The follower knows the layout's tiles by where they were last seen; before a
new photo is compared with them, those places are carried into the new photo's pixels. The motion
is a similarity (shift, turn, scale) fitted with RANSAC (`cv2.estimateAffinePartial2D`) to the
tiles read in both photos as the same tile (a set holds each tile once): their centres, and the
centres of their halves told apart by their values. A tile moved on the table, or misread as
another, is an outlier. Where too few tiles agree, or the motion is not one a hand makes between
two photos (turned or scaled too far), the motion is not known (`None`), and the follower compares
the photo as it is (a layout that left its places is asked about).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.geometry import long_side
from vision.geometry import short_side as box_short_side
from vision.read.reading import Reading, TileReading

#: tiles read less sure than this are not used to follow the camera
SURE = 0.3
#: a point fits the motion when it lies within this many short sides of where the motion takes it
FIT = 0.3
#: the most a hand turns the phone between two photos (degrees) and changes its scale (share)
MOST_TURN = 20.0
MOST_SCALE = 0.2
#: a motion that moves no tile by more than this many short sides (and not over `STILL_PX`) is no
#: motion: the reader's boxes shift that much from photo to photo, and the photo is compared as is
STILL = 0.1
STILL_PX = 1.5
#: the most a phone re-framed turns the picture and changes its scale (`camera_motion`'s
#: `most_turn`, `most_scale`), where a person has said the layout is as recorded
REFRAME_TURN = 180.0
REFRAME_SCALE = 0.6
#: a re-frame is followed with no question where at least this many tiles read in both photos,
#: and this share of them, agree with it (tiles are each read once in a set: three that agree
#: on one motion are no chance)
REFRAME_AGREEING = 3
REFRAME_SHARE = 0.8
#: with a single tile in both photos the motion rests on it alone: it must not have moved farther
#: than this many of its long sides
ONE_TILE_REACH = 1.0


def _points(tile: TileReading, other: TileReading) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Pairs of points of one tile in two photos: the centres, and each half's centre, the halves
    told apart by their values (a double's: the pairing that turns the tile least)."""
    pairs = [(tile.center, other.center)]
    a, b = tile.halves, other.halves
    if {a[0].value, a[1].value} != {b[0].value, b[1].value}:
        return pairs
    if a[0].value != a[1].value:
        for half in a:
            match = b[0] if b[0].value == half.value else b[1]
            pairs.append((half.center, match.center))
        return pairs
    ca, cb = np.asarray(tile.center), np.asarray(other.center)
    mine, theirs = [np.asarray(h.center) - ca for h in a], [np.asarray(h.center) - cb for h in b]
    crossed = np.linalg.norm(mine[0] - theirs[1]) < np.linalg.norm(mine[0] - theirs[0])
    pairs.append((a[0].center, b[1 if crossed else 0].center))
    pairs.append((a[1].center, b[0 if crossed else 1].center))
    return pairs


def camera_motion(
    before: Sequence[TileReading],
    after: Sequence[TileReading],
    most_turn: float = MOST_TURN,
    most_scale: float = MOST_SCALE,
    min_agreeing: int = 2,
    min_share: float = 0.5,
) -> np.ndarray | None:
    """The camera's motion from the photo `before`'s tiles were read in to `after`'s: a 2x3
    matrix taking `before`'s pixels to `after`'s (the identity where the camera held still);
    None where the tiles read in both cannot say with confidence. `most_turn` and `most_scale`:
    the most the motion may turn and scale (a phone put down and picked up again, where a person
    said the layout is as recorded, turns and scales more than a hand between two photos).
    `min_agreeing`, `min_share`: how many of the tiles read in both, and what share of them, must
    agree with the motion (two and half, between two photos of a hand-held phone)."""
    mine = {t.tile: t for t in before if t.confidence >= SURE}
    counts: dict[object, int] = {}
    for t in after:
        counts[t.tile] = counts.get(t.tile, 0) + 1
    theirs = {t.tile: t for t in after if t.confidence >= SURE and counts[t.tile] == 1}
    shared = [tile for tile in mine if tile in theirs]
    if not shared:
        return None
    pairs, owner = [], []
    for k, tile in enumerate(shared):
        for pair in _points(mine[tile], theirs[tile]):
            pairs.append(pair)
            owner.append(k)
    src = np.asarray([p for p, _ in pairs], np.float32)
    dst = np.asarray([q for _, q in pairs], np.float32)
    side = float(np.median([box_short_side(theirs[t].corners) for t in shared]))
    if len(shared) == 1:
        tile = shared[0]
        if len(pairs) < 3:  # a double alone: its centre gives a shift and no check
            return None
        reach = float(np.linalg.norm(src[0] - dst[0]))
        if reach > ONE_TILE_REACH * long_side(np.asarray(theirs[tile].corners, np.float32)):
            return None
        matrix, _ = cv2.estimateAffinePartial2D(src, dst, method=cv2.LMEDS)
        inliers = None
    else:
        matrix, inliers = cv2.estimateAffinePartial2D(
            src, dst, method=cv2.RANSAC, ransacReprojThreshold=FIT * side, maxIters=500, confidence=0.995
        )
    if matrix is None:
        return None
    moved = src @ matrix[:, :2].T + matrix[:, 2]
    fits = np.linalg.norm(moved - dst, axis=1) <= FIT * side
    if inliers is not None:
        fits &= inliers.ravel().astype(bool)
    # a tile agrees when its centre fits; with one tile, all its points must
    first: dict[int, int] = {}
    for k, o in enumerate(owner):
        first.setdefault(o, k)
    agreeing = {o for o, k in first.items() if fits[k]}
    if len(shared) == 1:
        if not fits.all():
            return None
    elif len(agreeing) < min_agreeing or len(agreeing) < min_share * len(shared):
        return None
    scale = float(np.hypot(matrix[0, 0], matrix[1, 0]))
    turn = abs(float(np.degrees(np.arctan2(matrix[1, 0], matrix[0, 0]))))
    if abs(scale - 1.0) > most_scale or turn > most_turn:
        return None
    centres = np.asarray([mine[t].center for t in shared], np.float32)
    shifts = np.linalg.norm(centres @ matrix[:, :2].T + matrix[:, 2] - centres, axis=1)
    if float(shifts.max()) <= max(STILL_PX, STILL * side):
        return np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    return np.asarray(matrix, np.float64)


def is_still(matrix: np.ndarray) -> bool:
    return bool(np.allclose(matrix, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))


def _at(point: tuple[float, float], matrix: np.ndarray) -> tuple[float, float]:
    x, y = point
    return (
        float(matrix[0, 0] * x + matrix[0, 1] * y + matrix[0, 2]),
        float(matrix[1, 0] * x + matrix[1, 1] * y + matrix[1, 2]),
    )


def moved_tile(tile: TileReading, matrix: np.ndarray) -> TileReading:
    """`tile` as the camera moved by `matrix` sees it."""
    halves = tuple(
        replace(h, center=_at(h.center, matrix), corners=tuple(_at(c, matrix) for c in h.corners)) for h in tile.halves
    )
    return replace(
        tile,
        center=_at(tile.center, matrix),
        corners=tuple(_at(c, matrix) for c in tile.corners),
        halves=halves,  # type: ignore[arg-type]
    )


def moved_reading(reading: Reading, matrix: np.ndarray) -> Reading:
    """`reading`'s tiles as the camera moved by `matrix` sees them (what else it holds as it was)."""
    return replace(reading, tiles=tuple(moved_tile(t, matrix) for t in reading.tiles))
