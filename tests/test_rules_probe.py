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


def test_a_draw_names_its_tile_or_its_count_never_both_nor_neither():
    # GAME_RECORD.md: a draw is "a known tile (`tile`) or ... a `count`".
    both = refused(record("draw", hand(play(0, "6-6"), draw(1, "5-2", count=1)), players=2))
    assert (both.hand, both.event, both.code) == (0, 1, "draw_both")
    neither = refused(record("draw", hand(play(0, "6-6"), {"type": "draw", "seat": 1}), players=2))
    assert (neither.hand, neither.event, neither.code) == (0, 1, "draw_neither")
    assert "hand 0, event 1: seat 1's draw names neither its 'tile'" in str(neither)


def test_a_refusal_counts_tiles_in_the_singular_too():
    error = refused(record("draw", hand(play(0, "6-6"), draw(1, count=14), draw(1, count=1)), players=2))
    assert "seat 1 drew 1 tile, but the boneyard holds 0" in str(error)
    one_left = [play(0, "6-6"), draw(1, count=13), pass_(1)]
    assert "seat 1 passed with 1 tile in the boneyard" in str(refused(record("draw", hand(*one_left), players=2)))


# cross, 3 players, observed: the lead 0-0, then four plays round it (RULES.md: four sides first).
CROSS_ROUND_THE_LEAD = [
    play(0, "0-0"),
    play(1, "0-1", "west"),
    play(2, "0-2", "east"),
    play(0, "0-3", "north"),
    play(1, "0-4", "south"),
]


def test_cross_a_higher_double_held_from_the_deal_proves_the_first_lead_wrong():
    # RULES.md, cross: "First hand: the holder of the highest double leads it". Cruz never drew,
    # so Cruz held 3-3 at the deal: 0-0 was not the highest double dealt.
    error = refused(record("cross", hand(*CROSS_ROUND_THE_LEAD, play(2, "3-3", "north")), players=3))
    assert (error.hand, error.event, error.code) == (0, 5, "lead_not_highest")
    assert error.params == {"seat": 2, "tile": "3-3", "lead": "0-0", "leader": 0, "at": 0}
    said = str(error)
    assert "seat 2 played 3-3, which it did not draw, so it held 3-3 when seat 0 led 0-0 at event 0" in said
    assert "the holder of the highest double leads it in the first hand (RULES.md, cross)" in said
    assert said.endswith('deal the hand again, or let its lead stand (the hand\'s "lead_stands": true)')
    # the leader itself, holding a higher double all along, proves it too
    own = [*CROSS_ROUND_THE_LEAD, draw(2, count=1), play(2, "4-4", "south"), play(0, "3-3", "north")]
    error = refused(record("cross", hand(*own), players=3))
    assert (error.event, error.code, error.params["seat"]) == (7, "lead_not_highest", 0)


def test_cross_a_higher_double_that_may_have_been_drawn_proves_nothing():
    unseen = [*CROSS_ROUND_THE_LEAD, draw(2, count=1), play(2, "3-3", "north")]
    assert score_record(record("cross", hand(*unseen), players=3))["hands"][0]["plays"][-1]["tile"] == "3-3"
    seen = [*CROSS_ROUND_THE_LEAD, draw(2, "3-3"), play(2, "3-3", "north")]
    assert score_record(record("cross", hand(*seen), players=3))["hands"][0]["plays"][-1]["tile"] == "3-3"
    # a lower double proves nothing about the lead
    lower = [play(0, "3-3"), play(1, "3-1", "west"), play(2, "3-2", "east"), play(0, "3-0", "north")]
    lower += [play(1, "3-4", "south"), play(2, "0-0", "north")]
    assert score_record(record("cross", hand(*lower), players=3))["hands"][0]["plays"][-1]["tile"] == "0-0"


def test_cross_a_reveal_proves_the_first_lead_wrong_too():
    # Ben draws the boneyard (7) and passes; everybody passes: blocked. Cruz never drew and shows 6-6.
    events = [play(0, "5-5"), draw(1, count=7), pass_(1), pass_(2), pass_(0)]
    events += [reveal(2, "6-6", "1-2", "1-3", "1-4", "2-3", "2-4", "3-4")]
    error = refused(record("cross", hand(*events), players=3))
    assert (error.event, error.code, error.params["tile"]) == (5, "lead_not_highest", "6-6")
    assert "seat 2 revealed 6-6, which it did not draw" in str(error)


def _cross_won_by_ana() -> dict:
    # Ana leads 6-6; Ben draws the boneyard and passes; all pass: blocked, Ana has the fewest pips.
    return hand(play(0, "6-6"), draw(1, count=7), pass_(1), pass_(2), pass_(0), pips(0, 20), pips(1, 80), pips(2, 56))


