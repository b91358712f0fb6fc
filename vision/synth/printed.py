"""Flat things printed on the table: a game board with a track of domino pictures, and cards.

Printed domino pictures look like tiles from above but have no thickness, no side walls and
no shadow. They are drawn into the table canvas (so they bend with the table under the camera)
and are never labelled; their polygons go to the truth for reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import Pose
from .tables import smooth_noise
from .tiles import TileStyle, draw_face


@dataclass(frozen=True, slots=True)
class Printed:
    """One printed domino picture on the table (world corners, first half first)."""

    a: int
    b: int
    pose: Pose


@dataclass(frozen=True, slots=True)
class Board:
    """A square game board: centre, rotation and side (world units); `inner` is its play area."""

    x: float
    y: float
    angle: float
    side: float
    band: float
    #: a board ruled in cells a tile's half wide, as boards for domino games are: (cell side,
    #: x and y of one cell's centre in the board's own frame); None: a finer decorative grid
    cells: tuple[float, float, float] | None = None
    #: the ruled lines' colour (BGR; dark ink or light); None: a shade of the play area
    ink: tuple[float, float, float] | None = None
    #: the board prints words: its game's name over the play area, marks on the band
    #: (training photos only: films draw their boards as before)
    lettered: bool = False
    #: where the layout's lead lies, in the board's own frame: (x, y, the angle of its length from
    #: the board's x axis); None without a laid line. A lettered board may print its logo there.
    lead: tuple[float, float, float] | None = None

    @property
    def inner_half(self) -> float:
        return self.side / 2 - self.band


def to_canvas(points: np.ndarray, affine: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64)
    return pts @ affine[:, :2].T + affine[:, 2]


def paste(canvas: np.ndarray, tex: np.ndarray, alpha: np.ndarray, world_quad: np.ndarray, affine: np.ndarray) -> None:
    """Blend a texture into the canvas where `world_quad` (its corners TL, TR, BR, BL) lies."""
    h, w = tex.shape[:2]
    dst = to_canvas(world_quad, affine).astype(np.float32)
    x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
    ch, cw = canvas.shape[:2]
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, cw), min(y1, ch)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst - np.array([cx0, cy0], np.float32))
    size = (cx1 - cx0, cy1 - cy0)
    warped = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    roi = canvas[cy0:cy1, cx0:cx1]
    roi += (warped.astype(np.float32) - roi) * a[..., None]


def texture_quad(pose: Pose) -> np.ndarray:
    """World corners matching a texture's TL, TR, BR, BL (texture x along the tile's length).

    Texture rows run down, world y runs up: the texture's top edge is the pose's +across side.
    """
    c = pose.corners()  # (-l,-w), (l,-w), (l,w), (-l,w) in local terms
    return np.array([c[3], c[2], c[1], c[0]])


def printed_style(rng: np.random.Generator) -> TileStyle:
    grey = int(float(rng.uniform(215, 250)))
    return TileStyle(
        "printed",
        (grey, grey, grey),
        (15, 15, 15),
        bool(rng.random() < 0.15),
        float(rng.choice([0.03, 0.05])),
        False,
        float(rng.uniform(0.03, 0.12)),
        0.0,
        float(rng.uniform(0.07, 0.1)),
        0.0,
        False,
        bool(rng.random() < 0.5),
    )


def _rule_cells(tex: np.ndarray, board: Board, c0: int, c1: int) -> None:
    """Lines between the cells of a ruled board, in ink, over its play area (texture pixels:
    x along the board's own x, rows down its own y)."""
    assert board.cells is not None
    cell, ox, oy = board.cells
    s = tex.shape[0]
    per_unit = s / board.side
    ink = board.ink if board.ink is not None else (25.0, 25.0, 25.0)
    thick = max(1, int(round(0.04 * per_unit)))
    lo, hi = -board.inner_half, board.inner_half
    for origin, along_x in ((ox, True), (oy, False)):
        k0 = math.ceil((lo - origin) / cell - 0.5)
        for k in range(k0, k0 + int((hi - lo) / cell) + 2):
            edge = origin + (k + 0.5) * cell
            if not lo < edge < hi:
                continue
            if along_x:  # a line of constant x
                p = int(round((edge + board.side / 2) * per_unit * 16))
                cv2.line(tex, (p, c0 * 16), (p, c1 * 16), ink, thick, cv2.LINE_AA, 4)
            else:
                p = int(round((board.side / 2 - edge) * per_unit * 16))
                cv2.line(tex, (c0 * 16, p), (c1 * 16, p), ink, thick, cv2.LINE_AA, 4)


#: words a board prints: its game's name over the play area, marks on the band
LOGO_WORDS = (
    "DOUBLE",
    "Double",
    "DOMINOES",
    "Dominoes",
    "Double Double",
    "FIVES",
    "All Fives",
    "SPINNER",
    "Mexican Train",
    "MUGGINS",
    "Domino",
    "Train",
    "Dominos",
)
BAND_WORDS = ("START", "100", "50", "HOME", "FINISH", "150", "25", "200", "WIN")
_FONTS = (
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SIMPLEX,
)


def _ink_word(
    tex: np.ndarray,
    word: str,
    centre: tuple[float, float],
    height: float,
    quarter: int,
    angle: float,
    colour: tuple[float, float, float],
    outline: tuple[float, float, float] | None,
    bold: float,
    font: int,
    panel: tuple[float, float, float] | None = None,
) -> None:
    """Print one word into the texture: `height` pixels tall, centred at `centre`, turned by
    `quarter` right angles and `angle` degrees more; an outline in another ink, as on logos, and
    a `panel`: a light band under the word, as the real board's black letters on ivory (a band
    of light rectangles with dark marks, next to which a laid tile is hard to tell apart)."""
    scale = height / 22.0  # Hershey glyphs are about 22 units tall at scale 1
    thick = max(1, int(round(height * bold)))
    (tw, th), base = cv2.getTextSize(word, font, scale, thick)
    edge = thick + 4 if outline is not None else 0
    pad = int(height * 0.6) + edge + 4
    w, h = tw + 2 * pad, th + base + 2 * pad
    layers, inks = [], []
    if panel is not None:
        m = np.zeros((h, w), np.uint8)
        margin = max(1, int(round(height * 0.12)))
        cv2.rectangle(m, (pad - margin, pad - margin), (pad + tw + margin, pad + th + base // 2 + margin), 255, -1)
        layers.append(m)
        inks.append(panel)
    for extra in ((edge,) if outline is not None else ()) + (0,):
        m = np.zeros((h, w), np.uint8)
        cv2.putText(m, word, (pad, pad + th), font, scale, 255, thick + extra, cv2.LINE_AA)
        layers.append(m)
    inks += ([outline] if outline is not None else []) + [colour]
    layers = [np.rot90(m, quarter) for m in layers]
    hh, ww = layers[0].shape
    size = int(math.ceil(math.hypot(hh, ww)))
    turn = cv2.getRotationMatrix2D((ww / 2, hh / 2), angle, 1.0)
    turn[:, 2] += (size - ww) / 2, (size - hh) / 2
    x0, y0 = int(round(centre[0] - size / 2)), int(round(centre[1] - size / 2))
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + size, tex.shape[1]), min(y0 + size, tex.shape[0])
    if ax0 >= ax1 or ay0 >= ay1:
        return
    for m, ink in zip(layers, inks):
        a = cv2.warpAffine(np.ascontiguousarray(m), turn, (size, size)).astype(np.float32) / 255
        a = a[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0, None]
        roi = tex[ay0:ay1, ax0:ax1]
        roi[:] = roi * (1 - a) + a * np.array(ink, np.float32)


def _letter_logo(tex: np.ndarray, c0: int, c1: int, per_unit: float, rng: np.random.Generator) -> None:
    """The game's name printed large over the play area (one or two lines, often in the middle,
    where the tiles are laid over it: the real board's logo hides the 6-4 laid on it from the
    detector in 17 photos of its game)."""
    quarter = int(rng.integers(4))
    angle = float(rng.normal(0, 3)) if rng.random() < 0.7 else float(rng.uniform(-40, 40))
    mid = (c0 + c1) / 2
    centre = np.array([mid, mid]) + rng.uniform(-0.3, 0.3, 2) * (c1 - c0)
    lines = 1 if rng.random() < 0.5 else 2
    step = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]])[quarter]  # down the lines, turned
    for k in range(lines):
        height = float(rng.uniform(0.6, 1.8)) * per_unit
        dark = rng.random() < 0.5
        colour = (
            (float(rng.uniform(5, 40)),) * 3
            if dark
            else [(40, 200, 230), (50, 170, 220), (235, 235, 235), (30, 30, 140), (140, 60, 20)][int(rng.integers(5))]
        )
        outline = panel = None
        if rng.random() < 0.5:
            outline = (235.0, 235.0, 235.0) if dark else (20.0, 20.0, 20.0)
        if dark and rng.random() < 0.5:
            panel = (float(rng.uniform(200, 250)),) * 3
        at = centre + step * (k - (lines - 1) / 2) * height * 1.6
        _ink_word(
            tex,
            str(rng.choice(LOGO_WORDS)),
            (float(at[0]), float(at[1])),
            height,
            quarter,
            angle,
            colour,
            outline,
            float(rng.uniform(0.06, 0.2)),
            int(rng.choice(_FONTS)),
            panel,
        )


