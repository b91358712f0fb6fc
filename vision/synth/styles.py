"""The styles benchmark's photos: one rendered set per condition a player's table may show.

Each photo starts as a held-out training scene (`build_scene` with `TRAINING`, drawn from the
same generator as every dataset) and is then changed as its condition says, with draws from a
generator of its own: the training sets' draws stay exactly as they were. A condition is what
the training photos seldom or never show: coloured pip schemes other than the one the renderer
knows, black and coloured bodies, a pin with no divider, close-ups and far shots, white, dark,
glossy and busy tables, a steep view, squashed photos, rows of face-down tiles, standing hands,
printed pictures, glare, motion blur, and a phone's 12-megapixel photo stored sideways.

The seeds (`STYLE_SEED` + the condition's number) are never trained on: measuring only
(`spinner dataset styles`, `spinner eval --styles`; docs/styles.md).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .camera import Camera
from .dataset import GENERATOR, Sample, encode_jpeg, image_rng, write_sample
from .geometry import Pose
from .labels import build_truth, yolo_lines
from .printed import Board
from .render import render_scene
from .scene import (
    TRAINING,
    Body,
    Scene,
    _Free,
    _lead_on,
    _poly_contains,
    _row,
    _sample_point,
    _shrink,
    build_scene,
    ruled,
)
from .tiles import _FACES

#: the styles benchmark's seeds are this plus the condition's place in `CONDITIONS`: never a
#: training seed (those are 1-11), nor the held-out set's (9001) nor synth-calib's (4242)
STYLE_SEED = 35_000

#: pip colour schemes (BGR, value 0..6) of real coloured sets
PIP_SCHEMES: dict[str, tuple[tuple[int, int, int], ...]] = {
    # the issue's set: light blue 1, green 2, red 3, tan 4, dark blue 5, (brown) 6
    "tan-four": (
        (0, 0, 0),
        (230, 180, 90),
        (60, 150, 40),
        (40, 40, 200),
        (120, 170, 210),
        (150, 50, 20),
        (30, 60, 110),
    ),
    # a rainbow: red 1, orange 2, yellow 3, green 4, blue 5, purple 6
    "rainbow": ((0, 0, 0), (40, 40, 210), (30, 130, 240), (30, 200, 230), (50, 160, 40), (200, 90, 30), (150, 40, 130)),
    # dark jewel tones: each value a dark colour, close to black under dim light
    "jewel": ((0, 0, 0), (120, 30, 30), (30, 90, 30), (30, 30, 120), (90, 30, 90), (100, 80, 20), (20, 60, 100)),
}

#: the tile lengths (px at 1280 wide) a close-up shows: one tile up to the whole frame's width
CLOSE_UP = (320.0, 1150.0)
#: a far shot's tile length
FAR = (18.0, 24.0)
#: a steep view's tilt from straight down
STEEP_DEG = (55.0, 68.0)
#: a squashed photo's one axis shrunk by this (a 2:1 tile along it looks 1.4-1.6:1)
SQUASH = (0.7, 0.8)
#: the phone's photo size (a 12.5-megapixel 4:3 sensor)
PHONE = (4080, 3072)
#: a dim room's light, a share of the scene's own, and the noise (sigma, 0-255) that comes with it
DIM_LIGHT = (0.3, 0.45)
DIM_NOISE = (9.0, 16.0)
#: a small photo's side (px): one tile cropped out of a larger picture, a thumbnail
SMALL_PHOTO = (80, 240)
#: the share of a small photo's side its tile's length takes
SMALL_TILE = (0.3, 0.7)
#: the detector learns on photos halved (1280 to 640) and reads a small photo enlarged twice: a
#: small photo's pixels are this many of the training photo's across
SMALL_SCALE = 4


@dataclass(frozen=True, slots=True)
class Shot:
    """A rendered style photo before encoding: the scene, and what is done after rendering."""

    scene: Scene
    squash: tuple[float, float] = (1.0, 1.0)  # x and y scale applied to the rendered photo
    orientation: int = 1  # EXIF orientation the JPEG is stored with (its pixels turned to match)
    small: Small | None = None  # only this part of the photo kept, as a small photo is read
    mixed: tuple[str, ...] = ()  # the conditions a `mixed` photo took, in the order applied


@dataclass(frozen=True, slots=True)
class Small:
    """A small photo cut out of the rendered one (x, y, width, height in its pixels), shown to the
    detector as the reader shows it: at `SMALL_SCALE` times fewer pixels, enlarged back, and
    padded out to the frame with the letterbox grey or with its own edges drawn on."""

    x: int
    y: int
    width: int
    height: int
    grey: bool
    jpeg_quality: int
    blur: float  # a soft lens, in the small photo's pixels


def _aimed(camera: Camera, target: tuple[float, float], tile_px: float, tilt: float | None = None) -> Camera:
    """The camera looking at `target` with a tile there `tile_px` long (and tilted `tilt`)."""
    tilt = camera.tilt if tilt is None else tilt
    cam = Camera(
        camera.width, camera.height, camera.focal, target, 2 * camera.focal / tile_px, tilt, camera.azimuth, camera.roll
    )
    return replace(cam, distance=cam.distance * cam.tile_px() / tile_px)


def _in_view(scene: Scene, camera: Camera) -> Scene:
    """The scene with only the bodies a moved camera sees near its frame: one brought close
    would project the far ones off to thousands of frames away."""
    centres = np.array([[b.pose.x, b.pose.y, 0.0] for b in scene.bodies]).reshape(-1, 3)
    if not len(centres):
        return replace(scene, camera=camera)
    depth = camera.depth(centres)
    pixels = camera.project(centres)
    w, h = camera.width, camera.height
    near = (depth > 0.5) & (pixels[:, 0] > -w) & (pixels[:, 0] < 2 * w) & (pixels[:, 1] > -h) & (pixels[:, 1] < 2 * h)
    return replace(scene, camera=camera, bodies=[b for b, keep in zip(scene.bodies, near) if keep])


def _face_up(scene: Scene) -> list[Body]:
    return [b for b in scene.bodies if b.kind == "up"]


def _add_rows(
    scene: Scene, rng: np.random.Generator, kind: str, rows: int, faces_to_camera: bool = False, near: float = 0.0
) -> None:
    """Rows of face-down tiles, or of tiles standing on edge with their backs to the camera (or,
    `faces_to_camera`, their faces), where the table is free in view; `near`: each row's middle
    in the photo's lower (1 - near) part, nearest the camera."""
    view_in = _shrink(scene.camera.footprint(), 0.85) if not near else _lower_part(scene.camera, near)
    free = _Free(scene.bodies)
    th = scene.tile_style.thickness
    for _ in range(rows):
        for _try in range(30):
            o = _sample_point(rng, view_in)
            ang = float(rng.uniform(0, 2 * math.pi))
            if faces_to_camera:  # held across in front of the player, as a hand is held
                to_camera = scene.camera.centre[:2] - o
                ang = math.atan2(to_camera[1], to_camera[0]) - math.pi / 2 + math.radians(rng.uniform(-30, 30))
            n = int(rng.integers(3, 8))
            if kind == "edge":
                facing = float(np.dot(scene.camera.centre[:2] - o, [-math.sin(ang), math.cos(ang)])) > 0
                if facing != faces_to_camera:
                    ang += math.pi
                poses = _row(o, ang, n, 2.1, ang, 2.0, th)
            else:
                poses = _row(o, ang + math.pi / 2, n, float(rng.uniform(1.03, 1.2)), ang)
            if not free.clear(poses, 0.3) or not all(_poly_contains(view_in, np.array([[p.x, p.y]]))[0] for p in poses):
                continue
            free.add(poses)
            for p in poses:
                scene.bodies.append(
                    Body(
                        kind,
                        p,
                        1.0 if kind == "edge" else th,
                        None if kind == "down" else _spare_values(scene, rng),
                        kind if kind == "edge" else "down",
                        None,
                        int(rng.integers(2**31)),
                    )
                )
            break


