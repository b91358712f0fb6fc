"""Records we hand out score the same for any reader (`scorer.explicit`): the draws a camera did
not see, which a hand saying `"unseen_draws": true` leaves the scorer to infer, are written out as
`draw` events with a `count`, so that the record with the field removed (a reader of GAME_RECORD.md
ignores it) scores as the camera's record does; where no such record is found, the hand keeps the
field. The probe: a web camera match "a play after the end of the hand" without it."""

from __future__ import annotations

import copy
import io
import json
import random
import zipfile
from typing import Any

import pytest

from scorer.errors import RecordError
from scorer.explicit import explicit_record
from scorer.match import score_record
from scorer.simulate import simulate_match
from tests.support.records import pass_, pips, play, record, reveal
from tests.support.web import Table

#: a four-handed all-fives line, every seat in turn (5 tiles each): seat 0 lays its fifth at event 16
LINE = "6-6 6-5 5-5 5-4 4-4 4-3 3-3 3-2 2-2 2-1 1-1 1-0 0-0 0-6 6-4 4-1 1-5 5-3 3-6 6-2 2-0".split()


def line(count: int) -> list[dict[str, Any]]:
    return [play(k % 4, t, "east") if k else play(0, t) for k, t in enumerate(LINE[:count])]


def camera(*events: dict[str, Any], variant: str = "all-fives", players: int = 4) -> dict[str, Any]:
    return record(variant, {"leader": 0, "unseen_draws": True, "events": list(events)}, players=players)


def stripped(data: dict[str, Any]) -> dict[str, Any]:
    """The record as a reader that knows only GAME_RECORD.md reads it: without `unseen_draws`."""
    data = copy.deepcopy(data)
    for hand in data["hands"]:
        hand.pop("unseen_draws", None)
    return data


def scores(answer: dict[str, Any]) -> Any:
    """An answer but for the events' indexes and what the scorer inferred."""
    hands = [
        {
            **{k: v for k, v in h.items() if k not in ("plays", "inferred_draws", "inferred_passes", "maybe_out")},
            "plays": [{k: v for k, v in p.items() if k != "event"} for p in h["plays"]],
        }
        for h in answer["hands"]
    ]
    return hands, answer["totals"], answer["winner"]


def kinds(events: list[dict[str, Any]]) -> list[tuple[str, int, Any]]:
    return [(e["type"], e["seat"], e.get("tile", e.get("count"))) for e in events]


def test_a_seat_that_plays_past_its_counted_tiles_drew_one_before_that_play():
    camera_record = camera(*line(21))
    with pytest.raises(RecordError, match="after the end of the hand"):
        score_record(stripped(camera_record))  # what the probe found
    shared = explicit_record(camera_record)
    hand = shared.record["hands"][0]
    assert "unseen_draws" not in hand and shared.kept_open == []
    # each seat laid a sixth tile: it drew one before its fifth (as the play after its fifth shows)
    assert kinds(hand["events"][16:24]) == [
        ("draw", 0, 1),
        ("play", 0, "1-5"),
        ("draw", 1, 1),
        ("play", 1, "5-3"),
        ("draw", 2, 1),
        ("play", 2, "3-6"),
        ("draw", 3, 1),
        ("play", 3, "6-2"),
    ]
    assert scores(score_record(stripped(shared.record))) == scores(score_record(camera_record))
    assert [shared.where(0, e) for e in (0, 15, 16, 17, 20, 21)] == [0, 15, 17, 19, 24, 25]
    assert camera_record["hands"][0]["unseen_draws"] is True  # the record given is left as it was


def test_the_pips_shown_at_the_end_are_drawn_before_the_seats_last_play():
    told = camera(*line(21), pips(0, 0), pips(1, 3), pips(2, 12), pips(3, 8))
    shared = explicit_record(told)
    assert shared.kept_open == []
    answer = score_record(stripped(shared.record))
    assert scores(answer) == scores(score_record(told)) and answer["hands"][0]["bonus"] is not None


