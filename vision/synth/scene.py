"""What lies on the table and how it is seen: a plain description, no pixels yet.

`build_scene` draws every random choice of one photo (tile set, table, board, layout, other
tiles, camera, light, finish) from one generator, so a scene is fixed by its seed, and the
renderer can draw the same scene again (the frames of a sequence) with only some parts changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from scorer.tiles import FULL_SET, Tile

from .camera import Camera, random_camera
from .geometry import Footprints, Pose, transform_pose
from .layouts import BLANK_WEIGHT, LaidLayout, favour_blanks, legal_layout
from .printed import Board
from .tables import pick_table
from .tiles import TileStyle, random_tile_style

#: what a body is: face up (pips show), face down (its back shows), standing on its long edge.
KINDS = ("up", "down", "edge")


@dataclass(frozen=True, slots=True)
class Body:
    """One real tile on the table (a box with a rounded footprint)."""

    kind: str
    pose: Pose  # footprint; for "up"/"down" the first half is at local -x
    height: float  # world units
    values: tuple[int, int] | None  # (first half, second half); None for face-down tiles
    role: str  # layout, hand, loose, down, boneyard, edge
    placement: int | None = None  # index in the layout's placements
    seed: int = 0  # fixes this tile's texture (wear, pip jitter) across frames


@dataclass(frozen=True, slots=True)
class Light:
    azimuth: float  # radians: where the main light comes from
    elevation: float  # radians above the table
    ambient: float  # 0..1 share of light that is not directional
    exposure: float  # overall gain
    gradient: tuple[float, float, float]  # (angle, strength, offset) of a brightness ramp over the photo
    temperature: tuple[float, float, float]  # BGR gains
    shadow_strength: float  # cast shadows from things out of view (a person, a lamp arm)
    shadows: int
    glare: float  # chance that a tile top catches a highlight
    vignette: float
    seed: int

    @property
    def direction(self) -> np.ndarray:
        """Unit vector from the table towards the light."""
        ce = math.cos(self.elevation)
        return np.array([ce * math.cos(self.azimuth), ce * math.sin(self.azimuth), math.sin(self.elevation)])


@dataclass(frozen=True, slots=True)
class Finish:
    """What the phone does to the picture."""

    defocus: float  # Gaussian sigma, pixels
    motion: float  # motion blur length, pixels
    motion_angle: float  # degrees
    noise: float  # sigma, 0..255 scale
    jpeg_quality: int
    sharpen: float
    seed: int
    #: the phone's tone curve: contrast about `pivot` (0..255), highlights and shadows clipped
    contrast: float = 1.0
    pivot: float = 128.0


@dataclass(frozen=True, slots=True)
class HandSpec:
    """An arm reaching in from the photo's edge to a point over the table (image fractions)."""

    edge: float  # where on the border it enters, 0..4 around the frame
    reach: tuple[float, float]  # fingertip position, fractions of width/height
    width: float  # arm width as a multiple of the tile length in pixels
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    fingers: int  # fingers spread (0 = a fist)
    seed: int


@dataclass(frozen=True, slots=True)
class Prop:
    """A thing set down on the table that is no tile (a cup, a phone, a score sheet): a flat
    ellipse or rectangle on the table top (world units), drawn over the tiles it lies on."""

    shape: str  # "ellipse" or "rect"
    x: float
    y: float
    length: float  # world units along `angle` (a tile is 2 long)
    width: float
    angle: float  # radians
    colour: tuple[int, int, int]  # BGR
    height: float = 0.5  # world units: how far its shadow falls


@dataclass(slots=True)
class Scene:
    width: int
    height: int
    tile_style: TileStyle
    table: str
    camera: Camera
    light: Light
    finish: Finish
    bodies: list[Body]
    laid: LaidLayout | None
    board: Board | None = None
    cards: list[Pose] = field(default_factory=list)
    hands: list[HandSpec] = field(default_factory=list)
    seed: int = 0  # table texture and printed pictures
    sets: int = 1  # tile sets in use (two sets allow the densest tables)
    packed: bool = False  # tiles packed in a grid instead of a layout
    #: things set down on the table that are no tiles (films with happenings only)
    props: list[Prop] = field(default_factory=list)


