"""A second, closer look at a photo whose tiles came out small.

The detector reads a photo at one long side (`obb.READ_SIDE`), so a layout photographed from
across the room, or far back in a steep shot, reaches it with tiles of 15-30 pixels, below what
it learnt (20-125 px): it misses some and boxes others across two tiles. When the first pass's
tiles are that small, the part of the photo they lie in is cut out, enlarged until its tiles
are about the size the detector reads best, and read again; that pass's boxes replace the
first's, but for the tiles it did not see at all and the printed pictures the first pass,
seeing them with the board round them, told from tiles. The idea is slicing-aided inference
(SAHI) cut down to the one region a domino layout usually occupies: that region, enlarged, is
read in as few overlapping windows of the detector's input as reach the target size (at most
`Zoom.windows`), and only on the photos that need it.

Pure functions round plain dataclasses; `look_again` is the only one that runs the model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np

from vision.read.detector import ObbDetection, Voting, fast_nms, probiou


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
    #: the enlarged region is read in at most this many windows of the detector's side, so a
    #: region wider than one window is still enlarged towards `target` (1: one window, the
    #: region shrunk to fit it, which left a spread-out layout's tiles nearly as small as before)
    windows: int = 4
    #: neighbouring windows share this much, in median box lengths: a tile cut by one window's
    #: edge lies whole in the next, and only that whole box is kept
    overlap: float = 1.5
    #: a first-pass box that no closer box overlaps by this much (probabilistic IoU; touching
    #: tiles overlap about 0.12) is kept beside the closer look's: a tile it did not see at all
    #: (blurred or noisy tiles, enlarged, are sometimes lost). A first-pass box across two tiles
    #: overlaps the closer boxes of both and goes. None: the closer look's boxes alone.
    missed: float | None = 0.1


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
    scale = _fitted(min(zoom.most, zoom.target / median), x1 - x0, y1 - y0, side, zoom.overlap * median, zoom.windows)
    if scale < zoom.least_gain * first_scale:
        return None
    return Region(int(x0), int(y0), int(x1), int(y1), float(scale))


def _fitted(scale: float, width: float, height: float, side: int, overlap: float, windows: int) -> float:
    """The largest scale, at most `scale`, at which a region of `width` x `height` photo pixels
    is covered by at most `windows` windows of `side`, neighbours sharing `overlap` photo pixels
    (each scaled with the region). n windows in a row cover n side - (n - 1) overlap scale, so
    along that axis the scale is at most n side / (extent + (n - 1) overlap)."""
    best = 0.0
    for across in range(1, windows + 1):
        down = windows // across
        fits = min(side * across / (width + (across - 1) * overlap), side * down / (height + (down - 1) * overlap))
        best = max(best, min(scale, fits))
    return best


def window_starts(extent: int, side: int, overlap: float) -> list[int]:
    """Where the windows of `side` start along an axis of `extent` enlarged pixels: as few as
    cover it with neighbours sharing at least `overlap`, spread evenly from one end to the other."""
    if extent <= side:
        return [0]
    count = math.ceil((extent - overlap) / max(side - overlap, 1.0))
    count = max(count, 2)
    step = (extent - side) / (count - 1)
    return [round(i * step) for i in range(count)]


def _cut(box: ObbDetection, x: int, y: int, width: int, height: int, whole: tuple[int, int], margin: float) -> bool:
    """Whether a box found in the window at (x, y) of `width` x `height` touches one of its edges
    that lies inside the enlarged region (`whole`: its width and height): the tile runs on into
    the next window, which sees it whole."""
    corners = box.corners()
    return bool(
        (x > 0 and corners[:, 0].min() < margin)
        or (y > 0 and corners[:, 1].min() < margin)
        or (x + width < whole[0] and corners[:, 0].max() > width - margin)
        or (y + height < whole[1] and corners[:, 1].max() > height - margin)
    )


#: how near a window's inner edge (enlarged pixels) a box may come before it counts as cut there
CUT_MARGIN = 2.0


def read_windows(
    detector: Detector, enlarged: np.ndarray, overlap: float, conf: float, iou: float, voting: Voting | None
) -> list[ObbDetection]:
    """The enlarged region read window by window: each box in the region's pixels, a box cut by
    an inner window edge left to the window that sees it whole, and boxes found twice where
    windows overlap kept once (NMS per class, as within one window)."""
    height, width = enlarged.shape[:2]
    side = detector.side
    rows, columns = window_starts(height, side, overlap), window_starts(width, side, overlap)
    found: list[ObbDetection] = []
    for y in rows:
        for x in columns:
            window = enlarged[y : y + side, x : x + side]
            h, w = window.shape[:2]
            # enlarged already: the detector only pads it (its own enlargement would double the zoom)
            for box in detector.predict(window, conf=conf, iou=iou, voting=voting, enlarge=1.0):
                if not _cut(box, x, y, w, h, (width, height), CUT_MARGIN):
                    found.append(replace(box, center=(box.center[0] + x, box.center[1] + y)))
    if len(rows) * len(columns) == 1:
        return found
    kept: list[ObbDetection] = []
    for cls in sorted({b.cls for b in found}):
        same = [b for b in found if b.cls == cls]
        xywhr = np.asarray([[*b.center, *b.size, b.angle] for b in same], np.float64)
        kept += [same[i] for i in fast_nms(xywhr, np.asarray([b.confidence for b in same]), iou)]
    kept.sort(key=lambda d: -d.confidence)
    return kept


def keep_printed(
    closer: Sequence[ObbDetection],
    first: Sequence[ObbDetection],
    names: dict[int, str],
    overlap: float,
    least: float = 0.0,
) -> list[ObbDetection]:
    """The closer look's boxes, each tile box lying on a box the first pass called a printed
    picture taking that class and its score: the first pass saw the picture with the board or
    card round it, which tells a picture from a tile; enlarged, a picture's pips read as plainly
    as a tile's, and a dim board's track was read as sure tiles (docs/styles.md)."""
    printed_class = next((c for c, n in names.items() if n == "printed"), None)
    printed = [b for b in first if b.cls == printed_class and max(b.size) >= least]
    if printed_class is None or not printed:
        return list(closer)
    pictures = np.asarray([[*b.center, *b.size, b.angle] for b in printed], np.float64)
    out = []
    for box in closer:
        if names.get(box.cls, "tile") == "tile":
            over = probiou(np.asarray([[*box.center, *box.size, box.angle]], np.float64), pictures)[0]
            at = int(np.argmax(over))
            if over[at] > overlap:
                box = replace(box, cls=printed_class, confidence=printed[at].confidence, scores=printed[at].scores)
        out.append(box)
    return out


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


#: the overlap (probabilistic IoU) at which a closer tile box lies on a first-pass picture
KEEP_PRINTED = 0.3
#: a first-pass picture is kept only where the first pass saw it at least this long (detector
#: input pixels, the least it learnt): smaller, it calls far tiles pictures too
PRINTED_SEEN = 20.0


def missed_closer(first: Sequence[ObbDetection], closer: Sequence[ObbDetection], overlap: float) -> list[ObbDetection]:
    """The first pass's boxes that no closer box overlaps by `overlap` (probabilistic IoU) or
    more: tiles the closer look did not see at all."""
    if not first or not closer:
        return list(first)
    seen = probiou(
        np.asarray([[*b.center, *b.size, b.angle] for b in first], np.float64),
        np.asarray([[*b.center, *b.size, b.angle] for b in closer], np.float64),
    ).max(axis=1)
    return [b for b, over in zip(first, seen) if over < overlap]


def look_again(
    detector: Detector,
    image: np.ndarray,
    boxes: list[ObbDetection],
    zoom: Zoom,
    conf: float,
    iou: float,
    voting: Voting | None,
    names: dict[int, str] | None = None,
) -> tuple[list[ObbDetection], Region | None]:
    """The first pass's boxes, or, where its tiles were small, the closer pass's instead.
    `names`: the detector's classes, where the first pass's printed pictures are kept
    (`keep_printed`)."""
    height, width = image.shape[:2]
    where = region(boxes, height, width, detector.first_scale(height, width), detector.side, zoom)
    if where is None:
        return boxes, None
    crop = image[where.y0 : where.y1, where.x0 : where.x1]
    size = (max(1, round(crop.shape[1] * where.scale)), max(1, round(crop.shape[0] * where.scale)))
    enlarged = cv2.resize(crop, size, interpolation=cv2.INTER_LINEAR)
    median = float(np.median([max(b.size) for b in boxes]))
    closer = read_windows(detector, enlarged, zoom.overlap * median * where.scale, conf, iou, voting)
    closer = from_region(closer, where, size[0] / crop.shape[1], size[1] / crop.shape[0])
    if zoom.missed is not None:
        closer = closer + missed_closer(boxes, closer, zoom.missed)
    if names is not None:
        first_scale = detector.first_scale(height, width)
        closer = keep_printed(closer, boxes, names, KEEP_PRINTED, PRINTED_SEEN / first_scale)
    return closer, where


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
