"""`twelve`: the one-player memory game (RULES.md). No layout, no sides: attempts and time.

The tiles lie face down; the player turns two; if their pips total 12 they are removed and
the player goes again, otherwise they are turned back. The record's one hand holds `flip`
events, `{"type": "flip", "tiles": ["6-6", "0-0"], "time": 3.5}` (seconds since the start,
optional), and the game ends when every tile is removed. Option `sets`: 1 (28 tiles) or 2 (56).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .errors import RecordError
from .match import RECORD_FORMAT
from .tiles import FULL_SET, Tile

PAIR_TOTAL = 12


def _sets(record: dict[str, Any]) -> int:
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("options must be a JSON object of house rule options")
    unknown = set(options) - {"sets"}
    if unknown:
        raise RecordError(f"unknown option {sorted(unknown)[0]!r} for twelve (it knows: sets)")
    sets = options.get("sets", 1)
    if sets not in (1, 2) or isinstance(sets, bool):
        raise RecordError(f"option sets must be 1 or 2 (28 or 56 tiles), not {sets!r}")
    return sets


def score_twelve(record: Any) -> dict[str, Any]:
    """Replay a game of twelve: attempts, pairs removed, tiles left, time, finished."""
    if not isinstance(record, dict) or record.get("variant") != "twelve":
        raise RecordError("not a record of twelve")
    players = record.get("players")
    if not isinstance(players, list) or len(players) != 1:
        raise RecordError("twelve is played by one player: players lists one name")
    sets = _sets(record)
    hands = record.get("hands") or [{"events": []}]
    if not isinstance(hands, list) or len(hands) != 1 or not isinstance(hands[0], dict):
        raise RecordError("a game of twelve is one hand of flips")
    left = Counter({tile: sets for tile in FULL_SET})
    attempts, removed, last_time = 0, [], 0.0
    for e, event in enumerate(hands[0].get("events", [])):
        if not isinstance(event, dict) or event.get("type") != "flip":
            raise RecordError("twelve knows one event: flip, with the two tiles turned", hand=0, event=e)
        if sum(left.values()) == 0:
            raise RecordError("every tile was already removed: the game is over", hand=0, event=e)
        texts = event.get("tiles")
        if not isinstance(texts, list) or len(texts) != 2:
            raise RecordError("a flip turns exactly two tiles", hand=0, event=e)
        try:
            tiles = [Tile.parse(t) for t in texts]
        except ValueError as error:
            raise RecordError(f"flip: {error}", hand=0, event=e) from None
        need = Counter(tiles)
        for tile, n in need.items():
            if n > sets:
                raise RecordError(f"two tiles were turned, but {sets} set(s) hold {sets} {tile}", hand=0, event=e)
            if left[tile] < n:
                raise RecordError(f"{tile} is no longer face down on the table (it was removed)", hand=0, event=e)
        time = event.get("time", last_time)
        if not isinstance(time, (int, float)) or isinstance(time, bool) or time < last_time:
            raise RecordError(
                f"time must be seconds since the start, never going back (was {last_time})", hand=0, event=e
            )
        last_time = float(time)
        attempts += 1
        if sum(t.pips for t in tiles) == PAIR_TOTAL:
            left.subtract(need)
            removed.append([str(t) for t in tiles])
    remaining = sum(left.values())
    return {
        "variant": "twelve",
        "sides": list(players),
        "attempts": attempts,
        "pairs": removed,
        "remaining": remaining,
        "time": last_time,
        "finished": remaining == 0,
        "winner": 0 if remaining == 0 else None,
    }


def simulate_twelve(seed: int, sets: int = 1, memory: float = 0.9) -> dict[str, Any]:
    """A player who remembers each tile seen with probability `memory`, seeded."""
    rng = random.Random(seed)
    down = [t for t in FULL_SET for _ in range(sets)]
    rng.shuffle(down)
    slots = list(range(len(down)))  # positions still face down
    seen: dict[int, Tile] = {}
    events: list[dict[str, Any]] = []
    clock = 0.0
    while slots:
        first = _known_pair(seen, slots) or rng.sample(slots, 2)
        a, b = first
        clock += rng.uniform(1.0, 4.0)
        events.append({"type": "flip", "tiles": [str(down[a]), str(down[b])], "time": round(clock, 1)})
        if down[a].pips + down[b].pips == PAIR_TOTAL:
            slots.remove(a)
            slots.remove(b)
            seen.pop(a, None)
            seen.pop(b, None)
        else:
            for slot in (a, b):
                if rng.random() < memory:
                    seen[slot] = down[slot]
    return {
        "format": RECORD_FORMAT,
        "variant": "twelve",
        "options": {"sets": sets} if sets != 1 else {},
        "players": ["Ana"],
        "hands": [{"events": events}],
    }


def _known_pair(seen: dict[int, Tile], slots: list[int]) -> list[int] | None:
    by_pips: dict[int, int] = {}
    for slot, tile in seen.items():
        partner = by_pips.get(PAIR_TOTAL - tile.pips)
        if partner is not None and partner != slot:
            return [partner, slot]
        by_pips.setdefault(tile.pips, slot)
    return None
