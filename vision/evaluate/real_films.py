"""Game films of real tiles: the real `domibot-crops` photos laid as dealt games, one photo a play.

The follower's other benches see only the renderer's tiles. Here each tile of a dealt game
(`vision.synth.game.dealt_game`: the plays, passes and draws of a real deal, and where each tile
lies) is a real photograph of that tile, cut out of `../shared/real/domibot-crops` at run time and
laid on a dark cloth, one still photo after each play as a player's phone would give them. The
crops are for measuring only (`../shared/real/README.md`): nothing of them is written into the
repository, and a film made of them is a measure, never training data.

Cutting a crop (`cut_sprite`): the tile is the bright, ivory region at the crop's centre (Otsu's
threshold on lightness, or on a top-hat of it where a spotlight or a pale cloth lies around the
tile), closed over its divider and pips, and it must look like a tile: a filled rectangle about
twice as long as wide, clear of the crop's border. Its long axis gives the halves; the pips of each
half (dark blobs inside the ivory, away from the rim and the divider) are counted on the tile
straightened out, and must be the folder's two values (`5x4`: a 5 and a 4), which also tells which
half shows which. A crop where either fails is skipped and counted (`SpriteBank.skipped`).

A film (`make_film`): the dealt game is laid at a tile length of 40-64 px in a 640x480 picture (the
crops' own scale; the layout turned a quarter turn or not, plus up to 8 degrees), every placed tile
a different real photo of that tile, scaled to the film's length and turned to its pose (the
deal's slight per-tile jitter included), its ivory evened to the film's light with a little
per-tile variation, a soft shadow under it; the cloth is a plain dark texture (a colour of the
crops' own cloths, mottled, with a phone's fall-off of light). One photo of the bare cloth, then
one after each play (passes and draws show nothing: the boneyard is out of the picture, as no
photo of a tile's back is at hand), each with its own slight shift of the phone, light and sensor
noise, and JPEG-compressed. The film keeps the truth as the synthetic films do (the true record,
each state's tiles and halves in pixels), so `games.follow_video` counts it as `spinner
watch-eval` counts those.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorer.tiles import Tile
from vision.synth.game import DealtGame, dealt_game, film_variant
from vision.synth.geometry import Pose, rounded_rect
from vision.synth.video import VideoFrame

#: where the real photos are: `../shared/real` beside the repository
REAL = Path(__file__).resolve().parents[3] / "shared" / "real"
CROPS = REAL / "domibot-crops"

#: a crop whose tile is shorter than this (pixels) is not used: its pips are too small to tell,
#: and enlarged to a film's length it would be a blur
MIN_LENGTH = 30.0
#: a film's tile length in pixels at 640x480, drawn per film (the crops' own scale)
LENGTHS = (40.0, 64.0)


class NoRealPhotos(FileNotFoundError):
    """The real photos are not beside the repository (`../shared/real/domibot-crops`)."""


@dataclass(frozen=True, slots=True)
class Sprite:
    """One real tile cut out of its crop: where it lies in the crop and which half is which.

    `angle` (radians, picture coordinates: x right, y down) points from the half showing `values[0]`
    to the half showing `values[1]`; `length` and `width` are the tile's sides in the crop's pixels;
    `ivory` its face's colour (BGR, the median of its light pixels)."""

    image: np.ndarray
    centre: tuple[float, float]
    angle: float
    length: float
    width: float
    values: tuple[int, int]
    ivory: tuple[float, float, float]
    name: str
    #: the crop's cloth around the tile (BGR median)
    cloth: tuple[float, float, float]


