"""How far a tile's pips stand out of its photo's noise: a tile read in the dark is a guess.

In a dim room a phone or a webcam turns its gain up: the tile's face is darker, its pips nearer
the face's own colour, and the sensor's noise grows. A classifier that has learnt such photos
reads their halves, and it reads a board's printed domino pictures there as surely as tiles:
in the noise the detector no longer tells a picture from a tile. Whatever the models learnt, a
half whose pips barely stand out of the noise is not seen well enough to score without asking.

The measure is taken on the crops the classifier reads (`vision.read.crops`), so it is the
contrast the classifier saw: for each colour channel, the spread of the crop's middle, lightly
smoothed (1st to 99th percentile: the face against its darkest pip), over the noise of that
middle (a robust standard deviation: 1.4826 times the median distance of a pixel from the median
of its 3x3 neighbourhood, which a pip's edge barely moves). Each channel is weighed alone, so a
coloured pip that a grey image would hide still counts. A tile's figure is the better of its two
halves: a blank half has no spread of its own.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.body import CORE

#: a sure tile's pips must stand at least this many times its noise out of its face; under it
#: the tile is held just under the sure line (asked, never changed). Lit photos of every styles
#: condition read almost all their tiles far above it, a dim room's most of theirs below it
#: (models/README.md, "Pips lost in the noise")
CLEAR = 15.0
#: the least noise a crop is taken to have (0-255): a clean render or a smoothed photo shows none
#: at all, and a spread over nothing is no measure
LEAST_NOISE = 0.5


def pips_over_noise(crops: np.ndarray) -> np.ndarray:
    """(N,) for N BGR half crops (N, H, W, 3) uint8: the largest, over the colour channels, of the
    spread of the crop's middle over its noise."""
    if len(crops) == 0:
        return np.zeros(0, dtype=np.float32)
    n, h, w, _ = crops.shape
    # one tall image of the crops stacked: each filter's reach (one pixel) stays inside the
    # crop's rim, so the middles are filtered as each crop alone, in one call
    stacked = np.ascontiguousarray(crops).reshape(n * h, w, 3)
    median = cv2.medianBlur(stacked, 3).reshape(n, h, w, 3)[:, CORE, CORE]
    smooth = cv2.GaussianBlur(stacked.astype(np.float32), (3, 3), 0).reshape(n, h, w, 3)[:, CORE, CORE]
    middle = crops[:, CORE, CORE].astype(np.int16)
    residual = np.abs(middle - median.astype(np.int16)).reshape(n, -1, 3)
    noise = np.maximum(1.4826 * np.median(residual, axis=1), LEAST_NOISE)
    low, high = np.percentile(smooth.reshape(n, -1, 3), [1, 99], axis=1)
    return np.max((high - low) / noise, axis=1).astype(np.float32)


def faint(first: np.ndarray, second: np.ndarray, clear: float = CLEAR) -> np.ndarray:
    """For each tile, its two halves' crops (N, H, W, 3) each: whether neither half's pips stand
    `clear` times their noise out of the face (`pips_over_noise`)."""
    return np.maximum(pips_over_noise(first), pips_over_noise(second)) < clear
