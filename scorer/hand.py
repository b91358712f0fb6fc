"""One hand: whose turn it is, what each play counts, when the hand ends and what is left.

A hand is replayed event by event (GAME_RECORD.md). `apply` checks an event completely
before it changes anything, so a refused event leaves the hand exactly as it was.

Two kinds of record meet here. With a `deal` the hand is *full information*: every tile in
every hand is known, a pass or a draw is checked against what the player held (must-play),
and the pips left at the end follow by themselves. Without one it is *observed*: what a
camera or a scorer at the table sees. Then the hand tracks how many tiles each player
holds, infers passes from a play by a later seat, and checks what players reveal at the
end against everything seen before.

An observed hand of a drawing game may say that its draws were not all seen (`unseen_draws`, the
hand record's `"unseen_draws": true`: a camera with no view of the boneyard). Its tile counts are
then only the least each seat holds and the boneyard's the most it holds, so a tile count never
ends the hand: a seat that plays its last counted tile while the boneyard may hold tiles has
perhaps gone out (`maybe_out`); so has one that plays it after a pass emptied the boneyard while
tiles drawn unseen may be its own. If the record goes on with a play, pass or draw, that seat had
drawn at least one tile unseen (an inferred draw); if it ends there, or the players show what
they hold, the seat went out. A pass while the boneyard may hold tiles means the passer took the
rest of it unseen first (RULES.md, Draw games).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from .errors import RecordError
from .layout import ENDS, End, Layout, LayoutRules, Placement
from .tiles import DOUBLES, FULL_SET, SET_PIPS, SHOWING, TILE_NAMES, TILE_PARTS, TILE_PIPS, Tile, read_tile
from .variants import HandOutcome, Rules

EVENT_TYPES = ("play", "pass", "draw", "reveal", "pips", "adjust")
#: What a table does once a `cross` lead is proved wrong after the hand went on (`lead_not_highest`,
#: `lead_duty`): void the hand and deal again, or agree to let the lead stand (the hand record's
#: `"lead_stands": true`), after which the hand's lead is no longer judged.
_REDEAL_OR_STAND = 'deal the hand again, or let its lead stand (the hand\'s "lead_stands": true)'

#: `Placement(...)` or `_Pass(...)` as `_new_tuple(Placement, (fields...))`: a named tuple made
#: without the Python-level `__new__` that handles keywords (the replay's inner loop).
_new_tuple = tuple.__new__


@dataclass(frozen=True, slots=True)
class LeadRule:
    """Who must lead a hand and with what, as far as the rules decide it."""

    seat: int | None = None  # None: the table chose (the record or the first play says)
    tile: Tile | None = None  # a tile that must be led (6-6; the highest double)
    doubles_only: bool = False  # `cross`: the lead is a double
    why: str = ""
    highest: bool = False  # the double is the highest one dealt (not known yet: no deal recorded)
    #: `cross`, later hands, no deal recorded: the last hand's winner, who leads a double if it
    #: holds one (the duty passes on to the next seat only when it holds none)
    duty: int | None = None


@dataclass(frozen=True, slots=True)
class Adjustment:
    event: int
    side: int
    points: int
    reason: str


class _Pass(NamedTuple):
    """A pass (a tuple, like `Placement`: the replay makes one per pass, cheaply)."""

    event: int
    layout: Layout | None  # a snapshot, kept in observed hands to check reveals later


class Hand:
    """The state of one hand. Build it with `Hand(rules, ...)`; feed it events with `apply`."""

    __slots__ = (
        "rules",
        "active",
        "_fives",
        "_plain_ends",
        "layout",
        "_next",
        "full",
        "lead_rule",
        "leader",
        "turn",
        "counts",
        "boneyard",
        "held",
        "owner",
        "boneyard_tiles",
        "aside",
        "on_table",
        "passes_in_row",
        "passes",
        "drew",
        "must_play",
        "end",
        "out_seat",
        "out_with_double",
        "revealed",
        "pips",
        "plays",
        "inferred_passes",
        "unseen_draws",
        "lead_stands",
        "maybe_out",
        "unseen",
        "inferred_draws",
        "drawn",
        "adjustments",
        "events",
        "_lead_watch",
    )

    def __init__(
        self,
        rules: Rules,
        lead_rule: LeadRule,
        *,
        leader: int | None = None,
        deal: list[list[Tile]] | None = None,
        active: Iterable[int] | None = None,
        layout_rules: LayoutRules | None = None,
        unseen_draws: bool = False,
        lead_stands: bool = False,
    ) -> None:
        self.rules = rules
        self.active: tuple[int, ...] = tuple(range(rules.players) if active is None else active)
        active = self.active
        layout_rules = layout_rules or rules.layout_rules()
        self.layout = Layout(layout_rules)
        self._next = _following(active)
        variant = rules.variant
        self._fives = variant.fives
        # Any open end showing the tile's number takes it, except under `cross`'s extra rules.
        self._plain_ends = not (layout_rules.sides_before_arms or layout_rules.arm_needs_double)
        self.full = deal is not None
        self.lead_rule = lead_rule
        self.leader = leader if leader is not None else lead_rule.seat
        self.turn: int | None = self.leader
        n = rules.players
        size = rules.hand_size
        everyone = len(active) == n  # nobody eliminated: the usual case, set up without asking each seat
        self.counts = [size] * n if everyone else [size if s in active else 0 for s in range(n)]
        boneyard = variant.leftovers == "boneyard"
        self.boneyard = len(FULL_SET) - size * n if boneyard else 0
        # Full information: every hand and the boneyard. Observed: tiles known to be held
        # (drawn in sight), so that a tile is never in two places. Eliminated players (`cross`)
        # hold nothing: their share of the set is put aside.
        if deal is None:
            self.held: list[set[Tile]] = [set() for _ in range(n)]
        else:
            self.held = [set(deal[s]) if everyone or s in active else set() for s in range(n)]
        #: who holds each known tile (the inverse of `held`), so a tile is found in one look.
        self.owner: dict[Tile, int] = {}
        for seat, tiles in enumerate(self.held):
            self.owner.update(dict.fromkeys(tiles, seat))
        self.boneyard_tiles: set[Tile] | None = None
        if deal is not None and boneyard:
            # An eliminated seat's list in the deal holds the tiles set aside in its place:
            # they are out of this hand, not in the boneyard.
            dealt = {tile for tiles in deal for tile in tiles}
            self.boneyard_tiles = {t for t in FULL_SET if t not in dealt}
        #: the tiles set aside in place of eliminated players (`cross`, full information).
        self.aside: set[Tile] = set()
        if deal is not None and not everyone:
            self.aside.update(t for s in range(n) if s not in active for t in deal[s])
        self.on_table: dict[Tile, int] = {}  # tile -> event that played it
        self.passes_in_row = 0
        self.passes: list[list[_Pass]] = [[] for _ in range(n)]
        #: each seat's draws in observed hands, with the layout it drew against (it could not play
        #: on it: RULES.md, Draw games), as `passes` keeps its passes (`scorer.chance` reads both)
        self.drew: list[list[_Pass]] = [[] for _ in range(n)]
        #: beside each of those draws: its event, the tile drawn in sight (None: unseen), how many
        self.drawn: list[list[tuple[int, Tile | None, int]]] = [[] for _ in range(n)]
        self.must_play: tuple[int, Tile] | None = None
        self.end: str | None = None  # "out", "blocked" or "target"; a new hand has not ended
        self.out_seat: int | None = None
        self.out_with_double = False
        self.revealed: list[int | None] = [None] * n  # event that revealed a seat's tiles or pips
        self.pips: list[int | None] = [None] * n
        self.plays: list[dict[str, Any]] = []
        self.inferred_passes: list[dict[str, int]] = []
        if unseen_draws and (deal is not None or rules.variant.leftovers != "boneyard"):
            raise RecordError(
                "unseen_draws is for observed hands of the games that draw: "
                + ("a record with a deal names every draw" if deal is not None else f"in {rules.name} nobody draws")
            )
        self.unseen_draws = unseen_draws
        #: the table let this hand's lead stand, right or wrong (the hand record's `"lead_stands":
        #: true`, a house ruling): what is held later proves nothing about it
        self.lead_stands = lead_stands
        #: an observed `cross` hand whose lead the rules tie to what was held (the highest double;
        #: the winner's double): a double played or shown later may prove the lead wrong
        self._lead_watch = (
            deal is None and not unseen_draws and not lead_stands and (lead_rule.highest or lead_rule.duty is not None)
        )
        #: (seat, event, out with a double) of a seat that played its last counted tile while
        #: unseen draws may have given it more: out, unless the record goes on
        self.maybe_out: tuple[int, int, bool] | None = None
        #: tiles drawn unseen by a seat not known (a pass took the rest of the boneyard): with the
        #: boneyard's count, the most that the seats' tile counts may be short by
        self.unseen = 0
        #: draws the record implies but does not hold: {"event", "seat", "count"} ("at_most": the
        #: count is the most it can be)
        self.inferred_draws: list[dict[str, Any]] = []
        self.adjustments: list[Adjustment] = []
        self.events = 0

    # -- reading the state --------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.end is not None

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def playable(self, seat: int) -> list[tuple[Tile, End | None]]:
        """Every legal play of a seat whose hand is known (full information), one per distinct end."""
        if not self.layout.placements:
            return [(t, None) for t in sorted(self.held[seat]) if self._lead_allowed(t)]
        if self.must_play is not None:
            tile = self.must_play[1]
            return [(tile, e) for e in self.layout.distinct_fits(tile)]
        return [(t, e) for t in sorted(self.held[seat]) for e in self.layout.distinct_fits(t)]

    def can_play(self, seat: int) -> bool:
        """Whether a seat whose hand is known holds a tile that fits (cheap: most tiles show no open number)."""
        values = self.layout.open_ends().values()
        held = self.held[seat]
        if self._plain_ends:
            # Without `cross`'s extra rules a tile fits exactly the open ends that show one of
            # its numbers: a set question per open end, answered in C.
            for value in values:
                if not held.isdisjoint(SHOWING[value][value]):
                    return True
            return False
        fits = self.layout.fits
        return any((t.low in values or t.high in values) and fits(t) for t in held)

    def outcome(self) -> HandOutcome | None:
        """How the hand ended, once it ended with a winner decided; None before that."""
        if self.end not in ("out", "blocked"):
            return None
        return HandOutcome(
            rules=self.rules,
            winner=self.winner(),
            out_seat=self.out_seat,
            out_with_double=self.out_with_double,
            pips=tuple(self.pips),
            active=self.active,
        )

    def winner(self) -> int | None:
        """The side that won the hand; None for a tie, or a blocked hand whose pips are not all known."""
        if self.end == "out":
            assert self.out_seat is not None
            return self.rules.side_of(self.out_seat)
        if self.end != "blocked":
            return None
        pips = self.pips
        if None in [pips[s] for s in self.active]:  # (a list, not `any(...)`: no generator to run)
            return None
        rules = self.rules
        totals: dict[int, int] = {}
        for seat in self.active:
            side = rules.side_of(seat)
            totals[side] = totals.get(side, 0) + self.pips[seat]  # type: ignore[operator]
        lowest = min(totals.values())
        best = [side for side, total in totals.items() if total == lowest]
        if len(best) == 1:
            return best[0]
        if rules.tie == "leading_team_wins" and self.leader is not None:
            leading = rules.side_of(self.leader)
            if leading in best:
                return leading
        return None

    def missing_pips(self) -> list[int]:
        """Seats whose pips the end of this hand still needs (observed records)."""
        return [s for s in self.active if self.pips[s] is None] if self.end in ("out", "blocked") else []

    # -- events -------------------------------------------------------------------------------

    def apply(self, event: object, index: int | None = None) -> dict[str, Any] | Adjustment | None:
        """Check and apply one event. Returns the play's answer row, an Adjustment, or None."""
        index = self.events if index is None else index
        if type(event) is not dict:
            raise RecordError("an event must be a JSON object with a 'type'", event=index, code="event_shape")
        kind = event.get("type")
        handler = EVENT_HANDLERS.get(kind) if type(kind) is str else None
        if handler is None:
            raise RecordError(
                f"unknown event type {event.get('type')!r} (GAME_RECORD.md knows {', '.join(EVENT_TYPES)})",
                event=index,
                code="event_type",
            )
        try:
            result = handler(self, event, index)
        except RecordError as error:
            raise error.at(event=index) from None
        self.events = index + 1
        return result

    def _seat(self, event: dict[str, Any], field: str = "seat") -> int:
        seat = event.get(field)
        if type(seat) is int and seat in self._next:
            return seat  # the usual case: a seat still in the match
        if type(seat) is not int or not 0 <= seat < self.rules.players:
            raise RecordError(
                f"{event['type']} needs '{field}', a seat from 0 to {self.rules.players - 1}, not {seat!r}",
                code="seat_field",
            )
        if seat not in self.active:
            raise RecordError(
                f"seat {seat} is out of the match (eliminated) and takes no part in this hand",
                code="seat_eliminated",
                seat=seat,
            )
        return seat

    def _tile(self, event: dict[str, Any], field: str = "tile") -> tuple[Tile, tuple[int, int]]:
        try:
            return read_tile(event.get(field))
        except ValueError as error:
            raise RecordError(f"{event['type']}: {error}", code="tile_text", text=str(event.get(field))[:20]) from None

    def _not_playing(self, what: str) -> None:
        if self.end is not None:
            raise RecordError(
                f"{what} after the end of the hand ({self._end_words()})",
                code="after_end",
                end=self.end,
                seat=self.out_seat,
            )

    def _end_words(self) -> str:
        if self.end == "out":
            return f"seat {self.out_seat} went out"
        if self.end == "blocked":
            return "the hand was blocked"
        return "the match was won during it"

    def _where_is(self, tile: Tile, seat: int, said: str = "") -> RecordError | None:
        """Why `seat` cannot have `tile`, if it cannot (`said`: what the message says first)."""
        first = f"{said}, but " if said else ""
        if tile in self.on_table:
            return RecordError(
                f"{first}{tile} is already on the table (played at event {self.on_table[tile]})",
                code="on_table",
                tile=str(tile),
                at=self.on_table[tile],
            )
        other = self.owner.get(tile, seat)
        if other != seat:
            if self.revealed[other] is not None:
                return RecordError(
                    f"{first}seat {other} revealed {tile} too (event {self.revealed[other]})",
                    code="revealed_by",
                    tile=str(tile),
                    seat=other,
                    at=self.revealed[other],
                )
            return RecordError(f"{first}{tile} is in seat {other}'s hand", code="held_by", tile=str(tile), seat=other)
        if self.full and tile not in self.owner:
            if self.boneyard_tiles is not None and tile in self.boneyard_tiles:
                return RecordError(
                    f"{first}seat {seat} does not hold {tile} (it is in the boneyard)",
                    code="in_boneyard",
                    tile=str(tile),
                    seat=seat,
                )
            return RecordError(f"{first}seat {seat} does not hold {tile}", code="not_held", tile=str(tile), seat=seat)
        return None

    def _infer_passes(self, seat: int, index: int) -> list[int]:
        """Seats skipped between whose turn it was and `seat`: they passed. Checked, not applied."""
        assert self.turn is not None
        skipped: list[int] = []
        current = self.turn
        while current != seat:
            self._check_pass(current, inferred_by=index)
            skipped.append(current)
            current = self.next_seat(current)
        if self.passes_in_row + len(skipped) >= len(self.active):
            raise RecordError(
                f"seat {seat} cannot play: every other seat passed since the last tile, so the hand was already blocked",
                code="already_blocked",
                seat=seat,
            )
        return skipped

    def _check_pass(self, seat: int, inferred_by: int | None = None) -> None:
        said = (
            f"seat {seat} passed"
            if inferred_by is None
            else (f"seat {seat} must have passed (a later seat played at event {inferred_by})")
        )
        if self.must_play is not None and self.must_play[0] == seat:
            raise RecordError(
                f"{said}, but it drew {self.must_play[1]}, which fits, and must play it at once",
                code="pass_drawn_fits",
                seat=seat,
                tile=str(self.must_play[1]),
                inferred=inferred_by,
            )
        if self.boneyard > 0 and not self.unseen_draws:
            raise RecordError(
                f"{said} with {n_tiles(self.boneyard)} in the boneyard: "
                "a player who cannot play draws until a tile fits (RULES.md, Draw games)",
                code="pass_boneyard",
                seat=seat,
                boneyard=self.boneyard,
                inferred=inferred_by,
            )
        if self.full and self.can_play(seat):
            for tile in sorted(self.held[seat]):
                ends = self.layout.fits(tile)
                if ends:
                    raise RecordError(
                        f"{said} while holding {tile}, which fits the {ends[0]} end: "
                        "a player who can play must play (RULES.md, Turn)",
                        code="pass_can_play",
                        seat=seat,
                        tile=str(tile),
                        end=ends[0],
                        inferred=inferred_by,
                    )

    def _lead_allowed(self, tile: Tile) -> bool:
        rule = self.lead_rule
        if rule.tile is not None and tile is not rule.tile:  # tiles are interned: identity is equality
            return False
        return not (rule.doubles_only and not tile.is_double)

    def _check_lead(self, seat: int, tile: Tile) -> None:
        rule = self.lead_rule
        if self.leader is not None and seat != self.leader:
            why = f" ({rule.why})" if rule.seat is not None and rule.why else ""
            raise RecordError(
                f"seat {seat} led, but seat {self.leader} leads this hand{why}",
                code="lead_seat",
                seat=seat,
                leader=self.leader,
            )
        if rule.tile is not None and tile is not rule.tile:  # tiles are interned: identity is equality
            raise RecordError(
                f"the lead must be {rule.tile} ({rule.why}), not {tile}",
                code="lead_tile",
                tile=str(tile),
                lead=str(rule.tile),
            )
        if rule.doubles_only and not tile.is_double:
            raise RecordError(f"the lead must be a double ({rule.why}), not {tile}", code="lead_double", tile=str(tile))

    def _check_lead_held(self, seat: int, tiles: Iterable[Tile], verb: str) -> None:
        """`cross` without a deal: who had to lead, and with what, depends on the doubles held at
        the deal, which nobody saw. A seat that plays or shows a double it did not draw (it drew
        nothing unseen, and not that tile in sight) held it when the lead was laid; that may prove
        the lead broke the rule (RULES.md, cross), as a reveal proves a pass broke must-play."""
        drawn = self.drawn[seat]
        if any(tile is None for _, tile, _ in drawn):
            return  # it drew tiles nobody saw: any double it shows may be one of them
        in_sight = {tile for _, tile, _ in drawn}
        held = sorted(t for t in tiles if t.is_double and t not in in_sight)
        if not held or not self.layout.placements:
            return
        rule = self.lead_rule
        lead = self.layout.placements[0].tile
        at = self.on_table[lead]
        led = f"seat {self.leader} led {lead} at event {at}"
        if rule.highest:
            tile = held[-1]
            if tile.high <= lead.high:
                return
            raise RecordError(
                f"seat {seat} {verb} {tile}, which it did not draw, so it held {tile} when {led}: {lead} was not the highest "
                f"double dealt, and {rule.why} (RULES.md, cross); {_REDEAL_OR_STAND}",
                code="lead_not_highest",
                seat=seat,
                tile=str(tile),
                lead=str(lead),
                leader=self.leader,
                at=at,
            )
        duty = rule.duty
        if duty is None or self.leader is None:
            return
        before = []  # the seats whose duty it was to lead before the seat that did
        current = duty
        while current != self.leader:
            before.append(current)
            current = self._next[current]
        if seat not in before:
            return
        tile = held[-1]
        passes_on = "" if seat == duty else f", and the duty passed on to seat {seat} before seat {self.leader}"
        raise RecordError(
            f"seat {seat} {verb} {tile}, which it did not draw, so it held a double when {led}: seat {duty}, the last hand's "
            f"winner, leads a double from hand, and the duty passes to the next seat only when it holds none"
            f"{passes_on} (RULES.md, cross); {_REDEAL_OR_STAND}",
            code="lead_duty",
            seat=seat,
            tile=str(tile),
            lead=str(lead),
            leader=self.leader,
            duty=duty,
            at=at,
        )

    def _play(self, event: dict[str, Any], index: int) -> dict[str, Any]:
        if self.maybe_out is not None:
            return self._went_on(Hand._play, event, index)
        # The common case inline (this runs for every tile of every replay): a seat in the
        # match and a tile named as usual; anything else goes the long way, to its error.
        seat = event.get("seat")
        if type(seat) is not int or seat not in self._next:
            seat = self._seat(event)
        text = event.get("tile")
        written = TILE_NAMES.get(text) if type(text) is str else None
        if written is None:
            tile, halves = self._tile(event)
            text = f"{halves[0]}-{halves[1]}"
        else:
            tile, halves = written
        if self.end is not None:
            self._not_playing("a play")
        if self.must_play is not None and self.must_play != (seat, tile):
            drawer, drawn = self.must_play
            raise RecordError(
                f"seat {drawer} drew {drawn}, which fits, and must play it at once",
                code="must_play_drawn",
                seat=drawer,
                tile=str(drawn),
            )
        owner = self.owner.get(tile)
        if owner != seat and (owner is not None or self.full or tile in self.on_table):
            raise self._where_is(tile, seat) or RecordError(
                f"seat {seat} cannot play {tile}", code="cannot_play", seat=seat, tile=str(tile)
            )
        counts = self.counts
        if counts[seat] == 0:
            raise RecordError(f"seat {seat} has no tiles left to play", code="no_tiles_left", seat=seat)
        end: End | None = event.get("end")
        layout = self.layout
        if layout.placements:
            if self.turn is not None and seat != self.turn:
                skipped = self._infer_passes(seat, index)
                end = self._resolve_end(tile, end)
                if self._lead_watch and tile.is_double:
                    self._check_lead_held(seat, (tile,), "played")
                # Everything is checked: change the hand.
                for passer in skipped:
                    self._record_pass(passer, index)
                    self.inferred_passes.append({"event": index, "seat": passer})
                layout.place(tile, end)
            else:
                # (`type(end) is str`: an end written as a list is not hashable; `_resolve_end` refuses it.)
                value = layout.open_ends().get(end) if self._plain_ends and type(end) is str else None  # type: ignore[call-overload]
                if value is not None and (value == tile.low or value == tile.high):
                    if self._lead_watch and tile.is_double:
                        self._check_lead_held(seat, (tile,), "played")
                    layout._place_at(tile, end, value)  # the usual case: the named end fits
                else:
                    end = self._resolve_end(tile, end)
                    if self._lead_watch and tile.is_double:
                        self._check_lead_held(seat, (tile,), "played")
                    layout.place(tile, end)
        else:
            if end is not None:
                raise RecordError("the lead has no end: 'a-b' puts a on the west and b on the east", code="lead_end")
            self._check_lead(seat, tile)
            self.leader = seat
            layout.place_lead(*halves)
        self.on_table[tile] = index
        if owner is not None:
            self.held[seat].discard(tile)
            del self.owner[tile]
        counts[seat] -= 1
        self.must_play = None
        self.passes_in_row = 0
        self.turn = self._next[seat]
        count = layout.count() if self._fives else None
        if counts[seat] == 0:
            if self.unseen_draws and (self.boneyard > 0 or self.unseen > 0):
                # it may have drawn tiles nobody saw: out only if nothing more is played
                self.maybe_out = (seat, index, tile.is_double)
            else:
                self._go_out(seat, index, tile.is_double)
        row: dict[str, Any] = {"event": index, "seat": seat, "tile": text}
        if end is not None:
            row["end"] = end
        row["count"] = count
        row["points"] = count if count and count % 5 == 0 else 0
        self.plays.append(row)
        return row

    def _go_out(self, seat: int, index: int, double: bool) -> None:
        self.end = "out"
        self.out_seat = seat
        self.out_with_double = double
        self.turn = None
        self.pips[seat] = 0
        self.revealed[seat] = index
        self._fill_pips_if_over()

    def _went_on(self, handler: Any, event: dict[str, Any], index: int) -> Any:
        """The record goes on after `maybe_out`: that seat had drawn unseen, at least one tile.
        The event is then applied as usual; if it is refused, nothing is inferred."""
        assert self.maybe_out is not None
        seat = self.maybe_out[0]
        saved = self.maybe_out
        self.maybe_out = None
        # from the boneyard, or (once a pass emptied it) one of the tiles drawn by a seat not known
        from_boneyard = self.boneyard > 0
        self.counts[seat] += 1
        if from_boneyard:
            self.boneyard -= 1
        else:
            self.unseen -= 1
        self.inferred_draws.append({"event": index, "seat": seat, "count": 1})
        try:
            return handler(self, event, index)
        except RecordError:
            self.inferred_draws.pop()
            if from_boneyard:
                self.boneyard += 1
            else:
                self.unseen += 1
            self.counts[seat] -= 1
            self.maybe_out = saved
            raise

    def _settled(self, handler: Any, event: dict[str, Any], index: int) -> Any:
        """`settle_out`, then the event as usual; if it is refused, the hand is as it was."""
        saved = self.maybe_out
        self.settle_out()
        try:
            return handler(self, event, index)
        except RecordError:
            self.end = self.out_seat = None
            self.out_with_double = False
            assert saved is not None
            self.turn = self._next[saved[0]]
            self.pips[saved[0]] = self.revealed[saved[0]] = None
            self.maybe_out = saved
            raise

    def settle_out(self) -> None:
        """Nothing more is played in this hand: a seat that perhaps went out (`maybe_out`) did."""
        if self.maybe_out is not None and self.end is None:
            seat, index, double = self.maybe_out
            self.maybe_out = None
            self._go_out(seat, index, double)

    def replay_plain_events(self, events: list[Any], start: int) -> int:
        """Apply the run of ordinary events from `events[start]`; return where the run stopped.

        A replay is mostly these, so they are checked and applied here in one tight loop, with
        the hand's and the line's state in local variables, exactly as `_play` and `_pass` would:

        - a play by the seat whose turn it is, of a tile written as usual that the seat may hold,
          on a named end that fits, leaving the player at least one tile;
        - in a full-information hand with no boneyard left, a pass by the seat whose turn it is,
          holding no tile that fits, that does not block the hand.

        Only line games take this path (no spinner, no fives count: block, draw, partners-block),
        and only once the lead is down. The first event that is anything else stops the run;
        `apply` takes it (and says what is wrong, if anything is). Nothing is changed for an
        event until all of its checks have passed, so a stop leaves the hand consistent.
        """
        layout = self.layout
        if (
            self.end is not None
            or self.must_play is not None
            or self.maybe_out is not None
            or self._fives
            or not self._plain_ends
            or layout.rules.spinner
            or not layout.placements
        ):
            return start
        owner, on_table, counts, held, passes = self.owner, self.on_table, self.counts, self.held, self.passes
        following, plays, full = self._next, self.plays, self.full
        placements, arms, doubles = layout.placements, layout.arms, layout._doubles
        # A line's open ends are west and east, for good: this copy follows each tile placed,
        # and becomes the layout's own at the end (the dict `open_ends` handed out is never changed).
        ends = dict(layout.open_ends())
        passes_may_run = full and self.boneyard == 0  # a draw (the only way the boneyard changes) ends the run
        blocking = len(self.active) - 1  # the pass that makes this many in a row blocks: `_pass` ends the hand
        turn, in_row = self.turn, self.passes_in_row
        index = start
        # Plain subscripts in `try` rather than `.get` calls: in Python 3.11 a `try` costs
        # nothing until it catches, and `d[k]` is cheaper than a method call. Only the reading of
        # the event is inside it; a missing field (KeyError) or an unhashable one (TypeError)
        # just stops the run.
        for event in events[start:]:
            if type(event) is not dict:
                break
            try:
                kind, seat = event["type"], event["seat"]
            except KeyError:
                break
            if type(seat) is not int or seat != turn:  # `type`: True == 1, but True is no seat
                break
            if kind == "play":
                try:
                    tile, low, high, text = TILE_PARTS[event["tile"]]
                    end = event["end"]
                    value = ends[end]  # only "west" and "east" are there
                except (KeyError, TypeError):
                    break
                if value == low:
                    outer = high
                elif value == high:
                    outer = low
                else:
                    break  # it does not fit the end named
                # Whose tile is it? `owner` is the inverse of `held`, so "the seat holds it" is
                # one set look-up; `owner` is asked only for a tile the seat is not known to hold.
                hand = held[seat]
                known = tile in hand
                if not known and (full or tile in owner or tile in on_table):
                    break  # not this seat's tile: `_play` says where it is
                if counts[seat] <= 1:
                    break  # its last tile: `_play` ends the hand
                # Everything is checked: change the hand, as `_play` and `Layout._place_at` do.
                arm = arms[end]
                placements.append(_new_tuple(Placement, (tile, end, arm[-1] if arm else 0, value, outer)))
                arm.append(len(placements) - 1)
                if value == outer:
                    doubles.add(value)
                ends[end] = outer
                on_table[tile] = index
                if known:
                    hand.discard(tile)
                    del owner[tile]
                counts[seat] -= 1
                plays.append({"event": index, "seat": seat, "tile": text, "end": end, "count": None, "points": 0})
                in_row = 0
            elif kind == "pass":
                if not passes_may_run or in_row >= blocking:
                    break
                if not held[seat].isdisjoint(SHOWING[ends["west"]][ends["east"]]):
                    break  # it holds a tile that fits: `_pass` says which
                passes[seat].append(_new_tuple(_Pass, (index, None)))  # full information: no snapshot
                in_row += 1
            else:
                break
            turn = following[seat]
            index += 1
        if index > start:
            layout._ends = ends
            self.turn = turn
            self.passes_in_row = in_row
            self.events = index
        return index

    def _resolve_end(self, tile: Tile, end: object) -> End:
        layout = self.layout
        plain = not layout.rules.sides_before_arms and not layout.rules.arm_needs_double
        if type(end) is str and plain:
            value = layout.open_ends().get(end)  # type: ignore[call-overload]
            if value is not None and (value == tile.low or value == tile.high):
                return end  # type: ignore[return-value]  # the usual case: the named end fits
        if end is not None:
            if end not in ENDS:
                raise RecordError(f"end must be one of {', '.join(ENDS)}, not {end!r}", code="end_name")
            if end in layout.fits(tile):
                return end  # type: ignore[return-value]
            why, reason = self._why_not(tile, end)  # type: ignore[arg-type]
            raise RecordError(
                f"{tile} does not fit the {end} end: {why}",
                code="end_no_fit",
                tile=str(tile),
                end=end,
                reason=reason,
                shows=layout.end_value(end),
            )  # type: ignore[arg-type]
        ends = layout.distinct_fits(tile)
        if not ends:
            raise RecordError(
                f"{tile} fits no open end ({layout.describe_ends()})",
                code="fits_nothing",
                tile=str(tile),
                ends=dict(layout.open_ends()),
            )
        if len(ends) > 1:
            raise RecordError(
                f"{tile} fits the {' and '.join(ends)} ends: the play must name its end",
                code="name_end",
                tile=str(tile),
                ends=list(ends),
            )
        return ends[0]

    def _why_not(self, tile: Tile, end: End) -> tuple[str, str]:
        """Why `tile` does not fit `end`: the words, and their code for the page."""
        layout = self.layout
        value = layout.end_value(end)
        if value is None:
            if end in ("north", "south"):
                if layout.spinner is None:
                    if self.rules.variant.spinner:
                        return "there is no spinner yet", "no_spinner_yet"
                    return "this game has no spinner", "no_spinner"
                return "the spinner's west and east sides must both be covered first (RULES.md, Spinner)", "sides_first"
            return "that end is not open", "not_open"
        if not tile.has(value):
            return f"it shows {value}", "shows"
        if self.rules.variant.cross_rules:
            empty = layout.empty_spinner_sides()
            if empty and end not in empty:
                return (
                    "all four sides of the spinner must be covered before an arm grows (RULES.md, cross)",
                    "cross_sides",
                )
            return f"it shows {value}, and {value}-{value} is not in the layout yet (RULES.md, cross)", "cross_double"
        return "not allowed", "not_allowed"

    def _record_pass(self, seat: int, index: int) -> None:
        if self.boneyard > 0:  # (unseen draws only: `_check_pass` refuses it otherwise)
            # it could not play, so it drew until the boneyard was empty, unseen: how many it took
            # is the most the boneyard can still hold, the rest went to others unseen before
            self.inferred_draws.append({"event": index, "seat": seat, "count": self.boneyard, "at_most": True})
            self.unseen += self.boneyard
            self.boneyard = 0
        snapshot = None if self.full else self.layout.copy()
        self.passes[seat].append(_Pass(index, snapshot))
        self.passes_in_row += 1

    def _pass(self, event: dict[str, Any], index: int) -> None:
        if self.maybe_out is not None:
            return self._went_on(Hand._pass, event, index)  # type: ignore[no-any-return]
        seat = self._seat(event)
        self._not_playing("a pass")
        if not self.layout.placements:
            raise RecordError(
                f"seat {seat} passed before the lead: the leader plays any tile it likes",
                code="pass_before_lead",
                seat=seat,
            )
        skipped = self._infer_passes(seat, index) if self.turn is not None and seat != self.turn else []
        self._check_pass(seat)
        for passer in skipped:
            self._record_pass(passer, index)
            self.inferred_passes.append({"event": index, "seat": passer})
        self._record_pass(seat, index)
        self.turn = self.next_seat(seat)
        if self.passes_in_row >= len(self.active):
            self._block()

    def _block(self) -> None:
        self.end = "blocked"
        self.turn = None
        self._fill_pips_if_over()

    def _draw(self, event: dict[str, Any], index: int) -> None:
        if self.maybe_out is not None:
            return self._went_on(Hand._draw, event, index)  # type: ignore[no-any-return]
        seat = self._seat(event)
        self._not_playing("a draw")
        if self.rules.variant.leftovers != "boneyard":
            where = (
                "there is no boneyard"
                if self.rules.variant.leftovers == "none"
                else "the tiles left over are set aside"
            )
            raise RecordError(
                f"seat {seat} drew, but in {self.rules.name} {where}",
                code="no_boneyard",
                seat=seat,
                aside=self.rules.variant.leftovers != "none",
            )
        if not self.layout.placements:
            raise RecordError(
                f"seat {seat} drew before the lead: the leader plays any tile it likes",
                code="draw_before_lead",
                seat=seat,
            )
        if self.turn is not None and seat != self.turn:
            raise RecordError(
                f"seat {seat} drew, but it is seat {self.turn}'s turn", code="draw_turn", seat=seat, turn=self.turn
            )
        if self.must_play is not None:
            raise RecordError(
                f"seat {seat} drew {self.must_play[1]}, which fits, and must play it before drawing again",
                code="must_play_drawn",
                seat=seat,
                tile=str(self.must_play[1]),
            )
        # GAME_RECORD.md: a draw is a known tile or a count, one or the other (null is left out:
        # `scorer.schema`). Stored records of older Spinners may hold the other shapes: the web
        # store reads them as they were scored (`webapp.store.stored_event`).
        has_tile = event.get("tile") is not None
        if has_tile:
            tile, _ = self._tile(event)
            count = 1
            if event.get("count") is not None:
                raise RecordError(
                    f"a draw names its 'tile' (one tile seen) or a 'count' of unseen tiles, not both "
                    f"({tile} and a count of {event['count']!r})",
                    code="draw_both",
                )
        else:
            tile = None
            given = event.get("count")
            if given is None:
                raise RecordError(
                    f"seat {seat}'s draw names neither its 'tile' (one tile seen) nor a 'count' of unseen tiles",
                    code="draw_neither",
                    seat=seat,
                )
            if not isinstance(given, int) or isinstance(given, bool) or given < 1:
                raise RecordError(
                    f"a draw names its 'tile' or a 'count' of unseen tiles of at least 1, not {given!r}",
                    code="draw_count",
                )
            count = given
            if self.full:
                raise RecordError(
                    "a full-information record (one with a deal) names every drawn tile", code="draw_name"
                )
        if count > self.boneyard:
            raise RecordError(
                f"seat {seat} drew {n_tiles(count)}, but the boneyard holds {self.boneyard}",
                code="boneyard_short",
                seat=seat,
                count=count,
                boneyard=self.boneyard,
            )
        # Every tile a full record deals is known; an observed record knows those drawn in sight.
        playable = [t for t in sorted(self.held[seat]) if self.layout.fits(t)]
        if playable:
            raise RecordError(
                f"seat {seat} drew while holding {playable[0]}, which fits: a player who can play must play",
                code="draw_can_play",
                seat=seat,
                tile=str(playable[0]),
            )
        if self.full:
            assert self.boneyard_tiles is not None and tile is not None
            if tile not in self.boneyard_tiles:
                if tile in self.held[seat]:
                    raise RecordError(
                        f"seat {seat} already holds {tile}", code="holds_already", seat=seat, tile=str(tile)
                    )
                if tile in self.aside:
                    raise RecordError(
                        f"{tile} is not in the boneyard: it is set aside (an eliminated player's share)",
                        code="set_aside",
                        tile=str(tile),
                    )
                raise self._where_is(tile, seat) or RecordError(
                    f"{tile} is not in the boneyard", code="not_in_boneyard", tile=str(tile)
                )
            self.boneyard_tiles.discard(tile)
        elif tile is not None:
            problem = self._where_is(tile, seat)
            if problem:
                raise problem
            if tile in self.held[seat]:
                raise RecordError(f"seat {seat} already holds {tile}", code="holds_already", seat=seat, tile=str(tile))
        self.boneyard -= count
        self.counts[seat] += count
        if not self.full:
            self.drew[seat].append(_Pass(index, self.layout.copy()))
            self.drawn[seat].append((index, tile, count))
        if tile is not None:
            self.held[seat].add(tile)
            self.owner[tile] = seat
            if self.layout.fits(tile):
                self.must_play = (seat, tile)

    def _reveal(self, event: dict[str, Any], index: int) -> None:
        if self.maybe_out is not None:  # the players show what they hold: the hand is over
            return self._settled(Hand._reveal, event, index)  # type: ignore[no-any-return]
        seat = self._seat(event)
        raw = event.get("tiles")
        if raw == [] and self.out_seat == seat:
            return  # the player out shows an empty hand: nothing to check
        self._check_reveal_time(seat)
        if not isinstance(raw, list):
            raise RecordError("reveal needs 'tiles', the list of tiles the player still held", code="reveal_field")
        tiles: list[Tile] = []
        for text in raw:
            try:
                tiles.append(Tile.parse(text))
            except ValueError as error:
                raise RecordError(f"reveal: {error}", code="tile_text", text=str(text)[:20]) from None
        seen: set[Tile] = set()
        for tile in tiles:
            if tile in seen:
                raise RecordError(f"seat {seat} revealed {tile} twice", code="reveal_twice", seat=seat, tile=str(tile))
            seen.add(tile)
            problem = self._where_is(tile, seat, f"seat {seat} revealed {tile}") if not self.full else None
            if problem:
                raise problem
        extra = len(tiles) - self.counts[seat]  # unseen draws: tiles it drew that nobody saw
        if extra and not (self.unseen_draws and 0 < extra <= self.unseen + self.boneyard):
            raise RecordError(
                f"seat {seat} should hold {n_tiles(self.counts[seat])} ({self._count_words(seat)}), "
                f"but {len(tiles)} were revealed",
                code="reveal_count",
                seat=seat,
                holds=self.counts[seat],
                shown=len(tiles),
            )
        if self.full and seen != self.held[seat]:
            shown = ", ".join(str(t) for t in sorted(self.held[seat])) or "nothing"
            raise RecordError(
                f"seat {seat} revealed tiles it was not dealt: it holds {shown}",
                code="reveal_not_dealt",
                seat=seat,
                holds=shown,
            )
        missing = sorted(self.held[seat] - seen)
        if missing:
            raise RecordError(
                f"seat {seat} drew {missing[0]} in sight and did not play it, but did not reveal it",
                code="reveal_missing",
                seat=seat,
                tile=str(missing[0]),
            )
        for passed in self.passes[seat]:
            if passed.layout is None:
                continue
            for tile in sorted(seen):
                ends = passed.layout.fits(tile)
                if ends:
                    raise RecordError(
                        f"seat {seat} passed at event {passed.event} while holding {tile}, "
                        f"which fitted the {ends[0]} end: a player who can play must play (RULES.md, Turn)",
                        code="passed_holding",
                        seat=seat,
                        at=passed.event,
                        tile=str(tile),
                        end=ends[0],
                    )
        self._check_draws(seat, seen, max(extra, 0))
        if self._lead_watch:
            self._check_lead_held(seat, seen, "revealed")
        self._check_pip_total(seat, sum(t.pips for t in tiles))
        if extra:  # drawn unseen: from those a pass took, else from what the boneyard was thought to hold
            taken = min(extra, self.unseen)
            self.unseen -= taken
            self.boneyard -= extra - taken
            self.counts[seat] += extra
        self.held[seat] = set(seen)
        self.owner.update(dict.fromkeys(seen, seat))
        self.revealed[seat] = index
        self.pips[seat] = sum(t.pips for t in tiles)

    def _check_draws(self, seat: int, seen: set[Tile], extra: int) -> None:
        """A seat drew because it could not play (RULES.md, Draw games): its revealed tiles must not
        show that it held one that fitted when it drew.

        Which revealed tiles it already held at a draw is known only so far: a tile drawn unseen at
        that draw or later may be any of them, except the last of a turn that ended in a play (the
        tile played: it fitted, so it was drawn then). So a draw is refused only where more revealed
        tiles fitted then than the unseen tiles drawn since and kept (`extra`: drawn at a time
        nobody recorded)."""
        if not self.drawn[seat]:
            return
        played = {row["event"] for row in self.plays if row["seat"] == seat}
        actions = sorted([*played, *(p.event for p in self.passes[seat]), *(at for at, _, _ in self.drawn[seat])])
        after = dict(zip(actions, [*actions[1:], None], strict=True))  # each action's next one
        kept = [
            (at, tile, count - (after[at] in played if tile is None else 0)) for at, tile, count in self.drawn[seat]
        ]
        for (event, _, _), drew in zip(kept, self.drew[seat], strict=True):
            assert drew.layout is not None
            later = [(tile, count) for at, tile, count in kept if at >= event]
            in_sight = {tile for tile, _ in later if tile is not None}
            fitted = sorted(t for t in seen if t not in in_sight and drew.layout.fits(t))
            unseen = extra + sum(count for tile, count in later if tile is None)
            unseen += sum(d["count"] for d in self.inferred_draws if d["seat"] == seat and d["event"] >= event)
            if len(fitted) > unseen:
                tiles = str(fitted[0]) if len(fitted) == 1 else "one of " + " and ".join(str(t) for t in fitted)
                raise RecordError(
                    f"seat {seat} drew at event {event} while holding {tiles}, which fitted then "
                    f"({len(fitted)} revealed against {unseen} drawn unseen and kept since): "
                    "a player who can play must play (RULES.md, Draw games)",
                    code="drew_holding",
                    seat=seat,
                    at=event,
                    tile=str(fitted[0]),
                )

    def _count_words(self, seat: int) -> str:
        played = sum(1 for row in self.plays if row["seat"] == seat)
        drawn = self.counts[seat] + played - self.rules.hand_size
        words = f"{self.rules.hand_size} dealt, {played} played"
        return words + (f", {drawn} drawn" if drawn else "")

    def _check_reveal_time(self, seat: int) -> None:
        # A match won at once in mid-hand (`target`) ends the hand too: what the players still held
        # may be shown, and checked, though it scores nothing (docs/scorer.md).
        if self.end not in ("out", "blocked", "target"):
            waiting = f"seat {self.turn} is to play" if self.turn is not None else "the lead is still to come"
            raise RecordError(
                f"seat {seat} showed its tiles before the hand ended ({waiting}); "
                "a hand ends when a player goes out or every seat passes in succession",
                code="reveal_early",
                seat=seat,
                turn=self.turn,
            )
        if self.revealed[seat] is not None:
            if self.out_seat == seat:
                raise RecordError(f"seat {seat} went out: it holds nothing to reveal", code="reveal_out", seat=seat)
            raise RecordError(
                f"seat {seat}'s tiles were already counted at event {self.revealed[seat]}",
                code="counted_already",
                seat=seat,
                at=self.revealed[seat],
            )

    def _pips(self, event: dict[str, Any], index: int) -> None:
        if self.maybe_out is not None:  # the players say what they hold: the hand is over
            return self._settled(Hand._pips, event, index)  # type: ignore[no-any-return]
        seat = self._seat(event)
        value = event.get("pips")
        if value == 0 and self.out_seat == seat and not isinstance(value, bool):
            return  # the player out holds 0 pips: nothing to check
        self._check_reveal_time(seat)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RecordError(f"pips needs 'pips', a whole number of at least 0, not {value!r}", code="pips_field")
        count = self.counts[seat]
        unplayed = sorted((t.pips for t in FULL_SET if t not in self.on_table), reverse=True)
        most = sum(
            unplayed[: count + self.unseen + (self.boneyard if self.unseen_draws else 0)]
        )  # (unseen draws: more)
        least = sum(sorted(unplayed)[:count])
        if not least <= value <= most:
            raise RecordError(
                f"seat {seat} holds {n_tiles(count)} ({self._count_words(seat)}), "
                f"which cannot total {value} pips (between {least} and {most} with the tiles not yet played)",
                code="pips_range",
                seat=seat,
                holds=count,
                pips=value,
                least=least,
                most=most,
            )
        if self.full:
            known = sum(t.pips for t in self.held[seat])
            if value != known:
                raise RecordError(
                    f"seat {seat} holds {known} pips by the deal, not {value}",
                    code="pips_deal",
                    seat=seat,
                    known=known,
                    pips=value,
                )
        self._check_pip_total(seat, value)
        self.revealed[seat] = index
        self.pips[seat] = value

    def _check_pip_total(self, seat: int, value: int) -> None:
        """Once every seat has said what it holds, nothing unseen is left: the pips must add up.

        Only where every tile off the table is in a hand: no boneyard left, nothing set aside.
        """
        if self.full or self.boneyard > 0 or self.rules.variant.leftovers == "aside":
            return
        if len(self.active) < self.rules.players:
            return  # an eliminated player's tiles are set aside, unseen
        others = [self.pips[s] for s in self.active if s != seat]
        if any(p is None for p in others):
            return
        off_table = SET_PIPS - sum(t.pips for t in self.on_table)
        total = value + sum(others)  # type: ignore[arg-type]
        if total != off_table:
            raise RecordError(
                f"the players' pips total {total}, but {off_table} pips are off the table "
                f"({SET_PIPS} in the set): a count or a reveal is wrong",
                code="pips_total",
                total=total,
                off=off_table,
            )

    def _adjust(self, event: dict[str, Any], index: int) -> Adjustment:
        rules = self.rules
        field = "team" if rules.variant.teams else "seat"
        side = event.get(field)
        if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < rules.sides:
            raise RecordError(f"adjust needs '{field}', from 0 to {rules.sides - 1}, not {side!r}", code="adjust_side")
        points = event.get("points")
        if not isinstance(points, int) or isinstance(points, bool) or points == 0:
            raise RecordError(
                f"adjust needs 'points', a whole number other than 0, not {points!r}", code="adjust_points"
            )
        reason = event.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise RecordError("adjust needs a 'reason': a correction is never silent", code="adjust_reason")
        adjustment = Adjustment(index, side, points, reason.strip())
        self.adjustments.append(adjustment)
        return adjustment

    # -- the end --------------------------------------------------------------------------------

    def _fill_pips_if_over(self) -> None:
        if self.full and self.end in ("out", "blocked"):
            for seat in self.active:
                self.pips[seat] = sum(map(TILE_PIPS.__getitem__, self.held[seat]))

    def finish_record(self, settle_out: bool = True) -> None:
        """The record says no more about this hand. A full-information hand nobody can move in is blocked;
        a seat that perhaps went out (unseen draws) did, unless `settle_out` is False (the record is
        kept as the hand is played: the next event says whether it drew unseen)."""
        if settle_out:
            self.settle_out()
        if not self.full or self.end is not None or not self.layout.placements or self.must_play:
            return
        if self.boneyard > 0 or any(self.can_play(s) for s in self.active):
            return
        assert self.turn is not None
        seat = self.turn
        while self.passes_in_row < len(self.active):
            self._record_pass(seat, self.events)
            self.inferred_passes.append({"event": self.events, "seat": seat})
            seat = self.next_seat(seat)
        self._block()

    def stop_for_target(self) -> None:
        """The match ended at once during this hand: no more play, no winner, no bonus."""
        self.end = "target"
        self.turn = None


