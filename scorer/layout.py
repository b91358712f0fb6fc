"""The tiles on the table: the line, its crosswise doubles, the spinner and its arms.

The layout is a tree kept as arms. The lead lies west-east at the root; the west and east
arms grow from it; the spinner (the first double, in spinner variants) grows north and south
arms too. A spinner that is not the lead sits inside the west or east arm, and that arm goes
on past it. Each arm is the list of its placements from the centre outwards, so an arm's open
end is simply its last tile, or the tile it grows from while it is still empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from .tiles import Tile

End = Literal["west", "east", "north", "south"]
ENDS: tuple[End, ...] = ("west", "east", "north", "south")
LINE_ENDS: tuple[End, ...] = ("west", "east")
CROSS_ENDS: tuple[End, ...] = ("north", "south")

SpinnerOrder = Literal["sides_first", "any"]


@dataclass(frozen=True, slots=True)
class LayoutRules:
    """What a variant says about the shape of its layout."""

    spinner: bool = False
    #: north/south open only after both west and east sides of the spinner are covered.
    spinner_order: SpinnerOrder = "sides_first"
    #: `cross`: all four sides of the lead double are covered before any arm grows...
    sides_before_arms: bool = False
    #: ...and an end showing n takes a tile only once n-n lies in the layout (n-n itself always fits).
    arm_needs_double: bool = False
    #: `sniff`: the spinner keeps counting while any of its four sides is open.
    sniff: bool = False


class Placement(NamedTuple):
    """One tile on the table and how it touches the layout (a tuple: made once per play, cheaply)."""

    tile: Tile
    #: the arm it lies on; None for the lead.
    end: End | None
    #: index (in `Layout.placements`) of the tile it touches; None for the lead.
    parent: int | None
    #: the half touching the parent (the lead: its west half).
    inner: int
    #: the half facing outwards, the open end (the lead: its east half).
    outer: int

    @property
    def is_double(self) -> bool:
        return self.inner == self.outer


#: `Placement(...)` as `_new_tuple(Placement, (fields...))`: a named tuple made without the
#: Python-level `__new__` that handles keywords (a placement is made for every tile played).
_new_tuple = tuple.__new__


class Layout:
    """The layout of one hand. Mutable (a hand adds tiles to it); `copy()` makes a snapshot."""

    __slots__ = ("rules", "placements", "arms", "spinner", "_doubles", "_ends", "_north_south_open")

    def __init__(self, rules: LayoutRules = LayoutRules()) -> None:
        self.rules = rules
        self.placements: list[Placement] = []
        self.arms: dict[End, list[int]] = {
            "west": [],
            "east": [],
            "north": [],
            "south": [],
        }  # ENDS, as a literal: cheaper
        #: index of the spinner in `placements`, once a double has become it.
        self.spinner: int | None = None
        self._doubles: set[int] = set()  # values n whose n-n lies in the layout
        self._ends: dict[End, int] | None = None  # open ends, until the next tile is placed
        self._north_south_open = False

    def copy(self) -> Layout:
        other = Layout(self.rules)
        other.placements = list(self.placements)
        other.arms = {e: list(a) for e, a in self.arms.items()}
        other.spinner = self.spinner
        other._doubles = set(self._doubles)
        other._ends = self._ends
        other._north_south_open = self._north_south_open
        return other

    # -- what is on the table -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.placements)

    @property
    def lead(self) -> Placement | None:
        return self.placements[0] if self.placements else None

    @property
    def tiles(self) -> list[Tile]:
        return [p.tile for p in self.placements]

    @property
    def spinner_tile(self) -> Tile | None:
        return None if self.spinner is None else self.placements[self.spinner].tile

    def _spinner_home(self) -> tuple[End | None, int]:
        """Which line arm holds the spinner, and where in it (None, -1 for the lead)."""
        assert self.spinner is not None
        for end in LINE_ENDS:
            arm = self.arms[end]
            if arm and arm[0] <= self.spinner <= arm[-1] and self.spinner in arm:
                return end, arm.index(self.spinner)
        return None, -1

    def spinner_sides_covered(self) -> int:
        """How many of the spinner's west/east sides have a tile against them (0, 1 or 2)."""
        if self.spinner is None:
            return 0
        home, position = self._spinner_home()
        if home is None:  # the lead is the spinner
            return bool(self.arms["west"]) + bool(self.arms["east"])
        return 1 + (position < len(self.arms[home]) - 1)

    def _cross_open(self) -> bool:
        if self._north_south_open:
            return True  # once open, north and south stay open
        if self.spinner is None:
            return False
        if self.rules.spinner_order == "any" or self.spinner_sides_covered() == 2:
            self._north_south_open = True
        return self._north_south_open

    def _end_tile(self, end: End) -> int | None:
        """Index of the placement an end grows from: the arm's last tile, else its root."""
        arm = self.arms[end]
        if arm:
            return arm[-1]
        if end in LINE_ENDS:
            return 0 if self.placements else None
        return self.spinner

    def end_value(self, end: End) -> int | None:
        """The number an end shows, or None if the end is not open."""
        if not self.placements:
            return None
        if end in CROSS_ENDS and not self._cross_open():
            return None
        index = self._end_tile(end)
        if index is None:
            return None
        if not self.arms[end] and index == 0:
            lead = self.placements[0]
            return lead.inner if end == "west" else lead.outer
        return self.placements[index].outer

    def open_ends(self) -> dict[End, int]:
        """Every open end and the number it shows, in west, east, north, south order.

        The dict is shared until the next placement: read it, do not change it.
        """
        ends = self._ends
        if ends is None:
            ends = self._ends = self._compute_ends()
        return ends

    def _compute_ends(self) -> dict[End, int]:
        # One pass over the four arms (this runs after every tile played, so it is kept lean).
        placements = self.placements
        if not placements:
            return {}
        arms = self.arms
        lead = placements[0]
        west, east = arms["west"], arms["east"]
        ends: dict[End, int] = {
            "west": placements[west[-1]].outer if west else lead.inner,
            "east": placements[east[-1]].outer if east else lead.outer,
        }
        if self.spinner is not None and self._cross_open():
            centre = placements[self.spinner].outer
            north, south = arms["north"], arms["south"]
            ends["north"] = placements[north[-1]].outer if north else centre
            ends["south"] = placements[south[-1]].outer if south else centre
        return ends

    # -- which tiles fit where -------------------------------------------------------------

    def empty_spinner_sides(self) -> list[End]:
        if self.spinner is None:
            return []
        home, _ = self._spinner_home()
        sides: list[End] = [e for e in CROSS_ENDS if not self.arms[e]]
        if home is None:
            sides = [e for e in LINE_ENDS if not self.arms[e]] + sides
        return sides

    def fits(self, tile: Tile) -> list[End]:
        """Every open end this tile can be played on (no tile may be played on an empty layout)."""
        ends = self.open_ends()
        low, high = tile.low, tile.high
        if self.rules.sides_before_arms:
            empty_sides = self.empty_spinner_sides()
            if empty_sides:
                ends = {e: v for e, v in ends.items() if e in empty_sides}
        result: list[End] = []
        for end, value in ends.items():
            if value != low and value != high:
                continue
            if self.rules.arm_needs_double and not tile.is_double and value not in self._doubles:
                continue
            result.append(end)
        return result

    def distinct_fits(self, tile: Tile) -> list[End]:
        """`fits`, with ends that are mirror images of each other given once.

        Both empty sides of a lone lead double, or both empty north/south sides of the spinner,
        lead to the same layout up to a reflection, so a player need not say which.
        """
        ends = self.fits(tile)
        if len(ends) < 2:
            return ends
        out: list[End] = []
        for end in ends:
            if end == "east" and "west" in out and self._mirror(("west", "east")):
                continue
            if end == "south" and "north" in out and self._mirror(("north", "south")):
                continue
            out.append(end)
        return out

    def _mirror(self, pair: tuple[End, End]) -> bool:
        a, b = pair
        if self.arms[a] or self.arms[b]:
            return False
        if pair == ("west", "east"):
            return len(self.placements) == 1 and self.placements[0].is_double
        return True  # north and south both empty: the spinner's two cross sides look alike

    # -- playing ---------------------------------------------------------------------------

    def place_lead(self, west: int, east: int) -> Placement:
        if self.placements:
            raise ValueError("the layout already has its lead")
        placement = _new_tuple(Placement, (Tile.of(west, east), None, None, west, east))
        self._add(placement, None)
        return placement

    def place(self, tile: Tile, end: End) -> Placement:
        """Play `tile` on `end`; the caller has checked it fits (see `fits`)."""
        value = self.open_ends().get(end)
        if value is None or (value != tile.low and value != tile.high):
            raise ValueError(f"{tile} does not fit the {end} end")
        return self._place_at(tile, end, value)

    def _place_at(self, tile: Tile, end: End, value: int) -> Placement:
        """`place` for a caller that has just read `value` off `open_ends()` and checked the fit."""
        low, high = tile.low, tile.high
        arm = self.arms[end]
        parent = arm[-1] if arm else (0 if end == "west" or end == "east" else self.spinner)
        placement = _new_tuple(Placement, (tile, end, parent, value, high if value == low else low))
        self._add(placement, end)
        return placement

    def _add(self, placement: Placement, end: End | None) -> None:
        placements = self.placements
        index = len(placements)
        placements.append(placement)
        ends = self._ends
        if end is not None:
            self.arms[end].append(index)
        if placement.inner == placement.outer:  # a double
            self._doubles.add(placement.inner)
            if self.rules.spinner and self.spinner is None:
                self.spinner = index
                ends = None  # a new spinner may open north and south
        if ends is not None and end is not None and (self.spinner is None or self._north_south_open):
            # Only this arm's end moved, and which ends exist cannot change: update, don't recompute.
            # (A copy: a dict handed out by `open_ends` is never changed under its reader.)
            ends = dict(ends)
            ends[end] = placement.outer
            self._ends = ends
        else:
            self._ends = None

    # -- the count -------------------------------------------------------------------------

    def count(self) -> int:
        """The fives count: the sum of the counted ends (RULES.md, "The count")."""
        if not self.placements:
            return 0
        total = 0
        lead = self.placements[0]
        lead_counted = False
        for end in LINE_ENDS:
            arm = self.arms[end]
            if arm:
                last = self.placements[arm[-1]]
                total += 2 * last.outer if last.is_double else last.outer
            elif lead.is_double:
                # A lone double at the root of an uncovered side counts both halves, once.
                if not lead_counted:
                    total += 2 * lead.outer
                    lead_counted = True
            else:
                total += lead.inner if end == "west" else lead.outer
        if self.spinner is not None:
            for end in CROSS_ENDS:
                arm = self.arms[end]
                if arm:
                    last = self.placements[arm[-1]]
                    total += 2 * last.outer if last.is_double else last.outer
            if self.rules.sniff and self._sniff_extra():
                total += 2 * self.placements[self.spinner].outer
        return total

    def count_terms(self) -> list[tuple[str, Tile, int]]:
        """The count (`count`) term by term, for a table that argues about it: (where, tile, what it
        adds), where is an end ("west"), "lead" for a lone double lead counted once for both its
        uncovered sides, or "spinner" for the spinner that `sniff` counts. The terms add up to
        `count()` (tests/test_count.py); this walks the layout as `count` does, off the hot path."""
        terms: list[tuple[str, Tile, int]] = []
        if not self.placements:
            return terms
        lead = self.placements[0]
        lead_counted = False
        for end in LINE_ENDS:
            arm = self.arms[end]
            if arm:
                last = self.placements[arm[-1]]
                terms.append((end, last.tile, 2 * last.outer if last.is_double else last.outer))
            elif lead.is_double:
                if not lead_counted:
                    terms.append(("lead", lead.tile, 2 * lead.outer))
                    lead_counted = True
            else:
                terms.append((end, lead.tile, lead.inner if end == "west" else lead.outer))
        if self.spinner is not None:
            for end in CROSS_ENDS:
                arm = self.arms[end]
                if arm:
                    last = self.placements[arm[-1]]
                    terms.append((end, last.tile, 2 * last.outer if last.is_double else last.outer))
            if self.rules.sniff and self._sniff_extra():
                spinner = self.placements[self.spinner]
                terms.append(("spinner", spinner.tile, 2 * spinner.outer))
        return terms

    def _sniff_extra(self) -> bool:
        """Under `sniff`, does the spinner count where the plain rule would not?"""
        assert self.spinner is not None
        if self.spinner_sides_covered() < 2:
            return False  # it already counts as an uncovered double
        return not (self.arms["north"] and self.arms["south"])

    def describe_ends(self) -> str:
        ends = self.open_ends()
        if not ends:
            return "no open end"
        return ", ".join(f"{e} shows {v}" for e, v in ends.items())
