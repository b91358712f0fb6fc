"""Which tiles of a photo touch, and how: the contact graph the layout is rebuilt from.

Geometry only (values come later, in `vision.rebuild.reconstruct`). Each tile offers *ports*, points on its
outline where a layout tile can touch it, taken from its own two half quadrilaterals in the
photo (so perspective is handled locally, without a homography):

- `E0`, `E1`: the middle of each short end (a line continuing straight, a spinner's north/south);
- `S0a`, `S0b`, `S1a`, `S1b`: the middle of each half's long side (a line bending round a tile);
- `Ma`, `Mb`: the middle of each long side (a crosswise double, touched across both halves).

A layout contact always joins an end to something: end to end (parallel tiles), end to a half's
side (a bend, perpendicular), end to a double's middle (the line meeting a crosswise double), or
a half's side to a double's middle (a double laid alongside a bend). Two tiles lying side by side
(a revealed hand) touch middle to middle, which no layout does, so hands never chain. Distances
are measured in the pair's own tile size, so a small gap (a tile nudged by a sleeve) still
counts, and a tile far away in the photo is judged at its own scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: a port pair closer than this (in half-sides of the pair) is a contact
TOUCH = 0.42
#: |cos| between tile axes: at least this for "parallel", at most PERPENDICULAR for "across"
#: (wide bands: perspective bends right angles by tens of degrees on a tilted photo)
PARALLEL = 0.6
PERPENDICULAR = 0.8
#: the port kind pairs a layout can show, and whether the two tiles lie parallel there
_LEGAL = {("E", "E"): True, ("E", "S"): False, ("E", "M"): False, ("S", "M"): True}


@dataclass(frozen=True, slots=True)
class TileShape:
    """One tile's outline in the photo, reduced to what contact needs."""

    centre: np.ndarray  # (2,)
    axis: np.ndarray  # unit vector from half 0 to half 1
    size: float  # a half's side, in pixels (mean of its edges)
    ports: dict[str, np.ndarray]  # name -> (2,) point


@dataclass(frozen=True, slots=True)
class Contact:
    """Tile `a` touches tile `b`: through port `port_a` of a and `port_b` of b."""

    a: int
    b: int
    port_a: str
    port_b: str
    #: how far apart the two ports are, in half-sides (0: flush)
    distance: float

    def port_of(self, tile: int) -> str:
        return self.port_a if tile == self.a else self.port_b

    def other(self, tile: int) -> int:
        return self.b if tile == self.a else self.a


def slot(port: str) -> str:
    """What a port occupies: a half ("0", "1"), which touches one tile at most, or a long side."""
    return port[1] if port[0] in "ES" else port


def touched_halves(port: str) -> tuple[int, ...]:
    """The halves a tile touching this port lies against (both, for a double's middle)."""
    return (0, 1) if port[0] == "M" else (int(port[1]),)


def tile_shape(half_corners: Sequence[Sequence[Sequence[float]]]) -> TileShape:
    """Ports of a tile from its two halves' corners (each 4 points in order around the half)."""
    return tile_shapes([half_corners])[0]


