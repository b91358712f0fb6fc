"""Which tiles of a photo touch, and how: the contact graph the layout is rebuilt from.

Geometry only (values come later, in `vision.layout`). Each tile offers *ports*, points on its
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

from dataclasses import dataclass
from typing import Sequence

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

    centre: np.ndarray          # (2,)
    axis: np.ndarray            # unit vector from half 0 to half 1
    size: float                 # a half's side, in pixels (mean of its edges)
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


def _edges(quad: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """Midpoint and length of each edge of a quadrilateral."""
    return [((quad[k] + quad[(k + 1) % 4]) / 2, float(np.linalg.norm(quad[(k + 1) % 4] - quad[k]))) for k in range(4)]


def tile_shape(half_corners: Sequence[Sequence[Sequence[float]]]) -> TileShape:
    """Ports of a tile from its two halves' corners (each 4 points in order around the half)."""
    quads = [np.asarray(q, dtype=np.float64).reshape(4, 2) for q in half_corners]
    centres = [q.mean(axis=0) for q in quads]
    axis = centres[1] - centres[0]
    axis = axis / (np.linalg.norm(axis) + 1e-9)
    ports: dict[str, np.ndarray] = {}
    sides: list[list[int]] = []
    lengths: list[float] = []
    for k, quad in enumerate(quads):
        edges = _edges(quad)
        lengths += [length for _, length in edges]
        # The edge nearest the other half is the tile's middle line; the end is the edge
        # opposite it (not simply the farthest one: perspective shears a half, and then a
        # side's middle can lie further away than the end's).
        middle = min(range(4), key=lambda e: float(np.linalg.norm(edges[e][0] - centres[1 - k])))
        ports[f"E{k}"] = edges[(middle + 2) % 4][0]
        sides.append([(middle + 1) % 4, (middle + 3) % 4])
    # Name the sides so that "a" is the same long side on both halves: the two sides that meet
    # at a corner of the middle line (nearest midpoints can mislead on a foreshortened double).
    e0, e1 = (_edges(q) for q in quads)

    def gap(side0: int, side1: int) -> float:
        ends0 = (quads[0][side0], quads[0][(side0 + 1) % 4])
        ends1 = (quads[1][side1], quads[1][(side1 + 1) % 4])
        return min(float(np.linalg.norm(p - q)) for p in ends0 for q in ends1)

    (sa0, sb0), (sa1, sb1) = sides
    if gap(sa0, sa1) > gap(sa0, sb1):
        sa1, sb1 = sb1, sa1
    a0, b0, a1, b1 = e0[sa0][0], e0[sb0][0], e1[sa1][0], e1[sb1][0]
    ports.update({"S0a": a0, "S0b": b0, "S1a": a1, "S1b": b1, "Ma": (a0 + a1) / 2, "Mb": (b0 + b1) / 2})
    centre = (centres[0] + centres[1]) / 2
    return TileShape(centre, axis, float(np.mean(lengths)), ports)


def find_contacts(shapes: Sequence[TileShape]) -> list[Contact]:
    """Every legal-looking way two tiles touch, nearest first.

    A pair of tiles can offer more than one: a double laid alongside a bend touches the bent
    tile's half with its middle, and, half a tile along, the bent tile's middle touches the
    double's half; only the values tell which tile is the double, so both are kept.
    """
    out: list[Contact] = []
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            out += _contacts(i, j, shapes[i], shapes[j])
    return sorted(out, key=lambda c: c.distance)


def _contacts(i: int, j: int, a: TileShape, b: TileShape) -> list[Contact]:
    scale = (a.size + b.size) / 2
    if np.linalg.norm(a.centre - b.centre) > 4 * scale:
        return []  # too far apart for any port pair to meet
    cos = abs(float(np.dot(a.axis, b.axis)))
    out: list[Contact] = []
    for name_a, point_a in a.ports.items():
        for name_b, point_b in b.ports.items():
            kinds = (name_a[0], name_b[0])
            parallel = _LEGAL.get(kinds, _LEGAL.get(kinds[::-1]))
            if parallel is None:
                continue
            if (parallel and cos < PARALLEL) or (not parallel and cos > PERPENDICULAR):
                continue
            distance = float(np.linalg.norm(point_a - point_b)) / scale
            if distance > TOUCH:
                continue
            # Each tile must lie outside the other, beyond the port it touches.
            if np.dot(b.centre - a.centre, point_a - a.centre) <= 0 or np.dot(a.centre - b.centre, point_b - b.centre) <= 0:
                continue
            out.append(Contact(i, j, name_a, name_b, distance))
    return out
