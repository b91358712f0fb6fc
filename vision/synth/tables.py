"""Table tops drawn flat, in table-plane pixels (the renderer warps them into the photo).

Every function here is procedural: smooth noise made by enlarging small random grids, so a
table costs a few resizes and a few arithmetic passes, whatever its size.
"""

from __future__ import annotations

import cv2
import numpy as np

TABLE_KINDS = ("wood", "felt", "cloth", "laminate", "tablecloth", "stone")
_TABLE_WEIGHTS = (0.3, 0.22, 0.16, 0.12, 0.12, 0.08)


def pick_table(rng: np.random.Generator) -> str:
    return str(TABLE_KINDS[int(rng.choice(len(TABLE_KINDS), p=np.array(_TABLE_WEIGHTS)))])


def pixel_noise(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Per-pixel standard normal noise, float32. OpenCV's generator is several times faster
    than numpy's at this size; seeding it from `rng` keeps the result reproducible."""
    cv2.setRNGSeed(int(rng.integers(2**31)))
    return cv2.randn(np.empty((h, w), np.float32), 0.0, 1.0)


def smooth_noise(h: int, w: int, cells: float, rng: np.random.Generator) -> np.ndarray:
    """Zero-mean noise whose features are about `cells` pixels across (float32, ~unit std)."""
    gh, gw = max(2, int(h / cells) + 2), max(2, int(w / cells) + 2)
    grid = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def fractal_noise(h: int, w: int, cells: float, rng: np.random.Generator, octaves: int = 3) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    for _ in range(octaves):
        out += amp * smooth_noise(h, w, cells, rng)
        cells /= 2.2
        amp *= 0.5
        if cells < 1.5:
            break
    return out


def _colour(base: tuple[float, float, float], rng: np.random.Generator, spread: float = 12) -> np.ndarray:
    return np.clip(np.array(base, np.float32) + rng.normal(0, spread, 3), 0, 255).astype(np.float32)


def draw_table(kind: str, h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    """A (h, w, 3) float32 BGR table top; `ppu` is canvas pixels per world unit (~24 mm)."""
    fn = {
        "wood": _wood,
        "felt": _felt,
        "cloth": _cloth,
        "laminate": _laminate,
        "tablecloth": _tablecloth,
        "stone": _stone,
        **STYLE_TABLES,
    }[kind]
    return fn(h, w, ppu, rng)


def _stretched(h: int, w: int, cell_y: float, cell_x: float, rng: np.random.Generator) -> np.ndarray:
    """Noise with features `cell_x` long and `cell_y` thin: the streaks of wood grain."""
    gy, gx = max(2, int(h / max(cell_y, 0.5)) + 2), max(2, int(w / max(cell_x, 0.5)) + 2)
    return cv2.resize(rng.normal(0, 1, (gy, gx)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    tones = [(40, 70, 110), (30, 55, 85), (60, 100, 150), (80, 130, 175), (25, 40, 60), (70, 90, 100), (50, 65, 80)]
    base = _colour(tones[int(rng.integers(len(tones)))], rng, 10)
    # worked at half size: grain is long and thin along x, so little is lost
    q = 2
    hh, ww, p = h // q + 1, w // q + 1, ppu / q
    # streaks thinner than a pixel or two would only alias into stripes: keep them resolvable
    fine = _stretched(hh, ww, max(1.5, p * rng.uniform(0.04, 0.1)), p * rng.uniform(4, 12), rng)
    bands = _stretched(hh, ww, max(3.0, p * rng.uniform(0.3, 1.0)), p * rng.uniform(10, 30), rng)
    tone = 0.06 * fine + float(rng.uniform(0.04, 0.09)) * bands
    # the grain wanders a little: shift rows by a slow function of x
    wander = (
        cv2.resize(
            rng.normal(0, 1, (1, max(2, int(ww / (p * 8)) + 2))).astype(np.float32),
            (ww, 1),
            interpolation=cv2.INTER_CUBIC,
        )
        * p
        * rng.uniform(0.05, 0.3)
    )
    map_x = np.broadcast_to(np.arange(ww, dtype=np.float32)[None, :], (hh, ww))
    map_y = np.arange(hh, dtype=np.float32)[:, None] + wander
    tone = cv2.remap(
        tone, np.ascontiguousarray(map_x), map_y.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    if rng.random() < 0.6:
        # planks: thin dark seams every few units, each plank its own shade
        plank = p * rng.uniform(4, 9)
        off = rng.uniform(0, plank)
        rows = np.arange(hh) + off
        idx = (rows // plank).astype(int)
        shades = rng.normal(0, 0.06, idx.max() + 1).astype(np.float32)
        tone += shades[idx][:, None]
        seam = (rows % plank) < max(0.7, p * 0.03)
        tone[seam] -= 0.35
    tone += 0.05 * smooth_noise(hh, ww, p * 12, rng)
    tone = cv2.resize(tone, (w, h), interpolation=cv2.INTER_LINEAR)
    return base[None, None, :] * (1 + tone[..., None])


def _felt(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    tones = [(40, 110, 30), (50, 90, 20), (110, 60, 20), (30, 30, 120), (60, 70, 60), (60, 50, 40), (130, 120, 40)]
    base = _colour(tones[int(rng.integers(len(tones)))], rng, 8)
    tone = 0.05 * fractal_noise(h, w, ppu * 2, rng) + 0.06 * pixel_noise(h, w, rng)
    return base[None, None, :] * (1 + tone[..., None])


def _cloth(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    """Woven cloth: a fine basket weave plus slow folds."""
    tones = [(60, 60, 60), (45, 45, 50), (90, 95, 100), (120, 130, 140), (150, 150, 145), (60, 70, 90), (40, 30, 30)]
    base = _colour(tones[int(rng.integers(len(tones)))], rng, 8)
    period = max(2.0, ppu * rng.uniform(0.05, 0.15))
    # the weave is separable: a row wave times a column wave
    wx = np.sin(np.arange(w, dtype=np.float32) * np.float32(2 * np.pi / period))
    wy = np.sin(np.arange(h, dtype=np.float32) * np.float32(2 * np.pi / period))
    weave = wy[:, None] * wx[None, :]
    tone = 0.08 * weave + 0.08 * pixel_noise(h, w, rng) + 0.06 * smooth_noise(h, w, ppu * 4, rng)
    return base[None, None, :] * (1 + tone[..., None])


def _laminate(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    tones = [(220, 220, 215), (200, 205, 210), (170, 175, 180), (120, 120, 120), (50, 50, 50), (180, 200, 210)]
    base = _colour(tones[int(rng.integers(len(tones)))], rng, 8)
    tone = 0.025 * fractal_noise(h, w, ppu * 1.5, rng) + 0.02 * pixel_noise(h, w, rng)
    return base[None, None, :] * (1 + tone[..., None])


def _stone(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    tones = [(200, 200, 200), (80, 80, 85), (170, 180, 190), (40, 40, 40)]
    base = _colour(tones[int(rng.integers(len(tones)))], rng, 10)
    veins = np.abs(fractal_noise(h, w, ppu * 5, rng, 4))
    tone = 0.15 * np.exp(-veins * 6) - 0.05 + 0.04 * pixel_noise(h, w, rng)
    if base.mean() < 100:
        tone = -tone
    return base[None, None, :] * (1 - tone[..., None])


def _tablecloth(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    """Patterned cloth: gingham checks, stripes, or dots, on a weave."""
    a = _colour([(240, 240, 240), (220, 235, 245), (200, 220, 230)][int(rng.integers(3))], rng, 6)
    b = _colour(
        [(40, 40, 190), (150, 80, 30), (40, 130, 40), (30, 120, 200), (120, 40, 120)][int(rng.integers(5))], rng, 15
    )
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    cell = ppu * rng.uniform(0.8, 4.0)
    kind = int(rng.integers(3))
    if kind == 0:  # gingham: half tone where one band crosses, full where both do
        m = ((xs // cell) % 2) * 0.5 + ((ys // cell) % 2) * 0.5
    elif kind == 1:  # stripes
        m = (((xs + ys * np.float32(rng.uniform(-0.3, 0.3))) // cell) % 2).astype(np.float32)
    else:  # dots
        gx, gy = (xs % cell) - cell / 2, (ys % cell) - cell / 2
        m = ((gx * gx + gy * gy) < (cell * 0.25) ** 2).astype(np.float32)
    m = np.ascontiguousarray(m, dtype=np.float32)
    m = cv2.GaussianBlur(m, (0, 0), max(0.5, ppu * 0.02))
    img = a[None, None, :] * (1 - m[..., None]) + b[None, None, :] * m[..., None]
    tone = 0.05 * pixel_noise(h, w, rng) + 0.05 * smooth_noise(h, w, ppu * 5, rng)
    return img * (1 + tone[..., None])


# Tables the styles benchmark draws (`vision.synth.styles`), never picked at random by
# `pick_table` (adding them there would change every training set's draws): the tables a player
# may own that the training photos lack.


def _white(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    """A white table or sheet: ivory tiles on it show the detector almost no edge."""
    base = _colour([(245, 245, 245), (238, 242, 246), (250, 250, 250)][int(rng.integers(3))], rng, 4)
    tone = 0.015 * pixel_noise(h, w, rng) + 0.02 * smooth_noise(h, w, ppu * 8, rng)
    return np.clip(base[None, None, :] * (1 + tone[..., None]), 0, 255)


def _dark(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    """A near-black table (slate, black laminate, dark walnut)."""
    base = _colour([(22, 22, 24), (30, 28, 26), (18, 22, 30)][int(rng.integers(3))], rng, 4)
    tone = 0.08 * pixel_noise(h, w, rng) + 0.15 * smooth_noise(h, w, ppu * 3, rng)
    return np.clip(base[None, None, :] * (1 + tone[..., None]), 0, 255)


def _glossy(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    """A varnished or glass top: a plain colour with a broad, bright reflection of a window or a
    lamp across it, and softer ones beside it."""
    base = _colour([(60, 80, 110), (200, 200, 200), (40, 40, 40), (120, 140, 160)][int(rng.integers(4))], rng, 10)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    shine = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (max(2, int(w * rng.uniform(0.1, 0.4))), max(2, int(h * rng.uniform(0.03, 0.15))))
        cv2.ellipse(shine, centre, axes, float(rng.uniform(0, 180)), 0, 360, float(rng.uniform(0.5, 1.0)), -1)
    shine = cv2.GaussianBlur(shine, (0, 0), max(1.0, ppu * 0.8))
    img += shine[..., None] * (255 - img) * 0.9
    return img * (1 + 0.01 * pixel_noise(h, w, rng)[..., None])


def _busy(h: int, w: int, ppu: float, rng: np.random.Generator) -> np.ndarray:
    """A busy printed cloth: scattered flowers or blobs and small bright marks in several colours,
    the size of pips and of tiles."""
    base = _colour([(235, 235, 240), (60, 60, 140), (40, 90, 40), (150, 110, 60)][int(rng.integers(4))], rng, 10)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    inks = [
        _colour(c, rng, 20)
        for c in ((30, 30, 200), (40, 160, 230), (160, 60, 30), (30, 140, 40), (20, 20, 20), (240, 240, 240))
    ]
    count = int(h * w / (ppu * ppu) * rng.uniform(0.5, 2.0))
    for _ in range(min(count, 20000)):
        ink = inks[int(rng.integers(len(inks)))]
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        r = max(1, int(ppu * float(np.exp(rng.uniform(np.log(0.06), np.log(0.6))))))
        if rng.random() < 0.5:
            cv2.circle(img, (x, y), r, ink.tolist(), -1, cv2.LINE_AA)
        else:
            cv2.ellipse(
                img, (x, y), (r, max(1, r // 3)), float(rng.uniform(0, 180)), 0, 360, ink.tolist(), -1, cv2.LINE_AA
            )
    return img * (1 + 0.03 * pixel_noise(h, w, rng)[..., None])


STYLE_TABLES = {"white": _white, "dark": _dark, "glossy": _glossy, "busy": _busy}
