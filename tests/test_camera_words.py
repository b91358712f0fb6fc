"""Issue 36: the camera speaks to players. The follower's reasons carry a code and params (the
command line keeps its precise English, and so does the API's `message`); the page words each
answer for players (`say`): names for seats, tiles as "4-6", ends in words, in Spanish or English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.camera import Script, make_app, photo, seen, send
from tests.support.records import play
from tests.support.web import PLAYERS, Table

ROOT = Path(__file__).resolve().parent.parent
SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}
ENGLISH = {"Accept-Language": "en"}


def reason_codes() -> set[str]:
    """Every code the follower (and the page's table) gives its reasons."""
    found: set[str] = set()
    for name in ("follower.py", "table.py"):
        text = (ROOT / "vision" / "follow" / name).read_text()
        for first, second in re.findall(r'code="(\w+)"(?: if [^\n]*? else "(\w+)")?', text):
            found.update(c for c in (first, second) if c)
    return found


#: params enough for any code: each reason takes the ones it needs
PARAMS = {
    "seat": 1,
    "tile": "4-6",
    "tiles": ["3-6"],
    "changes": 2,
    "found": 1,
    "count": 2,
    "event": {"type": "play", "seat": 1, "tile": "4-6", "end": "east"},
    "other": {"type": "play", "seat": 1, "tile": "4-6", "end": "west"},
    "ends": [6, 4],
    "after": [6, 1],
    "after_count": None,
    "hand": 1,
    "pips": 12,
    "share": 0.95,
    "rule": "cannot_play",
    "rule_params": {"seat": 1, "tile": "4-6"},
    "error": "seat 1 cannot play 4-6",
    "why": "missed",
    "why_params": {"changes": 2, "found": 1},
    "seats": [1, 2, 0],
    "read": "6-6",
    "confidence": 0.6,
}


def words_in(lang: str, code: str, **params: object) -> str | None:
    from flask_babel import force_locale

    from webapp import create_app
    from webapp.camera_words import reason_words
    from webapp.wording import Table as Names

    app = create_app({"DATABASE_URL": "sqlite://", "SPINNER_DATA": "/nonexistent"}, migrate=False)
    with app.test_request_context(), force_locale(lang):
        return reason_words(code, {**PARAMS, **params}, Names(PLAYERS))


def test_every_reason_of_the_follower_has_words_in_both_languages():
    from webapp.camera_words import REASONS

    codes = reason_codes()
    assert {"missed", "order_unknown", "no_order", "leader_unknown", "also_lies", "moving", "unchanged"} <= codes
    assert sorted(codes - set(REASONS)) == []
    for code in sorted(codes):
        english, spanish = words_in("en", code), words_in("es", code)
        assert english and spanish and english != spanish, code
        for said in (english, spanish):
            assert "seat" not in said and "{" not in said and "%(" not in said, (code, said)


def test_an_unsure_tile_is_named_by_what_the_rules_make_it():
    """Asked "Was it P1, 0-1 on the north?", the note "the reader is not sure of it: it read 2-6"
    was about another tile of the same frame: the note names the tile it is about."""
    said = words_in("en", "unsure_tile")
    assert said == "the reader is not sure of the tile the rules make 4-6: it read 6-6"
    assert "4-6" in (words_in("es", "unsure_tile") or "")


def test_a_tile_unsure_in_the_dark_asks_for_light():
    """A tile the reader held because its pips hardly stood out of the photo's noise (`"dark"`:
    a dim room) says so, and what helps: the player can fix the light, not the reader."""
    said = words_in("en", "unsure_tile", dark=True)
    assert said == "the table is too dark to be sure of the tile the rules make 4-6: it read 6-6; more light helps"
    spanish = words_in("es", "unsure_tile", dark=True) or ""
    assert "4-6" in spanish and "luz" in spanish


def test_a_tile_that_may_stand_in_a_hand_asks_to_keep_own_tiles_out_of_the_picture():
    """A tile held because its box showed no tile lying face up (`"standing"`: a player's own tile
    on edge, its face to the camera) says what it may be and what helps."""
    said = words_in("en", "unsure_tile", standing=True)
    assert said == (
        "the photo may show 4-6 standing in a player's hand, not laid: keep your own tiles out of the picture"
    )
    spanish = words_in("es", "unsure_tile", standing=True) or ""
    assert "4-6" in spanish and "mano" in spanish


def test_the_follower_keeps_its_words_for_the_command_line_and_adds_the_code():
    from vision.follow.follower import Outcome, Reason

    why = Reason("2 new tiles at once, and the order cannot be told", code="order_unknown", count=2)
    outcome = Outcome("ask", why)
    assert outcome.reason == "2 new tiles at once, and the order cannot be told" and type(outcome.reason) is str
    assert (outcome.code, outcome.params) == ("order_unknown", {"count": 2})
    assert outcome.to_json()["code"] == "order_unknown"


@pytest.fixture
def script() -> Script:
    return Script()


@pytest.fixture
def cam(tmp_path, script):
    app = make_app(tmp_path, SPINNER_READER=script)
    client = app.test_client()
    created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()
    t = Table(client, created)
    assert t.post("/hands", {}).status_code == 201
    return t


def test_an_unsure_play_is_asked_about_in_spanish_with_the_players_names(cam, script):
    assert cam.event(play(0, "6-6")).status_code == 201
    script.readings.append(seen("6-6", ("6-4", 0.5)))
    frame = send(cam, photo(), headers=SPANISH).get_json()
    assert frame["status"] == "confirm"
    assert frame["message"].startswith("the camera thinks: playing 4-6 on the ")
    assert frame["proposal"]["code"] and isinstance(frame["proposal"]["params"], dict)
    # a photo shows no pass and no arm: who laid it is asked with the tile (issue 34), no seat
    # proposed as if known, each player a tap
    assert frame["proposal"]["events"][0]["seat"] is None and frame["proposal"]["seats"] == [1, 2, 3, 0]
    end = frame["proposal"]["events"][0]["end"]
    assert frame["say"].startswith("¿Quién jugó la 4-6? ¿Ben, Cruz, Dee o Ana? (")
    assert "seat" not in frame["say"] and "asiento" not in frame["say"]
    english = cam.client.get(f"/api/games/{cam.id}/frames/{frame['id']}", headers={**cam.auth, **ENGLISH}).get_json()
    assert english["say"].startswith("Who played 4-6? Ben, Cruz, Dee or Ana? (")
    assert english["message"] == frame["message"]
    # "yes" alone records nobody's play: the seat is said with it
    url = f"/api/games/{cam.id}/frames/{frame['id']}/accept"
    assert cam.client.post(url, json={}, headers={**cam.auth, **SPANISH}).status_code == 400
    # the answer, in the language of whoever looks
    accepted = cam.client.post(url, json={"event": play(1, "4-6", end)}, headers={**cam.auth, **SPANISH}).get_json()
    assert accepted["message"].startswith("confirmed by ")
    assert accepted["say"].startswith("Anotado: Ben ") and "4-6" in accepted["say"]


def test_a_lead_whose_player_is_not_known_is_asked_in_the_pages_chosen_language(cam, script):
    script.readings.append(seen("6-6"))
    cam.client.set_cookie("spinner-lang", "es")  # the page's switch
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "confirm" and "who leads this hand is not known" in frame["message"]
    # the players are the answers, each a button of the question itself (finding 6 of the phone probe)
    assert frame["proposal"]["seats"] == [0, 1, 2, 3]
    assert frame["say"] == "¿Quién jugó la 6-6? ¿Ana, Ben, Cruz o Dee?"
    cam.client.set_cookie("spinner-lang", "en")
    english = cam.client.get(f"/api/games/{cam.id}/frames/{frame['id']}", headers=cam.auth).get_json()
    assert english["say"] == "Who played 6-6? Ana, Ben, Cruz or Dee?"
    cam.client.set_cookie("spinner-lang", "es")
    turned = cam.client.post(f"/api/games/{cam.id}/frames/{frame['id']}/reject", json={}, headers=cam.auth).get_json()
    assert turned["say"] == "Rechazada: anota esta jugada en el anotador."


def test_a_play_recorded_from_the_camera_names_its_player(cam, script):
    script.readings.append(seen("6-6"))
    frame = send(cam, photo(), "?seat=2", headers=SPANISH).get_json()
    assert frame["status"] == "recorded" and frame["message"] == "the camera saw seat 2 playing 6-6"
    assert frame["say"].startswith("Anotado por la cámara: Cruz ") and "6-6" in frame["say"]
    listed = cam.client.get(f"/api/games/{cam.id}/frames", headers={**cam.auth, **ENGLISH}).get_json()["frames"]
    assert listed[-1]["say"].startswith("Recorded from the camera: Cruz played 6-6")


def test_a_photo_with_no_tile_says_so_in_spanish(cam, script):
    script.readings.append(seen())
    frame = send(cam, photo(), headers=SPANISH).get_json()
    assert frame["status"] == "nothing" and frame["message"].startswith("the reader found no tile in this photo")
    assert frame["say"].startswith("No se encontró ninguna ficha en esta foto")


def test_the_camera_box_says_nothing_in_english_of_its_own():
    """camera.js shows the server's `say` or the page's words (script_words), never a literal."""
    from webapp import create_app
    from webapp.wording import script_words

    script_js = (ROOT / "webapp" / "static" / "camera.js").read_text()
    assert not re.search(r"show\(\s*[\"'`]", script_js)
    assert not re.search(r"textContent = [\"'`]", script_js)
    keys = set(re.findall(r'words\("(\w+)"', script_js))
    app = create_app({"DATABASE_URL": "sqlite://", "SPINNER_DATA": "/nonexistent"}, migrate=False)
    with app.test_request_context(headers=SPANISH):
        said = script_words()
    assert keys and sorted(keys - set(said)) == []
    assert said["cam_reading"] == "Leyendo la foto…"


def test_a_play_the_tile_count_gave_its_player_says_so():
    from flask_babel import force_locale

    from webapp import create_app
    from webapp.camera_words import reason_words
    from webapp.wording import Table as Names

    app = create_app({"DATABASE_URL": "sqlite://", "SPINNER_DATA": "/nonexistent"}, migrate=False)
    counted = {"share": 0.97, "tile": "1-5", "seat": 2, "seats": [1, 2], "chance": 1.0}
    with app.test_request_context():
        with force_locale("en"):
            said = reason_words("evidence", counted, Names(PLAYERS))
            plain = reason_words("evidence", {"share": 0.97}, Names(PLAYERS))
        with force_locale("es"):
            dicho = reason_words("evidence", counted, Names(PLAYERS))
    assert PLAYERS[2] in said and "1-5" in said and "counting the tiles" in said
    assert plain == "the photo is sure of it (97 in 100)"
    assert PLAYERS[2] in dicho and "contar las fichas" in dicho
