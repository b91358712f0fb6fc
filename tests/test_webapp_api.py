"""The JSON API: matches, hands and events through the scorer, versions, undo and corrections."""

from __future__ import annotations

import json

import pytest

from scorer import score_record
from tests.support.records import SIX_BLOCK_LEFT, SIX_BLOCK_PLAYS, hand, play, record, six_block
from tests.support.web import PLAYERS, Table, new_table

#: The API tests that run on PostgreSQL as well (`test_webapp_postgres.py` has the rest of that story):
#: the concurrency ones above all, since the guarded version bump must hold there too.
BOTH_DATABASES = pytest.mark.database("sqlite", "postgresql")


def test_create_answers_id_and_scorer_token(client):
    response = client.post("/api/games", json={"variant": "all-fives", "players": ["Ana", "Ben", "Cruz"]})
    assert response.status_code == 201
    data = response.get_json()
    assert data["id"] and data["token"] and data["viewer_token"] and data["token"] != data["viewer_token"]
    assert data["version"] == 1
    assert f"/g/{data['id']}/join?key={data['token']}" in data["links"]["scorer"]


def test_tokens_are_stored_only_as_hashes(app, table):
    from webapp.db import db
    from webapp.models import Game

    with app.app_context():
        game = db.session.get(Game, table.id)
        assert table.token not in (game.scorer_hash, game.viewer_hash)
        assert len(game.scorer_hash) == 64


@BOTH_DATABASES
def test_a_hand_scored_play_by_play_matches_the_scorer(table):
    for event in SIX_BLOCK_PLAYS[:4]:
        response = table.event(event)
        assert response.status_code == 201, response.get_json()
    answer = table.get("/score").get_json()
    assert answer == score_record(table.record())
    assert [p["count"] for p in answer["hands"][0]["plays"]] == [12, 13, 14, 18]
    assert answer["hands"][0]["turn"] == 0


def test_the_event_may_come_wrapped_with_version_who_and_why(table):
    response = table.event({"event": play(0, "6-6"), "version": 2, "who": "Ana\u202e\x00 ", "why": "lead"})
    assert response.status_code == 201
    change = response.get_json()["change"]
    assert change["who"] == "Ana" and change["why"] == "lead" and change["version"] == 3


@pytest.mark.parametrize(
    "header",
    [
        "UTF-8''%C5%81ukasz",  # RFC 8187, as the page sends a name a header cannot hold (words.js)
        "utf-8''%C5%81ukasz",
        "Łukasz".encode().decode("latin-1"),  # UTF-8 as it is (curl), which Werkzeug reads as Latin-1
    ],
)
def test_a_name_beyond_latin_1_in_the_who_header_is_kept_as_typed(table, header):
    response = table.event(play(0, "6-6"), headers={"X-Spinner-Who": header})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["change"]["who"] == "Łukasz"


def test_a_latin_1_or_ascii_name_in_the_who_header_is_kept_as_it_came(table):
    assert table.event(play(0, "6-6"), headers={"X-Spinner-Who": "José"}).get_json()["change"]["who"] == "José"
    assert table.post("/undo", {}, headers={"X-Spinner-Who": "100%25 Ana"}).get_json()["change"]["who"] == "100%25 Ana"


@BOTH_DATABASES
def test_an_illegal_play_is_refused_with_hand_event_and_rule_and_nothing_recorded(table):
    table.event(play(0, "6-6"))
    before = table.record()
    response = table.event(play(1, "1-2"))
    assert response.status_code == 422
    data = response.get_json()
    assert data["hand"] == 0 and data["event"] == 1
    assert data["rule"] == "1-2 fits no open end (west shows 6, east shows 6)"
    assert "hand 0, event 1" in data["error"]
    assert table.record() == before and table.version() == 3


def test_unknown_event_types_and_non_objects_are_refused(table):
    assert table.event({"type": "shuffle", "seat": 0}).status_code == 422
    response = table.post("/events", {"event": ["play"]})
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]


def test_broken_json_says_where_it_breaks(table):
    response = table.post("/events", data='{"type": "play", "seat": 0,', content_type="application/json")
    assert response.status_code == 400
    assert "not valid JSON at line 1, column" in response.get_json()["error"]
    response = table.post("/events", data=b"\xff\xfe", content_type="application/json")
    assert response.status_code == 400
    assert table.version() == 2


def test_oversized_json_is_refused(app, table):
    app.config["MAX_JSON_BYTES"] = 1000
    response = table.post(
        "/events", data=json.dumps({"type": "adjust", "reason": "x" * 2000}), content_type="application/json"
    )
    assert response.status_code == 413
    huge = {"type": "adjust", "team": 0, "points": 5, "reason": "agreed", "junk": "y" * 9000}
    app.config["MAX_JSON_BYTES"] = 2 * 1024 * 1024
    assert table.event(huge).status_code == 413  # one event is at most 8 KB


