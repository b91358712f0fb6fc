"""Legal layouts from the rules engine, laid out on the table with bends.

`legal_layout` plays random legal tiles from a shuffled set on random fitting ends (so every
layout is one a real game can reach), and gives each placement a place on the table: the lead
west-east at the origin, each tile continuing its arm with its inner half against the parent's
outer half, doubles crosswise, the spinner's north/south arms leaving from its two ends. An arm
bends 90 degrees when going straight would leave the table area or touch another tile; a tile
that fits nowhere on the table is not played (another tile or end is tried instead).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from scorer.layout import CROSS_ENDS, LINE_ENDS, End, Layout, LayoutRules, Placement
from scorer.tiles import FULL_SET, Tile

from .geometry import Footprints, Pose

#: how far (units) a tile must stay from every tile it does not touch, so lines read apart.
CLEARANCE = 0.3

#: A blank half is a tile's least marked face, and a tile drawn uniformly shows one seldom (the
#: double blank is 1 tile in 28), so a detector trained on a uniform draw found double blanks far
#: less often than other tiles, and on the real board hardly at all. Training photos
#: (`make_sample`) make each blank half this many times as likely to be drawn first, for layouts
#: and loose tiles alike: the double blank then shows on 6.1 % of the face-up tiles instead of
#: 3.2 %, a tile with one blank half on 30 % instead of 22 % (300 scenes). Films and sequences
#: keep the uniform draw (weight 1).
BLANK_WEIGHT = 3.0


def blank_weights(tiles: list[Tile], weight: float) -> np.ndarray:
    """Each tile's drawing weight: `weight` to the power of its blank halves."""
    return np.array([weight ** ((t.low == 0) + (t.high == 0)) for t in tiles], dtype=float)


def favour_blanks(rng: np.random.Generator, tiles: list[Tile], weight: float, last: bool = False) -> list[Tile]:
    """A random order of `tiles` in which those with blank halves tend to come first (or `last`).

    At weight 1 it is a plain shuffle drawn exactly as before the weighting existed, so the
    films and sequences rendered from a seed stay the same."""
    if weight == 1.0:
        return [tiles[int(i)] for i in rng.permutation(len(tiles))]
    if not tiles:  # a layout that used the whole set leaves no loose tiles
        return []
    weights = blank_weights(tiles, weight)
    order = rng.choice(len(tiles), size=len(tiles), replace=False, p=weights / weights.sum())
    return [tiles[int(i)] for i in (order[::-1] if last else order)]


@dataclass(slots=True)
class LaidLayout:
    """A layout and where each of its placements lies (poses[i] belongs to layout.placements[i]).

    Each pose's first half is the placement's `inner` half (the lead: its west half)."""

    layout: Layout
    poses: list[Pose]
    variant: str  # "spinner" or "line"
    bends: int = 0
    #: the direction (unit vector) each arm grows in at its open end.
    directions: dict[str, tuple[float, float]] = field(default_factory=dict)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def _perp(d: np.ndarray) -> np.ndarray:
    return np.array([-d[1], d[0]])


def _parallel(a: np.ndarray, b: np.ndarray) -> bool:
    return abs(float(np.dot(a, b))) > 0.7


def _parent_of(layout: Layout, end: End) -> int:
    arm = layout.arms[end]
    if arm:
        return arm[-1]
    if end in LINE_ENDS:
        return 0
    assert layout.spinner is not None
    return layout.spinner


def _contact_centre(layout: Layout, poses: list[Pose], parent: int, end: End) -> np.ndarray:
    """Centre of the parent's half that the new tile touches."""
    pose = poses[parent]
    p = layout.placements[parent]
    if p.is_double:
        return np.array([pose.x, pose.y])
    if parent == 0 and end == "west" and not layout.arms["west"]:
        return pose.half_center(0)  # the lead's west half is its first half
    return pose.half_center(1)


def _extent(pose: Pose, is_double: bool, d: np.ndarray) -> float:
    """How far the parent reaches past its contact half's centre in direction d."""
    if not is_double:
        return 0.5
    return 1.0 if _parallel(pose.axis, d) else 0.5


def _new_pose(anchor: np.ndarray, d: np.ndarray, double: bool, gap: float) -> Pose:
    if double:
        c = anchor + (0.5 + gap) * d
        a = _perp(d)
        return Pose(float(c[0]), float(c[1]), math.atan2(a[1], a[0]))
    c = anchor + (1.0 + gap) * d
    return Pose(float(c[0]), float(c[1]), math.atan2(d[1], d[0]))


