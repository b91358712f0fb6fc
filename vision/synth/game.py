"""A dealt game laid on the table: the plays, passes and draws of a real deal, and where each tile lies.

The older films take a random legal layout and give its tiles to the seats in turn, so nobody ever
passes or draws. Here the rules engine deals the tiles (`scorer.simulate.deal_tiles`) and each seat
in turn plays a random tile of its own that fits, draws from the boneyard when it holds none (in the
variants that draw, RULES.md "Draw games") or passes: the passes and draws come as the deal makes
them. Each play is also laid on the table as `layouts.legal_layout` lays its tiles (the same
placing code), so a play the table has no room for is tried with another of the seat's tiles and
ends the film only when none fits.

Every seat sits at one side of the picture (`sides`), in play order around the table (play goes
counter-clockwise, RULES.md "Seats"), starting at a random side: the arm that lays a seat's tile
reaches in from that side, and the film's truth records the seating.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from scorer.layout import CROSS_ENDS
from scorer.match import RECORD_FORMAT, Match
from scorer.simulate import _leader_known, deal_tiles
from scorer.tiles import Tile

from .geometry import Footprints, Pose
from .layouts import LaidLayout, _candidates, _clear, _cross_directions, _fits_table, _jitter, _parent_of

#: the variants a dealt film may be played as (all four-handed or smaller; `cross` and `twelve` are not)
FILM_VARIANTS = ("partners", "partners-block", "all-fives", "block", "draw")


def film_variant(rng: np.random.Generator, variant: str, players: int) -> tuple[str, int]:
    """The variant a film plays ("any": one drawn by `rng`) and its players (partnerships: 4)."""
    if variant == "any":
        variant = FILM_VARIANTS[int(rng.integers(len(FILM_VARIANTS)))]
    if variant not in FILM_VARIANTS:
        raise ValueError(f"a film is one of {', '.join(FILM_VARIANTS)} (or any), not {variant!r}")
    return variant, 4 if variant.startswith("partners") else players


@dataclass(frozen=True, slots=True)
class DealtGame:
    """A dealt hand as it was played and laid: the true record and each placement's pose.

    `events` are the hand's true events (plays, passes, draws with their tiles); `placement_of[k]` is
    the index in `laid.layout.placements` of event k when it is a play (else None); `sides[s]` the
    side of the picture seat s sits at (0 top, 1 right, 2 bottom, 3 left, as `HandSpec.edge`);
    `boneyard` how many tiles the boneyard held after the deal (0 where nothing is drawn)."""

    record: dict[str, Any]
    laid: LaidLayout
    events: list[dict[str, Any]]
    placement_of: list[int | None]
    sides: tuple[int, ...]
    boneyard: int


def seating_sides(players: int, first: int, clockwise: bool = False) -> tuple[int, ...]:
    """The picture side of each seat, in play order from `first`: counter-clockwise around the
    table seen from above (the picture's top, left, bottom, right), two players face to face."""
    step = 2 if players == 2 else (1 if clockwise else -1)
    return tuple((first + step * s) % 4 for s in range(players))


def dealt_game(
    rng: np.random.Generator,
    variant: str,
    players: int,
    bounds: tuple[float, float, float, float],
    max_gap: float = 0.04,
    jitter_deg: float = 1.5,
    bend_chance: float = 0.04,
    max_plays: int | None = None,
) -> DealtGame:
    """Deal one hand of `variant` and play it out, laying each play on the table within `bounds`
    (layout units around the lead at the origin). Stops at the end of the hand, after `max_plays`
    plays, or where the turn seat holds tiles that fit but the table has room for none of them."""
    names = [f"P{s + 1}" for s in range(players)]
    match = Match.new(variant, names)
    shuffle = random.Random(int(rng.integers(2**31)))
    deal = deal_tiles(match, shuffle)
    dealt = [[str(t) for t in tiles] for tiles in deal]
    # the rules name the leader (the holder of 6-6 in partnerships) or the table does: a random seat
    leader = None if _leader_known(match, deal) else int(rng.integers(players))
    hand = match.start_hand(deal=dealt, leader=leader)
    boneyard = hand.boneyard
    layout = hand.layout
    poses: list[Pose] = []
    feet: Footprints | None = None
    dirs: dict[str, np.ndarray] = {"west": np.array([-1.0, 0.0]), "east": np.array([1.0, 0.0])}
    events: list[dict[str, Any]] = []
    placement_of: list[int | None] = []
    bends = 0
    while not hand.over and (max_plays is None or len(poses) < max_plays):
        seat = hand.turn
        assert seat is not None
        moves = hand.playable(seat)
        if not moves:
            if hand.boneyard > 0:
                assert hand.boneyard_tiles is not None
                tiles = sorted(hand.boneyard_tiles)
                event: dict[str, Any] = {
                    "type": "draw",
                    "seat": seat,
                    "tile": str(tiles[int(rng.integers(len(tiles)))]),
                }
            else:
                event = {"type": "pass", "seat": seat}
            match.apply(event)
            events.append(event)
            placement_of.append(None)
            continue
        if not layout.placements:
            tile, _ = moves[int(rng.integers(len(moves)))]
            west, east = (tile.low, tile.high) if rng.random() < 0.5 else (tile.high, tile.low)
            event = {"type": "play", "seat": seat, "tile": f"{west}-{east}"}
            pose = Pose(0.0, 0.0, math.pi / 2) if tile.is_double else Pose(0.0, 0.0, 0.0)
            match.apply(event)
            poses.append(pose)
            feet = Footprints([pose.corners()])
        else:
            assert feet is not None
            placed = _place(rng, hand.layout, poses, feet, dirs, moves, bounds, max_gap, bend_chance)
            if placed is None:
                break  # the table has no room for any tile this seat could play: the film ends here
            (tile, end), pose, direction, bent = placed
            event = {"type": "play", "seat": seat, "tile": str(tile), "end": end}
            match.apply(event)
            poses.append(pose)
            feet.add(pose.corners())
            dirs[end] = direction
            bends += bent
        events.append(event)
        placement_of.append(len(poses) - 1)
    while events and events[-1]["type"] != "play":
        # the film ends with its last play: no photo shows the passes after it, and a blocked
        # hand's closing passes follow from the deal (the scorer infers them at the record's end)
        events.pop()
        placement_of.pop()
    poses = _jitter(poses, layout, rng, jitter_deg, max_gap)
    kind = "spinner" if layout.rules.spinner else "line"
    laid = LaidLayout(layout, poses, kind, bends, {e: (float(v[0]), float(v[1])) for e, v in dirs.items()})
    sides = seating_sides(players, int(rng.integers(4)))
    record = {
        "format": RECORD_FORMAT,
        "variant": variant,
        "players": names,
        "hands": [{"leader": hand.leader, "deal": dealt, "events": events}],
    }
    return DealtGame(record, laid, events, placement_of, sides, boneyard)


def _place(
    rng: np.random.Generator,
    layout: Any,
    poses: list[Pose],
    feet: Footprints,
    dirs: dict[str, np.ndarray],
    moves: list[tuple[Tile, Any]],
    bounds: tuple[float, float, float, float],
    max_gap: float,
    bend_chance: float,
) -> tuple[tuple[Tile, Any], Pose, np.ndarray, bool] | None:
    """A random one of `moves` that the table has room for, with its pose (as `legal_layout` lays tiles)."""
    weights = np.array([3.0 if e in CROSS_ENDS else 1.0 for _, e in moves])
    order = rng.choice(len(moves), size=len(moves), replace=False, p=weights / weights.sum())
    for k in order:
        tile, end = moves[int(k)]
        if end in CROSS_ENDS and end not in dirs:
            dirs.update(_cross_directions(layout, poses))
        gap = float(rng.uniform(0.0, max_gap))
        parent = _parent_of(layout, end)
        for pose, direction, bent in _candidates(layout, poses, dirs, tile, end, rng, gap, bend_chance):
            if _fits_table(pose, bounds) and _clear(pose, feet, parent):
                return (tile, end), pose, direction, bent
    return None
