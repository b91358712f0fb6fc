"""Who could have played: the moves the scorer could accept next, each with the seat that plays it.

What a camera sees is a tile on the table, never who laid it. In an observed hand (no deal) the
rules still narrow it down: a seat that passed while a tile fitted cannot hold it (must-play), a
seat whose tiles are all accounted for holds none, and a play by a later seat means the seats
between passed (RULES.md, "Turn") unless a boneyard was there to draw from.
"""
from __future__ import annotations

from dataclasses import dataclass

from scorer.hand import Hand
from scorer.layout import End
from scorer.tiles import FULL_SET, Tile


@dataclass(frozen=True, slots=True)
class Move:
    """A legal move: the seat, the tile, the end (None for the lead) and the passes it implies."""

    seat: int
    tile: Tile
    end: End | None
    passes: tuple[int, ...] = ()


def could_hold(hand: Hand, seat: int, tile: Tile) -> bool:
    """Whether `seat` may still hold `tile`, from everything the hand has seen."""
    if hand.counts[seat] <= 0 or hand.owner.get(tile, seat) != seat:
        return False
    if hand.full and tile not in hand.held[seat]:
        return False
    # a player who passed while this tile fitted did not hold it (must-play)
    return not any(p.layout is not None and p.layout.fits(tile) for p in hand.passes[seat])


def legal_moves(hand: Hand, leader: int = 0) -> list[Move]:
    """Every move the scorer could accept next: for each tile and end, the seat that plays it.

    That seat is the turn seat, unless the turn seat cannot hold the tile: then the next seat
    that can, the seats between passing (where passes can be inferred: no boneyard to draw from).
    """
    if hand.over:
        return []
    layout = hand.layout
    if not layout.placements:
        seat = hand.leader if hand.leader is not None else (hand.turn if hand.turn is not None else leader)
        rule = hand.lead_rule
        return [Move(seat, t, None) for t in FULL_SET
                if (rule.tile is None or t is rule.tile) and not (rule.doubles_only and not t.is_double)
                and could_hold(hand, seat, t)]
    if hand.must_play is not None:
        seat, tile = hand.must_play
        return [Move(seat, tile, e) for e in layout.distinct_fits(tile)]
    assert hand.turn is not None
    moves: list[Move] = []
    for tile in FULL_SET:
        if tile in hand.on_table:
            continue
        ends = layout.distinct_fits(tile)
        if not ends:
            continue
        holder = player_of(hand, tile)
        if holder is None:
            continue
        passes = tuple(seats_between(hand, hand.turn, holder))
        moves += [Move(holder, tile, e, passes) for e in ends]
    return moves


def player_of(hand: Hand, tile: Tile) -> int | None:
    """The first seat from the turn on that could hold `tile` (the seats before it passing), or None."""
    seat = hand.turn
    assert seat is not None
    skipped = 0
    while not could_hold(hand, seat, tile):
        if hand.boneyard > 0:
            return None  # the turn seat would have drawn, not passed
        skipped += 1
        if hand.passes_in_row + skipped >= len(hand.active):
            return None
        seat = hand.next_seat(seat)
    return seat


def seats_between(hand: Hand, first: int, last: int) -> list[int]:
    """The seats from `first` up to, not including, `last`, in turn order."""
    out = []
    while first != last:
        out.append(first)
        first = hand.next_seat(first)
    return out
