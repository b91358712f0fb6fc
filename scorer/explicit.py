"""A record any reader of GAME_RECORD.md scores as we do: the draws a camera did not see, written out.

A camera follows the plays but not every draw, so the hands it follows say `"unseen_draws": true`
(a field of ours, `scorer.hand`): their tile counts are only the least each seat holds, and the
scorer infers the draws the record implies. A reader that knows only GAME_RECORD.md ignores that
field, and then refuses the record ("a play after the end of the hand") or scores it otherwise.
So the records we hand out (a download, an export, `spinner watch`'s record) are made explicit
first (`explicit_record`): each such hand is written with those draws as ordinary `draw` events
with a `count`, and without the field:

- a seat that played past its counted tiles drew one unseen before that play (`Hand._went_on`):
  `draw` 1 just before it, or, where the tile came from the rest of the boneyard a pass had
  emptied, before the seat's last play before that pass;
- a seat that passed while the boneyard may have held tiles had drawn the rest first
  (`Hand._record_pass`): a `draw` of what is left there, and the pass written out where it was
  only inferred from a later seat's play;
- a seat that showed more tiles at the end than it was counted (`reveal`), or more pips than its
  counted tiles can hold (`pips`), had drawn them unseen: a `draw` before its last play.

Each seat's draws are placed as late as that allows; where the strict scorer then refuses the
seat (a tile it revealed fitted when it drew, so it could have played), earlier placements are
tried, up to `TRIES` for the hand, its seats all together.

Then the hand is replayed by the strict scorer (no `unseen_draws`) and its answer compared with
the one the scorer gave the camera's hand (plays, counts, points, end, winner, bonus, totals: all
but the events' indexes, which the inserted draws move). Where they differ, or the strict scorer
refuses the hand, no explicit record was found: the hand is handed out as it was, still saying
`"unseen_draws": true` (listed in `Explicit.kept_open`), since a record written otherwise would be
refused by a strict reader or scored differently. A reader that ignores the field cannot score
such a hand as we do; nothing written without it could say what the table did.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .errors import RecordError
from .hand import Hand
from .match import Match
from .tiles import FULL_SET


@dataclass
class Explicit:
    """A record made explicit, and where each event of the record it came from now stands."""

    record: dict[str, Any]
    #: per hand: the index in `record` of each event of the original hand (only for hands that changed)
    moved: dict[int, list[int]] = field(default_factory=dict)
    #: per changed hand: how many events it gained
    added: dict[int, int] = field(default_factory=dict)
    #: hands still saying `"unseen_draws": true`: no explicit record scores as they do
    kept_open: list[int] = field(default_factory=list)

    def where(self, hand: int, event: int) -> int:
        """The index in `record` of event `event` of hand `hand` of the original record (an index
        past its last event, such as the next event's, moves by as many events as were added)."""
        moved = self.moved.get(hand)
        if moved is None:
            return event
        if 0 <= event < len(moved):
            return moved[event]
        return event + self.added[hand]


def explicit_record(record: dict[str, Any]) -> Explicit:
    """`record` with every hand that says `"unseen_draws": true` written out (see the module), as far
    as the scorer accepts it. `record` is not changed; a record it refuses is given back as it is
    from the hand it refuses on."""
    hands = record.get("hands")
    if not isinstance(hands, list) or not any(isinstance(h, dict) and h.get("unseen_draws") is True for h in hands):
        return Explicit(copy.deepcopy(record))
    out = copy.deepcopy(record)
    done = Explicit(out)
    try:
        seen = Match.new(record.get("variant"), record.get("players"), record.get("options"))  # type: ignore[arg-type]
    except RecordError:
        done.kept_open = [h for h, hand in enumerate(hands) if isinstance(hand, dict) and hand.get("unseen_draws")]
        return done
    final: list[Any] = []
    strict = _Strict(record)
    for h, hand in enumerate(hands):
        unseen = isinstance(hand, dict) and hand.get("unseen_draws") is True
        try:
            plan = _plan(seen, hand, h) if unseen else None
            if not unseen:
                _replay_hand(seen, hand, h)
        except RecordError:
            # the record breaks a rule here: the rest is handed out as it is
            done.kept_open += [
                k for k in range(h, len(hands)) if isinstance(hands[k], dict) and hands[k].get("unseen_draws")
            ]
            break
        written = _written(strict, final, hand, plan, seen, h) if plan is not None else None
        if written is None:
            final.append(out["hands"][h])
            if unseen:
                done.kept_open.append(h)
            continue
        new_hand, moved = written
        out["hands"][h] = new_hand
        final.append(new_hand)
        done.moved[h] = moved
        done.added[h] = len(new_hand["events"]) - len(moved)
    return done


# -- reading the camera's hand ---------------------------------------------------------------------


@dataclass
class _Plan:
    """What a hand with unseen draws implies, as events to write before some of its events."""

    events: list[Any]
    #: before original event j: seats that drew the rest of the boneyard there (and pass, where
    #: only inferred), in order
    rest: dict[int, list[tuple[int, bool]]] = field(default_factory=dict)
    #: each seat's plays but the lead (original events, in order): where it may have drawn unseen
    plays: dict[int, list[int]] = field(default_factory=dict)
    #: each seat's tiles drawn unseen, each as the last of its plays it was drawn by (the play it
    #: could not have made without it, or the last before the pass that emptied the boneyard)
    needs: dict[int, list[int]] = field(default_factory=dict)
    #: a tile drawn unseen that no play of its seat can have been drawn by: nothing can be written
    impossible: bool = False

    def need(self, seat: int, by: int | None, count: int = 1) -> None:
        """`count` tiles drawn unseen by `seat` before its play at event `by` or an earlier one."""
        if by is None:
            self.impossible = True
        else:
            self.needs.setdefault(seat, []).extend([by] * count)

    def last_play(self, seat: int, before: int | None = None) -> int | None:
        """The seat's last play but the lead (before event `before`, if given), or None."""
        return next((e for e in reversed(self.plays.get(seat, [])) if before is None or e < before), None)

    def latest(self) -> dict[int, list[int]]:
        """Each seat's draws as late as its needs allow (`placements`' first)."""
        return {seat: next(placements(self.plays[seat], needs)) for seat, needs in self.needs.items()}


def placements(plays: list[int], needs: list[int]) -> Any:
    """Each way of drawing `len(needs)` tiles before the plays `plays` (how many before each) with
    every tile drawn by its need, the latest first: those a need does not hold back go to the last
    play."""
    due = [sum(1 for n in needs if n <= play) for play in plays]  # drawn by each play, at least

    def before(i: int, left: int) -> Any:  # `left` tiles to draw before the plays 0..i
        if i == 0:
            yield [left]
            return
        for here in range(left - due[i - 1], -1, -1):
            for rest in before(i - 1, left - here):
                yield [*rest, here]

    if plays and len(needs) >= due[-1]:
        yield from before(len(plays) - 1, len(needs))


class _Strict:
    """The strict scorer's match of the hands handed out so far, kept from one hand to the next and
    grown by each hand once, as a hand needs it: the hands before a hand are not replayed for it
    (nor for each way of writing it: `Match.mark`, `Match.rewind`), so a record costs as many hand
    replays as it has hands, and the tries (`TRIES`), not the square of its hands."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.match: Match | None = None
        self.applied = 0  # how many hands of those handed out `match` has
        self.refused = False

    def after(self, final: list[Any]) -> Match | None:
        """The match of the record with the hands `final` (those handed out so far), as
        `Match.from_record` gives it; None where the strict scorer refuses them."""
        if self.refused:
            return None
        try:
            if self.match is None:
                self.match = Match.from_record({**self.record, "hands": []})
            while self.applied < len(final):
                h = self.applied
                self.applied += 1
                self.match.apply_hand(final[h], h)
        except RecordError:
            self.refused, self.match = True, None
            return None
        return self.match


def _replay_hand(match: Match, hand: Any, h: int) -> None:
    if not isinstance(hand, dict):
        raise RecordError("a hand must be a JSON object", hand=h)
    match.start_hand(
        leader=hand.get("leader"),
        deal=hand.get("deal"),
        unseen_draws=hand.get("unseen_draws") is True,
        lead_stands=hand.get("lead_stands") is True,
    )
    for j, event in enumerate(hand.get("events") or []):
        match.apply(event, j)
    match.close_hand()


def _plan(match: Match, hand: dict[str, Any], h: int) -> _Plan:
    """Replay the camera's hand on `match` (it moves on past it) and note the draws it implies."""
    events = hand.get("events") or []
    if not isinstance(events, list):
        raise RecordError("events must be a list", hand=h)
    state = match.start_hand(
        leader=hand.get("leader"), deal=hand.get("deal"), unseen_draws=True, lead_stands=hand.get("lead_stands") is True
    )
    plan = _Plan(list(events))
    led = False
    emptied: int | None = None  # the event whose pass took the rest of the boneyard, if one did
    owner: int | None = None  # the seat that took it
    for j, event in enumerate(events):
        maybe_out, boneyard, pool, counts = state.maybe_out, state.boneyard, state.unseen, list(state.counts)
        known = len(state.inferred_draws)
        match.apply(event, j)
        for inferred in state.inferred_draws[known:]:
            seat = inferred["seat"]
            if inferred.get("at_most"):  # a pass with tiles perhaps left: it drew them first
                emptied, owner = j, seat
                said = event.get("type") == "pass" and event.get("seat") == seat
                plan.rest.setdefault(j, []).append((seat, not said))
            elif maybe_out is not None and boneyard > 0:  # it had drawn one more by its last counted play
                plan.need(seat, maybe_out[1])
            else:  # one of the tiles the pass at `emptied` took: drawn before that pass
                plan.need(seat, plan.last_play(seat, emptied))
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "play" and state.plays and state.plays[-1]["event"] == j:
            if led:  # (nothing is drawn before the lead)
                plan.plays.setdefault(state.plays[-1]["seat"], []).append(j)
            led = True
        elif kind in ("reveal", "pips"):
            seat = event["seat"]
            extra = _shown_extra(state, event, counts[seat], pool, boneyard)
            if extra and seat != owner:  # (the seat that took the rest of the boneyard holds it)
                from_pool = min(extra, pool)
                plan.need(seat, plan.last_play(seat, emptied), from_pool)
                plan.need(seat, plan.last_play(seat), extra - from_pool)
    match.close_hand()
    return plan


def _shown_extra(state: Hand, event: dict[str, Any], counted: int, pool: int, boneyard: int) -> int:
    """How many tiles more than counted the seat showed it held at the end (0: none)."""
    if event["type"] == "reveal":
        return max(0, len(event.get("tiles") or []) - counted)
    # pips: the fewest more tiles whose pips, with the counted ones, can reach the total
    value = event.get("pips")
    if not isinstance(value, int) or counted == 0 and state.out_seat == event.get("seat"):
        return 0
    unplayed = sorted((t.pips for t in FULL_SET if t not in state.on_table), reverse=True)
    for extra in range(pool + boneyard + 1):
        if sum(unplayed[: counted + extra]) >= value:
            return extra
    return 0


# -- writing it out --------------------------------------------------------------------------------

#: Ways of placing a hand's unseen draws tried, at most, after the latest is refused, its seats all
#: together: a revealed tile that fitted when a draw is placed says the draw came later
#: (`Hand._check_draws`). Each is a replay of the hand (about 0.2 ms): a hand's worst case measured
#: 0.05 s (it was 0.6 s with 1,000 for each seat). Of 1,750 simulated camera hands written out with
#: 1,000 for each seat (the most took 913), 1,742 still are; the other 8 are now kept open.
TRIES = 256


def _written(
    strict: _Strict, final: list[Any], hand: dict[str, Any], plan: _Plan, seen: Match, h: int
) -> tuple[dict[str, Any], list[int]] | None:
    """The hand with its draws written out, and where each of its events went; None where the
    strict scorer refuses it or scores it otherwise than the camera's hand (`seen`), however the
    draws are placed (as late as they may be first, then, for the seat the strict scorer names,
    earlier, up to `TRIES` ways for the hand)."""
    if plan.impossible:
        return None
    earlier = strict.after(final)
    if earlier is None:
        return None
    placed = plan.latest()
    tried: set[int] = set()
    tries = 0
    while True:
        written = _write(earlier, hand, plan, placed)
        if not isinstance(written, RecordError):
            scored, events, moved = written
            if scored != _scored(seen, h):
                return None
            out = {k: v for k, v in hand.items() if k != "unseen_draws"}
            out["events"] = events
            return out, moved
        seat = written.params.get("seat")
        if seat not in placed or seat in tried:
            return None
        tried.add(seat)
        ways = placements(plan.plays[seat], plan.needs[seat])
        next(ways)  # the latest: the one just refused (a seat is tried once, from its latest)
        for other in ways:
            if tries == TRIES:
                return None
            tries += 1
            attempt = {**placed, seat: other}
            written = _write(earlier, hand, plan, attempt)
            if isinstance(written, RecordError) and written.params.get("seat") == seat:
                continue
            placed = attempt
            break
        else:
            return None


def _write(
    strict: Match, hand: dict[str, Any], plan: _Plan, placed: dict[int, list[int]]
) -> tuple[Any, list[Any], list[int]] | RecordError:
    """The hand written with each seat's unseen draws `placed` (how many before each of its plays),
    replayed by the strict scorer on the match `strict` of the hands before it (and taken back
    after): what it scored (`_scored`), the events, where each original event went; or the strict
    scorer's refusal."""
    draws: dict[int, dict[int, int]] = {}
    for seat, counts in placed.items():
        for play, count in zip(plan.plays[seat], counts, strict=True):
            if count:
                draws.setdefault(play, {})[seat] = count
    events: list[Any] = []
    moved: list[int] = []

    def add(event: dict[str, Any]) -> None:
        strict.apply(event, len(events))
        events.append(event)

    mark = strict.mark()
    try:
        state = strict.start_hand(
            leader=hand.get("leader"), deal=hand.get("deal"), lead_stands=hand.get("lead_stands") is True
        )
        for j, event in enumerate(plan.events):
            for seat, passes in plan.rest.get(j, []):
                if state.boneyard:
                    add({"type": "draw", "seat": seat, "count": state.boneyard})
                if passes:
                    add({"type": "pass", "seat": seat})
            for seat, count in draws.get(j, {}).items():
                while state.turn is not None and state.turn != seat:  # seats the play shows passed
                    add({"type": "pass", "seat": state.turn})
                add({"type": "draw", "seat": seat, "count": count})
            moved.append(len(events))
            add(event)
        strict.close_hand()
        return _scored(strict, len(strict.hands) - 1), events, moved
    except RecordError as error:
        return error
    finally:
        strict.rewind(mark)


def _scored(match: Match, h: int) -> Any:
    """What the answer says of hand `h` and the match, but for the events' indexes and what the
    scorer inferred (which the written record says itself)."""
    row = match.hand_answer(h)
    for name in ("inferred_passes", "inferred_draws", "maybe_out"):
        row.pop(name, None)
    row["plays"] = [{k: v for k, v in play.items() if k != "event"} for play in row["plays"]]
    if "adjustments" in row:
        row["adjustments"] = [{k: v for k, v in a.items() if k != "event"} for a in row["adjustments"]]
    return row, list(match.totals), match.winner
