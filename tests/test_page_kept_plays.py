"""Issue 34 on the page, with no arm in view (photos taken on purpose): a play whose seat no photo
settles is followed as the turn seat's and kept, with every play after it, and the table is asked
once for all of them ("did anyone pass from 6-3 on?"). "No one passed" records them as followed;
naming the first play laid after a pass and who laid it records them with the pass; a turn-down
or a play scored on the pad drops them. Nothing kept is in the record until a player answers.

Everything here is real from the upload to the record but the reader (`tests.support.camera`).
"""

from __future__ import annotations

import pytest

from tests.support.camera import photo, seen, send
from tests.support.records import pass_, play

ENGLISH = {"Accept-Language": "en"}
SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}


def kept_two(cam) -> tuple[dict, dict]:
    """Ana leads 6-6 on the pad; two photos show 6-3, then 3-4, laid after it: both kept."""
    assert cam.event(play(0, "6-6")).status_code == 201  # Ben's turn
    cam.script.readings.append(seen("6-6", "6-3"))
    first = send(cam, photo(), headers=ENGLISH).get_json()
    cam.script.readings.append(seen("6-6", "6-3", "3-4"))
    second = send(cam, photo(), headers=ENGLISH).get_json()
    return first, second


@pytest.fixture
def cam(cam, script):
    cam.script = script
    return cam


def test_plays_whose_seat_no_photo_shows_are_kept_and_asked_about_once(cam):
    first, second = kept_two(cam)
    assert first["status"] == second["status"] == "kept"
    assert first["proposal"]["kept"] == [play(1, "3-6", "west")]  # followed as Ben's: his turn
    assert second["proposal"]["kept"] == [play(2, "3-4", "west")]
    assert second["say"] == (
        "Kept to confirm: Cruz, 3-4 on the west. No photo shows a pass: did anyone pass from 3-6 on?"
    )
    spanish = cam.get(f"/frames/{second['id']}", headers={**cam.auth, **SPANISH}).get_json()
    assert spanish["say"] == (
        "Pendiente de confirmar: Cruz, la 3-4 por el oeste. Ninguna foto muestra un pase: ¿pasó alguien desde la 3-6?"
    )
    assert second["proposal"]["params"]["plays"] == [play(1, "3-6", "west"), play(2, "3-4", "west")]
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6")]  # nothing guessed is recorded
    # no one passed: one tap records both, as followed
    answered = cam.post(f"/frames/{second['id']}/accept", {}, headers=ENGLISH)
    assert answered.status_code == 200, answered.get_json()
    assert answered.get_json()["say"] == "Recorded: Ben played 3-6 on the west; Cruz played 3-4 on the west"
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), play(1, "3-6", "west"), play(2, "3-4", "west")]
    first_now = cam.get(f"/frames/{first['id']}", headers=cam.auth).get_json()
    assert first_now["status"] == "accepted" and first_now["event"] == 1  # the photo that showed 6-3
    # the next photo goes on from the answered record: 4-5 is Dee's, kept again
    cam.script.readings.append(seen("6-6", "6-3", "3-4", "4-5"))
    third = send(cam, photo(), headers=ENGLISH).get_json()
    assert third["status"] == "kept" and third["proposal"]["kept"] == [play(3, "4-5", "west")]


def test_a_pass_named_in_the_answer_moves_the_seat_of_every_play_after_it(cam):
    _, second = kept_two(cam)
    # Ben passed: Cruz laid 6-3, so Dee laid 3-4
    answered = cam.post(f"/frames/{second['id']}/accept", {"passes": [[0, 2]]}, headers=ENGLISH)
    assert answered.status_code == 200, answered.get_json()
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), play(2, "3-6", "west"), play(3, "3-4", "west")]
    board = cam.get("/board", headers=cam.auth).get_json()
    assert board["current"]["turn"] == 0  # Ana's, after Dee


def test_kept_plays_are_answered_where_another_process_keeps_them(cam):
    # a reader worker's follower keeps the plays (or this server restarted): the answer is made
    # from the newest of their frames
    from webapp import frames

    _, second = kept_two(cam)
    frames.tables(cam.app).of.clear()
    answered = cam.post(f"/frames/{second['id']}/accept", {"passes": [[0, 2]]}, headers=ENGLISH)
    assert answered.status_code == 200, answered.get_json()
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), play(2, "3-6", "west"), play(3, "3-4", "west")]
    cam.script.readings.append(seen("6-6", "6-3", "3-4", "4-5"))
    after = send(cam, photo(), headers=ENGLISH).get_json()  # followed on from the record
    assert after["status"] == "kept" and after["proposal"]["kept"] == [play(0, "4-5", "west")]