def test_changes_need_the_scorer_token(client, table):
    url = f"/api/games/{table.id}/events"
    response = client.post(url, json=play(0, "6-6"))
    assert response.status_code == 401 and "Bearer" in response.headers["WWW-Authenticate"]
    response = client.post(url, json=play(0, "6-6"), headers={"Authorization": "Bearer nope"})
    assert response.status_code == 403 and "wrong token" in response.get_json()["error"]
    response = client.post(url, json=play(0, "6-6"), headers={"Authorization": f"Bearer {table.viewer}"})
    assert response.status_code == 403 and "viewer" in response.get_json()["error"]
    for path in ("/hands", "/undo"):
        assert client.post(f"/api/games/{table.id}{path}", json={}).status_code == 401
    assert table.version() == 2


def test_a_token_of_another_match_does_not_work(client, table):
    other = Table(client, client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json())
    response = client.post(f"/api/games/{table.id}/events", json=play(0, "6-6"), headers=other.auth)
    assert response.status_code == 403


def test_unknown_match_is_404_in_json(client):
    response = client.get("/api/games/nope/score")
    assert response.status_code == 404 and "no match" in response.get_json()["error"]


@BOTH_DATABASES
def test_a_change_on_a_stale_version_is_refused_and_nothing_recorded(table):
    assert table.event(play(0, "6-6"), headers={"If-Match": '"2"'}).status_code == 201
    before = table.record()
    # A second phone still on version 2:
    response = table.event(play(1, "6-4", "west"), headers={"If-Match": '"2"'})
    assert response.status_code == 409
    assert response.get_json()["version"] == 3 and "version 2" in response.get_json()["error"]
    response = table.event({"event": play(1, "6-4", "west"), "version": 1})
    assert response.status_code == 409
    assert table.record() == before
    assert table.event(play(1, "6-4", "west"), headers={"If-Match": "3"}).status_code == 201


def test_a_tap_for_a_turn_another_phone_recorded_is_refused_and_says_what_it_recorded(table):
    """Probe (phone), finding 1: two scorer phones both show "Ben: tap the tile played". One records
    Ben's 4-6; the other's tap, made on the same version, must not land as Cruz's play."""
    table.event(play(0, "6-6"))
    shown = table.version()
    first = table.event(play(1, "4-6", "west"), headers={"If-Match": f'"{shown}"', "Accept-Language": "en"})
    assert first.status_code == 201
    second = table.event(play(2, "3-6", "east"), headers={"If-Match": f'"{shown}"', "Accept-Language": "en"})
    assert second.status_code == 409
    said = second.get_json()
    assert said["code"] == "changed" and said["version"] == shown + 1
    assert [(c["version"], c["action"], c["after"]) for c in said["changes"]] == [
        (shown + 1, "event", play(1, "4-6", "west"))
    ]
    assert said["say"] == (
        "Another phone recorded Ben played 4-6 on the west first: nothing was recorded for this tap. "
        "Check the board and tap again."
    )
    assert table.record()["hands"][0]["events"] == [play(0, "6-6"), play(1, "4-6", "west")]
    spanish = table.event(play(2, "3-6", "east"), headers={"If-Match": f'"{shown}"', "Accept-Language": "es"})
    assert spanish.status_code == 409 and "Ben" in spanish.get_json()["say"] and "4-6" in spanish.get_json()["say"]
    assert "Another" not in spanish.get_json()["say"]
    # a client that names no version still records on whatever the match is at (docs/api.md)
    assert table.event(play(2, "3-6", "east")).status_code == 201