def _letter_under_lead(tex: np.ndarray, board: Board, per_unit: float, rng: np.random.Generator) -> None:
    """The real board's logo: "Double" in black block letters a tile's width tall, on ivory bands,
    printed at the play area's centre, where the first tile is laid over it: the tile then has
    light rectangles with dark marks along both long sides (the 6-4 and the 2-1 laid on it were
    missed in every photo of their games by every detector trained without it)."""
    assert board.lead is not None
    x, y, angle = board.lead
    centre = np.array([(x + board.side / 2) * per_unit, (board.side / 2 - y) * per_unit])
    # the words run along the tile or across it; texture rows run down, the board's y up
    quarter = int(rng.integers(4))
    turn = -math.degrees(angle) + 90.0 * int(rng.integers(2))
    height = float(rng.uniform(0.8, 1.2)) * per_unit
    lines = 2 if rng.random() < 0.7 else 1
    ink = (float(rng.uniform(5, 35)),) * 3
    panel = (float(rng.uniform(205, 245)), float(rng.uniform(215, 250)), float(rng.uniform(220, 250)))
    word = str(rng.choice(("Double", "DOUBLE", "Dominoes", "Domino")))
    font = int(rng.choice((cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_DUPLEX)))
    bold = float(rng.uniform(0.12, 0.22))
    # down the lines: across the words, in the texture's own rows and columns
    across = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]])[quarter]
    t = math.radians(-turn)
    across = np.array(
        [across[0] * math.cos(t) - across[1] * math.sin(t), across[0] * math.sin(t) + across[1] * math.cos(t)]
    )
    shift = rng.uniform(-0.5, 0.5, 2) * per_unit
    for k in range(lines):
        at = centre + shift + across * (k - (lines - 1) / 2) * height * 1.5
        _ink_word(
            tex,
            word,
            (float(at[0]), float(at[1])),
            height,
            quarter,
            turn + float(rng.normal(0, 1.5)),
            ink,
            None,
            bold,
            font,
            panel,
        )


