"""Small builders for match records, so each test reads like the worked example it checks."""

from __future__ import annotations

from typing import Any


def play(seat: int, tile: str, end: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "play", "seat": seat, "tile": tile}
    if end:
        event["end"] = end
    return event


def pass_(seat: int) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


def reveal(seat: int, *tiles: str) -> dict[str, Any]:
    return {"type": "reveal", "seat": seat, "tiles": list(tiles)}


def pips(seat: int, value: int) -> dict[str, Any]:
    return {"type": "pips", "seat": seat, "pips": value}


def draw(seat: int, tile: str | None = None, count: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "draw", "seat": seat}
    if tile:
        event["tile"] = tile
    if count:
        event["count"] = count
    return event


def hand(*events: dict[str, Any], leader: int | None = None, deal: list[list[str]] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"events": list(events)}
    if leader is not None:
        out["leader"] = leader
    if deal is not None:
        out["deal"] = deal
    return out


def record(
    variant: str, *hands: dict[str, Any], players: int = 4, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    names = ["Ana", "Ben", "Cruz", "Dee"][:players]
    return {
        "format": "domino-record/1",
        "variant": variant,
        "options": options or {},
        "players": names,
        "hands": list(hands),
    }


# All seven sixes on the line with a 6 at both ends: nobody can play. Seats take turns 0,1,2,3,...
SIX_BLOCK_PLAYS = [
    play(0, "6-6"),
    play(1, "6-1", "east"),
    play(2, "1-2", "east"),
    play(3, "2-6", "east"),
    play(0, "6-0", "west"),
    play(1, "0-3", "west"),
    play(2, "3-6", "west"),
    play(3, "6-4", "east"),
    play(0, "4-5", "east"),
    play(1, "5-6", "east"),
]
#: What is left after SIX_BLOCK_PLAYS: the 18 tiles without a six, less 1-2, 0-3 and 4-5.
SIX_BLOCK_LEFT = [
    "0-0",
    "0-1",
    "0-2",
    "0-4",
    "0-5",
    "1-1",
    "1-3",
    "1-4",
    "1-5",
    "2-2",
    "2-3",
    "2-4",
    "2-5",
    "3-3",
    "3-4",
    "3-5",
    "4-4",
    "5-5",
]


def six_block(held: dict[int, list[str]], variant: str = "partners-block", **kwargs: Any) -> dict[str, Any]:
    """A blocked 4-player hand: the sixes are played, all pass, each seat reveals `held`."""
    events = SIX_BLOCK_PLAYS + [pass_(2), pass_(3), pass_(0), pass_(1)]
    events += [reveal(seat, *tiles) for seat, tiles in held.items()]
    return record(variant, hand(*events), **kwargs)


# After SIX_BLOCK_PLAYS (78 pips on the table) the 90 pips left are split like this:
LOW_TEAM0 = {
    0: ["0-0", "0-1", "0-2", "0-4"],
    2: ["0-5", "1-1", "1-3", "1-4", "1-5"],  # 7 + 22 = 29
    1: ["2-2", "2-3", "2-4", "2-5"],
    3: ["3-3", "3-4", "3-5", "4-4", "5-5"],
}  # 22 + 39 = 61
TIED = {
    0: ["0-0", "0-1", "0-2", "0-4"],
    2: ["3-5", "4-4", "5-5", "2-5", "1-4"],  # 7 + 38 = 45
    1: ["0-5", "1-1", "1-3", "1-5"],
    3: ["2-2", "2-3", "2-4", "3-3", "3-4"],
}  # 17 + 28 = 45
ROUNDING = {
    0: ["0-4", "1-1", "1-3", "1-5"],
    2: ["2-2", "2-3", "2-4", "3-3", "3-4"],  # 16 + 28 = 44
    1: ["0-0", "0-1", "0-2", "0-5"],
    3: ["1-4", "2-5", "3-5", "4-4", "5-5"],
}  # 8 + 38 = 46


def observed(
    variant: str, *events: dict[str, Any], players: int = 4, leader: int = 0, unseen_draws: bool = False
) -> Any:
    """A match of `variant` whose first hand (no deal: what a camera sees) has had `events`."""
    from scorer import Match

    match = Match.new(variant, ["Ana", "Ben", "Cruz", "Dee"][:players])
    match.start_hand(leader=leader, unseen_draws=unseen_draws)
    for event in events:
        match.apply(event)
    return match
