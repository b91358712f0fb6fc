"""RULES.md "Turn", "Draw games" and the observed record of GAME_RECORD.md: who may do what, when."""

from __future__ import annotations

import pytest

from scorer import Match, RecordError, score_record
from tests.support.records import SIX_BLOCK_PLAYS, draw, hand, pass_, pips, play, record, reveal, six_block

TEAM0_LOW = {
    0: ["0-0", "0-1", "0-2", "0-4"],
    2: ["0-5", "1-1", "1-3", "1-4", "1-5"],
    1: ["2-2", "2-3", "2-4", "2-5"],
    3: ["3-3", "3-4", "3-5", "4-4", "5-5"],
}


def refused(rec) -> RecordError:
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    return caught.value


def test_a_play_by_a_later_seat_means_the_seats_between_passed():
    answer = score_record(record("partners-block", hand(play(0, "6-6"), play(2, "6-3", "east"))))
    assert answer["hands"][0]["inferred_passes"] == [{"event": 1, "seat": 1}]


def test_every_seat_passing_in_succession_blocks_the_hand():
    answer = score_record(six_block(TEAM0_LOW))
    first = answer["hands"][0]
    assert first["end"] == "blocked"
    assert first["pips"] == [7, 22, 22, 39]


def test_a_play_after_the_hand_is_blocked_is_refused():
    events = SIX_BLOCK_PLAYS + [pass_(2), pass_(3), pass_(0), pass_(1), play(2, "0-5", "east")]
    error = refused(record("partners-block", hand(*events)))
    assert (error.hand, error.event) == (0, 14)
    assert "after the end of the hand" in str(error)


def test_a_tile_cannot_be_played_twice():
    error = refused(record("partners-block", hand(play(0, "6-6"), play(1, "6-4", "east"), play(2, "4-6", "west"))))
    assert (error.hand, error.event) == (0, 2)
    assert "4-6 is already on the table (played at event 1)" in str(error)


def test_a_tile_that_fits_no_end_names_the_ends():
    error = refused(record("partners-block", hand(play(0, "6-6"), play(1, "1-2"))))
    assert "hand 0, event 1: 1-2 fits no open end (west shows 6, east shows 6)" == str(error)


def test_a_tile_that_fits_two_different_ends_must_name_one():
    rec = record("block", hand(play(0, "6-3"), play(1, "3-3", "east"), play(2, "6-1", "west"), play(3, "3-1")))
    error = refused(rec)
    assert "fits the west and east ends" in str(error)


def test_the_first_hand_is_led_with_six_six():
    error = refused(record("partners", hand(play(0, "5-5"))))
    assert "the lead must be 6-6 (the holder of 6-6 leads it in the first hand)" in str(error)


def test_the_lead_has_no_end():
    assert "the lead has no end" in str(refused(record("partners", hand(play(0, "6-6", "east")))))


def test_nobody_passes_before_the_lead():
    assert "before the lead" in str(refused(record("partners", hand(pass_(0)))))