def test_a_correction_a_later_play_no_longer_fits_says_what_to_do_and_does_it_when_asked(table):
    """Probe (phone), finding 7: correcting Cruz's 2-6 to 1-6 leaves Dee's 2-3 on the east unfit.
    Refused as before (a later play is never changed silently), but the refusal says what to do and
    names the play to take back; sent with `take_back_from`, the correction is made with it taken back."""
    for event in (play(0, "6-6"), play(1, "4-6", "west"), play(2, "2-6", "east"), play(3, "2-3", "east")):
        assert table.event(event).status_code == 201
    url = f"/api/games/{table.id}/hands/0/events/2"
    headers = {**table.auth, "Accept-Language": "en"}
    fix = {"event": play(2, "1-6", "east"), "why": "it was the 1-6"}
    before = table.record()
    refused = table.client.put(url, headers=headers, json=fix)
    assert refused.status_code == 422
    said = refused.get_json()
    assert (said["hand"], said["event"], said["take_back_from"], said["take_back_to"]) == (0, 3, 3, 3)
    assert said["say"] == (
        "Hand 1: with play 3 corrected to Cruz played 1-6 on the east, play 4 (Dee played 2-3 on the east) no longer "
        "fits: 2-3 does not fit the east end: it shows 1. Take it back with the correction, then tap it again if it was played."
    )
    assert '"take_back_from": 3' in said["error"]
    assert table.record() == before
    # take_back_from must come after the play corrected, within the hand: nothing changed otherwise
    for wrong in (2, 4, "3", True):
        bad = table.client.put(url, headers=headers, json={**fix, "take_back_from": wrong})
        assert bad.status_code == 400 and "take_back_from" in bad.get_json()["error"], wrong
    assert table.record() == before
    version = table.version()
    done = table.client.put(url, headers={**headers, "If-Match": f'"{version}"'}, json={**fix, "take_back_from": 3})
    assert done.status_code == 200, done.get_json()
    assert done.get_json()["version"] == version + 2
    assert table.record()["hands"][0]["events"] == [play(0, "6-6"), play(1, "4-6", "west"), play(2, "1-6", "east")]
    changes = table.get("/history").get_json()["changes"][-2:]
    assert [(c["action"], c["event"], c["before"]) for c in changes] == [
        ("remove", 3, play(3, "2-3", "east")),
        ("correct", 2, play(2, "2-6", "east")),
    ]
    assert changes[0]["why"] == "taken back to correct hand 1, play 3: it was the 1-6"


def test_a_bad_if_match_is_a_400(table):
    assert table.event(play(0, "6-6"), headers={"If-Match": "yesterday"}).status_code == 400
    assert table.event({"event": play(0, "6-6"), "version": "2"}).status_code == 400


def test_two_versions_that_disagree_are_a_400_and_nothing_recorded(table):
    before = table.record()
    both = table.event({"event": play(0, "6-6"), "version": 1}, headers={"If-Match": '"2"'})
    assert both.status_code == 400
    assert "If-Match says version 2 and the body's version says 1" in both.get_json()["error"]
    assert table.record() == before
    assert table.event({"event": play(0, "6-6"), "version": 2}, headers={"If-Match": '"2"'}).status_code == 201


