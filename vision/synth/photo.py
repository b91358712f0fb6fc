"""Light over the whole photo, and what a phone camera does to it (blur, noise, sharpening, tone).

Light is a smooth gain field made at 1/8 size and enlarged: a ramp, vignetting, soft cast
shadows of things out of view, exposure and colour temperature. JPEG compression happens when
the file is written (its quality is part of the scene's `Finish`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .scene import Finish, Light


def apply_light(img: np.ndarray, light: Light, gain: float = 1.0) -> None:
    """Multiply the (float32) photo by the light field, in place."""
    h, w = img.shape[:2]
    rng = np.random.default_rng(light.seed)
    q = 8
    sh, sw = h // q + 1, w // q + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xn, yn = xx / sw - 0.5, yy / sh - 0.5
    ang, strength, offset = light.gradient
    field = 1 + strength * (xn * math.cos(ang) + yn * math.sin(ang)) + offset * 0.3
    if light.vignette:
        field *= 1 - light.vignette * (xn * xn + yn * yn) * 1.6
    if light.shadow_strength:
        shadow = np.zeros((sh, sw), np.float32)
        for _ in range(light.shadows):
            centre = rng.uniform(0, 1, 2) * (sw, sh)
            pts = centre + rng.normal(0, 1, (6, 2)) * (sw * 0.35, sh * 0.35)
            hull = cv2.convexHull(pts.astype(np.float32))[:, 0]
            cv2.fillConvexPoly(shadow, np.round(hull).astype(np.int32), 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, sw * rng.uniform(0.01, 0.06)))
        field *= 1 - light.shadow_strength * np.clip(shadow, 0, 1)
    field *= light.exposure * gain
    # colour temperature folded into a 3-channel gain made at the small size, then enlarged
    temp = np.array(light.temperature, np.float32)
    gains = cv2.resize(np.ascontiguousarray(field[..., None] * temp), (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, gains, dst=img)


def finish_photo(img: np.ndarray, finish: Finish) -> np.ndarray:
    """Blur, sharpen and noise the float photo; returns uint8 BGR."""
    out = img
    if finish.defocus > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), finish.defocus)
    if finish.motion >= 2:
        k = int(round(finish.motion)) | 1
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), finish.motion_angle, 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        kernel /= max(kernel.sum(), 1e-6)
        out = cv2.filter2D(out, -1, kernel)
    if finish.sharpen > 0:
        soft = cv2.GaussianBlur(out, (0, 0), 1.2)
        out = cv2.addWeighted(out, 1 + finish.sharpen, soft, -finish.sharpen, 0)
    if finish.noise > 0.3:
        h, w = out.shape[:2]
        # luminance noise at full size, chroma noise coarser, as phone sensors give. OpenCV's
        # generator is several times faster than numpy's; seeding it here keeps it reproducible.
        cv2.setRNGSeed(int(finish.seed))
        lum = cv2.randn(np.empty((h, w), np.float32), 0.0, float(finish.noise))
        chroma = cv2.randn(np.empty((h // 2 + 1, w // 2 + 1, 3), np.float32), 0.0, float(finish.noise) * 0.5)
        out = out + cv2.merge([lum, lum, lum]) + cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
    if finish.contrast != 1.0:
        # the tone curve after the sensor's noise, as a phone applies it; clipped below
        out = (out - finish.pivot) * finish.contrast + finish.pivot
    # saturating conversion: rounds and clips to 0..255 in one pass
    return cv2.convertScaleAbs(np.maximum(out, 0))
