"""What a rendered photo holds: the YOLO OBB label lines and the full truth (JSON sidecar).

Labels: one oriented box per visible face-up tile half (class = its pip value, 0-6) and one per
visible face-up tile (class 7). A tile or half is labelled only when at least `MIN_VISIBLE` of
it is seen and its box lies inside the photo. Face-down tiles, tiles on edge and printed
pictures are never labelled. The truth keeps everything, so other label schemes and the
evaluation can be derived from it without rendering again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .layouts import placement_dict
from .render import Rendered
from .scene import Scene

TILE_CLASS = 7
CLASS_NAMES = ["0", "1", "2", "3", "4", "5", "6", "tile"]
#: a tile (or half) more than 40% hidden gets no label
MIN_VISIBLE = 0.6
LABELLED_ROLES = ("layout", "hand", "loose")


def _r(points: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in points]


def _inside(points: np.ndarray, width: int, height: int, tol: float = 0.5) -> bool:
    return bool(
        (points[:, 0] >= -tol).all()
        and (points[:, 0] <= width + tol).all()
        and (points[:, 1] >= -tol).all()
        and (points[:, 1] <= height + tol).all()
    )


def build_truth(scene: Scene, rendered: Rendered, params: dict[str, Any]) -> dict[str, Any]:
    w, h = scene.width, scene.height
    tiles: list[dict[str, Any]] = []
    face_down: list[dict[str, Any]] = []
    on_edge: list[dict[str, Any]] = []
    placement_tile: dict[int, int] = {}
    for body, view in zip(scene.bodies, rendered.views):
        if body.kind == "down":
            face_down.append({"role": body.role, "corners": _r(view.top), "visible": round(view.visible, 3)})
            continue
        if body.kind == "edge":
            on_edge.append({"corners": _r(view.top), "outline": _r(view.silhouette), "visible": round(view.visible, 3)})
            continue
        assert body.values is not None
        tile_ok = view.visible >= MIN_VISIBLE and _inside(view.top, w, h) and body.role in LABELLED_ROLES
        halves = []
        for k in (0, 1):
            poly = view.halves[k]
            ok = view.visible >= MIN_VISIBLE and view.half_visible[k] >= MIN_VISIBLE and _inside(poly, w, h)
            halves.append(
                {
                    "value": body.values[k],
                    "corners": _r(poly),
                    "center": _r(poly.mean(axis=0)[None])[0],
                    "visible": round(view.half_visible[k], 3),
                    "labelled": bool(ok),
                }
            )
        if body.placement is not None:
            placement_tile[body.placement] = len(tiles)
        tiles.append(
            {
                "value": f"{body.values[0]}-{body.values[1]}",
                "role": body.role,
                "placement": body.placement,
                "corners": _r(view.top),
                "center": _r(view.top.mean(axis=0)[None])[0],
                "visible": round(view.visible, 3),
                "labelled": bool(tile_ok),
                "halves": halves,
            }
        )
    layout: dict[str, Any] | None = None
    if scene.laid is not None:
        lay = scene.laid.layout
        placements = []
        for i, p in enumerate(lay.placements):
            d = placement_dict(p)
            d["tile_index"] = placement_tile.get(i)
            placements.append(d)
        layout = {
            "variant": scene.laid.variant,
            "placements": placements,
            "spinner": lay.spinner,
            "open_ends": dict(lay.open_ends()),
            "count": lay.count(),
            "bends": scene.laid.bends,
        }
    printed = [
        {"value": f"{p.a}-{p.b}", "corners": _r(c), "board": on_board}
        for p, c, on_board in rendered.printed
        if _any_inside(c, w, h)
    ]
    return {
        "format": "spinner-synth/1",
        "image": {"width": w, "height": h},
        "tiles": tiles,
        "face_down": face_down,
        "on_edge": on_edge,
        "printed": printed,
        "hands": [_r(poly) for poly in rendered.hands],
        "layout": layout,
        "params": params,
    }


def _any_inside(points: np.ndarray, width: int, height: int) -> bool:
    return bool(((points[:, 0] >= 0) & (points[:, 0] <= width) & (points[:, 1] >= 0) & (points[:, 1] <= height)).any())


def yolo_lines(truth: dict[str, Any]) -> list[str]:
    """`class x1 y1 ... x4 y4`, normalised 0-1, for every labelled half and tile in the truth."""
    w, h = truth["image"]["width"], truth["image"]["height"]
    out: list[str] = []

    def line(cls: int, corners: list[list[float]]) -> str:
        pts = [f"{min(max(x / w, 0.0), 1.0):.6f} {min(max(y / h, 0.0), 1.0):.6f}" for x, y in corners]
        return f"{cls} " + " ".join(pts)

    for tile in truth["tiles"]:
        for half in tile["halves"]:
            if half["labelled"]:
                out.append(line(int(half["value"]), half["corners"]))
        if tile["labelled"]:
            out.append(line(TILE_CLASS, tile["corners"]))
    return out