@BOTH_DATABASES
def test_two_phones_at_once_never_lose_an_event(app, table):
    """Two threads append adjustments with no version: every one lands, each on its own version."""
    import threading

    def phone(team: int) -> None:
        client = app.test_client()
        for _ in range(8):
            response = client.post(
                f"/api/games/{table.id}/events",
                headers=table.auth,
                json={"type": "adjust", "team": team, "points": 5, "reason": "test"},
            )
            assert response.status_code == 201, response.get_json()

    threads = [threading.Thread(target=phone, args=(team,)) for team in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answer = table.get("/score").get_json()
    assert answer["totals"] == [40, 40]
    versions = [c["version"] for c in table.get("/history").get_json()["changes"]]
    assert versions == list(range(1, 19))


@BOTH_DATABASES
def test_two_phones_on_the_same_version_one_wins(app, table):
    import threading

    results: list[int] = []

    def phone(event: dict) -> None:
        response = app.test_client().post(
            f"/api/games/{table.id}/events", headers={**table.auth, "If-Match": "2"}, json=event
        )
        results.append(response.status_code)

    threads = [
        threading.Thread(target=phone, args=({"type": "adjust", "team": t, "points": 5, "reason": "x"},))
        for t in (0, 1)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [201, 409]
    assert len(table.record()["hands"][0]["events"]) == 1


@BOTH_DATABASES
def test_undo_is_a_new_history_entry_and_the_old_version_is_still_readable(table):
    table.event(play(0, "6-6"))
    table.event(play(1, "6-4", "west"))
    response = table.post("/undo", {"why": "wrong tile"})
    assert response.status_code == 200
    assert response.get_json()["change"]["before"] == play(1, "6-4", "west")
    assert table.record()["hands"][0]["events"] == [play(0, "6-6")]
    history = table.get("/history").get_json()["changes"]
    assert [c["action"] for c in history] == ["create", "hand", "event", "event", "undo"]
    assert history[-1]["why"] == "wrong tile"
    old = table.get("/record?version=4").get_json()
    assert old["hands"][0]["events"] == [play(0, "6-6"), play(1, "6-4", "west")]
    # Undo again takes the lead back, then the hand itself, then nothing is left to undo.
    assert table.post("/undo", {}).status_code == 200
    assert table.post("/undo", {}).status_code == 200
    assert table.record()["hands"] == []
    response = table.post("/undo", {})
    assert response.status_code == 409 and "nothing to undo" in response.get_json()["error"]


def test_correct_an_event_keeps_the_old_one_in_history(table):
    table.event(play(0, "6-6"))
    table.event(play(1, "6-4", "west"))
    response = table.client.put(
        f"/api/games/{table.id}/hands/0/events/1",
        headers=table.auth,
        json={"event": play(1, "6-5", "west"), "why": "the camera misread it"},
    )
    assert response.status_code == 200, response.get_json()
    assert table.record()["hands"][0]["events"][1] == play(1, "6-5", "west")
    change = table.get("/history").get_json()["changes"][-1]
    assert change["action"] == "correct" and change["before"] == play(1, "6-4", "west")
    assert table.get("/score").get_json()["hands"][0]["plays"][1]["count"] == 17


@BOTH_DATABASES
def test_a_correction_that_breaks_a_later_event_is_refused(table):
    for event in SIX_BLOCK_PLAYS[:3]:
        table.event(event)
    before = table.record()
    # 6-1 east -> 6-3 east leaves 1-2 (event 2) with nowhere to go.
    response = table.client.put(
        f"/api/games/{table.id}/hands/0/events/1",
        headers=table.auth,
        json={"event": play(1, "6-3", "east"), "why": "misread"},
    )
    assert response.status_code == 422
    data = response.get_json()
    assert data["event"] == 2 and "correcting hand 0, event 1" in data["error"]
    assert table.record() == before


def test_corrections_and_removals_need_a_reason_and_an_existing_event(table):
    table.event(play(0, "6-6"))
    url = f"/api/games/{table.id}/hands/0/events/0"
    assert table.client.put(url, headers=table.auth, json={"event": play(0, "5-5")}).status_code == 400
    assert table.client.delete(url, headers=table.auth, json={}).status_code == 400
    assert (
        table.client.delete(
            f"/api/games/{table.id}/hands/0/events/7", headers=table.auth, json={"why": "x"}
        ).status_code
        == 404
    )
    response = table.client.delete(url, headers=table.auth, json={"why": "played by mistake"})
    assert response.status_code == 200
    assert table.record()["hands"][0]["events"] == []


def test_adjust_carries_its_reason_into_the_record(table):
    response = table.event({"type": "adjust", "team": 1, "points": 10, "reason": "agreed\n at the table"})
    assert response.status_code == 201
    assert response.get_json()["score"]["totals"] == [0, 10]
    assert table.record()["hands"][0]["events"][0]["reason"] == "agreed at the table"


def test_a_hand_needs_the_previous_one_finished(table):
    table.event(play(0, "6-6"))
    response = table.post("/hands", {"leader": 1})
    assert response.status_code == 422
    assert "has not ended" in response.get_json()["error"]


def test_events_need_a_started_hand(client):
    t = Table(client, client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json())
    response = t.event(play(0, "6-6"))
    assert response.status_code == 409 and "no hand has started" in response.get_json()["error"]


def test_bad_new_matches_are_refused_in_plain_words(client):
    cases = [
        ({"variant": "chess", "players": PLAYERS}, 422, "unknown variant"),
        ({"variant": "partners", "players": ["Ana", "Ben"]}, 422, "4 players"),
        ({"variant": "partners", "players": ["Ana", "", "Cruz", "Dee"]}, 400, "needs a name"),
        ({"variant": "partners"}, 400, "players must be a list"),
        ({"variant": "partners", "players": PLAYERS, "options": {"target": -5}}, 422, "target"),
    ]
    for spec, status, words in cases:
        response = client.post("/api/games", json=spec)
        assert response.status_code == status, (spec, response.get_json())
        assert words in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


@BOTH_DATABASES
def test_import_a_whole_record_and_export_it_again(client):
    left = SIX_BLOCK_LEFT
    whole = six_block({0: left[:4], 1: left[4:8], 2: left[8:13], 3: left[13:]})
    whole["table"] = "kitchen"  # a field this server does not know travels along
    whole["hands"][0]["filmed"] = {"camera": "phone", "frames": 24}  # on a hand too
    response = client.post("/api/games", json=whole)
    assert response.status_code == 201, response.get_json()
    t = Table(client, response.get_json())
    assert t.get("/score").get_json() == score_record(whole)
    exported = t.record()
    assert exported == whole
    download = t.get("/record?download=1")
    assert "attachment" in download.headers["Content-Disposition"]
    again = Table(client, client.post("/api/games", json=exported).get_json())
    assert again.get("/score").get_json() == t.get("/score").get_json()
    assert t.get("/history").get_json()["changes"][0]["action"] == "import"


def test_a_broken_record_is_not_imported(client):
    broken = record("partners", hand(play(0, "6-6"), play(1, "1-2")))
    response = client.post("/api/games", json=broken)
    assert response.status_code == 422
    assert response.get_json()["hand"] == 0 and response.get_json()["event"] == 1
    assert client.get("/api/games").get_json()["games"] == []


def test_private_matches_need_a_link_to_read(client):
    created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS, "private": True}).get_json()
    url = f"/api/games/{created['id']}/score"
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get(url, headers={"Authorization": f"Bearer {created['viewer_token']}"}).status_code == 200
    assert client.get(f"{url}?key={created['token']}").status_code == 200
    assert client.get("/api/games").get_json()["games"] == []


