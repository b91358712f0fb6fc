"""Issue 34 on the page: who played it. After passes no photo shows, more than one seat may have
laid the tile the camera saw, and the follower asks (code "who_played", one candidate a seat,
likeliest first). The page proposes the likeliest seat's play and lists the seats (`seats`); the
camera box asks in players' words ("Who played 6-3? Ben (their turn), Cruz, Dee or Ana?") with a
button a seat, and one tap records the play for that seat. The pad's Pass is one tap for the seat
whose turn it is.

The follower's question is given in place of what it makes of the photo (`tests.support.camera.Asks`:
the follower that asks it is another change); the rest, from the upload to the record, is real.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.camera import Asks, photo, seen, send, who_played
from tests.support.page import (
    PHONE,
    api,
    axe_findings,
    meant_taps,
    record_of,
    start_match,
    tap_and_wait,
    version,
    wait_version,
)
from tests.support.records import pass_, play
from tests.support.web import PLAYERS

ENGLISH = {"Accept-Language": "en"}
SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}


@pytest.fixture
def asks(monkeypatch) -> Asks:
    return Asks().install(monkeypatch)


def in_language(lang: str, say):
    """`say()` in a request of the page in `lang`."""
    from flask_babel import force_locale

    from webapp import create_app

    app = create_app({"DATABASE_URL": "sqlite://", "SPINNER_DATA": "/nonexistent"}, migrate=False)
    with app.test_request_context(), force_locale(lang):
        return say()


# -- the proposal ---------------------------------------------------------------------------------


def test_a_who_played_question_proposes_the_likeliest_seat_and_lists_the_seats():
    from webapp.frames import proposal_of

    proposal = proposal_of(who_played("4-5", [2, 3, 0], "east"), live=False)
    assert proposal["status"] == "confirm" and proposal["sure"] is False
    assert proposal["seats"] == [2, 3, 0]
    assert proposal["events"] == [play(2, "4-5", "east")]
    assert proposal["choices"] == ["east"]
    assert [c[0]["event"] for c in proposal["candidates"]] == [play(s, "4-5", "east") for s in (2, 3, 0)]
    assert (proposal["code"], proposal["params"]) == ("who_played", {"tile": "4-5", "seats": [2, 3, 0]})
    # a lead: each seat's event has no end
    lead = proposal_of(who_played("6-6", [1, 2]), live=True)
    assert lead["seats"] == [1, 2] and lead["events"] == [play(1, "6-6")] and lead["choices"] == []


def test_any_other_question_is_proposed_as_before_without_seats():
    from webapp.frames import proposal_of

    asked = who_played("4-5", [2, 3, 0], "east")
    other = who_played("4-5", [2, 3, 0], "east")
    other.code, other.params = "unsure", {}
    before = proposal_of(other, live=False)
    assert "seats" not in before
    after = proposal_of(asked, live=False)
    assert {k: v for k, v in after.items() if k not in ("seats", "code", "params")} == {
        k: v for k, v in before.items() if k not in ("code", "params")
    }


# -- the words ------------------------------------------------------------------------------------


def asked(tile: str, seats: list[int], end: str | None = None) -> dict:
    from webapp.frames import proposal_of

    return proposal_of(who_played(tile, seats, end), live=False)


def say_of(proposal: dict) -> str:
    from webapp.camera_words import frame_say
    from webapp.wording import Table as Names

    return frame_say("confirm", proposal["message"], proposal, "photo", Names(PLAYERS))


def test_who_played_is_asked_with_the_players_names_in_english_and_spanish():
    from webapp.camera_words import reason_words
    from webapp.wording import Table as Names
    from webapp.wording import script_words

    three, two, lead = asked("4-5", [2, 3, 0], "east"), asked("4-5", [2, 3], "west"), asked("6-6", [1, 2])
    english = in_language("en", lambda: [say_of(three), say_of(two), say_of(lead)])
    assert english == [
        "Who played 4-5? Cruz (their turn), Dee or Ana?",
        "Who played 4-5? Cruz (their turn) or Dee?",
        "Who played 6-6? Ben or Cruz?",  # nobody's turn before the lead
    ]
    spanish = in_language("es", lambda: [say_of(three), say_of(two), say_of(lead)])
    assert spanish == [
        "¿Quién jugó la 4-5? ¿Cruz (le toca), Dee o Ana?",
        "¿Quién jugó la 4-5? ¿Cruz (le toca) o Dee?",
        "¿Quién jugó la 6-6? ¿Ben o Cruz?",
    ]
    # the reason alone, as other sentences put it ("...: turned down already, not asked again")
    params = {"tile": "4-5", "seats": [2, 3, 0]}
    assert in_language("en", lambda: reason_words("who_played", params, Names(PLAYERS))) == (
        "who played 4-5 is not known: Cruz, Dee or Ana"
    )
    assert in_language("es", lambda: reason_words("who_played", params, Names(PLAYERS))) == (
        "no se sabe quién jugó la 4-5: Cruz, Dee o Ana"
    )
    # the seat buttons' mark, for camera.js
    assert in_language("en", script_words)["cam_seat_turn"] == "{who} (their turn)"
    assert in_language("es", script_words)["cam_seat_turn"] == "{who} (le toca)"


# -- through the frames API -------------------------------------------------------------------------


def test_a_photo_that_asks_who_played_is_answered_by_one_seat(cam, script, asks):
    assert cam.event(play(0, "6-6")).status_code == 201  # Ana leads: Ben's turn
    script.readings.append(seen("6-6", "6-3"))
    asks.outcomes.append(who_played("6-3", [1, 2, 3, 0], "east"))
    frame = send(cam, photo(), headers=ENGLISH).get_json()
    assert frame["status"] == "confirm"
    assert frame["proposal"]["seats"] == [1, 2, 3, 0]
    assert frame["proposal"]["events"] == [play(1, "6-3", "east")]
    assert frame["say"] == "Who played 6-3? Ben (their turn), Cruz, Dee or Ana?"
    assert frame["message"].startswith("the camera thinks: seat 1 playing 6-3 on the east? (who played 6-3: ")
    spanish = cam.get(f"/frames/{frame['id']}", headers={**cam.auth, **SPANISH}).get_json()
    assert spanish["say"] == "¿Quién jugó la 6-3? ¿Ben (le toca), Cruz, Dee o Ana?"
    # Cruz laid it: Ben passed, which no photo shows
    accepted = cam.post(f"/frames/{frame['id']}/accept", {"event": play(2, "6-3", "east")}, headers=ENGLISH)
    assert accepted.status_code == 200, accepted.get_json()
    assert accepted.get_json()["say"] == "Recorded: Cruz played 6-3 on the east"
    assert cam.record()["hands"][0]["events"] == [play(0, "6-6"), play(2, "6-3", "east")]
    board = cam.get("/board", headers=cam.auth).get_json()
    assert board["current"]["turn"] == 3


# -- on the page -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_camera_box_asks_who_played_and_one_tap_on_a_seat_records_it(scripted, asks, open_page, tmp_path):
    page, game = photo_of_6_3_after_6_6(scripted, asks, open_page, tmp_path, who_played("6-3", [1, 2, 3, 0], "east"))
    page.wait_for_selector("#cam-seats:not([hidden]) button")

    assert page.inner_text("#cam-say") == "Who played 6-3? Ben (their turn), Cruz, Dee or Ana?"
    buttons = page.locator("#cam-seats button")
    assert buttons.all_inner_texts() == ["Ben (their turn)", "Cruz", "Dee", "Ana"]
    assert "likely" in (buttons.nth(0).get_attribute("class") or "")
    assert page.locator("#cam-seats .likely").count() == 1
    sizes = buttons.evaluate_all("bs => bs.map(b => [b.offsetWidth, b.offsetHeight])")
    assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
    assert page.locator("#cam-accept").is_hidden()  # no second tap: the seat is the answer
    assert page.locator("#cam-reject").is_visible()
    assert axe_findings(page) == []

    before = version(page)
    page.click('#cam-seats button[data-seat="2"]')  # Cruz laid it: Ben passed unseen
    wait_version(page, before + 1)
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('Recorded')")
    assert page.inner_text("#cam-say") == "Recorded: Cruz played 6-3 on the east"
    assert page.locator("#cam-seats").is_hidden()
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6"), play(2, "6-3", "east")]
    # the pad follows the turn past the pass: Dee's, and her pass is one tap
    page.wait_for_function("document.querySelector('#pad .seat.on').textContent === 'Dee'")
    tap_and_wait(page, "#pass")
    assert record_of(page, game)["hands"][0]["events"][-1] == pass_(3)


def asked_who_laid_6_3(scripted, asks, open_page, tmp_path):  # type: ignore[no-untyped-def]
    """A phone's page: Ana leads 6-6 on the pad, then a photo shows 6-3 that seat 1 or 2 laid, and
    the camera box asks who. The page and the match's id."""
    page, game = photo_of_6_3_after_6_6(scripted, asks, open_page, tmp_path, who_played("6-3", [1, 2], "east"))
    page.wait_for_selector("#cam-seats:not([hidden]) button")
    return page, game


