"""How likely each seat is to have laid a tile: the deals an observed hand leaves, counted.

`scorer.moves.who_played` says which seats may have laid a tile the camera saw: the turn seat,
and each later seat the seats before it could have passed to. In an observed hand (no deal known)
nearly every play leaves a pass possible, so the rules alone leave a choice on nearly every play.
Counting the ways the tiles nobody has seen can lie tells how likely each is.

The unseen tiles (the set less the tiles on the table and those known to be held) lie in the
active seats' hands, each holding as many unseen tiles as its count less its known tiles, and in
the rest: the boneyard, the tiles set aside in `block`. A seat that passed, or drew, while a tile
fitted does not hold it (must-play: RULES.md, "Turn" and "Draw games"). Every way of laying the
unseen tiles out that agrees with all that is as likely as any other: the deal was shuffled, and
a draw takes a tile at random. (What it leaves out: that a player who holds several tiles that
fit chooses among them, so the tile played says a little about the rest of that hand. The
measured plays in bench/README.md, "Who played", are the check on it.)

Candidate k of `who_played` (the seats s1..s(k-1) before it passing) weighs the ways in which
s1..s(k-1) hold no tile that fits the layout now and sk holds the tile; its chance is its weight
over the sum. The count is exact (Python ints): tiles that may lie in the same holders are
interchangeable, so a dynamic programme over those groups of tiles, its state the room left in
each holder, counts every way at once (a multinomial for each share of a group).

The chances are given only where the counts are exact: None in a hand with a deal (nothing to
guess), with draws nobody counted (`unseen_draws`: the counts are then only lower bounds), in
`cross` (who leads a double says who holds which doubles), at the lead, and where a seat drew in
two turns (what it knew not to hold in the first turn holds only for part of its hand now).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from scorer.hand import Hand
from scorer.moves import WhoPlayed
from scorer.tiles import FULL_SET, Tile


def seat_chances(hand: Hand, answer: WhoPlayed) -> tuple[float, ...] | None:
    """The chance of each of `answer.candidates` (same order) to have laid `answer.tile`, from
    counting the ways the unseen tiles may lie; None where that count is not exact (see the
    module's docstring) or no way is left."""
    weights = seat_weights(hand, answer)
    if weights is None:
        return None
    total = sum(weights)
    if total == 0:
        return None
    return tuple(w / total for w in weights)


def seat_weights(hand: Hand, answer: WhoPlayed) -> tuple[int, ...] | None:
    """How many ways the unseen tiles may lie for each candidate of `answer` to have laid its
    tile (`seat_chances` before dividing); None where the count would not be exact."""
    if (
        not answer.candidates
        or hand.full
        or hand.unseen_draws
        or hand.unseen
        or hand.maybe_out is not None
        or hand.over
        or hand.must_play is not None
        or hand.turn is None
        or not hand.layout.placements
        or hand.lead_rule.doubles_only
        or answer.tile in hand.on_table
        or any(c.draws for c in answer.candidates)
    ):
        return None
    barred = _barred(hand)
    if barred is None:
        return None
    holders = list(hand.active)
    unseen = [t for t in FULL_SET if t not in hand.on_table and t not in hand.owner]
    room = [hand.counts[s] - len(hand.held[s]) for s in holders]
    rest = len(unseen) - sum(room)  # the boneyard, and the tiles set aside
    if rest < 0 or min(room) < 0:
        return None
    layout = hand.layout
    fitting = {t for t in unseen if layout.fits(t)}
    tile = answer.tile
    weights = []
    for candidate in answer.candidates:
        at = holders.index(candidate.seat)
        if tile in barred[candidate.seat] or room[at] == 0:
            weights.append(0)
            continue
        if any(layout.fits(t) for s in candidate.passes for t in hand.held[s]):
            weights.append(0)  # a seat known to hold a tile that fits does not pass
            continue
        barring = [barred[s] | fitting if s in candidate.passes else barred[s] for s in holders]
        left = list(room)
        left[at] -= 1
        weights.append(count_layouts([t for t in unseen if t is not tile], barring, left))
    return tuple(weights)


def _barred(hand: Hand) -> dict[int, set[Tile]] | None:
    """The unseen tiles each active seat cannot hold: those that fitted when it passed, or when
    it drew in a turn it has since ended (by playing or passing); None where a seat drew in two
    turns, or is drawing now (the tile it drew last may fit)."""
    out: dict[int, set[Tile]] = {}
    ended = {s: [p["event"] for p in hand.plays if p["seat"] == s] for s in hand.active}
    for seat in hand.active:
        layouts = [p.layout for p in hand.passes[seat] if p.layout is not None]
        turns = set()
        for drew in hand.drew[seat]:
            after = [e for e in ended[seat] + [p.event for p in hand.passes[seat]] if e > drew.event]
            if not after:
                return None  # it drew and has not played nor passed since
            turns.add(min(after))
            if drew.layout is not None:
                layouts.append(drew.layout)
        if len(turns) > 1:
            return None
        out[seat] = {t for t in FULL_SET if t not in hand.on_table and any(lay.fits(t) for lay in layouts)}
    return out


def count_layouts(tiles: list[Tile], barred: list[set[Tile]], room: list[int]) -> int:
    """The ways to lay `tiles` out so that seat h takes exactly `room[h]` of them and none of
    `barred[h]`, the rest (the boneyard, the tiles set aside) taking the others, whatever they are."""
    if sum(room) > len(tiles) or min(room, default=0) < 0:
        return 0
    n = len(room)
    groups: dict[tuple[int, ...], int] = {}
    for tile in tiles:
        allowed = tuple(h for h in range(n) if tile not in barred[h])
        groups[allowed] = groups.get(allowed, 0) + 1
    # the most barred groups first; after each, what the groups still to come can give each seat
    # and in all (a state that needs more can never be completed: it is not kept)
    order = sorted(groups.items(), key=lambda g: len(g[0]))
    later = [0] * n
    total = 0
    bounds: list[tuple[tuple[int, ...], int]] = []
    for allowed, size in reversed(order):
        bounds.append((tuple(later), total))
        for h in allowed:
            later[h] += size
        total += size
    bounds.reverse()
    if any(r > can for r, can in zip(room, later, strict=True)):
        return 0
    states: dict[tuple[int, ...], int] = {tuple(room): 1}
    for (allowed, size), (can, left_after) in zip(order, bounds, strict=True):
        after: dict[tuple[int, ...], int] = {}
        for state, ways in states.items():
            for left, chosen in _shares(state, allowed, size, can, left_after):
                after[left] = after.get(left, 0) + ways * chosen
        states = after
    return states.get((0,) * n, 0)


@lru_cache(maxsize=1 << 14)
def _shares(
    state: tuple[int, ...], allowed: tuple[int, ...], size: int, can: tuple[int, ...], left_after: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each way to share a group of `size` tiles among the `allowed` seats within the room
    `state` leaves them, the rest of the group to the rest: (the room left, the ways to choose
    which tiles go where: a multinomial). Only shares that the groups after it can complete:
    each seat left no more room than they can fill (`can`), all no more than they hold."""
    out: list[tuple[tuple[int, ...], int]] = []
    left = list(state)
    # the seats must take at least this many of the group: the rest takes the others, and the
    # rest's room is what the later groups hold beyond the seats' room
    least = max(0, sum(state) - left_after)

    def share(k: int, remaining: int, taken: int, ways: int) -> None:
        if k == len(allowed):
            if taken >= least:
                out.append((tuple(left), ways))  # the `remaining` tiles go to the rest
            return
        seat = allowed[k]
        for a in range(max(0, left[seat] - can[seat]), min(remaining, left[seat]) + 1):
            left[seat] -= a
            share(k + 1, remaining - a, taken + a, ways * comb(remaining, a))
            left[seat] += a

    if all(state[h] <= can[h] for h in range(len(state)) if h not in allowed):
        share(0, size, 0, 1)
    return tuple(out)
