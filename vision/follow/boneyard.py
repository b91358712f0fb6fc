"""Where the boneyard's backs lie, so that a change in which a back was taken is known for a draw.

Counting the backs frame by frame says little where the detector misses one back in one frame and
boxes a shadow as a back in the next: the count drifts by one or two either way while nothing was
drawn, and stays the same while a tile was. Where each back lies says more. A back is remembered
where it was last seen, as the layout's tiles are (`Follower.placed`): missing from one frame it
has not left, unless the frame changed there. A remembered back that is not read again, at a place
where the frame changed (`Region`), was taken: the change was a draw, not a play the reader missed.
Where backs were taken is remembered too: a board's printed domino picture that a back hid or
shaded shows there once the back is gone, read as a faint new tile, and it is no play
(`uncovered`). And what each back's place looked like while it was read: a box the detector drew
on the bare table (a shadow, a pattern of the cloth) is no back, and once it is no longer read its
place looks as it did, the table all along: nothing was taken there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.follow.motion import Region
from vision.geometry import short_side
from vision.read.reading import Ignored, Reading

#: how far from a back's centre its place reaches, in back widths (two: a back's length)
NEAR = 2.0
#: how far from every remembered back a back read is apart from the boneyard, in back widths
#: (two backs' lengths: farther than a back nudged or pushed in the heap goes)
APART = 4.0
#: how far (colour distance, 0-255 channels) the middle of a back's old place may be from the
#: table around it and still be the table showing (`bare`), where the table is plain
BARE = 15.0
#: a box whose short side is this many back widths or more is no back (`bare`): a back boxed
#: alone is one width across, however it lies
WIDE = 1.5
#: the middle of a back's place: within this many back widths of its centre (its colour, `bare`
#: and `middle_colour`)
MIDDLE = 0.45


@dataclass(frozen=True, slots=True)
class Back:
    """One back where it was last seen: its centre and width in the photo's pixels."""

    center: tuple[float, float]
    width: float
    #: the mean colour (BGR) of the middle of its place while it was read there (None: not seen)
    shade: tuple[float, float, float] | None = None

    @classmethod
    def of(cls, box: Ignored, image: np.ndarray | None = None, reading: Reading | None = None) -> Back:
        corners = np.asarray(box.corners, dtype=np.float32)
        x, y = corners.mean(axis=0)
        back = cls((float(x), float(y)), float(short_side(box.corners)))
        if image is None or reading is None:
            return back
        return cls(back.center, back.width, middle_colour(image, back, reading))

    def reaches(self, point: tuple[float, float], widths: float = NEAR) -> bool:
        """Whether `point` lies within a back's length (`widths` back widths) of this back's
        centre (under it, or beside it in its shadow and among its neighbours)."""
        return float(np.hypot(point[0] - self.center[0], point[1] - self.center[1])) <= widths * self.width

    def near(self, other: Back) -> bool:
        """The same place: centres closer than half the narrower back's width."""
        gap = float(np.hypot(self.center[0] - other.center[0], self.center[1] - other.center[1]))
        return gap <= 0.5 * min(self.width, other.width)


@dataclass
class BoneyardWatch:
    """The backs of one hand's boneyard, by place (`look` at each changed frame)."""

    backs: list[Back] = field(default_factory=list)
    #: backs taken this hand
    taken: int = 0
    #: where they lay
    gone: list[Back] = field(default_factory=list)
    #: backs read this hand where none was remembered: a tile laid face down (a drawn tile a
    #: player keeps in front of them), a back moved or hidden before; the backs in view are then
    #: not only the boneyard, and their count says how many were drawn at least, not exactly
    appeared: int = 0
    #: backs gone from where the frame changed while their place does not show the table
    #: (`bare`): something stands over them, and the count of backs in view is short
    hidden: int = 0
    #: of the backs the last `look` took, those whose place was seen to show the table (not
    #: only where nothing there could tell): the count of backs may say how many were drawn
    seen_gone: int = 0

    def start(self, reading: Reading, image: np.ndarray | None = None) -> None:
        """A new hand: the backs in view now are the boneyard (`image`: the frame's pixels, where
        known, so that a box on the bare table is told from a back once it goes)."""
        self.backs = _backs(reading, image)
        self.taken = 0
        self.gone = []
        self.appeared = 0
        self.hidden = 0
        self.seen_gone = 0

    def uncovered(self, point: tuple[float, float]) -> bool:
        """Whether `point` lies where a back was taken this hand, or beside it: what the back hid
        or shaded shows once it is gone (the table, or a board's printed picture)."""
        return any(back.reaches(point) for back in self.gone)

    def look(self, reading: Reading, regions: Sequence[Region] | None, image: np.ndarray | None = None) -> int:
        """How many remembered backs were taken in this change: gone from places where the frame
        changed. Backs read at new places are remembered from here on (`appeared`). With no changed regions
        known (a photo taken on purpose, not a camera watching) nothing is taken: a back missing
        from one photo may be the reader's miss as well as a draw."""
        now = _backs(reading, image)
        # a back read away from every remembered one (farther than two backs' lengths: not one
        # of them nudged or pushed, nor a back first read in the heap)
        self.appeared += sum(1 for b in now if not any(back.reaches(b.center, APART) for back in self.backs))
        kept: list[Back] = []
        taken = self.seen_gone = 0
        for back in self.backs:
            if any(back.near(b) for b in now):
                continue  # read again: refreshed below
            if regions is not None and any(r.contains(back.center) for r in regions):
                shows = bare(image, back, reading) if image is not None else None
                if shows is False:
                    # something stands over its place (a cup, a hand): hidden, not taken
                    self.hidden += 1
                    kept.append(back)
                    continue
                if shows is True and _unchanged(image, back, reading):
                    continue  # its place looks as it did while it was read: the table all along
                taken += 1
                self.seen_gone += shows is True
                self.gone.append(back)
            else:
                kept.append(back)  # not read this time, and nothing moved there
        self.backs = kept + now
        self.taken += taken
        return taken