def n_tiles(n: int) -> str:
    """'1 tile', '3 tiles' (the engine's messages)."""
    return f"{n} tile" if n == 1 else f"{n} tiles"


def lead_rule(
    rules: Rules,
    previous: Hand | None,
    deal: list[list[Tile]] | None,
    active: tuple[int, ...],
) -> LeadRule:
    """Who leads the next hand, and with what (RULES.md, Who leads)."""
    # With every tile in the active players' hands (cross with four players: no boneyard, nothing
    # set aside) the highest double is 6-6 whoever holds it, so an observed record is held to it.
    everything_dealt = len(active) * rules.hand_size >= len(FULL_SET)
    if previous is None:
        return _first_lead(rules.first_lead, deal, active, "in the first hand", everything_dealt)
    rule = rules.next_lead
    winner_side = previous.winner()
    if rule == "next_seat":
        assert previous.leader is not None
        seat = _next_active(previous.leader, active)
        return LeadRule(seat=seat, why="the lead passes to the next seat")
    if rule == "first_out":
        if previous.out_seat is not None and previous.out_seat in active:
            return LeadRule(seat=previous.out_seat, why="the first player out in the last hand leads")
        return LeadRule(why="after a blocked hand the leader is chosen at random")
    if rule == "winner":
        if winner_side is not None:
            return LeadRule(seat=winner_side, why="the winner of the last hand leads")
        return LeadRule(why="after a hand with no winner the leader is chosen at random")
    if rule == "mexican":
        if previous.out_seat is not None:
            return LeadRule(seat=previous.out_seat, why="the winner of each hand leads the next (mexican)")
        if winner_side is not None:
            members = rules.seats_of(winner_side)
            seat = min(members, key=lambda s: (previous.pips[s], s))
            return LeadRule(seat=seat, why="the winning team's member with fewer pips leads (mexican)")
        assert previous.leader is not None
        return LeadRule(seat=_next_active(previous.leader, active), why="the lead passes to the next seat")
    # cross: the winner leads any double; with none, the duty passes on; no winner: highest double.
    if winner_side is None or winner_side not in active:
        return _first_lead("highest_double", deal, active, "after a hand with no winner", everything_dealt)
    if deal is None:
        return LeadRule(
            doubles_only=True,
            why="the last hand's winner, or the next seat holding one, leads a double",
            duty=winner_side,
        )
    seat = winner_side
    for _ in active:
        if any(t.is_double for t in deal[seat]):
            return LeadRule(
                seat=seat,
                doubles_only=True,
                why="the last hand's winner, or the next seat with a double, leads a double",
            )
        seat = _next_active(seat, active)
    raise RecordError(
        "nobody was dealt a double, so nobody can lead: the tiles must be reshuffled (RULES.md, cross)",
        code="reshuffle",
    )


