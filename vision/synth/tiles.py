"""What a tile looks like: its style, and its face and back drawn as flat textures.

A face texture is 2s x s pixels (s per half), the first half on the left. The renderer maps it
onto the tile's top in 3-D; printed pictures reuse it flat. Pips are drilled, so each is drawn
as a dark (or coloured) disc with a darker inner edge on the lit side and a light rim.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

#: pip centres in a unit half (x along the tile's length, y across it)
_C, _LO, _HI = 0.5, 0.25, 0.75
PIP_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(_C, _C)],
    2: [(_LO, _LO), (_HI, _HI)],
    3: [(_LO, _LO), (_C, _C), (_HI, _HI)],
    4: [(_LO, _LO), (_HI, _LO), (_LO, _HI), (_HI, _HI)],
    5: [(_LO, _LO), (_HI, _LO), (_C, _C), (_LO, _HI), (_HI, _HI)],
    # two rows of three, the rows running along the tile
    6: [(x, y) for y in (_LO, _HI) for x in (0.22, 0.5, 0.78)],
}

#: a common colour per value on coloured-pip sets (BGR)
PIP_COLOURS: dict[int, tuple[int, int, int]] = {
    1: (200, 140, 30),  # light blue
    2: (40, 140, 40),  # green
    3: (40, 40, 200),  # red
    4: (30, 80, 140),  # brown
    5: (140, 40, 20),  # dark blue
    6: (20, 170, 210),  # yellow/gold
}


#: what a set's backs show (see `TileStyle.back`)
BACKS = ("plain", "line", "logo-ring", "logo-diamond", "logo-word")


@dataclass(frozen=True, slots=True)
class TileStyle:
    """One set of tiles: every tile in a photo shares a style."""

    name: str
    face: tuple[int, int, int]  # BGR of the face
    pip: tuple[int, int, int]  # BGR of plain pips
    coloured: bool  # each value its own colour
    divider: float  # divider thickness as a fraction of the half's side
    pin: bool  # a brass pin in the middle of the divider
    radius: float  # corner radius in units (a half is 1 unit)
    thickness: float  # height in units
    pip_size: float  # pip radius as a fraction of the half's side
    wear: float  # 0..1, scratches and grime
    six_across: bool  # some sets turn the six's rows across the tile
    two_flip: bool  # which diagonal the 2 and 3 use
    #: what the back shows: "plain", "line" (a moulded frame) or a maker's logo in the middle,
    #: embossed or printed ("logo-ring", "logo-diamond", "logo-word")
    back: str = "plain"
    #: the divider painted in the pip colour (black on ivory: both real sets in ../shared/real are
    #: so) instead of a groove a little darker than the face
    painted_divider: bool = False
    #: a coloured set's own colours, one per value 0..6 (BGR; None: `PIP_COLOURS`). Sets differ:
    #: a player's set may have a tan four or a purple six (`vision.synth.styles`).
    pip_colours: tuple[tuple[int, int, int], ...] | None = None

    @property
    def side(self) -> tuple[int, int, int]:
        """Side walls: the face colour a little darker (lit sides get shaded later)."""
        return tuple(int(c * 0.88) for c in self.face)  # type: ignore[return-value]


_FACES = {
    "ivory": ((200, 228, 238), (20, 20, 20)),
    "white": ((236, 238, 238), (25, 25, 25)),
    "cream": ((185, 222, 240), (30, 25, 20)),
    "bone": ((175, 205, 220), (15, 15, 15)),
    "black": ((28, 28, 30), (235, 235, 235)),
    "blue": ((120, 60, 25), (240, 240, 240)),
    "red": ((35, 35, 150), (240, 240, 240)),
    "green": ((50, 110, 30), (240, 240, 240)),
}


def random_tile_style(rng: np.random.Generator, painted_share: float = 0.0) -> TileStyle:
    """A random set. `painted_share`: the chance its divider is painted in the pip colour; at 0
    nothing more is drawn from `rng`, so the films rendered before painted dividers stay the same."""
    # ivory/white/cream sets are what people own; dark and coloured sets less often
    names = list(_FACES)
    weights = np.array([4, 4, 3, 1.5, 1.2, 0.4, 0.3, 0.3])
    name = names[int(rng.choice(len(names), p=weights / weights.sum()))]
    face, pip = _FACES[name]
    blue, green, red = (int(np.clip(c + rng.normal(0, 6), 0, 255)) for c in face)
    face = (blue, green, red)
    coloured = name in ("ivory", "white", "cream") and rng.random() < 0.2
    style = TileStyle(
        name=name + ("-coloured" if coloured else ""),
        face=face,
        pip=pip,
        coloured=coloured,
        divider=float(rng.choice([0.02, 0.035, 0.05, 0.07])),
        pin=bool(rng.random() < 0.35),
        radius=float(rng.uniform(0.04, 0.2)),
        thickness=float(rng.uniform(0.28, 0.48)),
        pip_size=float(rng.uniform(0.075, 0.105)),
        wear=float(rng.uniform(0, 1) ** 2),
        six_across=bool(rng.random() < 0.15),
        two_flip=bool(rng.random() < 0.5),
        back=str(rng.choice(BACKS, p=[0.45, 0.15, 0.15, 0.1, 0.15])),
    )
    if painted_share > 0 and rng.random() < painted_share:
        # paint is seen, so it is never thinner than a fine pen line
        style = replace(style, painted_divider=True, divider=max(style.divider, 0.05))
    return style


def pip_positions(value: int, style: TileStyle | None = None) -> list[tuple[float, float]]:
    pts = PIP_LAYOUTS[value]
    if style is not None:
        if style.six_across and value == 6:
            pts = [(y, x) for x, y in pts]
        if style.two_flip and value in (2, 3):
            pts = [(x, 1 - y) for x, y in pts]
    return pts


def _rounded_mask(h: int, w: int, r: float) -> np.ndarray:
    """Anti-aliased rounded-rectangle alpha (float32 0..1), drawn 4x larger then shrunk."""
    return _rounded_mask_cached(h, w, int(round(r * 4)) / 4)


@lru_cache(maxsize=512)
def _rounded_mask_cached(h: int, w: int, r: float) -> np.ndarray:
    k = 4
    big = np.zeros((h * k, w * k), np.uint8)
    rr = max(int(r * k), 0)
    cv2.rectangle(big, (rr, 0), (w * k - 1 - rr, h * k - 1), 255, -1)
    cv2.rectangle(big, (0, rr), (w * k - 1, h * k - 1 - rr), 255, -1)
    if rr > 0:
        for cx, cy in ((rr, rr), (w * k - 1 - rr, rr), (rr, h * k - 1 - rr), (w * k - 1 - rr, h * k - 1 - rr)):
            cv2.circle(big, (cx, cy), rr, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def draw_face(
    a: int,
    b: int,
    style: TileStyle,
    s: int,
    rng: np.random.Generator,
    light: tuple[float, float] = (-0.5, -0.7),
    printed: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The face of tile a-b (a on the left): BGR uint8 (s, 2s, 3) and alpha float32 (s, 2s).

    `light` is the direction light comes from in texture pixels (for pip and bevel shading);
    `printed` draws it as a flat picture (no bevel, no drilled pips).
    """
    h, w = s, 2 * s
    face = np.array(style.face, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = face
    # gentle unevenness of the material
    low = rng.normal(0, 1, (4, 8)).astype(np.float32)
    img += cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC)[..., None] * (3 + 6 * style.wear)
    lx, ly = light
    if not printed:
        # bevel: edges facing the light are brighter, the others darker
        # separable: the left/right rims depend on x only, the top/bottom rims on y only
        edge = max(1.5, s * 0.06)
        xs, ys = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)
        rim = lambda d: np.clip(1 - d / edge, 0, 1) ** 1.5  # noqa: E731
        # a rim facing the light (normal . light > 0) is brighter
        fx = (rim(w - 1 - xs) - rim(xs)) * lx
        fy = (rim(h - 1 - ys) - rim(ys)) * ly
        img *= (1 + 0.18 * (fy[:, None] + fx[None, :]))[..., None]
    # marks are drawn with 4 bits of sub-pixel precision (shift=4, coordinates x16) for clean edges
    dk = max(1, int(round(style.divider * s)))
    # divider: a groove (dark line) with a light edge beside it, or a flat painted line
    x0 = w // 2
    groove = (
        tuple(float(c) * 0.45 for c in style.face)
        if sum(style.face) > 300
        else tuple(min(255.0, c * 0.45 + 90) for c in style.face)
    )
    if style.name.startswith("black"):
        groove = (200.0, 200.0, 200.0)
    if style.painted_divider:
        groove = tuple(float(c) for c in style.pip)
    margin = int(s * rng.uniform(0.08, 0.16))
    if style.divider > 0:  # some sets have none, only the pin (`vision.synth.styles`)
        cv2.line(img, (x0, margin), (x0, h - 1 - margin), groove, dk, cv2.LINE_AA)
    if not printed and dk >= 2 and not style.painted_divider and style.divider > 0:
        cv2.line(
            img,
            (x0 + dk, margin),
            (x0 + dk, h - 1 - margin),
            tuple(min(255.0, c * 1.08) for c in style.face),
            1,
            cv2.LINE_AA,
        )
    if style.pin:
        r = max(1.5, s * 0.065)
        centre = (int(x0 * 16), int(h / 2 * 16))
        cv2.circle(img, centre, int(r * 16), (40, 120, 170), -1, cv2.LINE_AA, 4)
        cv2.circle(
            img,
            (int((x0 + lx * r * 0.3) * 16), int((h / 2 + ly * r * 0.3) * 16)),
            int(r * 0.5 * 16),
            (140, 210, 240),
            -1,
            cv2.LINE_AA,
            4,
        )
    pr = style.pip_size * s
    for half, value in ((0, a), (1, b)):
        colour = (style.pip_colours or PIP_COLOURS)[value] if style.coloured and value else style.pip
        for px, py in pip_positions(value, style):
            cx = half * s + px * s
            cy = py * s
            jx, jy = rng.normal(0, 0.01 * s, 2)
            cx, cy = cx + jx, cy + jy
            if not printed:
                # a light rim where the drill met the surface
                rim_colour = tuple(min(255.0, c * 1.1 + 10) for c in style.face)
                cv2.circle(img, (int(cx * 16), int(cy * 16)), int(pr * 1.15 * 16), rim_colour, -1, cv2.LINE_AA, 4)
            cv2.circle(img, (int(cx * 16), int(cy * 16)), int(pr * 16), colour, -1, cv2.LINE_AA, 4)
            if not printed and pr > 2.5:
                # the inner wall lit on the far side from the light
                inner = tuple(min(255.0, c + 45) for c in colour)
                off = pr * 0.35
                cv2.circle(
                    img,
                    (int((cx - lx * off) * 16), int((cy - ly * off) * 16)),
                    int(pr * 0.45 * 16),
                    inner,
                    -1,
                    cv2.LINE_AA,
                    4,
                )
                cv2.circle(
                    img,
                    (int((cx - lx * off * 0.3) * 16), int((cy - ly * off * 0.3) * 16)),
                    int(pr * 0.7 * 16),
                    colour,
                    -1,
                    cv2.LINE_AA,
                    4,
                )
    if style.wear > 0.2 and not printed:
        _scratches(img, rng, style.wear, s)
    alpha = _rounded_mask(h, w, style.radius * s)
    return np.clip(img, 0, 255).astype(np.uint8), alpha


