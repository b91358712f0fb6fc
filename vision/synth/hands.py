"""Arms and hands reaching over the table, drawn in photo pixels on top of everything.

A hand is a rounded arm from the frame's edge, a palm, and a few finger capsules, shaded like
a cylinder lit from one side, with a soft shadow on the table beside it. It hides what lies
under it: the id buffer marks its pixels so those tile halves count as hidden.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from .scene import HandSpec, Prop
from .tables import smooth_noise


def _edge_point(edge: float, w: int, h: int) -> np.ndarray:
    side, t = int(edge) % 4, edge - int(edge)
    pad = 0.15
    if side == 0:
        return np.array([t * w, -pad * h])
    if side == 1:
        return np.array([w * (1 + pad), t * h])
    if side == 2:
        return np.array([t * w, h * (1 + pad)])
    return np.array([-pad * w, t * h])


def _capsule(mask: np.ndarray, a: np.ndarray, b: np.ndarray, r: float, value: float = 1.0) -> None:
    cv2.line(
        mask,
        (int(a[0] * 16), int(a[1] * 16)),
        (int(b[0] * 16), int(b[1] * 16)),
        value,
        max(1, int(2 * r)),
        cv2.LINE_AA,
        4,
    )
    # round caps (the line's own caps are square at big widths)
    for p in (a, b):
        cv2.circle(mask, (int(p[0] * 16), int(p[1] * 16)), int(r * 16), value, -1, cv2.LINE_AA, 4)


def hand_mask(spec: HandSpec, w: int, h: int, tile_px: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(alpha mask float32, unit arm direction, wrist point) for one arm."""
    rng = np.random.default_rng(spec.seed)
    start = _edge_point(spec.edge, w, h)
    tip = np.array([spec.reach[0] * w, spec.reach[1] * h])
    d = tip - start
    length = float(np.linalg.norm(d)) + 1e-6
    d /= length
    perp = np.array([-d[1], d[0]])
    arm_w = spec.width * tile_px * 1.3  # a forearm is about 3 tile halves wide
    palm = arm_w * 1.25
    wrist = tip - d * palm * 1.5
    mask = np.zeros((h, w), np.float32)
    _capsule(mask, start - d * arm_w, wrist, arm_w / 2)
    # palm: an ellipse just past the wrist
    pc = wrist + d * palm * 0.55
    ang = math.degrees(math.atan2(d[1], d[0]))
    cv2.ellipse(
        mask,
        (int(pc[0] * 16), int(pc[1] * 16)),
        (int(palm * 0.6 * 16), int(palm * 0.5 * 16)),
        ang,
        0,
        360,
        1.0,
        -1,
        cv2.LINE_AA,
        4,
    )
    if spec.fingers:
        fr = palm * 0.1
        base = pc + d * palm * 0.45
        spread = rng.uniform(0.05, 0.25)
        for k in range(spec.fingers):
            off = (k - (spec.fingers - 1) / 2) * fr * 2.1
            fd = d + perp * (k - (spec.fingers - 1) / 2) * spread * 0.3
            fd /= np.linalg.norm(fd)
            flen = palm * rng.uniform(0.55, 0.85) * (1 - 0.2 * abs(k - (spec.fingers - 1) / 2) / max(spec.fingers, 1))
            _capsule(mask, base + perp * off, base + perp * off + fd * flen, fr)
        thumb_side = 1 if rng.random() < 0.5 else -1
        tb = pc + perp * thumb_side * palm * 0.45
        _capsule(mask, tb, tb + (d * 0.6 + perp * thumb_side * 0.6) * palm * 0.55, fr * 1.15)
    mask = np.clip(mask, 0, 1)
    return mask, d, wrist