@pytest.mark.parametrize(
    "events, written",
    [
        # a pass while the boneyard may hold tiles: the passer drew the rest of it first
        ([play(0, "6-6"), pass_(1)], [("play", 0, "6-6"), ("draw", 1, 8), ("pass", 1, None)]),
        # a pass a later seat's play shows: written out, with the draw before it
        (
            [play(0, "6-6"), play(2, "6-5", "east")],
            [("play", 0, "6-6"), ("draw", 1, 8), ("pass", 1, None), ("play", 2, "6-5")],
        ),
    ],
)
def test_a_pass_with_tiles_perhaps_left_is_written_after_the_draw_of_the_rest(events, written):
    shared = explicit_record(camera(*events))
    assert kinds(shared.record["hands"][0]["events"]) == written
    assert scores(score_record(stripped(shared.record))) == scores(score_record(camera(*events)))


def test_tiles_revealed_beyond_the_count_were_drawn_unseen_where_none_of_them_fitted():
    # two players, nine tiles each: seat 1 shows ten at the end of a blocked line
    full = simulate_match("all-fives", 2, 9, max_hands=1)
    hand = full["hands"][0]
    held = {s: set(hand["deal"][s]) for s in (0, 1)}
    events = []
    for event in hand["events"]:
        if event["type"] == "draw":
            held[event["seat"]].add(event["tile"])
        elif event["type"] == "play":
            held[event["seat"]] -= {event["tile"], "-".join(reversed(event["tile"].split("-")))}
        if event["type"] in ("play", "pass"):
            events.append(event)
    truth = score_record({**full, "hands": [hand]})["hands"][0]
    if truth["end"] in ("out", "blocked"):
        events += [reveal(s, *sorted(held[s])) for s in (0, 1) if held[s]]
    seen = {**full, "hands": [{"leader": hand["leader"], "unseen_draws": True, "events": events}]}
    shared = explicit_record(seen)
    assert shared.kept_open == [] and any(e["type"] == "draw" for e in shared.record["hands"][0]["events"])
    assert score_record(shared.record)["totals"] == score_record(seen)["totals"]


def test_a_hand_no_draws_can_explain_keeps_unseen_draws_and_says_so():
    # seat 1's pass emptied the boneyard at once, so seat 0 (whose only turn before it was the
    # lead) drew nothing; yet it plays a sixth tile. The scorer's open counts take it; no record
    # of draws can say it, so the hand is handed out as it was.
    events = [play(0, "6-6"), pass_(1)]
    seats = [2, 3, 0]
    for k, tile in enumerate(LINE[1:17]):
        seat = seats[k % 3]
        events.append(play(seat, tile, "east"))
        if seat == 0:
            events.append(pass_(1))
    data = camera(*events)
    answer = score_record(data)
    shared = explicit_record(data)
    assert shared.kept_open == [0] and shared.record == data and shared.moved == {}
    assert score_record(shared.record) == answer
    with pytest.raises(RecordError):
        score_record(stripped(shared.record))


@pytest.mark.parametrize("seed", range(24))
def test_hands_seen_without_their_draws_are_written_out_or_kept_open_never_scored_otherwise(seed):
    rng = random.Random(seed)
    variant, players = [("all-fives", 2), ("all-fives", 4), ("draw", 3), ("draw", 4), ("cross", 3)][seed % 5]
    full = simulate_match(variant, players, 500 + seed, max_hands=3)
    truth = score_record(full)
    hands = []
    for h, hand in enumerate(full["hands"]):
        held = {s: set(hand["deal"][s]) for s in range(players)}
        events = []
        for event in hand["events"]:
            if event["type"] == "draw":
                held[event["seat"]].add(event["tile"])
                if rng.random() < 0.3:  # some draws seen (as counts), most not
                    events.append({"type": "draw", "seat": event["seat"], "count": 1})
            elif event["type"] in ("play", "pass"):
                if event["type"] == "play":
                    held[event["seat"]] -= {event["tile"], "-".join(reversed(event["tile"].split("-")))}
                events.append(event)
        if truth["hands"][h]["end"] in ("out", "blocked"):
            end = rng.choice(["reveal", "pips"])
            for s in range(players):
                if end == "reveal":
                    events.append(reveal(s, *sorted(held[s])))
                else:
                    events.append(pips(s, truth["hands"][h]["pips"][s]))
        hands.append({"leader": hand["leader"], "unseen_draws": True, "events": events})
    seen = {**full, "hands": hands}
    answer = score_record(seen)
    shared = explicit_record(seen)
    assert score_record(shared.record)["totals"] == answer["totals"]
    for h in range(len(hands)):
        assert shared.record["hands"][h].get("unseen_draws") is (True if h in shared.kept_open else None)
    if not shared.kept_open:
        assert scores(score_record(stripped(shared.record))) == scores(answer)


