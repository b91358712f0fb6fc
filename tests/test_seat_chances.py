"""How likely each seat is to have laid a tile the camera saw (`scorer.chance`), counted from the
deals an observed hand leaves: exact counts, worked out by hand on small hands."""

from __future__ import annotations

import itertools
import random
from math import comb, factorial

import pytest

from scorer.chance import _barred, count_layouts, seat_chances, seat_weights
from scorer.moves import who_played
from scorer.tiles import FULL_SET, Tile
from tests.support.records import draw, observed, pass_, play
from vision.follow.seats import PASS_RISK, likeliest_seat


def multinomial(*parts: int) -> int:
    out = factorial(sum(parts))
    for part in parts:
        out //= factorial(part)
    return out


def test_the_count_agrees_with_every_layout_listed():
    rng = random.Random(34)
    for _ in range(200):
        tiles = rng.sample(FULL_SET, rng.randint(0, 7))
        seats_ = rng.randint(1, 3)
        owner = [rng.randrange(seats_ + 1) for _ in tiles]  # the last: the rest (boneyard, set aside)
        room = [owner.count(h) for h in range(seats_)]
        barred = [{t for t in tiles if rng.random() < 0.3} for _ in range(seats_)]
        listed = 0
        for layout in itertools.product(range(seats_ + 1), repeat=len(tiles)):
            if all(layout.count(h) == room[h] for h in range(seats_)) and not any(
                h < seats_ and t in barred[h] for t, h in zip(tiles, layout, strict=True)
            ):
                listed += 1
        assert count_layouts(tiles, barred, room) == listed


def test_after_the_lead_each_seat_weighs_the_deals_in_which_the_seats_before_it_hold_no_six():
    hand = observed("partners-block", play(0, "6-6")).current
    answer = who_played(hand, Tile.parse("6-3"))
    assert answer.seats == (1, 2, 3, 0)
    # 26 unseen tiles besides 6-3, of them 5 sixes; seat 0 holds 6 unseen tiles, the others 7
    sixes, others = 5, 21
    by_hand = (
        multinomial(6, 6, 7, 7),  # seat 1 holds 6-3 (and 6 more)
        comb(others, 7) * multinomial(6, 6, 7),  # seat 1 no six; seat 2 holds 6-3
        comb(others, 7) * comb(others - 7, 7) * comb(12, 6),  # seats 1, 2 no six; seat 3 holds 6-3
        multinomial(7, 7, 7),  # seats 1-3 no six: seat 0 holds 6-3 and the 5 other sixes
    )
    assert sixes + others + 1 == 27
    assert seat_weights(hand, answer) == by_hand
    chances = seat_chances(hand, answer)
    assert chances is not None and chances[0] == pytest.approx(by_hand[0] / sum(by_hand))
    assert 0.8 < chances[0] < 0.9  # seat 1 holds no six in 13 % of deals: a pass is no rarity here


def test_a_seat_that_passed_holds_no_tile_that_fitted_and_counts_can_rule_a_seat_out():
    hand = observed("partners-block", play(0, "6-6"), pass_(1), play(2, "6-3", "east")).current
    answer = who_played(hand, Tile.parse("6-5"))
    assert answer.seats == (3, 0, 2)
    # seat 1 passed on 6 | 6: none of the 5 unseen sixes. Ends now 6 | 3: 11 unseen tiles fit, 15 do not
    seat3 = comb(21, 7) * multinomial(6, 6, 6)  # seat 1 takes 7 of the 21 not sixes; 18 left for 0, 2, 3
    # seat 3 passed (none of the 11): 7 of the 15 others; seat 1 then 7 of the 8 others and 6 threes
    # left; seat 0 (holding 6-5) and seat 2 share the other 11
    seat0 = comb(15, 7) * comb(14, 7) * comb(11, 5)
    # seats 3, 0 and 1 all passed: 20 tiles among the 15 that fit nothing: no deal
    assert seat_weights(hand, answer) == (seat3, seat0, 0)
    chances = seat_chances(hand, answer)
    assert chances is not None and chances[2] == 0.0 and chances[0] == pytest.approx(seat3 / (seat3 + seat0))


def test_tiles_set_aside_are_a_holder_too():
    hand = observed("block", play(0, "6-6"), players=2).current  # 14 tiles sleep
    answer = who_played(hand, Tile.parse("6-3"))
    assert answer.seats == (1, 0)
    seat1 = multinomial(6, 6, 14)  # 26 left: seat 0 6, seat 1 6, the rest 14
    seat0 = comb(21, 7) * comb(19, 5)  # seat 1 took 7 of the 21 not sixes; seat 0 5 of the other 19
    assert seat_weights(hand, answer) == (seat1, seat0)


def test_two_open_ends_leave_the_turn_seat_all_but_sure_early_in_a_hand():
    hand = observed("block", play(0, "3-5")).current
    answer = who_played(hand, Tile.parse("1-5"))
    chances = seat_chances(hand, answer)
    assert chances is not None and 0.98 < chances[0] < 1 - PASS_RISK  # 12 of 27 unseen tiles fit
    assert likeliest_seat(hand, answer) is None  # a question, still
    assert likeliest_seat(hand, answer, risk=0.02) == (answer.candidates[0], chances[0])


def test_late_in_a_hand_the_counts_can_leave_one_seat():
    # seats 1 and 2 passed on 3 | 5: the 12 unseen tiles that fit lie with seats 3 (7) and 0 (6)
    hand = observed("block", play(0, "3-5"), pass_(1), pass_(2)).current
    answer = who_played(hand, Tile.parse("1-5"))
    assert answer.seats == (3, 0)
    assert seat_chances(hand, answer) == (1.0, 0.0)
    assert likeliest_seat(hand, answer) == (answer.candidates[0], 1.0)


def test_no_chance_where_the_count_would_not_be_exact():
    # the lead; a draw game whose draws go unseen; cross (leading a double tells who holds doubles)
    hand = observed("block").current
    assert seat_chances(hand, who_played(hand, Tile.parse("3-5"))) is None
    hand = observed("all-fives", play(0, "6-6"), unseen_draws=True).current
    assert seat_chances(hand, who_played(hand, Tile.parse("6-3"))) is None
    hand = observed("cross", play(0, "6-6")).current
    assert seat_chances(hand, who_played(hand, Tile.parse("6-3"))) is None


def test_a_seat_that_drew_holds_no_tile_that_fitted_then_once_its_turn_is_over():
    match = observed("draw", play(0, "6-6"), draw(1, count=1), players=2)
    assert _barred(match.current) is None  # seat 1 is drawing: the tile it drew may fit
    match.apply(play(1, "6-2", "east"))
    barred = _barred(match.current)
    assert barred is not None and barred[0] == set()
    assert barred[1] == {t for t in FULL_SET if 6 in (t.low, t.high) and t not in match.current.on_table}
    match.apply(draw(0, count=2))
    match.apply(play(0, "2-4", "east"))
    match.apply(draw(1, count=1))
    match.apply(play(1, "4-4", "east"))
    # seat 1 drew in two turns: what it held in the first holds only for part of its hand now
    assert _barred(match.current) is None