def draw_back(style: TileStyle, s: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The back of a tile (face-down tiles, tiles on edge): no pips and no divider; plain, a
    moulded frame, or the set's logo in the middle (real sets carry one; the reader must learn
    that a back with a round mark is not a 1-1)."""
    h, w = s, 2 * s
    face = np.array(style.face, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = face * rng.uniform(0.93, 1.0)
    low = rng.normal(0, 1, (4, 8)).astype(np.float32)
    img += cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC)[..., None] * 4
    if style.back == "line" or (style.back == "plain" and rng.random() < 0.15):
        m = int(s * 0.15)
        cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), tuple(float(c) * 0.9 for c in style.face), 1, cv2.LINE_AA)
    elif style.back.startswith("logo"):
        _logo(img, style, s)
    if style.wear > 0.2:
        _scratches(img, rng, style.wear, s)
    return np.clip(img, 0, 255).astype(np.uint8), _rounded_mask(h, w, style.radius * s)


def _logo(img: np.ndarray, style: TileStyle, s: int) -> None:
    """A maker's mark in the middle of a back: the same on every tile of a set."""
    h, w = img.shape[:2]
    face = np.array(style.face, np.float32)
    # embossed marks are a shade of the body; printed ones gold or dark. Fixed by the style (a
    # hash of its name and face), not per tile, so one set's backs all match.
    kind = (sum(style.face) + len(style.name)) % 3
    if kind == 0:
        ink = tuple(float(c) for c in (face * 0.8 if face.mean() > 90 else face * 1.4 + 20))
    elif kind == 1:
        ink = (40.0, 150.0, 200.0)  # gold
    else:
        ink = tuple(float(c) for c in (face * 0.35 if face.mean() > 90 else np.minimum(255, face + 150)))
    cx, cy = w / 2, h / 2
    sh = 16  # sub-pixel shift for clean small shapes
    thick = max(1, int(round(s * 0.04)))
    if style.back == "logo-ring":
        cv2.circle(img, (int(cx * sh), int(cy * sh)), int(s * 0.32 * sh), ink, thick, cv2.LINE_AA, 4)
        star = []
        for k in range(10):
            a = np.pi / 2 + k * np.pi / 5
            r = s * (0.2 if k % 2 == 0 else 0.08)
            star.append((cx + r * np.cos(a), cy - r * np.sin(a)))
        cv2.fillPoly(img, [np.round(np.array(star) * sh).astype(np.int32)], ink, cv2.LINE_AA, 4)
    elif style.back == "logo-diamond":
        pts = np.array([[cx, cy - s * 0.3], [cx + s * 0.55, cy], [cx, cy + s * 0.3], [cx - s * 0.55, cy]])
        cv2.polylines(img, [np.round(pts * sh).astype(np.int32)], True, ink, thick, cv2.LINE_AA, 4)
        inner = (pts - [cx, cy]) * 0.45 + [cx, cy]
        cv2.fillConvexPoly(img, np.round(inner * sh).astype(np.int32), ink, cv2.LINE_AA, 4)
    else:  # a word: a row of letter-like strokes
        letters = 5 + (sum(style.face) % 4)
        lw = s * 1.1 / letters
        x0 = cx - lw * letters / 2
        for k in range(letters):
            xa = x0 + k * lw + lw * 0.15
            xb = xa + lw * 0.7
            ya, yb = cy - s * 0.12, cy + s * 0.12
            strokes = ((xa, ya, xa, yb), (xa, ya, xb, ya), (xb, ya, xb, yb), (xa, yb, xb, yb), (xa, cy, xb, cy))
            for j, (a0, b0, a1, b1) in enumerate(strokes):
                if (k * 7 + j * 3 + letters) % 5 < 3:  # a fixed pattern of strokes per letter
                    cv2.line(
                        img, (int(a0 * sh), int(b0 * sh)), (int(a1 * sh), int(b1 * sh)), ink, thick, cv2.LINE_AA, 4
                    )


def _scratches(img: np.ndarray, rng: np.random.Generator, wear: float, s: int) -> None:
    h, w = img.shape[:2]
    base = img.mean(axis=(0, 1))
    for _ in range(int(wear * 6)):
        p0 = rng.uniform([0, 0], [w, h])
        p1 = p0 + rng.normal(0, s * 0.15, 2)
        tone = tuple(float(c) for c in base * rng.uniform(0.82, 0.95))
        cv2.line(img, tuple(int(v) for v in p0), tuple(int(v) for v in p1), tone, 1, cv2.LINE_AA)
    if wear > 0.5:
        # grime in one corner
        g = np.zeros((h, w), np.float32)
        cv2.circle(g, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(s * 0.4), 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), s * 0.2)
        img *= (1 - 0.12 * wear * g)[..., None]
