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


def _normals(polys: np.ndarray) -> np.ndarray:
    """Unit normals of each edge, (..., 4, 2)."""
    edges = np.roll(polys, -1, axis=-2) - polys
    n = np.stack([edges[..., 1], -edges[..., 0]], axis=-1)
    return n / (np.linalg.norm(n, axis=-1, keepdims=True) + 1e-12)


def separation(poly: np.ndarray, others: np.ndarray) -> np.ndarray:
    """For a 4-gon and N others (N, 4, 2): the widest gap along any edge normal, (N,).

    Separating-axis test: negative means they overlap; zero, they touch. For a gap > 0 the
    true distance is at least this (corner-to-corner it can be more), so using it to keep
    tiles apart errs on the safe side.
    """
    if len(others) == 0:
        return np.zeros(0)
    a = np.asarray(poly, np.float64)
    axes_a = _normals(a)  # (4, 2)
    pa = a @ axes_a.T  # (4 points, 4 axes)
    pb = others @ axes_a.T  # (N, 4, 4)
    gap_a = np.maximum(pb.min(axis=1) - pa.max(axis=0), pa.min(axis=0) - pb.max(axis=1)).max(axis=1)
    axes_b = _normals(others)  # (N, 4, 2)
    qa = np.einsum("pk,nak->npa", a, axes_b)  # (N, 4, 4)
    qb = np.einsum("nqk,nak->nqa", others, axes_b)
    gap_b = np.maximum(qb.min(axis=1) - qa.max(axis=1), qa.min(axis=1) - qb.max(axis=1)).max(axis=1)
    return np.maximum(gap_a, gap_b)


def _rect_frame(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Centres, unit length axes, unit width axes and half extents of rectangles (N, 4, 2)."""
    centres = polys.mean(axis=1)
    along = polys[:, 1] - polys[:, 0]
    across = polys[:, 3] - polys[:, 0]
    la = np.linalg.norm(along, axis=1)
    lw = np.linalg.norm(across, axis=1)
    return centres, along / (la[:, None] + 1e-12), across / (lw[:, None] + 1e-12), np.column_stack([la, lw]) / 2


class Footprints:
    """The rectangles already on the table (tile footprints, `Pose.corners()` order), for fast
    clearance tests.

    Every tile footprint is a rectangle, so the separating-axis gap needs only each one's
    centre, two axes and two half extents, kept ready here: a test against all N is a handful
    of (N,)-array operations (it runs thousands of times per scene, while tiles are placed).
    It gives the same gaps as `separation`.
    """

    def __init__(self, polys: list[np.ndarray] | None = None) -> None:
        self._polys = np.zeros((0, 4, 2))
        if polys:
            self._polys = np.array(polys, np.float64)
        self._frame = _rect_frame(self._polys)

    def __len__(self) -> int:
        return len(self._polys)

    @property
    def polys(self) -> np.ndarray:
        """(N, 4, 2) corners; read only (use `add` and `replace`)."""
        return self._polys

    def add(self, poly: np.ndarray) -> None:
        one = np.asarray(poly, np.float64)[None]
        self._polys = np.concatenate([self._polys, one])
        self._frame = tuple(np.concatenate([old, new]) for old, new in zip(self._frame, _rect_frame(one)))  # type: ignore[assignment]

    def replace(self, index: int, poly: np.ndarray) -> None:
        self._polys = self._polys.copy()
        self._polys[index] = poly
        self._frame = _rect_frame(self._polys)

    def gaps(self, poly: np.ndarray) -> np.ndarray:
        if not len(self._polys):
            return np.zeros(0)
        c, u, v, ext = self._frame
        q = np.asarray(poly, np.float64)
        qc = (q[0] + q[2]) / 2
        qu, qv = q[1] - q[0], q[3] - q[0]
        ql, qw = math.hypot(qu[0], qu[1]), math.hypot(qv[0], qv[1])
        qu, qv = qu / (ql + 1e-12), qv / (qw + 1e-12)
        ql, qw = ql / 2, qw / 2
        d = c - qc
        # along the query's own two axes
        uu, vu = np.abs(u @ qu), np.abs(v @ qu)
        uv, vv = np.abs(u @ qv), np.abs(v @ qv)
        g1 = np.abs(d @ qu) - ql - (ext[:, 0] * uu + ext[:, 1] * vu)
        g2 = np.abs(d @ qv) - qw - (ext[:, 0] * uv + ext[:, 1] * vv)
        # along each other rectangle's two axes (row-wise dots)
        g3 = np.abs((d * u).sum(axis=1)) - ext[:, 0] - (ql * uu + qw * uv)
        g4 = np.abs((d * v).sum(axis=1)) - ext[:, 1] - (ql * vu + qw * vv)
        return np.maximum(np.maximum(g1, g2), np.maximum(g3, g4))

    def clear(self, poly: np.ndarray, clearance: float) -> bool:
        return bool((self.gaps(poly) >= clearance - 1e-9).all())
