"""What a table's match says for the tournament: a result, or what the table does now.

Pure functions over the scorer's answer for the table's match (`Match.answer()`); the
30-minute rule itself is the scorer's `bell()`. Side 0 of the match is the pairing's first
team (seats 0 and 2), side 1 the second (seats 1 and 3).

"The hand in play" at the bell is one with a tile on the table and no end-of-hand score yet
(a hand that is over but still waits for the losers' pips is in play: its score is not known).
A hand started but with no tile played has not begun. The hands that count are those over at
the bell and the one in play then; when they leave the scores equal, one more hand is played,
and again, as the scorer's `bell()` says. Hands played after the deciding one do not count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorer.tournament import TARGET, BellAction, Ending, MatchResult, Pairing, bell


@dataclass(frozen=True)
class Call:
    """The table now: `result` once the match is decided, else the bell's `action` and the score."""

    result: MatchResult | None
    action: BellAction | None
    points: tuple[int, int]
    words: str
    #: Once the match decided the result: how many of its hands count (up to the deciding one);
    #: a hand after them was started after the deciding one and does not count.
    hands: int | None = None


def _over(hand: dict[str, Any]) -> bool:
    return hand.get("end") is not None and not hand.get("awaiting_pips")


def _begun(hand: dict[str, Any]) -> bool:
    return bool(hand.get("plays")) or hand.get("end") is not None


def counting_hands(answer: dict[str, Any]) -> int:
    """Hands that count if the bell rings now: those over, and the one in play."""
    return sum(1 for h in answer["hands"] if _over(h) or _begun(h))


def _points(values: Any) -> tuple[int, int]:
    return (int(values[0]), int(values[1])) if values else (0, 0)


def _target(pairing: Pairing, answer: dict[str, Any]) -> Call:
    points = _points(answer["totals"])
    winner = pairing.team_a if answer["winner"] == 0 else pairing.team_b
    result = MatchResult(pairing.table, pairing.team_a, pairing.team_b, points[0], points[1], winner, Ending.TARGET)
    return Call(result, None, points, f"{winner} reached {TARGET}", len(answer["hands"]))


def call(
    pairing: Pairing, answer: dict[str, Any], round_start: datetime | None, now: datetime, bell_hands: int | None
) -> Call:
    """The table's result or state at `now`; `bell_hands` as fixed when the bell was first seen."""
    hands = answer["hands"]
    points = _points(answer["totals"])
    if round_start is None or bell_hands is None:
        if answer.get("winner") is not None:
            return _target(pairing, answer)
        return Call(None, BellAction.PLAY_ON, points, "playing")
    if not bell(round_start, now, hand_in_play=False, points=(0, 0)).rung:
        if answer.get("winner") is not None:
            return _target(pairing, answer)
        return Call(None, BellAction.PLAY_ON, points, "playing")
    k = bell_hands - 1
    while True:
        if k >= len(hands) or (k >= 0 and not _over(hands[k])):
            # The hand that decides is not over (or not started): the table plays on.
            if answer.get("winner") is not None and k == len(hands) - 1:
                return _target(pairing, answer)
            if k < bell_hands:
                rung = bell(round_start, now, hand_in_play=True, points=points)
                return Call(None, rung.action, points, "bell rung: finish the hand in play")
            return Call(None, BellAction.EXTRA_HAND, points, "equal at the bell: one more hand")
        at = _points(hands[k]["totals"]) if k >= 0 else (0, 0)
        if max(at) >= TARGET:
            return _target(pairing, answer)
        rung = bell(round_start, now, hand_in_play=False, points=at)
        if rung.action is BellAction.DECIDE:
            winner = pairing.team_a if rung.winner == 0 else pairing.team_b
            result = MatchResult(pairing.table, pairing.team_a, pairing.team_b, at[0], at[1], winner, Ending.BELL)
            return Call(result, None, at, f"{winner} led at the bell", k + 1)
        k += 1  # EXTRA_HAND: equal scores, the next hand decides