def _candidates(
    layout: Layout,
    poses: list[Pose],
    dirs: dict[str, np.ndarray],
    tile: Tile,
    end: End,
    rng: np.random.Generator,
    gap: float,
    bend_chance: float,
) -> list[tuple[Pose, np.ndarray, bool]]:
    """Ways to lay `tile` on `end`: (pose, arm direction afterwards, is a bend), best first."""
    parent = _parent_of(layout, end)
    ppose = poses[parent]
    pdouble = layout.placements[parent].is_double
    d = dirs[end]
    c = _contact_centre(layout, poses, parent, end)
    double = tile.is_double
    straight = (_new_pose(c + _extent(ppose, pdouble, d) * d, d, double, gap), d, False)
    side_turns: list[tuple[Pose, np.ndarray, bool]] = []
    cap_turns: list[tuple[Pose, np.ndarray, bool]] = []
    sides = [_perp(d), -_perp(d)]
    if rng.random() < 0.5:
        sides.reverse()
    for side in sides:
        # "side" bend: leave from the side of the parent's contact half (or a double's end).
        side_turns.append((_new_pose(c + _extent(ppose, pdouble, side) * side, side, double, gap), side, True))
        if not pdouble and not double and _parallel(ppose.axis, d):
            # "cap" bend: the new tile lies across the line's end, inner half in front of it.
            centre = c + (1.0 + gap) * d + 0.5 * side
            cap_turns.append((Pose(float(centre[0]), float(centre[1]), math.atan2(side[1], side[0])), side, True))
    # either kind of corner first, so both appear in the data
    turns = cap_turns + side_turns if rng.random() < 0.5 else side_turns + cap_turns
    if rng.random() < bend_chance:
        return turns + [straight]
    return [straight] + turns


def _fits_table(pose: Pose, bounds: tuple[float, float, float, float] | None) -> bool:
    if bounds is None:
        return True
    corners = pose.corners()
    x0, y0, x1, y1 = bounds
    return bool(
        corners[:, 0].min() >= x0
        and corners[:, 0].max() <= x1
        and corners[:, 1].min() >= y0
        and corners[:, 1].max() <= y1
    )


def _clear(pose: Pose, feet: Footprints, parent: int) -> bool:
    """Not overlapping the parent, and CLEARANCE away from every other tile."""
    gaps = feet.gaps(pose.corners())
    need = np.full(len(gaps), CLEARANCE)
    need[parent] = -1e-6
    return bool((gaps >= need - 1e-9).all())


