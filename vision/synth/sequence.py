"""Frames of one table as a game goes on: same camera, table and tile set, the layout growing.

For testing the reader over time (a later issue): each frame adds layout tiles in play order;
optionally an arm passes over the table for a few frames, the light drifts and the camera
shakes a little, as a phone held over a real game would see it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .camera import Camera
from .dataset import GENERATOR, encode_jpeg, image_rng
from .labels import build_truth, yolo_lines
from .layouts import layout_prefix
from .render import render_scene
from .scene import HandSpec, Scene, build_scene, with_layout_prefix


@dataclass(frozen=True, slots=True)
class Frame:
    image: np.ndarray  # uint8 BGR (after a JPEG round trip when asked)
    truth: dict[str, Any]
    label: str  # YOLO OBB lines, as a dataset would hold them


def _scene_with_layout(seed: int, index: int, width: int, height: int, min_tiles: int) -> Scene:
    for attempt in range(50):
        scene = build_scene(image_rng(seed, index + attempt * 1_000_003), width, height)
        if scene.laid is not None and len(scene.laid.layout) >= min_tiles:
            return scene
    raise RuntimeError("no scene with a layout found")  # pragma: no cover - layouts are common


def _frame_layout(scene: Scene, roles: tuple[str, ...] = ("layout",)) -> Camera:
    """The scene's camera turned on the whole (final) layout, backed off until it fits (with
    `roles`, the bodies of those roles: a dealt film keeps its boneyard in view too)."""
    corners = np.concatenate([b.pose.corners() for b in scene.bodies if b.role in roles])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    centre = (lo + hi) / 2
    cam = replace(scene.camera, target=(float(centre[0]), float(centre[1])))
    for _ in range(20):
        px = cam.project(np.column_stack([corners, np.zeros(len(corners))]))
        margin = 0.05 * min(cam.width, cam.height)
        if (px.min(axis=0) >= margin).all() and (px.max(axis=0) <= [cam.width - margin, cam.height - margin]).all():
            break
        cam = replace(cam, distance=cam.distance * 1.15)
    return cam


def render_sequence(
    seed: int,
    width: int = 1280,
    height: int = 960,
    frames: int | None = None,
    index: int = 0,
    hand_pass: bool = True,
    light_drift: float = 0.08,
    shake: float = 0.0,
    jpeg: bool = False,
    min_tiles: int = 3,
) -> list[Frame]:
    """Render the frames of one game table; frame k shows the layout after its first plays.

    `frames`: how many frames (default one per layout tile); the layout grows evenly over them.
    `shake`: camera jitter in world units (about 24 mm each); `light_drift`: exposure swing.
    """
    scene = _scene_with_layout(seed, index, width, height, min_tiles)
    laid = scene.laid
    assert laid is not None
    scene = replace(scene, hands=[], camera=_frame_layout(scene))
    total = len(laid.layout)
    n = frames or total
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(index), 7]))
    counts = [max(1, int(math.ceil(total * (k + 1) / n))) for k in range(n)]
    # an arm sweeps over the table during a stretch of frames
    sweep = None
    if hand_pass and n >= 3:
        start = int(rng.integers(0, n - 1))
        sweep = (start, min(n, start + max(1, n // 3)), float(rng.uniform(0, 4)))
    base_hand = HandSpec(
        0.0, (0.5, 0.5), float(rng.uniform(1.0, 1.4)), (120, 160, 210), None, 4, int(rng.integers(2**31))
    )
    phase = float(rng.uniform(0, 2 * math.pi))
    out: list[Frame] = []
    for k, count in enumerate(counts):
        frame_scene = with_layout_prefix(scene, count)
        frame_scene.laid = layout_prefix(laid, count)
        if sweep is not None and sweep[0] <= k < sweep[1]:
            t = (k - sweep[0] + 0.5) / max(1, sweep[1] - sweep[0])
            frame_scene.hands = [replace(base_hand, edge=sweep[2], reach=(0.2 + 0.6 * t, 0.3 + 0.4 * t))]
        cam = scene.camera
        if shake:
            d = rng.normal(0, shake, 3)
            cam = cam.shaken(float(d[0]), float(d[1]), float(d[2]) * 0.01)
        frame_scene.camera = cam
        gain = 1.0 + light_drift * math.sin(phase + k * 0.7)
        rendered = render_scene(frame_scene, cam, light_gain=gain)
        params = {
            "generator": GENERATOR,
            "seed": int(seed),
            "index": int(index),
            "frame": k,
            "plays": count,
            "camera": cam.describe(),
            "light_gain": round(gain, 4),
            "hands": len(frame_scene.hands),
        }
        truth = build_truth(frame_scene, rendered, params)
        image = rendered.image
        if jpeg:
            import cv2

            decoded = cv2.imdecode(
                np.frombuffer(encode_jpeg(image, scene.finish.jpeg_quality), np.uint8), cv2.IMREAD_COLOR
            )
            assert decoded is not None  # the JPEG was just encoded here
            image = decoded
        out.append(Frame(image, truth, "".join(line + "\n" for line in yolo_lines(truth))))
    return out
