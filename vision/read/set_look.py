"""Whether a tile looks like the rest of the set on the table: one set, one look.

The tiles of a game are one set (or two of one make), one body colour with one pip colour or
scheme. A printed domino on a card or a board's track is drawn in whatever colours its printer
chose: where it reads as plainly as a tile (a white picture with black pips among ivory tiles
with a brass pin, a white one among black tiles, black pips among coloured ones) its look is the
one thing that gives it away, and the look of the other tiles in the same photo is the
reference, whatever the set is. Nothing is learnt, so it holds for sets the models never saw.

A tile's look is the median colour (CIELAB) of both halves' middles, clear of the rim: mostly
body, with its pips. A tile is alone when every other tile that would be sure lies far from it:
by chroma (a* b*), or by lightness (as a ratio, since a shadow or a lamp changes a whole tile's
lightness by a share). One set's tiles have company; two sets of different colours on one
table each have theirs. It is asked about only where enough tiles show what the set looks like.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.body import CORE


@dataclass(frozen=True, slots=True)
class SetLook:
    """How far a tile's look may lie from every other sure tile's before it is asked about.

    Chosen on the styles benchmark, the held-out set and photos of two conditions at once so that
    about one right tile in 1,500 is asked about (models/README.md, "A tile unlike the set")."""

    #: CIELAB a* b* distance (about the units of a colour difference a person sees): ivory and
    #: white lie about 10 apart, ivory and a skin tone or a coloured body 20 and more
    chroma: float = 14.0
    #: the natural log of the lightness ratio (L + 10 over L + 10, L on OpenCV's 0-255 scale):
    #: 1.0 is 2.7 times lighter or darker, a white picture among black tiles is about 1.5, one
    #: tile in shadow among lit ones about 0.4
    light: float = 1.0
    #: at least this many tiles that would be sure, the tile included, to say what the set looks like
    least: int = 4


def looks(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """(N, 3): the median L, a*, b* (OpenCV's 8-bit CIELAB) over the `CORE` of both halves of
    each of N tiles, its halves' BGR crops (N, H, W, 3) each."""
    if len(first) == 0:
        return np.zeros((0, 3), dtype=np.float32)
    both = np.ascontiguousarray(np.concatenate([first[:, CORE, CORE], second[:, CORE, CORE]], axis=1))
    n, h, w, _ = both.shape
    lab = cv2.cvtColor(both.reshape(n * h, w, 3), cv2.COLOR_BGR2LAB).reshape(n, h * w, 3)
    return np.median(lab.astype(np.float32), axis=1)


def alone(tile_looks: np.ndarray, set_look: SetLook) -> np.ndarray:
    """(N,) bool: each tile whose look (`looks`) lies farther than `set_look` allows from every
    other tile's; none where there are fewer than `SetLook.least` tiles."""
    n = len(tile_looks)
    if n < set_look.least:
        return np.zeros(n, dtype=bool)
    chroma = np.linalg.norm(tile_looks[:, None, 1:] - tile_looks[None, :, 1:], axis=2)
    light = np.abs(np.log((tile_looks[:, None, 0] + 10.0) / (tile_looks[None, :, 0] + 10.0)))
    apart = (chroma > set_look.chroma) | (light > set_look.light)
    np.fill_diagonal(apart, True)
    return apart.all(axis=1)