def test_the_board_polls_with_etags(table):
    first = table.get("/board")
    assert first.status_code == 200 and first.headers["ETag"] == '"2"'
    assert table.get("/board", headers={"If-None-Match": '"2"'}).status_code == 304
    table.event(play(0, "6-6"))
    board = table.get("/board", headers={"If-None-Match": '"2"'}).get_json()
    assert board["version"] == 3
    assert board["current"]["turn_name"] == "Ben" and board["current"]["open_ends"] == {"west": 6, "east": 6}
    assert board["current"]["events"][0]["count"] == 12
    assert board["pad"]["fits"]["4-6"] == ["west"] and "6-6" in board["pad"]["on_table"]
    assert "<svg" in board["svg"]["layout"] and "<svg" in board["svg"]["chart"]


@BOTH_DATABASES
def test_disputes_are_marked_and_settled_with_a_correction(table):
    table.event(play(0, "6-6"))
    table.event(play(1, "6-4", "west"))
    opened = table.post("/disputes", {"hand": 0, "event": 1, "why": "Ben says it was 6-5"})
    assert opened.status_code == 201
    version = opened.get_json()["version"]
    assert table.post("/disputes", {"hand": 0, "event": 1}).status_code == 400
    no_hand = table.post("/disputes", {"event": 1, "why": "which hand?"})
    assert no_hand.status_code == 400 and "names its hand too" in no_hand.get_json()["error"]
    settled = table.post(f"/disputes/{version}/settle", {"event": play(1, "6-5", "west"), "why": "the photo shows 6-5"})
    assert settled.status_code == 200, settled.get_json()
    actions = [c["action"] for c in table.get("/history").get_json()["changes"]]
    assert actions[-3:] == ["dispute", "correct", "settle"]
    assert table.record()["hands"][0]["events"][1]["tile"] == "6-5"


def test_a_dispute_settled_from_two_phones_at_once_is_settled_once(monkeypatch, table):
    """The other phone's Settle lands between this one's check and its writing (as from another
    server process): this one is refused, and the history says settled once."""
    from webapp import store

    table.event(play(0, "6-6"))
    version = table.post("/disputes", {"hand": 0, "event": 0, "why": "was it 6-6?"}).get_json()["version"]
    real = store.note

    def other_phone_first(game_id: str, action: str, *args, **kwargs):
        monkeypatch.setattr(store, "note", real)
        real(game_id, action, *args, **{**kwargs, "who": "Ben"})
        return real(game_id, action, *args, **kwargs)

    monkeypatch.setattr(store, "note", other_phone_first)
    answer = table.post(f"/disputes/{version}/settle", {"why": "it stands"})
    assert answer.status_code == 409 and "settled already" in answer.get_json()["error"], answer.get_json()
    changes = table.get("/history").get_json()["changes"]
    assert [c["who"] for c in changes if c["action"] == "settle"] == ["Ben"]


def test_two_players_whose_names_differ_only_in_unicode_form_are_refused(client):
    """ "José" typed with the accented letter and with a combining accent is one name: the table's
    "who played?" buttons could not tell the two apart (the director's probe found it in the tournament)."""
    players = ["Jos\u00e9", "Ben", "Jose\u0301", "Dee"]
    response = client.post("/api/games", json={"variant": "partners", "players": players})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("two players are called 'José' (seats 1 and 3)")


@pytest.mark.parametrize(
    ("draw", "code"),
    [
        ({"type": "draw", "seat": 1}, "draw_neither"),
        ({"type": "draw", "seat": 1, "count": 1, "tile": "6-6"}, "draw_both"),
    ],
)
def test_a_draw_with_neither_tile_nor_count_or_with_both_is_refused_naming_it(client, draw, code):
    # GAME_RECORD.md: a draw is a known tile or a count.
    t = new_table(client, "cross", ["Ana", "Ben", "Cruz"])
    assert t.event(play(0, "0-0")).status_code == 201
    before = t.version()
    response = t.event(draw)
    assert response.status_code == 422
    data = response.get_json()
    assert (data["hand"], data["event"], data["code"]) == (0, 1, code)
    assert "hand 0, event 1" in data["error"]
    assert data["say"].startswith("Hand 1, no. 2 (a draw): A draw ")
    assert t.version() == before


