"""Rule points a probe read off RULES.md and the engine had missed: each case is the probe's own."""

from __future__ import annotations

import pytest

from scorer import RecordError, score_record
from tests.support.records import draw, hand, pass_, pips, play, record, reveal


def refused(rec) -> RecordError:
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    return caught.value


def test_all_fives_tied_blocked_hand_takes_nobodys_pips():
    # RULES.md, Who wins a hand: "Equal lowest totals: no winner and no end-of-hand score".
    tied = record(
        "all-fives",
        hand(play(0, "6-6"), draw(1, count=7), pass_(1), pass_(2), pass_(0), pips(0, 40), pips(1, 76), pips(2, 40)),
        players=3,
    )
    last = score_record(tied)["hands"][0]
    assert (last["winner"], last["bonus"], last["totals"]) == (None, [0, 0, 0], [0, 0, 0])


def test_all_fives_blocked_hand_with_one_lowest_still_takes_everyones_pips():
    won = record(
        "all-fives",
        hand(play(0, "6-6"), draw(1, count=7), pass_(1), pass_(2), pass_(0), pips(0, 39), pips(1, 76), pips(2, 41)),
        players=3,
    )
    last = score_record(won)["hands"][0]
    assert (last["winner"], last["bonus"]) == (0, [-40, -75, -40])


def test_a_draw_while_holding_a_tile_drawn_in_sight_that_fits_is_refused():
    rec = record(
        "draw",
        hand(
            play(0, "6-6"),
            draw(1, "5-2"),
            draw(1, "6-1"),
            play(1, "6-1", "east"),
            play(0, "1-5", "east"),
            draw(1, count=1),
        ),
        players=2,
    )
    error = refused(rec)
    assert (error.event, error.code, error.params["tile"]) == (5, "draw_can_play", "2-5")


def test_a_draw_the_revealed_tiles_show_was_not_forced_is_refused():
    # Seat 1 drew one tile and played it (so the drawn tile was 6-1); it revealed 5-2, which it
    # therefore held at the draw, when the east end showed 5.
    events = [
        play(0, "6-5"),
        draw(1, count=1),
        play(1, "6-1", "west"),
        draw(0, count=13),
        play(0, "5-0", "east"),
        pass_(1),
        pass_(0),
        reveal(1, "5-2", "2-2", "2-3", "3-3", "4-4", "2-4", "3-4"),
        pips(0, 102),
    ]
    error = refused(record("draw", hand(*events, leader=0), players=2))
    assert (error.event, error.code, error.params["at"], error.params["tile"]) == (7, "drew_holding", 1, "2-5")


def test_a_revealed_tile_that_may_have_been_drawn_later_is_no_proof():
    # Seat 1 drew two tiles and played the second: the first of them may be the 5-2 it revealed.
    events = [
        play(0, "6-5"),
        draw(1, count=2),
        play(1, "6-1", "west"),
        draw(2, count=11),
        play(2, "5-0", "east"),
        pass_(0),
        pass_(1),
        pass_(2),
        reveal(1, "5-2", "2-2", "2-3", "3-3", "4-4", "2-4"),
        pips(0, 20),
        pips(2, 89),
    ]
    last = score_record(record("draw", hand(*events, leader=0), players=3))["hands"][0]
    assert last["pips"] == [20, 36, 89]


def test_cross_with_four_players_must_lead_the_six_six():
    # 4 x 7 = 28: every tile is dealt, so the highest double is 6-6 whoever holds it.
    error = refused(record("cross", hand(play(0, "5-5"))))
    assert (error.code, error.params["lead"]) == ("lead_tile", "6-6")
    assert score_record(record("cross", hand(play(2, "6-6"))))["hands"][0]["plays"][0]["tile"] == "6-6"
    # with a boneyard the holder of a higher double may not be known: any double may lead
    assert score_record(record("cross", hand(play(0, "5-5")), players=3))["hands"][0]["plays"][0]["tile"] == "5-5"


@pytest.mark.parametrize("options", [[1], 1, True, "x"])
def test_options_not_an_object_are_refused(options):
    assert "options must be a JSON object" in str(refused(record("partners", options=options)))


@pytest.mark.parametrize("variant", [["x"], {"a": 1}, 3])
def test_a_variant_not_a_name_is_refused(variant):
    rec = record("partners")
    rec["variant"] = variant
    assert "unknown variant" in str(refused(rec))


@pytest.mark.parametrize("kind", [{"a": 1}, [1], None])
def test_an_event_type_not_a_name_is_refused_naming_the_event(kind):
    error = refused(record("partners", hand({"type": kind, "seat": 0})))
    assert (error.hand, error.event, error.code) == (0, 0, "event_type")


def test_a_draw_with_a_tile_and_a_count_is_refused():
    error = refused(
        record("draw", hand(play(0, "6-6"), {"type": "draw", "seat": 1, "tile": "5-2", "count": 3}), players=2)
    )
    assert (error.event, error.code) == (1, "draw_both")


@pytest.mark.parametrize("text", ["６-６", "6-²"])
def test_tiles_are_written_in_ascii_digits(text):
    assert refused(record("draw", hand(play(0, text)), players=2)).code == "tile_text"
