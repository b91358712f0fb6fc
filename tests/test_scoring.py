"""End of hand, targets and leaders for every variant of RULES.md, from worked examples."""

from __future__ import annotations

import pytest

from scorer import RecordError, score_record
from tests.support.records import (
    LOW_TEAM0,
    ROUNDING,
    SIX_BLOCK_PLAYS,
    TIED,
    draw,
    hand,
    pass_,
    pips,
    play,
    record,
    reveal,
    six_block,
)


def last_hand(rec):
    return score_record(rec)["hands"][-1]


def refused(rec) -> RecordError:
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    return caught.value


# -- partnership games ----------------------------------------------------------------------


def test_partners_block_winners_score_the_losers_pips_exactly():
    first = last_hand(six_block(LOW_TEAM0))
    assert (first["winner"], first["bonus"], first["totals"]) == (0, [61, 0], [61, 0])


def test_puerto_rican_block_winners_score_every_pip_left():
    first = last_hand(six_block(LOW_TEAM0, options={"winners_score": "all"}))
    assert first["bonus"] == [90, 0]


def test_partners_rounds_the_losing_teams_pips_to_five():
    answer = score_record(six_block(LOW_TEAM0, variant="partners"))
    # 10 from fives during play (6-4, count 10, by seat 3), then round5(61) = 60 for team 0.
    assert answer["hands"][0]["bonus"] == [60, 0]
    assert answer["totals"] == [60, 10]


def test_round_each_hand_rounds_each_players_pips_first():
    assert last_hand(six_block(ROUNDING, variant="partners"))["bonus"] == [45, 0]  # round5(8 + 38)
    rounded = six_block(ROUNDING, variant="partners", options={"round_each_hand": True})
    assert last_hand(rounded)["bonus"] == [50, 0]  # round5(8) + round5(38) = 10 + 40


def test_doscientos_winners_score_all_unplayed_pips_rounded_to_200():
    answer = score_record(six_block(LOW_TEAM0, variant="partners", options={"preset": "doscientos"}))
    assert answer["hands"][0]["bonus"] == [90, 0]
    assert answer["target"] == 200


def test_a_blocked_tie_scores_nothing_by_default():
    first = last_hand(six_block(TIED))
    assert (first["winner"], first["bonus"]) == (None, [0, 0])


def test_a_blocked_tie_goes_to_the_leading_team_when_the_table_says_so():
    first = last_hand(six_block(TIED, options={"tie": "leading_team_wins"}))
    assert (first["winner"], first["bonus"]) == (0, [45, 0])


def test_the_lead_passes_to_the_next_seat_who_leads_any_tile():
    rec = six_block(LOW_TEAM0)
    rec["hands"].append(hand(play(1, "3-4")))
    assert score_record(rec)["hands"][1]["leader"] == 1
    rec["hands"][1] = hand(play(2, "3-4"))
    assert "seat 2 led, but seat 1 leads this hand (the lead passes to the next seat)" in str(refused(rec))
    rec["hands"][1] = hand(play(2, "3-4"), leader=2)
    assert "the record says seat 2 leads, but seat 1 does" in str(refused(rec))


def test_mexican_the_winning_teams_member_with_fewer_pips_leads_after_a_block():
    rec = six_block(LOW_TEAM0, variant="partners", options={"preset": "mexican"})
    rec["hands"].append(hand(play(0, "3-4")))  # team 0 won; seat 0 held 7 pips, seat 2 held 22
    assert score_record(rec)["hands"][1]["leader"] == 0


def test_mexican_a_tied_block_is_won_by_the_team_that_led():
    first = last_hand(six_block(TIED, variant="partners", options={"preset": "mexican"}))
    assert (first["winner"], first["bonus"]) == (0, [45, 0])


def test_federation_the_first_leader_is_drawn_and_leads_any_tile():
    answer = score_record(record("partners", hand(play(2, "3-4"), leader=2), options={"preset": "federation"}))
    assert answer["hands"][0]["leader"] == 2 and answer["target"] == 200