#: Seat 0 holds the blanks and 6-6, seat 1 the ones (and 6-5), seat 2 the twos, seat 3 the rest.
SUITS_DEAL = [
    ["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
    ["6-5", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"],
    ["0-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"],
    ["3-4", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5"],
]


def test_a_full_information_pass_while_holding_a_fitting_tile_is_refused():
    deal = SUITS_DEAL
    error = refused(record("partners-block", hand(play(0, "6-6"), pass_(1), deal=deal)))
    assert (error.hand, error.event) == (0, 1)
    assert "seat 1 passed while holding 1-6, which fits the west end" in str(error)
    # The must-play holds for a pass the scorer infers, too.
    error = refused(record("partners-block", hand(play(0, "6-6"), play(2, "0-6", "east"), deal=deal)))
    assert "seat 1 must have passed" in str(error) and "1-6" in str(error)


def test_a_full_information_play_of_a_tile_not_held_is_refused():
    deal = SUITS_DEAL
    error = refused(record("partners-block", hand(play(0, "6-6"), play(1, "6-4", "east"), deal=deal)))
    assert "4-6 is in seat 3's hand" in str(error)


def test_the_deal_is_checked():
    error = refused(record("partners-block", hand(deal=[["6-6"] * 7, [], [], []])))
    assert "deal: seat 1 must be dealt 7 tiles in partners-block, not 0" in str(error)
    twice = [
        ["6-6", "6-6", "0-1", "0-2", "0-3", "0-4", "0-5"],
        ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "0-0"],
        ["2-2", "2-3", "2-4", "2-5", "2-6", "3-3", "3-4"],
        ["3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6"],
    ]
    assert "deal: 6-6 is dealt to seat 0 twice" in str(refused(record("partners-block", hand(deal=twice))))
    twice[0][1] = "0-0"
    twice[1][-1] = "0-1"
    assert "deal: 0-1 is dealt to seat 1 and to seat 0" in str(refused(record("partners-block", hand(deal=twice))))
    error = refused(record("block", hand(deal=[["6-6", "0-0"], ["6-6", "1-1"]]), players=2))
    assert "must be dealt 7 tiles" in str(error)


# -- draw games ------------------------------------------------------------------------------


def test_in_draw_games_a_player_who_cannot_play_draws_instead_of_passing():
    error = refused(record("draw", hand(play(0, "6-6"), pass_(1)), players=2))
    assert "seat 1 passed with 14 tiles in the boneyard" in str(error)
    # An inferred pass breaks the same rule.
    error = refused(record("draw", hand(play(0, "6-6"), play(0, "6-5", "east")), players=3))
    assert "seat 1 must have passed" in str(error) and "boneyard" in str(error)


def test_a_drawn_tile_that_fits_is_played_at_once():
    rec = record("draw", hand(play(0, "6-6"), draw(1, "1-2"), draw(1, "6-2"), pass_(1)), players=2)
    error = refused(rec)
    assert "seat 1 passed, but it drew 2-6, which fits, and must play it at once" in str(error)
    error = refused(record("draw", hand(play(0, "6-6"), draw(1, "6-2"), draw(1, "1-2")), players=2))
    assert "seat 1 drew 2-6, which fits, and must play it before drawing again" in str(error)
    ok = record("draw", hand(play(0, "6-6"), draw(1, "1-2"), draw(1, "6-2"), play(1, "6-2", "east")), players=2)
    assert score_record(ok)["hands"][0]["plays"][-1]["tile"] == "6-2"


def test_unseen_draws_are_counted_and_the_boneyard_runs_out():
    # draw with 2 players: 7 each, 14 in the boneyard.
    rec = record("draw", hand(play(0, "6-6"), draw(1, count=14), draw(1, count=1)), players=2)
    error = refused(rec)
    assert "seat 1 drew 1 tile, but the boneyard holds 0" in str(error)


def test_block_sets_the_leftovers_aside_and_partners_has_no_boneyard():
    assert "the tiles left over are set aside" in str(
        refused(record("block", hand(play(0, "6-6"), draw(1)), players=2))
    )
    assert "there is no boneyard" in str(refused(record("partners", hand(play(0, "6-6"), draw(1)))))


def test_a_full_information_record_names_every_drawn_tile():
    short = [["6-6", "0-0", "0-1", "0-2", "0-3"], ["1-1", "1-2", "1-3", "1-4", "1-5"]]
    error = refused(record("draw", hand(play(0, "6-6"), deal=short, leader=0), players=2))
    assert "seat 0 must be dealt 7 tiles in draw, not 5" in str(error)  # draw with 2 players deals 7
    deal = [["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"], ["1-1", "1-2", "1-3", "1-4", "1-5", "2-2", "2-3"]]
    error = refused(record("draw", hand(play(0, "6-6"), draw(1, count=1), deal=deal, leader=0), players=2))
    assert "names every drawn tile" in str(error)
    error = refused(record("draw", hand(play(0, "6-6"), draw(1, "0-5"), deal=deal, leader=0), players=2))
    assert "0-5 is in seat 0's hand" in str(error)
    drawn = record("draw", hand(play(0, "6-6"), draw(1, "0-6"), play(1, "0-6", "east"), deal=deal, leader=0), players=2)
    assert score_record(drawn)["hands"][0]["plays"][-1]["tile"] == "0-6"


# -- the end of an observed hand -------------------------------------------------------------


def test_revealed_tiles_are_checked_against_what_was_played():
    held = dict(TEAM0_LOW)
    held[3] = ["3-3", "3-4", "3-5", "4-4", "6-4"]
    error = refused(six_block(held))
    assert "seat 3 revealed 4-6, but 4-6 is already on the table (played at event 7)" in str(error)


def test_a_tile_shown_by_two_players_is_refused():
    held = dict(TEAM0_LOW)
    held[3] = ["3-3", "3-4", "3-5", "4-4", "2-2"]
    assert "seat 3 revealed 2-2, but seat 1 revealed 2-2 too (event 16)" in str(refused(six_block(held)))


def test_a_reveal_of_the_wrong_number_of_tiles_is_refused():
    held = dict(TEAM0_LOW)
    held[3] = ["3-3", "3-4", "3-5", "4-4"]
    error = refused(six_block(held))
    assert "seat 3 should hold 5 tiles (7 dealt, 2 played), but 4 were revealed" in str(error)


def test_a_player_who_passed_while_holding_a_fitting_tile_is_reported():
    # Everybody "passes" over 6-6; seat 1's reveal shows it held 1-6 all along.
    events = [play(0, "6-6"), pass_(1), pass_(2), pass_(3), pass_(0)]
    rec = record("partners-block", hand(*events, reveal(1, "1-6", "1-1", "1-2", "1-3", "1-4", "1-5", "2-2")))
    error = refused(rec)
    assert "seat 1 passed at event 1 while holding 1-6, which fitted the west end" in str(error)


def test_reveals_come_only_after_the_hand_ended():
    error = refused(record("partners-block", hand(play(0, "6-6"), reveal(1, "1-1"))))
    assert "showed its tiles before the hand ended (seat 1 is to play)" in str(error)


def test_pips_must_be_possible_for_the_tiles_held():
    held = {0: TEAM0_LOW[0], 1: TEAM0_LOW[1], 2: TEAM0_LOW[2]}
    rec = six_block(held)
    rec["hands"][0]["events"].append(pips(3, 200))
    assert "seat 3 holds 5 tiles (7 dealt, 2 played), which cannot total 200 pips" in str(refused(rec))


def test_a_refused_event_leaves_the_match_as_it_was():
    match = Match.from_record(record("partners-block", hand(play(0, "6-6"), play(1, "6-4", "east"))))
    before = match.answer()
    for bad in (
        {"type": "play", "seat": 2, "tile": "1-1"},
        {"type": "play", "seat": 3, "tile": "4-6"},
        {"type": "reveal", "seat": 1, "tiles": []},
        {"type": "jump"},
        "not an event",
        {"type": "play", "seat": 9, "tile": "4-3"},
        {"type": "adjust", "team": 0, "points": 5},
    ):
        with pytest.raises(RecordError):
            match.apply(bad)
        assert match.answer() == before
    match.apply(play(2, "4-3", "east"))
    assert match.answer() != before


def test_adjustments_carry_their_reason_and_change_the_totals():
    rec = record(
        "partners", hand(play(0, "6-6"), {"type": "adjust", "team": 1, "points": 10, "reason": "agreed at the table"})
    )
    answer = score_record(rec)
    assert answer["totals"] == [0, 10]
    assert answer["hands"][0]["adjustments"] == [{"event": 1, "side": 1, "points": 10, "reason": "agreed at the table"}]
    silent = record("partners", hand(play(0, "6-6"), {"type": "adjust", "team": 1, "points": 10, "reason": " "}))
    assert "a correction is never silent" in str(refused(silent))