@pytest.mark.parametrize(
    "passes, says",
    [
        ([[5, 2]], "passes[0]: the plays kept to confirm are 2: there is no play 6"),
        ([[0, 7]], "passes[0]: there is no seat 7 (seats are 0 to 3)"),
        ("Ben", "passes"),
        ([[0, 2], [0, 3]], "passes[1]: play 1 is named twice: one seat laid it"),
        ([[1, 0], [0, 2]], "passes[1]: play 1 comes before play 2: name the plays in the order laid"),
        # Ben laid 6-3 in turn: no pass comes before it so
        ([[0, 1]], "passes[0]: seat 1 laid play 1 (3-6) in turn: no one passed before it"),
        # after Ben passed, Cruz laid 6-3 and Dee 3-4 in turn
        ([[0, 2], [1, 3]], "passes[1]: seat 3 laid play 2 (3-4) in turn: no one passed before it"),
    ],
)
def test_a_bad_answer_names_what_is_wrong_and_records_nothing(cam, passes, says):
    _, second = kept_two(cam)
    answered = cam.post(f"/frames/{second['id']}/accept", {"passes": passes}, headers=ENGLISH)
    assert answered.status_code == 400 and says in answered.get_json()["error"]
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6")]
    assert cam.get(f"/frames/{second['id']}", headers=cam.auth).get_json()["status"] == "kept"  # still asking


def test_a_play_named_as_laid_after_a_pass_by_its_turn_seat_is_refused_in_players_words(cam):
    """The camera box showed the API's "passes[0]: seat 1 laid play 1 (3-6) in turn: ..." (seats
    from 0, in English on a Spanish phone), and no way to name the pass again."""
    _, second = kept_two(cam)
    for headers, says in (
        (ENGLISH, "Ben laid 3-6 in turn, so nobody passed just before it."),
        (SPANISH, "Ben jugó la 3-6 en su turno, así que nadie pasó justo antes."),
    ):
        answered = cam.post(f"/frames/{second['id']}/accept", {"passes": [[0, 2], [1, 3]]}, headers=headers)
        assert answered.status_code == 400
        assert answered.get_json()["say"] == says.replace("Ben", "Dee").replace("3-6", "3-4")
        assert answered.get_json()["mark"] == 1  # the second pass named: the page asks again from the first
        answered = cam.post(f"/frames/{second['id']}/accept", {"passes": [[0, 1]]}, headers=headers)
        assert answered.get_json()["say"] == says and answered.get_json()["mark"] == 0
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6")]


def test_a_pass_the_rules_refuse_is_said_in_players_words(cam):
    assert cam.event(play(0, "6-6")).status_code == 201
    assert cam.event(pass_(1)).status_code == 201  # Ben passed: Cruz's turn
    for tiles in (("6-6", "6-3"), ("6-6", "6-3", "3-4")):
        cam.script.readings.append(seen(*tiles))
        second = send(cam, photo(), headers=ENGLISH).get_json()
    assert second["status"] == "kept" and second["proposal"]["params"]["plays"][0]["seat"] == 2
    # Ben laid 6-3 after a pass: then Cruz, Dee and Ana passed after Ben did, the hand blocked
    answered = cam.post(f"/frames/{second['id']}/accept", {"passes": [[0, 1]]}, headers=ENGLISH)
    assert answered.status_code == 422, answered.get_json()
    assert answered.get_json()["say"] == (
        "Hand 1, play 3: Everybody else passed since the last tile: the hand is blocked."
    )
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), pass_(1)]


def test_the_open_question_is_there_to_ask_for_a_page_opened_later(cam):
    """Probe (phone), finding 3: a page reloaded while plays are kept to confirm asks their question
    at once: GET .../frames/asks answers it, with nothing to ask before and after."""
    assert cam.get("/frames/asks", headers=cam.auth).get_json() == {"asks": None}
    _, second = kept_two(cam)
    open_now = cam.get("/frames/asks", headers={**cam.auth, **ENGLISH}).get_json()["asks"]
    assert open_now["id"] == second["id"] and open_now["status"] == "kept"
    assert open_now["say"] == second["say"]
    assert cam.get("/frames/asks", headers={"Authorization": f"Bearer {cam.viewer}"}).status_code == 200
    assert cam.post(f"/frames/{second['id']}/accept", {}, headers=ENGLISH).status_code == 200
    assert cam.get("/frames/asks", headers=cam.auth).get_json() == {"asks": None}