def _first_lead(
    kind: str, deal: list[list[Tile]] | None, active: tuple[int, ...], when: str, everything_dealt: bool = False
) -> LeadRule:
    if kind == "six_six":
        if deal is None:
            return _six_six_lead(None, when)
        # Searched by identity (tiles are interned): `in` on a list of tiles compares through
        # the Python-level rich comparison that `order=True` gives Tile, some 0.3 µs a tile
        # (bench/README.md).
        for seat, hand in enumerate(deal):
            for tile in hand:
                if tile is _SIX_SIX:
                    return _six_six_lead(seat, when)
        raise AssertionError("6-6 was not dealt")  # every six_six variant deals all 28 tiles
    if kind == "highest_double":
        why = f"the holder of the highest double leads it {when}"
        if deal is None:
            if everything_dealt:
                return LeadRule(tile=DOUBLES[-1], doubles_only=True, why=why)
            return LeadRule(doubles_only=True, why=why, highest=True)
        for double in reversed(DOUBLES):
            for seat in active:
                if double in deal[seat]:
                    return LeadRule(seat=seat, tile=double, why=why)
        raise RecordError(
            "nobody was dealt a double, so nobody can lead: the tiles must be reshuffled (RULES.md, cross)",
            code="reshuffle",
        )
    return LeadRule(why=f"the leader is chosen at random {when}")


_SIX_SIX = Tile.of(6, 6)


@cache
def _six_six_lead(seat: int | None, when: str) -> LeadRule:
    """The holder of 6-6 leads it: a handful of rules (a seat, an occasion), made once each; immutable."""
    return LeadRule(seat=seat, tile=_SIX_SIX, why=f"the holder of 6-6 leads it {when}")


@cache
def _following(active: tuple[int, ...]) -> dict[int, int]:
    """Each seat in play and the seat in play after it (a handful of seatings, made once each; read only)."""
    return {s: active[(i + 1) % len(active)] for i, s in enumerate(active)}


def _next_active(seat: int, active: tuple[int, ...]) -> int:
    players = max(max(active), seat) + 1
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if candidate in active:
            return candidate
    raise AssertionError("no seat is left in the match")


#: Each event type's handler, `handler(hand, event, index)`: `Hand.apply` without its checks on the event's shape.
EVENT_HANDLERS = {kind: getattr(Hand, f"_{kind}") for kind in EVENT_TYPES}
