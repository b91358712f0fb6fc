"""Flat geometry on the table: where a tile lies, its corners, its halves, and overlap tests.

World units: one unit is the side of a tile half (a real tile is about 48 x 24 mm, so a unit is
about 24 mm). x points east, y north, z up; the table top is z = 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class Pose:
    """A tile-shaped rectangle lying on the table.

    `angle` (radians) is the direction from the tile's first half to its second half, so the
    first half is the one at local -x. Length runs along that direction, width across it.
    """

    x: float
    y: float
    angle: float
    length: float = 2.0
    width: float = 1.0

    @property
    def axis(self) -> np.ndarray:
        return np.array([math.cos(self.angle), math.sin(self.angle)])

    @property
    def across(self) -> np.ndarray:
        return np.array([-math.sin(self.angle), math.cos(self.angle)])

    def local_to_world(self, points: np.ndarray) -> np.ndarray:
        """Points in the tile's own frame (x along its length, centred) to world x, y."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        rot = np.array([[c, -s], [s, c]])
        return np.asarray(points, dtype=np.float64) @ rot.T + np.array([self.x, self.y])

    def corners(self) -> np.ndarray:
        """(4, 2): counter-clockwise from the first half's outer corner on the right-hand side."""
        hl, hw = self.length / 2, self.width / 2
        return self.local_to_world(np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]]))

    def half_corners(self, which: int) -> np.ndarray:
        """(4, 2): the first (0) or second (1) half, in the same order as `corners`."""
        hl, hw = self.length / 2, self.width / 2
        x0, x1 = (-hl, 0.0) if which == 0 else (0.0, hl)
        return self.local_to_world(np.array([[x0, -hw], [x1, -hw], [x1, hw], [x0, hw]]))

    def half_center(self, which: int) -> np.ndarray:
        return self.local_to_world(np.array([[(-0.25 if which == 0 else 0.25) * self.length, 0.0]]))[0]

    def moved(self, x: float, y: float, angle: float) -> Pose:
        return Pose(x, y, angle, self.length, self.width)


def transform_pose(pose: Pose, dx: float, dy: float, rotation: float) -> Pose:
    """Rotate a pose about the origin by `rotation`, then shift it by (dx, dy)."""
    c, s = math.cos(rotation), math.sin(rotation)
    x = c * pose.x - s * pose.y + dx
    y = s * pose.x + c * pose.y + dy
    return Pose(x, y, pose.angle + rotation, pose.length, pose.width)


def overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two convex polygons (N, 2)."""
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)


def polygons_clear(a: np.ndarray, b: np.ndarray, clearance: float) -> bool:
    """True when the polygons are at least `clearance` apart (cheap test via bounding circles,
    then an exact one by growing `a` about its centre)."""
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    ra = float(np.max(np.linalg.norm(a - ca, axis=1)))
    rb = float(np.max(np.linalg.norm(b - cb, axis=1)))
    if float(np.linalg.norm(ca - cb)) > ra + rb + clearance:
        return True
    if clearance <= 0:
        return overlap_area(a, b) <= 1e-6
    grown = grow_polygon(a, clearance)
    return overlap_area(grown, b) <= 1e-6


def grow_polygon(poly: np.ndarray, by: float) -> np.ndarray:
    """A convex polygon pushed outwards by about `by` (each vertex along its bisector)."""
    centre = poly.mean(axis=0)
    out = []
    n = len(poly)
    for i in range(n):
        p, prev, nxt = poly[i], poly[i - 1], poly[(i + 1) % n]
        e1 = p - prev
        e2 = nxt - p
        # outward normals of the two edges (the polygon may run either way round)
        n1 = np.array([e1[1], -e1[0]]) / (np.linalg.norm(e1) + 1e-12)
        n2 = np.array([e2[1], -e2[0]]) / (np.linalg.norm(e2) + 1e-12)
        if np.dot(n1, p - centre) < 0:
            n1, n2 = -n1, -n2
        bis = n1 + n2
        norm = np.linalg.norm(bis)
        if norm < 1e-9:
            out.append(p + n1 * by)
            continue
        bis /= norm
        scale = by / max(float(np.dot(bis, n1)), 0.2)
        out.append(p + bis * scale)
    return np.array(out)


def rounded_rect(length: float, width: float, radius: float, segments: int = 3) -> np.ndarray:
    """Outline of a rounded rectangle centred at the origin, counter-clockwise, (N, 2).

    Used for the 3-D silhouette of a tile, so the side walls curve round its corners.
    """
    hl, hw = length / 2, width / 2
    r = min(radius, hw * 0.95)
    if r <= 1e-6:
        return np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]])
    pts = []
    for cx, cy, start in ((hl - r, -hw + r, -90), (hl - r, hw - r, 0), (-hl + r, hw - r, 90), (-hl + r, -hw + r, 180)):
        for k in range(segments + 1):
            a = math.radians(start + 90 * k / segments)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)