def test_turned_down_the_kept_plays_are_dropped_for_the_pad(cam):
    first, second = kept_two(cam)
    turned = cam.post(f"/frames/{first['id']}/reject", {"why": "Ben laid both"}, headers=ENGLISH)
    assert turned.status_code == 200
    assert cam.get(f"/frames/{second['id']}", headers=cam.auth).get_json()["status"] == "rejected"
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6")]
    again = cam.post(f"/frames/{second['id']}/accept", {}, headers=ENGLISH)
    assert again.status_code == 409 and "asks nothing now (it is rejected)" in again.get_json()["error"]


@pytest.mark.parametrize("event", [pass_(1), play(1, "3-6", "west"), play(3, "4-5", "west")])
def test_the_pad_cannot_score_over_plays_kept_to_confirm(cam, event):
    # the board still shows Ben's turn (only the lead is recorded), but 6-3 and 3-4 were laid
    # first: a pass tapped now would be recorded before them and drop them
    _, second = kept_two(cam)
    refused = cam.event(event)
    assert refused.status_code == 409, refused.get_json()
    said = refused.get_json()
    assert said["error"].startswith(
        "2 plays are kept to confirm, laid before this: answer the camera's question "
        "'did anyone pass from 3-6 on?' first"
    )
    assert "version" not in said  # not "the match changed": the page shows the question itself
    assert said["code"] == "kept_open" and said["asks"]["id"] == second["id"]
    assert said["say"].startswith("2 plays are kept to confirm")  # what the pad shows, in the page's language
    spanish = cam.event(event, headers=SPANISH).get_json()["say"]
    assert spanish.startswith("2 jugadas esperan confirmación")
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6")]
    assert cam.get(f"/frames/{second['id']}", headers=cam.auth).get_json()["status"] == "kept"
    # answered, the pad scores on from the answered record
    assert cam.post(f"/frames/{second['id']}/accept", {}, headers=ENGLISH).status_code == 200
    assert cam.event(pass_(3)).status_code == 201
    assert cam.record()["hands"][0]["events"][-1] == pass_(3)


def test_a_play_scored_on_the_pad_in_place_of_the_kept_plays_drops_them(cam):
    first, _ = kept_two(cam)
    scored = cam.post("/events", {"event": play(1, "3-6", "west"), "drop_kept": True})
    assert scored.status_code == 201, scored.get_json()
    dropped = cam.get(f"/frames/{first['id']}", headers={**cam.auth, **ENGLISH}).get_json()
    assert dropped["status"] == "rejected"
    assert dropped["say"] == "The plays kept to confirm were dropped (the record changed since): score them on the pad."
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), play(1, "3-6", "west")]
    cam.script.readings.append(seen("6-6", "6-3", "3-4"))
    after = send(cam, photo(), headers=ENGLISH).get_json()  # followed on from the record
    assert after["status"] == "kept" and after["proposal"]["kept"] == [play(2, "3-4", "west")]


def test_kept_plays_dropped_by_an_undo_do_not_hold_the_pad(cam):
    first, _ = kept_two(cam)
    # the lead taken back in their place ("drop_kept"): the kept plays go with it
    assert cam.post("/undo", {"drop_kept": True}).status_code == 200
    assert cam.event(play(0, "6-6")).status_code == 201
    assert cam.get(f"/frames/{first['id']}", headers=cam.auth).get_json()["status"] == "rejected"


def _rewrite(cam, how: str, drop: bool = False, lang: dict[str, str] = ENGLISH):  # type: ignore[no-untyped-def]
    """One change that rewrites the record under the kept plays, as the page sends it."""
    extra = {"drop_kept": True} if drop else {}
    headers = {**cam.auth, **lang}  # the page's language
    path = f"/api/games/{cam.id}/hands/0/events/0"
    if how == "undo":
        return cam.post("/undo", {"why": "undo on the pad", **extra}, headers=lang)
    if how == "correct":
        return cam.client.put(path, json={"event": play(1, "6-6"), "why": "Ben led it", **extra}, headers=headers)
    if how == "remove":
        return cam.client.delete(path, json={"why": "no lead yet", **extra}, headers=headers)
    if how == "settle":  # a dispute of the lead settled with a correction
        opened = cam.post("/disputes", {"hand": 0, "event": 0, "why": "who led?"})
        assert opened.status_code == 201, opened.get_json()  # a note: the kept plays stay
        body = {"event": play(1, "6-6"), "why": "Ben led it", **extra}
        return cam.post(f"/disputes/{opened.get_json()['version']}/settle", body, headers=lang)
    assert how == "hand"
    return cam.post("/hands", {"leader": 1, **extra}, headers=lang)


