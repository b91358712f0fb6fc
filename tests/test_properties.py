"""Properties of the rules engine over random simulated matches (hypothesis).

Hypothesis picks the variant, the number of players, the house rule options and the seed;
`scorer.simulate.simulate_match` plays a random legal match through the engine and gives its
full-information record (every deal known). Each property below is checked on such records.

`PROPERTY_EXAMPLES=2000 .venv/bin/python -m pytest tests/test_properties.py` searches harder
than the default 60 examples a property.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scorer import FULL_SET, SET_PIPS, VARIANTS, Match, RecordError, Tile, score_record
from scorer.simulate import observe, simulate_match

# A failing match is reported as it was found (variant, players, options, seed), not shrunk:
# every shrinking step plays a new match, and shrinking a seed makes nothing simpler.
MATCHES = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
TILES = settings(max_examples=60, deadline=None)

# The house rule options each variant takes (RULES.md; scorer/variants.py), None: left out.
OPTION_VALUES: dict[str, dict[str, list[Any]]] = {
    "partners": {
        "preset": ["doscientos", "federation", "mexican"],
        "spinner_order": ["sides_first", "any"],
        "sniff": [False, True],
        "tie": ["no_score", "leading_team_wins"],
        "winners_score": ["losers", "all"],
        "round_each_hand": [False, True],
        "end_at_target": ["at_once", "end_of_hand"],
    },
    "partners-block": {"winners_score": ["losers", "all"], "tie": ["no_score", "leading_team_wins"]},
    "all-fives": {
        "spinner_order": ["sides_first", "any"],
        "sniff": [False, True],
        "round_each_hand": [False, True],
        "tie": ["no_score", "leading_team_wins"],
        "end_at_target": ["at_once", "end_of_hand"],
    },
    "all-fives-bonus": {
        "spinner_order": ["sides_first", "any"],
        "sniff": [False, True],
        "round_each_hand": [False, True],
        "tie": ["no_score", "leading_team_wins"],
    },
    "block": {"tie": ["no_score", "leading_team_wins"], "end_at_target": ["at_once", "end_of_hand"]},
    "draw": {"tie": ["no_score", "leading_team_wins"], "end_at_target": ["at_once", "end_of_hand"]},
    "cross": {},
}
assert set(OPTION_VALUES) == set(VARIANTS)

#: Variants whose scores only grow: every play and every end-of-hand score adds points (or
#: penalty points, in `cross`). In `all-fives` each player loses their own pips at the end of a
#: hand, so a longer record can have lower totals.
GROWING = {"partners", "partners-block", "all-fives-bonus", "block", "draw", "cross"}


@st.composite
def specs(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int]:
    """A match to simulate: (variant, players, options, seed). A failure shows this, not the record."""
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    players = draw(st.sampled_from(VARIANTS[variant].players))
    options: dict[str, Any] = {}
    for name, values in OPTION_VALUES[variant].items():
        value = draw(st.one_of(st.none(), st.sampled_from(values)))
        if value is not None:
            options[name] = value
    target = draw(st.one_of(st.none(), st.sampled_from([15, 40, 75, 120])))
    if target is not None:
        options["target"] = target
    seed = draw(st.integers(0, 2**32 - 1))
    return variant, players, options, seed


def simulate(spec: tuple[str, int, dict[str, Any], int]) -> dict[str, Any]:
    """The spec's full-information match record (legal by construction: the engine played it)."""
    variant, players, options, seed = spec
    return simulate_match(variant, players, seed, options, max_hands=40)


def finished(hand) -> bool:
    return hand.end in ("out", "blocked")


def side_of(record: dict[str, Any], seat: int) -> int:
    return seat % 2 if VARIANTS[record["variant"]].teams else seat


# -- pips are conserved ----------------------------------------------------------------------------


@MATCHES
@given(specs())
def test_every_tile_and_pip_is_somewhere_once(spec):
    """Table + every seat's hand + boneyard (or the tiles set aside) = the whole set, 168 pips."""
    record = simulate(spec)
    match = Match.from_record(record)
    assert len(match.hands) == len(record["hands"])
    assert any(finished(hand) for hand in match.hands) or match.over
    for h, hand in enumerate(match.hands):
        dealt = {Tile.parse(t) for seat in record["hands"][h]["deal"] for t in seat}
        table = list(hand.layout.tiles)
        held = [t for seat in hand.held for t in seat]
        boneyard = list(hand.boneyard_tiles) if hand.boneyard_tiles is not None else []
        aside = [t for t in FULL_SET if t not in dealt] if hand.boneyard_tiles is None else list(hand.aside)
        everywhere = table + held + boneyard + aside
        assert sum(t.pips for t in everywhere) == SET_PIPS == 168, (h, hand.end)
        assert Counter(everywhere) == Counter(FULL_SET), (h, hand.end)  # each tile once, none lost
        if finished(hand):
            for seat in hand.active:
                assert hand.pips[seat] == sum(t.pips for t in hand.held[seat]), (h, seat)
            if hand.end == "out":
                assert hand.pips[hand.out_seat] == 0 and not hand.held[hand.out_seat]


