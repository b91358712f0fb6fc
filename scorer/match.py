"""A match: hands one after another, the running totals, the target and the winner.

`Match.from_record(record)` replays a whole match record (GAME_RECORD.md) and raises a
`RecordError` naming the hand, the event and the rule at the first thing that breaks a rule.
`score_record(record)` gives the scorer's answer. The same `Match` can be grown one event at
a time (`start_hand`, `apply`), which is what the web page and the camera pipeline do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RecordError
from .hand import EVENT_HANDLERS, Adjustment, Hand, lead_rule
from .tiles import TILE_BY_NAME, Tile, read_tile
from .variants import OptionError, PipsMissing, Rules, make_rules

RECORD_FORMAT = "domino-record/1"


class Match:
    def __init__(self, rules: Rules, players: list[str]) -> None:
        self.rules = rules
        self.layout_rules = rules.layout_rules()
        self.players = players
        self.hands: list[Hand] = []
        self.bonuses: list[list[int] | None] = []
        self.hand_totals: list[list[int]] = []
        self.totals = [0] * rules.sides
        self.winner: int | None = None
        self.won_at: tuple[int, int | None] | None = None  # (hand, event) where the match was decided
        self.active: tuple[int, ...] = tuple(range(rules.players))
        self.eliminated: list[list[int]] = []

    # -- building from a record ---------------------------------------------------------------

    @classmethod
    def new(cls, variant: str, players: list[str], options: Mapping[str, Any] | None = None) -> Match:
        names = [p.strip() if isinstance(p, str) else "" for p in players] if isinstance(players, list) else [""]
        if "" in names:  # (one list, no generator: this runs once per record)
            raise RecordError("players must be a list of names, one per seat in play order")
        try:
            rules = make_rules(variant, len(players), options)
        except OptionError as error:
            raise RecordError(str(error)) from None
        return cls(rules, names)

    @classmethod
    def from_record(cls, record: object, open_last: bool = False, live: bool = False) -> Match:
        """The match a record describes. `open_last`: the last hand is still being played, so the
        record's silence about it ends nothing (`close_hand` is not applied to it). `live`: the
        record is kept as the last hand is played (the companion page): that hand is closed where
        the rules settle it (a full hand nobody can move in is blocked), but a seat that perhaps
        went out (`Hand.maybe_out`: unseen draws) is left so until the record says more."""
        if not isinstance(record, dict):
            raise RecordError("a match record is a JSON object (GAME_RECORD.md)")
        fmt = _given(record, "format", RECORD_FORMAT)
        if fmt != RECORD_FORMAT:
            raise RecordError(f"unknown record format {fmt!r}: this scorer reads {RECORD_FORMAT}")
        if record.get("variant") == "twelve":
            raise RecordError("twelve is a one-player memory game: score it with scorer.twelve")
        match = cls.new(record.get("variant"), record.get("players"), record.get("options"))  # type: ignore[arg-type]
        hands = _given(record, "hands", [])
        if not isinstance(hands, list):
            raise RecordError("hands must be a list")
        for h, hand in enumerate(hands):
            last = h == len(hands) - 1
            match.apply_hand(hand, h, close=not (open_last and last), settle_out=not (live and last))
        return match

    def apply_hand(self, hand: object, h: int, close: bool = True, settle_out: bool = True) -> None:
        """Hand `h` of a record, started and replayed; closed (`close_hand`) unless `close` is False."""
        if not isinstance(hand, dict):
            raise RecordError("a hand must be a JSON object", hand=h)
        events = _given(hand, "events", [])
        if not isinstance(events, list):
            raise RecordError("events must be a list", hand=h)
        try:
            self.start_hand(
                leader=hand.get("leader"),
                deal=hand.get("deal"),
                unseen_draws=_given(hand, "unseen_draws", False),
                lead_stands=_given(hand, "lead_stands", False),
            )
            self.replay_events(events)
            if close:
                self.close_hand(settle_out=settle_out)
        except RecordError as error:
            raise error.at(hand=h) from None

    # -- playing --------------------------------------------------------------------------------

    @property
    def current(self) -> Hand | None:
        return self.hands[-1] if self.hands else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def start_hand(
        self, leader: object = None, deal: object = None, unseen_draws: object = False, lead_stands: object = False
    ) -> Hand:
        """Start the next hand. `unseen_draws`: an observed hand whose draws were not all seen
        (the hand record's `"unseen_draws": true`; see `Hand`). `lead_stands`: the table let the
        hand's lead stand though later plays prove it broke the rule of who leads (`"lead_stands":
        true`, a house ruling: the lead is not judged)."""
        index = len(self.hands)
        if self.over:
            raise RecordError(
                f"the match was already won ({self._won_words()}): no hand follows",
                hand=index,
                code="match_won",
                side=self.winner,
            )
        previous = self.current
        if previous is not None:
            previous.settle_out()  # a seat that perhaps went out (unseen draws) did: nothing more was played
            if not previous.over:
                raise RecordError(
                    "the hand before has not ended: a new hand starts only after it", hand=index, code="hand_open"
                )
            self._require_bonus(len(self.hands) - 1, previous)
        try:
            if not isinstance(unseen_draws, bool):
                raise RecordError(f"unseen_draws is true or false, not {unseen_draws!r}")
            if not isinstance(lead_stands, bool):
                raise RecordError(f"lead_stands is true or false, not {lead_stands!r}")
            tiles = self._parse_deal(deal)
            rule = lead_rule(self.rules, previous, tiles, self.active)
            if leader is not None:
                if not isinstance(leader, int) or isinstance(leader, bool) or leader not in self.active:
                    raise RecordError(f"leader must be a seat still in the match, not {leader!r}", code="leader_field")
                if rule.seat is not None and leader != rule.seat:
                    raise RecordError(
                        f"the record says seat {leader} leads, but seat {rule.seat} does: {rule.why}",
                        code="lead_seat",
                        seat=leader,
                        leader=rule.seat,
                    )
            hand = Hand(
                self.rules,
                rule,
                leader=leader,
                deal=tiles,
                active=self.active,
                layout_rules=self.layout_rules,
                unseen_draws=unseen_draws,
                lead_stands=lead_stands,
            )
        except RecordError as error:
            raise error.at(hand=index) from None
        self.hands.append(hand)
        self.bonuses.append(None)
        self.hand_totals.append(list(self.totals))
        self.eliminated.append([])
        return hand

    def apply(self, event: object, index: int | None = None) -> Any:
        """Append one event to the current hand (GAME_RECORD.md); the match changes only if it is legal."""
        if not self.hands:
            raise RecordError("no hand has started", code="no_hand")
        hand = self.hands[-1]
        h = len(self.hands) - 1
        e = hand.events if index is None else index
        # Showing what was left after the winning hand (or the winning play, in mid-hand) is
        # harmless, and lets the table check the last hand; anything else is not.
        if self.winner is not None and not (type(event) is dict and event.get("type") in ("reveal", "pips")):
            raise RecordError(
                f"the match was already won ({self._won_words()})", hand=h, event=e, code="match_won", side=self.winner
            )
        try:
            result = hand.apply(event, e)
        except RecordError as error:
            raise error.at(hand=h) from None
        self._count(hand, h, e, result)
        return result

    def replay_events(self, events: list[Any]) -> None:
        """`apply` each event of the current hand in turn: a record's replay, the hot path.

        A plain event goes straight to its handler; anything unusual (not an object, an
        unknown type, an event after the match was won) takes `apply`, which says what is wrong.
        """
        hand = self.hands[-1]
        h = len(self.hands) - 1
        e = 0
        while e < len(events):
            if self.winner is None:
                e = hand.replay_plain_events(events, e)  # the bulk of a replay, in one loop
                if e == len(events):
                    break
            event = events[e]
            e += 1
            kind = event.get("type") if type(event) is dict else None
            handler = EVENT_HANDLERS.get(kind) if type(kind) is str else None
            index = e - 1
            if handler is None or self.winner is not None:
                self.apply(event, index)
                continue
            try:
                result = handler(hand, event, index)
            except RecordError as error:
                raise error.at(hand=h, event=index) from None
            hand.events = e
            if type(result) is dict and not result["points"] and hand.end is None:
                continue  # the usual play: nothing scored, nothing ended
            self._count(hand, h, index, result)

    def _count(self, hand: Hand, h: int, e: int, result: Any) -> None:
        """What an applied event does to the match: points, the target, the end-of-hand score."""
        if type(result) is dict:
            if result["points"]:
                self._add(self.rules.side_of(result["seat"]), result["points"], h, e)
        elif isinstance(result, Adjustment):
            self._add(result.side, result.points, h, e)
        if hand.end is not None or self.winner is not None:
            if self.winner is not None and hand.end is None:
                hand.stop_for_target()
            if hand.end in ("out", "blocked") and self.bonuses[h] is None and self.winner is None:
                self._try_bonus(h, hand)

    def close_hand(self, settle_out: bool = True) -> None:
        """The record says nothing more about the current hand (see `Hand.finish_record`)."""
        hand = self.current
        if hand is None:
            return
        h = len(self.hands) - 1
        hand.finish_record(settle_out)
        if hand.end in ("out", "blocked") and self.bonuses[h] is None and not self.over:
            self._try_bonus(h, hand)

    def mark(self) -> tuple[Any, ...]:
        """Where the match stands between hands, to come back to (`rewind`): a hand tried on it
        and taken back, without replaying the hands before it (`scorer.explicit`)."""
        return len(self.hands), list(self.totals), self.winner, self.won_at, self.active

    def rewind(self, mark: tuple[Any, ...]) -> None:
        """Take back every hand started since `mark` (`mark`), as if it had never been played."""
        count, totals, self.winner, self.won_at, self.active = mark
        del self.hands[count:], self.bonuses[count:], self.hand_totals[count:], self.eliminated[count:]
        self.totals = list(totals)

    def _add(self, side: int, points: int, hand: int, event: int | None) -> None:
        self.totals[side] += points
        self.hand_totals[hand] = list(self.totals)
        rules = self.rules
        if rules.variant.scoring == "points" and rules.end_at_target == "at_once" and not self.over:
            if self.totals[side] >= rules.target:
                self.winner = side
                self.won_at = (hand, event)

    def _try_bonus(self, h: int, hand: Hand) -> None:
        if hand.end == "blocked" and hand.missing_pips():
            return  # the winner of a blocked hand needs everybody's pips
        outcome = hand.outcome()
        assert outcome is not None
        try:
            bonus = self.rules.variant.bonus(outcome, self.rules)
        except PipsMissing:
            return
        self.bonuses[h] = bonus
        for side, points in enumerate(bonus):
            if points:
                self._add(side, points, h, None)
        self._end_of_hand(h)

    def _require_bonus(self, h: int, hand: Hand) -> None:
        if self.bonuses[h] is None and hand.end in ("out", "blocked"):
            missing = ", ".join(str(s) for s in hand.missing_pips())
            raise RecordError(
                f"hand {h} ended, but its score needs the tiles or pips of seat {missing}: "
                "reveal them before the next hand",
                hand=h + 1,
                code="pips_needed",
                seats=hand.missing_pips(),
            )

    def _end_of_hand(self, h: int) -> None:
        rules = self.rules
        if self.over:
            return
        if rules.variant.scoring == "penalty":
            self._eliminate(h)
            return
        if rules.end_at_target == "end_of_hand":
            best = max(self.totals)
            reached = best > rules.target if rules.variant.target_strict else best >= rules.target
            leaders = [side for side, total in enumerate(self.totals) if total == best]
            if reached and len(leaders) == 1:  # equal highest scores play on
                self.winner = leaders[0]
                self.won_at = (h, None)

    def _eliminate(self, h: int) -> None:
        # RULES.md, cross: at or over the target a player is out; when several reach it in
        # the same hand, the lower total stays (all those equal to it stay).
        reached = [s for s in self.active if self.totals[s] >= self.rules.target]
        if len(reached) > 1:
            lowest = min(self.totals[s] for s in reached)
            reached = [s for s in reached if self.totals[s] > lowest]
        if reached:
            self.eliminated[h] = reached
            self.active = tuple(s for s in self.active if s not in reached)
        if len(self.active) == 1:
            self.winner = self.active[0]
            self.won_at = (h, None)

    def _won_words(self) -> str:
        assert self.winner is not None and self.won_at is not None
        hand, event = self.won_at
        where = f"hand {hand}" + (f", event {event}" if event is not None else "")
        return f"{self.side_names()[self.winner]} won at {where}"

    def _parse_deal(self, deal: object) -> list[list[Tile]] | None:
        if deal is None:
            return None
        rules = self.rules
        if not isinstance(deal, list) or len(deal) != rules.players:
            raise RecordError(f"deal must list the tiles of each of the {rules.players} seats")
        active, size = self.active, rules.hand_size
        everyone = len(active) == rules.players
        tile_named = TILE_BY_NAME.__getitem__
        hands: list[list[Tile]] = []
        count = 0
        for seat, tiles in enumerate(deal):
            if not isinstance(tiles, list):
                raise RecordError(f"deal: seat {seat}'s tiles must be a list")
            if len(tiles) != size and (everyone or seat in active or len(tiles) != 0):
                want = size if everyone or seat in active else 0
                raise RecordError(f"deal: seat {seat} must be dealt {want} tiles in {rules.name}, not {len(tiles)}")
            try:
                hand = list(map(tile_named, tiles))
            except (KeyError, TypeError):  # a tile written unusually, or not a tile: the long way
                hand = [_read_dealt(text)[0] for text in tiles]
            hands.append(hand)
            count += len(hand)
        if len(set().union(*hands)) != count:  # a tile dealt twice: find it, the long way
            seen: dict[Tile, int] = {}
            for seat, hand in enumerate(hands):
                for tile in hand:
                    if tile in seen:
                        where = "twice" if seen[tile] == seat else f"and to seat {seen[tile]}"
                        raise RecordError(f"deal: {tile} is dealt to seat {seat} {where}")
                    seen[tile] = seat
        if rules.variant.cross_rules:
            for seat in self.active:
                doubles = sum(1 for t in hands[seat] if t.is_double)
                if doubles >= 5:
                    raise RecordError(
                        f"deal: seat {seat} was dealt {doubles} doubles: with 5 or more the tiles are reshuffled (RULES.md, cross)"
                    )
        return hands

    # -- the answer -----------------------------------------------------------------------------

    def side_names(self) -> list[str]:
        if self.rules.variant.teams:  # partners: seats 0 and 2 against seats 1 and 3 (`Rules.seats_of`)
            return [" & ".join(self.players[side::2]) for side in range(2)]
        return list(self.players)

    def _cut_short(self, h: int) -> bool:
        """Whether the match was won at once by a play of hand `h` (GAME_RECORD.md: that hand has
        winner null and no bonus, even when the same play also took its player out)."""
        won = self.won_at
        return won is not None and won[0] == h and won[1] is not None and self.bonuses[h] is None

    def answer(self) -> dict[str, Any]:
        """The scorer's answer of GAME_RECORD.md (with a few extra fields a reader may ignore)."""
        return {
            "variant": self.rules.name,
            "sides": self.side_names(),
            "hands": [self.hand_answer(h) for h in range(len(self.hands))],
            "totals": list(self.totals),
            "winner": self.winner,
            "target": self.rules.target,
            "scoring": self.rules.variant.scoring,
        }

    def hand_answer(self, h: int) -> dict[str, Any]:
        """Hand `h`'s row of the answer (`answer`), alone."""
        hand = self.hands[h]
        row: dict[str, Any] = {
            "leader": hand.leader,
            "plays": hand.plays,
            "winner": hand.winner() if hand.end in ("out", "blocked") and not self._cut_short(h) else None,
            "bonus": self.bonuses[h],
            "totals": self.hand_totals[h],
            "end": hand.end,
            "pips": list(hand.pips),
        }
        if hand.inferred_passes:
            row["inferred_passes"] = hand.inferred_passes
        if hand.inferred_draws:
            row["inferred_draws"] = hand.inferred_draws
        if hand.maybe_out is not None:
            row["maybe_out"] = hand.maybe_out[0]  # played its last counted tile; out unless play goes on
        if hand.adjustments:
            row["adjustments"] = [
                {"event": a.event, "side": a.side, "points": a.points, "reason": a.reason} for a in hand.adjustments
            ]
        missing = hand.missing_pips() if self.bonuses[h] is None and not self.over else []
        if missing:
            row["awaiting_pips"] = missing
        if self.eliminated[h]:
            row["eliminated"] = self.eliminated[h]
        if hand.end is None:
            row["turn"] = hand.turn
            row["open_ends"] = hand.layout.open_ends()
        return row


def _given(part: dict[str, Any], name: str, default: Any) -> Any:
    """`part[name]`, or `default` where it is left out or null (GAME_RECORD.md; `scorer.schema`)."""
    value = part.get(name)
    return default if value is None else value


def _read_dealt(text: object) -> tuple[Tile, tuple[int, int]]:
    try:
        return read_tile(text)
    except ValueError as error:
        raise RecordError(f"deal: {error}") from None


def score_record(record: object) -> dict[str, Any]:
    """Replay a match record and give the scorer's answer (GAME_RECORD.md)."""
    return Match.from_record(record).answer()
