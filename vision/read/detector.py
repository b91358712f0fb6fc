"""Run an exported ultralytics OBB model with onnxruntime: no torch at run time.

The exported graph takes a letterboxed RGB image (1, 3, H, W) in [0, 1] (the photo's own shape,
its long side the training size; older exports a fixed square) and gives (1, 4 + classes + 1,
anchors): centre x, centre y, width, height (input pixels), one score per class (already
sigmoid), and the box angle in radians. Post-processing is ours: the best class per anchor, a
confidence threshold, rotated non-maximum suppression (probabilistic IoU, as ultralytics),
optionally box voting (`Voting`), and the boxes mapped back to the photo's own pixels.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.read.session import open_session


@dataclass(frozen=True, slots=True)
class ObbDetection:
    """One oriented box in photo pixels."""

    cls: int
    confidence: float
    center: tuple[float, float]
    size: tuple[float, float]  # width, height along the box's own axes
    angle: float  # radians, the box's width axis against the photo's x axis
    scores: tuple[float, ...]  # every class's score, for second-best readings

    def corners(self) -> np.ndarray:
        """The four corners, (4, 2) float32, in order around the box."""
        return cv2.boxPoints(((self.center[0], self.center[1]), self.size, float(np.degrees(self.angle)))).astype(
            np.float32
        )


def letterbox(
    image: np.ndarray, size: int | tuple[int, int], enlarge: float = 1.0
) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio and pad to size x size, or to (height, width), as
    ultralytics does (grey 114).

    A photo smaller than the input is enlarged by `enlarge` at most and padded the rest of the
    way (1: only padded, as ultralytics' `scaleup=False`): enlarging without a bound would show
    the model tiles far bigger than any it learnt.
    """
    out_h, out_w = (size, size) if isinstance(size, int) else size
    h, w = image.shape[:2]
    scale = min(out_h / h, out_w / w, max(enlarge, 1.0))
    # at least a pixel a side: a 1 x 5000 photo's short side rounded to 0, which cv2.resize refuses
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    # Shrinking by area averages every pixel in: bilinear samples only some, so a crisp phone
    # photo shrunk by more than two came out jagged, and the detector, which learnt softer
    # pictures, missed tiles in it.
    # At exactly half (1280 -> 640, what training sees) the two give the same picture.
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interpolation) if (nh, nw) != (h, w) else image
    top, left = (out_h - nh) // 2, (out_w - nw) // 2
    canvas = np.full((out_h, out_w, 3), 114, dtype=np.uint8)
    canvas[top : top + nh, left : left + nw] = resized
    return canvas, scale, (left, top)


def to_blob(canvas: np.ndarray) -> np.ndarray:
    """BGR uint8 (H, W, 3) -> RGB float32 (1, 3, H, W) in [0, 1]: the network's input.

    The same numbers as `cv2.dnn.blobFromImage(canvas, 1 / 255, swapRB=True)`, a plane at a
    time straight into the output (several times faster). OpenCV parts the interleaved channels
    faster than numpy reads every third byte.
    """
    height, width = canvas.shape[:2]
    blob = np.empty((1, 3, height, width), np.float32)
    for rgb, plane in zip((2, 1, 0), cv2.split(canvas)):
        blob[0, rgb] = plane
    blob *= np.float32(1 / 255.0)
    return blob


#: the size of the squares the detector learnt on (ultralytics' mosaics at `imgsz` 640)
TRAINED_SIDE = 640
#: the long side the bundled detector reads a photo at (`spinner export --imgsz`): larger than it
#: learnt on, so that small tiles reach it large enough to be found; larger still costs time for
#: little more (models/README.md, "The reading size")
READ_SIDE = 896


#: the exported model's metadata key for how much a small photo is enlarged (`spinner export
#: --enlarge`); a model without it is never enlarged
ENLARGE_KEY = "spinner_enlarge"
#: how much the bundled detector enlarges a photo smaller than `READ_SIDE` at most (`spinner
#: export --enlarge`): a 640 x 480 webcam frame is read at 896 x 672 like a phone's photo, and a
#: single tile's 100 x 100 crop twice as large (its tile about 80 px long, inside the 20-125 px
#: the detector learnt); enlarged further, tiles grow beyond anything it learnt (models/README.md,
#: "Small photos enlarged")
READ_ENLARGE = 2.0
#: the largest reading size `spinner read --size` takes: no photo reaches the reader longer
#: (`vision.read.photo` decodes a larger one at a half or a quarter, 1280 at least), and reading
#: larger only costs memory (--size 30000 asked for gigabytes)
MOST_READ_SIDE = 2560
#: the most `spinner read --enlarge` takes: at 2.5 the real crops already read worse (tiles larger
#: than any the detector learnt); past 4 it only enlarges what it cannot read
MOST_ENLARGE = 4.0