def tile_shapes(tiles: Sequence[Sequence[Sequence[Sequence[float]]]]) -> list[TileShape]:
    """`tile_shape` of every tile of a photo at once: numpy over all tiles, because one tile at a
    time is mostly numpy's overhead on 2-vectors."""
    if not tiles:
        return []
    quads = np.asarray(tiles, dtype=np.float64).reshape(-1, 2, 4, 2)  # tile, half, corner, xy
    count = len(quads)
    centres = quads.mean(axis=2)  # (n, 2, 2)
    axis = centres[:, 1] - centres[:, 0]
    axis = axis / (np.hypot(axis[:, 0], axis[:, 1]) + 1e-9)[:, None]
    following = quads[:, :, [1, 2, 3, 0]]
    mids = (quads + following) / 2  # edge k runs from corner k to corner k + 1
    lengths = np.hypot(*np.moveaxis(following - quads, -1, 0))
    # The edge nearest the other half is the tile's middle line; the end is the edge opposite it
    # (not simply the farthest one: perspective shears a half, and then a side's middle can lie
    # further away than the end's).
    to_other = mids - centres[:, ::-1, None, :]
    middle = np.argmin(np.hypot(to_other[..., 0], to_other[..., 1]), axis=2)  # (n, 2)
    rows, halves = np.arange(count)[:, None], np.arange(2)[None, :]
    ends = mids[rows, halves, (middle + 2) % 4]  # (n, 2, 2): E0, E1
    side_a, side_b = (middle + 1) % 4, (middle + 3) % 4
    # Name the sides so that "a" is the same long side on both halves: the two sides that meet
    # at a corner of the middle line (nearest midpoints can mislead on a foreshortened double).
    index = np.arange(count)

    def gap(side0: np.ndarray, side1: np.ndarray) -> np.ndarray:
        ends0 = quads[index[:, None], 0, np.stack([side0, (side0 + 1) % 4], axis=1)]  # (n, 2, 2)
        ends1 = quads[index[:, None], 1, np.stack([side1, (side1 + 1) % 4], axis=1)]
        apart = ends0[:, :, None] - ends1[:, None, :]
        return np.hypot(apart[..., 0], apart[..., 1]).reshape(count, 4).min(axis=1)

    sa0, sb0, sa1, sb1 = side_a[:, 0], side_b[:, 0], side_a[:, 1], side_b[:, 1]
    swap = gap(sa0, sa1) > gap(sa0, sb1)
    sa1, sb1 = np.where(swap, sb1, sa1), np.where(swap, sa1, sb1)
    a0, b0 = mids[index, 0, sa0], mids[index, 0, sb0]
    a1, b1 = mids[index, 1, sa1], mids[index, 1, sb1]
    ports = np.stack([ends[:, 0], ends[:, 1], a0, b0, a1, b1, (a0 + a1) / 2, (b0 + b1) / 2], axis=1)
    centre = centres.mean(axis=1)
    size = lengths.reshape(count, 8).mean(axis=1)
    return [
        TileShape(centre[t], axis[t], float(size[t]), dict(zip(PORTS, ports[t], strict=True))) for t in range(count)
    ]


#: every tile's ports, in this order
PORTS = ("E0", "E1", "S0a", "S0b", "S1a", "S1b", "Ma", "Mb")
#: for each pair of ports (a's, b's): 1 if a layout can join them with the tiles parallel, 0 if
#: crosswise, -1 if no layout joins them
_PAIR_KIND = np.array(
    [[_LEGAL.get((pa[0], pb[0]), _LEGAL.get((pb[0], pa[0]), -1)) for pb in PORTS] for pa in PORTS], dtype=np.int8
)


def find_contacts(shapes: Sequence[TileShape]) -> list[Contact]:
    """Every legal-looking way two tiles touch, nearest first.

    A pair of tiles can offer more than one: a double laid alongside a bend touches the bent
    tile's half with its middle, and, half a tile along, the bent tile's middle touches the
    double's half; only the values tell which tile is the double, so both are kept.
    """
    if len(shapes) < 2:
        return []
    centres = np.array([s.centre for s in shapes])
    sizes = np.array([s.size for s in shapes])
    axes = np.array([s.axis for s in shapes])
    ports = np.array([[s.ports[name] for name in PORTS] for s in shapes])  # (n, 8, 2)
    # Only pairs whose centres lie within four tile sizes can meet (a photo of 40 tiles has 780
    # pairs, most far apart); pairs in order i < j, and within a pair a's ports then b's, as
    # the contacts were always listed (the sort below keeps that order between equals).
    apart = centres[:, None] - centres[None]
    near = np.triu(np.hypot(apart[..., 0], apart[..., 1]) <= 2 * (sizes[:, None] + sizes[None]), k=1)
    first, second = np.nonzero(near)
    if not len(first):
        return []
    scale = (sizes[first] + sizes[second]) / 2
    cos = np.abs((axes[first] * axes[second]).sum(axis=1))
    kind_fits = ((_PAIR_KIND == 1) & (cos >= PARALLEL)[:, None, None]) | (
        (_PAIR_KIND == 0) & (cos <= PERPENDICULAR)[:, None, None]
    )
    gaps = ports[first][:, :, None] - ports[second][:, None, :]  # (pairs, 8, 8, 2)
    distance = np.hypot(gaps[..., 0], gaps[..., 1]) / scale[:, None, None]
    # Each tile must lie outside the other, beyond the port it touches.
    towards_b = centres[second] - centres[first]
    a_outward = ((ports[first] - centres[first][:, None]) * towards_b[:, None]).sum(axis=2) > 0  # (pairs, 8)
    b_outward = ((ports[second] - centres[second][:, None]) * -towards_b[:, None]).sum(axis=2) > 0
    touching = kind_fits & (distance <= TOUCH) & a_outward[:, :, None] & b_outward[:, None, :]
    out = [
        Contact(int(first[k]), int(second[k]), PORTS[pa], PORTS[pb], float(distance[k, pa, pb]))
        for k, pa, pb in np.argwhere(touching)
    ]
    return sorted(out, key=lambda c: c.distance)