def bare(image: np.ndarray, back: Back, reading: Reading) -> bool | None:
    """Whether the table shows where `back` lay in `image`: the middle of its place looks like
    the table around it (a ring two to three back widths out, off every box read). Where the
    ring is hidden too (boxes all round, the photo's border), or a box read lies over the place
    (a back nudged there, or the back itself boxed as something else), there is nothing to
    tell: None. But a box over the place as wide as two backs (`WIDE`) is no back nudged there:
    the detector drew it round what stands over several (a cup over one back and half the
    next, boxed as one back and taken for the half-hidden one): False, something stands there.
    `image` may be smaller than the photo whose pixels the reading's points are in (a phone's
    large JPEG decoded at reduced size, `Reader.read_upright`): the points are scaled by its
    width over the reading's."""
    around = _around(image, back, reading, 3.0)
    if around is None:
        return None
    patch, gap, w, scale, (x0, y0) = around
    reach = 3.0 * w
    boxes = np.zeros(gap.shape, np.uint8)
    wide = np.zeros(gap.shape, np.uint8)
    for corners in [*(b.corners for b in reading.ignored), *(t.corners for t in reading.tiles)]:
        shifted = np.asarray(corners, np.float32) * scale - np.asarray([x0, y0], np.float32)
        cv2.fillConvexPoly(boxes, np.round(shifted).astype(np.int32), 1)
        if short_side(corners) >= WIDE * back.width:
            cv2.fillConvexPoly(wide, np.round(shifted).astype(np.int32), 1)
    ring = (gap >= 2.0 * w) & (gap <= reach) & (boxes == 0)
    middle = gap <= MIDDLE * w
    covered = (middle & (boxes == 0)).sum() < 0.3 * middle.sum()
    if covered and (middle & (wide == 1)).sum() >= 0.5 * middle.sum():
        return False  # a box no back fills lies over the place: something stands over it
    if ring.sum() < 40 or covered:
        return None  # the table all round hidden, or a box read over the place (a back pushed there)
    middle &= boxes == 0
    table = np.median(patch[ring], axis=0)
    spread = float(np.median(np.linalg.norm(patch[ring] - table, axis=1)))
    diff = float(np.linalg.norm(patch[middle].mean(axis=0) - table))
    return diff <= max(BARE, 4.0 * spread)


def middle_colour(image: np.ndarray, back: Back, reading: Reading) -> tuple[float, float, float] | None:
    """The mean colour (BGR) of the middle of `back`'s place in `image` (`MIDDLE`), the reading's
    points scaled to the image's pixels as `bare` scales them; None where the place lies outside
    the image."""
    around = _around(image, back, reading, MIDDLE)
    if around is None:
        return None
    patch, gap, w, _, _ = around
    inside = gap <= MIDDLE * w
    if not inside.any():
        return None
    b, g, r = (float(v) for v in patch[inside].mean(axis=0)[:3])
    return (b, g, r)


def _around(
    image: np.ndarray, back: Back, reading: Reading, widths: float
) -> tuple[np.ndarray, np.ndarray, float, float, tuple[int, int]] | None:
    """The square of `image` reaching `widths` back widths from `back`'s centre: its pixels
    (float32), each pixel's distance from the centre, the back's width and the scale in the
    image's pixels, and the square's corner. The reading's points are scaled to the image's pixels
    (`image` may be a photo decoded at reduced size). None where it lies outside the image."""
    scale = image.shape[1] / reading.width if reading.width > 0 else 1.0
    x, y, w = back.center[0] * scale, back.center[1] * scale, back.width * scale
    reach = widths * w
    x0, y0 = max(int(x - reach), 0), max(int(y - reach), 0)
    x1, y1 = min(int(x + reach) + 1, image.shape[1]), min(int(y + reach) + 1, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    patch = image[y0:y1, x0:x1].reshape(y1 - y0, x1 - x0, -1).astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    return patch, np.hypot(xx - x, yy - y), w, scale, (x0, y0)


def _unchanged(image: np.ndarray | None, back: Back, reading: Reading) -> bool:
    """Whether the middle of `back`'s place looks now as it did while the back was read there
    (within `BARE`): the box was drawn on the bare table, no back lay there."""
    if image is None or back.shade is None:
        return False
    now = middle_colour(image, back, reading)
    return now is not None and float(np.linalg.norm(np.subtract(now, back.shade))) <= BARE


def _backs(reading: Reading, image: np.ndarray | None = None) -> list[Back]:
    return [Back.of(i, image, reading) for i in reading.ignored if i.kind == "face_down"]