def test_draws_stored_before_the_check_are_read_as_they_were_scored(app, client):
    from webapp import store
    from webapp.db import db
    from webapp.models import EventRow, Game

    assert store.stored_event({"type": "draw", "seat": 1}) == {"type": "draw", "seat": 1, "count": 1}
    assert store.stored_event({"type": "draw", "seat": 1, "tile": "6-6", "count": 1}) == {
        "type": "draw",
        "seat": 1,
        "tile": "6-6",
    }
    t = new_table(client, "cross", ["Ana", "Ben", "Cruz"])
    for event in (play(0, "0-0"), {"type": "draw", "seat": 1, "count": 1}, {"type": "draw", "seat": 1, "tile": "6-6"}):
        assert t.event(event).status_code == 201
    with app.app_context():  # rows as an older Spinner kept them
        rows = db.session.query(EventRow).filter_by(game_id=t.id).order_by(EventRow.position).all()
        rows[1].body = {"type": "draw", "seat": 1}
        rows[2].body = {"type": "draw", "seat": 1, "tile": "6-6", "count": 1}
        db.session.commit()
        record = store.record_of(db.session.get(Game, t.id))
    assert record["hands"][0]["events"][1:] == [
        {"type": "draw", "seat": 1, "count": 1},
        {"type": "draw", "seat": 1, "tile": "6-6"},
    ]
    assert score_record(record)["hands"][0]["turn"] == 1  # Ben drew 6-6, which does not fit: he draws on


def test_a_cross_lead_a_later_play_proves_wrong_is_refused_offering_the_table_s_two_ways(client):
    t = new_table(client, "cross", ["Ana", "Ben", "Cruz"])
    for event in (play(0, "0-0"), play(1, "0-1", "west"), play(2, "0-2", "east"), play(0, "0-3", "north")):
        assert t.event(event).status_code == 201
    assert t.event(play(1, "0-4", "south")).status_code == 201
    response = t.event(play(2, "3-3", "north"))
    assert response.status_code == 422
    data = response.get_json()
    assert (data["hand"], data["event"], data["code"]) == (0, 5, "lead_not_highest")
    assert data["say"] == (
        "Hand 1, play 6: Cruz held 3-3 from the deal, a higher double than the lead 0-0: "
        "the highest double leads. Deal this hand again, or keep it as played."
    )


#: cross, Ana, Ben and Cruz: Ana leads 5-5 and the hand goes on round it; Cruz then plays 6-6, which
#: he never drew: he held it at the deal, so 5-5 was not the highest double (RULES.md, cross).
CROSS_MISLED = [play(0, "5-5"), play(1, "5-6", "west"), play(2, "4-5", "east"), play(0, "3-5", "north")]
CROSS_MISLED += [play(1, "2-5", "south")]
CROSS_SIX_SIX = play(2, "6-6", "west")


def _misled_cross(client) -> Table:
    t = new_table(client, "cross", ["Ana", "Ben", "Cruz"])
    for event in CROSS_MISLED:
        assert t.event(event).status_code == 201
    refused = t.event(CROSS_SIX_SIX)
    assert (refused.status_code, refused.get_json()["code"]) == (422, "lead_not_highest")
    return t


def test_a_cross_hand_misled_is_dealt_again_as_one_change(client):
    t = _misled_cross(client)
    said = t.event(CROSS_SIX_SIX).get_json()["say"]
    assert said.endswith("Deal this hand again, or keep it as played."), said
    assert t.client.delete(f"/api/games/{t.id}/hands/0", json={}, headers=t.auth).status_code == 400  # why
    version = t.version()
    done = t.client.delete(f"/api/games/{t.id}/hands/0", json={"why": "Cruz held 6-6"}, headers=t.auth)
    assert done.status_code == 200, done.get_json()
    change = done.get_json()["change"]
    assert (change["action"], change["hand"], change["version"]) == ("void", 0, version + 1)
    assert change["before"]["events"] == CROSS_MISLED  # the hand as played stays in the history
    assert t.record()["hands"] == []
    # dealt again: Cruz leads 6-6, the highest double
    assert t.post("/hands", {}).status_code == 201
    assert t.event(play(2, "6-6")).status_code == 201
    assert t.get("/score").get_json()["hands"][0]["leader"] == 2
    history = [c["action"] for c in t.get("/history").get_json()["changes"]]
    assert history[-4:] == ["event", "void", "hand", "event"]
    assert t.get(f"/record?version={version}").get_json()["hands"][0]["events"] == CROSS_MISLED
    # exported and imported, the history keeps the voided hand
    zipped = t.get("/export", headers=t.auth).data
    response = t.client.post("/api/games", data=zipped, content_type="application/zip")
    assert response.status_code == 201, response.get_json()
    copy = Table(t.client, response.get_json())
    assert copy.record()["hands"] == t.record()["hands"]
    assert "void" in [c["action"] for c in copy.get("/history", headers=copy.auth).get_json()["changes"]]