# -- replaying is deterministic and survives JSON -------------------------------------------------


@MATCHES
@given(specs(), st.integers(0, 2**16))
def test_a_record_replays_to_the_same_answer_after_json_and_twice(spec, observe_seed):
    record = simulate(spec)
    for rec in (record, observe(record, random.Random(observe_seed))):
        before = copy.deepcopy(rec)
        first = score_record(rec)
        assert rec == before  # scoring leaves the record as it was
        assert score_record(rec) == first
        assert score_record(json.loads(json.dumps(rec))) == first
        assert json.loads(json.dumps(first)) == first  # the answer itself is plain JSON


# -- a full-information record and what the table saw score the same ------------------------------


def play_rows(hand_row: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(p["seat"], p["tile"], p.get("end"), p["count"], p["points"]) for p in hand_row["plays"]]


@MATCHES
@given(specs(), st.integers(0, 2**16))
def test_full_information_and_observed_records_score_the_same(spec, observe_seed):
    record = simulate(spec)
    observed = observe(record, random.Random(observe_seed))
    assert all("deal" not in hand for hand in observed["hands"])
    full, seen = score_record(record), score_record(observed)
    assert len(full["hands"]) == len(seen["hands"])
    for h, (a, b) in enumerate(zip(full["hands"], seen["hands"], strict=True)):
        assert play_rows(a) == play_rows(b), h
        for key in ("winner", "bonus", "totals", "end", "pips", "leader"):
            assert a[key] == b[key], (h, key)
    assert (full["totals"], full["winner"]) == (seen["totals"], seen["winner"])


# -- the count ---------------------------------------------------------------------------------


@MATCHES
@given(specs())
def test_fives_scores_are_positive_multiples_of_five(spec):
    record = simulate(spec)
    fives = VARIANTS[record["variant"]].fives
    answer = score_record(record)
    plays = 0
    for hand_row in answer["hands"]:
        for p, row in enumerate(hand_row["plays"]):
            plays += 1
            count, points = row["count"], row["points"]
            if not fives:
                assert count is None and points == 0, row
                continue
            assert isinstance(count, int) and count >= 0, row
            assert points == (count if count > 0 and count % 5 == 0 else 0), row
            assert points % 5 == 0, row
            if p == 0:  # a lead counts both its halves (a lone double as well: 5-5 counts 10)
                a, b = map(int, row["tile"].split("-"))
                assert count == a + b, row
    assert plays > 0


@MATCHES
@given(specs())
def test_running_totals_are_the_plays_and_the_bonuses(spec):
    """Every point in the totals comes from a play's fives score or an end-of-hand score."""
    record = simulate(spec)
    answer = score_record(record)
    totals = [0] * len(answer["sides"])
    for hand_row in answer["hands"]:
        for row in hand_row["plays"]:
            totals[side_of(record, row["seat"])] += row["points"]
        for side, points in enumerate(hand_row["bonus"] or []):
            totals[side] += points
        assert hand_row["totals"] == totals, hand_row
        if hand_row["end"] == "target":  # cut short when the match ended at once: no bonus
            assert hand_row["winner"] is None and hand_row["bonus"] is None
    assert answer["totals"] == totals


# -- tile names ---------------------------------------------------------------------------------


@TILES
@given(st.integers(0, 6), st.integers(0, 6))
def test_a_tile_name_round_trips_and_b_a_is_a_b(a, b):
    tile = Tile.parse(f"{a}-{b}")
    assert tile is Tile.parse(f"{b}-{a}") is Tile.of(b, a)
    assert Tile.parse(str(tile)) is tile
    assert str(tile) == f"{min(a, b)}-{max(a, b)}"
    assert tile.pips == a + b and tile.is_double == (a == b)
    assert tile in FULL_SET


@TILES
@given(st.integers(-3, 12), st.integers(-3, 12))
def test_a_name_outside_the_double_six_set_is_refused(a, b):
    if 0 <= a <= 6 and 0 <= b <= 6:
        return
    with pytest.raises(ValueError):
        Tile.parse(f"{a}-{b}")


def test_every_tile_of_the_set_round_trips():
    assert len(FULL_SET) == len(set(FULL_SET)) == 28
    for tile in FULL_SET:
        assert Tile.parse(str(tile)) is tile
        assert Tile.parse(f"{tile.high}-{tile.low}") is tile


def flipped(text: str) -> str:
    a, b = text.split("-")
    return f"{b}-{a}"


