"""The layout rebuilt from the tiles of one photo, and checked and corrected by the rules.

Steps (pure functions over the reader's `TileReading`s; no model):

1. contacts (`vision.rebuild.contacts`): which tiles touch, end to end, at a bend or against a double;
2. the tree: contacts are taken nearest first, each half touching one tile at most and no
   cycle (a layout is a tree); the largest tree of two tiles or more is the layout, so hands
   and loose tiles beside it are left out. A tile with more than two contacts must be the
   spinner (spinner variants; one at most) or loses its farthest ones;
3. values: halves that touch must show the same number, so they are settled together from
   every half's probabilities (a misread half is outvoted by the half it touches), and the set
   holds each tile once (the cheapest change that removes a repeat is made);
4. the rules: the tree is replayed through the scorer's `Layout` from a lead a legal game can
   have had, so the open ends and the count are the rules engine's, never computed here. A
   tile the rules cannot place there is left out and named.

Where the result differs from the raw reading it says so (`corrections`); where another
reading stays close, it says it is unsure (`unsure`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scorer.layout import ENDS, End, Layout, LayoutRules
from scorer.tiles import Tile
from scorer.variants import Rules, make_rules
from vision.read.reading import TileReading
from vision.rebuild.contacts import Contact, TileShape, find_contacts, slot, tile_shapes, touched_halves

#: two halves may be taken to touch only if some value is this plausible for both (relative
#: to each half's best), unless the two tiles lie flush (FLUSH): then the geometry wins
PLAUSIBLE = 0.02
FLUSH = 0.12
#: a half whose best value beats the next by less than this factor is unsure
UNSURE_RATIO = 3.0
#: a reading with no probabilities: its value is this sure
ASSUMED = 0.9
_EPS = 1e-4


@dataclass(slots=True)
class LayoutResult:
    """The layout found in a photo, replayed by the rules engine."""

    layout: Layout
    #: which of the photo's tiles lie in it (indices into the reading's tiles), in play order
    tiles: list[int]
    #: the tile each placement was made from (parallel to `layout.placements`)
    placed_from: list[int]
    counted: bool
    bends: list[str] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)
    left_out: list[dict[str, Any]] = field(default_factory=list)

    @property
    def open_ends(self) -> dict[End, int]:
        return dict(self.layout.open_ends())

    @property
    def count(self) -> int | None:
        return self.layout.count() if self.counted else None

    def to_json(self) -> dict[str, Any]:
        layout = self.layout
        names = [str(p.tile) for p in layout.placements]
        return {
            "open_ends": [{"end": e, "value": v} for e, v in layout.open_ends().items()],
            "count": self.count,
            "spinner": None if layout.spinner_tile is None else str(layout.spinner_tile),
            "centre": names[0],
            "arms": {e: [names[i] for i in layout.arms[e]] for e in ENDS if layout.arms[e]},
            "bends": self.bends,
            "tiles": list(self.placed_from),
            "corrections": self.corrections,
            "unsure": self.unsure,
            "left_out": self.left_out,
        }


def layout_rules(variant: str = "partners", options: dict[str, Any] | None = None) -> Rules:
    from scorer.variants import get_variant

    return make_rules(variant, get_variant(variant).players[0], options)


def reconstruct(
    tiles: Sequence[TileReading], rules: Rules | None = None, frame: tuple[int, int] | None = None
) -> LayoutResult | None:
    """The layout among these tiles, or None when no two tiles chain.

    A lone tile is not taken for a lead: nothing tells it from a loose tile. `frame` (the
    photo's width and height) lets an open end at the photo's edge be flagged as unsure.
    """
    rules = rules or layout_rules()
    shape_rules = rules.layout_rules()
    n = len(tiles)
    if n < 2:
        return None
    shapes = tile_shapes([[h.corners for h in t.halves] for t in tiles])
    probs = np.array([[_probabilities(h) for h in t.halves] for t in tiles])  # (n, 2, 7)
    tree = _tree(find_contacts(shapes), probs, n)
    members = _largest(tree, n)
    if len(members) < 2:
        return None
    spinner = _prune(tree, members, probs, shape_rules.spinner)
    before, members = members, _largest(tree, n, start=spinner)
    if len(members) < 2:
        return None
    values, corrections, unsure = _settle_values(tiles, tree, members, probs, spinner)
    if spinner is None and shape_rules.spinner:
        spinner, doubt = _choose_spinner(tree, members, values, shapes, shape_rules)
        unsure += doubt
    lead = spinner if spinner is not None else _middle(tree, members)
    result = _replay(lead, tree, values, shapes, shape_rules)
    result.counted = rules.variant.fives
    cut = [t for t in before if t not in set(members)]
    why = "only the spinner branches" if shape_rules.spinner else f"nothing branches in {rules.variant.name}"
    result.left_out = [{"tile": t, "value": str(tiles[t].tile), "why": why} for t in cut] + result.left_out
    result.corrections, result.unsure = corrections, unsure
    result.bends = _bends(result, shapes)
    if frame is not None:
        result.unsure += _ends_at_edge(result, shapes, frame)
    return result


# -- 1-2: the contact tree ----------------------------------------------------------------

Tree = dict[int, list[Contact]]


def _probabilities(half: Any) -> np.ndarray:
    p = np.asarray(getattr(half, "probabilities", ()) or (), dtype=np.float64)
    if p.shape != (7,) or not np.isfinite(p).all() or p.sum() <= 0:
        p = np.full(7, (1 - ASSUMED) / 6)
        p[half.value] = ASSUMED
    return p / p.sum()


def _agreement(groups: Sequence[np.ndarray]) -> float:
    """How plausible it is that these halves all show one number (1: each one's best agrees)."""
    joint = np.prod(groups, axis=0)
    return float(joint.max() / np.prod([g.max() for g in groups]))


def _contact_halves(contact: Contact, probs: np.ndarray) -> list[np.ndarray]:
    return [probs[t, k] for t in (contact.a, contact.b) for k in touched_halves(contact.port_of(t))]


def _tree(contacts: list[Contact], probs: np.ndarray, n: int) -> Tree:
    """Nearest contacts first; each slot (a half, a long side) once; no cycle."""
    tree: Tree = {i: [] for i in range(n)}
    used: set[tuple[int, str]] = set()
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def plausible(c: Contact) -> bool:
        """Can the numbers be what this contact needs? Touching halves match; a tile touched
        across its middle is a double."""
        if _agreement(_contact_halves(c, probs)) < PLAUSIBLE:
            return False
        doubles = [t for t in (c.a, c.b) if c.port_of(t)[0] == "M"]
        return all(_agreement([probs[t, 0], probs[t, 1]]) >= PLAUSIBLE for t in doubles)

    # Where the numbers cannot fit, a contact must be nearly flush to stand (a misread half is
    # corrected later); a plausible contact goes before an implausible one about as near.
    ranked = sorted(
        ((c.distance + (0 if ok else FLUSH), ok, c) for c in contacts for ok in [plausible(c)]), key=lambda x: x[0]
    )
    for _, ok, c in ranked:
        keys = {(c.a, slot(c.port_a)), (c.b, slot(c.port_b))}
        if keys & used or root(c.a) == root(c.b):
            continue
        if not ok and c.distance > FLUSH:
            continue  # a tile lying near, whose numbers cannot match: not part of the line
        used |= keys
        parent[root(c.a)] = root(c.b)
        tree[c.a].append(c)
        tree[c.b].append(c)
    return tree


def _largest(tree: Tree, n: int, start: int | None = None) -> list[int]:
    """The biggest connected tree (or the one holding `start`), its tiles in breadth-first order."""
    seen: set[int] = set()
    best: list[int] = []
    for s in [start] if start is not None else range(n):
        if s in seen:
            continue
        order, queue = [], [s]
        seen.add(s)
        while queue:
            t = queue.pop(0)
            order.append(t)
            for c in tree[t]:
                if c.other(t) not in seen:
                    seen.add(c.other(t))
                    queue.append(c.other(t))
        if len(order) > len(best):
            best = order
    return best


def _cut(tree: Tree, contact: Contact) -> None:
    tree[contact.a].remove(contact)
    tree[contact.b].remove(contact)


def _prune(tree: Tree, members: list[int], probs: np.ndarray, spinner_game: bool) -> int | None:
    """Only the spinner branches: other tiles keep their two nearest contacts. The spinner."""
    branching = sorted((t for t in members if len(tree[t]) > 2), key=lambda t: (-len(tree[t]), t))
    spinner = None
    if spinner_game:
        for t in branching:
            if _agreement([probs[t, 0], probs[t, 1]]) >= PLAUSIBLE:
                spinner = t  # the tile with most arms that can be a double
                break
    for t in branching:
        if t != spinner:
            for c in sorted(tree[t], key=lambda c: c.distance)[2:]:
                _cut(tree, c)
    return spinner


# -- 3: the values ---------------------------------------------------------------------------


def _settle_values(
    tiles: Sequence[TileReading], tree: Tree, members: list[int], probs: np.ndarray, spinner: int | None
) -> tuple[dict[int, tuple[int, int]], list[dict[str, Any]], list[str]]:
    """Each member's two values: touching halves agree, and no tile twice."""
    halves = [(t, k) for t in members for k in (0, 1)]
    group = {h: h for h in halves}

    def find(h: tuple[int, int]) -> tuple[int, int]:
        while group[h] != h:
            h = group[h]
        return h

    def join(a: tuple[int, int], b: tuple[int, int]) -> None:
        group[find(a)] = find(b)

    member_set = set(members)
    for t in members:
        for c in tree[t]:
            if c.a == t and c.b in member_set:
                touching = [(x, k) for x in (c.a, c.b) for k in touched_halves(c.port_of(x))]
                for h in touching[1:]:
                    join(touching[0], h)
    if spinner is not None:
        join((spinner, 0), (spinner, 1))  # the spinner is a double
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for h in halves:
        groups.setdefault(find(h), []).append(h)
    scores = {g: sum(np.log(probs[t, k] + _EPS) for t, k in hs) for g, hs in groups.items()}
    choice = {g: int(np.argmax(s)) for g, s in scores.items()}
    matched = dict(choice)

    def identity(t: int) -> Tile:
        return Tile.of(choice[find((t, 0))], choice[find((t, 1))])

    # The set holds each tile once: in the layout always; against the other tiles only while
    # the photo can be one set (the reader already read a lone set's tiles apart, so a repeat
    # in its reading means a second set on the table).
    read_tiles = [t.tile for t in tiles]
    one_set = len(set(read_tiles)) == len(read_tiles)
    outside = [t.tile for i, t in enumerate(tiles) if i not in member_set] if one_set else []
    for _ in range(2 * len(members)):
        seen: dict[Tile, int] = {tile: 1 for tile in outside}
        for t in members:
            seen[identity(t)] = seen.get(identity(t), 0) + 1
        repeated = [t for t in members if seen[identity(t)] > 1]
        if not repeated:
            break
        best: tuple[float, tuple[int, int], int] | None = None
        for g in {find((t, k)) for t in repeated for k in (0, 1)}:
            keep = choice[g]
            for v in range(7):
                if v == keep:
                    continue
                choice[g] = v
                left = _repeats(members, identity, outside)
                choice[g] = keep
                cost = float(scores[g][keep] - scores[g][v])
                if left < len(repeated) and (best is None or cost < best[0]):
                    best = (cost, g, v)
        if best is None:
            break
        choice[best[1]] = best[2]
    values = {t: (choice[find((t, 0))], choice[find((t, 1))]) for t in members}
    corrections: list[dict[str, Any]] = []
    unsure: list[str] = []
    for t in members:
        raw = tuple(h.value for h in tiles[t].halves)
        if raw != values[t]:
            why = (
                "a tile appears once"
                if any(choice[find((t, k))] != matched[find((t, k))] for k in (0, 1))
                else "touching halves must match"
            )
            corrections.append(
                {"tile": t, "read": f"{raw[0]}-{raw[1]}", "now": f"{values[t][0]}-{values[t][1]}", "why": why}
            )
    for g, s in scores.items():
        order = np.sort(s)[::-1]
        if order[0] - order[1] < math.log(UNSURE_RATIO):
            t, k = groups[g][0]
            alt = int(np.argsort(s)[-2])
            unsure.append(f"tile {t} ({values[t][0]}-{values[t][1]}): half {k} could be {alt} rather than {choice[g]}")
    return values, corrections, unsure


def _repeats(members: list[int], identity: Any, outside: list[Tile]) -> int:
    seen: dict[Tile, int] = {tile: 1 for tile in outside}
    for t in members:
        seen[identity(t)] = seen.get(identity(t), 0) + 1
    return sum(1 for t in members if seen[identity(t)] > 1)


# -- 4: the rules ----------------------------------------------------------------------------


def _choose_spinner(
    tree: Tree, members: list[int], values: dict[int, tuple[int, int]], shapes: list[TileShape], rules: LayoutRules
) -> tuple[int | None, list[str]]:
    """No tile branches: the spinner is one of the doubles in the line (the first one played).

    Which one is not in the photo; the count is the same whichever it is, only whether the
    spinner's north and south are open differs. The one nearest the middle of the line is
    taken (the first double played lies nearer the lead; on the synthetic truth this is right
    more often than preferring a double at a line's end).
    """
    doubles = [t for t in members if values[t][0] == values[t][1]]
    if not doubles:
        return None, []
    path = _path(tree, members)
    middle = (len(path) - 1) / 2
    position = {t: i for i, t in enumerate(path)}
    doubles.sort(key=lambda t: abs(position.get(t, 0) - middle))
    doubt: list[str] = []
    if len(doubles) > 1:
        ends = {t: _ends_if_spinner(t, tree, values, shapes, rules) for t in doubles}
        if len({tuple(sorted(e.items())) for e in ends.values()}) > 1:
            names = ", ".join(f"{values[t][0]}-{values[t][1]}" for t in doubles)
            doubt.append(f"the spinner is one of {names}: which one was played first is not in the photo")
    return doubles[0], doubt


def _ends_if_spinner(
    t: int, tree: Tree, values: dict[int, tuple[int, int]], shapes: list[TileShape], rules: LayoutRules
) -> dict[End, int]:
    return dict(_replay(t, tree, values, shapes, rules).layout.open_ends())


def _path(tree: Tree, members: list[int]) -> list[int]:
    """A line's tiles end to end (members of a tree where nothing branches)."""
    start = next((t for t in members if len(tree[t]) <= 1), members[0])
    path, previous = [start], None
    while True:
        nxt = [c.other(path[-1]) for c in tree[path[-1]] if c.other(path[-1]) != previous]
        if not nxt or nxt[0] in path:
            return path
        previous = path[-1]
        path.append(nxt[0])


def _middle(tree: Tree, members: list[int]) -> int:
    path = _path(tree, members)
    return path[(len(path) - 1) // 2]


def _lead_ends(
    lead: int, tree: Tree, values: dict[int, tuple[int, int]], shapes: list[TileShape]
) -> tuple[tuple[int, int], dict[int, End]]:
    """How the lead lies (its west and east values) and which end each of its neighbours grows.

    West and east follow the photo: west is the side further left (north further up), so the
    answer reads like the picture. A double's long sides carry the line, its ends north/south.
    """
    shape = shapes[lead]
    a, b = values[lead]
    contacts = tree[lead]
    if a != b:
        west_half = 0 if shape.ports["E0"][0] <= shape.ports["E1"][0] else 1
        ends: dict[int, End] = {
            c.other(lead): ("west" if int(slot(c.port_of(lead))) == west_half else "east") for c in contacts
        }
        return ((a, b) if west_half == 0 else (b, a)), ends
    ranked = sorted(contacts, key=lambda c: c.port_of(lead)[0] != "M")  # long sides first
    line, cross = ranked[:2], ranked[2:]
    ends = {}
    line.sort(key=lambda c: shape.ports[c.port_of(lead)][0])
    if len(line) == 1:
        ends[line[0].other(lead)] = "west" if shape.ports[line[0].port_of(lead)][0] <= shape.centre[0] else "east"
    else:
        along: tuple[End, End] = ("west", "east")
        for c, end in zip(line, along, strict=False):
            ends[c.other(lead)] = end
    cross.sort(key=lambda c: shape.ports[c.port_of(lead)][1])
    across: tuple[End, End] = ("north", "south")
    for c, end in zip(cross, across, strict=False):
        ends[c.other(lead)] = end
    return (a, b), ends


def _replay(
    lead: int, tree: Tree, values: dict[int, tuple[int, int]], shapes: list[TileShape], rules: LayoutRules
) -> LayoutResult:
    """Play the tree through the rules engine, arm by arm outwards from `lead`."""
    layout = Layout(rules)
    (west, east), lead_ends = _lead_ends(lead, tree, values, shapes)
    layout.place_lead(west, east)
    order: list[tuple[int, End, int]] = []  # (tile, end, parent), breadth first
    queue = [(t, e, lead) for t, e in lead_ends.items()]
    while queue:
        t, end, parent = queue.pop(0)
        order.append((t, end, parent))
        queue += [(c.other(t), end, t) for c in tree[t] if c.other(t) != parent]
    placed, placed_from = {lead}, [lead]
    progress = True
    while progress:  # placing a tile never closes an end, so a greedy pass finds a legal order
        progress = False
        for item in list(order):
            t, end, parent = item
            arm = layout.arms[end]
            at_end = placed_from[arm[-1]] if arm else lead
            tile = Tile.of(*values[t])
            if parent in placed and at_end == parent and end in layout.fits(tile):
                layout.place(tile, end)
                placed.add(t)
                placed_from.append(t)
                order.remove(item)
                progress = True
    left_out = [
        {
            "tile": t,
            "value": f"{values[t][0]}-{values[t][1]}",
            "why": f"the rules do not let it lie on the {end} arm there",
        }
        for t, end, _ in order
    ]
    return LayoutResult(layout, sorted(placed), placed_from, True, left_out=left_out)


def _bends(result: LayoutResult, shapes: list[TileShape]) -> list[str]:
    """Tiles where an arm turns: the first tile lying across the ordinary tile before it.

    Doubles are skipped (they lie across by rule), so a line going on straight past a crosswise
    double is no bend, and one leaving from a double's end is.
    """
    layout, source = result.layout, result.placed_from
    out: list[str] = []
    for arm in layout.arms.values():
        previous = None if layout.lead is None or layout.lead.is_double else 0
        for i in arm:
            if layout.placements[i].is_double:
                continue
            if previous is not None:
                cos = abs(float(np.dot(shapes[source[previous]].axis, shapes[source[i]].axis)))
                if cos < 0.6:
                    out.append(str(layout.placements[i].tile))
            previous = i
    return out


def _ends_at_edge(result: LayoutResult, shapes: list[TileShape], frame: tuple[int, int]) -> list[str]:
    """Open ends whose tile lies at the photo's edge: the arm may go on out of view."""
    layout, out = result.layout, []
    width, height = frame
    for end in layout.open_ends():
        arm = layout.arms[end]
        index = arm[-1] if arm else (layout.spinner if end in ("north", "south") else 0)
        shape = shapes[result.placed_from[index or 0]]
        x, y = shape.centre
        if min(x, y, width - x, height - y) < 2.5 * shape.size:
            out.append(f"the {end} end lies at the edge of the photo: its arm may go on out of view")
    return out
