"""Tiles of a double-six set, and the pip arithmetic every variant shares."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MAX_PIP = 6


@dataclass(frozen=True, order=True, slots=True, init=False)
class Tile:
    """One tile `low-high` (low <= high); `b-a` names the same tile as `a-b`.

    Tiles are interned: `Tile.of(a, b)` and `Tile.parse(text)` always hand back the same
    object for the same tile, and there is no other way to make one (no public constructor).
    So equality is identity and hashing is the object's own, which keeps the sets and dicts
    the engine lives on cheap.
    """

    low: int
    high: int

    # Identity, in C: a Python-level `__eq__` would run for every other tile that a list
    # search (`tile in hand`) or a comparison meets. `object.__eq__` answers NotImplemented for
    # another object, so `==` falls back to `is`, as wanted.
    __hash__ = object.__hash__
    __eq__ = object.__eq__

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Tile.of, (self.low, self.high))  # copies and pickles stay the interned tile

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    @staticmethod
    def of(a: int, b: int) -> Tile:
        try:
            return _TILES[a][b]
        except (IndexError, TypeError):
            raise ValueError(f"{a}-{b} is not a double-six tile (pips run from 0 to {MAX_PIP})") from None

    @staticmethod
    def parse(text: str) -> Tile:
        written = TILE_NAMES.get(text) if type(text) is str else None
        return written[0] if written is not None else Tile.of(*parse_halves(text))

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def has(self, value: int) -> bool:
        return value == self.low or value == self.high

    def other(self, value: int) -> int:
        """The half opposite the half showing `value`."""
        if value == self.low:
            return self.high
        if value == self.high:
            return self.low
        raise ValueError(f"{self} has no {value}")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self})"


def parse_halves(text: object) -> tuple[int, int]:
    """`"6-4"` -> (6, 4), keeping the order written: a lead's order says which half faces west."""
    try:
        return _WRITTEN[text]  # type: ignore[index]
    except (KeyError, TypeError):
        pass
    if not isinstance(text, str):
        raise ValueError(f"a tile is written as text like '3-5', not {text!r}")
    parts = text.strip().split("-")
    # ASCII digits only: str.isdigit() also takes "６" and "²", which the web's schema refuses
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a tile: write it as two pip values like '3-5'")
    a, b = int(parts[0]), int(parts[1])
    if not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP):
        raise ValueError(f"{text!r} is not a double-six tile (pips run from 0 to {MAX_PIP})")
    return a, b


_TILES: list[list[Tile]] = [[None] * (MAX_PIP + 1) for _ in range(MAX_PIP + 1)]  # type: ignore[list-item]
for _a in range(MAX_PIP + 1):
    for _b in range(_a, MAX_PIP + 1):
        _TILES[_a][_b] = _TILES[_b][_a] = object.__new__(Tile)
        object.__setattr__(_TILES[_a][_b], "low", _a)
        object.__setattr__(_TILES[_a][_b], "high", _b)

#: Every tile name as usually written, "a-b" for 0 <= a, b <= 6, parsed once.
_WRITTEN: dict[str, tuple[int, int]] = {f"{a}-{b}": (a, b) for a in range(MAX_PIP + 1) for b in range(MAX_PIP + 1)}

#: The same names, each with its interned tile and its halves as written (the hot path of a replay).
#: Read it, never change it.
TILE_NAMES: dict[str, tuple[Tile, tuple[int, int]]] = {
    name: (_TILES[a][b], (a, b)) for name, (a, b) in _WRITTEN.items()
}


#: Just the tile of each usual name (a deal is read with it).
TILE_BY_NAME: dict[str, Tile] = {name: tile for name, (tile, _) in TILE_NAMES.items()}

#: Each usual name with its tile, the tile's low and high numbers and the name itself (a plain
#: `str`, whatever `str` subclass was looked up): the replay's inner loop takes all four in one
#: look-up and one unpacking, instead of an index and two attribute reads per play.
TILE_PARTS: dict[str, tuple[Tile, int, int, str]] = {
    name: (tile, tile.low, tile.high, name) for name, (tile, _) in TILE_NAMES.items()
}


def read_tile(text: object) -> tuple[Tile, tuple[int, int]]:
    """A tile and its halves in the order written; ValueError naming the problem otherwise."""
    written = TILE_NAMES.get(text) if type(text) is str else None  # type: ignore[arg-type]
    if written is not None:
        return written
    halves = parse_halves(text)
    return Tile.of(*halves), halves


#: The 28 tiles in a fixed order (0-0, 0-1, ... 6-6).
FULL_SET: tuple[Tile, ...] = tuple(_TILES[a][b] for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1))
#: Pips in a whole set (168 for double-six).
SET_PIPS = sum(t.pips for t in FULL_SET)
DOUBLES: tuple[Tile, ...] = tuple(t for t in FULL_SET if t.is_double)
#: SHOWING[a][b]: the tiles with an a or a b on them, so the tiles that fit a line whose ends
#: show a and b. `hand.isdisjoint(SHOWING[a][b])` asks "can this hand play?" in C.
SHOWING: tuple[tuple[frozenset[Tile], ...], ...] = tuple(
    tuple(frozenset(t for t in FULL_SET if a in (t.low, t.high) or b in (t.low, t.high)) for b in range(MAX_PIP + 1))
    for a in range(MAX_PIP + 1)
)


#: Each tile's pips: `sum(map(TILE_PIPS.__getitem__, tiles))` adds a hand up in C, where
#: `sum(t.pips for t in tiles)` calls a property per tile (the end of every hand does this).
TILE_PIPS: dict[Tile, int] = {t: t.pips for t in FULL_SET}


def pips(tiles: Iterable[Tile]) -> int:
    return sum(t.pips for t in tiles)


def round5(n: int) -> int:
    """Nearest multiple of five: remainders 1-2 round down, 3-4 up (7->5, 8->10, 12->10, 13->15)."""
    return (n + 2) // 5 * 5