@MATCHES
@given(specs())
def test_writing_tiles_the_other_way_round_changes_no_score(spec):
    """ "b-a" is "a-b" in a deal, a draw, a reveal and every play but the lead (whose order says
    which half faces west)."""
    record = simulate(spec)
    turned = copy.deepcopy(record)
    for hand in turned["hands"]:
        hand["deal"] = [[flipped(t) for t in seat] for seat in hand["deal"]]
        leads = 0
        for event in hand["events"]:
            if "tile" in event and (event["type"] != "play" or leads):
                event["tile"] = flipped(event["tile"])
            leads += event["type"] == "play"
            if "tiles" in event:
                event["tiles"] = [flipped(t) for t in event["tiles"]]
    a, b = score_record(record), score_record(turned)
    for hand_a, hand_b in zip(a["hands"], b["hands"], strict=False):
        for row_a, row_b in zip(hand_a["plays"], hand_b["plays"], strict=False):
            assert Tile.parse(row_a["tile"]) is Tile.parse(row_b["tile"])
            row_b["tile"] = row_a["tile"]
    assert a == b


# -- prefixes are legal; an illegal event changes nothing -------------------------------------------


def cut(record: dict[str, Any], h: int, e: int) -> dict[str, Any]:
    prefix = copy.deepcopy(record)
    prefix["hands"] = prefix["hands"][: h + 1]
    prefix["hands"][h]["events"] = prefix["hands"][h]["events"][:e]
    return prefix


def bad_events(match: Match, full_information: bool) -> list[dict[str, Any]]:
    """Events that break a rule whatever the state, and some that break one in this state."""
    hand = match.current
    rules = match.rules
    seat = hand.turn if hand.turn is not None else hand.active[0]
    side_field = "team" if rules.variant.teams else "seat"
    events: list[dict[str, Any]] = [
        {"type": "shuffle", "seat": seat},
        {"type": "play", "seat": seat, "tile": "7-7"},
        {"type": "play", "seat": rules.players, "tile": "0-0"},
        {"type": "play", "seat": seat, "tile": "0-1", "end": "up"},
        {"type": "adjust", side_field: 0, "points": 0, "reason": "nothing"},
        {"type": "adjust", side_field: 0, "points": 5, "reason": " "},
    ]
    if hand.layout.placements:
        on_table = hand.layout.tiles[-1]
        events.append({"type": "play", "seat": seat, "tile": str(on_table), "end": "west"})
    for other in hand.active:
        if other != seat and hand.held[other]:  # known to be in another hand
            events.append({"type": "play", "seat": seat, "tile": str(min(hand.held[other]))})
            break
    if full_information:
        events.append({"type": "draw", "seat": seat, "count": 1})  # a full record names drawn tiles
        if hand.end is None and hand.layout.placements and hand.turn is not None and hand.playable(hand.turn):
            events.append({"type": "pass", "seat": hand.turn})  # who can play must play
    return events


def snapshot(match: Match) -> tuple[Any, ...]:
    hand = match.current
    return (
        [set(s) for s in hand.held],
        list(hand.layout.tiles),
        hand.layout.open_ends(),
        list(hand.counts),
        hand.boneyard,
        set(hand.boneyard_tiles or ()),
        hand.turn,
        hand.end,
        hand.passes_in_row,
        hand.must_play,
        hand.events,
        [len(p) for p in hand.passes],
        list(hand.plays),
        list(hand.pips),
        list(match.totals),
        match.winner,
        len(match.hands),
    )


@MATCHES
@given(specs(), st.booleans(), st.data())
def test_a_prefix_of_a_record_replays_and_an_illegal_event_changes_nothing(spec, observed, data):
    record = simulate(spec)
    if observed:  # what the table saw: no deal, unseen draws, reveals at the end
        record = observe(record, random.Random(spec[3]))
    full = score_record(record)
    h = data.draw(st.integers(0, len(record["hands"]) - 1), label="hand")
    e = data.draw(st.integers(0, len(record["hands"][h]["events"])), label="events kept")
    prefix = cut(record, h, e)

    match = Match.from_record(prefix)  # a prefix of a legal record is legal
    answer = match.answer()
    assert answer["hands"][:h] == full["hands"][:h]
    plays = answer["hands"][h]["plays"]
    assert plays == full["hands"][h]["plays"][: len(plays)]
    if record["variant"] in GROWING:
        for side, total in enumerate(answer["totals"]):
            assert total <= full["totals"][side], (side, answer["totals"], full["totals"])

    bad = data.draw(st.sampled_from(bad_events(match, not observed)), label="bad event")
    before = copy.deepcopy(answer)
    state = snapshot(match)
    with pytest.raises(RecordError) as refused:
        match.apply(bad)
    assert (refused.value.hand, refused.value.event) == (h, e), (bad, str(refused.value))
    assert match.answer() == before, bad
    assert snapshot(match) == state, bad
    # The same event at the end of the prefix record is refused at the same place.
    prefix["hands"][h]["events"].append(bad)
    with pytest.raises(RecordError) as again:
        Match.from_record(prefix)
    assert (again.value.hand, again.value.event) == (h, e)
