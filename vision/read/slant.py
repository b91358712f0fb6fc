"""A second look at a photo taken at a slant: the table turned to face the camera.

A phone held low over the table sees it at 50-70 degrees from straight down: the tiles come out
foreshortened (a 2:1 face 1:1 or 4:1 by its direction), far ones small and near ones large, and
the detector, which learnt views up to about 45 degrees, misses some and reads others wrong.
Every tile is the same 2:1 rectangle on one plane, so the first pass's boxes say how the camera
looked at the table: the camera turn that makes them all 2:1 and all one size is the view. The
photo is then warped as if the camera had been turned to look straight down (the homography
K R K^-1 of a camera rotated about its centre), read again, and the tiles found there are moved
back to the photo's own pixels. The same turn undoes most of a photo squashed along one axis.

The view is found by search, not by solving for it: a grid of tilts, tilt directions and focal
lengths (the photo's own is unknown: a phone's wide lens is 0.7-1.3 of the long side), scored
on every sure box at once. The boxes are rectangles fitted to each tile's foreshortened
outline, so the fit is a robust average (medians), not an exact one, and the view found from
them falls short of a steep one; the turned photo's boxes, carried back, are the tiles' own
outlines, and the view told again from them is the closer (`square_again`).

Pure functions round plain dataclasses; the reader (`vision.read.reader`) runs the model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.detector import ObbDetection


@dataclass(frozen=True, slots=True)
class Slant:
    """When a photo is read again turned to face the camera, and how the view is searched for.

    Chosen on the styles benchmark (docs/styles.md, "A steep view"); `spinner read|eval
    --no-slant` reads without it.
    """

    #: turn the photo only when the view found is at least this far from straight down (degrees):
    #: the detector learnt views up to 46 degrees, and a turn costs a second read
    least_tilt: float = 30.0
    #: ...and only when the boxes are at least this long in the detector's input (the least it
    #: learnt): a smaller box's outline is too few pixels to say how the tile is foreshortened
    #: (on the styles benchmark's far photos a view 30-60 degrees off was found in 20 % of them)
    least_length: float = 20.0
    #: the tilts searched, degrees from straight down
    most_tilt: float = 75.0
    tilt_step: float = 2.5
    #: the directions searched (degrees in the photo; 0 is +x), over the whole turn: the far side
    #: of the table is told from the near one by its smaller tiles
    direction_step: float = 10.0
    #: focal lengths searched, in the photo's long sides
    focals: tuple[float, ...] = (0.75, 1.0, 1.3)
    #: how much one size for every tile counts against 2:1 for every tile
    size_weight: float = 1.0
    #: boxes at least this sure are the evidence, and at least this many of them
    sure: float = 0.3
    least_boxes: int = 3
    #: at most this many boxes (the surest) are scored
    most_boxes: int = 40
    #: room round the boxes in the turned photo, in median tile lengths
    margin: float = 1.5
    #: the turned photo is at most this many times the photo's pixels (else not turned)
    most_pixels: float = 4.0
    #: the view told again from the turned photo's boxes is taken where it is this many degrees
    #: from the first (a third read); None: never told again
    again: float | None = 5.0


@dataclass(frozen=True, slots=True)
class View:
    """How the camera looked at the table: tilted `tilt` radians from straight down towards
    `direction` (radians in the photo), with a focal length of `focal` pixels; `cost` is how far
    the boxes turned by it are from one 2:1 tile (0: exactly)."""

    tilt: float
    direction: float
    focal: float
    cost: float


@dataclass(frozen=True, slots=True)
class Facing:
    """The photo turned to face the camera: `matrix` (3x3) takes photo pixels to the turned
    photo's, which is `size` (width, height) pixels."""

    matrix: np.ndarray
    size: tuple[int, int]

    def back(self, points: np.ndarray) -> np.ndarray:
        """Points (n, 2) of the turned photo in the photo's own pixels."""
        moved = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), np.linalg.inv(self.matrix))
        return moved.reshape(-1, 2)