def draw_hands(
    img: np.ndarray, ids: np.ndarray, ident: int, hands: list[HandSpec], tile_px: float, light_dir: np.ndarray
) -> list[np.ndarray]:
    """Draw each arm over the photo; returns their outlines (pixels)."""
    h, w = img.shape[:2]
    outlines: list[np.ndarray] = []
    for spec in hands:
        rng = np.random.default_rng(spec.seed + 1)
        mask, d, wrist = hand_mask(spec, w, h, tile_px)
        if mask.max() <= 0:
            continue
        solid = (mask > 0.5).astype(np.uint8)
        bx, by, bw, bh = cv2.boundingRect((mask > 0).astype(np.uint8))
        if bw == 0 or bh == 0:
            continue
        # shadow on the table: the hand is held a few centimetres up. It is soft, so it is
        # shifted and blurred at a quarter of the size, over the hand's box grown by the blur.
        shift = -light_dir[:2] / max(light_dir[2], 0.3) * tile_px * rng.uniform(0.6, 1.6)
        blur = max(2.0, tile_px * 0.25)
        pad = int(abs(shift).max() + 3 * blur) + 2
        x0, y0 = max(bx - pad, 0), max(by - pad, 0)
        x1, y1 = min(bx + bw + pad, w), min(by + bh + pad, h)
        rw, rh = x1 - x0, y1 - y0
        q4 = 4
        sw, shh = max(1, rw // q4), max(1, rh // q4)
        small = cv2.resize(mask[y0:y1, x0:x1], (sw, shh), interpolation=cv2.INTER_AREA)
        m = np.array([[1, 0, shift[0] / q4], [0, 1, -shift[1] / q4]], dtype=np.float32)
        sh = cv2.GaussianBlur(cv2.warpAffine(small, m, (sw, shh)), (0, 0), blur / q4)
        sh = cv2.resize(1 - 0.45 * sh, (rw, rh), interpolation=cv2.INTER_LINEAR)
        roi = img[y0:y1, x0:x1]
        cv2.multiply(roi, cv2.merge([sh, sh, sh]), dst=roi)
        # the hand itself, over its own box only
        x0, y0, x1, y1 = bx, by, bx + bw, by + bh
        rw, rh = bw, bh
        roi_mask = mask[y0:y1, x0:x1]
        # colour: skin, maybe a sleeve over the forearm, cylinder shading across the arm;
        # worked out at half size (it is smooth) and enlarged
        q = 2
        qh, qw = (rh + q - 1) // q, (rw + q - 1) // q
        xx = np.arange(qw, dtype=np.float32)[None, :] * q + x0 - np.float32(wrist[0])
        yy = np.arange(qh, dtype=np.float32)[:, None] * q + y0 - np.float32(wrist[1])
        perp = np.array([-d[1], d[0]], np.float32)
        across = xx * perp[0] + yy * perp[1]
        along = xx * np.float32(d[0]) + yy * np.float32(d[1])
        half_w = spec.width * tile_px * 0.8 + 1
        side = float(np.dot(light_dir[:2] / (np.linalg.norm(light_dir[:2]) + 1e-9), [perp[0], -perp[1]]))
        t = np.clip(across / np.float32(half_w * 1.3), -1, 1)
        shade = 0.9 + 0.1 * np.sqrt(1 - t * t) + np.float32(0.12 * side) * t
        colour = np.empty((qh, qw, 3), np.float32)
        colour[:] = np.array(spec.skin, np.float32)
        if spec.sleeve is not None:
            sleeve_from = float(rng.uniform(0.5, 2.0)) * half_w
            sl = (along < -sleeve_from)[..., None]
            colour = np.where(sl, np.array(spec.sleeve, np.float32), colour)
        tex = 1 + 0.04 * smooth_noise(qh, qw, max(2.0, tile_px * 0.6), rng) + 0.015 * smooth_noise(qh, qw, 1.5, rng)
        # rounded flesh: darker towards every outline (fingers included), from the distance to it
        dist = (
            cv2.distanceTransform(
                cv2.resize(solid[y0:y1, x0:x1], (qw, qh), interpolation=cv2.INTER_NEAREST), cv2.DIST_L2, 3
            )
            * q
        )
        depth = np.sqrt(np.clip(dist / max(2.0, half_w * 0.35), 0, 1))
        colour *= (shade * tex * (0.7 + 0.3 * depth)).astype(np.float32)[..., None]
        colour = cv2.resize(colour, (rw, rh), interpolation=cv2.INTER_LINEAR)
        a = cv2.GaussianBlur(roi_mask, (0, 0), 0.8)
        roi = img[y0:y1, x0:x1]
        roi[:] = cv2.blendLinear(colour, roi, a, 1 - a)
        ids[y0:y1, x0:x1][solid[y0:y1, x0:x1] > 0] = ident
        cnts, _ = cv2.findContours(solid[y0:y1, x0:x1], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if cnts:
            outlines.append(max(cnts, key=cv2.contourArea)[:, 0, :].astype(np.float64) + [x0, y0])
    return outlines


def prop_outline(prop: Prop, cam: Any) -> np.ndarray:
    """A prop's outline on the table, in photo pixels (N, 2)."""
    if prop.shape == "ellipse":
        t = np.linspace(0, 2 * math.pi, 48, endpoint=False)
        local = np.column_stack([np.cos(t) * prop.length / 2, np.sin(t) * prop.width / 2])
    else:
        a, b = prop.length / 2, prop.width / 2
        local = np.array([[-a, -b], [a, -b], [a, b], [-a, b]], np.float64)
    c, s = math.cos(prop.angle), math.sin(prop.angle)
    world = local @ np.array([[c, s], [-s, c]]) + [prop.x, prop.y]
    return np.asarray(cam.project(np.column_stack([world, np.full(len(world), prop.height * 0.1)])), np.float64)


def draw_props(
    img: np.ndarray, ids: np.ndarray, ident: int, props: list[Prop], cam: Any, light_dir: np.ndarray
) -> None:
    """Draw each prop flat over the photo with a soft shadow beside it; its pixels hide the tiles
    under it (the id buffer marks them `ident`)."""
    h, w = img.shape[:2]
    tile_px = cam.tile_px()
    for prop in props:
        poly = prop_outline(prop, cam)
        if not np.isfinite(poly).all():
            continue
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(poly * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        if not mask.any():
            continue
        shift = -light_dir[:2] / max(light_dir[2], 0.3) * tile_px * prop.height * 0.5
        m = np.array([[1, 0, shift[0]], [0, 1, -shift[1]]], dtype=np.float32)
        shadow = cv2.GaussianBlur(
            cv2.warpAffine(mask, m, (w, h)).astype(np.float32) / 255, (0, 0), max(2.0, tile_px * 0.15)
        )
        shade = 1 - 0.45 * shadow
        img[:] = np.clip(img.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)
        alpha = mask.astype(np.float32)[..., None] / 255
        # a little shading across it, so that it is not one flat colour
        yy = np.linspace(0.9, 1.1, h, dtype=np.float32)[:, None, None]
        colour = np.clip(np.asarray(prop.colour, np.float32)[None, None, :] * yy, 0, 255)
        img[:] = (img.astype(np.float32) * (1 - alpha) + colour * alpha).astype(np.uint8)
        ids[mask > 127] = ident
