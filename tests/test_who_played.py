"""Who laid the tile the camera saw (`scorer.moves.who_played`), and observed hands whose draws
went unseen (`"unseen_draws": true`): RULES.md "Turn" and "Draw games"."""

from __future__ import annotations

import random

import pytest

from scorer import Match, RecordError, score_record
from scorer.moves import who_played
from scorer.simulate import simulate_match
from scorer.tiles import Tile
from tests.support.records import draw, hand, observed, pass_, pips, play, record


def test_any_seat_may_have_laid_it_after_unseen_passes_in_turn_order():
    match = observed("partners-block", play(0, "6-6"))
    answer = who_played(match.current, Tile.parse("6-3"))
    # the leader too: three passes in a row do not block a four-handed game
    assert answer.seats == (1, 2, 3, 0)
    assert [c.passes for c in answer.candidates] == [(), (1,), (1, 2), (1, 2, 3)]
    assert answer.pass_possible and answer.sure is None
    # each candidate's events are a record the scorer takes, the passes inferred
    for candidate in answer.candidates:
        replay = observed("partners-block", play(0, "6-6"))
        for event in candidate.events(play(-1, "6-3", "east")):
            replay.apply(event)
        assert [p["seat"] for p in replay.current.inferred_passes] == list(candidate.passes)


def test_a_seat_that_passed_while_the_tile_fitted_did_not_lay_it():
    match = observed("partners-block", play(0, "6-6"), pass_(1), play(2, "6-3", "east"))
    answer = who_played(match.current, Tile.parse("6-5"))
    # seat 1 passed with a six open, so it holds no 6-5; it may still pass again on the way to seat 2
    assert answer.seats == (3, 0, 2)
    assert answer.of(2).passes == (3, 0, 1)


def test_passes_stop_where_they_would_block_the_hand():
    match = observed("partners-block", play(0, "6-6"), pass_(1), pass_(2))
    answer = who_played(match.current, Tile.parse("6-3"))
    # seats 1 and 2 passed: 3 may play, or 3 pass and 0 play; a third pass in a row leaves only 1 and 2,
    # who cannot hold a six
    assert answer.seats == (3, 0)


def test_with_every_draw_recorded_only_the_turn_seat_can_have_laid_it():
    match = observed("all-fives", play(0, "6-6"))
    answer = who_played(match.current, Tile.parse("6-3"))
    assert answer.seats == (1,) and not answer.pass_possible
    assert answer.sure is not None and answer.sure.seat == 1


def test_with_unseen_draws_a_later_seat_implies_the_first_passer_took_the_boneyard():
    match = observed("all-fives", play(0, "6-6"), unseen_draws=True)
    answer = who_played(match.current, Tile.parse("6-3"))  # as the hand says: its draws go unseen
    assert answer.seats == (1, 2, 3, 0)
    assert who_played(match.current, Tile.parse("6-3"), unseen_draws=False).seats == (1,)
    assert answer.of(2).draws == ((1, 8),) and answer.of(2).passes == (1,)
    assert answer.of(0).passes == (1, 2, 3)
    # the events are legal even in a record that claims every draw (the draw empties the boneyard)
    for unseen in (True, False):
        replay = observed("all-fives", play(0, "6-6"), unseen_draws=unseen)
        for event in answer.of(3).events(play(-1, "6-3", "east")):
            replay.apply(event)
        assert replay.current.boneyard == 0 and replay.current.plays[-1]["seat"] == 3