def _lower_part(camera: Camera, near: float) -> np.ndarray:
    """World (x, y) of the photo's part below `near` of its height (and inside its sides), (4, 2)."""
    w, h = camera.width, camera.height
    pixels = np.array([[0.1 * w, near * h, 1], [0.9 * w, near * h, 1], [0.9 * w, 0.92 * h, 1], [0.1 * w, 0.92 * h, 1]])
    world = pixels @ np.linalg.inv(camera.plane_homography()).T
    return world[:, :2] / world[:, 2:3]


def _spare_values(scene: Scene, rng: np.random.Generator) -> tuple[int, int]:
    a, b = (int(v) for v in rng.integers(0, 7, 2))
    return a, b


def coloured_pips(scene: Scene, rng: np.random.Generator) -> Shot:
    name = str(rng.choice(list(PIP_SCHEMES)))
    face = _FACES[str(rng.choice(["ivory", "white", "cream"]))][0]
    style = replace(scene.tile_style, name=f"{name}-coloured", face=face, coloured=True, pip_colours=PIP_SCHEMES[name])
    return Shot(replace(scene, tile_style=style))


def dark_tiles(scene: Scene, rng: np.random.Generator) -> Shot:
    name = str(rng.choice(["black", "black", "blue", "red", "green"]))
    face, pip = _FACES[name]
    style = replace(scene.tile_style, name=name, face=face, pip=pip, coloured=False, painted_divider=False)
    return Shot(replace(scene, tile_style=style))