def test_cross_the_last_winner_holding_a_double_proves_another_seats_lead_wrong():
    # RULES.md, cross: "the previous winner leads any double from hand; with none, the duty passes
    # to the next seat". Ana won hand 1 and, never drawing in hand 2, plays 0-0 held from the deal.
    second = [play(1, "5-5"), play(2, "0-5", "west"), play(0, "1-5", "north"), play(1, "2-5", "south")]
    second += [play(2, "3-5", "east"), play(0, "0-0", "west")]
    error = refused(record("cross", _cross_won_by_ana(), hand(*second), players=3))
    assert (error.hand, error.event, error.code) == (1, 5, "lead_duty")
    assert error.params == {"seat": 0, "tile": "0-0", "lead": "5-5", "leader": 1, "duty": 0, "at": 0}
    assert "seat 0, the last hand's winner, leads a double from hand" in str(error)
    assert str(error).endswith('let its lead stand (the hand\'s "lead_stands": true)')
    # Ana drew before playing it: it may be the tile drawn, so nothing is proved
    drew = [*second[:5], draw(0, count=1), second[5]]
    assert score_record(record("cross", _cross_won_by_ana(), hand(*drew), players=3))["hands"][1]["leader"] == 1
    # the winner who led proves nothing by playing another double
    own = [play(0, "5-5"), play(1, "0-5", "west"), play(2, "1-5", "east"), play(0, "2-5", "north")]
    own += [play(1, "3-5", "south"), play(2, "0-0", "west")]
    assert score_record(record("cross", _cross_won_by_ana(), hand(*own), players=3))["hands"][1]["leader"] == 0


def test_cross_a_seat_the_duty_passed_over_holding_a_double_proves_the_lead_wrong():
    # Ana won; Cruz led, so the duty passed from Ana and from Ben; Ben shows a double he never drew.
    second = [play(2, "5-5"), play(0, "0-5", "west"), play(1, "1-5", "east"), play(2, "2-5", "north")]
    second += [play(0, "3-5", "south"), play(1, "1-1", "east")]
    error = refused(record("cross", _cross_won_by_ana(), hand(*second), players=3))
    assert (error.hand, error.event, error.code, error.params["duty"]) == (1, 5, "lead_duty", 0)
    assert "the duty passed on to seat 1 before seat 2" in str(error)


def test_cross_a_lead_the_table_let_stand_is_not_judged():
    # A house ruling on the hand ("lead_stands": true): the table played on after a wrong lead.
    events = [*CROSS_ROUND_THE_LEAD, play(2, "3-3", "north")]
    ruled = {**hand(*events), "lead_stands": True}
    assert score_record(record("cross", ruled, players=3))["hands"][0]["plays"][-1]["tile"] == "3-3"
    second = [play(1, "5-5"), play(2, "0-5", "west"), play(0, "1-5", "north"), play(1, "2-5", "south")]
    second += [play(2, "3-5", "east"), play(0, "0-0", "west")]
    duty = record("cross", _cross_won_by_ana(), {**hand(*second), "lead_stands": True}, players=3)
    assert score_record(duty)["hands"][1]["plays"][-1]["tile"] == "0-0"
    # only that hand: the next one's lead is judged again
    assert refused(record("cross", {**hand(*events), "lead_stands": False}, players=3)).code == "lead_not_highest"
    assert "lead_stands is true or false" in str(
        refused(record("cross", {**hand(*events), "lead_stands": "yes"}, players=3))
    )


def test_a_reveal_after_the_match_was_won_in_mid_hand_is_accepted_and_checked():
    # docs/scorer.md: reveals after the hand that won the match are accepted (they change no score).
    plays = [play(0, "6-6"), play(1, "3-6", "west"), play(2, "4-6", "east"), play(3, "4-4", "east")]
    plays += [play(0, "2-3", "west"), play(1, "3-4", "east")]
    won = record("partners", hand(*plays), options={"target": 20})
    before = score_record(won)
    assert before["winner"] == 1 and before["hands"][0]["end"] == "target"
    won["hands"][0]["events"] += [reveal(2, "0-0", "0-1", "0-2", "1-1", "1-2", "2-2"), pips(3, 30)]
    after = score_record(won)
    assert (after["totals"], after["winner"]) == (before["totals"], 1)
    assert (after["hands"][0]["bonus"], after["hands"][0]["winner"]) == (None, None)
    assert after["hands"][0]["pips"][2:] == [12, 30]
    won["hands"][0]["events"].append(reveal(0, "6-6"))  # on the table: still refused
    assert refused(won).code == "on_table"
    won["hands"][0]["events"][-1] = play(2, "2-2", "west")  # any other event is not
    assert refused(won).code == "match_won"
