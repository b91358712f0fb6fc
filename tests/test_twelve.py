"""`twelve`, the memory game: pairs of 12 removed, attempts and time kept."""

from __future__ import annotations

import json

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


def test_time_may_reach_the_schemas_bound_and_past_it_is_said_too_large():
    """Probe: 10000000 after 9999999.9 was refused as "goes back" though the schema allows it."""
    from scorer.schema import EVENT_FIELDS, TWELVE_MAX_TIME
    from scorer.twelve import MAX_TIME

    assert MAX_TIME == TWELVE_MAX_TIME == EVENT_FIELDS["time"]["maximum"]  # one bound
    assert score_twelve(game(("1-2", "3-4", 9_999_999.9), ("1-2", "3-4", MAX_TIME)))["time"] == MAX_TIME
    with pytest.raises(RecordError, match="too large") as refused:
        score_twelve(game(("1-2", "3-4", 9_999_999.9), ("1-2", "3-4", MAX_TIME + 0.5)))
    assert refused.value.code == "twelve_time_max" and refused.value.event == 1


@pytest.mark.parametrize(
    ("field", "value"), [("seat", 5), ("end", "north"), ("tile", "6-6"), ("count", 3), ("team", 0), ("points", 5)]
)
def test_a_flip_with_a_field_of_the_other_games_is_refused_naming_it(field, value):
    """Probe: a flip with seat, end, tile or count was kept as sent (and means nothing in twelve)."""
    record = game(("6-6", "0-0", 1), ("1-2", "3-4", 2))
    record["hands"][0]["events"][1][field] = value
    with pytest.raises(RecordError, match=f"a flip of twelve has no '{field}'") as refused:
        score_twelve(record)
    assert refused.value.code == "twelve_field" and refused.value.params == {"field": field}
    assert (refused.value.hand, refused.value.event) == (0, 1)


def test_a_field_no_game_knows_is_ignored_in_twelve_as_in_every_record():
    # GAME_RECORD.md: "Fields not listed here may be added; a reader ignores what it does not know"
    record = game(("6-6", "0-0", 1), ("1-2", "3-4", 2))
    record["hands"][0]["events"][1]["note"] = "my own app's field"
    record["hands"][0]["events"][0]["reason"] = "a note"
    record["hands"][0]["dealer"] = "Ana"
    assert score_twelve(record)["attempts"] == 2


@pytest.mark.parametrize(("field", "value"), [("leader", 2), ("deal", [["6-6", "0-0"]]), ("unseen_draws", True)])
def test_a_hand_of_twelve_with_a_leader_or_a_deal_is_refused_naming_it(field, value):
    record = game(("6-6", "0-0", 1))
    record["hands"][0][field] = value
    with pytest.raises(RecordError, match=f"the hand of twelve has no '{field}'") as refused:
        score_twelve(record)
    assert refused.value.code == "twelve_field" and refused.value.params == {"field": field}


def test_a_record_of_twelve_with_seating_is_refused():
    with pytest.raises(RecordError, match="no 'seating'") as refused:
        score_twelve({**game(("6-6", "0-0", 1)), "seating": ["bottom"]})
    assert refused.value.code == "twelve_field"


def test_spinner_score_refuses_a_record_of_twelve_with_a_leader(tmp_path, capsys):
    from spinner.cli import main

    record = game(("6-6", "0-0", 1))
    record["hands"][0]["leader"] = 3
    path = tmp_path / "leader.json"
    path.write_text(json.dumps(record))
    with pytest.raises(SystemExit) as ended:
        main(["score", str(path)])
    assert ended.value.code != 0
    assert "leader" in capsys.readouterr().err
