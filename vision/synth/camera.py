"""The camera looking at the table: a pinhole with a tilt, and what it does to points and planes.

The camera looks at a target point on the table from `distance` away, tilted `tilt` from
straight down, from the compass direction `azimuth`; `roll` turns the picture a little about
the view axis. The photo's "up" is the far side of the table, as when a person holds a phone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@dataclass(frozen=True, slots=True)
class Camera:
    width: int
    height: int
    focal: float  # pixels
    target: tuple[float, float]
    distance: float  # world units from the target
    tilt: float  # radians from straight down
    azimuth: float  # radians: the camera stands on this side of the target
    roll: float  # radians about the view axis
    cx: float = 0.0  # principal point offset from the image centre (pixels)
    cy: float = 0.0

    @property
    def K(self) -> np.ndarray:
        return np.array(
            [[self.focal, 0, self.width / 2 + self.cx], [0, self.focal, self.height / 2 + self.cy], [0, 0, 1.0]]
        )

    @property
    def centre(self) -> np.ndarray:
        tx, ty = self.target
        st = math.sin(self.tilt)
        return np.array(
            [
                tx + self.distance * st * math.cos(self.azimuth),
                ty + self.distance * st * math.sin(self.azimuth),
                self.distance * math.cos(self.tilt),
            ]
        )

    @property
    def R(self) -> np.ndarray:
        """World -> camera rotation (rows: image right, image down, view direction)."""
        return _extrinsics(self)[0]

    @property
    def t(self) -> np.ndarray:
        return _extrinsics(self)[1]

    def _rotation(self) -> np.ndarray:
        c = self.centre
        t = np.array([self.target[0], self.target[1], 0.0])
        fwd = (t - c) / np.linalg.norm(t - c)
        # the far side of the table is up in the photo
        up_hint = -np.array([math.cos(self.azimuth), math.sin(self.azimuth), 0.0])
        down = -(up_hint - np.dot(up_hint, fwd) * fwd)
        down /= np.linalg.norm(down)
        right = np.cross(down, fwd)
        r = np.stack([right, down, fwd])
        cr, sr = math.cos(self.roll), math.sin(self.roll)
        roll = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1.0]])
        return roll @ r

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> pixels (N, 2)."""
        r, t, k = _extrinsics(self)
        uvw = (np.asarray(points, np.float64) @ r.T + t) @ k.T
        return uvw[:, :2] / uvw[:, 2:3]

    def depth(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64)
        return (pts @ self.R.T + self.t)[:, 2]

    def plane_homography(self, z: float = 0.0) -> np.ndarray:
        """3x3 homography from world (x, y) on the plane at height z to pixels."""
        r = self.R
        m = np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + self.t])
        return self.K @ m

    def footprint(self, z: float = 0.0, margin: float = 0.0) -> np.ndarray:
        """World (x, y) of the photo's four corners on the plane at height z, (4, 2)."""
        h_inv = np.linalg.inv(self.plane_homography(z))
        m = margin
        px = np.array(
            [[-m, -m, 1], [self.width + m, -m, 1], [self.width + m, self.height + m, 1], [-m, self.height + m, 1]],
            np.float64,
        )
        w = px @ h_inv.T
        return w[:, :2] / w[:, 2:3]

    def shaken(self, dx: float, dy: float, droll: float) -> Camera:
        """The same camera nudged (a hand-held phone between frames)."""
        return Camera(
            self.width,
            self.height,
            self.focal,
            (self.target[0] + dx, self.target[1] + dy),
            self.distance,
            self.tilt,
            self.azimuth,
            self.roll + droll,
            self.cx,
            self.cy,
        )

    def describe(self) -> dict[str, float]:
        return {
            "tilt_deg": round(math.degrees(self.tilt), 2),
            "azimuth_deg": round(math.degrees(self.azimuth) % 360, 2),
            "roll_deg": round(math.degrees(self.roll), 2),
            "focal_px": round(self.focal, 1),
            "distance": round(self.distance, 3),
            "tile_px": round(self.tile_px(), 1),
        }

    def tile_px(self) -> float:
        """Length in pixels of a tile lying at the target (along the image's x axis)."""
        tx, ty = self.target
        r = self.R
        right = r[0]  # image x axis in world
        d = np.array([right[0], right[1], 0.0])
        d /= np.linalg.norm(d) + 1e-12
        p = self.project(np.array([[tx - d[0], ty - d[1], 0], [tx + d[0], ty + d[1], 0]]))
        return float(np.linalg.norm(p[1] - p[0]))


@lru_cache(maxsize=64)
def _extrinsics(cam: Camera) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(R, t, K), worked out once per camera: projection is called for every tile."""
    r = cam._rotation()
    return r, -r @ cam.centre, cam.K


def random_camera(
    rng: np.random.Generator, width: int, height: int, target: tuple[float, float], tile_px: float | None = None
) -> Camera:
    """A phone held over the table: mostly near straight down, sometimes tilted up to ~45 deg."""
    if tile_px is None:
        # log-uniform tile length, 40..250 px at 1280 wide (scaled with the output width)
        tile_px = math.exp(rng.uniform(math.log(40), math.log(250))) * width / 1280
    tilt = math.radians(rng.uniform(0, 12) if rng.random() < 0.5 else rng.uniform(12, 46))
    focal = width * rng.uniform(0.7, 1.3)
    azimuth = rng.uniform(0, 2 * math.pi)
    roll = math.radians(rng.normal(0, 6))
    # distance so that a tile at the target is `tile_px` long (2 units across focal/distance)
    distance = 2 * focal / tile_px
    cam = Camera(width, height, focal, target, distance, tilt, azimuth, roll)
    # correct for tilt foreshortening along x, once, so the asked size holds at the centre
    actual = cam.tile_px()
    return Camera(width, height, focal, target, distance * actual / tile_px, tilt, azimuth, roll)
