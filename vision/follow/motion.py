"""Is the table still, and has it changed? Cheap tests on small grey frames, no model.

A camera over a game sees long still stretches (players thinking), hands over the table
(moving), and now and then a still table that differs from before (a tile was played). Only
the last is worth reading. Each frame is shrunk to a thumbnail once (`thumbnail`, about a
millisecond at 1280x960) and everything here works on thumbnails:

- a frame is *still* when it hardly differs from the frame before it; a frame is *settled*
  after `settle` still frames in a row (a hand coming to rest over the table for one frame is
  not settled);
- a settled frame is compared with the last *accepted* one (the last frame the follower read):
  if it differs, that is a *change* and the frame is worth a model run; if not, nothing happens,
  so a hand that passes over the table and leaves it as it was costs no model run at all;
- motion is never a move: while the table moves nothing is read.

Thumbnails are divided by their mean brightness, so a lamp drifting or a cloud passing does not
look like a change, and blurred, so sensor noise and a shake of a pixel do not either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

#: thumbnail width; the height keeps the frame's aspect ratio
THUMB_WIDTH = 160

State = Literal["moving", "still", "settled", "change"]


@dataclass(frozen=True, slots=True)
class Region:
    """A box in the full frame's pixels: x0, y0 inclusive, x1, y1 exclusive."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, point: tuple[float, float], margin: float = 0.0) -> bool:
        x, y = point
        return self.x0 - margin <= x <= self.x1 + margin and self.y0 - margin <= y <= self.y1 + margin

    def to_json(self) -> list[float]:
        return [round(self.x0, 1), round(self.y0, 1), round(self.x1, 1), round(self.y1, 1)]


@dataclass(frozen=True, slots=True)
class Motion:
    """What one frame is: `moving`, `still` (not settled yet, or settled and the same as the
    accepted frame), `settled` (the first settled frame, same as accepted) or `change`."""

    state: State
    #: share of thumbnail pixels that changed against the previous frame
    moving: float
    #: share of thumbnail pixels that differ from the accepted frame (settled frames only)
    changed: float = 0.0
    #: the parts of the frame that differ from the accepted frame (`change` only)
    regions: tuple[Region, ...] = ()
    #: a change already seen and not accepted: the table is as at the last change (something moved
    #: over it and left), so it is the same change read again, not another one (`change` only)
    again: bool = False


def thumbnail(image: np.ndarray, width: int = THUMB_WIDTH) -> np.ndarray:
    """A small grey float32 copy with mean 1 (brightness-normalised), lightly blurred."""
    h, w = image.shape[:2]
    size = (width, max(1, round(width * h / w)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    small = cv2.GaussianBlur(small.astype(np.float32), (3, 3), 0)
    return small / max(float(small.mean()), 1.0)


@dataclass
class MotionDetector:
    """Feed it every frame's thumbnail (`update`); it says when a frame is worth reading.

    `settle`: still frames in a row before a frame counts as settled (1 for photos, which are
    still by nature). `pixel`: relative brightness step that counts as a changed pixel.
    `moving_share` / `change_share`: share of changed pixels that makes a frame moving / changed.
    """

    settle: int = 3
    pixel: float = 0.08
    moving_share: float = 0.001
    change_share: float = 0.0005
    #: the full frame's size, to give regions in its pixels
    frame_size: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        self.previous: np.ndarray | None = None
        self.accepted: np.ndarray | None = None
        self.still_run = 0
        self.reported = False  # this still stretch has been compared with the accepted frame
        #: the last change reported since the accepted frame (a change the follower left open)
        self.last_change: np.ndarray | None = None

    def accept(self, thumb: np.ndarray) -> None:
        """The follower read this frame: later frames are compared with it."""
        self.accepted = thumb
        self.last_change = None

    def update(self, thumb: np.ndarray, still: bool | None = None) -> Motion:
        """`still`: whether the table was still just before this frame, where the camera knows it
        (`alike` on two captures a moment apart): a camera whose frames arrive seconds apart,
        because the reader is slow, cannot be judged against the frame before. A still table
        then counts as settled at once."""
        previous, self.previous = self.previous, thumb
        if still is not None:
            moving = 0.0 if still else 1.0
            self.still_run = max(self.still_run + 1, self.settle - 1) if still else 0
            if (
                previous is None
                or previous.shape != thumb.shape
                or _share(thumb, previous, self.pixel) >= self.moving_share
            ):
                self.reported = False  # the table changed between two frames sent far apart
        elif previous is None or previous.shape != thumb.shape:
            self.still_run = 1 if self.settle <= 1 else 0
            moving = 1.0
        else:
            moving = _share(thumb, previous, self.pixel)
            self.still_run = self.still_run + 1 if moving < self.moving_share else 0
        if self.settle > 1 and moving >= self.moving_share and (previous is not None or still is False):
            self.reported = False
            return Motion("moving", moving)
        if self.settle <= 1:
            self.reported = False  # every photo is its own still stretch
        elif self.still_run < self.settle - 1:
            return Motion("still", moving)
        if self.reported:
            return Motion("still", moving)  # already compared: a still table is skipped at once
        self.reported = True
        if self.accepted is None or self.accepted.shape != thumb.shape:
            full = Region(0, 0, *self._frame_size(thumb))
            return Motion("change", moving, 1.0, (full,))
        mask = np.abs(thumb - self.accepted) > self.pixel
        changed = float(mask.mean())
        if changed < self.change_share:
            return Motion("settled", moving, changed)
        last, self.last_change = self.last_change, thumb
        again = last is not None and last.shape == thumb.shape and _share(thumb, last, self.pixel) < self.change_share
        return Motion("change", moving, changed, self._regions(mask, thumb), again)

    def settled_now(self, motion: Motion) -> bool:
        """Whether the frame `update` just judged is a settled one (still long enough), whatever
        it was compared with."""
        return motion.state in ("settled", "change") or (motion.state == "still" and self.still_run >= self.settle - 1)

    def whole(self, thumb: np.ndarray) -> Region:
        """The whole frame, as a region in its pixels."""
        return Region(0, 0, *self._frame_size(thumb))

    def _frame_size(self, thumb: np.ndarray) -> tuple[int, int]:
        return self.frame_size if self.frame_size[0] else (thumb.shape[1], thumb.shape[0])

    def _regions(self, mask: np.ndarray, thumb: np.ndarray) -> tuple[Region, ...]:
        """Boxes around the changed blobs, in full-frame pixels (specks of one pixel dropped)."""
        w, h = self._frame_size(thumb)
        sx, sy = w / thumb.shape[1], h / thumb.shape[0]
        grown = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(grown)
        regions = []
        for k in range(1, count):
            x, y, bw, bh, area = stats[k]
            if area < 4:
                continue
            regions.append(Region(x * sx, y * sy, (x + bw) * sx, (y + bh) * sy))
        return tuple(regions) or (Region(0, 0, w, h),)


def alike(
    a: np.ndarray, b: np.ndarray, pixel: float = MotionDetector.pixel, share: float = MotionDetector.moving_share
) -> bool:
    """Whether two thumbnails of one camera (`thumbnail`, same size) show a still table: fewer than
    `share` of their pixels differ by more than `pixel`."""
    return a.shape == b.shape and _share(a, b, pixel) < share


def _share(a: np.ndarray, b: np.ndarray, pixel: float) -> float:
    return float(np.count_nonzero(np.abs(a - b) > pixel)) / a.size