def test_a_seat_known_to_hold_a_fitting_tile_cannot_pass():
    match = observed("all-fives", play(0, "6-6"), draw(1, "1-2"), unseen_draws=True)
    # seat 1 drew 1-2 in sight: it fits nothing, so seat 1 may still play the 6-3 (after more draws) or pass
    assert who_played(match.current, Tile.parse("6-3"), unseen_draws=True).seats[0] == 1
    deal = [
        ["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
        ["6-5", "1-1", "1-2", "1-3", "1-4", "1-5", "2-2"],
        ["6-3", "2-3", "2-4", "2-5", "3-3", "3-4", "3-5"],
        ["6-0", "6-1", "6-2", "6-4", "4-4", "4-5", "5-5"],
    ]
    full = Match.new("partners-block", ["Ana", "Ben", "Cruz", "Dee"])
    full.start_hand(deal=deal)
    full.apply(play(0, "6-6"))
    # seat 1 holds 6-5, which fits: it must play, so the 6-3 (seat 2's) cannot be the next tile
    assert who_played(full.current, Tile.parse("6-3")).seats == ()
    assert who_played(full.current, Tile.parse("6-5")).seats == (1,)


def test_no_seat_for_a_tile_that_fits_nowhere_is_played_or_held_by_another():
    match = observed("all-fives", play(0, "6-6"), draw(1, "6-3"), unseen_draws=True)
    assert who_played(match.current, Tile.parse("1-2")).seats == ()
    assert who_played(match.current, Tile.parse("6-6")).seats == ()
    # seat 1 drew the 6-3 in sight, and it fits: seat 1 must play it at once
    assert who_played(match.current, Tile.parse("6-3"), unseen_draws=True).seats == (1,)
    assert who_played(match.current, Tile.parse("6-4"), unseen_draws=True).seats == ()


# -- unseen draws ----------------------------------------------------------------------------------


def seen_without_draws(full_hand: dict) -> dict:
    """A full-information hand as a camera with no view of the boneyard records it: no deal, no
    draws, the passes it saw, each seat's pips at the end."""
    events = [e for e in full_hand["events"] if e["type"] != "draw"]
    return {"leader": full_hand["leader"], "unseen_draws": True, "events": events}


def test_a_tile_count_does_not_end_a_hand_whose_draws_went_unseen():
    full = simulate_match("all-fives", 2, 9, max_hands=1)
    truth = score_record(full)
    first = full["hands"][0]
    plays = [e for e in first["events"] if e["type"] == "play"]
    assert max(sum(e["seat"] == s for e in plays) for s in (0, 1)) > 9  # a seat played more than it was dealt
    # without saying so, the record ends the hand on a tile count, and the next play is refused
    plain = {k: v for k, v in seen_without_draws(first).items() if k != "unseen_draws"}
    with pytest.raises(RecordError, match="after the end of the hand"):
        score_record({**full, "hands": [plain]})
    answer = score_record({**full, "hands": [seen_without_draws(first)]})
    got, want = answer["hands"][0], truth["hands"][0]
    assert [(p["seat"], p["tile"], p["points"]) for p in got["plays"]] == [
        (p["seat"], p["tile"], p["points"]) for p in want["plays"]
    ]
    assert got["end"] == want["end"]
    assert got["inferred_draws"]


@pytest.mark.parametrize("seed", range(6))
def test_hands_with_unseen_draws_score_as_the_truth_once_the_pips_are_told(seed):
    variant, players = [("all-fives", 2), ("all-fives", 4), ("draw", 3)][seed % 3]
    full = simulate_match(variant, players, 100 + seed, max_hands=1)
    first = full["hands"][0]
    truth = score_record({**full, "hands": [first]})["hands"][0]
    seen = seen_without_draws(first)
    ended = truth["end"]
    seen["events"] += [pips(s, truth["pips"][s]) for s in range(players) if ended in ("out", "blocked")]
    got = score_record({**full, "hands": [seen]})["hands"][0]
    assert [(p["seat"], p["tile"], p["count"], p["points"]) for p in got["plays"]] == [
        (p["seat"], p["tile"], p["count"], p["points"]) for p in truth["plays"]
    ]
    assert (got["end"], got["winner"], got["bonus"]) == (ended, truth["winner"], truth["bonus"])


#: a four-handed all-fives line, every seat in turn (5 tiles each): seat 0 lays its fifth at event 16
LINE = [
    "6-6",
    "6-5",
    "5-5",
    "5-4",
    "4-4",
    "4-3",
    "3-3",
    "3-2",
    "2-2",
    "2-1",
    "1-1",
    "1-0",
    "0-0",
    "0-6",
    "6-4",
    "4-1",
    "1-5",
    "5-3",
    "3-6",
    "6-2",
    "2-0",
]


def line(count: int) -> list[dict]:
    return [play(k % 4, t, "east") if k else play(0, t) for k, t in enumerate(LINE[:count])]


def test_a_hand_whose_record_ends_on_a_last_counted_tile_was_won_by_that_seat():
    rec = record("all-fives", {"leader": 0, "unseen_draws": True, "events": line(21)})
    answer = score_record(rec)["hands"][0]
    # each seat laid a sixth tile: it had drawn one unseen, as the play after its fifth shows
    assert answer["inferred_draws"] == [{"event": 17 + s, "seat": s, "count": 1} for s in range(4)]
    assert answer["end"] == "out" and answer["winner"] == 0 and answer["plays"][-1]["event"] == 20
    # told how much each still holds, the hand is scored (seat 0's zero accepted)
    rec["hands"][0]["events"] += [pips(0, 0), pips(1, 3), pips(2, 12), pips(3, 8)]
    assert score_record(rec)["hands"][0]["bonus"] is not None
    # the record as it stood after event 16 ends the hand there: seat 0 went out
    rec["hands"][0]["events"] = line(17)
    assert score_record(rec)["hands"][0]["end"] == "out"


def test_a_live_record_leaves_a_seat_perhaps_out_until_the_record_says_more():
    # the companion page keeps the record as the hand is played: its silence after seat 0's fifth
    # tile is not the end of the hand (the next play may show an unseen draw)
    rec = record("all-fives", {"leader": 0, "unseen_draws": True, "events": line(17)})
    live = Match.from_record(rec, live=True)
    assert live.current.maybe_out is not None and live.current.maybe_out[0] == 0 and live.current.end is None
    answer = live.answer()["hands"][0]
    assert answer["end"] is None and answer["maybe_out"] == 0 and answer["turn"] == 1
    assert Match.from_record(rec).current.end == "out"  # the record as a whole: it ends there
    live.apply(pips(1, 3))  # the players count what is left: the hand is over, seat 0 out
    assert live.current.end == "out" and live.current.out_seat == 0


def test_a_pass_with_unseen_draws_means_the_passer_took_the_rest_of_the_boneyard():
    events = [play(0, "6-6"), pass_(1)]
    with pytest.raises(RecordError, match="boneyard"):
        score_record(record("all-fives", hand(*events, leader=0)))
    answer = score_record(record("all-fives", {"leader": 0, "unseen_draws": True, "events": events}))["hands"][0]
    assert answer["inferred_draws"] == [{"event": 1, "seat": 1, "count": 8, "at_most": True}]


def test_unseen_draws_belong_to_observed_hands_of_games_that_draw():
    with pytest.raises(RecordError, match="nobody draws"):
        score_record(record("partners-block", {"leader": 0, "unseen_draws": True, "events": [play(0, "6-6")]}))
    with pytest.raises(RecordError, match="true or false"):
        score_record(record("all-fives", {"leader": 0, "unseen_draws": "yes", "events": []}))


def test_a_refused_event_after_a_possible_out_leaves_the_hand_as_it_was():
    match = observed("all-fives", *line(17), unseen_draws=True)
    hand_ = match.current
    assert hand_.maybe_out is not None and hand_.maybe_out[0] == 0 and not hand_.over
    before = (list(hand_.counts), hand_.boneyard, hand_.maybe_out, list(hand_.inferred_draws), hand_.turn)
    with pytest.raises(RecordError):
        match.apply(play(1, "1-2", "east"))  # fits no end
    with pytest.raises(RecordError):
        match.apply(pips(1, 99))  # more than its tiles can hold
    assert (list(hand_.counts), hand_.boneyard, hand_.maybe_out, list(hand_.inferred_draws), hand_.turn) == before
    assert not hand_.over
    match.apply(play(1, "5-3", "east"))
    assert hand_.counts[0] == 1 and hand_.boneyard == 7
    assert hand_.maybe_out is not None and hand_.maybe_out[0] == 1  # seat 1 laid its fifth in turn


def test_a_random_observed_draw_game_replays_with_its_draws_unseen():
    rng = random.Random(5)
    for seed in rng.sample(range(1000), 4):
        full = simulate_match("draw", 4, seed, max_hands=2)
        for h in full["hands"]:
            score_record({**full, "hands": [seen_without_draws(h)]})  # never refused


def test_the_lead_is_the_leaders_and_any_seats_where_the_table_chose_unrecorded():
    led = observed("all-fives", leader=2)
    assert who_played(led.current, Tile.parse("3-4")).seats == (2,)
    partners = observed("partners", leader=None)  # the holder of 6-6 leads it: any seat, only that tile
    assert who_played(partners.current, Tile.parse("6-6")).seats == (0, 1, 2, 3)
    assert who_played(partners.current, Tile.parse("3-4")).seats == ()
    chosen = Match.new("all-fives", ["Ana", "Ben", "Cruz"])
    chosen.start_hand()  # a random seat leads, and the record does not say which
    answer = who_played(chosen.current, Tile.parse("5-5"))
    assert answer.seats == (0, 1, 2) and not answer.pass_possible and answer.sure is None


def test_after_a_possible_out_the_pass_takes_the_boneyard_less_the_tile_the_last_player_drew():
    # seat 0 laid its fifth tile with 8 in the boneyard: it went out, or drew one unseen and goes on
    match = observed("all-fives", *line(17), unseen_draws=True)
    hand_ = match.current
    assert hand_.maybe_out is not None and hand_.boneyard == 8
    tile = Tile.parse(LINE[17])
    answer = who_played(hand_, tile)
    # seat 2 laying it means seat 1 passed, having drawn all the boneyard held after seat 0's draw
    assert answer.of(2).draws == ((1, 7),)
    for event in answer.of(2).events(play(-1, LINE[17], "east")):
        match.apply(event)  # the scorer takes the draws it implies
    assert hand_.boneyard == 0 and hand_.plays[-1]["seat"] == 2


def test_a_seat_perhaps_out_may_lay_a_tile_it_drew_unseen_after_the_next_seat_passed():
    # two players, 14 in the boneyard: seat 0 lays its seventh tile, the last the record counts.
    # The draws went unseen (or were kept face down in view), so the count is only the least it
    # holds: seat 1 may have drawn the rest and passed, and seat 0 laid a tile it had drawn
    events = [play(k % 2, t, "east") if k else play(0, t) for k, t in enumerate(LINE[:13])]
    match = observed("draw", *events, players=2, unseen_draws=True)
    hand_ = match.current
    assert hand_.maybe_out is not None and hand_.maybe_out[0] == 0 and hand_.turn == 1
    tile = Tile.parse(LINE[13])
    answer = who_played(hand_, tile)
    assert answer.seats == (1, 0) and answer.sure is None  # a question, not seat 1 for sure
    assert answer.of(0).passes == (1,)
    # with every draw recorded, seat 0 went out: only seat 1 can lay it
    assert who_played(hand_, tile, unseen_draws=False).seats == (1,)
    for event in answer.of(0).events(play(-1, LINE[13], "east")):
        match.apply(event)  # the scorer takes it: seat 0 had drawn one unseen
    assert hand_.plays[-1]["seat"] == 0 and hand_.inferred_draws[-1]["seat"] == 0
