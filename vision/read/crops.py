"""Square crops of tile halves, rectified from the photo's own pixels.

The half classifier sees every half the same way, whatever the photo: the half's quadrilateral
(from the detector's box at run time, from the truth while training) warped to a small square,
with a little margin so that a box a few pixels off still holds all the pips.
"""

from __future__ import annotations

import cv2
import numpy as np

#: side of a half crop in pixels: a six's pips are still three pixels apart at this size.
HALF_SIZE = 32
#: how much of the half's size is added around it (boxes are never exact).
MARGIN = 0.12


def expand(quad: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    quad = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * (1 + 2 * margin)


def rectify(image: np.ndarray, quad: np.ndarray, size: int = HALF_SIZE, margin: float = MARGIN) -> np.ndarray:
    """The half inside `quad` (4 corners in order around it) as a size x size BGR image."""
    src = expand(quad, margin)
    dst = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def to_batch(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops -> float32 (N, 3, H, W) RGB in [0, 1], the classifier's input."""
    if not crops:
        return np.zeros((0, 3, HALF_SIZE, HALF_SIZE), dtype=np.float32)
    batch = np.stack(crops)[..., ::-1].astype(np.float32) / 255.0
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))