def test_undo_brings_a_voided_hand_back_as_it_was_played(client):
    t = _misled_cross(client)
    assert t.client.delete(f"/api/games/{t.id}/hands/0", json={"why": "by mistake"}, headers=t.auth).status_code == 200
    voided = t.version()
    undone = t.post("/undo", {})
    assert undone.status_code == 200, undone.get_json()
    change = undone.get_json()["change"]
    assert (change["action"], change["hand"], change["version"]) == ("undo", 0, voided + 1)
    assert change["after"]["events"] == CROSS_MISLED
    assert t.record()["hands"][0]["events"] == CROSS_MISLED
    assert t.get(f"/record?version={voided}").get_json()["hands"] == []  # the void stays in the history
    assert [c["action"] for c in t.get("/history").get_json()["changes"]][-2:] == ["void", "undo"]
    assert t.client.get(f"/g/{t.id}/history").status_code == 200
    zipped = t.get("/export", headers=t.auth).data  # the undo travels in the history
    copied = t.client.post("/api/games", data=zipped, content_type="application/zip")
    assert copied.status_code == 201, copied.get_json()
    assert Table(t.client, copied.get_json()).record()["hands"] == t.record()["hands"]
    # the hand goes on as before the void: the play that proved the lead wrong is refused again
    assert t.event(CROSS_SIX_SIX).get_json()["code"] == "lead_not_highest"
    assert t.post("/undo", {}).get_json()["change"]["before"] == CROSS_MISLED[-1]  # then Undo as ever
    assert t.event(CROSS_MISLED[-1]).status_code == 201


def test_undo_after_the_pad_deals_a_voided_hand_again_brings_the_hand_back(client):
    t = _misled_cross(client)
    assert t.client.delete(f"/api/games/{t.id}/hands/0", json={"why": "by mistake"}, headers=t.auth).status_code == 200
    assert t.post("/hands", {}).status_code == 201  # the pad starts the hand afresh at once
    assert t.get("/board").get_json()["pad"]["can_undo"] is True
    undone = t.post("/undo", {})
    assert undone.status_code == 200, undone.get_json()
    change = undone.get_json()["change"]
    assert (change["action"], change["hand"], change["after"]["events"]) == ("undo", 0, CROSS_MISLED)
    assert [hand["events"] for hand in t.record()["hands"]] == [CROSS_MISLED]
    assert t.get("/board").get_json()["pad"]["can_undo"] is True


def test_a_voided_hand_that_would_break_a_rule_now_is_refused_by_undo_and_nothing_is_lost(client, monkeypatch):
    from scorer import RecordError
    from webapp import store

    t = _misled_cross(client)
    assert t.client.delete(f"/api/games/{t.id}/hands/0", json={"why": "by mistake"}, headers=t.auth).status_code == 200
    voided = t.version()
    real = store.scored

    def strict(record):  # a scorer that no longer takes the hand as played
        if record["hands"]:
            raise RecordError("the lead was not the highest double", 0, 0, code="record")
        return real(record)

    monkeypatch.setattr(store, "scored", strict)
    refused = t.post("/undo", {})
    assert refused.status_code == 422, refused.get_json()
    assert "bringing back hand 0 as it was played would break a rule" in refused.get_json()["error"]
    monkeypatch.setattr(store, "scored", real)
    assert (t.version(), t.record()["hands"]) == (voided, [])
    assert t.post("/undo", {}).get_json()["change"]["after"]["events"] == CROSS_MISLED  # kept to bring back


def test_only_the_last_hand_is_dealt_again(client):
    t = new_table(client, "cross", ["Ana", "Ben", "Cruz"])
    for event in (play(0, "6-6"), {"type": "draw", "seat": 1, "count": 7}, {"type": "pass", "seat": 1}):
        assert t.event(event).status_code == 201
    for event in ({"type": "pass", "seat": 2}, {"type": "pass", "seat": 0}):
        assert t.event(event).status_code == 201
    for seat, pips in ((0, 20), (1, 80), (2, 56)):
        assert t.event({"type": "pips", "seat": seat, "pips": pips}).status_code == 201
    assert t.post("/hands", {}).status_code == 201
    refused = t.client.delete(f"/api/games/{t.id}/hands/0", json={"why": "x"}, headers=t.auth)
    assert refused.status_code == 409
    assert t.client.delete(f"/api/games/{t.id}/hands/5", json={"why": "x"}, headers=t.auth).status_code == 404


