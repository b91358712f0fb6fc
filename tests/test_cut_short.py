"""Issue 36, defect 9: a hand cut short because the match ended in it has winner null
(GAME_RECORD.md), even when the play that reached the target also took its player out."""

from __future__ import annotations

from scorer import score_record
from tests.support.records import hand, pass_, play, record

#: Ana plays all seven tiles while the others pass; her last tile (0-6) scores 5 and goes out.
OUT_AND_TARGET = [play(0, "6-6")]
for tile, end in (
    ("4-6", "west"),
    ("0-4", "west"),
    ("1-6", "east"),
    ("1-1", "east"),
    ("1-5", "east"),
    ("0-6", "north"),
):
    OUT_AND_TARGET += [pass_(1), pass_(2), pass_(3), play(0, tile, end)]


def test_the_play_that_goes_out_and_reaches_the_target_leaves_the_hand_without_winner():
    answer = score_record(record("partners", hand(*OUT_AND_TARGET), options={"target": 10}))
    first = answer["hands"][0]
    assert answer["winner"] == 0 and answer["totals"] == [10, 0]
    assert first["end"] == "out"
    assert (first["winner"], first["bonus"]) == (None, None)


def test_the_same_hand_under_a_higher_target_has_its_winner_and_bonus_waits_for_pips():
    first = score_record(record("partners", hand(*OUT_AND_TARGET), options={"target": 250}))["hands"][0]
    assert first["end"] == "out" and first["winner"] == 0
