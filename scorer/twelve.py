"""`twelve`: the one-player memory game (RULES.md). No layout, no sides: attempts and time.

The tiles lie face down; the player turns two; if their pips total 12 they are removed and
the player goes again, otherwise they are turned back. The record's one hand holds `flip`
events, `{"type": "flip", "tiles": ["6-6", "0-0"], "time": 3.5}` (seconds since the start,
optional, at most `MAX_TIME`), and the game ends when every tile is removed. Option `sets`: 1
(28 tiles) or 2 (56). A field of the other games that means nothing here (a flip's `seat`,
`end`, `tile` or `count`, the hand's `leader` or `deal`, the record's `seating`) is refused by
name (`twelve_field`) rather than kept unread; a field no game knows is ignored, as
GAME_RECORD.md asks of every reader.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .errors import RecordError
from .match import RECORD_FORMAT
from .schema import TWELVE_MAX_TIME as MAX_TIME
from .tiles import FULL_SET, Tile

PAIR_TOTAL = 12
#: what a flip and the hand of twelve hold (beside the record's own: format, variant...)
FLIP_FIELDS = ("type", "tiles", "time")
HAND_FIELDS = ("events",)
#: the other games' fields (GAME_RECORD.md's events and hands, and the companion's own) that mean
#: nothing in twelve: kept unread, they would say a seat played or led where nobody did. A field
#: no game knows is left alone: "a reader ignores what it does not know" (GAME_RECORD.md)
NOT_FLIP_FIELDS = ("seat", "tile", "end", "count", "pips", "team", "points")
NOT_HAND_FIELDS = ("leader", "deal", "unseen_draws")
#: a record's fields that are the other games' alone (the camera's seating: twelve has no layout)
NOT_RECORD_FIELDS = ("seating",)


def _no_other_fields(
    found: dict[str, Any],
    refused: tuple[str, ...],
    kept: tuple[str, ...],
    where: str,
    hand: int,
    event: int | None = None,
) -> None:
    """Refuse the first field of `found` (a flip, the hand) that the other games use and twelve
    has no use for, by name."""
    extra = [k for k in refused if found.get(k) is not None]
    if extra:
        name = extra[0]
        raise RecordError(
            f"{where} has no {name!r}: it holds {', '.join(kept)} alone",
            code="twelve_field",
            hand=hand,
            event=event,
            field=name,
        )


def _sets(record: dict[str, Any]) -> int:
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("options must be a JSON object of house rule options")
    unknown = set(options) - {"sets"}
    if unknown:
        name = sorted(unknown)[0]
        raise RecordError(f"unknown option {name!r} for twelve (it knows: sets)", code="twelve_option", option=name)
    sets = options.get("sets", 1)
    if sets not in (1, 2) or isinstance(sets, bool):
        raise RecordError(f"option sets must be 1 or 2 (28 or 56 tiles), not {sets!r}", code="twelve_sets")
    return sets


def score_twelve(record: Any) -> dict[str, Any]:
    """Replay a game of twelve: attempts, pairs removed, tiles left, time, finished.

    Each refusal says which rule in `code` (and `params`) for a page to word: `twelve_flip_only`,
    `twelve_over`, `twelve_two`, `twelve_not_tile`, `twelve_same` (one tile turned twice in one
    set), `twelve_removed` (a tile no longer face down), `twelve_time`, `twelve_players`,
    `twelve_one_hand`, `twelve_sets`, `twelve_option`, `twelve_time_max` (past `MAX_TIME`),
    `twelve_field` (a field twelve has no use for, named in `field`)."""
    if not isinstance(record, dict) or record.get("variant") != "twelve":
        raise RecordError("not a record of twelve")
    players = record.get("players")
    if not isinstance(players, list) or len(players) != 1:
        raise RecordError("twelve is played by one player: players lists one name", code="twelve_players")
    sets = _sets(record)
    for name in NOT_RECORD_FIELDS:
        if record.get(name) is not None:
            raise RecordError(
                f"a record of twelve has no {name!r} (no layout, no camera)", code="twelve_field", field=name
            )
    hands = record.get("hands") or [{"events": []}]
    if not isinstance(hands, list) or len(hands) != 1 or not isinstance(hands[0], dict):
        extra = 1 if isinstance(hands, list) and len(hands) > 1 and isinstance(hands[0], dict) else None
        raise RecordError("a game of twelve is one hand of flips", hand=extra, code="twelve_one_hand")
    _no_other_fields(hands[0], NOT_HAND_FIELDS, HAND_FIELDS, "the hand of twelve", hand=0)
    left = Counter({tile: sets for tile in FULL_SET})
    attempts, removed, removed_at, last_time = 0, [], [], 0.0
    events = hands[0].get("events", [])
    if not isinstance(events, list):
        raise RecordError("events must be a list", hand=0)
    for e, event in enumerate(events):
        if not isinstance(event, dict) or event.get("type") != "flip":
            raise RecordError(
                "twelve knows one event: flip, with the two tiles turned", hand=0, event=e, code="twelve_flip_only"
            )
        _no_other_fields(event, NOT_FLIP_FIELDS, FLIP_FIELDS, "a flip of twelve", hand=0, event=e)
        if sum(left.values()) == 0:
            raise RecordError("every tile was already removed: the game is over", hand=0, event=e, code="twelve_over")
        texts = event.get("tiles")
        if not isinstance(texts, list) or len(texts) != 2:
            raise RecordError("a flip turns exactly two tiles", hand=0, event=e, code="twelve_two")
        try:
            tiles = [Tile.parse(t) for t in texts]
        except ValueError as error:
            bad = next((t for t in texts if not _is_tile(t)), texts[0])
            raise RecordError(f"flip: {error}", hand=0, event=e, code="twelve_not_tile", text=str(bad)[:8]) from None
        need = Counter(tiles)
        for tile, n in need.items():
            if n > sets:
                raise RecordError(
                    f"{tile} was turned twice, but {sets} set(s) hold {sets} {tile}: a flip turns two tiles",
                    hand=0,
                    event=e,
                    code="twelve_same",
                    tile=str(tile),
                )
            if left[tile] < n:
                raise RecordError(
                    f"{tile} is no longer face down on the table (it was removed)",
                    hand=0,
                    event=e,
                    code="twelve_removed",
                    tile=str(tile),
                )
        time = event.get("time", last_time)
        if isinstance(time, (int, float)) and not isinstance(time, bool) and time > MAX_TIME:
            raise RecordError(
                f"time {time} is too large: at most {MAX_TIME} seconds since the start",
                hand=0,
                event=e,
                code="twelve_time_max",
                most=MAX_TIME,
            )
        if not isinstance(time, (int, float)) or isinstance(time, bool) or not last_time <= time:
            raise RecordError(
                f"time must be seconds since the start, never going back (was {last_time})",
                hand=0,
                event=e,
                code="twelve_time",
                last=last_time,
            )
        last_time = float(time)
        attempts += 1
        if sum(t.pips for t in tiles) == PAIR_TOTAL:
            left.subtract(need)
            removed.append([str(t) for t in tiles])
            removed_at.append(e)
    remaining = sum(left.values())
    return {
        "variant": "twelve",
        "sides": list(players),
        "sets": sets,
        "attempts": attempts,
        "pairs": removed,
        "removed_at": removed_at,  # the flip (event index) that removed each pair
        "remaining": remaining,
        # how many of each tile still lie face down (0 once removed; up to 2 with two sets)
        "face_down": {str(tile): left[tile] for tile in FULL_SET},
        "time": last_time,
        "finished": remaining == 0,
        "winner": 0 if remaining == 0 else None,
    }


def _is_tile(text: object) -> bool:
    try:
        Tile.parse(text)  # type: ignore[arg-type]  # anything: a wrong type is a ValueError too
    except ValueError:
        return False
    return True


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