def test_a_full_information_first_hand_is_led_by_the_holder_of_six_six():
    deal = [
        ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
        ["6-6", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"],
        ["2-2", "2-3", "2-4", "2-5", "2-6", "3-3", "3-4"],
        ["3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6"],
    ]
    assert score_record(record("partners", hand(play(1, "6-6"), deal=deal)))["hands"][0]["leader"] == 1
    assert "seat 0 led, but seat 1 leads this hand" in str(refused(record("partners", hand(play(0, "0-0"), deal=deal))))


# -- targets ----------------------------------------------------------------------------------


def test_at_once_the_match_stops_the_moment_a_score_reaches_the_target():
    rec = record("partners", hand(*SIX_BLOCK_PLAYS[:8]), options={"target": 10})
    answer = score_record(rec)
    first = answer["hands"][0]
    assert answer["winner"] == 1 and first["end"] == "target"
    assert (first["winner"], first["bonus"]) == (None, None)  # cut short: no winner, no bonus
    assert len(first["plays"]) == 8  # the play that reached 10 was event 7
    error = refused(record("partners", hand(*SIX_BLOCK_PLAYS), options={"target": 10}))
    # The match ended at event 7, so event 8 is refused.
    assert (error.hand, error.event) == (
        0,
        8,
    ) and "the match was already won (Ben & Dee won at hand 0, event 7)" in str(error)


def test_a_bonus_that_reaches_the_target_wins_and_no_hand_follows():
    rec = six_block(LOW_TEAM0, options={"target": 50})
    assert score_record(rec)["winner"] == 0
    rec["hands"].append(hand(play(1, "3-4")))
    assert "the match was already won" in str(refused(rec))


def test_end_of_hand_target_the_hand_is_finished_and_the_highest_wins():
    answer = score_record(
        six_block(LOW_TEAM0, variant="partners", options={"target": 10, "end_at_target": "end_of_hand"})
    )
    assert answer["hands"][0]["end"] == "blocked" and answer["totals"] == [60, 10] and answer["winner"] == 0


# -- games for two to four players, each alone -------------------------------------------------


def blocked_two_player(variant: str, boneyard: int, held: tuple[int, int], **kwargs):
    """6-6 led; seat 1 draws the whole boneyard (unseen) and passes; seat 0 passes: blocked."""
    events = [play(0, "6-6")]
    if boneyard:
        events.append(draw(1, count=boneyard))
    events += [pass_(1), pass_(0), pips(0, held[0]), pips(1, held[1])]
    return record(variant, hand(*events, leader=0), players=2, **kwargs)


def test_all_fives_every_player_loses_their_own_pips_rounded():
    # 2 players: 9 each, 10 in the boneyard. 156 pips off the table: 43 + 113.
    first = last_hand(blocked_two_player("all-fives", 10, (43, 113)))
    assert first["plays"][0]["points"] == 0  # 12 is no multiple of five
    assert (first["winner"], first["bonus"], first["totals"]) == (0, [-45, -115], [-45, -115])


def test_all_fives_leader_is_the_first_out_else_chosen_at_random():
    rec = blocked_two_player("all-fives", 10, (43, 113))
    rec["hands"].append(hand(play(1, "3-4")))  # blocked: the table chose seat 1
    assert score_record(rec)["hands"][1]["leader"] == 1


def test_all_fives_bonus_winner_scores_a_fifth_of_all_pips_rounded():
    # 2 players: 7 each, 14 in the boneyard; 156 pips off the table: 33 + 123.
    assert last_hand(blocked_two_player("all-fives-bonus", 14, (33, 123)))["bonus"] == [31, 0]  # round5(156)/5
    each = blocked_two_player("all-fives-bonus", 14, (33, 123), options={"round_each_hand": True})
    assert last_hand(each)["bonus"] == [32, 0]  # (35 + 125) / 5


def test_all_fives_bonus_needs_a_single_highest_score_over_100():
    over = blocked_two_player("all-fives-bonus", 14, (33, 123), options={"target": 30})
    assert score_record(over)["winner"] == 0  # 31 > 30
    level = blocked_two_player("all-fives-bonus", 14, (33, 123), options={"target": 31})
    assert score_record(level)["winner"] is None  # 31 is not over 31


def test_block_the_winner_scores_the_others_pips_minus_their_own():
    # 7 each, the rest set aside (so the pips need not add up to what is off the table).
    first = last_hand(blocked_two_player("block", 0, (20, 30)))
    assert (first["winner"], first["bonus"]) == (0, [10, 0])
    tie = last_hand(blocked_two_player("block", 0, (25, 25)))
    assert (tie["winner"], tie["bonus"]) == (None, [0, 0])


def test_draw_scores_like_block_and_plays_to_fifty_with_two():
    first = score_record(blocked_two_player("draw", 14, (50, 106)))
    assert first["hands"][0]["bonus"] == [56, 0] and first["target"] == 50


def test_block_the_winner_of_a_hand_leads_the_next():
    rec = blocked_two_player("block", 0, (30, 20))
    rec["hands"].append(hand(play(0, "3-4")))
    assert "seat 0 led, but seat 1 leads this hand (the winner of the last hand leads)" in str(refused(rec))


def test_observed_pips_must_add_up_to_what_is_off_the_table():
    error = refused(blocked_two_player("all-fives", 10, (43, 100)))
    assert "the players' pips total 143, but 156 pips are off the table" in str(error)


# -- cross -------------------------------------------------------------------------------------

CROSS_OUT = [
    play(0, "6-6"),
    play(1, "6-5", "west"),
    play(0, "6-4", "east"),
    play(1, "6-3", "north"),
    play(0, "6-2", "south"),
    play(1, "5-5", "west"),
    play(0, "4-4", "east"),
    play(1, "5-1", "west"),
    play(0, "4-0", "east"),
    play(1, "3-3", "north"),
    play(0, "2-2", "south"),
    play(1, "3-1", "north"),
]


def test_cross_penalties_are_doubled_when_the_winner_goes_out_with_a_double():
    rec = record("cross", hand(*CROSS_OUT, play(0, "1-1", "west"), reveal(1, "0-5")), players=2)
    first = last_hand(rec)
    assert (first["winner"], first["bonus"], first["totals"]) == (0, [0, 10], [0, 10])


def test_cross_penalties_are_each_players_own_pips_otherwise():
    rec = record("cross", hand(*CROSS_OUT, play(0, "2-5", "south"), reveal(1, "0-5")), players=2)
    assert last_hand(rec)["bonus"] == [0, 5]


def test_cross_all_four_sides_before_any_arm_then_doubles_open_the_arms():
    early = record("cross", hand(play(0, "6-6"), play(1, "6-5", "west"), play(0, "5-5", "west")), players=2)
    assert "all four sides of the spinner must be covered before an arm grows" in str(refused(early))
    no_double = record("cross", hand(*CROSS_OUT[:5], play(1, "5-1", "west")), players=2)
    assert "it shows 5, and 5-5 is not in the layout yet" in str(refused(no_double))


def test_cross_the_lead_is_a_double():
    assert "the lead must be a double" in str(refused(record("cross", hand(play(0, "6-5")), players=2)))


def test_cross_a_deal_with_five_doubles_is_reshuffled():
    deal = [["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"], ["5-5", "6-6", "1-2", "1-3", "1-4", "1-5", "1-6"]]
    assert "seat 0 was dealt 5 doubles" in str(refused(record("cross", hand(deal=deal), players=2)))


def cross_block_three(held: tuple[int, int, int], carried: tuple[int, int, int]):
    """3 players, 7 each, 7 in the boneyard. 6-6 led; all pass after seat 1 empties the boneyard."""
    events = [play(0, "6-6")]
    events += [{"type": "adjust", "seat": s, "points": p, "reason": "carried over"} for s, p in enumerate(carried) if p]
    events += [draw(1, count=7), pass_(1), pass_(2), pass_(0)]
    events += [pips(s, p) for s, p in enumerate(held)]
    return record("cross", hand(*events, leader=0), players=3)


def test_cross_a_player_at_100_is_out_and_of_several_the_lower_total_stays():
    answer = score_record(cross_block_three((20, 76, 60), (0, 30, 45)))
    first = answer["hands"][0]
    # Seat 0 has the fewest pips and wins; seats 1 and 2 take their own pips: 106 and 105.
    assert (first["winner"], first["bonus"], first["totals"]) == (0, [0, 76, 60], [0, 106, 105])
    assert first["eliminated"] == [1]
    assert answer["winner"] is None
    rec = cross_block_three((20, 76, 60), (0, 30, 45))
    rec["hands"].append(hand(play(0, "5-5"), play(1, "5-4", "west")))
    assert "seat 1 is out of the match" in str(refused(rec))


def test_cross_the_last_player_left_wins():
    answer = score_record(cross_block_three((20, 76, 60), (0, 30, 50)))
    assert answer["hands"][0]["totals"] == [0, 106, 110] and answer["hands"][0]["eliminated"] == [2]
    two = record("cross", hand(*CROSS_OUT, play(0, "1-1", "west"), reveal(1, "0-5")), players=2, options={})
    rec = dict(two)
    rec["hands"] = [dict(two["hands"][0])]
    rec["hands"][0]["events"] = [{"type": "adjust", "seat": 1, "points": 95, "reason": "carried over"}] + two["hands"][
        0
    ]["events"]
    answer = score_record(rec)
    assert answer["totals"] == [0, 105] and answer["winner"] == 0 and answer["hands"][0]["eliminated"] == [1]


# -- options -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, words",
    [
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"tie": "maybe"}, "option tie must be 'no_score' or 'leading_team_wins', not 'maybe'"),
        ({"sniff": True}, "option sniff does not apply to partners-block"),
        ({"preset": "texan"}, "partners-block has no preset 'texan'"),
        ({"target": -5}, "option target must be a positive whole number"),
    ],
)
def test_bad_options_are_named(options, words):
    assert words in str(refused(record("partners-block", options=options)))


def test_bad_variant_and_player_count_are_named():
    assert "unknown variant 'chess'" in str(refused(record("chess")))
    assert "partners is played by 4 players, not 2" in str(refused(record("partners", players=2)))


def test_cross_an_eliminated_players_share_is_set_aside_not_drawn():
    rec = cross_block_three((20, 76, 60), (0, 0, 45))  # seat 2 reaches 105 and is out
    assert score_record(rec)["hands"][0]["eliminated"] == [2]
    deal = [
        ["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "1-2"],
        ["1-3", "1-4", "1-5", "2-3", "2-4", "2-5", "3-4"],
        ["5-5", "4-4", "3-5", "4-5", "0-0", "1-1", "2-2"],
    ]  # seat 2's share: set aside
    rec["hands"].append(hand(play(0, "6-6"), draw(1, "5-5"), deal=deal))
    assert "5-5 is not in the boneyard: it is set aside (an eliminated player's share)" in str(refused(rec))
    rec["hands"][1] = hand(play(0, "6-6"), draw(1, "3-3"), draw(1, "1-6"), play(1, "1-6", "west"), deal=deal)
    second = score_record(rec)["hands"][1]
    assert second["leader"] == 0 and second["plays"][-1]["tile"] == "1-6"