def canvas_shape(height: int, width: int, side: int = 640, stride: int = 32, enlarge: float = 1.0) -> tuple[int, int]:
    """The (height, width) of the network's input for a photo of this shape: the long side
    `side`, the other the photo's proportion of it, rounded up to the network's stride.

    A 1280 x 960 photo gets 640 x 480 (no padding: a square input spends a quarter of its
    pixels on grey), a portrait one 480 x 640, a 16:9 video frame 640 x 384. A photo smaller
    than `side` is enlarged by `enlarge` at most (`letterbox`; 1, never) and padded up to that
    size or to the training size, whichever is larger: with `enlarge` 2 and `side` 800 a
    640 x 480 video frame is read at 800 x 608, and a single tile's 100 x 100 crop sits, twice
    as large, in 640 x 640 (not in its own 200 x 200: the network learnt tiles with a table
    round them, and found fewer in a crop's own size).
    """
    long = min(side, max(TRAINED_SIDE, round(max(enlarge, 1.0) * max(height, width))))
    long = -(-long // stride) * stride  # a side the network's stride does not divide is rounded up
    short = -(-long * min(height, width) // max(height, width))  # rounded up
    short = -(-short // stride) * stride
    return (long, short) if height > width else (short, long) if width > height else (long, long)


class ObbModel:
    """An exported OBB model. `predict(bgr_image)` -> detections in the image's own pixels.

    An export with a fixed input (a square, or 4:3) letterboxes every photo to it; one with a
    free input size gets each photo's own shape (`canvas_shape`), its long side the size it
    was exported at, or `side` when given (a smaller side reads faster and finds fewer small
    tiles: models/README.md, "The reading size").
    """

    def __init__(
        self, path: str | Path, threads: int | None = None, side: int | None = None, enlarge: float | None = None
    ) -> None:
        self.path = Path(path)
        self.session = open_session(self.path, "detector", threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.names: dict[int, str] = ast.literal_eval(meta["names"]) if "names" in meta else {}
        shape = self.session.get_inputs()[0].shape
        exported = ast.literal_eval(meta.get("imgsz", "[640, 640]"))
        self.side = side or max(int(v) for v in exported)
        #: how much a photo smaller than `side` is enlarged at most (set at export: `ENLARGE_KEY`)
        self.enlarge = enlarge or float(meta.get(ENLARGE_KEY, 1.0))
        self.fixed_size: tuple[int, int] | None = (
            (int(shape[2]), int(shape[3])) if isinstance(shape[2], int) and isinstance(shape[3], int) else None
        )
        self.input_name = self.session.get_inputs()[0].name

    def input_size(self, height: int, width: int, enlarge: float | None = None) -> tuple[int, int]:
        """The (height, width) a photo of this shape is letterboxed to."""
        return self.fixed_size or canvas_shape(
            height, width, self.side, enlarge=self.enlarge if enlarge is None else enlarge
        )

    def first_scale(self, height: int, width: int) -> float:
        """How much a photo of this shape is scaled on its way into the network (`letterbox`)."""
        out_h, out_w = self.input_size(height, width)
        return min(out_h / height, out_w / width, max(self.enlarge, 1.0))

    def predict(
        self,
        image: np.ndarray,
        conf: float = 0.25,
        iou: float = 0.5,
        max_det: int = 300,
        voting: Voting | None = None,
        enlarge: float | None = None,
    ) -> list[ObbDetection]:
        """`enlarge`: this call's bound on enlarging a small photo, in place of the model's."""
        enlarge = self.enlarge if enlarge is None else enlarge
        height, width = image.shape[:2]
        canvas, scale, (left, top) = letterbox(image, self.input_size(height, width, enlarge), enlarge)
        blob = to_blob(canvas)
        (raw,) = self.session.run(None, {self.input_name: blob})
        return decode(raw[0], scale, (left, top), conf, iou, max_det, voting)


@dataclass(frozen=True, slots=True)
class Voting:
    """Box voting: each box NMS keeps becomes the score-weighted mean of the boxes around it.

    The network proposes many boxes round a tile; NMS keeps the best-scoring one, which is not
    always the best-placed (on real photos a box a third of a tile off, or a tile and a half long,
    can outscore a well-placed one). The mean of the boxes that overlap it is placed better, and
    a half cut from a better box is read better (models/README.md, "The overlap and box voting").
    """

    #: least probabilistic IoU with the kept box for a box to take part.
    overlap: float = 0.5
    #: least score for a box to take part (below the confidence threshold: weak boxes round a
    #: tile still say where it lies).
    floor: float = 0.1


#: the most boxes, the best-scoring, that go on to NMS and voting (ultralytics' `max_nms`): their
#: overlaps make an N x N matrix, and a confidence bar of 0 lets every anchor through (12,000 for
#: a photo read at 896: gigabytes, and 17 s); on real photos at most about 600 come through
MAX_CANDIDATES = 3000


def decode(
    raw: np.ndarray,
    scale: float,
    pad: tuple[float, float],
    conf: float,
    iou: float,
    max_det: int,
    voting: Voting | None = None,
) -> list[ObbDetection]:
    """(4 + classes + 1, anchors) -> detections in photo pixels, after rotated NMS per class
    (and box voting, when asked)."""
    preds = raw.T  # (anchors, 4 + nc + 1)
    scores = preds[:, 4:-1]
    best = scores.argmax(axis=1)
    confidence = scores[np.arange(len(best)), best]
    keep = confidence >= (min(conf, voting.floor) if voting else conf)
    if not (confidence >= conf).any():
        return []
    if keep.sum() > MAX_CANDIDATES:
        keep[np.argsort(-confidence, kind="stable")[MAX_CANDIDATES:]] = False
    preds, scores, best, confidence = preds[keep], scores[keep], best[keep], confidence[keep]
    left, top = pad
    cx = (preds[:, 0] - left) / scale
    cy = (preds[:, 1] - top) / scale
    w = preds[:, 2] / scale
    h = preds[:, 3] / scale
    angle = preds[:, -1]
    out: list[ObbDetection] = []
    xywhr = np.stack([cx, cy, w, h, angle], axis=1).astype(np.float64)
    for cls in np.unique(best[confidence >= conf]):
        index = np.flatnonzero((best == cls) & (confidence >= conf))
        kept = index[fast_nms(xywhr[index], confidence[index], iou)]
        boxes = xywhr[kept]
        if voting:
            pool = np.flatnonzero(best == cls)
            boxes = vote(boxes, xywhr[pool], confidence[pool], voting.overlap)
        for i, (x, y, bw, bh, r) in zip(kept, boxes):
            out.append(
                ObbDetection(
                    cls=int(cls),
                    confidence=float(confidence[i]),
                    center=(float(x), float(y)),
                    size=(float(bw), float(bh)),
                    angle=float(r),
                    scores=tuple(float(s) for s in scores[i]),
                )
            )
    out.sort(key=lambda d: -d.confidence)
    return out[:max_det]


def probiou(boxes: np.ndarray, others: np.ndarray | None = None) -> np.ndarray:
    """Probabilistic IoU of every box (N, 5: cx, cy, w, h, radians) with every one of `others`
    (M, 5; the boxes themselves when not given), (N, M): each box as a Gaussian, one minus their
    Hellinger distance. The measure ultralytics trains, validates and predicts with
    (`ultralytics.utils.metrics.batch_probiou`), ported to numpy so the companion's boxes are the
    ones the model's figures were measured on."""
    eps = 1e-7
    others = boxes if others is None else others
    (x1, y1, a1, b1, c1), (x2, y2, a2, b2, c2) = _gaussian(boxes), _gaussian(others)
    # The same operations in the same order as ultralytics', worked in place: NMS takes every
    # candidate against every other, and fresh (N, M) arrays for each step cost as much as the sums.
    sa, sb, sc = np.add.outer(a1, a2), np.add.outer(b1, b2), np.add.outer(c1, c2)
    dx, dy = np.subtract.outer(x1, x2), np.subtract.outer(y1, y2)
    det = sa * sb
    det -= np.square(sc)
    denominator = det + eps
    t1 = np.square(dy)
    t1 *= sa
    sb *= np.square(dx)
    t1 += sb
    t1 /= denominator
    t1 *= 0.25
    sc *= -dx
    sc *= dy
    sc /= denominator
    sc *= 0.5
    t1 += sc  # t1 + t2
    own1, own2 = np.clip(a1 * b1 - c1**2, 0, None), np.clip(a2 * b2 - c2**2, 0, None)
    t3 = np.sqrt(np.multiply.outer(own1, own2))
    t3 *= 4
    t3 += eps
    np.divide(det, t3, out=t3)
    t3 += eps
    np.log(t3, out=t3)
    t3 *= 0.5
    t1 += t3
    distance = np.clip(t1, eps, 100.0, out=t1)
    np.negative(distance, out=distance)
    similarity = np.exp(distance, out=distance)
    np.subtract(1.0, similarity, out=similarity)
    similarity += eps
    np.sqrt(similarity, out=similarity)
    return np.subtract(1, similarity, out=similarity)


def _gaussian(boxes: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each box's centre and the three terms of its covariance matrix (a, b, c)."""
    var_w, var_h, r = boxes[:, 2] ** 2 / 12, boxes[:, 3] ** 2 / 12, boxes[:, 4]
    cos, sin = np.cos(r), np.sin(r)
    return (
        boxes[:, 0],
        boxes[:, 1],
        var_w * cos**2 + var_h * sin**2,
        var_w * sin**2 + var_h * cos**2,
        (var_w - var_h) * cos * sin,
    )


def vote(kept: np.ndarray, pool: np.ndarray, weights: np.ndarray, overlap: float) -> np.ndarray:
    """Each kept box (K, 5: cx, cy, w, h, radians) as the weighted mean of the pool's boxes (N, 5)
    that overlap it by more than `overlap` (probabilistic IoU), itself included when it is in the
    pool. Boxes come back long side first (w >= h). Directions are averaged on the doubled
    angle: a box turned half a turn is the same box, so 179 and 1 degrees average to 0, not 90."""
    if not len(kept):
        return kept.reshape(0, 5)
    # only the kept boxes against the pool: a weak model's pool of low boxes runs to thousands
    voters = probiou(kept, pool) > overlap  # (K, N)
    long_first = pool[:, 2] >= pool[:, 3]
    length = np.where(long_first, pool[:, 2], pool[:, 3])
    width = np.where(long_first, pool[:, 3], pool[:, 2])
    direction = np.where(long_first, pool[:, 4], pool[:, 4] + np.pi / 2)
    # every kept box's weighted sums in one product: its weight on each pool box, 0 where it does not vote
    share = voters * weights.astype(np.float64)  # (K, N)
    unweighted = ~(share.sum(axis=1) > 0)  # boxes scored 0, kept by a confidence bar of 0: each counts alike
    share[unweighted] = voters[unweighted]
    sums = share @ np.stack([pool[:, 0], pool[:, 1], length, width, np.cos(2 * direction), np.sin(2 * direction)], 1)
    alone = ~voters.any(axis=1)  # only when the kept box is not in the pool: it stays as it is
    total = np.where(alone, 1.0, share.sum(axis=1))
    out = np.column_stack([sums[:, :4] / total[:, None], 0.5 * np.arctan2(sums[:, 5], sums[:, 4])])
    bw, bh, r = kept[alone, 2], kept[alone, 3], kept[alone, 4]
    out[alone] = np.column_stack(
        [kept[alone, :2], np.maximum(bw, bh), np.minimum(bw, bh), np.where(bw >= bh, r, r + np.pi / 2)]
    )
    return out


#: how many boxes `fast_nms` takes against the others at once
NMS_BLOCK = 64


def fast_nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept, best first: a box goes when any box scoring higher overlaps it by
    more than `iou` (ultralytics' Fast-NMS for rotated boxes, which this follows exactly)."""
    order = np.argsort(-scores, kind="stable")
    boxes = boxes[order]
    dropped = np.zeros(len(boxes), dtype=bool)
    # a block of boxes at a time against those scoring lower: half the pairs, and arrays small
    # enough to stay in the cache (a photo's hundreds of candidates made megabytes each)
    for start in range(0, len(boxes), NMS_BLOCK):
        overlap = probiou(boxes[start : start + NMS_BLOCK], boxes[start:])
        dropped[start:] |= np.triu(overlap > iou, k=1).any(axis=0)
    return order[~dropped]