def _tile_box(mask: np.ndarray) -> tuple[Any, ...] | None:
    """The tile-like region of a mask as a rotated box: the largest component near the crop's
    centre and clear of its border, whose hull is a rectangle about twice as long as wide and
    fills most of it (the pips and the divider may notch it)."""
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    height, width = mask.shape
    best = None
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if area < 150 or x == 0 or y == 0 or x + w >= width or y + h >= height:
            continue
        if math.hypot(centres[k][0] - width / 2, centres[k][1] - height / 2) > 0.25 * max(width, height):
            continue
        if best is None or area > stats[best][4]:
            best = k
    if best is None:
        return None
    contours, _ = cv2.findContours((labels == best).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(outline)
    box = cv2.minAreaRect(hull)
    long, short = max(box[1]), min(box[1])
    if short < 8 or not 1.7 < long / short < 2.3:
        return None
    if cv2.contourArea(hull) < 0.9 * long * short or cv2.contourArea(outline) < 0.75 * long * short:
        return None
    return box


def _boxes(image: np.ndarray) -> Iterator[tuple[Any, ...]]:
    """Candidate boxes of the light tile, the likeliest first. The lightness cut at falling levels
    from the crop's lightest to its median: the tile stands out before a spotlight's halo or the
    cloth joins it (the largest tile-shaped region first); then Otsu's threshold on lightness, and
    on a top-hat of it (a pale cloth around the tile taken away)."""
    lightness = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0], (3, 3), 0)
    opening = np.ones((3, 3), np.uint8)
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))

    def cleaned(mask: np.ndarray) -> np.ndarray:  # specks away, the divider and pips closed over
        return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, opening), cv2.MORPH_CLOSE, closing)

    top, middle = float(np.percentile(lightness, 99.5)), float(np.median(lightness))
    found = []
    for share in np.linspace(0.85, 0.1, 16):
        box = _tile_box(cleaned((lightness > middle + share * (top - middle)).astype(np.uint8)))
        if box is not None:
            found.append(box)
    # the tightest box of those nearly as large as the largest (a lower cut may take in a rim of
    # cloth at one end), then the others, largest first
    found.sort(key=lambda b: -b[1][0] * b[1][1])
    if found:
        full = found[0][1][0] * found[0][1][1]
        tight = min((b for b in found if b[1][0] * b[1][1] >= 0.92 * full), key=lambda b: b[1][0] * b[1][1])
        yield tight
        yield from (b for b in found if b is not tight)
    level, _ = cv2.threshold(lightness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks = [cleaned((lightness > level).astype(np.uint8))]
    for size in (45, 31, 61):
        hat = cv2.morphologyEx(lightness, cv2.MORPH_TOPHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        level, _ = cv2.threshold(hat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks.append(cleaned((hat > level).astype(np.uint8)))
    for mask in masks:
        box = _tile_box(mask)
        if box is not None:
            yield box


def _axis(box: tuple[Any, ...]) -> tuple[float, float, float, float, float]:
    """A rotated box as (centre x, centre y, long side's angle in radians, length, width)."""
    (cx, cy), (w, h), degrees = box
    if w < h:
        w, h, degrees = h, w, degrees + 90
    return float(cx), float(cy), math.radians(degrees), float(w), float(h)


#: the straightened tile: each half a square this many pixels wide
SIDE = 32


def straightened(
    image: np.ndarray, centre: tuple[float, float], angle: float, length: float, width: float
) -> np.ndarray:
    """The tile turned so that its long axis runs left to right (`angle` pointing right): two
    SIDE x SIDE halves side by side."""
    ax = np.array([math.cos(angle), math.sin(angle)])
    ac = np.array([-math.sin(angle), math.cos(angle)])
    c = np.asarray(centre)
    src = np.array(
        [
            c - ax * length / 2 - ac * width / 2,
            c + ax * length / 2 - ac * width / 2,
            c + ax * length / 2 + ac * width / 2,
        ],
        np.float32,
    )
    dst = np.array([[0, 0], [2 * SIDE, 0], [2 * SIDE, SIDE]], np.float32)
    return cv2.warpAffine(
        image,
        cv2.getAffineTransform(src, dst),
        (2 * SIDE, SIDE),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def count_pips(tile: np.ndarray) -> tuple[int, int]:
    """The pips of each half of a straightened tile (`straightened`): dark blobs on the ivory, away
    from its rim and from the divider between the halves (two pips run together count as one)."""
    grey = cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY).astype(np.float32)
    height, width = grey.shape
    rim = int(0.08 * height)
    ivory = float(np.percentile(grey[rim : height - rim, rim : width - rim], 80))
    dark = (grey < 0.62 * ivory).astype(np.uint8)
    dark[:rim], dark[height - rim :], dark[:, :rim], dark[:, width - rim :] = 0, 0, 0, 0
    band = int(0.05 * width)
    dark[:, width // 2 - band : width // 2 + band] = 0
    counts = []
    for half in (dark[:, : width // 2], dark[:, width // 2 :]):
        _, _, stats, _ = cv2.connectedComponentsWithStats(half)
        counts.append(int((stats[1:, cv2.CC_STAT_AREA] >= 0.012 * height * height).sum()))
    return counts[0], counts[1]


#: where a half's pips lie on a 3x3 grid (row, column), for each value: both diagonals of 2 and
#: 3, both ways of 6 (a half is a square, and the tile lies any way round)
PATTERNS: dict[int, list[frozenset[tuple[int, int]]]] = {
    0: [frozenset()],
    1: [frozenset({(1, 1)})],
    2: [frozenset({(0, 0), (2, 2)}), frozenset({(0, 2), (2, 0)})],
    3: [frozenset({(0, 0), (1, 1), (2, 2)}), frozenset({(0, 2), (1, 1), (2, 0)})],
    4: [frozenset({(0, 0), (0, 2), (2, 0), (2, 2)})],
    5: [frozenset({(0, 0), (0, 2), (2, 0), (2, 2), (1, 1)})],
    6: [
        frozenset({(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)}),
        frozenset({(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)}),
    ],
}


def grid_pips(tile: np.ndarray, corner: float = 0.25) -> tuple[int | None, int | None]:
    """The pips of each half of a straightened tile by where they lie: the dark spots among the nine
    places of a half's 3x3 grid, as one of the values' patterns (None: no value's pattern). Pips run
    together at a small size are still told apart here."""
    grey = cv2.GaussianBlur(cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY).astype(np.float32), (3, 3), 0)
    height, width = grey.shape
    rim = int(0.08 * height)
    ivory = float(np.percentile(grey[rim : height - rim, rim : width - rim], 80))
    r = max(2, int(0.07 * height))
    out: list[int | None] = []
    for x0 in (0, width // 2):
        dark = set()
        for i, fy in enumerate((corner, 0.5, 1 - corner)):
            for j, fx in enumerate((corner, 0.5, 1 - corner)):
                cx, cy = int(x0 + fx * height), int(fy * height)
                if grey[cy - r : cy + r + 1, cx - r : cx + r + 1].min() < 0.6 * ivory:
                    dark.add((i, j))
        out.append(next((v for v, ways in PATTERNS.items() if dark in ways), None))
    return out[0], out[1]


def cut_sprite(image: np.ndarray, values: tuple[int, int], name: str = "") -> Sprite | str:
    """The tile of one crop, or why it cannot be told: "no tile shape" (no light region of a tile's
    shape), "pips differ" (neither way of counting finds the folder's two values), "halves differ"
    (the two ways put the values on opposite halves), "pale surround" (what lies around the box is
    nearly as light as the tile: a pale cloth, or the box took in some of it), "small" (shorter
    than MIN_LENGTH)."""
    why = "no tile shape"
    for box in _boxes(image):
        cx, cy, angle, length, width = _axis(box)
        tile = straightened(image, (cx, cy), angle, length, width)
        ways = [w for w in (count_pips(tile), grid_pips(tile)) if None not in w and sorted(w) == sorted(values)]  # type: ignore[type-var]
        if not ways:
            why = "pips differ"
            continue
        if len({w for w in ways}) > 1 and values[0] != values[1]:
            why = "halves differ"
            continue
        if length < MIN_LENGTH:
            return "small"
        counts = (int(ways[0][0]), int(ways[0][1]))  # type: ignore[arg-type]
        filled = _filled(image, box, 0)
        ring = _filled(image, box, 4) & ~_filled(image, box, 1)
        lightness = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
        if np.percentile(lightness[ring.astype(bool)], 80) > 0.8 * np.percentile(lightness[filled.astype(bool)], 60):
            why = "pale surround"
            continue
        face = image[filled.astype(bool)]
        light = face[face.sum(axis=1) >= np.percentile(face.sum(axis=1), 40)]
        cloth = image[~cv2.dilate(filled, np.ones((7, 7), np.uint8)).astype(bool)]
        return Sprite(
            image,
            (cx, cy),
            angle,
            length,
            width,
            counts,
            tuple(float(v) for v in np.median(light, axis=0)),  # type: ignore[arg-type]
            name,
            tuple(float(v) for v in np.median(cloth, axis=0)) if len(cloth) else (70.0, 72.0, 76.0),  # type: ignore[arg-type]
        )
    return why


def _filled(image: np.ndarray, box: tuple[Any, ...], grow: float) -> np.ndarray:
    """A rotated box grown by `grow` pixels each side, filled (0/1, the crop's size)."""
    (cx, cy), (w, h), degrees = box
    filled = np.zeros(image.shape[:2], np.uint8)
    corners = cv2.boxPoints(((cx, cy), (w + 2 * grow, h + 2 * grow), degrees))
    cv2.fillPoly(filled, [np.round(corners).astype(np.int32)], 1)
    return filled


def _folder_values(name: str) -> tuple[int, int]:
    """`5x4` -> (5, 4)."""
    a, b = name.split("x")
    return int(a), int(b)


@dataclass
class SpriteBank:
    """The crops of `folder`, cut as they are needed: at most `per_tile` sprites for each tile (None:
    all its crops), the crops taken in a seeded order. `skipped` counts the crops that could not be
    told, by reason; `cut` those that could."""

    folder: Path = CROPS
    per_tile: int | None = None
    seed: int = 0
    sprites: dict[Tile, list[Sprite]] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    skipped_names: list[str] = field(default_factory=list)
    cut: int = 0
    looked: int = 0

    def __post_init__(self) -> None:
        if not self.folder.is_dir():
            raise NoRealPhotos(
                f"{self.folder}: the real photos are not here (../shared/real/domibot-crops beside the repository)"
            )
        self.folders = {Tile.of(*_folder_values(p.name)): p for p in sorted(self.folder.iterdir()) if "x" in p.name}

    def of(self, tile: Tile) -> list[Sprite]:
        if tile not in self.sprites:
            folder = self.folders[tile]
            paths = sorted(folder.glob("*.jpg"))
            order = np.random.default_rng(np.random.SeedSequence([self.seed, tile.low, tile.high])).permutation(
                len(paths)
            )
            values = _folder_values(folder.name)
            kept: list[Sprite] = []
            for k in order:
                if self.per_tile is not None and len(kept) >= self.per_tile:
                    break
                path = paths[int(k)]
                image = cv2.imread(str(path))
                self.looked += 1
                got = cut_sprite(image, values, f"{folder.name}/{path.name}") if image is not None else "unreadable"
                if isinstance(got, str):
                    self.skipped[got] = self.skipped.get(got, 0) + 1
                    self.skipped_names.append(f"{folder.name}/{path.name}: {got}")
                    continue
                kept.append(got)
                self.cut += 1
            if not kept:
                raise NoRealPhotos(f"{folder}: no crop of {tile} could be cut out")
            self.sprites[tile] = kept
        return self.sprites[tile]

    def all(self) -> None:
        """Cut every tile's crops now."""
        for tile in self.folders:
            self.of(tile)

    def summary(self) -> dict[str, Any]:
        return {
            "crops_looked_at": self.looked,
            "cut": self.cut,
            "skipped": dict(sorted(self.skipped.items())),
            "per_tile": {
                str(t): len(s) for t, s in sorted(self.sprites.items(), key=lambda kv: (kv[0].low, kv[0].high))
            },
        }


# -- the film -------------------------------------------------------------------------------------


@dataclass
class RealFilm:
    """A dealt game of real tiles as a player's photos: one of the bare cloth, one after each play.

    The shape `games.follow_video` follows (`games.Film`): `record` (the truth), `truths` (state ->
    the tiles in view, as `vision.synth.labels` writes them), `sides`, `frames()`."""

    seed: int
    record: dict[str, Any]
    game: DealtGame
    width: int
    height: int
    #: the photos, JPEG-encoded as a phone gives them, and how many plays each shows
    photos: list[bytes]
    states: list[int]
    #: the event index (in `game.events`) each photo follows (None: the bare cloth)
    events: list[int | None]
    truths: dict[int, dict[str, Any]]
    #: the crop each placement was cut from (folder/file), and the film's tile length in pixels
    sources: list[str]
    tile_length: float

    @property
    def sides(self) -> tuple[int, ...] | None:
        return self.game.sides

    @property
    def plays(self) -> int:
        return sum(e["type"] == "play" for e in self.game.events)

    def names(self) -> list[str]:
        return [f"photo-{k:03d}.jpg" for k in range(len(self.photos))]

    def frames(self) -> Iterator[VideoFrame]:
        for name, jpeg, state, event in zip(self.names(), self.photos, self.states, self.events, strict=True):
            image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
            assert image is not None
            yield VideoFrame(image, name, state, False, None, event)

    def write(self, folder: Path) -> None:
        """The photos (`photos/`, as a phone's folder for `spinner watch`) and the truth beside them:
        `record.json`, `film.json` (the seating, each crop used), `truth/state-NNN.json`,
        `frames.json` (each photo's state), as `write_video` writes a synthetic film."""
        (folder / "photos").mkdir(parents=True, exist_ok=True)
        (folder / "truth").mkdir(exist_ok=True)
        for name, jpeg in zip(self.names(), self.photos, strict=True):
            (folder / "photos" / name).write_bytes(jpeg)
        for state, truth in self.truths.items():
            (folder / "truth" / f"state-{state:03d}.json").write_text(json.dumps(truth))
        listing = [
            {"frame": n, "state": s, "arm": False, **({"event": e} if e is not None else {})}
            for n, s, e in zip(self.names(), self.states, self.events, strict=True)
        ]
        (folder / "frames.json").write_text(json.dumps(listing))
        (folder / "record.json").write_text(json.dumps(self.record, indent=1))
        film = {
            "variant": self.record["variant"],
            "sides": list(self.game.sides),
            "sides_named": "0 top, 1 right, 2 bottom, 3 left",
            "tile_length_px": round(self.tile_length, 1),
            "crops": self.sources,
            "note": "made at run time from ../shared/real/domibot-crops: for measuring only, never training data",
        }
        (folder / "film.json").write_text(json.dumps(film, indent=1))


def cloth(rng: np.random.Generator, width: int, height: int, colour: tuple[float, float, float]) -> np.ndarray:
    """A plain dark cloth, float32 BGR: `colour` mottled at two scales, with fine grain and the
    fall-off of a phone's light towards the corners."""
    base = np.asarray(colour, np.float32)

    def mottled(scale: int, sigma: float) -> np.ndarray:
        small = rng.normal(0, 1, (max(2, height // scale), max(2, width // scale))).astype(np.float32)
        big = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)
        return cv2.GaussianBlur(big, (0, 0), sigma)

    mottle = 1 + 0.06 * mottled(40, 8) + 0.03 * mottled(6, 1.5)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    lx, ly = rng.uniform(0.3, 0.7) * width, rng.uniform(0.3, 0.7) * height
    fall = 1 - rng.uniform(0.15, 0.3) * (((xx - lx) / width) ** 2 + ((yy - ly) / height) ** 2) * 2
    grain = rng.normal(0, 2.0, (height, width, 3)).astype(np.float32)
    return base[None, None, :] * (mottle * fall)[:, :, None] + grain


@dataclass(frozen=True, slots=True)
class _Laid:
    """A placed tile, drawn once: its patch of the picture, alpha and shadow."""

    x0: int
    y0: int
    patch: np.ndarray
    alpha: np.ndarray
    shadow: np.ndarray
    corners: np.ndarray
    halves: tuple[np.ndarray, np.ndarray]
    values: tuple[int, int]


def _lay(
    sprite: Sprite,
    flip: bool,
    centre: np.ndarray,
    direction: float,
    length: float,
    gains: np.ndarray,
    values: tuple[int, int],
    width: int,
    height: int,
) -> _Laid:
    """Draw one sprite with its first value's half at -`direction` from `centre`, `length` long."""
    scale = length / sprite.length
    turn = direction - (sprite.angle + (math.pi if flip else 0.0))
    c, s = math.cos(turn) * scale, math.sin(turn) * scale
    rot = np.array([[c, -s], [s, c]])
    shift = centre - rot @ np.asarray(sprite.centre)
    wide = sprite.width * scale
    ax = np.array([math.cos(direction), math.sin(direction)])
    ac = np.array([-math.sin(direction), math.cos(direction)])
    outline = rounded_rect(length, wide, 0.12 * wide, 3)
    poly = centre + outline[:, :1] * ax + outline[:, 1:] * ac
    pad = 6
    x0 = max(0, int(math.floor(poly[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(poly[:, 1].min())) - pad)
    x1 = min(width, int(math.ceil(poly[:, 0].max())) + pad)
    y1 = min(height, int(math.ceil(poly[:, 1].max())) + pad)
    size = (x1 - x0, y1 - y0)
    matrix = np.hstack([rot, (shift - [x0, y0])[:, None]])
    patch = cv2.warpAffine(sprite.image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(
        np.float32
    )
    patch *= gains[None, None, :]
    up = 4  # the outline drawn at 4x and averaged down: a smooth edge
    big = np.zeros((size[1] * up, size[0] * up), np.uint8)
    cv2.fillPoly(big, [np.round((poly - [x0, y0]) * up).astype(np.int32)], 255)
    alpha = cv2.resize(big, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    shadow = cv2.GaussianBlur(
        cv2.warpAffine(alpha, np.array([[1, 0, 1.5], [0, 1, 2.5]], np.float32), size, borderMode=cv2.BORDER_CONSTANT),
        (0, 0),
        2.0,
    )
    box = centre + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * 0.5 * [length, wide] @ np.array([ax, ac])
    halves = (
        np.array([box[0], (box[0] + box[1]) / 2, (box[2] + box[3]) / 2, box[3]]),
        np.array([(box[0] + box[1]) / 2, box[1], box[2], (box[2] + box[3]) / 2]),
    )
    return _Laid(x0, y0, patch, alpha, shadow, box, halves, values)


def _truth(laid: list[_Laid], shake: np.ndarray, width: int, height: int, seed: int, plays: int) -> dict[str, Any]:
    """The tiles in view as `vision.synth.labels.build_truth` writes them (what `OracleReader` reads)."""

    def moved(points: np.ndarray) -> list[list[float]]:
        out = points @ shake[:, :2].T + shake[:, 2]
        return [[round(float(x), 2), round(float(y), 2)] for x, y in out]

    tiles = []
    for t in laid:
        corners = moved(t.corners)
        tiles.append(
            {
                "value": f"{t.values[0]}-{t.values[1]}",
                "role": "layout",
                "labelled": True,
                "center": [round(sum(p[0] for p in corners) / 4, 2), round(sum(p[1] for p in corners) / 4, 2)],
                "corners": corners,
                "halves": [
                    {"value": v, "corners": moved(h), "labelled": True} for v, h in zip(t.values, t.halves, strict=True)
                ],
            }
        )
    return {
        "image": {"width": width, "height": height},
        "params": {"generator": "real-films", "seed": seed, "plays": plays},
        "tiles": tiles,
        "face_down": [],
    }


def make_film(
    seed: int,
    bank: SpriteBank,
    variant: str = "any",
    players: int = 4,
    width: int = 640,
    height: int = 480,
    max_plays: int | None = None,
    shake: float = 1.5,
    turn_deg: float = 0.25,
    zoom: float = 0.0,
    light_drift: float = 0.04,
    noise: float = 2.0,
    quality: int = 90,
    lengths: tuple[float, float] = LENGTHS,
) -> RealFilm:
    """A dealt game of `variant` ("any": one drawn from the seed) laid with real tiles: the photos and
    their truth. The phone moves a little between photos: `shake` pixels, `turn_deg` degrees and
    `zoom` (a share of the scale), each a standard deviation; `light_drift`: its exposure's swing."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 31]))
    variant, players = film_variant(rng, variant, players)
    length = float(rng.uniform(*lengths))
    unit = length / 2  # a pose's unit: a tile's half
    quarter = int(rng.integers(4))
    turn = quarter * math.pi / 2 + math.radians(float(rng.uniform(-8, 8)))
    margin = 0.7 * length + 4 * shake + 6 + 3 * zoom * max(width, height) / 2
    across, down = (width / 2 - margin) / unit * 0.93, (height / 2 - margin) / unit * 0.93
    if quarter % 2:
        across, down = down, across
    game = dealt_game(
        rng,
        variant,
        players,
        (-across, -down, across, down),
        max_gap=float(rng.uniform(0.01, 0.08)),
        jitter_deg=float(rng.uniform(0.5, 3)),
        max_plays=max_plays,
    )

    def to_picture(points: np.ndarray) -> np.ndarray:
        """Layout units (x east, y north) to pixels (x right, y down), turned by `turn`."""
        c, s = math.cos(turn), math.sin(turn)
        x = c * points[:, 0] - s * points[:, 1]
        y = s * points[:, 0] + c * points[:, 1]
        return np.stack([x * unit, -y * unit], axis=1)

    poses: list[Pose] = game.laid.poses
    corners = to_picture(np.concatenate([p.corners() for p in poses]))
    offset = np.array([width / 2, height / 2]) - (corners.min(axis=0) + corners.max(axis=0)) / 2
    # the film's light: the crops' usual ivory (a median of many), each tile's a little its own; the
    # cloth a dark grey of one of the crops' own cloths
    # (the tiles in play order: a set's order of tiles, hashed by identity, changes from run to run)
    tiles = dict.fromkeys(Tile.parse(f"{p.inner}-{p.outer}") for p in game.laid.layout.placements)
    sprites_all = [s for t in tiles for s in bank.of(t)]
    ivory = np.median([s.ivory for s in sprites_all], axis=0).astype(np.float32) * float(rng.uniform(0.88, 1.05))
    dark = [s.cloth for s in sprites_all if 50 <= sum(s.cloth) / 3 <= 110]
    colour = dark[int(rng.integers(len(dark)))] if dark else (68.0, 72.0, 78.0)
    table = cloth(rng, width, height, tuple(float(v) * float(rng.uniform(0.75, 1.0)) for v in colour))  # type: ignore[arg-type]
    laid: list[_Laid] = []
    sources: list[str] = []
    for pose, placement in zip(poses, game.laid.layout.placements, strict=True):
        tile = Tile.parse(f"{placement.inner}-{placement.outer}")
        choices = bank.of(tile)
        sprite = choices[int(rng.integers(len(choices)))]
        flip = sprite.values[0] != placement.inner
        centre = to_picture(np.array([[pose.x, pose.y]]))[0] + offset
        direction = math.atan2(-math.sin(pose.angle + turn), math.cos(pose.angle + turn))
        gains = ivory / np.maximum(np.asarray(sprite.ivory, np.float32), 1) * float(rng.uniform(0.95, 1.05))
        size = length * float(rng.uniform(0.98, 1.02))
        laid.append(
            _lay(sprite, flip, centre, direction, size, gains, (placement.inner, placement.outer), width, height)
        )
        sources.append(sprite.name)
    photos: list[bytes] = []
    states: list[int] = []
    events: list[int | None] = []
    truths: dict[int, dict[str, Any]] = {}
    phase = float(rng.uniform(0, 2 * math.pi))
    shown: list[tuple[int, int | None]] = [(0, None)]
    plays = 0
    for k, event in enumerate(game.events):
        if event["type"] == "play":
            plays += 1
            shown.append((plays, k))
    for moves, (state, event_index) in enumerate(shown):
        image = table.copy()
        for t in laid[:state]:  # shadows first, then the tiles over them
            h, w = t.alpha.shape
            image[t.y0 : t.y0 + h, t.x0 : t.x0 + w] *= (1 - 0.45 * t.shadow)[:, :, None]
        for t in laid[:state]:
            h, w = t.alpha.shape
            region = image[t.y0 : t.y0 + h, t.x0 : t.x0 + w]
            a = t.alpha[:, :, None]
            region[:] = region * (1 - a) + t.patch * a
        image *= 1 + light_drift * math.sin(phase + 0.7 * moves)
        dx, dy = rng.normal(0, shake, 2) if moves and shake else (0.0, 0.0)
        spin = float(rng.normal(0, turn_deg)) if moves and turn_deg else 0.0
        scale = 1 + float(np.clip(rng.normal(0, zoom), -3 * zoom, 3 * zoom)) if moves and zoom else 1.0
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), spin, scale)
        matrix[:, 2] += (dx, dy)
        image = cv2.warpAffine(image, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        if noise:
            image += rng.normal(0, noise, image.shape).astype(np.float32)
        ok, jpeg = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        photos.append(jpeg.tobytes())
        states.append(state)
        events.append(event_index)
        truths[state] = _truth(laid[:state], matrix, width, height, seed, state)
    return RealFilm(seed, game.record, game, width, height, photos, states, events, truths, sources, length)


# -- following the films ---------------------------------------------------------------------------


def models_reader(variant: str) -> Any:
    """The bundled models as `spinner watch` loads them for `variant`."""
    from vision.commands.read import LAYOUT_VARIANTS
    from vision.read.reader import (
        DEFAULT_DETECTOR,
        DEFAULT_HALVES,
        FOLLOWING_CONFIDENCE,
        FOLLOWING_REFINER,
        FOLLOWING_SLANT,
        Reader,
    )

    return Reader(
        DEFAULT_DETECTOR,
        DEFAULT_HALVES,
        confidence=FOLLOWING_CONFIDENCE,
        refiner=FOLLOWING_REFINER,
        slant=FOLLOWING_SLANT,
        variant=variant if variant in LAYOUT_VARIANTS else "partners",
    )


def follow_film(film: RealFilm, reader: Any | None = None, each_play: bool = False) -> Any:
    """Follow a film's photos as `spinner watch` follows a folder of photos (each photo settled,
    `settle` 1; the arms looked for, though a photo shows none), the questions answered with the
    truth, counted by `games.follow_video` (`reader` None: the truth's own reading of each photo)."""
    from vision.evaluate.games import follow_video

    return follow_video(film, reader, settle=1, each_play=each_play)
