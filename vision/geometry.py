"""Box geometry shared by every stage: an oriented box is its four corners in order (4x2)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np


def corners_of(box: Any) -> np.ndarray:
    """A box's corners as a float32 (N, 2) array (N is 4 for a box; anything else is no box)."""
    return np.asarray(box, dtype=np.float32).reshape(-1, 2)


def short_side(box: Any) -> float:
    """The length of a box's short side (a tile's width)."""
    c = corners_of(box)
    return float(min(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1])))


def long_side(box: Any) -> float:
    """The length of a box's long side (a tile's length)."""
    c = corners_of(box)
    return float(max(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1])))


def centre(box: Any) -> np.ndarray:
    """The mean of a box's corners."""
    return corners_of(box).mean(axis=0)


def share_over(box: Any, other: Any) -> float:
    """How much of `box`'s area lies over `other`, as a share of `box`'s area (0 for a flat box)."""
    a, b = corners_of(box), corners_of(other)
    area = abs(float(cv2.contourArea(a)))
    return float(cv2.intersectConvexConvex(a, b)[0]) / area if area > 0 else 0.0
