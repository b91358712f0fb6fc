"""The replay's fast path changes nothing: a record replayed in one go equals the same events applied one by one.

`Match.from_record` hands runs of ordinary plays and passes to `Hand.replay_plain_events`, a
tight loop that checks and applies them without going through the event handlers (line games:
block, draw, partners-block). `Match.apply` never takes that loop: it goes through
`Hand.apply` and the handlers, one event at a time. So for any record, legal or not, both must
end in the same state (every field of every hand, the layout down to each placement) with the
same answer, or stop at the same event with the same error.

Records are random simulated matches (hypothesis picks variant, players, options and seed), as
they were played or as a table would have observed them, with one event corrupted in a way
that the fast path must refuse to take (and leave to the handlers) or take correctly.
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scorer import FULL_SET, VARIANTS, Match, RecordError
from scorer.hand import Hand
from scorer.simulate import observe, simulate_match

CHECKS = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "80")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)

LINE_VARIANTS = ["block", "draw", "partners-block"]  # the fast path's games
TILE_NAMES = [str(t) for t in FULL_SET]


#: Ways to spoil (or harmlessly rewrite) one event. Each is (name, change); a change returns the
#: new event, or None to drop the event.
def _corruptions(players: int, rng: random.Random) -> dict[str, Any]:
    def swap_end(e: dict[str, Any]) -> dict[str, Any]:
        return {**e, "end": {"west": "east", "east": "west"}.get(e.get("end"), "west")}

    def reversed_tile(e: dict[str, Any]) -> dict[str, Any]:
        if "tile" not in e:
            return e
        a, b = e["tile"].split("-")
        return {**e, "tile": f"{b}-{a}"}  # the same tile: legal, same answer

    return {
        "none": lambda e: e,
        "next seat": lambda e: {**e, "seat": (e["seat"] + 1) % players},
        "seat True": lambda e: {**e, "seat": True},
        "seat text": lambda e: {**e, "seat": str(e["seat"])},
        "no seat": lambda e: {k: v for k, v in e.items() if k != "seat"},
        "random tile": lambda e: {
            **e,
            "type": "play",
            "tile": rng.choice(TILE_NAMES),
            "end": rng.choice(["west", "east"]),
        },
        "reversed tile": reversed_tile,
        "tile 7-7": lambda e: {**e, "tile": "7-7"},
        "tile list": lambda e: {**e, "tile": ["6-6"]},
        "other end": swap_end,
        "no end": lambda e: {k: v for k, v in e.items() if k != "end"},
        "end north": lambda e: {**e, "end": "north"},
        "end list": lambda e: {**e, "end": ["west"]},
        "play to pass": lambda e: {"type": "pass", "seat": e["seat"]},
        "no type": lambda e: {k: v for k, v in e.items() if k != "type"},
        "not an object": lambda e: [e],
        "dropped": lambda e: None,
        "twice": lambda e: "twice",
    }


def one_by_one(record: dict[str, Any]) -> Match:
    """`Match.from_record` without the fast path: every event through `Match.apply`."""
    match = Match.new(record["variant"], list(record["players"]), record.get("options"))
    for h, hand in enumerate(record["hands"]):
        try:
            match.start_hand(leader=hand.get("leader"), deal=hand.get("deal"))
            for e, event in enumerate(hand["events"]):
                match.apply(event, e)
            match.close_hand()
        except RecordError as error:
            raise error.at(hand=h) from None
    return match


def state(hand: Hand) -> tuple[Any, ...]:
    """Everything a hand holds, in comparable form."""
    layout = hand.layout
    return (
        list(layout.placements),
        {e: list(a) for e, a in layout.arms.items()},
        layout.spinner,
        set(layout._doubles),
        dict(layout.open_ends()),
        layout._north_south_open,
        [set(s) for s in hand.held],
        dict(hand.owner),
        dict(hand.on_table),
        list(hand.counts),
        hand.boneyard,
        hand.boneyard_tiles,
        set(hand.aside),
        [[(p.event, None if p.layout is None else list(p.layout.placements)) for p in ps] for ps in hand.passes],
        hand.passes_in_row,
        hand.turn,
        hand.end,
        hand.must_play,
        hand.out_seat,
        hand.out_with_double,
        list(hand.revealed),
        list(hand.pips),
        list(hand.plays),
        list(hand.inferred_passes),
        list(hand.adjustments),
        hand.events,
        hand.leader,
    )


def outcome(build: Any, record: dict[str, Any]) -> tuple[Any, ...]:
    try:
        match = build(record)
    except RecordError as error:
        return ("refused", str(error), error.hand, error.event)
    return ("scored", match.answer(), [state(h) for h in match.hands], list(match.totals), match.winner)


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, Any], str, int]:
    variant = draw(st.sampled_from(LINE_VARIANTS + ["partners", "all-fives", "cross"]), label="variant")
    players = draw(st.sampled_from(VARIANTS[variant].players), label="players")
    options = draw(st.sampled_from([{}, {"target": 40}, {"tie": "leading_team_wins"}]), label="options")
    if variant == "cross":
        options = {k: v for k, v in options.items() if k == "target"}
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    record = simulate_match(variant, players, seed, options, max_hands=6)
    if draw(st.booleans(), label="observed"):
        record = observe(record, random.Random(seed))
    h = draw(st.integers(0, len(record["hands"]) - 1), label="hand")
    events = record["hands"][h]["events"]
    e = draw(st.integers(0, max(len(events) - 1, 0)), label="event")
    kind = draw(st.sampled_from(sorted(_corruptions(players, random.Random(0)))), label="corruption")
    return record, kind, h * 1000 + e


@CHECKS
@given(cases())
def test_a_replay_in_one_go_equals_the_events_one_by_one(case):
    record, kind, where = case
    h, e = divmod(where, 1000)
    record = copy.deepcopy(record)
    events = record["hands"][h]["events"]
    if events:
        change = _corruptions(len(record["players"]), random.Random(where))[kind]
        new = change(events[e])
        if new is None:
            del events[e]
        elif new == "twice":
            events.insert(e, copy.deepcopy(events[e]))
        else:
            events[e] = new
    assert outcome(Match.from_record, record) == outcome(one_by_one, record)


def test_the_fast_path_takes_the_bulk_of_a_block_game():
    """Not vacuous: in a full-information line game the loop takes every play and pass between the lead and the end."""
    for seed in range(20):
        record = simulate_match("partners-block", 4, seed, {}, max_hands=1)
        events = record["hands"][0]["events"]
        match = Match.new(record["variant"], record["players"], record["options"])
        hand = match.start_hand(leader=record["hands"][0]["leader"], deal=record["hands"][0]["deal"])
        assert hand.replay_plain_events(events, 0) == 0  # before the lead: the handlers lead
        hand.apply(events[0], 0)
        stop = hand.replay_plain_events(events, 1)
        assert stop == len(events) - 1, seed  # all but the event that ends the hand (out, or the blocking pass)
        assert hand.end is None and hand.events == stop
        hand.apply(events[stop], stop)
        assert hand.end in ("out", "blocked")
        assert hand.plays == Match.from_record(record).answer()["hands"][0]["plays"]