def _turns(tilts: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """Rotations (n, 3, 3) turning a camera by each tilt about the axis across each direction."""
    axes = np.stack([-np.sin(directions), np.cos(directions), np.zeros_like(directions)], axis=1)
    k = np.zeros((len(tilts), 3, 3))
    k[:, 0, 1], k[:, 0, 2], k[:, 1, 2] = -axes[:, 2], axes[:, 1], -axes[:, 0]
    k[:, 1, 0], k[:, 2, 0], k[:, 2, 1] = axes[:, 2], -axes[:, 1], axes[:, 0]
    s, c = np.sin(tilts)[:, None, None], np.cos(tilts)[:, None, None]
    return np.eye(3) + s * k + (1 - c) * (k @ k)  # Rodrigues' formula


def _intrinsics(focal: float, width: int, height: int) -> np.ndarray:
    return np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1.0]])


def _around(
    tilt: float, direction: float, tilt_step: float, direction_step: float, most_tilt: float, steps: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every (tilt, direction) pair within `steps` steps of the given one (radians in and out)."""
    offsets = np.arange(-steps, steps + 1)
    tilts = np.clip(tilt + np.radians(tilt_step) * offsets, 0.0, np.radians(most_tilt))
    directions = direction + np.radians(direction_step) * offsets
    t, d = np.meshgrid(np.unique(tilts), directions, indexing="ij")
    return t.ravel(), d.ravel()


def tile_cost(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far tiles (..., n, 4, 2) are from one 2:1 rectangle of one size: the median of each
    tile's log aspect against 2, and the median of each tile's log length against their median.
    Each of shape (...)."""
    edges = np.linalg.norm(np.roll(quads, -1, axis=-2) - quads, axis=-1)
    one, other = edges[..., 0] + edges[..., 2], edges[..., 1] + edges[..., 3]
    long, short = np.maximum(one, other), np.maximum(np.minimum(one, other), 1e-9)
    aspect = np.median(np.abs(np.log(long / short / 2)), axis=-1)
    size = np.median(np.abs(np.log(long / np.median(long, axis=-1, keepdims=True))), axis=-1)
    return aspect, size


def _best(rays: np.ndarray, tilts: np.ndarray, directions: np.ndarray, size_weight: float) -> tuple[int, float]:
    """Which of the (tilt, direction) pairs turns the rays (n, 4, 3) of the boxes' corners into
    one 2:1 tile best, and its cost."""
    n = rays.shape[0]
    turned = (rays.reshape(1, -1, 3) @ _turns(tilts, directions).transpose(0, 2, 1)).reshape(len(tilts), n, 4, 3)
    depth = turned[..., 2]
    behind = (depth <= 1e-6).any(axis=(1, 2))  # a tile turned behind the camera: no such view
    quads = turned[..., :2] / np.where(depth > 1e-6, depth, 1.0)[..., None]
    aspect, size = tile_cost(quads)
    cost = np.where(behind, np.inf, aspect + size_weight * size)
    at = int(np.argmin(cost))
    return at, float(cost[at])


def outlines(boxes: Sequence[ObbDetection], slant: Slant) -> np.ndarray:
    """The corners (n, 4, 2) of the surest boxes (at most `Slant.most_boxes`): the evidence."""
    sure = sorted((b for b in boxes if b.confidence >= slant.sure), key=lambda b: -b.confidence)[: slant.most_boxes]
    return np.asarray([b.corners() for b in sure], np.float64).reshape(-1, 4, 2)


def _long(quads: np.ndarray) -> np.ndarray:
    edges = np.linalg.norm(np.roll(quads, -1, axis=-2) - quads, axis=-1)
    return np.maximum(edges[..., 0] + edges[..., 2], edges[..., 1] + edges[..., 3]) / 2


def find_view(tiles: np.ndarray, width: int, height: int, slant: Slant) -> View | None:
    """The view that turns the tiles' outlines (n, 4, 2) into one 2:1 tile best, or None with
    fewer than `Slant.least_boxes` of them.

    Searched coarse to fine: every third tilt and direction step first, then every step round
    the best of those (the cost falls smoothly towards the view: one basin, not many)."""
    if len(tiles) < slant.least_boxes:
        return None
    points = np.concatenate([tiles, np.ones(tiles.shape[:2] + (1,))], axis=-1)
    coarse = (3 * slant.tilt_step, 3 * slant.direction_step)
    tilts = np.radians(np.arange(0, slant.most_tilt + 1e-9, coarse[0]))
    directions = np.radians(np.arange(0, 360, coarse[1]))
    t, d = np.meshgrid(tilts[1:], directions, indexing="ij")
    grid = np.concatenate([[0.0], t.ravel()]), np.concatenate([[0.0], d.ravel()])

    def rays(share: float) -> np.ndarray:
        return points @ np.linalg.inv(_intrinsics(share * max(width, height), width, height)).T

    # coarse at the middle focal length; the focal length is told apart only near the view
    at, _ = _best(rays(slant.focals[len(slant.focals) // 2]), *grid, slant.size_weight)
    fine = _around(grid[0][at], grid[1][at], slant.tilt_step, slant.direction_step, slant.most_tilt, 2)
    best: View | None = None
    for share in slant.focals:
        at, cost = _best(rays(share), *fine, slant.size_weight)
        if best is None or cost < best.cost:
            best = View(float(fine[0][at]), float(fine[1][at] % (2 * np.pi)), share * max(width, height), cost)
    return best


def facing(view: View, tiles: np.ndarray, width: int, height: int, slant: Slant) -> Facing | None:
    """The turn that makes the photo face the camera, scaled so the tiles (outlines (n, 4, 2))
    keep their median length and cut to their region (with `Slant.margin` of room) inside the
    turned photo; None where that region would be larger than `Slant.most_pixels` photos."""
    camera = _intrinsics(view.focal, width, height)
    turn = _turns(np.array([view.tilt]), np.array([view.direction]))[0]
    matrix = camera @ turn @ np.linalg.inv(camera)
    turned = cv2.perspectiveTransform(tiles.reshape(-1, 1, 2), matrix).reshape(-1, 4, 2)
    long = float(np.median(_long(tiles)))
    scale = long / max(float(np.median(_long(turned))), 1e-9)
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64).reshape(-1, 1, 2)
    # the photo's own frame, turned: a photo tilted past its horizon has none, and is not turned
    framed = cv2.perspectiveTransform(frame, matrix).reshape(-1, 2) * scale
    room = slant.margin * long
    low = np.maximum(turned.reshape(-1, 2).min(axis=0) * scale - room, framed.min(axis=0))
    high = np.minimum(turned.reshape(-1, 2).max(axis=0) * scale + room, framed.max(axis=0))
    size = (math.ceil(high[0] - low[0]), math.ceil(high[1] - low[1]))
    if min(size) < 2 or size[0] * size[1] > slant.most_pixels * width * height:
        return None
    place = np.array([[scale, 0, -low[0]], [0, scale, -low[1]], [0, 0, 1.0]])
    return Facing(place @ matrix, (int(size[0]), int(size[1])))


def square_on(
    boxes: Sequence[ObbDetection], width: int, height: int, slant: Slant, scale: float = 1.0
) -> tuple[View | None, Facing | None]:
    """The view the boxes show, and the turn to read the photo again at; no turn where the view
    is near enough to straight down, or cannot be told (`scale`: photo pixels to the detector's
    input, which the boxes' length is held to)."""
    tiles = outlines(boxes, slant)
    if not len(tiles) or float(np.median(_long(tiles))) * scale < slant.least_length:
        return None, None
    view = find_view(tiles, width, height, slant)
    if view is None or math.degrees(view.tilt) < slant.least_tilt:
        return view, None
    return view, facing(view, tiles, width, height, slant)


def square_again(
    turned: Sequence[ObbDetection], first: Facing, view: View, width: int, height: int, slant: Slant
) -> tuple[View | None, Facing | None]:
    """The view told again from the boxes of the turned photo, and a turn of its own where it is
    `Slant.again` degrees or more from the first. The first view is found from rectangles round
    foreshortened tiles, which take in more than the tile across its short side; the boxes of the
    turned photo, carried back to the photo, are the tiles' own foreshortened outlines."""
    tiles = outlines(turned, slant)
    if len(tiles) < slant.least_boxes:
        return None, None
    back = first.back(tiles.reshape(-1, 2)).reshape(-1, 4, 2)
    again = find_view(back, width, height, slant)
    if again is None or slant.again is None or abs(math.degrees(again.tilt - view.tilt)) < slant.again:
        return again, None
    return again, facing(again, back, width, height, slant)


def turn_photo(image: np.ndarray, facing: Facing) -> np.ndarray:
    """The photo turned to face the camera (grey where the photo shows nothing, as a letterbox)."""
    return cv2.warpPerspective(image, facing.matrix, facing.size, flags=cv2.INTER_LINEAR, borderValue=(114, 114, 114))