@pytest.mark.parametrize("how", ["undo", "correct", "remove", "settle", "hand"])
def test_a_change_of_the_record_waits_for_plays_kept_to_confirm(cam, how):
    # an undo, a correction (the fix dialog), a removal or a new hand would rebuild the follower
    # from the record and drop 6-3 and 3-4 without a word: refused as the pad's Pass is
    first, second = kept_two(cam)
    refused = _rewrite(cam, how)
    assert refused.status_code == 409, refused.get_json()
    said = refused.get_json()
    assert said["code"] == "kept_open" and said["asks"]["id"] == second["id"]
    assert "version" not in said  # not "the match changed": the page shows the question itself
    assert "'did anyone pass from 3-6 on?' first" in said["error"]
    assert '"drop_kept": true' in said["error"] and "nothing was changed" in said["error"]
    assert said["say"] == (
        "2 plays are kept to confirm, laid after the last one recorded: changing the record now would "
        "drop them. Answer the camera's question first, or turn them down. Nothing was changed."
    )
    spanish = _rewrite(cam, how, lang=SPANISH).get_json()["say"]  # what the page shows, in its language
    assert spanish.startswith("2 jugadas esperan confirmación, hechas después de la última anotada")
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6")] and len(cam.record()["hands"]) == 1
    for frame in (first, second):
        assert cam.get(f"/frames/{frame['id']}", headers=cam.auth).get_json()["status"] == "kept"
    # "drop_kept": the change is made and the kept plays are dropped at once, their frames say so
    dropped = _rewrite(cam, how, drop=True)
    if how == "hand":  # the hand is not over: a new one cannot start, and nothing is dropped
        assert dropped.status_code == 422, dropped.get_json()
        assert cam.get(f"/frames/{second['id']}", headers=cam.auth).get_json()["status"] == "kept"
        return
    assert dropped.status_code == 200, dropped.get_json()
    assert cam.record()["hands"][0]["events"] != [play(0, "6-6")]
    now = cam.get(f"/frames/{first['id']}", headers={**cam.auth, **ENGLISH}).get_json()
    assert now["status"] == "rejected"
    assert now["say"] == "The plays kept to confirm were dropped (the record changed since): score them on the pad."


def test_notes_and_seating_leave_the_kept_plays_asking(cam):
    # a dispute marked, a dispute settled as it stands, the seating said: the record's plays stay
    _, second = kept_two(cam)
    opened = cam.post("/disputes", {"hand": 0, "event": 0, "why": "who led?"})
    assert opened.status_code == 201, opened.get_json()
    settled = cam.post(f"/disputes/{opened.get_json()['version']}/settle", {"why": "Ana did"})
    assert settled.status_code == 200, settled.get_json()
    seated = cam.client.put(
        f"/api/games/{cam.id}/seating", json={"seating": ["top", "left", "bottom", "right"]}, headers=cam.auth
    )
    assert seated.status_code == 200, seated.get_json()
    assert cam.get(f"/frames/{second['id']}", headers=cam.auth).get_json()["status"] == "kept"
    answered = cam.post(f"/frames/{second['id']}/accept", {}, headers=ENGLISH)
    assert answered.status_code == 200, answered.get_json()
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), play(1, "3-6", "west"), play(2, "3-4", "west")]


def test_a_bad_drop_kept_is_refused(cam):
    kept_two(cam)
    refused = cam.post("/undo", {"drop_kept": "yes"})
    assert refused.status_code == 400 and "drop_kept is true" in refused.get_json()["error"]
    left_out = cam.post("/undo", {"drop_kept": None})  # null is left out: the kept plays hold it back
    assert left_out.status_code == 409 and left_out.get_json()["code"] == "kept_open", left_out.get_json()


# -- on the page -----------------------------------------------------------------------------------


