"""A second, closer look at a photo whose tiles came out small.

The detector reads a photo at one long side (`obb.READ_SIDE`), so a layout photographed from
across the room, or far back in a steep shot, reaches it with tiles of 15-30 pixels, below what
it learnt (20-125 px): it misses some and boxes others across two tiles. When the first pass's
tiles are that small, the part of the photo they lie in is cut out, enlarged until its tiles
are about the size the detector reads best, and read again; that pass's boxes replace the
first's. The idea is slicing-aided inference (SAHI) cut down to the one region a domino layout
usually occupies, so it costs one more pass, and only on the photos that need it.

Pure functions round plain dataclasses; `look_again` is the only one that runs the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision.read.detector import ObbDetection, Voting


@dataclass(frozen=True, slots=True)
class Zoom:
    """When to look again, and how close.

    Chosen on synth-v11's validation photos, then measured on the held-out set and the real
    photos (models/README.md, "A second look at small tiles").
    """

    #: look again when the first pass's median box is shorter than this, in the detector's input
    #: pixels. The real board's tiles come out just above it and read best as they are; closer,
    #: the detector also boxes more of its printed score track and follows new tiles worse.
    small: float = 45.0
    #: enlarge until the median box is this long in the detector's input...
    target: float = 55.0
    #: ...but never more than this many times the photo's own pixels
    most: float = 2.5
    #: the region round the boxes, in median box lengths (room for a tile the first pass missed)
    margin: float = 0.5
    #: skip the second pass unless it sees the tiles at least this much larger than the first
    least_gain: float = 1.2


@dataclass(frozen=True, slots=True)
class Region:
    """The part of the photo read again (photo pixels, x1 and y1 excluded) and its enlargement."""

    x0: int
    y0: int
    x1: int
    y1: int
    scale: float


class Detector(Protocol):
    def first_scale(self, height: int, width: int) -> float: ...

    @property
    def side(self) -> int: ...

    def predict(
        self,
        image: np.ndarray,
        conf: float = 0.25,
        iou: float = 0.5,
        max_det: int = 300,
        voting: Voting | None = None,
        enlarge: float | None = None,
    ) -> list[ObbDetection]: ...


def region(
    boxes: Sequence[ObbDetection], height: int, width: int, first_scale: float, side: int, zoom: Zoom
) -> Region | None:
    """Where and how much to look again, or None when the first pass saw the tiles large enough
    (or saw none). `first_scale`: photo pixels to the detector's input in the first pass;
    `side`: the long side the detector reads at."""
    if not boxes or first_scale >= 1:
        # a photo the first pass did not shrink has shown it every pixel it has: enlarging it
        # further shows nothing new (on 100 x 100 single-tile crops, read at twice their size
        # already, a second look lost 6 of 21 tiles)
        return None
    lengths = np.asarray([max(b.size) for b in boxes], dtype=np.float64)
    median = float(np.median(lengths))
    if median * first_scale >= zoom.small:
        return None
    corners = np.concatenate([b.corners() for b in boxes])
    room = zoom.margin * median
    x0, y0 = np.maximum(corners.min(axis=0) - room, 0).astype(int)
    x1, y1 = np.minimum(corners.max(axis=0) + room, [width, height]).astype(int)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    scale = min(side / max(x1 - x0, y1 - y0), zoom.most, zoom.target / median)
    if scale < zoom.least_gain * first_scale:
        return None
    return Region(int(x0), int(y0), int(x1), int(y1), float(scale))


def from_region(boxes: Sequence[ObbDetection], where: Region, sx: float, sy: float) -> list[ObbDetection]:
    """Boxes found in the enlarged region, moved back to the photo's own pixels."""
    return [
        ObbDetection(
            cls=b.cls,
            confidence=b.confidence,
            center=(b.center[0] / sx + where.x0, b.center[1] / sy + where.y0),
            size=(b.size[0] / sx, b.size[1] / sy),
            angle=b.angle,
            scores=b.scores,
        )
        for b in boxes
    ]


