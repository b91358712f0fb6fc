"""A table's match read for the tournament: the target, and the 30-minute bell (the hand in play finishes)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from scorer.tournament import BellAction, Pairing
from webapp.tournament.calls import call, counting_hands

START = datetime(2026, 5, 12, 19, 0, tzinfo=UTC)
BEFORE, AFTER = START + timedelta(minutes=20), START + timedelta(minutes=31)
TABLE = Pairing(2, "Los Primos", "Doble Seis")


def over(a: int, b: int) -> dict:
    return {"plays": [{}], "end": "out", "totals": [a, b]}


def in_play(a: int, b: int) -> dict:
    return {"plays": [{}], "end": None, "totals": [a, b]}


def answer(*hands: dict, winner: int | None = None) -> dict:
    totals = hands[-1]["totals"] if hands else [0, 0]
    return {"hands": list(hands), "totals": totals, "winner": winner}


def test_before_the_bell_the_table_plays_on_and_the_target_ends_it():
    assert call(TABLE, answer(over(30, 0), in_play(30, 0)), START, BEFORE, None).action is BellAction.PLAY_ON
    done = call(TABLE, answer(over(30, 0), over(30, 104), winner=1), START, BEFORE, None).result
    assert (done.winner, done.points_a, done.points_b, done.ended.value) == ("Doble Seis", 30, 104, "target")
    assert call(TABLE, answer(over(30, 0), over(30, 104), winner=1), START, BEFORE, None).hands == 2


def test_at_the_bell_the_hand_in_play_is_finished_then_the_higher_score_wins():
    at_bell = answer(over(40, 25), in_play(40, 25))
    hands = counting_hands(at_bell)
    assert hands == 2
    waiting = call(TABLE, at_bell, START, AFTER, hands)
    assert waiting.result is None and waiting.action is BellAction.FINISH_HAND
    later = answer(over(40, 25), over(40, 61), in_play(40, 61))  # a third hand started by mistake
    done = call(TABLE, later, START, AFTER, hands).result
    assert (done.winner, done.points_a, done.points_b, done.ended.value) == ("Doble Seis", 40, 61, "bell")
    later_call = call(TABLE, later, START, AFTER, hands)
    assert later_call.hands == 2  # the two hands count; the third was started after the deciding one


def test_no_hand_in_play_at_the_bell_decides_at_once():
    at_bell = answer(over(40, 25), {"plays": [], "end": None, "totals": [40, 25]})  # shuffled, nothing played
    assert counting_hands(at_bell) == 1
    done = call(TABLE, at_bell, START, AFTER, 1).result
    assert done.winner == "Los Primos" and (done.points_a, done.points_b) == (40, 25)


def test_equal_at_the_bell_one_more_hand_and_again_while_equal():
    equal = answer(over(30, 30))
    assert call(TABLE, equal, START, AFTER, 1).action is BellAction.EXTRA_HAND
    still = answer(over(30, 30), over(30, 30))  # a tied blocked hand scores nothing
    assert call(TABLE, still, START, AFTER, 1).action is BellAction.EXTRA_HAND
    done = call(TABLE, answer(over(30, 30), over(30, 30), over(42, 30)), START, AFTER, 1).result
    assert done.winner == "Los Primos" and done.ended.value == "bell"
    assert call(TABLE, answer(over(30, 30), over(30, 30), over(42, 30)), START, AFTER, 1).hands == 3


def test_the_hand_after_the_bell_may_still_reach_the_target():
    finishing = answer(over(90, 25), over(104, 25), winner=0)
    done = call(TABLE, finishing, START, AFTER, 2).result
    assert done.ended.value == "target" and done.points_a == 104


def test_a_hand_waiting_for_the_losers_pips_is_still_in_play():
    waiting = answer(over(40, 25), {"plays": [{}], "end": "out", "awaiting_pips": [1, 3], "totals": [40, 25]})
    assert counting_hands(waiting) == 2
    assert call(TABLE, waiting, START, AFTER, 2).action is BellAction.FINISH_HAND