def two_plays_kept(scripted, open_page, tmp_path):  # type: ignore[no-untyped-def]
    """A phone's page: Ana leads 6-6 on the pad, then two photos show Ben's 3-6 and Cruz's 3-4, kept
    to confirm (no photo shows a pass). The page and the match's id."""
    from tests.support.page import PHONE, start_match, tap_and_wait

    page = open_page(PHONE)
    game = start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')  # Ana leads
    tap_and_wait(page, '[data-tile="6-6"]')
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    for tiles in (("6-6", "6-3"), ("6-6", "6-3", "3-4")):
        scripted.script.readings.append(seen(*tiles))
        page.set_input_files("#photo-input", str(shot))
        page.wait_for_function(
            "t => document.getElementById('cam-say').textContent.includes(t)",
            arg=f"Cruz, {tiles[-1]}" if len(tiles) > 2 else "Ben, 3-6",
        )
    return page, game


@pytest.mark.slow
def test_the_camera_box_asks_once_for_the_kept_plays_and_a_pass_is_three_taps(scripted, open_page, tmp_path):
    from tests.support.page import axe_findings, record_of, version, wait_version

    page, game = two_plays_kept(scripted, open_page, tmp_path)
    assert page.inner_text("#cam-say") == (
        "Kept to confirm: Cruz, 3-4 on the west. No photo shows a pass: did anyone pass from 3-6 on?"
    )
    assert page.locator("#cam-seats button").all_inner_texts() == ["No one passed", "Someone passed…"]
    assert axe_findings(page) == []
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6")]  # nothing kept is recorded

    page.click("text=Someone passed…")
    assert page.inner_text("#cam-say") == "Which play was laid right after the pass?"
    assert page.locator("#cam-seats button").all_inner_texts() == ["3-6", "3-4"]
    page.click('#cam-seats button:has-text("3-6")')
    assert page.inner_text("#cam-say") == "Who laid 3-6?"
    page.click('#cam-seats button:has-text("Cruz")')  # Ben passed
    page.wait_for_function("document.getElementById('cam-say').textContent.endsWith('Cruz laid 3-6 after a pass.')")
    buttons = page.locator("#cam-seats button")
    assert buttons.all_inner_texts() == ["No other pass: record them", "Someone passed…"]
    sizes = buttons.evaluate_all("bs => bs.map(b => [b.offsetWidth, b.offsetHeight])")
    assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
    before = version(page)
    buttons.nth(0).click()
    wait_version(page, before + 2)  # the two plays, one change each
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('Recorded')")
    assert page.inner_text("#cam-say") == "Recorded: Cruz played 3-6 on the west; Dee played 3-4 on the west"
    assert record_of(page, game)["hands"][0]["events"] == [
        play(0, "6-6"),
        play(2, "3-6", "west"),
        play(3, "3-4", "west"),
    ]


@pytest.mark.slow
def test_a_pass_named_for_a_play_laid_in_turn_is_asked_again_in_words(scripted, open_page, tmp_path):
    """Ben tapped as the one who laid 3-6 after a pass, when 3-6 was his in turn: the box said the
    API's "passes[0]: seat 1 laid play 1 (3-6) in turn: ..." and kept buttons that could only be
    refused again. It says why in players' words and asks the question again."""
    from tests.support.page import record_of, version, wait_version

    page, game = two_plays_kept(scripted, open_page, tmp_path)
    page.click("text=Someone passed…")
    page.click('#cam-seats button:has-text("3-6")')
    page.click('#cam-seats button:has-text("Ben")')
    page.click("text=No other pass: record them")
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('Ben laid 3-6 in turn')")
    assert page.inner_text("#cam-say") == (
        "Ben laid 3-6 in turn, so nobody passed just before it. Kept to confirm: Cruz, 3-4 on the west. "
        "No photo shows a pass: did anyone pass from 3-6 on?"
    )
    assert page.locator("#cam-seats button").all_inner_texts() == ["No one passed", "Someone passed…"]
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6")]
    page.click("text=Someone passed…")  # and now as it was: Ben passed, Cruz laid 3-6
    page.click('#cam-seats button:has-text("3-6")')
    page.click('#cam-seats button:has-text("Cruz")')
    before = version(page)
    page.click("text=No other pass: record them")
    wait_version(page, before + 2)
    assert record_of(page, game)["hands"][0]["events"] == [
        play(0, "6-6"),
        play(2, "3-6", "west"),
        play(3, "3-4", "west"),
    ]