def pin_no_divider(scene: Scene, rng: np.random.Generator) -> Shot:
    style = replace(scene.tile_style, pin=True, divider=0.0, painted_divider=False)
    return Shot(replace(scene, tile_style=style))


def close_up(scene: Scene, rng: np.random.Generator) -> Shot:
    """One to four tiles filling up to the whole frame: the camera moved over one face-up tile and
    turned, as a person framing it does, to lie along the photo (give or take 8 degrees)."""
    tiles = _face_up(scene)
    target = tiles[int(rng.integers(len(tiles)))].pose if tiles else Pose(0.0, 0.0, 0.0)
    length = float(np.exp(rng.uniform(*np.log(CLOSE_UP)))) * scene.width / 1280
    tilt = math.radians(rng.uniform(0, 25))
    camera = _aimed(scene.camera, (target.x, target.y), length, tilt)
    ends = camera.project(
        np.array(
            [
                [target.x - math.cos(target.angle), target.y - math.sin(target.angle), 0.0],
                [target.x + math.cos(target.angle), target.y + math.sin(target.angle), 0.0],
            ]
        )
    )
    along = math.atan2(ends[1, 1] - ends[0, 1], ends[1, 0] - ends[0, 0])
    # roll turns the picture: take the tile's angle in the photo off it, to the nearest half turn
    turn = along - math.pi * round(along / math.pi) + math.radians(rng.normal(0, 4))
    camera = _aimed(replace(camera, roll=camera.roll - turn), (target.x, target.y), length, tilt)
    return Shot(replace(_in_view(scene, camera), hands=[]))


def small_photo(scene: Scene, rng: np.random.Generator) -> Shot:
    """One face-up tile alone in a small photo (80-240 px a side, the tile 0.3-0.7 of it), often
    on a dark cloth: what a single tile's crop or a thumbnail shows. Such a photo reaches the
    detector enlarged and padded out with nothing round it; a lone flat tile there looked to
    the detector like a printed picture on a card, which it learnt to set aside."""
    tiles = _face_up(scene)
    if not tiles:
        return Shot(scene)
    target = tiles[int(rng.integers(len(tiles)))]
    side = int(rng.integers(SMALL_PHOTO[0], SMALL_PHOTO[1] + 1))
    width = min(SMALL_SCALE * side, scene.width)
    height = min(round(width * float(rng.choice([1.0, 1.0, 0.75, 1.33]))), scene.height)
    length = float(rng.uniform(*SMALL_TILE)) * min(width, height)
    camera = _aimed(scene.camera, (target.pose.x, target.pose.y), length, math.radians(rng.uniform(0, 20)))
    # the tile lies at the frame's centre: the small photo is placed anywhere that keeps it whole
    room_x, room_y = max(0.0, (width - 1.15 * length) / 2), max(0.0, (height - 1.15 * length) / 2)
    x = round(scene.width / 2 - width / 2 + rng.uniform(-room_x, room_x))
    y = round(scene.height / 2 - height / 2 + rng.uniform(-room_y, room_y))
    x, y = min(max(x, 0), scene.width - width), min(max(y, 0), scene.height - height)
    alone = replace(
        scene,
        camera=camera,
        bodies=[target],
        hands=[],
        board=None,
        cards=[],
        table="dark" if rng.random() < 0.5 else scene.table,
    )
    small = Small(x, y, width, height, bool(rng.random() < 0.5), int(rng.integers(55, 95)), float(rng.uniform(0, 1)))
    return Shot(alone, small=small)