def photo_of_6_3_after_6_6(scripted, asks, open_page, tmp_path, question, before_photo=None):  # type: ignore[no-untyped-def]
    """A phone's page: Ana leads 6-6 on the pad (Ben's turn next), then a photo showing 6-3 is
    sent, the follower asking `question` about it (`before_photo(page)` runs just before it is
    sent). The page and the match's id."""
    page = open_page(PHONE)
    game = start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')  # Ana leads
    tap_and_wait(page, '[data-tile="6-6"]')
    page.wait_for_function("document.querySelector('#pad .seat.on').textContent === 'Ben'")
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    scripted.script.readings.append(seen("6-6", "6-3"))
    asks.outcomes.append(question)
    if before_photo is not None:
        before_photo(page)
    page.set_input_files("#photo-input", str(shot))
    return page, game


@pytest.mark.slow
def test_no_turns_the_who_played_question_down(scripted, asks, open_page, tmp_path):
    page, game = asked_who_laid_6_3(scripted, asks, open_page, tmp_path)
    page.click("#cam-reject")
    page.wait_for_function("document.getElementById('cam-seats').hidden")
    assert page.inner_text("#cam-say") == "Turned down: score this play on the pad."
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6")]


@pytest.mark.slow
def test_one_tap_on_pass_records_a_pass_for_the_seat_whose_turn_it_is(live_server, open_page):
    page = open_page(PHONE)
    game = start_match(page, live_server.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')  # Ana leads
    tap_and_wait(page, '[data-tile="6-6"]')
    page.wait_for_function("document.querySelector('#pad .seat.on').textContent === 'Ben'")
    box = page.locator("#pass").bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44
    meant_taps(page)  # Ben's pass, then Cruz's: both meant, however soon
    tap_and_wait(page, "#pass")  # no seat tapped first: the pad follows the turn
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6"), pass_(1)]
    page.wait_for_function("document.querySelector('#pad .seat.on').textContent === 'Cruz'")
    tap_and_wait(page, "#pass")
    assert record_of(page, game)["hands"][0]["events"][-1] == pass_(2)


@pytest.mark.slow
def test_a_question_whose_play_is_scored_on_the_pad_stops_asking_on_the_page(scripted, asks, open_page, tmp_path):
    page, game = asked_who_laid_6_3(scripted, asks, open_page, tmp_path)
    # scored on the pad instead (here through the API, as the pad sends it)
    assert api(page, "POST", "/events", play(2, "6-3", "east"))["status"] == 201
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('Already recorded')")
    assert page.inner_text("#cam-say") == "Already recorded: Cruz played 6-3 on the east"
    assert page.locator("#cam-seats").is_hidden()
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6"), play(2, "6-3", "east")]


# -- a question about the tile, its seat open (issue 34) -------------------------------------------


def tile_question(seats: tuple[int, ...], tiles: tuple[str, str] = ("1-5", "2-5")):
    """The follower's "cannot tell 1-5 from 2-5 on the east" after a pass was possible: with the seat
    its evidence gives (`seats` one seat) or none (`seats` the seats that may have laid it)."""
    from scorer.moves import Move
    from scorer.tiles import Tile
    from vision.follow.follower import Candidate, Outcome

    open_ = len(seats) > 1
    options = []
    for tile, share in zip(tiles, (0.6, 0.4), strict=True):
        event = play(seats[0], tile, "east")
        move = Move(seats[0], Tile.parse(tile), "east")
        options.append([Candidate(move, event, 0, 0.9, 1.0, share, seats=seats if open_ else ())])
    said = [{**o[0].event, "seat": None} if open_ else o[0].event for o in options]
    params = {"event": said[0], "other": said[1]} | (
        {"open_tile": tiles[0], "open_seats": list(seats)} if open_ else {}
    )
    return Outcome("ask", "the photo cannot tell", candidates=options, code="cannot_tell", params=params)


def test_a_question_about_the_tile_proposes_the_seat_its_evidence_gives():
    from webapp.frames import proposal_of

    proposal = proposal_of(tile_question((2,)), live=False)
    assert proposal["events"] == [play(2, "1-5", "east")] and "seats" not in proposal
    assert (
        in_language("en", lambda: say_of(proposal))
        == "Was it Cruz, 1-5 on the east? (it could also be Cruz, 2-5 on the east)"
    )


def test_a_question_about_the_tile_whose_seat_is_open_proposes_no_seat_and_asks_who():
    from webapp.frames import proposal_of

    proposal = proposal_of(tile_question((1, 2, 3, 0)), live=False)
    # never the turn seat's play as if known: no seat, and a tap on a seat records the play
    assert proposal["events"] == [{**play(1, "1-5", "east"), "seat": None}]
    assert proposal["seats"] == [1, 2, 3, 0]
    assert proposal["candidates"][0][0]["seats"] == [1, 2, 3, 0]
    assert (
        in_language("en", lambda: say_of(proposal))
        == "Who played 1-5? Ben, Cruz, Dee or Ana? (it could also be 2-5 on the east)"
    )
    assert (
        in_language("es", lambda: say_of(proposal))
        == "¿Quién jugó la 1-5? ¿Ben, Cruz, Dee o Ana? (también podría ser la 2-5 por el este)"
    )


@pytest.mark.slow
def test_the_camera_box_asks_who_laid_a_tile_it_cannot_tell_and_records_the_seat_tapped(
    scripted, asks, open_page, tmp_path
):
    page = open_page(PHONE)
    game = start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')  # Ana leads
    tap_and_wait(page, '[data-tile="6-6"]')
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    scripted.script.readings.append(seen("6-6", "1-6"))
    question = tile_question((1, 2, 3, 0), ("1-6", "2-6"))
    # the candidates as the follower lists them: another seat's candidate of another tile first
    # must not be what a tap on that seat records
    question.candidates.insert(1, [replace(question.candidates[1][0], seats=(), event=play(2, "2-6", "east"))])
    asks.outcomes.append(question)
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#cam-seats:not([hidden]) button")
    assert page.inner_text("#cam-say") == "Who played 1-6? Ben, Cruz, Dee or Ana? (it could also be 2-6 on the east)"
    assert page.locator("#cam-seats button").all_inner_texts() == ["Ben (their turn)", "Cruz", "Dee", "Ana"]
    assert page.locator("#cam-accept").is_hidden()  # no "Yes" that would take a seat as known
    before = version(page)
    page.click('#cam-seats button[data-seat="2"]')  # Cruz laid it: Ben passed unseen
    wait_version(page, before + 1)
    events = record_of(page, game)["hands"][0]["events"]
    assert events == [play(0, "6-6"), play(2, "1-6", "east")]


def test_yes_to_a_play_that_names_no_seat_asks_who_played_never_the_pads_seat(scripted, asks, open_page, tmp_path):
    # the server names no seat and lists none (no proposal of today's follower does: a page may
    # meet an older or a newer server); "Yes" once took the seat the pad had selected, a guess
    question = who_played("6-3", [1], "east")
    question.code, question.params = "unsure", {}
    page, game = photo_of_6_3_after_6_6(scripted, asks, open_page, tmp_path, question, without_seats)
    page.wait_for_selector("#cam-accept:not([hidden])")
    before = version(page)
    page.click("#cam-accept")
    page.wait_for_selector("#cam-seats:not([hidden]) button")
    assert page.locator("#cam-seats button").all_inner_texts() == ["Ana", "Ben", "Cruz", "Dee"]
    assert page.locator("#cam-seats .likely").count() == 0  # no seat is likelier: none is marked
    assert page.locator("#cam-accept").is_hidden()
    assert version(page) == before  # nothing recorded for the pad's seat (Ben's)
    page.click('#cam-seats button[data-seat="2"]')  # Cruz laid it
    wait_version(page, before + 1)
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6"), play(2, "6-3", "east")]


def without_seats(page) -> None:  # type: ignore[no-untyped-def]
    """The page's own fetch answers with the server's proposal, its first play's seat and its
    seats taken out."""
    page.evaluate(
        """() => {
          const fetched = window.fetch;
          const seatless = (body) => {
            if (body && typeof body === "object") {
              if (Array.isArray(body.events) && body.events.length) { body.events[0].seat = null; delete body.seats; }
              Object.values(body).forEach(seatless);
            }
            return body;
          };
          window.fetch = async (...args) => {
            const response = await fetched(...args);
            if (!String(args[0]).includes("/frames")) return response;
            const body = seatless(await response.json());
            return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
          };
        }"""
    )