def test_a_photo_that_asked_for_the_kept_plays_first_is_looked_at_once_they_are_answered(cam):
    kept_two(cam)
    # the next photo's play is unsure: its question waits for the kept plays' question
    cam.script.readings.append(seen("6-6", "6-3", "3-4", ("4-5", 0.6)))
    third = send(cam, photo(), headers=ENGLISH).get_json()
    assert third["status"] == "confirm" and third["proposal"]["code"] == "passes_unsure"
    assert "kept" not in third["proposal"]  # not looked at yet
    answered = cam.post(f"/frames/{third['id']}/accept", {}, headers=ENGLISH)
    assert answered.status_code == 200
    now = answered.get_json()
    assert now["id"] == third["id"] and now["status"] == "confirm"  # its own question now
    # no photo shows whether Dee passed: who laid 4-5 is asked with it, Dee first
    assert now["proposal"]["events"] == [{**play(3, "4-5", "west"), "seat": None}]
    assert now["proposal"]["seats"][0] == 3
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), play(1, "3-6", "west"), play(2, "3-4", "west")]


@pytest.mark.slow
def test_a_pass_tapped_on_the_pad_while_plays_are_kept_shows_their_question(scripted, open_page, tmp_path):
    from tests.support.page import record_of, tap_and_wait

    page, game = two_plays_kept(scripted, open_page, tmp_path)
    page.reload()  # the page opened again (or another phone's): the camera box asks at once (probe, finding 3)
    page.wait_for_selector("#pad[data-ready]")
    page.wait_for_function("document.getElementById('cam-say').textContent.includes('did anyone pass from 3-6 on?')")
    assert page.inner_text("#cam-say") == (
        "Kept to confirm: Cruz, 3-4 on the west. No photo shows a pass: did anyone pass from 3-6 on?"
    )
    assert page.locator("#cam-seats button").all_inner_texts() == ["No one passed", "Someone passed…"]
    assert page.inner_text("#pad-error") == ""  # no tap was needed to see it
    page.wait_for_function("document.querySelector('#pad .seat.on').textContent === 'Ben'")
    page.click("#pass")  # Ben's turn as the board shows it, but 6-3 and 3-4 were laid since
    page.wait_for_function("document.getElementById('pad-error').textContent.includes('kept to confirm')")
    assert "answer the camera's question first" in page.inner_text("#pad-error")  # which the camera box asks:
    page.wait_for_function("document.getElementById('cam-say').textContent.includes('did anyone pass from 3-6 on?')")
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6")]
    page.click("text=No one passed")
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('Recorded')")
    page.wait_for_function("document.querySelector('#pad .seat.on').textContent === 'Dee'")
    tap_and_wait(page, "#pass")
    assert record_of(page, game)["hands"][0]["events"][-1] == pass_(3)


@pytest.mark.slow
def test_an_undo_or_a_correction_over_kept_plays_offers_to_drop_them(scripted, open_page, tmp_path):
    from tests.support.page import record_of, tap_and_wait

    page, game = two_plays_kept(scripted, open_page, tmp_path)
    # the fix dialog: Ben led, not Ana; correcting the lead now would drop 6-3 and 3-4
    page.click('#board-bottom .fix[data-event="0"]')
    page.wait_for_selector("#fix-dialog[open]")
    assert page.locator("#fix-drop-kept").is_hidden()
    page.click('#fix-dialog [data-fix-seat="1"]')
    page.fill("#fix-why", "Ben led it")
    page.click("#fix-save")
    page.wait_for_selector("#fix-drop-kept", state="visible")
    assert page.inner_text("#fix-error").startswith(
        "2 plays are kept to confirm, laid after the last one recorded: changing the record now would drop them."
    )
    assert page.inner_text("#fix-drop-kept") == "Drop the plays kept to confirm, and go ahead"
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6")]
    page.click("#fix-cancel")
    # Undo on the pad: refused the same way, the camera box asking, the pad offering to drop them
    page.click("#undo")
    page.wait_for_selector("#pad-drop-kept", state="visible")
    assert "Answer the camera's question first, or turn them down." in page.inner_text("#pad-error")
    assert "did anyone pass from 3-6 on?" in page.inner_text("#cam-say")
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6")]
    tap_and_wait(page, "#pad-drop-kept")  # the player chose: the lead taken back, the kept plays dropped
    assert record_of(page, game)["hands"][0]["events"] == []
    page.wait_for_selector("#pad-drop-kept", state="hidden")
    assert page.inner_text("#pad-error") == ""
    frames = page.evaluate(f"fetch('/api/games/{game}/frames').then(r => r.json())")["frames"]
    assert [f["status"] for f in frames] == ["rejected", "rejected"]  # their photos say so
