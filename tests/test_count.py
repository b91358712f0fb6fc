"""RULES.md, "The count" and "Rounding to five", each from a worked example."""

from __future__ import annotations

import pytest

from scorer import Layout, LayoutRules, Tile, round5, score_record
from tests.support.records import hand, play, record


def counts(variant: str, *events, options=None, players: int = 4) -> list[int | None]:
    answer = score_record(record(variant, hand(*events), options=options, players=players))
    return [p["count"] for p in answer["hands"][0]["plays"]]


def points(variant: str, *events, options=None, players: int = 4) -> list[int]:
    answer = score_record(record(variant, hand(*events), options=options, players=players))
    return [p["points"] for p in answer["hands"][0]["plays"]]


@pytest.mark.parametrize(
    "n, rounded", [(0, 0), (1, 0), (2, 0), (3, 5), (7, 5), (8, 10), (12, 10), (13, 15), (90, 90), (61, 60)]
)
def test_round5_remainders_one_two_down_three_four_up(n, rounded):
    assert round5(n) == rounded


def test_single_non_double_lead_counts_both_halves():
    assert counts("all-fives", play(0, "2-3"), players=2) == [5]
    assert points("all-fives", play(0, "2-3"), players=2) == [5]
    assert counts("all-fives", play(0, "6-4"), players=2) == [10]


def test_lead_spinner_counts_both_halves_once():
    # "a lead 5-5 counts 10"
    assert counts("all-fives", play(0, "5-5"), players=2) == [10]


def test_spinner_counts_until_both_sides_are_covered():
    # "5-5 with 5-0 on its west counts 10 + 0 = 10"; once both sides are covered it counts nothing.
    assert counts("all-fives", play(0, "5-5"), play(1, "5-0", "west"), play(0, "5-3", "east"), players=2) == [10, 10, 3]


def test_north_and_south_count_only_once_a_tile_lies_on_them():
    events = [play(0, "5-5"), play(1, "5-0", "west"), play(0, "5-3", "east"), play(1, "5-2", "north")]
    assert counts("all-fives", *events, players=2) == [10, 10, 3, 5]
    assert counts("all-fives", *events, play(0, "5-4", "south"), players=2) == [10, 10, 3, 5, 9]


def test_non_lead_spinner_has_its_west_side_covered_and_the_line_goes_on_past_it():
    # 6-5 lead, then 5-5 on its east: the spinner counts 10 beside the 6; covered on its east it counts nothing.
    events = [play(0, "6-5"), play(1, "5-5", "east"), play(0, "5-1", "east")]
    assert counts("all-fives", *events, players=2) == [11, 16, 7]
    # North/south open only now, on the spinner (not on the lead).
    assert counts("all-fives", *events, play(1, "5-4", "north"), players=2) == [11, 16, 7, 11]


def test_a_double_at_the_end_of_an_arm_counts_both_halves():
    # 5-5 spinner, 5-2 west, 5-1 east, then 2-2 at the west end counts 4 until covered.
    events = [play(0, "5-5"), play(1, "5-2", "west"), play(0, "5-1", "east"), play(1, "2-2", "west")]
    assert counts("all-fives", *events, players=2) == [10, 12, 3, 5]
    assert counts("all-fives", *events, play(0, "2-3", "west"), players=2) == [10, 12, 3, 5, 4]


def test_only_the_first_double_is_the_spinner():
    layout = Layout(LayoutRules(spinner=True))
    layout.place_lead(3, 4)
    layout.place(Tile.of(4, 4), "east")
    layout.place(Tile.of(3, 3), "west")
    assert layout.spinner == 1
    assert layout.spinner_tile == Tile.of(4, 4)


def test_north_south_wait_for_both_line_sides_by_default():
    layout = Layout(LayoutRules(spinner=True))
    layout.place_lead(5, 5)
    assert layout.fits(Tile.of(5, 1)) == ["west", "east"]
    layout.place(Tile.of(5, 1), "west")
    assert "north" not in layout.fits(Tile.of(5, 2))
    layout.place(Tile.of(5, 2), "east")
    assert layout.fits(Tile.of(5, 3)) == ["north", "south"]


