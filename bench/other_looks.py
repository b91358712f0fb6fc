"""The reader on real photos made to look like other sets: how often it is sure and wrong.

    .venv/bin/python bench/other_looks.py [--real ../shared/real] [--per-look 100] [--seed 0]
        [--looks plain,red-pips,...] [--save DIR] [--json]

The real `domibot-crops` photos (ivory tiles, black pips, dark cloth) are the only real tiles the
project has, and the sets players bring are not ivory with black pips. So each crop is re-coloured
and transformed in memory into the look of another set (coloured pips, dark tiles with white pips,
pale or hollow pips, another body or cloth, squashed, blurred, small, glare) and read with the
bundled models, as `spinner eval --real` reads the crops (the 100x100 photo as it is). Per look:
the crops whose tile was found, halves right (of the found tiles' halves, matched by position),
exact tile right, the tiles read sure (not `unsure`), and the sure tiles that are wrong: the
reader's one failure that asks nobody. The target: sure tiles right at least 99.5 % of the time on
any set.

How a crop is re-coloured: its tile is cut as the real films cut it (`vision.evaluate.real_films.
cut_sprite`: the tile's box, which half holds which value, crops it cannot tell are left out), the
crop enlarged 3x, and within the tile each pixel's ink (how far it is from the ivory towards the
pips' darkness, 0-1) and the light falling on it (the lightness with the ink painted over, over the
ivory's) are taken apart. A look paints the tile again as `light * ((1 - ink) * body + ink * pip)`
with its own colours (or its ink changed: paler, hollow, grown, shrunk), the cloth kept or painted
over, and shrinks it back to 100x100. The look `rebuilt` paints the crop's own colours back: what
the painting alone costs.

The crops are measured only: read from `../shared/real/` at run time, nothing made from them is
kept in the repository (`--save DIR` writes the sure and wrong ones, and a sample of each look, to
a folder of one's own: /tmp, never the repository).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.tiles import Tile  # noqa: E402
from vision.evaluate.real_films import Sprite, _folder_values, cut_sprite  # noqa: E402
from vision.read.reader import Reader  # noqa: E402
from vision.read.reading import Reading  # noqa: E402

#: the crop is painted at this many times its size, then shrunk back (soft edges for free)
UP = 3

BGR = tuple[float, float, float]
WHITE: BGR = (240.0, 242.0, 242.0)
#: pip colours, one per value (0 has none): the common "colour dot" sets
DOTS_A: dict[int, BGR] = {
    1: (230, 190, 90),  # light blue
    2: (60, 150, 40),  # green
    3: (40, 40, 200),  # red
    4: (90, 140, 185),  # tan
    5: (140, 40, 20),  # dark blue
    6: (40, 190, 230),  # yellow
}
#: pastel dots: little darker than the ivory, only coloured
DOTS_PASTEL: dict[int, BGR] = {
    1: (230, 200, 150),  # light blue
    2: (150, 225, 150),  # light green
    3: (190, 170, 250),  # pink
    4: (220, 170, 200),  # lavender
    5: (130, 190, 250),  # light orange
    6: (90, 220, 240),  # yellow
}
DOTS_PASTEL_B: dict[int, BGR] = {
    1: (170, 215, 250),  # peach
    2: (240, 220, 170),  # sky blue
    3: (200, 240, 190),  # mint
    4: (230, 190, 230),  # lilac
    5: (160, 160, 245),  # light red
    6: (150, 230, 230),  # light yellow-green
}
DOTS_B: dict[int, BGR] = {
    1: (30, 120, 240),  # orange
    2: (150, 40, 120),  # purple
    3: (140, 150, 20),  # teal
    4: (150, 100, 235),  # pink
    5: (25, 25, 25),  # black
    6: (40, 40, 170),  # dark red
}


@dataclass
class Painted:
    """One crop taken apart at UP times its size (`take_apart`)."""

    sprite: Sprite
    image: np.ndarray  # float32 BGR, enlarged
    tile: np.ndarray  # 0-1, the tile's face (soft edge)
    ink: np.ndarray  # 0-1, how much of the pips' darkness each pixel holds
    light: np.ndarray  # the light on the face: 1 where it is as the ivory
    half: np.ndarray  # 0: the half showing values[0], 1: the other
    divider: np.ndarray  # bool: the band across the middle
    ivory: np.ndarray  # BGR
    pip: np.ndarray  # BGR, the pips' own colour
    along: np.ndarray  # each pixel's place along the tile, -1..1 end to end
    across: np.ndarray  # and across it, -1..1


def _box_mask(shape: tuple[int, ...], centre: np.ndarray, angle: float, length: float, width: float) -> np.ndarray:
    corners = cv2.boxPoints(((float(centre[0]), float(centre[1])), (length, width), math.degrees(angle)))
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(corners * 8).astype(np.int32)], 1, shift=3)
    return mask


def take_apart(sprite: Sprite) -> Painted:
    image = cv2.resize(sprite.image, None, fx=UP, fy=UP, interpolation=cv2.INTER_CUBIC).astype(np.float32)
    image = np.clip(image, 0, 255)
    centre = np.asarray(sprite.centre, np.float64) * UP + (UP - 1) / 2
    length, width = sprite.length * UP, sprite.width * UP
    shape = image.shape
    ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32)
    ax = np.array([math.cos(sprite.angle), math.sin(sprite.angle)])
    along = ((xs - centre[0]) * ax[0] + (ys - centre[1]) * ax[1]) / (length / 2)
    across = (-(xs - centre[0]) * ax[1] + (ys - centre[1]) * ax[0]) / (width / 2)
    # the face: the box grown by half a pixel, softened over a pixel of the crop
    face = _box_mask(shape, centre, sprite.angle, length + UP, width + UP).astype(np.float32)
    face = cv2.GaussianBlur(face, (0, 0), UP * 0.5)
    inner = (np.abs(along) < 1 - 0.14 * width / length) & (np.abs(across) < 0.86)
    lab = cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_BGR2LAB)
    lightness = lab[:, :, 0].astype(np.float32)
    values = lightness[inner]
    ivory_l = float(np.percentile(values, 70))
    dark_l = float(np.percentile(values, 2))
    top = 0.88 * ivory_l
    ink = np.clip((top - lightness) / max(1.0, top - dark_l), 0, 1)
    ink[~inner] = 0
    ink = cv2.GaussianBlur(ink, (0, 0), 0.6)
    # the light: the lightness with the ink painted over, over the ivory's
    holes = cv2.dilate((ink > 0.05).astype(np.uint8), np.ones((5, 5), np.uint8))
    painted = cv2.inpaint(np.clip(lightness, 0, 255).astype(np.uint8), holes, 5, cv2.INPAINT_TELEA).astype(np.float32)
    light = np.clip(cv2.GaussianBlur(painted, (0, 0), UP) / ivory_l, 0.4, 1.3)
    light[face < 0.01] = 1
    ivory = np.median(image[inner & (ink < 0.02)], axis=0)
    pip = np.median(image[ink > 0.8], axis=0) if (ink > 0.8).any() else np.array([30.0, 30.0, 30.0])
    half = (along > 0).astype(np.int32)
    divider = np.abs(along) < 0.07
    return Painted(sprite, image, face, ink, light, half, divider, ivory, pip, along, across)


def paint(
    p: Painted,
    body: BGR | np.ndarray | None = None,
    pips: BGR | dict[int, BGR] | None = None,
    ink: np.ndarray | None = None,
    cloth: np.ndarray | None = None,
    divider: BGR | None = None,
) -> np.ndarray:
    """The crop painted again (100x100 uint8): the face `body` (a colour, or an image of colours),
    its pips `pips` (a colour, or one per value), `ink` in place of the crop's own, the cloth
    `cloth` (an image) in place of the crop's own; the divider `divider`'s colour (default: the
    pips' own colour, the crop's where the pips are coloured by value)."""
    shape = p.image.shape
    body_px = np.broadcast_to(np.asarray(p.ivory if body is None else body, np.float32), shape)
    if isinstance(pips, dict):
        values = p.sprite.values
        per_half = [np.asarray(pips.get(values[k], p.pip), np.float32) for k in (0, 1)]
        pip_px = np.where(p.half[..., None] == 0, per_half[0], per_half[1])
        line = np.asarray(p.pip if divider is None else divider, np.float32)
        pip_px = np.where(p.divider[..., None], line, pip_px)
    else:
        pip_px = np.broadcast_to(np.asarray(p.pip if pips is None else pips, np.float32), shape)
        if divider is not None:
            pip_px = np.where(p.divider[..., None], np.asarray(divider, np.float32), pip_px)
    a = (p.ink if ink is None else ink)[..., None]
    face = p.light[..., None] * ((1 - a) * body_px + a * pip_px)
    behind = p.image if cloth is None else cloth
    out = p.tile[..., None] * face + (1 - p.tile[..., None]) * behind
    small = cv2.resize(
        np.clip(out, 0, 255), (p.sprite.image.shape[1], p.sprite.image.shape[0]), interpolation=cv2.INTER_AREA
    )
    return np.clip(np.round(small), 0, 255).astype(np.uint8)


def _noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Smooth noise, about `cells` blobs across, -1..1."""
    grid = rng.uniform(-1, 1, (cells + 1, cells + 1)).astype(np.float32)
    return cv2.resize(grid, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def marble(p: Painted, rng: np.random.Generator) -> np.ndarray:
    """A white-grey stone: veins where a turbulent stripe pattern crosses zero."""
    h, w = p.image.shape[:2]
    turbulence = _noise(rng, (h, w), 6) + 0.5 * _noise(rng, (h, w), 13)
    theta = rng.uniform(0, math.pi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    phase = (xs * math.cos(theta) + ys * math.sin(theta)) / (p.sprite.width * UP) * 2.5 + 2.0 * turbulence
    vein = np.exp(-((np.sin(phase * math.pi)) ** 2) / 0.02)
    base = np.asarray([228.0, 230.0, 232.0]) + 10 * _noise(rng, (h, w), 9)[..., None]
    return base - vein[..., None] * np.asarray([70.0, 70.0, 65.0])


def checked_cloth(p: Painted, rng: np.random.Generator) -> np.ndarray:
    """A patterned cloth: two colours in checks about a third of the tile's width, a weave's noise."""
    h, w = p.image.shape[:2]
    period = p.sprite.width * UP * rng.uniform(0.5, 0.8)
    theta = rng.uniform(0, math.pi / 2)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xs * math.cos(theta) + ys * math.sin(theta)
    v = -xs * math.sin(theta) + ys * math.cos(theta)
    check = ((np.floor(u / period) + np.floor(v / period)) % 2)[..., None]
    a, b = np.asarray([60.0, 70.0, 150.0]), np.asarray([150.0, 170.0, 190.0])
    return check * a + (1 - check) * b + 8 * rng.standard_normal((h, w, 1))


def flat_cloth(p: Painted, colour: BGR, rng: np.random.Generator) -> np.ndarray:
    h, w = p.image.shape[:2]
    shade = 1 + 0.06 * _noise(rng, (h, w), 3)
    return np.asarray(colour, np.float32) * shade[..., None] + 3 * rng.standard_normal((h, w, 1))


def pale(p: Painted, share: float) -> np.ndarray:
    """The pips at `share` of their contrast, the divider as it was."""
    return np.where(p.divider, p.ink, share * p.ink)


def hollow(p: Painted) -> np.ndarray:
    """Each pip a ring: its middle taken out, a pixel of the crop left round it."""
    solid = (p.ink > 0.5).astype(np.uint8)
    middle = cv2.erode(solid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * UP + 1, 2 * UP + 1)))
    middle = cv2.GaussianBlur(middle.astype(np.float32), (0, 0), 0.7)
    return np.where(p.divider, p.ink, p.ink * (1 - middle))