def test_a_cross_hand_misled_is_kept_as_played_by_a_ruling_in_the_history(client):
    t = _misled_cross(client)
    assert t.post("/hands/0/lead-stands", {}).status_code == 400  # why
    ruled = t.post("/hands/0/lead-stands", {"why": "the table plays on"})
    assert ruled.status_code == 200, ruled.get_json()
    change = ruled.get_json()["change"]
    assert (change["action"], change["hand"], change["after"]) == ("lead_stands", 0, {"lead_stands": True})
    assert t.record()["hands"][0]["lead_stands"] is True
    assert t.event(CROSS_SIX_SIX).status_code == 201  # the play refused before
    assert t.post("/hands/0/lead-stands", {"why": "again"}).status_code == 409
    assert score_record(t.record())["hands"][0]["plays"][-1]["tile"] == "6-6"
    imported = t.client.post("/api/games", json=t.record())  # the ruling travels with the record
    assert imported.status_code == 201, imported.get_json()
    assert Table(t.client, imported.get_json()).record()["hands"][0]["lead_stands"] is True
    # Undo takes back plays, never the ruling under them
    assert t.post("/undo", {}).status_code == 200
    assert t.post("/undo", {}).get_json()["change"]["before"] == CROSS_MISLED[-1]
    assert t.record()["hands"][0]["lead_stands"] is True


def test_undo_takes_back_a_ruling_that_lets_a_lead_stand(client):
    t = _misled_cross(client)
    assert t.post("/hands/0/lead-stands", {"why": "by mistake"}).status_code == 200
    ruled = t.version()
    undone = t.post("/undo", {})
    assert undone.status_code == 200, undone.get_json()
    change = undone.get_json()["change"]
    assert (change["action"], change["hand"], change["version"]) == ("undo", 0, ruled + 1)
    assert (change["before"]["lead_stands"], "lead_stands" in change["after"]) == (True, False)
    assert "lead_stands" not in t.record()["hands"][0]
    assert t.record()["hands"][0]["events"] == CROSS_MISLED  # the plays stay
    assert t.get(f"/record?version={ruled}").get_json()["hands"][0]["lead_stands"] is True
    assert t.event(CROSS_SIX_SIX).get_json()["code"] == "lead_not_highest"  # judged again
    assert t.post("/hands/0/lead-stands", {"why": "the table plays on"}).status_code == 200  # and ruled again


def test_correcting_a_cross_lead_says_the_plays_after_it_no_longer_fit(client):
    t = _misled_cross(client)
    body = {"event": play(2, "6-6"), "why": "Cruz held 6-6"}
    refused = t.client.put(f"/api/games/{t.id}/hands/0/events/0", json=body, headers=t.auth).get_json()
    assert refused["take_back_from"] == 1
    assert refused["say"] == (
        "Hand 1: with play 1 corrected to Cruz played 6-6, play 2 (Ben played 5-6 on the west) no longer fits: "
        "it is Ana's turn there, not Ben's. "
        "Take back plays 2 to 5 with the correction, then tap again those that were played."
    )


def test_a_reveal_after_the_match_was_won_in_mid_hand_is_kept(client):
    created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS, "options": {"target": 20}})
    t = Table(client, created.get_json())
    assert t.post("/hands", {}).status_code == 201
    plays = [play(0, "6-6"), play(1, "3-6", "west"), play(2, "4-6", "east"), play(3, "4-4", "east")]
    for event in [*plays, play(0, "2-3", "west"), play(1, "3-4", "east")]:
        assert t.event(event).status_code == 201
    assert t.get("/score").get_json()["winner"] == 1
    response = t.event({"type": "reveal", "seat": 2, "tiles": ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2"]})
    assert response.status_code == 201, response.get_json()
    assert t.event({"type": "pips", "seat": 3, "pips": 30}).status_code == 201
    assert t.event(play(2, "2-2", "west")).get_json()["code"] == "match_won"


def test_the_board_names_the_last_winner_whose_duty_it_is_to_lead_a_double_in_cross(client):
    t = new_table(client, "cross", ["Ana", "Ben", "Cruz"])
    first = [play(0, "6-6"), {"type": "draw", "seat": 1, "count": 7}]
    first += [{"type": "pass", "seat": s} for s in (1, 2, 0)]
    first += [{"type": "pips", "seat": s, "pips": p} for s, p in ((0, 20), (1, 80), (2, 56))]
    for event in first:
        assert t.event(event).status_code == 201, t.event(event).get_json()
    assert t.post("/hands", {}).status_code == 201
    lead = t.get("/board").get_json()["pad"]["lead"]
    assert (lead["doubles_only"], lead["seat"], lead["duty"]) == (True, None, 0)  # Ana won: hers if she has a double