def legal_layout(
    rng: np.random.Generator,
    tiles: int,
    spinner: bool | None = None,
    bounds: tuple[float, float, float, float] | None = None,
    max_gap: float = 0.06,
    jitter_deg: float = 2.0,
    bend_chance: float = 0.04,
    spinner_lead: bool | None = None,
    blank_weight: float = 1.0,
) -> LaidLayout:
    """Play up to `tiles` random legal tiles and lay them on the table.

    `spinner`: a spinner game (the first double becomes the spinner) or a plain line (doubles
    still crosswise); None picks one. `spinner_lead`: in a spinner game, whether the lead is a
    double (so it is the spinner, its west/east arms leaving from its long sides) or not (the
    spinner then sits inside an arm); None picks one, both happen at real tables. `bounds` (x0, y0, x1, y1) is the table area in layout units around the lead at
    the origin; lines bend to stay inside it. The result may hold fewer tiles when nothing more
    fits. Poses get small random gaps and angle jitter, never overlapping. `blank_weight` favours
    tiles with blank halves (see `BLANK_WEIGHT`).
    """
    if spinner is None:
        spinner = bool(rng.random() < 0.6)
    layout = Layout(LayoutRules(spinner=spinner))
    deck = favour_blanks(rng, list(FULL_SET), blank_weight)
    if spinner:
        if spinner_lead is None:
            spinner_lead = bool(rng.random() < 0.35)
        # many tables open with a double (it becomes the spinner); otherwise the first double
        # played later becomes it, inside an arm
        lead = next(t for t in deck if t.is_double == spinner_lead)
    else:
        lead = deck[0]
    deck.remove(lead)
    west, east = (lead.low, lead.high) if rng.random() < 0.5 else (lead.high, lead.low)
    layout.place_lead(west, east)
    poses = [Pose(0.0, 0.0, math.pi / 2) if lead.is_double else Pose(0.0, 0.0, 0.0)]
    feet = Footprints([poses[0].corners()])
    dirs: dict[str, np.ndarray] = {"west": np.array([-1.0, 0.0]), "east": np.array([1.0, 0.0])}
    bends = 0
    while len(layout) < tiles and deck:
        options = [(t, e) for t in deck for e in layout.fits(t)]
        if not options:
            break
        weights = np.array([3.0 if e in CROSS_ENDS else 1.0 for _, e in options]) * blank_weights(
            [t for t, _ in options], blank_weight
        )
        order = rng.choice(len(options), size=len(options), replace=False, p=weights / weights.sum())
        placed = False
        for k in order[:12]:  # a few tries; a crowded table just ends the layout
            tile, end = options[int(k)]
            if end in CROSS_ENDS and end not in dirs:
                dirs.update(_cross_directions(layout, poses))
            gap = float(rng.uniform(0.0, max_gap))
            parent = _parent_of(layout, end)
            for pose, direction, bent in _candidates(layout, poses, dirs, tile, end, rng, gap, bend_chance):
                if _fits_table(pose, bounds) and _clear(pose, feet, parent):
                    layout.place(tile, end)
                    poses.append(pose)
                    feet.add(pose.corners())
                    dirs[end] = direction
                    bends += bent
                    deck.remove(tile)
                    placed = True
                    break
            if placed:
                break
        if not placed:
            break
    poses = _jitter(poses, layout, rng, jitter_deg, max_gap)
    return LaidLayout(
        layout, poses, "spinner" if spinner else "line", bends, {e: (float(v[0]), float(v[1])) for e, v in dirs.items()}
    )


def _cross_directions(layout: Layout, poses: list[Pose]) -> dict[str, np.ndarray]:
    """North and south leave from the spinner's two ends; north is the one facing +y (else -x)."""
    assert layout.spinner is not None
    axis = poses[layout.spinner].axis
    axis = np.round(axis)  # grid-aligned before jitter
    north = axis if (axis[1] > 0.5 or (abs(axis[1]) < 0.5 and axis[0] < 0)) else -axis
    return {"north": north, "south": -north}


def _jitter(
    poses: list[Pose], layout: Layout, rng: np.random.Generator, jitter_deg: float, max_gap: float
) -> list[Pose]:
    """Small hand-placed imperfections: each tile turned and nudged a little, never into another."""
    out: list[Pose] = []
    feet = Footprints([p.corners() for p in poses])  # row i: tile i where it lies now
    for i, pose in enumerate(poses):
        tries = [
            (math.radians(float(rng.uniform(-jitter_deg, jitter_deg))), rng.uniform(-max_gap, max_gap, size=2) * 0.5),
            (math.radians(float(rng.uniform(-jitter_deg, jitter_deg))) * 0.3, np.zeros(2)),
            (0.0, np.zeros(2)),
        ]
        for dangle, shift in tries:
            cand = pose.moved(pose.x + float(shift[0]), pose.y + float(shift[1]), pose.angle + dangle)
            poly = cand.corners()
            # against the tiles already nudged and the later tiles where they lie now
            gaps = feet.gaps(poly)
            gaps[i] = 1.0
            if (gaps >= 0.0).all():
                out.append(cand)
                feet.replace(i, poly)
                break
        else:  # pragma: no cover - the unjittered pose always clears the already placed tiles
            out.append(pose)
    return out


def placement_dict(p: Placement) -> dict[str, object]:
    return {
        "tile": f"{p.inner}-{p.outer}",
        "end": p.end,
        "parent": p.parent,
        "inner": p.inner,
        "outer": p.outer,
        "double": p.is_double,
    }


def layout_prefix(laid: LaidLayout, count: int) -> LaidLayout:
    """The layout as it stood after its first `count` plays (a legal position too)."""
    old = laid.layout
    layout = Layout(old.rules)
    for p in old.placements[:count]:
        if p.end is None:
            layout.place_lead(p.inner, p.outer)
        else:
            layout.place(p.tile, p.end)
    return LaidLayout(layout, laid.poses[:count], laid.variant, laid.bends, dict(laid.directions))