def test_spinner_order_any_opens_north_and_south_at_once():
    layout = Layout(LayoutRules(spinner=True, spinner_order="any"))
    layout.place_lead(5, 5)
    assert layout.fits(Tile.of(5, 1)) == ["west", "east", "north", "south"]
    # ...and the record is scored with it.
    assert counts(
        "all-fives", play(0, "5-5"), play(1, "5-0", "north"), players=2, options={"spinner_order": "any"}
    ) == [10, 10]


def test_sniff_keeps_the_spinner_counting_while_a_side_is_open():
    events = [play(0, "5-5"), play(1, "5-0", "west"), play(0, "5-3", "east")]
    assert counts("all-fives", *events, players=2, options={"sniff": True}) == [10, 10, 13]
    both = events + [play(1, "5-2", "north")]
    assert counts("all-fives", *both, players=2, options={"sniff": True})[-1] == 15
    all_four = both + [play(0, "5-4", "south")]
    assert counts("all-fives", *all_four, players=2, options={"sniff": True})[-1] == 9


def test_mirror_ends_need_no_name_but_real_choices_do():
    layout = Layout(LayoutRules(spinner=True))
    layout.place_lead(5, 5)
    assert layout.distinct_fits(Tile.of(5, 1)) == ["west"]
    layout.place(Tile.of(5, 1), "west")
    assert layout.distinct_fits(Tile.of(5, 2)) == ["east"]
    layout.place(Tile.of(5, 2), "east")
    assert layout.distinct_fits(Tile.of(5, 3)) == ["north"]
    plain = Layout(LayoutRules())
    plain.place_lead(3, 3)
    assert plain.distinct_fits(Tile.of(3, 1)) == ["west"]
    plain.place(Tile.of(3, 1), "west")
    plain.place(Tile.of(1, 3), "west")
    assert plain.distinct_fits(Tile.of(3, 6)) == ["west", "east"]


def test_variants_without_fives_have_no_count():
    answer = score_record(record("partners-block", hand(play(0, "6-6"), play(1, "6-4", "east"))))
    assert [p["count"] for p in answer["hands"][0]["plays"]] == [None, None]
    assert [p["points"] for p in answer["hands"][0]["plays"]] == [0, 0]


def test_fives_points_go_to_the_team():
    # 6-6 (12), 6-1 east (13), 1-2 east (14), 2-6 east (18), 6-0 west (6), 0-3 west (9), 3-6 west (12),
    # 6-4 east (10: seat 3 scores for team 1).
    from tests.support.records import SIX_BLOCK_PLAYS

    answer = score_record(record("partners", hand(*SIX_BLOCK_PLAYS)))
    plays = answer["hands"][0]["plays"]
    assert [p["count"] for p in plays] == [12, 13, 14, 18, 6, 9, 12, 10, 11, 12]
    assert [p["points"] for p in plays] == [0, 0, 0, 0, 0, 0, 0, 10, 0, 0]
    assert answer["totals"] == [0, 10]


@pytest.mark.parametrize("sniff", [False, True])
def test_the_count_term_by_term_adds_up_to_the_count(sniff):
    """What the settle dialog shows the table (Layout.count_terms): each counted end, and what it adds."""
    from scorer import Match
    from tests.support.records import SIX_BLOCK_PLAYS

    rec = record("partners", hand(*SIX_BLOCK_PLAYS), options={"sniff": True} if sniff else None)
    for n in range(1, len(SIX_BLOCK_PLAYS) + 1):
        rec["hands"][0]["events"] = SIX_BLOCK_PLAYS[:n]
        layout = Match.from_record(rec, open_last=True).current.layout
        assert sum(value for _, _, value in layout.count_terms()) == layout.count()
    lone = Layout(LayoutRules(spinner=True))
    lone.place_lead(5, 5)
    assert lone.count_terms() == [("lead", Tile.of(5, 5), 10)]
    lone.place(Tile.of(5, 0), "west")
    assert lone.count_terms() == [("west", Tile.of(0, 5), 0), ("lead", Tile.of(5, 5), 10)]