def test_the_web_keeps_the_camera_record_and_hands_out_the_explicit_one(client):
    data = camera(*line(21))
    made = client.post("/api/games", json=data)
    assert made.status_code == 201, made.get_json()
    t = Table(client, made.get_json())
    assert t.record()["hands"][0]["unseen_draws"] is True  # as kept: the events API's indexes
    kept = score_record(t.record())  # the record's answer (/score shows the last seat perhaps out)
    downloaded = t.get("/record?download=1")
    assert "attachment" in downloaded.headers["Content-Disposition"]
    shared = json.loads(downloaded.data)
    assert "unseen_draws" not in shared["hands"][0] and len(shared["hands"][0]["events"]) == 25
    assert scores(score_record(stripped(shared))) == scores(kept)
    assert json.loads(t.get("/record?download=1&version=1").data) == shared
    exported = t.get("/export")
    with zipfile.ZipFile(io.BytesIO(exported.data)) as archive:
        assert json.loads(archive.read("record.json")) == shared
    # the explicit record imports as it is, and exports the same
    again = client.post("/api/games", json=shared)
    assert again.status_code == 201
    u = Table(client, again.get_json())
    assert json.loads(u.get("/record?download=1").data) == shared


def test_an_archive_with_draws_written_out_imports_back_as_kept(client):
    """record.json is the explicit record, for any reader; match.json keeps the record as kept,
    which the history's events index, so the import gives back the same match and history."""
    data = camera(*line(21))
    made = client.post("/api/games", json=data)
    t = Table(client, made.get_json())
    assert t.post("/disputes", {"hand": 0, "event": 20, "why": "was it 2-3?"}).status_code in (200, 201)
    exported = t.get("/export").data
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        about = json.loads(archive.read("match.json"))
        assert "unseen_draws" not in json.loads(archive.read("record.json"))["hands"][0]
    assert about["record"] == t.record()
    again = client.post("/api/games", data=exported, content_type="application/zip")
    assert again.status_code == 201, again.get_json()
    u = Table(client, again.get_json())
    assert u.record() == t.record()
    kept, back = t.get("/history").get_json()["changes"], u.get("/history").get_json()["changes"]
    assert [(c["action"], c["hand"], c["event"]) for c in back[: len(kept)]] == [
        (c["action"], c["hand"], c["event"]) for c in kept
    ]


def _rezipped(data: bytes, **changed: Any) -> bytes:
    """The archive with members replaced (name -> new JSON)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            member = changed.get(name.replace(".", "_"))
            target.writestr(name, json.dumps(member) if member is not None else source.read(name))
    return out.getvalue()


def test_an_archive_whose_two_records_are_not_one_match_is_refused(client):
    """match.json's record is the one imported: record.json, what any other reader sees, must be it
    with its draws written out (an archive could hold two matches, one for us and one for others)."""
    made = client.post("/api/games", json=camera(*line(21)))
    exported = Table(client, made.get_json()).get("/export").data
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        about = json.loads(archive.read("match.json"))
    other = {**about, "record": {**about["record"], "players": ["W", "X", "Y", "Z"]}}
    refused = client.post("/api/games", data=_rezipped(exported, match_json=other), content_type="application/zip")
    assert refused.status_code == 400 and "not the one record.json holds" in refused.get_json()["error"]


def test_an_archive_history_past_a_billion_versions_is_refused(client):
    """PostgreSQL keeps a match's version in 32 bits: an import at 2**31 - 1 could never change again."""
    made = client.post("/api/games", json=camera(*line(3)))
    exported = Table(client, made.get_json()).get("/export").data
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        about = json.loads(archive.read("match.json"))
    about["history"][-1]["version"] = 2**31 - 2
    refused = client.post("/api/games", data=_rezipped(exported, match_json=about), content_type="application/zip")
    assert refused.status_code == 400, refused.get_json()