def _cross2(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _poly_contains(poly: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points inside a convex polygon (either winding): on the same side of every edge."""
    poly = np.asarray(poly, np.float64)
    pts = np.asarray(pts, np.float64)
    edges = np.roll(poly, -1, axis=0) - poly  # (n, 2)
    rel = pts[None, :, :] - poly[:, None, :]  # (n, m, 2)
    cross = edges[:, None, 0] * rel[..., 1] - edges[:, None, 1] * rel[..., 0]
    sign = 1.0 if _cross2(poly[1] - poly[0], poly[2] - poly[1]) > 0 else -1.0
    return (cross * sign >= 0).all(axis=0)


def _shrink(poly: np.ndarray, by: float) -> np.ndarray:
    c = poly.mean(axis=0)
    return c + (poly - c) * by


class _Free:
    """Rejection sampling of free table space against everything placed so far."""

    def __init__(self, bodies: list[Body]) -> None:
        self.feet = Footprints([b.pose.corners() for b in bodies])

    def clear(self, poses: list[Pose], clearance: float) -> bool:
        return all(self.feet.clear(p.corners(), clearance) for p in poses)

    def add(self, poses: list[Pose]) -> None:
        for p in poses:
            self.feet.add(p.corners())


def _sample_point(rng: np.random.Generator, area: np.ndarray) -> np.ndarray:
    lo, hi = area.min(axis=0), area.max(axis=0)
    for _ in range(30):
        p = rng.uniform(lo, hi)
        if _poly_contains(area, p[None])[0]:
            return p
    return area.mean(axis=0)


def _row(
    origin: np.ndarray,
    angle: float,
    count: int,
    step: float,
    tile_angle: float,
    length: float = 2.0,
    width: float = 1.0,
) -> list[Pose]:
    d = np.array([math.cos(angle), math.sin(angle)])
    return [
        Pose(float(origin[0] + d[0] * step * k), float(origin[1] + d[1] * step * k), tile_angle, length, width)
        for k in range(count)
    ]


def packed_grid(rng: np.random.Generator, origin: np.ndarray, angle: float, count: int, gap: float) -> list[Pose]:
    """`count` tiles packed on a square grid, each covering two neighbouring cells and touching
    the tiles beside it end to end or side to side (as on a grid board, or tiles pushed
    together): the tight packing a domino line never shows. Cells are `1 + gap` units apart."""
    taken: set[tuple[int, int]] = set()
    tiles: list[tuple[tuple[int, int], tuple[int, int]]] = []
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))

    def free(cell: tuple[int, int]) -> bool:
        return cell not in taken

    first = ((0, 0), (1, 0)) if rng.random() < 0.5 else ((0, 0), (0, 1))
    tiles.append(first)
    taken.update(first)
    for _ in range(count - 1):
        # mostly grow from the newest tile (chains that snake), sometimes from any tile (blocks)
        base = tiles[-1] if rng.random() < 0.6 else tiles[int(rng.integers(len(tiles)))]
        options = []
        for cell in base:
            for dx, dy in steps:
                a = (cell[0] + dx, cell[1] + dy)
                if not free(a):
                    continue
                for ex, ey in steps:
                    b = (a[0] + ex, a[1] + ey)
                    if free(b) and b != a:
                        options.append((a, b))
        if not options:
            continue
        a, b = options[int(rng.integers(len(options)))]
        tiles.append((a, b))
        taken.update((a, b))
    c, s = math.cos(angle), math.sin(angle)
    step = 1.0 + gap
    poses = []
    for a, b in tiles:
        mx, my = (a[0] + b[0]) / 2 * step, (a[1] + b[1]) / 2 * step
        turn = 0.0 if a[1] == b[1] else math.pi / 2
        # a little hand-placed disorder, never enough to push a tile into its neighbour: with
        # at least 0.02 between cells, a shift of 0.006 and a turn moving an end 0.003 keep clear
        jx, jy = np.clip(rng.normal(0, 0.003, 2), -0.006, 0.006)
        poses.append(
            Pose(
                float(origin[0] + c * mx - s * my + jx),
                float(origin[1] + s * mx + c * my + jy),
                angle
                + turn
                + float(rng.choice([0.0, math.pi]))
                + float(np.clip(rng.normal(0, 0.001), -0.0015, 0.0015)),
            )
        )
    return poses


@dataclass(frozen=True, slots=True)
class Mix:
    """What a photo draws beyond the first generator's deal. Training photos use `TRAINING`;
    films and sequences use `PLAIN`, which draws exactly as before these existed, so a seed's
    frames (and the benches' figures on them) stay the same."""

    #: each blank half multiplies a tile's chance to be drawn first (`layouts.BLANK_WEIGHT`)
    blank_weight: float = 1.0
    #: the chance the set's divider is painted in the pip colour (`TileStyle.painted_divider`)
    painted_dividers: float = 0.0
    #: game boards may print their game's name and marks in letters (`Board.lettered`)
    lettered_boards: bool = False


PLAIN = Mix()
#: Both real sets in ../shared/real have black painted dividers, which no render showed before;
#: the real board prints its name in large letters under the laid tiles (the detector missed
#: the tile on it in 17 photos of its game).
TRAINING = Mix(blank_weight=BLANK_WEIGHT, painted_dividers=0.6, lettered_boards=True)


def build_scene(rng: np.random.Generator, width: int = 1280, height: int = 960, mix: Mix = PLAIN) -> Scene:
    """One random table photo, described."""
    style = random_tile_style(rng, mix.painted_dividers)
    camera = random_camera(rng, width, height, (0.0, 0.0))
    view = camera.footprint()
    view_in = _shrink(view, 0.92)
    size = float(np.sqrt(abs(_cross2(view[1] - view[0], view[3] - view[0]))))  # ~ side of the visible area

    board: Board | None = None
    if rng.random() < 0.3:
        side = float(rng.uniform(15, 26))
        off = rng.uniform(-0.25, 0.25, 2) * min(size, side)
        board = Board(
            float(off[0]), float(off[1]), float(rng.uniform(0, 2 * math.pi)), side, float(rng.uniform(2.0, 2.8))
        )

    bodies: list[Body] = []
    laid: LaidLayout | None = None
    deck: list[Tile] = list(FULL_SET)
    # tiles packed in a grid instead of a domino line: on a grid board half of the time, on a
    # bare table sometimes
    packed = rng.random() < (0.5 if board is not None else 0.1)
    if not packed and rng.random() < 0.9:
        n = int(np.clip(rng.gamma(2.2, 5.0), 1, 28))
        if board is not None:
            rot = board.angle + float(rng.integers(4)) * math.pi / 2
            inner = board.inner_half - 0.2
            origin_local = rng.uniform(-0.35, 0.35, 2) * inner
            bounds = (
                -inner - origin_local[0],
                -inner - origin_local[1],
                inner - origin_local[0],
                inner - origin_local[1],
            )
            c, s = math.cos(board.angle), math.sin(board.angle)
            # board frame -> world for the origin; the layout frame shares the board's axes
            ox = board.x + c * origin_local[0] - s * origin_local[1]
            oy = board.y + s * origin_local[0] + c * origin_local[1]
            # bounds are in the board's frame; turn them into the layout frame (a multiple of 90 deg)
            k = int(round((rot - board.angle) / (math.pi / 2))) % 4
            for _ in range(k):
                x0, y0, x1, y1 = bounds
                bounds = (y0, -x1, y1, -x0)
        else:
            rot = (
                float(rng.uniform(0, 2 * math.pi)) if rng.random() < 0.7 else float(rng.normal(0, 0.1)) + camera.azimuth
            )
            p = _sample_point(rng, _shrink(view, 0.5))
            ox, oy = float(p[0]), float(p[1])
            bw, bh = size * rng.uniform(0.6, 1.5, 2)
            fx, fy = rng.uniform(0.25, 0.75, 2)
            bounds = (-bw * fx, -bh * fy, bw * (1 - fx), bh * (1 - fy))
        laid = legal_layout(
            rng,
            n,
            bounds=bounds,
            max_gap=float(rng.uniform(0.01, 0.08)),
            jitter_deg=float(rng.uniform(0, 3)),
            blank_weight=mix.blank_weight,
        )
        for i, (pose, pl) in enumerate(zip(laid.poses, laid.layout.placements)):
            bodies.append(
                Body(
                    "up",
                    transform_pose(pose, ox, oy, rot),
                    style.thickness,
                    (pl.inner, pl.outer),
                    "layout",
                    i,
                    int(rng.integers(2**31)),
                )
            )
            deck.remove(pl.tile)
    sets = 1
    # `take` pops from the end: blank halves (when favoured) are put last to be drawn first
    deck = favour_blanks(rng, deck, mix.blank_weight, last=True)
    if rng.random() < 0.12:
        sets = 2  # a second set on the table: the densest tables need one
        deck += favour_blanks(rng, list(FULL_SET), mix.blank_weight, last=True)

    free = _Free(bodies)
    th = style.thickness

    def take() -> Tile | None:
        return deck.pop() if deck else None

    def place_group(poses: list[Pose], kind: str, role: str, clearance: float = 0.3) -> bool:
        if not poses or not free.clear(poses, clearance):
            return False
        if not all(_poly_contains(view_in, np.array([[p.x, p.y]]))[0] or rng.random() < 0.3 for p in poses):
            return False
        # the whole group's room is taken first: a group cut short when the set runs out must
        # still keep later groups off the tiles it did lay
        free.add(poses)
        for p in poses:
            tile = take() if kind != "down" else None
            if kind != "down" and tile is None:
                return True
            values = None
            if tile is not None:
                values = (tile.low, tile.high) if rng.random() < 0.5 else (tile.high, tile.low)
            height = 1.0 if kind == "edge" else th
            bodies.append(Body(kind, p, height, values, role, None, int(rng.integers(2**31))))
        return True

    packed_at: tuple[np.ndarray, float] | None = None  # where packed tiles' first cell lies, and their pitch
    if packed:
        for _try in range(10):
            if board is not None:
                o = np.array([board.x, board.y]) + rng.uniform(-0.3, 0.3, 2) * board.inner_half
                ang = board.angle + float(rng.integers(4)) * math.pi / 2
            else:
                o = _sample_point(rng, _shrink(view, 0.6))
                ang = float(rng.uniform(0, 2 * math.pi))
            n = int(np.clip(rng.gamma(2.5, 5.0), 3, 26))
            gap = float(rng.uniform(0.02, 0.07))
            if place_group(packed_grid(rng, o, ang, n, gap), "up", "loose", 0.0):
                packed_at = (o, 1.0 + gap)
                break
    # a second set makes the densest tables (up to ~40 face-up tiles in view): the end of a
    # game with every hand revealed and tiles lying about
    dense = sets == 2
    # a revealed hand: face up side by side
    for _ in range(int(rng.choice([2, 3, 4]) if dense else rng.choice([0, 0, 1, 1, 2]))):
        for _try in range(10):
            o = _sample_point(rng, view_in)
            ang = float(rng.uniform(0, 2 * math.pi))
            n = int(rng.integers(2, 8))
            gap = float(rng.uniform(0.03, 0.3))
            if place_group(_row(o, ang + math.pi / 2, n, 1 + gap, ang + float(rng.normal(0, 0.03))), "up", "hand"):
                break
    # loose tiles, face up at any angle
    for _ in range(int(rng.integers(4, 13) if dense else rng.integers(0, 5))):
        for _try in range(10):
            o = _sample_point(rng, view_in)
            if place_group([Pose(float(o[0]), float(o[1]), float(rng.uniform(0, 2 * math.pi)))], "up", "loose"):
                break
    # face-down tiles: a player's hand in a row, or a few strays
    for _ in range(int(rng.choice([0, 0, 1, 2]))):
        for _try in range(10):
            o = _sample_point(rng, view_in)
            ang = float(rng.uniform(0, 2 * math.pi))
            n = int(rng.integers(1, 8))
            if place_group(_row(o, ang + math.pi / 2, n, float(rng.uniform(1.03, 1.3)), ang), "down", "down"):
                break
    # the boneyard: a loose cluster of face-down tiles
    if rng.random() < 0.3:
        centre = _sample_point(rng, view_in)
        for _ in range(int(rng.integers(3, 15))):
            for _try in range(8):
                o = centre + rng.normal(0, 1.8, 2)
                if place_group(
                    [Pose(float(o[0]), float(o[1]), float(rng.uniform(0, 2 * math.pi)))], "down", "boneyard", 0.08
                ):
                    break
    # tiles standing on edge in a row, as a player holds them in front of themselves
    for _ in range(int(rng.choice([0, 0, 0, 1, 2]))):
        for _try in range(10):
            o = _sample_point(rng, view_in)
            ang = float(rng.uniform(0, 2 * math.pi))
            # the faces look at their player, so the camera sees the backs: turn the row so its
            # face side (+across) points away from the camera (visible pips would be unlabelled)
            if float(np.dot(camera.centre[:2] - o, [-math.sin(ang), math.cos(ang)])) > 0:
                ang += math.pi
            n = int(rng.integers(2, 8))
            poses = _row(o, ang, n, 2.1, ang, 2.0, th)
            if place_group(poses, "edge", "edge"):
                break
    # at least a few face-up tiles in view
    for _try in range(40):
        inside = [b for b in bodies if b.kind == "up" and _poly_contains(view_in, np.array([[b.pose.x, b.pose.y]]))[0]]
        if len(inside) >= 4 or not deck:
            break
        o = _sample_point(rng, view_in)
        place_group([Pose(float(o[0]), float(o[1]), float(rng.uniform(0, 2 * math.pi)))], "up", "loose")

    cards: list[Pose] = []
    for _ in range(int(rng.choice([0, 0, 0, 0, 1, 2]))):
        o = _sample_point(rng, view)
        length = float(rng.uniform(4, 10))
        cards.append(
            Pose(
                float(o[0]),
                float(o[1]),
                float(rng.uniform(0, 2 * math.pi)),
                length,
                length * float(rng.uniform(0.5, 0.8)),
            )
        )

    light = random_light(rng)
    finish = random_finish(rng, camera)
    hands = [random_hand(rng) for _ in range(int(rng.choice([0, 0, 0, 1, 1, 2])))]
    table = pick_table(rng)
    seed = int(rng.integers(2**31))
    if board is not None:
        board = ruled(np.random.default_rng([seed, 2]), board, packed_at)
        board = replace(
            board, lettered=mix.lettered_boards, lead=_lead_on(board, bodies) if mix.lettered_boards else None
        )
    return Scene(
        width, height, style, table, camera, light, finish, bodies, laid, board, cards, hands, seed, sets, packed
    )


def _lead_on(board: Board, bodies: list[Body]) -> tuple[float, float, float] | None:
    """The layout's lead in the board's own frame (centre, and the angle of its length), or None
    where no line is laid on the board."""
    lead = next((b for b in bodies if b.role == "layout" and b.placement == 0), None)
    if lead is None:
        return None
    c, s = math.cos(board.angle), math.sin(board.angle)
    dx, dy = lead.pose.x - board.x, lead.pose.y - board.y
    return (dx * c + dy * s, -dx * s + dy * c, lead.pose.angle - board.angle)


def ruled(rng: np.random.Generator, board: Board, packed_at: tuple[np.ndarray, float] | None) -> Board:
    """Half of the boards ruled in cells of a tile's half, in dark ink mostly, with the packed
    tiles lying in the cells (as on a board for a domino game). Why: on the real board its dark
    ruled lines and stars hid the tiles from a detector trained without such boards (flattening
    the board round the tiles found far more of them).
    Drawn from its own generator, so every other draw of a scene stays as it was."""
    if rng.random() < 0.5:
        return board
    if packed_at is not None:
        (wx, wy), cell = packed_at
        c, s = math.cos(board.angle), math.sin(board.angle)
        dx, dy = wx - board.x, wy - board.y
        ox, oy = dx * c + dy * s, -dx * s + dy * c  # the packed tiles' first cell in the board's frame
    else:
        cell = float(rng.uniform(1.02, 1.07))
        ox, oy = (float(v) for v in rng.uniform(0, cell, 2))
    ink = (float(rng.uniform(15, 60)),) * 3 if rng.random() < 0.75 else (float(rng.uniform(190, 240)),) * 3
    return replace(board, cells=(float(cell), float(ox), float(oy)), ink=ink)  # type: ignore[arg-type]


def random_light(rng: np.random.Generator) -> Light:
    harsh = rng.random() < 0.35
    warm = rng.uniform(-1, 1)
    temp = (1.0 - 0.12 * warm, 1.0, 1.0 + 0.12 * warm)  # B, G, R gains: warm lamps push red
    return Light(
        azimuth=float(rng.uniform(0, 2 * math.pi)),
        elevation=math.radians(float(rng.uniform(25, 60) if harsh else rng.uniform(45, 85))),
        ambient=float(rng.uniform(0.35, 0.6) if harsh else rng.uniform(0.6, 0.9)),
        exposure=float(rng.uniform(0.75, 1.15)),
        gradient=(float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 0.45)), float(rng.uniform(-0.2, 0.2))),
        temperature=tuple(float(v * rng.uniform(0.96, 1.04)) for v in temp),  # type: ignore[arg-type]
        shadow_strength=float(rng.uniform(0.15, 0.5)) if rng.random() < 0.3 else 0.0,
        shadows=int(rng.integers(1, 3)),
        glare=float(rng.uniform(0, 0.5)) if rng.random() < 0.5 else 0.0,
        vignette=float(rng.uniform(0, 0.35)),
        seed=int(rng.integers(2**31)),
    )


def random_finish(rng: np.random.Generator, camera: Camera) -> Finish:
    scale = camera.width / 1280
    # phones sharpen nearly every photo and most are in focus: real photos are crisper than
    # a render left soft (a detector trained on soft renders misses crisp real tiles)
    defocus = float(rng.uniform(0, 1.6) * scale) if rng.random() < 0.3 else 0.0
    motion = float(rng.uniform(2, 9) * scale) if rng.random() < 0.15 else 0.0
    motion_angle = float(rng.uniform(0, 180))
    noise = float(rng.uniform(0, 7))
    jpeg_quality = int(rng.integers(40, 96))
    sharpen = float(rng.uniform(0.2, 1.2)) if rng.random() < 0.6 else 0.0
    seed = int(rng.integers(2**31))
    return Finish(
        defocus,
        motion,
        motion_angle,
        noise,
        jpeg_quality,
        sharpen,
        seed,
        **random_tone(np.random.default_rng([seed, 1])),
    )


def random_tone(rng: np.random.Generator) -> dict[str, float]:
    """A phone's tone curve: most phones stretch contrast (white tiles clip, black pips go black),
    some photos are flat. Why: a detector trained on untoned renders found about twice as many of
    the real board's tiles once those photos were flattened, so real photos are harsher than plain
    renders. Drawn from its own generator (seeded by the finish's
    seed) so that adding it left every other draw of a scene as it was."""
    if rng.random() < 0.3:
        return {"contrast": 1.0, "pivot": 128.0}
    return {"contrast": float(np.exp(rng.uniform(np.log(0.8), np.log(1.7)))), "pivot": float(rng.uniform(90, 150))}


def random_hand(rng: np.random.Generator) -> HandSpec:
    # BGR; red over green over blue in every tone, so the jitter is a brightness change plus a little hue
    skins = [(170, 195, 235), (150, 180, 225), (120, 155, 205), (95, 130, 185), (70, 100, 150), (45, 65, 105)]
    base = np.array(skins[int(rng.integers(len(skins)))], np.float64) * rng.uniform(0.9, 1.08)
    b, g, r = (int(v) for v in np.clip(base + rng.normal(0, 3, 3) + [0, 0, rng.uniform(0, 8)], 0, 255))
    skin = (b, g, r)
    sleeve: tuple[int, int, int] | None = None
    if rng.random() < 0.5:
        sb, sg, sr = (int(v) for v in rng.uniform(20, 230, 3))
        sleeve = (sb, sg, sr)
    return HandSpec(
        float(rng.uniform(0, 4)),
        (float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.15, 0.85))),
        float(rng.uniform(0.9, 1.6)),
        skin,
        sleeve,
        int(rng.choice([3, 4, 4, 4])),
        int(rng.integers(2**31)),
    )  # type: ignore[arg-type]


def with_layout_prefix(scene: Scene, count: int) -> Scene:
    """The same scene with only the first `count` layout tiles played (for sequences)."""
    bodies = [b for b in scene.bodies if b.role != "layout" or (b.placement is not None and b.placement < count)]
    return replace(scene, bodies=bodies)