def shown_small(image: np.ndarray, small: Small) -> np.ndarray:
    """The photo as the detector sees its small part alone (`Small`): the same pixels' places, so
    the truth's corners hold as they are."""
    x, y, w, h = small.x, small.y, small.width, small.height
    part = cv2.resize(image[y : y + h, x : x + w], (w // SMALL_SCALE, h // SMALL_SCALE), interpolation=cv2.INTER_AREA)
    if small.blur > 0.3:
        part = cv2.GaussianBlur(part, (0, 0), small.blur)
    ok, encoded = cv2.imencode(".jpg", part, [cv2.IMWRITE_JPEG_QUALITY, small.jpeg_quality])
    part = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else part
    part = cv2.resize(part, (w, h), interpolation=cv2.INTER_LINEAR)
    height, width = image.shape[:2]
    if small.grey:
        out = np.full_like(image, 114)
        out[y : y + h, x : x + w] = part
        return out
    return cv2.copyMakeBorder(part, y, height - y - h, x, width - x - w, cv2.BORDER_REPLICATE)


def far(scene: Scene, rng: np.random.Generator) -> Shot:
    length = float(rng.uniform(*FAR)) * scene.width / 1280
    return Shot(_in_view(scene, _aimed(scene.camera, scene.camera.target, length)))


def table(kind: str) -> Callable[[Scene, np.random.Generator], Shot]:
    def change(scene: Scene, rng: np.random.Generator) -> Shot:
        return Shot(replace(scene, table=kind, board=None))

    change.__name__ = f"{kind}_table"
    return change


def steep(scene: Scene, rng: np.random.Generator) -> Shot:
    # the far edge of the frame stays below the horizon (at 85 degrees): a table, not a room
    half_view = math.degrees(math.atan(scene.height / 2 / scene.camera.focal))
    tilt = math.radians(min(rng.uniform(*STEEP_DEG), 85 - half_view))
    return Shot(_in_view(scene, _aimed(scene.camera, scene.camera.target, scene.camera.tile_px(), tilt)))


def squashed(scene: Scene, rng: np.random.Generator) -> Shot:
    """The photo shrunk along one axis, as a phone's wrong aspect or a stretched frame shows it."""
    by = float(rng.uniform(*SQUASH))
    return Shot(scene, squash=(by, 1.0) if rng.random() < 0.5 else (1.0, by))


def face_down(scene: Scene, rng: np.random.Generator) -> Shot:
    """Rows of face-down tiles, the backs with a maker's logo, beside the face-up ones."""
    style = replace(scene.tile_style, back=str(rng.choice(["logo-ring", "logo-diamond", "logo-word"])))
    scene = replace(scene, tile_style=style, bodies=list(scene.bodies))
    _add_rows(scene, rng, "down", int(rng.integers(1, 4)))
    return Shot(scene)


def standing(scene: Scene, rng: np.random.Generator) -> Shot:
    """Players' hands standing on edge, their backs to the camera."""
    scene = replace(scene, bodies=list(scene.bodies))
    _add_rows(scene, rng, "edge", int(rng.integers(1, 4)))
    return Shot(scene)


def own_hand(scene: Scene, rng: np.random.Generator) -> Shot:
    """A player's own hand standing on edge, the faces to the camera, seen over it from a steep
    view (a phone held behind one's own tiles): real pips that are not on the table. The styles
    benchmark's steep views show such rows only where moving the camera turned them round."""
    scene = steep(scene, rng).scene
    scene = replace(scene, bodies=list(scene.bodies))
    _add_rows(scene, rng, "edge", int(rng.integers(1, 3)), faces_to_camera=True, near=0.45)
    return Shot(scene)


#: bodies and plain pips (BGR) that no training photo draws: sets players own that the renderer's
#: palettes (`tiles._FACES`, `PIP_SCHEMES`) leave out
NEW_SETS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "yellow": ((40, 200, 235), (20, 20, 20)),
    "orange": ((30, 120, 230), (245, 245, 245)),
    "purple": ((120, 40, 90), (60, 200, 235)),
    "pink": ((170, 140, 235), (40, 30, 30)),
    "teal": ((130, 130, 20), (235, 235, 235)),
    "grey": ((150, 150, 150), (30, 30, 160)),
    "mint": ((190, 225, 180), (90, 40, 20)),
}


def _bgr(hue: int, saturation: int, value: int) -> tuple[int, int, int]:
    """An HSV colour (OpenCV's ranges: hue 0-179) as BGR."""
    b, g, r = cv2.cvtColor(np.full((1, 1, 3), (hue, saturation, value), np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def new_sets(scene: Scene, rng: np.random.Generator) -> Shot:
    """A set the renderer never draws for training, for measuring only (never trained on): a
    body and pips from `NEW_SETS`, or a black or white body with its pips coloured by value in a
    scheme drawn afresh (bright on black, dark on white)."""
    kind = str(rng.choice([*NEW_SETS, "black-coloured", "white-coloured"]))
    style = replace(scene.tile_style, painted_divider=False)
    if kind in NEW_SETS:
        face, pip = NEW_SETS[kind]
        style = replace(style, name=kind, face=face, pip=pip, coloured=False)
    else:
        on_black = kind == "black-coloured"
        hues = rng.permutation(180)[:7]
        value = 235 if on_black else 150
        colours = tuple(_bgr(int(h), 220, value) for h in hues)
        face = (28, 28, 30) if on_black else (236, 238, 238)
        style = replace(style, name=kind, face=face, pip=colours[1], coloured=True, pip_colours=colours)
    return Shot(replace(scene, tile_style=style))


def printed(scene: Scene, rng: np.random.Generator) -> Shot:
    """A game board with its track of printed domino pictures under the tiles, and cards."""
    view = scene.camera.footprint()
    (ax, ay), (bx, by) = view[1] - view[0], view[3] - view[0]
    size = float(np.sqrt(abs(ax * by - ay * bx)))  # the parallelogram's area (numpy 2 has no 2-D cross)
    side = float(rng.uniform(0.6, 1.0)) * size
    board = Board(
        float(scene.camera.target[0]),
        float(scene.camera.target[1]),
        float(rng.uniform(0, 2 * math.pi)),
        side,
        float(rng.uniform(2.0, 2.8)),
    )
    board = ruled(np.random.default_rng([scene.seed, 2]), board, None)
    board = replace(board, lettered=True, lead=_lead_on(board, scene.bodies))
    cards = []
    for _ in range(int(rng.integers(1, 3))):
        x, y = (float(v) for v in _sample_point(rng, view))
        cards.append(Pose(x, y, float(rng.uniform(0, 2 * math.pi)), 6.0, 4.0))
    return Shot(replace(scene, board=board, cards=cards))


def glare(scene: Scene, rng: np.random.Generator) -> Shot:
    """A flash or a lamp overhead: a highlight on every tile top, the light from the camera."""
    light = replace(
        scene.light, glare=1.0, elevation=math.radians(rng.uniform(70, 88)), exposure=scene.light.exposure * 1.1
    )
    return Shot(replace(scene, light=light))


def blur(scene: Scene, rng: np.random.Generator) -> Shot:
    length = float(rng.uniform(5, 14)) * scene.width / 1280
    finish = replace(scene.finish, motion=length, motion_angle=float(rng.uniform(0, 180)), sharpen=0.0)
    return Shot(replace(scene, finish=finish))


def dim(scene: Scene, rng: np.random.Generator) -> Shot:
    """A dim room at night: a third of a lit room's light on the table, and the noise and harder
    compression a webcam or a phone gives such a photo."""
    light = replace(scene.light, exposure=scene.light.exposure * float(rng.uniform(*DIM_LIGHT)))
    finish = replace(scene.finish, noise=float(rng.uniform(*DIM_NOISE)), jpeg_quality=int(rng.integers(60, 86)))
    return Shot(replace(scene, light=light, finish=finish))


def dim_printed(scene: Scene, rng: np.random.Generator) -> Shot:
    """A game board's printed track in a dim room: in the dim room's photos the detector took a
    board's pictures for sure tiles (docs/styles.md), and neither condition alone shows both."""
    return dim(printed(scene, rng).scene, rng)


def phone(scene: Scene, rng: np.random.Generator) -> Shot:
    """Drawn at `PHONE` size (`CONDITIONS` says so), stored turned with an EXIF orientation."""
    return Shot(scene, orientation=int(rng.choice([3, 6, 8])))


def issue_set(scene: Scene, rng: np.random.Generator) -> Shot:
    """The coloured set of the issue's real photos the reader once missed (light blue 1, green 2,
    red 3, tan 4, dark blue 5 on an ivory, white or cream body) on a grey stone table, the photo
    squashed so that the tiles look about 1.5:1: measuring only, never trained on."""
    face = _FACES[str(rng.choice(["ivory", "white", "cream"]))][0]
    style = replace(
        scene.tile_style, name="tan-four-coloured", face=face, coloured=True, pip_colours=PIP_SCHEMES["tan-four"]
    )
    by = float(rng.uniform(0.7, 0.78))
    return Shot(
        replace(scene, tile_style=style, table="stone", board=None),
        squash=(by, 1.0) if rng.random() < 0.5 else (1.0, by),
    )


#: the kinds of condition a `mixed` photo takes one each of, in the order they are applied (the
#: table before what lies on it, the camera before the light): two of one kind would overwrite
#: each other. A squash, a turn or a cut-out is the stored photo's, not the scene's: left out.
MIXABLE: tuple[tuple[str, ...], ...] = (
    ("white-table", "busy-table", "glossy-table", "dark-table"),
    ("coloured-pips", "dark-tiles", "pin-no-divider", "new-sets"),
    ("printed", "face-down", "standing"),
    ("far", "steep"),
    ("glare", "blur", "dim"),
)


def mixed(scene: Scene, rng: np.random.Generator) -> Shot:
    """Two conditions of two kinds at once, as a player's table is (dark tiles on a glossy table,
    a printed board in a dim room, a steep view of coloured pips): measuring only, never trained
    on. Every condition alone is the styles benchmark's; this asks whether the reader's sureness
    holds where they meet."""
    kinds = sorted(int(k) for k in rng.choice(len(MIXABLE), size=2, replace=False))
    names = tuple(str(rng.choice(MIXABLE[k])) for k in kinds)
    for name in names:
        scene = _MIXED_BY_NAME[name](scene, rng).scene
    return Shot(scene, mixed=names)


@dataclass(frozen=True, slots=True)
class Condition:
    name: str
    change: Callable[[Scene, np.random.Generator], Shot]
    size: tuple[int, int] = (1280, 960)
    about: str = ""


CONDITIONS: tuple[Condition, ...] = (
    Condition("plain", lambda s, r: Shot(s), about="the held-out generator as it is: the reference"),
    Condition(
        "coloured-pips", coloured_pips, about="ivory, white or cream bodies, pips coloured by value in three schemes"
    ),
    Condition("dark-tiles", dark_tiles, about="black bodies with white pips, or blue, red, green bodies"),
    Condition("pin-no-divider", pin_no_divider, about="a brass pin and no divider line"),
    Condition(
        "close-up", close_up, about="one face-up tile 450-1250 px long at 1280 wide: one to four tiles fill the frame"
    ),
    Condition("far", far, about="tiles 18-24 px long"),
    Condition("white-table", table("white"), about="a plain white table"),
    Condition("busy-table", table("busy"), about="a busy printed cloth: blobs and marks the size of pips and tiles"),
    Condition("glossy-table", table("glossy"), about="a plain table with broad bright reflections"),
    Condition("dark-table", table("dark"), about="a near-black table"),
    Condition("steep", steep, about="the camera tilted 55-68 degrees from straight down"),
    Condition("squashed", squashed, about="the photo shrunk to 0.7-0.8 along one axis (tiles down to 1.4:1)"),
    Condition("face-down", face_down, about="one to three rows of face-down tiles with a maker's logo"),
    Condition("standing", standing, about="one to three rows of tiles standing on edge, backs to the camera"),
    Condition("printed", printed, about="a game board's printed domino track under the tiles, and cards"),
    Condition("glare", glare, about="a highlight on every tile top, the light from over the camera"),
    Condition("blur", blur, about="motion blur 5-14 px"),
    Condition("phone-12mp", phone, size=PHONE, about="4080x3072 JPEG stored turned, EXIF orientation 3, 6 or 8"),
    # last, so that every other condition keeps its seed (`seed_of`)
    Condition("dim", dim, about="a dim room: 0.3-0.45 of the light, sensor noise 9-16"),
)
BY_NAME = {c.name: c for c in CONDITIONS}


def seed_of(condition: Condition) -> int:
    return STYLE_SEED + CONDITIONS.index(condition)


def make_style_sample(
    condition: Condition, index: int, seed: int | None = None, size: tuple[int, int] | None = None
) -> Sample:
    """Photo `index` of a condition's set: rendered, labelled, and encoded as it is stored
    (`seed` and `size`: the condition's own unless given, as `make_styled_sample` gives them)."""
    seed = seed_of(condition) if seed is None else seed
    width, height = condition.size if size is None else size
    scene = build_scene(image_rng(seed, index), width, height, TRAINING)
    shot = condition.change(scene, np.random.default_rng([seed, index, 1]))
    scene = shot.scene
    rendered = render_scene(scene)
    params = {
        "generator": GENERATOR,
        "styles": condition.name,
        "seed": seed,
        "index": index,
        "sets": scene.sets,
        "tile_style": scene.tile_style.name,
        "table": scene.table,
        "camera": scene.camera.describe(),
        **({"mixed": list(shot.mixed)} if shot.mixed else {}),
    }
    truth = build_truth(scene, rendered, params)
    image = rendered.image
    if shot.small is not None:
        image = shown_small(image, shot.small)
    if shot.squash != (1.0, 1.0):
        sx, sy = shot.squash
        image = cv2.resize(image, (round(width * sx), round(height * sy)), interpolation=cv2.INTER_AREA)
        truth = squash_truth(truth, sx, sy, image.shape[1], image.shape[0])
    jpeg = encode_jpeg(turned_for(image, shot.orientation), scene.finish.jpeg_quality)
    if shot.orientation != 1:
        jpeg = jpeg[:2] + exif_orientation(shot.orientation) + jpeg[2:]
    name = f"{index:06d}"
    truth["image"]["file"] = f"{name}.jpg"
    label = "".join(line + "\n" for line in yolo_lines(truth))
    return Sample(name, jpeg, label, truth)


#: a training condition only: `../shared/real/domibot-crops` measures it (real single-tile crops)
SMALL_PHOTO_CONDITION = Condition("small-photo", small_photo, about="one tile alone in an 80-240 px photo")
#: the conditions a styled training photo draws from (a plain photo is any training photo; the
#: phone's size is the reading's business, not the detector's)
TRAINING_CONDITIONS = tuple(c for c in CONDITIONS if c.name not in ("plain", "phone-12mp")) + (SMALL_PHOTO_CONDITION,)
#: training conditions drawn only by name (`--condition`), so that `--styled` draws as before
NAMED_ONLY = (
    Condition("dim-printed", dim_printed, about="a game board's printed track in a dim room"),
    Condition("own-hand", own_hand, about="a player's own standing tiles, faces to a steep camera behind them"),
    Condition("new-sets", new_sets, about="measuring only: tile and pip colours no training photo has"),
    Condition("mixed", mixed, about="measuring only: two conditions of two kinds at once (`MIXABLE`)"),
    Condition(
        "issue-set", issue_set, about="measuring only: the issue's coloured set on grey stone, squashed to 1.5:1"
    ),
)
TRAINING_BY_NAME = {c.name: c for c in TRAINING_CONDITIONS + NAMED_ONLY}
_MIXED_BY_NAME = {name: TRAINING_BY_NAME[name].change for kind in MIXABLE for name in kind}


def make_styled_sample(
    seed: int, index: int, width: int = 1280, height: int = 960, condition: str | None = None
) -> Sample:
    """A training photo with one condition of the styles benchmark, drawn by (seed, index), or
    the `condition` named: the set a detector that is to read every set and table learns from
    (`spinner dataset synth --styled [--condition NAME]`). The benchmark's own seeds are
    refused: they are never trained on."""
    if STYLE_SEED <= seed < STYLE_SEED + len(CONDITIONS):
        raise ValueError(
            f"seed {seed} is one of the styles benchmark's ({STYLE_SEED}-{STYLE_SEED + len(CONDITIONS) - 1}): never train on it"
        )
    if condition is None:
        pick = np.random.default_rng([seed, index, 2])
        chosen = TRAINING_CONDITIONS[int(pick.integers(len(TRAINING_CONDITIONS)))]
    else:
        chosen = TRAINING_BY_NAME[condition]
    sample = make_style_sample(chosen, index, seed=seed, size=(width, height))
    sample.truth["params"]["styles"] = chosen.name
    return sample


def squash_truth(truth: dict[str, Any], sx: float, sy: float, width: int, height: int) -> dict[str, Any]:
    """The truth of a photo resized by (sx, sy): every point moved with it."""

    def move(value: Any) -> Any:
        if isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
            return [round(value[0] * sx, 2), round(value[1] * sy, 2)]
        if isinstance(value, list):
            return [move(v) for v in value]
        if isinstance(value, dict):
            return {k: (move(v) if k in ("corners", "center", "outline", "halves") else v) for k, v in value.items()}
        return value

    out = dict(truth)
    for key in ("tiles", "face_down", "on_edge", "printed"):
        out[key] = [move(item) for item in truth.get(key, [])]
    out["image"] = {**truth["image"], "width": width, "height": height}
    return out


#: EXIF orientation -> how the upright photo is turned to the pixels a phone stores
_STORED = {
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
}


def turned_for(image: np.ndarray, orientation: int) -> np.ndarray:
    turn = _STORED.get(orientation)
    return image if turn is None else turn(image)


def exif_orientation(value: int) -> bytes:
    """A JPEG APP1 segment whose EXIF block holds the orientation tag alone."""
    tiff = (
        b"II"
        + struct.pack("<HI", 42, 8)
        + struct.pack("<H", 1)
        + struct.pack("<HHIHH", 0x0112, 3, 1, value, 0)
        + struct.pack("<I", 0)
    )
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def _job(args: tuple[str, str, int]) -> int:
    out, name, index = args
    write_sample(Path(out) / name, "val", make_style_sample(BY_NAME[name], index))
    return index


def generate_styles(
    out: str | Path, images: int, names: list[str] | None = None, workers: int = 2, progress: bool = True
) -> list[Path]:
    """`images` photos of each condition under `out/CONDITION/` (all in the val split)."""
    root = Path(out)
    chosen = [BY_NAME[n] for n in names] if names else list(CONDITIONS)
    jobs = []
    for condition in chosen:
        for kind in ("images", "labels", "truth"):
            (root / condition.name / kind / "val").mkdir(parents=True, exist_ok=True)
        jobs += [
            (str(root), condition.name, i)
            for i in range(images)
            if not (root / condition.name / "truth" / "val" / f"{i:06d}.json").exists()
        ]
    from tqdm import tqdm

    bar = tqdm(total=len(jobs), unit="img", desc="styles", disable=not progress)
    if workers <= 1:
        for job in jobs:
            _job(job)
            bar.update(1)
    else:
        import multiprocessing as mp

        from .dataset import _init_worker

        with mp.get_context("fork").Pool(workers, initializer=_init_worker) as pool:
            for _ in pool.imap_unordered(_job, jobs, chunksize=1):
                bar.update(1)
    bar.close()
    return [root / c.name for c in chosen]
