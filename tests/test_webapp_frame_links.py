"""A kept photo stays linked to the event it made: every change that moves events (an undo, a
removal, a correction, plays recorded from the camera or the pad) keeps each frame's `event`
right, in the change's own transaction, or says plainly that its event was taken back or
corrected (`link`). The replay and `GET .../frames` then never tie a photo to another play.

Everything is real from the upload to the record but the reader and, in the property test, what
the follower makes of each photo (`tests.support.camera.Asks`: the play it is told it saw).
"""

from __future__ import annotations

import random
import re

import pytest

from scorer.match import Match
from scorer.moves import legal_moves
from tests.support.camera import Asks, photo, seen, send, who_played
from tests.support.records import pass_, play

pytestmark = pytest.mark.usefixtures("seats_in_turn_order")


def text_of(page: str, element_id: str) -> str | None:
    found = re.search(rf'<p id="{element_id}">(.*?)</p>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else None


def frames_of(cam) -> list[dict]:
    return cam.get("/frames", headers=cam.auth).get_json()["frames"]


def three_from_photos(cam, script) -> list[dict]:
    """6-6 led by Ana, then 6-1 and 1-2, each recorded from a photo (the last one confirmed)."""
    script.readings += [
        seen("6-6"),
        seen("6-6", "6-1", centre="6-6", arms={"west": ["6-1"]}),
        seen("6-6", "6-1", ("1-2", 0.6), centre="6-6", arms={"west": ["6-1", "1-2"]}),
    ]
    sent = [send(cam, photo(), "?seat=0").get_json(), send(cam, photo()).get_json(), send(cam, photo()).get_json()]
    assert cam.post(f"/frames/{sent[2]['id']}/accept", {}).status_code == 200
    return sent


def test_an_undone_play_is_taken_back_from_its_photo_not_given_the_next_play(cam, script):
    sent = three_from_photos(cam, script)
    assert cam.post("/undo", {"why": "the camera got it wrong", "who": "Ana"}).status_code == 200
    assert cam.event(play(2, "6-4", "east")).status_code == 201  # the pad's play takes event 2
    frames = {f["id"]: f for f in frames_of(cam)}
    undone = frames[sent[2]["id"]]
    assert undone["event"] is None
    assert undone["link"]["state"] == "taken back" and undone["link"]["action"] == "undo"
    assert (undone["link"]["event"], undone["link"]["who"]) == (2, "Ana")
    assert [frames[f["id"]]["event"] for f in sent[:2]] == [0, 1] and frames[sent[0]["id"]]["link"] is None
    page = cam.client.get(f"/g/{cam.id}/hands/0/replay?at=3").text
    assert text_of(page, "frame-made") is None  # not "It made play 3: Cruz played 6-4"
    assert text_of(page, "frame-taken-back") == (
        "The play it made (play 3) was taken back by an undo. (Ana: “the camera got it wrong”)"
    )
    assert "It made play 2:" in cam.client.get(f"/g/{cam.id}/hands/0/replay?at=2").text


def test_a_voided_hand_brought_back_by_undo_links_its_photos_again(cam, script):
    sent = three_from_photos(cam, script)
    voided = cam.client.delete(f"/api/games/{cam.id}/hands/0", json={"why": "by mistake"}, headers=cam.auth)
    assert voided.status_code == 200, voided.get_json()
    assert [f["event"] for f in frames_of(cam)] == [None, None, None]
    assert cam.post("/undo", {"why": "not a misdeal"}).status_code == 200
    frames = {f["id"]: f for f in frames_of(cam)}
    assert [(frames[f["id"]]["event"], frames[f["id"]]["link"]) for f in sent] == [(0, None), (1, None), (2, None)]


def test_a_removal_moves_the_later_photos_up_with_their_plays(cam, script):
    assert cam.event(play(0, "6-6")).status_code == 201
    assert cam.event(pass_(1)).status_code == 201  # recorded by mistake: removed below
    script.readings += [
        seen("6-6", "6-1", centre="6-6", arms={"west": ["6-1"]}),
        seen("6-6", "6-1", "1-2", centre="6-6", arms={"west": ["6-1", "1-2"]}),
    ]
    sent = [send(cam, photo()).get_json(), send(cam, photo()).get_json()]
    assert [(f["status"], f["event"]) for f in sent] == [("recorded", 2), ("recorded", 3)]
    removed = cam.client.delete(
        f"/api/games/{cam.id}/hands/0/events/1", json={"why": "Ben never passed"}, headers=cam.auth
    )
    assert removed.status_code == 200, removed.get_json()
    events = cam.record()["hands"][0]["events"]
    frames = frames_of(cam)
    assert [f["event"] for f in frames] == [1, 2] and all(f["link"] is None for f in frames)
    assert [events[f["event"]]["tile"] for f in frames] == ["1-6", "1-2"]
    page = cam.client.get(f"/g/{cam.id}/hands/0/replay?at=2").text
    assert text_of(page, "frame-made").startswith("It made play 3: Dee played 1-2")


def test_a_corrected_play_keeps_its_photo_at_its_place_and_says_it_was_corrected(cam, script):
    sent = three_from_photos(cam, script)
    done = cam.client.put(
        f"/api/games/{cam.id}/hands/0/events/2",
        json={"event": play(2, "1-3", "west"), "why": "the photo shows 1-3", "who": "Ben"},
        headers=cam.auth,
    )
    assert done.status_code == 200, done.get_json()
    frame = next(f for f in frames_of(cam) if f["id"] == sent[2]["id"])
    assert frame["event"] == 2
    assert frame["link"] == {
        "state": "corrected",
        "action": "correct",
        "version": done.get_json()["version"],
        "event": 2,
        "who": "Ben",
        "why": "the photo shows 1-3",
    }
    made = text_of(cam.client.get(f"/g/{cam.id}/hands/0/replay?at=3").text, "frame-made")
    assert made.startswith("It made play 3, corrected since to: Cruz played 1-3")
    assert made.endswith("(Ben: “the photo shows 1-3”)")
    # taken back after its correction: no longer at any place
    assert cam.post("/undo", {"why": "not played yet"}).status_code == 200
    frame = next(f for f in frames_of(cam) if f["id"] == sent[2]["id"])
    assert frame["event"] is None and frame["link"]["state"] == "taken back"


# -- the property: random camera frames, pad events, undos, removals and corrections -----------------


def _event_of(move) -> dict:
    return play(move.seat, str(move.tile), move.end)


def _next_plays(record: dict) -> list[dict]:
    """The plays the scorer takes next by the turn seat (no pass implied)."""
    match = Match.from_record(record)
    hand = match.current
    if hand is None or hand.over:
        return []
    return [_event_of(m) for m in legal_moves(hand) if not m.passes]


def _check_links(cam, made: dict[int, tuple[str, int]], what: str) -> None:
    """Every frame that made a play names an event of that tile and seat, or says it was taken
    back (no event) or corrected (its place, where the history says a correction was made)."""
    record = cam.record()
    changes = {c["version"]: c for c in cam.get("/history").get_json()["changes"]}
    for frame in frames_of(cam):
        link, event = frame.get("link"), frame["event"]
        where = f"after {what}: frame {frame['id']} ({made.get(frame['id'])}) -> {event}, {link}"
        if frame["id"] not in made:
            assert event is None and link is None, where
        elif link is not None and link["state"] == "taken back":
            assert event is None and changes[link["version"]]["action"] in ("undo", "remove"), where
        elif link is not None:
            assert link["state"] == "corrected", where
            change = changes[link["version"]]
            assert (change["action"], change["hand"], change["event"]) == ("correct", frame["hand"], link["event"])
            assert event is not None and event < len(record["hands"][frame["hand"]]["events"]), where
        else:
            assert event is not None and event < len(record["hands"][frame["hand"]]["events"]), where
            played = record["hands"][frame["hand"]]["events"][event]
            assert (played.get("tile"), played.get("seat")) == made[frame["id"]], where


@pytest.mark.parametrize("seed", range(6))
def test_every_photo_stays_linked_to_its_play_whatever_moves_the_events(cam, monkeypatch, seed):
    from vision.follow.follower import Outcome

    asks = Asks().install(monkeypatch)
    rng = random.Random(seed)
    made: dict[int, tuple[str, int]] = {}
    steps = ["photo", "photo", "ask", "pad", "pad", "pass", "undo", "remove", "remove", "correct"]
    for step in range(40):
        record = cam.record()
        if not record["hands"]:
            assert cam.post("/hands", {}).status_code == 201
            continue
        events = record["hands"][-1]["events"]
        plays = _next_plays(record)
        kind = rng.choice(steps)
        if not plays and kind in ("photo", "ask", "pad"):
            cam.post("/hands", {})  # the hand is over: the next (refused once the match is won)
            continue
        if kind in ("photo", "ask"):
            event = rng.choice(plays)
            if kind == "photo":
                asks.outcomes.append(
                    Outcome("play", "seen", events=[event], where=[(len(record["hands"]) - 1, len(events))])
                )
            else:
                asks.outcomes.append(who_played(event["tile"], [event["seat"]], event.get("end")))
            frame = send(cam, photo()).get_json()
            if kind == "ask":
                assert frame["status"] == "confirm", frame
                answered = cam.post(f"/frames/{frame['id']}/accept", {"event": event})
                assert answered.status_code == 200, answered.get_json()
                frame = answered.get_json()
            assert frame["status"] in ("recorded", "accepted"), frame
            made[frame["id"]] = (event["tile"], event["seat"])
        elif kind == "pad":
            assert cam.event(rng.choice(plays)).status_code == 201
        elif kind == "pass":
            turn = Match.from_record(record).current.turn
            if turn is not None:
                cam.event(pass_(turn))  # refused where the seat must hold a tile that fits
        elif kind == "undo":
            assert cam.post("/undo", {"why": "taken back"}).status_code == 200
        elif events and kind == "remove":
            h, e = len(record["hands"]) - 1, rng.randrange(len(events))
            cam.client.delete(f"/api/games/{cam.id}/hands/{h}/events/{e}", json={"why": "no"}, headers=cam.auth)
        elif events and kind == "correct":
            h, e = len(record["hands"]) - 1, rng.randrange(len(events))
            before = {**record, "hands": [*record["hands"][:-1], {**record["hands"][-1], "events": events[:e]}]}
            other = [p for p in _next_plays(before) if p != events[e]]
            if other:
                cam.client.put(
                    f"/api/games/{cam.id}/hands/{h}/events/{e}",
                    json={"event": rng.choice(other), "why": "corrected"},
                    headers=cam.auth,
                )  # refused where a later event no longer fits
        _check_links(cam, made, f"step {step} ({kind})")
    assert made  # the camera made plays