def look_again(
    detector: Detector,
    image: np.ndarray,
    boxes: list[ObbDetection],
    zoom: Zoom,
    conf: float,
    iou: float,
    voting: Voting | None,
) -> tuple[list[ObbDetection], Region | None]:
    """The first pass's boxes, or, where its tiles were small, the closer pass's instead."""
    height, width = image.shape[:2]
    where = region(boxes, height, width, detector.first_scale(height, width), detector.side, zoom)
    if where is None:
        return boxes, None
    crop = image[where.y0 : where.y1, where.x0 : where.x1]
    size = (max(1, round(crop.shape[1] * where.scale)), max(1, round(crop.shape[0] * where.scale)))
    enlarged = cv2.resize(crop, size, interpolation=cv2.INTER_LINEAR)
    # enlarged already: the detector only pads it (its own enlargement would double the zoom)
    closer = detector.predict(enlarged, conf=conf, iou=iou, voting=voting, enlarge=1.0)
    return from_region(closer, where, size[0] / crop.shape[1], size[1] / crop.shape[0]), where


@dataclass(frozen=True, slots=True)
class Widen:
    """The opposite of `Zoom`: when to look again at a photo whose tiles came out too large.

    A close-up (one to four tiles filling the photo) reaches the detector with tiles of 300-900
    pixels, several times what it learnt (20-125 px at 640), and it finds none, or boxes one half.
    The photo is then shrunk until its tiles are a size it knows, padded with the grey of its
    letterbox (`detector.letterbox`), and read again. Where the first pass found nothing there is
    no size to go by: the photo is read at each long side of `ladder` (a tile filling the frame
    is then about 128 px, two filling it 96 px at 192, four 96 px at 384), and the pass whose
    boxes are surest overall kept.
    """

    #: look again when the first pass's median box is longer than this, in the detector's input
    large: float = 220.0
    #: shrink until the median box is this long in the detector's input
    target: float = 100.0
    #: with nothing found, the long sides (detector input pixels) the photo is read at in turn
    ladder: tuple[int, ...] = (384, 192, 128)
    #: a first pass of this many boxes or fewer whose median box is longer than `doubtful` is
    #: looked at again too, at the target and at half of it (a close-up's first pass often boxes
    #: a half or a piece of a tile cut by the frame), and kept only if no wider pass is surer
    few: int = 4
    doubtful: float = 120.0


def widen_scales(
    boxes: Sequence[ObbDetection], height: int, width: int, first_scale: float, widen: Widen
) -> list[float]:
    """The scales (photo pixels to detector input) to read the photo again at: none where the
    first pass saw tiles of a size the detector knows."""
    long = max(height, width)
    if not boxes:
        # only sizes smaller than the first pass's: a photo it saw at that size or less has
        # shown every tile it could
        return [side / long for side in widen.ladder if side / long < 0.8 * first_scale]
    median = float(np.median([max(b.size) for b in boxes]))
    if median * first_scale > widen.large:
        return [widen.target / median]
    if len(boxes) <= widen.few and median * first_scale > widen.doubtful:
        return [widen.target / median, widen.target / (2 * median)]
    return []


def look_wider(
    detector: Detector,
    image: np.ndarray,
    boxes: list[ObbDetection],
    widen: Widen,
    conf: float,
    iou: float,
    voting: Voting | None,
) -> tuple[list[ObbDetection], float | None]:
    """The first pass's boxes, or, where it found none or found them too large, the boxes of the
    photo read again shrunk (and the scale it was read at; None when it was not)."""
    height, width = image.shape[:2]
    first_scale = detector.first_scale(height, width)
    best: tuple[float, list[ObbDetection], float] | None = None
    if boxes and float(np.median([max(b.size) for b in boxes])) * first_scale <= widen.large:
        # a doubtful first pass competes with the wider ones: kept where none is surer
        best = (sum(b.confidence for b in boxes), boxes, first_scale)
    for scale in widen_scales(boxes, height, width, first_scale, widen):
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        # shrunk already: the detector pads it into its canvas, never enlarges it back
        found = detector.predict(small, conf=conf, iou=iou, voting=voting, enlarge=1.0)
        if not found:
            continue
        moved = from_region(found, Region(0, 0, width, height, scale), size[0] / width, size[1] / height)
        surety = sum(b.confidence for b in found)
        if best is None or surety > best[0]:
            best = (surety, moved, scale)
    if best is None or best[1] is boxes:
        return boxes, None
    return best[1], best[2]
