"""The box refiner: each detector box moved onto its tile before the tile's halves are cut.

The half classifier reads the tiles the detector finds almost perfectly when their halves are cut
from the tiles' true boxes, and clearly worse from the detector's own (models/README.md, "Why a
detector and a half classifier"): what it misreads is mostly a box a little off, too long or
short, or slid along the tile, so that a half's cut holds part of its neighbour. The refiner
looks at each box with its surroundings, in the box's own frame (`frame_crop`), and says how the
true box differs (`Offsets`): the centre moved along and across, the length and width scaled, the
direction turned. A small CNN exported to ONNX, run on all of a photo's boxes at once.

The same network also says whether a box holds a tile lying face up (`BoxRefiner.lying`): a
second output, one logistic unit on the features the offsets are read from (`vision.train.lying`).
The crop shows the box's surroundings, where a flat tile's side shows below its face and a tile
standing on edge, seen face on, shows its top above it and stands straight up from the table; the
detector, which reads the face alone, boxes such faces as tiles with no doubt (docs/styles.md, "A
steep view"). A tile read there is asked about instead of scored (`Reader.mark_not_lying`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.read.detector import ObbDetection
from vision.read.session import open_session

#: the crop's size in pixels: along the box's long axis, across it
CROP_ALONG, CROP_ACROSS = 64, 40
#: how far the crop reaches from the box's centre: along, in box lengths; across, in box widths
#: (room to see the tile's own ends and sides, and where a neighbour begins)
REACH_ALONG, REACH_ACROSS = 0.8, 1.0


@dataclass(frozen=True, slots=True)
class BoxFrame:
    """A box as centre, unit long axis `along`, unit `across`, and its length and width."""

    center: np.ndarray
    along: np.ndarray
    across: np.ndarray
    length: float
    width: float

    @classmethod
    def of(cls, center: Sequence[float] | np.ndarray, size: Sequence[float], angle: float) -> BoxFrame:
        w, h = float(size[0]), float(size[1])
        if w >= h:
            along, length, width = np.array([np.cos(angle), np.sin(angle)]), w, h
        else:
            along, length, width = np.array([-np.sin(angle), np.cos(angle)]), h, w
        return cls(np.asarray(center, dtype=np.float64), along, np.array([-along[1], along[0]]), length, width)

    @classmethod
    def around(cls, corners: Sequence[Sequence[float]] | np.ndarray) -> BoxFrame:
        """The smallest box round a quadrilateral (a tile's corners as read or as true)."""
        (cx, cy), size, degrees = cv2.minAreaRect(np.asarray(corners, dtype=np.float32))
        return cls.of((cx, cy), size, float(np.radians(degrees)))

    @property
    def angle(self) -> float:
        return float(np.arctan2(self.along[1], self.along[0]))


@dataclass(frozen=True, slots=True)
class Offsets:
    """How the true box differs from a box, in the box's own frame: the centre moved `along` box
    lengths and `across` box widths, the length and width scaled by exp(`length`), exp(`width`),
    the long axis turned by `turn` radians."""

    along: float
    across: float
    length: float
    width: float
    turn: float

    def as_array(self) -> np.ndarray:
        return np.array([self.along, self.across, self.length, self.width, self.turn], dtype=np.float32)


def frame_crop(image: np.ndarray, box: BoxFrame) -> np.ndarray:
    """The box and its surroundings, (CROP_ACROSS, CROP_ALONG, 3) BGR, its long axis left to right."""
    step_x = box.along * (2 * REACH_ALONG * box.length / CROP_ALONG)
    step_y = box.across * (2 * REACH_ACROSS * box.width / CROP_ACROSS)
    # crop pixel (x, y) samples the photo at its centre, (x + 0.5, y + 0.5) steps from the corner:
    # then a crop flipped is exactly the crop of the box turned, which the training relies on
    origin = (
        box.center
        - box.along * REACH_ALONG * box.length
        - box.across * REACH_ACROSS * box.width
        + 0.5 * (step_x + step_y)
    )
    # maps a crop pixel to the photo (applied inverted: warpAffine samples the photo there)
    matrix = np.array([[step_x[0], step_y[0], origin[0]], [step_x[1], step_y[1], origin[1]]], dtype=np.float64)
    return cv2.warpAffine(
        image,
        matrix,
        (CROP_ALONG, CROP_ACROSS),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def offsets_to(box: BoxFrame, true: BoxFrame) -> Offsets:
    """What the refiner learns: how `true` differs from `box` (either box's long axis may point
    either way: the turn is the smaller one)."""
    along = true.along if float(true.along @ box.along) >= 0 else -true.along
    moved = true.center - box.center
    turn = float(np.arctan2(box.along[0] * along[1] - box.along[1] * along[0], box.along @ along))
    return Offsets(
        float(moved @ box.along / box.length),
        float(moved @ box.across / box.width),
        float(np.log(true.length / box.length)),
        float(np.log(true.width / box.width)),
        turn,
    )


def moved(box: BoxFrame, offsets: Offsets) -> BoxFrame:
    """The box the offsets describe."""
    center = box.center + box.along * offsets.along * box.length + box.across * offsets.across * box.width
    angle = box.angle + offsets.turn
    return BoxFrame.of(
        center, (box.length * float(np.exp(offsets.length)), box.width * float(np.exp(offsets.width))), angle
    )


def to_batch(crops: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops -> float32 (N, 3, CROP_ACROSS, CROP_ALONG) RGB in [0, 1], the refiner's input."""
    batch = np.stack(crops)[..., ::-1].astype(np.float32) / 255.0
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))


#: the refiner's outputs: the offsets, and (where `spinner train lying` added it) how likely the
#: box holds a tile lying face up
OFFSETS, LYING = "offsets", "lying"
#: the ONNX metadata key holding the score under which a box is held to show no tile lying face up
LYING_LEAST = "lying_least"


class BoxRefiner:
    """An exported refiner (ONNX: crops (N, 3, 40, 64) -> offsets (N, 5), `Offsets`' order; and,
    where it has one, `lying` (N, 1), the chance that the box holds a tile lying face up)."""

    def __init__(self, path: str | Path, threads: int | None = None) -> None:
        self.path = Path(path)
        self.session = open_session(self.path, "box refiner", threads)
        self.input_name = self.session.get_inputs()[0].name
        outputs = {o.name for o in self.session.get_outputs()}
        least = self.session.get_modelmeta().custom_metadata_map.get(LYING_LEAST)
        #: the `lying` score under which a box shows no tile lying face up; None: a refiner
        #: without the check (trained before it, or its head not added)
        self.lying_least: float | None = float(least) if LYING in outputs and least is not None else None

    def offsets(self, image: np.ndarray, frames: Sequence[BoxFrame]) -> np.ndarray:
        if not frames:
            return np.zeros((0, 5), dtype=np.float32)
        (out,) = self.session.run([OFFSETS], {self.input_name: to_batch([frame_crop(image, f) for f in frames])})
        return out

    def lying(self, image: np.ndarray, frames: Sequence[BoxFrame]) -> np.ndarray:
        """(N,) the chance that each box holds a tile lying face up (a refiner without the check:
        ValueError)."""
        if self.lying_least is None:
            raise ValueError(f"the box refiner at {self.path} has no `{LYING}` output: run `spinner train lying`")
        if not frames:
            return np.zeros(0, dtype=np.float32)
        (out,) = self.session.run([LYING], {self.input_name: to_batch([frame_crop(image, f) for f in frames])})
        return out.reshape(-1)

    def refine(self, image: np.ndarray, boxes: Sequence[ObbDetection], passes: int = 1) -> list[ObbDetection]:
        """Each box moved where the refiner says its tile lies, `passes` times over (each pass
        looks again from where the last one put the box); confidence and scores kept."""
        found = [BoxFrame.of(b.center, b.size, b.angle) for b in boxes]
        frames = found
        for _ in range(passes):
            frames = [
                moved(frame, Offsets(*(float(v) for v in row)))
                for frame, row in zip(frames, self.offsets(image, frames))
            ]
        height, width = image.shape[:2]
        out = []
        for box, first, new in zip(boxes, found, frames):
            # a tile the frame's edge cuts: the refiner may put its centre beyond the edge, where
            # the photo shows nothing to check it by; the box stays as found
            if not (0 <= new.center[0] <= width and 0 <= new.center[1] <= height):
                new = first
            out.append(
                ObbDetection(
                    cls=box.cls,
                    confidence=box.confidence,
                    center=(float(new.center[0]), float(new.center[1])),
                    size=(new.length, new.width),
                    angle=new.angle,
                    scores=box.scores,
                )
            )
        return out
