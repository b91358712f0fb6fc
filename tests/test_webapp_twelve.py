"""`twelve`, the one-player memory game, through the companion's API: created and flipped through
the same endpoints as every match, each flip checked by the engine (`scorer.twelve`), its time
the server's clock, and kept in the record, the history and the export as any match."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta

import pytest

from scorer.tiles import FULL_SET
from scorer.twelve import score_twelve
from tests.support.web import Table, new_table

#: the 14 pairs of 12 in one double-six set
PAIRS = [
    ("6-6", "0-0"),
    ("5-6", "0-1"),
    ("4-6", "0-2"),
    ("3-6", "0-3"),
    ("2-6", "0-4"),
    ("1-6", "0-5"),
    ("0-6", "1-5"),
    ("5-5", "1-1"),
    ("4-5", "1-2"),
    ("3-5", "1-3"),
    ("2-5", "1-4"),
    ("4-4", "2-2"),
    ("3-4", "2-3"),
    ("3-3", "2-4"),
]


def flip(first: str, second: str, **more: object) -> dict[str, object]:
    return {"type": "flip", "tiles": [first, second], **more}


@pytest.fixture
def game(client) -> Table:
    """A game of twelve for Ana, its one hand started."""
    return new_table(client, "twelve", ["Ana"])


def test_the_fourteen_pairs_cover_the_set():
    assert sorted(t for pair in PAIRS for t in pair) == sorted(str(t) for t in FULL_SET)
    assert all(sum(int(v) for t in pair for v in t.split("-")) == 12 for pair in PAIRS)


def test_a_game_of_twelve_is_created_like_any_match(client):
    response = client.post("/api/games", json={"variant": "twelve", "players": ["Ana"]})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    assert created["version"] == 1
    two = client.post("/api/games", json={"variant": "twelve", "players": ["Ana"], "options": {"sets": 2}})
    assert two.status_code == 201


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"variant": "twelve", "players": ["Ana", "Ben"]}, "one player"),
        ({"variant": "twelve", "players": ["Ana"], "options": {"sets": 3}}, "sets must be 1 or 2"),
        ({"variant": "twelve", "players": ["Ana"], "options": {"target": 100}}, "unknown option 'target'"),
    ],
)
def test_a_game_of_twelve_that_cannot_be_is_refused_in_words(client, spec, words):
    response = client.post("/api/games", json=spec)
    assert response.status_code == 422
    assert words in response.get_json()["error"]


def test_a_pair_of_twelve_is_removed_and_any_other_pair_turned_back(game):
    response = game.event(flip("6-6", "0-0"))
    assert response.status_code == 201, response.get_json()
    score = response.get_json()["score"]
    assert score["attempts"] == 1 and score["pairs"] == [["6-6", "0-0"]] and score["remaining"] == 26
    assert score["face_down"]["6-6"] == 0 and score["face_down"]["1-2"] == 1
    response = game.event(flip("1-2", "3-4"))
    assert response.status_code == 201
    score = game.get("/score").get_json()
    assert score["attempts"] == 2 and len(score["pairs"]) == 1 and not score["finished"]
    assert score == score_twelve(game.record())


@pytest.mark.parametrize(
    ("event", "status", "words"),
    [
        (flip("6-6", "1-1"), 422, "6-6 is no longer face down"),
        (flip("1-2", "1-2"), 422, "1-2 was turned twice"),
        ({"type": "flip", "tiles": ["1-2", "3-4", "5-5"]}, 422, "exactly two tiles"),
        ({"type": "flip", "tiles": ["1-2"]}, 422, "exactly two tiles"),
        ({"type": "flip", "tiles": ["1-2", "9-9"]}, 422, "9-9"),
        ({"type": "play", "seat": 0, "tile": "1-2"}, 422, "twelve knows one event: flip"),
        (flip("1-2", "3-4", time=-5), 400, "time"),
        (flip("1-2", "3-4", time="soon"), 400, "time"),
    ],
)
def test_a_flip_that_breaks_a_rule_is_refused_naming_the_problem(game, event, status, words):
    assert game.event(flip("6-6", "0-0")).status_code == 201
    before = game.record()
    response = game.event(event)
    assert response.status_code == status, response.get_json()
    data = response.get_json()
    assert words in data["error"]
    if status == 422:
        assert data["hand"] == 0 and data["event"] == 1 and data["code"].startswith("twelve_")
        assert data["say"]  # in players' words, for the page
    assert game.record() == before


def test_a_refusal_is_said_in_spanish_for_a_spanish_page(game):
    game.event(flip("6-6", "0-0"))
    response = game.event(flip("0-0", "6-6"), headers={"Accept-Language": "es"})
    assert response.status_code == 422
    assert "ya se quitó" in response.get_json()["say"]


def test_a_second_hand_is_refused(game):
    response = game.post("/hands", {})
    assert response.status_code == 422
    assert "one hand" in response.get_json()["error"]


def test_time_is_the_servers_seconds_since_the_first_flip(game, monkeypatch):
    from webapp import twelve

    game.event(flip("6-6", "0-0"))
    later = twelve.now() + timedelta(seconds=95)
    monkeypatch.setattr(twelve, "now", lambda: later)
    game.event(flip("1-2", "3-4"))
    times = [e["time"] for e in game.record()["hands"][0]["events"]]
    assert times[0] == 0.0 and 94 <= times[1] <= 97
    # an API client may send its own clock's time; the engine holds it to going forward
    assert game.event(flip("1-2", "3-4", time=10)).status_code == 422
    assert game.event(flip("1-2", "3-4", time=200)).status_code == 201
    assert game.get("/score").get_json()["time"] == 200


def test_undo_takes_back_the_last_attempt_and_its_removal(game):
    game.event(flip("6-6", "0-0"))
    game.event(flip("5-6", "0-1"))
    response = game.post("/undo", {})
    assert response.status_code == 200
    score = response.get_json()["score"]
    assert score["attempts"] == 1 and score["face_down"]["5-6"] == 1
    assert game.event(flip("5-6", "0-1")).status_code == 201


def test_a_whole_game_ends_when_every_tile_is_removed_and_is_kept_as_any_match(game, client):
    game.event(flip("1-2", "3-4"))  # turned back: an attempt
    for first, second in PAIRS:
        assert game.event(flip(first, second)).status_code == 201
    score = game.get("/score").get_json()
    assert score["finished"] and score["winner"] == 0 and score["attempts"] == 15 and score["remaining"] == 0
    response = game.event(flip("1-2", "3-4"))
    assert response.status_code == 422 and "game is over" in response.get_json()["error"]
    # the board, the history, the record as a file and the export, as any match
    board = game.get("/board").get_json()
    assert board["twelve"]["finished"] and board["twelve"]["attempts"] == 15 and board["twelve"]["pairs"] == 14
    changes = game.get("/history").get_json()["changes"]
    assert [c["action"] for c in changes][-15:] == ["event"] * 15
    download = game.get("/record?download=1")
    assert download.status_code == 200 and json.loads(download.data)["variant"] == "twelve"
    exported = game.get("/export")
    assert exported.status_code == 200
    with zipfile.ZipFile(io.BytesIO(exported.data)) as archive:
        record = json.loads(archive.read("record.json"))
    assert score_twelve(record)["attempts"] == 15
    again = client.post("/api/games", data=exported.data, content_type="application/zip")
    assert again.status_code == 201, again.get_json()
    imported = client.get(f"/api/games/{again.get_json()['id']}/score").get_json()
    assert imported["finished"] and imported["attempts"] == 15


def test_two_sets_hold_two_of_each_tile(client):
    created = client.post("/api/games", json={"variant": "twelve", "players": ["Ana"], "options": {"sets": 2}})
    table = Table(client, created.get_json())
    assert table.post("/hands", {}).status_code == 201
    table.event(flip("6-6", "6-6"))  # two copies of 6-6 turned: 24, not a pair
    assert table.event(flip("6-6", "0-0")).status_code == 201
    assert table.event(flip("6-6", "0-0")).status_code == 201
    response = table.event(flip("6-6", "0-0"))
    assert response.status_code == 422 and "6-6 is no longer face down" in response.get_json()["error"]
    assert table.get("/score").get_json()["remaining"] == 52


def test_the_page_of_a_game_of_twelve(client):
    page = client.get("/")
    assert b'value="twelve"' in page.data
    form = {"csrf_token": _csrf(client), "variant": "twelve", "player": ["Ana"], "sets": "2"}
    response = client.post("/games", data=form)
    assert response.status_code == 302, response.data[:400]
    shown = client.get(response.headers["Location"])
    assert shown.status_code == 200
    html = shown.data.decode()
    assert 'id="twelve-pad"' in html and html.count('class="flipbtn') == 56
    assert "0 of 28 pairs" in client.get("/").data.decode()


def _csrf(client) -> str:
    import re

    html = client.get("/").data.decode()
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_every_endpoint_of_a_game_answers_a_game_of_twelve_without_a_server_error(game):
    from tests.support.camera import photo, send

    game.event(flip("6-6", "0-0"))
    game.event(flip("1-2", "3-4"))
    answers = {
        "correct": game.client.put(
            f"/api/games/{game.id}/hands/0/events/1",
            json={"event": flip("1-2", "4-5"), "why": "it was 4-5"},
            headers=game.auth,
        ),
        "correct to a removed tile": game.client.put(
            f"/api/games/{game.id}/hands/0/events/1", json={"event": flip("6-6", "1-1"), "why": "x"}, headers=game.auth
        ),
        "correct to a play": game.client.put(
            f"/api/games/{game.id}/hands/0/events/1",
            json={"event": {"type": "play", "seat": 0, "tile": "1-1"}, "why": "x", "take_back_from": 1},
            headers=game.auth,
        ),
        "dispute": game.post("/disputes", {"hand": 0, "event": 0, "why": "was it 0-0?"}),
        "seating": game.client.put(f"/api/games/{game.id}/seating", json={"seating": None}, headers=game.auth),
        "photo": send(game, photo()),
        "frames": game.get("/frames"),
        "asks": game.get("/frames/asks"),
        "history": game.get("/history"),
        "board": game.get("/board"),
        "record": game.get("/record?version=2"),
        "remove": game.client.delete(
            f"/api/games/{game.id}/hands/0/events/1", json={"why": "not turned"}, headers=game.auth
        ),
    }
    said = {name: response.status_code for name, response in answers.items()}
    assert all(status < 500 for status in said.values()), said
    assert said["correct"] == 200 and said["correct to a removed tile"] == 422 and said["remove"] == 200
    assert said["correct to a play"] in (400, 422)
    assert said["photo"] == 409 and "no layout" in answers["photo"].get_json()["error"]
    version = answers["dispute"].get_json()["version"]
    settled = game.post(f"/disputes/{version}/settle", {"why": "it was", "event": flip("6-6", "0-0")})
    assert settled.status_code == 200, settled.get_json()
    assert game.get("/score").get_json()["attempts"] == 1
    for page in (f"/g/{game.id}", f"/g/{game.id}/history", f"/g/{game.id}/hands/0/replay"):
        assert game.client.get(page, headers=game.auth).status_code < 500, page


def test_a_flip_corrected_without_a_time_keeps_the_time_it_was_recorded_at(game):
    """Probe (api_attack4): correcting a flip stamped 30 kept it with no time, shown 0:00; settling
    a dispute with a corrected flip too."""
    game.event(flip("1-2", "3-4", time=10))
    game.event(flip("1-1", "2-2", time=30))
    game.event(flip("5-5", "0-1", time=42))
    put = f"/api/games/{game.id}/hands/0/events/1"
    response = game.client.put(put, json={"event": flip("3-3", "4-5"), "why": "it was 3-3"}, headers=game.auth)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["change"]["after"] == flip("3-3", "4-5", time=30)
    assert game.record()["hands"][0]["events"][1] == flip("3-3", "4-5", time=30)
    board = game.get("/board").get_json()["twelve"]
    assert board["flips"][1]["clock"] == "0:30"
    # a time sent is the correction's own (held to going forward, as any)
    sent = game.client.put(put, json={"event": flip("3-3", "4-5", time=35), "why": "at 35"}, headers=game.auth)
    assert sent.status_code == 200 and game.record()["hands"][0]["events"][1]["time"] == 35
    # a dispute settled with a corrected flip
    version = game.post("/disputes", {"hand": 0, "event": 2, "why": "was it 5-5?"}).get_json()["version"]
    settled = game.post(f"/disputes/{version}/settle", {"why": "it was 5-5 and 2-5", "event": flip("5-5", "2-5")})
    assert settled.status_code == 200, settled.get_json()
    assert game.record()["hands"][0]["events"][2] == flip("5-5", "2-5", time=42)
    # taking back the flips after it, as the pad's fix does
    taken = game.client.put(
        f"/api/games/{game.id}/hands/0/events/0",
        json={"event": flip("1-2", "3-5"), "why": "it was 3-5", "take_back_from": 1},
        headers=game.auth,
    )
    assert taken.status_code == 200, taken.get_json()
    assert game.record()["hands"][0]["events"] == [flip("1-2", "3-5", time=10)]


def test_a_time_at_the_bound_is_taken_and_past_it_refused_as_too_large(game):
    """Probe: time 10000000 after 9999999.9 was refused as "the time goes back"."""
    assert game.event(flip("1-2", "3-4", time=9_999_999.9)).status_code == 201
    assert game.event(flip("1-2", "3-4", time=10_000_000)).status_code == 201
    response = game.event(flip("1-2", "3-4", time=10_000_001))
    assert response.status_code == 400 and "time" in response.get_json()["error"]
    assert "goes back" not in json.dumps(response.get_json())


def test_a_time_past_the_bound_in_a_record_is_said_too_large(client):
    record = {
        "variant": "twelve",
        "players": ["Ana"],
        "hands": [{"events": [flip("1-2", "3-4", time=9_999_999.9)]}],
    }
    from scorer.twelve import MAX_TIME

    assert client.post("/api/games", json=record).status_code == 201
    from webapp import wording

    with client.application.test_request_context(headers={"Accept-Language": "en"}):
        said = wording.say_refusal(
            {"error": "", "hand": 0, "event": 1, "code": "twelve_time_max", "params": {"most": MAX_TIME}}, record
        )
    assert said == ("Attempt 2: The time is too large: a flip's time is at most 10000000 seconds since the first flip.")


@pytest.mark.parametrize(("field", "value"), [("seat", 5), ("end", "north"), ("tile", "6-6"), ("count", 3)])
def test_a_flip_with_a_field_of_the_other_games_is_refused_naming_it(game, field, value):
    """Probe (api_attack3): flips with seat, end, tile or count were kept as sent."""
    response = game.event(flip("1-1", "2-2", **{field: value}), headers={"Accept-Language": "en"})
    assert response.status_code == 422, response.get_json()
    data = response.get_json()
    assert data["code"] == "twelve_field" and data["params"] == {"field": field}
    assert f"'{field}'" in data["error"]
    assert data["say"] == (
        f"Attempt 1: Twelve has no {field}: an attempt is the two tiles turned (and its time), nothing more."
    )
    assert game.record()["hands"][0]["events"] == []


def test_a_leader_or_a_deal_for_twelve_is_refused_naming_it(client):
    """Probe (api_attack3): POST /hands {"leader": 3} in a one-player game, and a created record
    whose hand has a deal and a leader, were kept."""
    created = client.post("/api/games", json={"variant": "twelve", "players": ["Ana"]})
    table = Table(client, created.get_json())
    response = table.post("/hands", {"leader": 3}, headers={"Accept-Language": "en"})
    assert response.status_code == 422, response.get_json()
    data = response.get_json()
    assert data["code"] == "twelve_field" and data["params"] == {"field": "leader"} and "'leader'" in data["error"]
    assert data["say"].startswith("Twelve has no leader:")  # no "Hand 1:" in a game of one hand
    assert table.post("/hands", {"deal": [["6-6"]]}).get_json()["params"] == {"field": "deal"}
    assert table.record()["hands"] == []
    dealt = {
        "variant": "twelve",
        "players": ["Ana"],
        "hands": [{"deal": [["6-6", "0-0"]], "leader": 2, "events": [flip("6-6", "0-0")]}],
    }
    response = client.post("/api/games", json=dealt)
    assert response.status_code == 422 and response.get_json()["params"]["field"] in ("deal", "leader")


def test_seating_is_refused_for_twelve(game, client):
    """Probe (api_attack3): PUT /seating was kept for a game with no layout and no camera."""
    before = game.version()
    for seating in (["bottom"], None):
        response = client.put(f"/api/games/{game.id}/seating", json={"seating": seating}, headers=game.auth)
        assert response.status_code == 422, response.get_json()
        assert response.get_json()["field"] == "seating" and "seating" in response.get_json()["error"]
    assert game.version() == before
    record = {"variant": "twelve", "players": ["Ana"], "seating": ["bottom"]}
    response = client.post("/api/games", json=record)
    assert response.status_code == 422 and response.get_json()["params"] == {"field": "seating"}


def test_a_flip_another_phone_recorded_first_is_said_in_a_sentence(game):
    """Probe: "Another phone recorded Turned 6-6 and 0-0; Turned 1-1 and 2-2 first"."""
    shown = game.version()
    english = {"Accept-Language": "en"}
    game.event(flip("6-6", "0-0"))
    late = game.event(flip("3-3", "4-5"), headers={"If-Match": f'"{shown}"', **english})
    assert late.status_code == 409
    assert late.get_json()["say"] == (
        "Another phone recorded an attempt first (6-6 and 0-0): nothing was recorded for this tap. "
        "Check the board and tap again."
    )
    game.event(flip("1-1", "2-2"))
    late = game.event(flip("3-3", "4-5"), headers={"If-Match": f'"{shown}"', **english})
    assert late.get_json()["say"] == (
        "Another phone recorded 2 attempts first (6-6 and 0-0; 1-1 and 2-2): nothing was recorded for this tap. "
        "Check the board and tap again."
    )
    game.post("/undo", {})
    late = game.event(flip("3-3", "4-5"), headers={"If-Match": f'"{shown}"', **english})
    assert late.get_json()["say"] == (
        "Another phone changed the match first (Recorded, attempt 1: 6-6 and 0-0; Recorded, attempt 2: "
        "1-1 and 2-2; Undone, attempt 2: 1-1 and 2-2): nothing was recorded for this tap. "
        "Check the board and tap again."
    )
    spanish = game.event(flip("3-3", "4-5"), headers={"If-Match": f'"{shown}"', "Accept-Language": "es"})
    assert "Another" not in spanish.get_json()["say"] and "intento" in spanish.get_json()["say"]


def test_a_new_hand_another_phone_started_is_said_once(client):
    """Probe: "changed the match first (New hand Hand 1)"."""
    created = client.post("/api/games", json={"variant": "partners", "players": ["Ana", "Ben", "Cruz", "Dee"]})
    table = Table(client, created.get_json())
    shown = table.version()
    assert table.post("/hands", {}).status_code == 201
    late = table.post("/hands", {}, headers={"If-Match": f'"{shown}"', "Accept-Language": "en"})
    assert late.status_code == 409
    assert late.get_json()["say"] == (
        "Another phone changed the match first (Hand 1 started): nothing was recorded for this tap. "
        "Check the board and tap again."
    )
    twelve = client.post("/api/games", json={"variant": "twelve", "players": ["Ana"]})
    game = Table(client, twelve.get_json())
    shown = game.version()
    assert game.post("/hands", {}).status_code == 201
    late = game.event(flip("1-1", "2-2"), headers={"If-Match": f'"{shown}"', "Accept-Language": "en"})
    assert late.get_json()["say"].startswith("Another phone changed the match first (The game started):")
