"""`twelve`, the memory game: pairs of 12 removed, attempts and time kept."""

from __future__ import annotations

import pytest

from scorer import RecordError
from scorer.twelve import score_twelve, simulate_twelve


def game(*flips, sets: int = 1):
    return {
        "variant": "twelve",
        "players": ["Ana"],
        "options": {"sets": sets} if sets != 1 else {},
        "hands": [{"events": [{"type": "flip", "tiles": list(f[:2]), "time": f[2]} for f in flips]}],
    }


def test_a_pair_totalling_twelve_is_removed_and_others_are_turned_back():
    answer = score_twelve(game(("6-6", "1-2", 2.0), ("6-6", "0-0", 5.5), ("3-3", "4-5", 9)))
    assert answer["attempts"] == 3
    assert answer["pairs"] == [["6-6", "0-0"]]
    assert answer["remaining"] == 26 and not answer["finished"] and answer["time"] == 9.0


def test_a_removed_tile_cannot_be_turned_again():
    with pytest.raises(RecordError, match="6-6 is no longer face down"):
        score_twelve(game(("6-6", "0-0", 1), ("6-6", "1-2", 2)))


def test_one_set_holds_one_of_each_tile():
    with pytest.raises(RecordError, match="1 set\\(s\\) hold 1 3-3"):
        score_twelve(game(("3-3", "3-3", 1)))


def test_two_sets_hold_two_of_each_tile():
    answer = score_twelve(game(("6-6", "0-0", 1), ("6-6", "0-0", 2), sets=2))
    assert answer["remaining"] == 52
    with pytest.raises(RecordError, match="sets must be 1 or 2"):
        score_twelve(game(sets=3))


def test_time_never_goes_back():
    with pytest.raises(RecordError, match="never going back"):
        score_twelve(game(("1-2", "3-4", 5), ("1-2", "3-4", 4)))


@pytest.mark.parametrize("sets", [1, 2])
def test_a_simulated_game_removes_all_fourteen_pairs_per_set(sets):
    answer = score_twelve(simulate_twelve(seed=5, sets=sets))
    assert answer["finished"] and len(answer["pairs"]) == 14 * sets
    assert answer["attempts"] >= 14 * sets
