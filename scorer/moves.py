"""Who could have played: the moves the scorer could accept next, each with the seat that plays it.

What a camera sees is a tile on the table, never who laid it. In an observed hand (no deal) the
rules still narrow it down: a seat that passed while a tile fitted cannot hold it (must-play), a
seat whose tiles are all accounted for holds none, and a play by a later seat means the seats
between passed (RULES.md, "Turn") unless a boneyard was there to draw from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
        return [
            Move(seat, t, None)
            for t in FULL_SET
            if (rule.tile is None or t is rule.tile)
            and not (rule.doubles_only and not t.is_double)
            and could_hold(hand, seat, t)
        ]
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


# -- who played a tile the camera saw laid -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """A seat that may have laid the tile, and what that implies happened unseen before it.

    `passes`: the seats from the turn up to `seat` that passed (the scorer infers them from the
    play). `draws`: (seat, count) draws the record must hold before the play for those passes to be
    legal: in a drawing game a seat passes only with the boneyard empty, so where the boneyard's
    draws went unseen the first seat to pass took the rest of it (RULES.md, Draw games)."""

    seat: int
    passes: tuple[int, ...] = ()
    draws: tuple[tuple[int, int], ...] = ()

    def events(self, play: dict[str, Any]) -> list[dict[str, Any]]:
        """The record's events for this seat laying `play` (a play event; its seat is replaced)."""
        out: list[dict[str, Any]] = [{"type": "draw", "seat": s, "count": n} for s, n in self.draws]
        return out + [{**play, "seat": self.seat}]


@dataclass(frozen=True, slots=True)
class WhoPlayed:
    """The seats that may have laid `tile`, in turn order from the seat whose turn it is (so the
    likeliest, the one implying no pass, comes first). Empty: no seat can have laid it here."""

    tile: Tile
    candidates: tuple[Candidate, ...]

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(c.seat for c in self.candidates)

    @property
    def pass_possible(self) -> bool:
        """Whether the tile may have come from a seat after the turn seat (a pass nobody saw)."""
        return any(c.passes for c in self.candidates)

    @property
    def sure(self) -> Candidate | None:
        """The one seat that can have laid it, where the rules leave only one."""
        return self.candidates[0] if len(self.candidates) == 1 else None

    def of(self, seat: int) -> Candidate | None:
        return next((c for c in self.candidates if c.seat == seat), None)


def who_played(hand: Hand, tile: Tile, unseen_draws: bool | None = None) -> WhoPlayed:
    """Which seats may have laid `tile` next, each with the passes (and draws) it implies.

    The turn seat first, then each later seat that the seats before it could have passed to: a
    seat cannot pass where it is known to hold a tile that fits (drawn in sight, or by the deal:
    must-play), nor, in a drawing game, while the boneyard holds tiles (it draws instead); and the
    passes stop where they would block the hand. `unseen_draws`: the record does not hold every
    draw (no camera on the boneyard), so the boneyard count is at most what is left: a seat
    holding no counted tile may still play one it drew, and the first seat to pass took the rest
    of the boneyard before passing. None: as the hand says (`Hand.unseen_draws`, the hand
    record's `"unseen_draws"`).
    """
    if unseen_draws is None:
        unseen_draws = hand.unseen_draws
    if hand.over or tile in hand.on_table:
        return WhoPlayed(tile, ())
    layout = hand.layout
    if not layout.placements:
        if hand.leader is not None or hand.turn is not None:
            seats: tuple[int, ...] = (hand.leader if hand.leader is not None else hand.turn,)  # type: ignore[assignment]
        else:
            seats = hand.active  # the table chose the leader and the record does not say: any seat
        rule = hand.lead_rule
        if (rule.tile is not None and tile is not rule.tile) or (rule.doubles_only and not tile.is_double):
            return WhoPlayed(tile, ())
        return WhoPlayed(tile, tuple(Candidate(s) for s in seats if could_hold(hand, s, tile)))
    if not layout.fits(tile):
        return WhoPlayed(tile, ())
    if hand.must_play is not None:
        seat, drawn = hand.must_play
        return WhoPlayed(tile, (Candidate(seat),) if drawn is tile else ())
    assert hand.turn is not None
    boneyard = hand.boneyard
    if hand.maybe_out is not None and boneyard > 0:
        # the seat that played its last counted tile goes on only with a tile it drew unseen: the
        # record infers that draw as soon as it goes on (`Hand._went_on`), so it is not left
        boneyard -= 1
    draws: list[tuple[int, int]] = []
    passes: list[int] = []
    out: list[Candidate] = []
    seat = hand.turn
    for _ in hand.active:
        if (
            could_hold(hand, seat, tile)
            or (unseen_draws and boneyard > 0 and _may_draw(hand, seat, tile))
            or (unseen_draws and _went_on(hand, seat, tile))
        ):
            out.append(Candidate(seat, tuple(passes), tuple(draws)))
        # could `seat` have passed, for the play to come from a later seat?
        if hand.passes_in_row + len(passes) + 1 >= len(hand.active):
            break  # every other seat would have passed: the hand was blocked
        if any(layout.fits(t) for t in hand.held[seat]):
            break  # it holds a tile that fits (drawn in sight, or dealt): it must play
        if boneyard > 0:
            if not unseen_draws:
                break  # it would have drawn, and the record holds every draw
            draws.append((seat, boneyard))  # it drew the rest, unseen, and then passed
            boneyard = 0
        passes.append(seat)
        seat = hand.next_seat(seat)
    return WhoPlayed(tile, tuple(out))


def _went_on(hand: Hand, seat: int, tile: Tile) -> bool:
    """Whether `seat`, which played its last counted tile (`Hand.maybe_out`), may lay `tile` now:
    its count is only the least it holds, and it goes on with a tile it drew unseen (the one the
    boneyard count set aside for it, or one of those a pass took unseen: `Hand._went_on`). So a
    count of none rules it out only where the record holds every draw."""
    if hand.maybe_out is None or hand.maybe_out[0] != seat or not _may_draw(hand, seat, tile):
        return False
    # a player who passed while this tile fitted did not hold it, nor drew it after (must-play)
    return not any(p.layout is not None and p.layout.fits(tile) for p in hand.passes[seat])


def _may_draw(hand: Hand, seat: int, tile: Tile) -> bool:
    """Whether `seat` may have drawn `tile` unseen: nobody else holds it, and nobody knows all it holds."""
    return not hand.full and hand.owner.get(tile, seat) == seat