def grown(p: Painted, pixels: float) -> np.ndarray:
    """The pips grown (`pixels` > 0) or shrunk by that many of the crop's pixels, the divider kept."""
    k = max(1, int(round(abs(pixels) * UP)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    changed = cv2.dilate(p.ink, kernel) if pixels > 0 else cv2.erode(p.ink, kernel)
    inside = np.abs(p.across) < 0.9
    inside &= np.abs(p.along) < 1 - 0.1 * p.sprite.width / p.sprite.length
    return np.where(p.divider | ~inside, p.ink, changed)


def no_divider(p: Painted) -> np.ndarray:
    """No line between the halves."""
    return np.where(p.divider, 0, p.ink)


def pinned(p: Painted, image: np.ndarray) -> np.ndarray:
    """A brass pin (a spinner) at the tile's middle, over the divider."""
    big = cv2.resize(image, (p.image.shape[1], p.image.shape[0]), interpolation=cv2.INTER_CUBIC).astype(np.float32)
    r = np.hypot(p.along * p.sprite.length / p.sprite.width, p.across)  # in half-widths
    disc = cv2.GaussianBlur((r < 0.2).astype(np.float32), (0, 0), 0.6 * UP)[..., None]
    brass = np.asarray([60.0, 150.0, 195.0]) * (1.25 - 0.6 * np.clip(r, 0, 0.2)[..., None] / 0.2)
    out = disc * brass + (1 - disc) * big
    small = cv2.resize(out, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_AREA)
    return np.clip(np.round(small), 0, 255).astype(np.uint8)


# ---- looks on the photo as it is (geometry, optics, compression) -------------------------------


def squashed(image: np.ndarray, sprite: Sprite, ratio: float = 1.4) -> tuple[np.ndarray, np.ndarray]:
    """The crop squeezed along the tile so that it is `ratio`:1 (the pips with it); the affine map."""
    factor = ratio * sprite.width / sprite.length
    c, a = np.asarray(sprite.centre), sprite.angle
    ax = np.array([math.cos(a), math.sin(a)])
    m2 = np.eye(2) + (factor - 1) * np.outer(ax, ax)
    matrix = np.hstack([m2, (c - m2 @ c)[:, None]]).astype(np.float32)
    out = cv2.warpAffine(
        image, matrix, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return out, matrix


def glare(image: np.ndarray, sprite: Sprite, rng: np.random.Generator, wide: bool = False) -> np.ndarray:
    """A bright soft ellipse over part of the tile (a lamp on its gloss), whitening what it covers;
    `wide`: over most of a half, whiter."""
    h, w = image.shape[:2]
    ax = np.array([math.cos(sprite.angle), math.sin(sprite.angle)])
    centre = np.asarray(sprite.centre) + ax * sprite.length * rng.uniform(-0.35, 0.35)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    theta = rng.uniform(0, math.pi)
    ra, rb = sprite.width * rng.uniform(0.35, 0.6), sprite.width * rng.uniform(0.15, 0.3)
    if wide:
        ra, rb = 1.6 * ra, 1.8 * rb
    u = (xs - centre[0]) * math.cos(theta) + (ys - centre[1]) * math.sin(theta)
    v = -(xs - centre[0]) * math.sin(theta) + (ys - centre[1]) * math.cos(theta)
    g = np.exp(-((u / ra) ** 2 + (v / rb) ** 2) * 1.5)[..., None] * rng.uniform(*((0.85, 1.0) if wide else (0.7, 0.95)))
    out = image.astype(np.float32)
    return np.clip(out + (255 - out) * g, 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    return decoded


@dataclass
class Made:
    """A look's photo and where the tile's two halves lie in it (values[0]'s half first)."""

    image: np.ndarray
    halves: np.ndarray  # (2, 2)


def half_centres(sprite: Sprite) -> np.ndarray:
    ax = np.array([math.cos(sprite.angle), math.sin(sprite.angle)])
    c = np.asarray(sprite.centre)
    return np.stack([c - ax * sprite.length / 4, c + ax * sprite.length / 4])


Look = Callable[[Painted, np.random.Generator], Made]


def _same(p: Painted, image: np.ndarray) -> Made:
    return Made(image, half_centres(p.sprite))


def _small(p: Painted, rng: np.random.Generator, back_up: bool) -> Made:
    target = rng.uniform(20, 25)
    factor = target / p.sprite.length
    image = p.sprite.image
    shrunk = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    if back_up:  # a low-resolution photo enlarged again (digital zoom): as large, as soft
        return _same(p, cv2.resize(shrunk, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_CUBIC))
    sx, sy = shrunk.shape[1] / image.shape[1], shrunk.shape[0] / image.shape[0]
    return Made(shrunk, half_centres(p.sprite) * np.array([sx, sy]))


def _squashed(p: Painted, rng: np.random.Generator) -> Made:
    image, matrix = squashed(p.sprite.image, p.sprite)
    centres = half_centres(p.sprite)
    return Made(image, centres @ matrix[:, :2].T + matrix[:, 2])


LOOKS: dict[str, Look] = {
    "plain": lambda p, r: _same(p, p.sprite.image),
    "rebuilt": lambda p, r: _same(p, paint(p)),
    # coloured pips
    "dots-by-value-a": lambda p, r: _same(p, paint(p, pips=DOTS_A)),
    "dots-by-value-b": lambda p, r: _same(p, paint(p, pips=DOTS_B)),
    "dots-pastel": lambda p, r: _same(p, paint(p, pips=DOTS_PASTEL)),
    "dots-pastel-b": lambda p, r: _same(p, paint(p, pips=DOTS_PASTEL_B)),
    "red-pips": lambda p, r: _same(p, paint(p, pips=(40, 40, 200))),
    "blue-pips": lambda p, r: _same(p, paint(p, pips=(170, 60, 20))),
    "green-pips": lambda p, r: _same(p, paint(p, pips=(50, 140, 30))),
    "gold-pips": lambda p, r: _same(p, paint(p, pips=(40, 170, 215))),
    # dark tiles
    "black-white-pips": lambda p, r: _same(p, paint(p, body=(28, 28, 30), pips=WHITE)),
    "navy-white-pips": lambda p, r: _same(p, paint(p, body=(90, 35, 20), pips=WHITE)),
    "red-white-pips": lambda p, r: _same(p, paint(p, body=(35, 35, 165), pips=WHITE)),
    "green-white-pips": lambda p, r: _same(p, paint(p, body=(45, 100, 30), pips=WHITE)),
    "black-gold-pips": lambda p, r: _same(p, paint(p, body=(28, 28, 30), pips=(50, 175, 220))),
    "black-dots-by-value": lambda p, r: _same(p, paint(p, body=(28, 28, 30), pips=DOTS_A, divider=WHITE)),
    "black-white-pips-light-cloth": lambda p, r: _same(
        p, paint(p, body=(28, 28, 30), pips=WHITE, cloth=flat_cloth(p, (200, 212, 222), r))
    ),
    # the pips' shape
    "pale-pips-30": lambda p, r: _same(p, paint(p, ink=pale(p, 0.3))),
    "pale-pips-50": lambda p, r: _same(p, paint(p, ink=pale(p, 0.5))),
    "ring-pips": lambda p, r: _same(p, paint(p, ink=hollow(p))),
    "no-divider": lambda p, r: _same(p, paint(p, ink=no_divider(p))),
    "pin": lambda p, r: _same(p, pinned(p, p.sprite.image)),
    "large-pips": lambda p, r: _same(p, paint(p, ink=grown(p, 0.7))),
    "small-pips": lambda p, r: _same(p, paint(p, ink=grown(p, -0.5))),
    # the body and the cloth
    "old-ivory": lambda p, r: _same(p, paint(p, body=(140, 208, 232))),
    "white-body": lambda p, r: _same(p, paint(p, body=(245, 245, 245))),
    "grey-body": lambda p, r: _same(p, paint(p, body=(185, 185, 182))),
    "marble-body": lambda p, r: _same(p, paint(p, body=marble(p, r))),
    "light-cloth": lambda p, r: _same(p, paint(p, cloth=flat_cloth(p, (200, 212, 222), r))),
    "checked-cloth": lambda p, r: _same(p, paint(p, cloth=checked_cloth(p, r))),
    # the photo
    "squashed-1.4": _squashed,
    "blurred": lambda p, r: _same(p, cv2.GaussianBlur(p.sprite.image, (0, 0), 1.2)),
    "jpeg-30": lambda p, r: _same(p, jpeg(p.sprite.image, 30)),
    "small-20-25px": lambda p, r: _small(p, r, back_up=False),
    "small-enlarged": lambda p, r: _small(p, r, back_up=True),
    "glare": lambda p, r: _same(p, glare(p.sprite.image, p.sprite, r)),
    "glare-wide": lambda p, r: _same(p, glare(p.sprite.image, p.sprite, r, wide=True)),
}


@dataclass
class Count:
    photos: int = 0
    found: int = 0
    halves: int = 0
    halves_right: int = 0
    exact: int = 0
    sure: int = 0
    sure_wrong: int = 0
    #: (name, read tile, calibrated, why) of each sure and wrong tile
    wrong: list[tuple[str, str, float, str]] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "photos": self.photos,
            "found": share(self.found, self.photos),
            "per_half": share(self.halves_right, self.halves),
            "exact": share(self.exact, self.photos),
            "sure": self.sure,
            "sure_wrong": self.sure_wrong,
            "sure_wrong_share": share(self.sure_wrong, self.sure),
        }


def score(reading: Reading, made: Made, values: tuple[int, int], count: Count) -> list[tuple[Any, bool]]:
    """Add one photo's reading to `count`; each read tile and whether it is right (the surest
    tile, as the right tile: one tile lies in each photo)."""
    count.photos += 1
    want = Tile.of(*values)
    if not reading.tiles:
        return []
    count.found += 1
    best = max(reading.tiles, key=lambda t: t.confidence)
    count.exact += int(best.tile is want)
    read = np.asarray([h.center for h in best.halves], np.float32)
    for k in (0, 1):
        j = int(np.linalg.norm(read - made.halves[k], axis=1).argmin())
        count.halves += 1
        count.halves_right += int(best.halves[j].value == values[k])
    judged = [(t, t is best and t.tile is want) for t in reading.tiles]
    for tile, right in judged:
        if not tile.unsure:
            count.sure += 1
            count.sure_wrong += int(not right)
    return judged


def sample(folder: Path, per_look: int, seed: int) -> tuple[list[Painted], dict[str, int]]:
    """`per_look` crops cut and taken apart, drawn evenly over the 28 tiles in a seeded order."""
    rng = np.random.default_rng(seed)
    folders = sorted(p for p in folder.iterdir() if p.is_dir() and "x" in p.name)
    queues = {f: list(rng.permutation(sorted(f.glob("*.jpg")))) for f in folders}
    kept: list[Painted] = []
    skipped: dict[str, int] = {}
    while len(kept) < per_look and any(queues.values()):
        for f in folders:
            if len(kept) >= per_look or not queues[f]:
                continue
            path = queues[f].pop()
            image = cv2.imread(str(path))
            got = (
                cut_sprite(image, _folder_values(f.name), f"{f.name}/{path.name}")
                if image is not None
                else "unreadable"
            )
            if isinstance(got, str):
                skipped[got] = skipped.get(got, 0) + 1
                continue
            kept.append(take_apart(got))
    return kept, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--real", type=Path, default=ROOT.parent / "shared" / "real")
    parser.add_argument("--per-look", type=int, default=100, help="crops read in each look (the same crops for all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--looks", default="", help="comma-separated looks (default: all)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None, help="write each look's sure and wrong photos here (/tmp)")
    parser.add_argument(
        "--no-blank-marks", action="store_true", help="the reader without its blank-marks check (what it catches)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    folder = args.real / "domibot-crops"
    if not folder.is_dir():
        print(f"{folder}: the real photos are not here; nothing measured", file=sys.stderr)
        return 2
    names = [n for n in args.looks.split(",") if n] or list(LOOKS)
    unknown = [n for n in names if n not in LOOKS]
    if unknown:
        parser.error(f"unknown looks {unknown}; known: {', '.join(LOOKS)}")
    started = time.perf_counter()
    crops, skipped = sample(folder, args.per_look, args.seed)
    reader = Reader(threads=args.threads, blank_marks=not args.no_blank_marks)
    report: dict[str, Any] = {}
    for name in names:
        count = Count()
        for i, p in enumerate(crops):
            # each look draws from its own stream: the same photos whichever looks are run
            rng = np.random.default_rng([args.seed, zlib.crc32(name.encode()), i])
            made = LOOKS[name](p, rng)
            reading = reader.read(made.image, p.sprite.name)
            for tile, right in score(reading, made, p.sprite.values, count):
                if tile.unsure or right:
                    continue
                why = f"halves p={[round(h.confidence, 3) for h in tile.halves]} pips={list(tile.pips)}"
                count.wrong.append((p.sprite.name, str(tile.tile), round(float(tile.calibrated or 0), 4), why))
                if args.save is not None:
                    out = args.save / name
                    out.mkdir(parents=True, exist_ok=True)
                    stem = p.sprite.name.replace("/", "_").removesuffix(".jpg")
                    cv2.imwrite(str(out / f"{stem}_read_{tile.tile}.png"), made.image)
            if args.save is not None and i < 3:
                out = args.save / name
                out.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(out / f"sample_{i}.png"), made.image)
        report[name] = {**count.row(), "wrong": count.wrong[:12]}
        if not args.json:
            r = report[name]
            print(
                f"{name:30s} found {_pct(r['found'])}  per half {_pct(r['per_half'])}  exact {_pct(r['exact'])}  "
                f"sure {r['sure']:4d}  sure-wrong {r['sure_wrong']:3d} ({_pct(r['sure_wrong_share'])})",
                flush=True,
            )
    summary = {
        "crops": len(crops),
        "crops_skipped": skipped,
        "seed": args.seed,
        "seconds": round(time.perf_counter() - started, 1),
        "looks": report,
    }
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{len(crops)} crops a look (skipped: {skipped}), {summary['seconds']} s")
        for name, r in report.items():
            for w in r["wrong"]:
                print(f"  {name}: {w}")
    return 0


def _pct(value: float | None) -> str:
    return "    -  " if value is None else f"{100 * value:5.1f} %"


if __name__ == "__main__":
    raise SystemExit(main())