def _letter_band(tex: np.ndarray, c0: int, c1: int, per_unit: float, rng: np.random.Generator) -> None:
    """Small marks printed on the band beside the track ("START", "100"): light lettering next
    to printed domino pictures and the tiles at the play area's edge."""
    s = tex.shape[0]
    for _ in range(int(rng.integers(1, 5))):
        side = int(rng.integers(4))
        along = float(rng.uniform(c0, c1))
        depth = float(rng.uniform(0.1, 0.9)) * c0
        x, y = [(along, depth), (s - depth, along), (along, s - depth), (depth, along)][side]
        ink = (float(rng.uniform(200, 250)),) * 3 if rng.random() < 0.7 else (float(rng.uniform(10, 40)),) * 3
        _ink_word(
            tex,
            str(rng.choice(BAND_WORDS)),
            (x, y),
            float(rng.uniform(0.25, 0.5)) * per_unit,
            (side + int(rng.integers(2)) * 2) % 4,
            0.0,
            ink,
            None,
            float(rng.uniform(0.08, 0.15)),
            int(rng.choice(_FONTS)),
        )


def draw_board(
    canvas: np.ndarray, affine: np.ndarray, ppu: float, board: Board, rng: np.random.Generator
) -> list[Printed]:
    """A game board: coloured play area with a printed grid and stars, and a band round it
    holding a zigzag track of printed domino pictures (like many commercial boards)."""
    frame = Pose(board.x, board.y, board.angle, board.side, board.side)
    band_colour = np.array([(40, 50, 90), (30, 40, 60), (20, 20, 20), (60, 30, 30)][int(rng.integers(4))], np.float32)
    play_colour = np.array(
        [(150, 140, 30), (60, 110, 30), (120, 60, 20), (40, 40, 130), (150, 150, 150)][int(rng.integers(5))], np.float32
    )
    s = max(16, min(512, int(board.side * ppu / 2)))
    tex = np.empty((s, s, 3), np.float32)
    tex[:] = band_colour
    inner = int(round(s / 2 * board.inner_half / (board.side / 2)))  # play area, pixels from the centre
    c0, c1 = s // 2 - inner, s // 2 + inner
    tex[c0:c1, c0:c1] = play_colour
    tex *= (1 + 0.05 * smooth_noise(s, s, s / 20, rng))[..., None]
    grid = max(2, int(rng.integers(8, 16)))
    if board.cells is None:
        line = tuple(float(v) for v in play_colour * 0.7)
        for k in range(grid + 1):
            p = c0 + (c1 - c0) * k // grid
            cv2.line(tex, (p, c0), (p, c1), line, 1, cv2.LINE_AA)
            cv2.line(tex, (c0, p), (c1, p), line, 1, cv2.LINE_AA)
    else:
        _rule_cells(tex, board, c0, c1)
    for _ in range(int(rng.integers(10, 40))):  # decorative stars/diamonds
        cx, cy = rng.uniform(c0, c1, 2)
        r = (c1 - c0) / grid * rng.uniform(0.2, 0.45)
        pts = np.array([[cx, cy - r], [cx + r * 0.5, cy], [cx, cy + r], [cx - r * 0.5, cy]], np.int32)
        col = [(60, 200, 230), (120, 40, 40), (40, 40, 120), (30, 20, 20)][int(rng.integers(4))]
        cv2.fillConvexPoly(tex, pts, col, cv2.LINE_AA)
        if rng.random() < 0.6:
            # a light rim and a printed number: small bright marks that are not pips
            cv2.polylines(tex, [pts], True, (170, 220, 235), 1, cv2.LINE_AA)
            size = r / 40
            if size > 0.15:
                ink = np.zeros(tex.shape[:2], np.uint8)  # putText draws on 8-bit images only
                cv2.putText(
                    ink,
                    str(int(rng.integers(1, 6))),
                    (int(cx - r * 0.2), int(cy + r * 0.25)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    size,
                    255,
                    1,
                    cv2.LINE_AA,
                )
                ink_alpha = ink.astype(np.float32)[..., None] / 255
                tex[:] = tex * (1 - ink_alpha) + ink_alpha * 235
    if board.lettered:
        # its own generator, so the track below draws the same pictures either way
        letters = rng.spawn(1)[0]
        if letters.random() < 0.7:
            _letter_logo(tex, c0, c1, s / board.side, letters)
        if letters.random() < 0.5:
            _letter_band(tex, c0, c1, s / board.side, letters)
        if board.lead is not None and letters.random() < 0.5:
            _letter_under_lead(tex, board, s / board.side, letters)
    alpha = np.ones((s, s), np.float32)
    paste(canvas, tex, alpha, texture_quad(frame), affine)
    # the track: pictures along each side of the band, alternating along and across it
    style = printed_style(rng)
    out: list[Printed] = []
    half = board.side / 2
    pad = float(rng.uniform(0.0, 0.2))  # pictures of a track often touch, as tiles packed in a row
    lane = board.band / 2
    for side in range(4):
        rot = board.angle + side * math.pi / 2
        t = -half + board.band * 0.5
        while t < half - board.band * 0.5 - 1.0:
            across = rng.random() < 0.35
            if across:
                lx, ly, ang, step = t + 0.5, -half + lane, math.pi / 2, 1.0
            else:
                off = lane + (0.5 if rng.random() < 0.5 else -0.5) * min(1.0, board.band - 1.05)
                lx, ly, ang, step = t + 1.0, -half + off, 0.0, 2.0
            if t + step > half - board.band * 0.5 + 0.01:
                break
            c, sn = math.cos(rot), math.sin(rot)
            wx, wy = board.x + c * lx - sn * ly, board.y + sn * lx + c * ly
            pose = Pose(wx, wy, rot + ang)
            a, b = int(rng.integers(7)), int(rng.integers(7))
            out.append(Printed(a, b, pose))
            t += step + pad
    _paste_printed(canvas, affine, ppu, out, style, rng)
    return out


def _paste_printed(
    canvas: np.ndarray, affine: np.ndarray, ppu: float, items: list[Printed], style: TileStyle, rng: np.random.Generator
) -> None:
    s = max(8, min(96, int(ppu * 1.2)))
    for item in items:
        tex, alpha = draw_face(item.a, item.b, style, s, rng, printed=True)
        # printed outline, like the drawn edge of a picture
        cv2.rectangle(tex, (0, 0), (2 * s - 1, s - 1), (60, 60, 60), 1, cv2.LINE_AA)
        paste(canvas, tex.astype(np.float32), alpha, texture_quad(item.pose), affine)


def draw_cards(
    canvas: np.ndarray, affine: np.ndarray, ppu: float, spots: list[Pose], rng: np.random.Generator
) -> list[Printed]:
    """Paper cards or box lids lying on the table, each with printed domino pictures on it."""
    out: list[Printed] = []
    for card in spots:
        s = max(16, min(400, int(card.length * ppu / 2)))
        h = max(8, int(s * card.width / card.length))
        paper = np.array(
            [(235, 240, 240), (200, 230, 250), (60, 40, 20), (30, 30, 160)][int(rng.integers(4))], np.float32
        )
        tex = np.empty((h, s, 3), np.float32)
        tex[:] = paper
        for _ in range(int(rng.integers(2, 8))):  # text-like lines and blocks
            x0, y0 = int(rng.uniform(0, s * 0.8)), int(rng.uniform(0, h))
            col = tuple(float(v) for v in rng.uniform(0, 255, 3))
            cv2.rectangle(tex, (x0, y0), (x0 + int(rng.uniform(5, s * 0.5)), y0 + max(1, int(h * 0.03))), col, -1)
        paste(canvas, tex, np.ones((h, s), np.float32), texture_quad(card), affine)
        style = printed_style(rng)
        n = int(rng.integers(1, 4))
        items = []
        for k in range(n):
            # small pictures across the card's length
            scale = rng.uniform(0.35, 0.8) * min(card.width, card.length / max(n, 1) / 2)
            lx = -card.length / 2 + (k + 0.5) * card.length / n
            ly = rng.uniform(-0.2, 0.2) * card.width
            c, sn = math.cos(card.angle), math.sin(card.angle)
            pose = Pose(
                card.x + c * lx - sn * ly,
                card.y + sn * lx + c * ly,
                card.angle + float(rng.choice([0, math.pi / 2])),
                2 * scale,
                scale,
            )
            items.append(Printed(int(rng.integers(7)), int(rng.integers(7)), pose))
        _paste_printed(canvas, affine, ppu, items, style, rng)
        out += items
    return out