def test_a_frame_taken_back_names_no_event_where_the_import_reads_it():
    """With match.json's record, the import takes each frame's `kept_event`: a frame whose play was
    taken back and names one there was shown as taken back and at play 5 at once."""
    from webapp.archive import _check_link
    from webapp.errors import ApiError

    taken = {"event": None, "kept_event": 5, "link": {"state": "taken back"}}
    _check_link(taken, "event", "frame 0")
    with pytest.raises(ApiError, match="taken back, and it names event 5"):
        _check_link(taken, "kept_event", "frame 0")


def test_a_long_record_is_written_out_replaying_each_hand_once_not_each_hand_before_it(monkeypatch):
    """The probe: a record of 600 camera hands took 192 s, each hand replaying every hand before it
    (`Match.from_record`) once, and again for each way its draws were placed. Now the hands before
    are kept (`scorer.explicit._Strict`): a hand is started once for the camera's answer, once for
    each way of writing it out, and once as handed out (but the last, which no hand follows),
    whatever hand of the record it is."""
    import scorer.explicit as explicit
    from scorer.match import Match

    full = simulate_match("all-fives", 2, 7, options={"target": 100000}, max_hands=40)
    truth = score_record(full)
    hands = []
    for h, hand in enumerate(full["hands"]):
        held = {s: set(hand["deal"][s]) for s in range(2)}
        events = []
        for event in hand["events"]:
            if event["type"] == "draw":
                held[event["seat"]].add(event["tile"])
            elif event["type"] in ("play", "pass"):
                if event["type"] == "play":
                    held[event["seat"]] -= {event["tile"], "-".join(reversed(event["tile"].split("-")))}
                events.append(event)
        if truth["hands"][h]["end"] in ("out", "blocked"):
            events += [reveal(s, *sorted(held[s])) for s in range(2)]
        hands.append({"leader": hand["leader"], "unseen_draws": True, "events": events})
    seen = {**full, "hands": hands}
    assert len(hands) == 40

    started = writes = 0
    start_hand, write = Match.start_hand, explicit._write

    def counted_start(self: Match, *args: Any, **kwargs: Any) -> Any:
        nonlocal started
        started += 1
        return start_hand(self, *args, **kwargs)

    def counted_write(*args: Any) -> Any:
        nonlocal writes
        writes += 1
        return write(*args)

    monkeypatch.setattr(Match, "start_hand", counted_start)
    monkeypatch.setattr(explicit, "_write", counted_write)
    shared = explicit_record(seen)
    assert len(shared.moved) >= 35 and len(shared.moved) + len(shared.kept_open) == 40
    assert writes <= 40 * explicit.TRIES
    # replaying the hands before each hand would start 40 * 41 / 2 = 820 hands at the least
    assert started == 40 + 39 + writes
    assert score_record(shared.record)["totals"] == score_record(seen)["totals"]


def test_the_web_writes_a_version_out_once_for_every_download_and_export(client, monkeypatch):
    """Anyone with a viewer link may download or export a match again and again: a long camera
    record is written out (`scorer.explicit`) once for each version of it, not for each request."""
    import webapp.store as store

    made = client.post("/api/games", json=camera(*line(20)))
    assert made.status_code == 201, made.get_json()
    t = Table(client, made.get_json())
    kept = t.version()
    calls = []
    monkeypatch.setattr(store, "explicit_record", lambda data: calls.append(1) or explicit_record(data))
    first = t.get("/record?download=1").data
    assert t.get("/record?download=1").data == first
    assert t.get(f"/record?download=1&version={kept}").data == first
    with zipfile.ZipFile(io.BytesIO(t.get("/export").data)) as archive:
        assert json.loads(archive.read("record.json")) == json.loads(first)
    assert len(calls) == 1
    assert t.event(play(0, LINE[20], "east")).status_code == 201
    again = json.loads(t.get("/record?download=1").data)
    assert len(again["hands"][0]["events"]) > len(json.loads(first)["hands"][0]["events"])
    assert t.get("/export").status_code == 200 and len(calls) == 2
    assert t.version() > kept
    assert t.get(f"/record?download=1&version={kept}").data == first and len(calls) == 2  # still kept
