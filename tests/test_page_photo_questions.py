"""The camera's questions about photos, from a newcomer's phone (the phone probe's findings 2, 5
and 6): a question is always better than a guess, and never invites the player to confirm a guess
the photo does not back.

- Several new tiles that the rules allow in more than one order: no order is proposed as if known;
  the plays that may have come first are the choices, and once one is answered the rest of the
  same photo is taken up (finding 2).
- The camera's words are true: the same photo sent twice is no second change of the table, and a
  question nobody answered is not said to have been turned down (finding 5).
- A lead nobody said who laid is answered with a tap on a player, in the question itself
  (finding 6).

Everything is real from the upload to the record but the reader (`tests.support.camera`).
"""

from __future__ import annotations

import pytest

from tests.support.camera import photo, seen, send
from tests.support.records import play

ENGLISH = {"Accept-Language": "en"}
SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}


@pytest.fixture
def cam(cam, script):
    cam.script = script
    return cam


def events_of(cam) -> list[dict]:
    return cam.record()["hands"][0]["events"]


# -- finding 2: several new tiles, more than one order ----------------------------------------------


def two_orders(cam) -> dict:
    """Ana leads 6-6 on the pad; one photo then shows 3-6 on the west and 4-6 on the east: Ben may
    have laid either, and Cruz the other."""
    assert cam.event(play(0, "6-6")).status_code == 201
    cam.script.readings.append(seen("3-6", "6-6", "6-4"))
    return send(cam, photo(), headers=ENGLISH).get_json()


def test_several_new_tiles_in_two_orders_propose_no_play_but_offer_the_first_ones(cam):
    frame = two_orders(cam)
    proposal = frame["proposal"]
    assert frame["status"] == "confirm" and proposal["code"] == "order_unknown"
    # nothing proposed as if known: "Yes" has nothing to record
    assert proposal["events"] == []
    firsts = proposal["plays"]
    # (the lead's sides are named by the first play laid against it: either tile's is the west);
    # no photo shows whether Ben passed: who laid the first play is asked with it, Ben first
    assert sorted((e["seat"], e["tile"], e["end"]) for e in firsts) == [(None, "3-6", "west"), (None, "4-6", "west")]
    assert proposal["params"]["plays"] == firsts
    assert proposal["seats"][0] == 1 and sorted(proposal["seats"]) == [0, 1, 2, 3]
    words = " or ".join(f"{e['tile']} on the {e['end']}" for e in firsts)
    assert frame["say"] == f"2 new tiles at once: which was played first? {words}?"
    spanish = cam.get(f"/frames/{frame['id']}", headers={**cam.auth, **SPANISH}).get_json()
    assert spanish["say"].startswith("2 fichas nuevas a la vez: ¿cuál se jugó primero? ¿la ")
    # "Yes" alone records nothing: the player says which
    bare = cam.post(f"/frames/{frame['id']}/accept", {}, headers=ENGLISH)
    assert bare.status_code == 400 and events_of(cam) == [play(0, "6-6")]


def test_once_the_first_play_is_answered_the_rest_of_the_photo_is_taken_up(cam):
    frame = two_orders(cam)
    # the player taps 4-6, then Ben (who laid it)
    ben = {**next(e for e in frame["proposal"]["plays"] if e["tile"] == "4-6"), "seat": 1}
    answered = cam.post(f"/frames/{frame['id']}/accept", {"event": ben}, headers=ENGLISH)
    assert answered.status_code == 200, answered.get_json()
    taken = answered.get_json()
    assert events_of(cam) == [play(0, "6-6"), play(1, "4-6", "west")]
    # the same photo's other tile, Cruz's 3-6 on the east: no photo shows whether Cruz passed, so
    # it is followed and kept to confirm, as for a photo of its own
    assert taken["status"] == "kept" and taken["proposal"]["kept"] == [play(2, "3-6", "east")]
    assert taken["say"] == (
        "Recorded: Ben played 4-6 on the west. Kept to confirm: Cruz, 3-6 on the east. "
        "No photo shows a pass: did anyone pass from 3-6 on?"
    )
    # no one passed: recorded, and the photos are one play behind no more
    done = cam.post(f"/frames/{frame['id']}/accept", {}, headers=ENGLISH)
    assert done.status_code == 200, done.get_json()
    assert events_of(cam) == [play(0, "6-6"), play(1, "4-6", "west"), play(2, "3-6", "east")]
    cam.script.readings.append(seen("1-3", "3-6", "6-6", "6-4"))
    nxt = send(cam, photo(), headers=ENGLISH).get_json()
    assert nxt["status"] == "kept" and nxt["proposal"]["kept"] == [play(3, "1-3", "east")]


def test_three_new_tiles_are_asked_about_play_by_play(cam):
    # 3-6 then 2-3 on the west, 4-6 on the east: Ben laid 3-6 or 4-6
    assert cam.event(play(0, "6-6")).status_code == 201
    cam.script.readings.append(seen("2-3", "3-6", "6-6", "6-4"))
    frame = send(cam, photo(), headers=ENGLISH).get_json()
    assert frame["status"] == "confirm" and frame["proposal"]["events"] == []
    assert sorted(e["tile"] for e in frame["proposal"]["plays"]) == ["3-6", "4-6"]  # 2-3 lies on 3-6: never first
    assert frame["say"].startswith("3 new tiles at once: which was played first?")
    second = cam.post(f"/frames/{frame['id']}/accept", {"event": play(1, "3-6", "west")}, headers=ENGLISH).get_json()
    # the rest of the photo: Cruz laid 2-3 or 4-6, either order the rules allow
    assert second["status"] == "confirm" and second["proposal"]["events"] == []
    assert sorted(e["tile"] for e in second["proposal"]["plays"]) == ["2-3", "4-6"]
    assert second["say"].startswith(
        "Recorded: Ben played 3-6 on the west. 2 new tiles at once: which was played first?"
    )
    assert second["proposal"]["seats"][0] == 2  # Cruz's turn, but Cruz may have passed: asked with the play
    third = cam.post(f"/frames/{frame['id']}/accept", {"event": play(2, "4-6", "east")}, headers=ENGLISH).get_json()
    assert third["say"].startswith("Recorded: Cruz played 4-6 on the east. ")
    assert events_of(cam) == [play(0, "6-6"), play(1, "3-6", "west"), play(2, "4-6", "east")]
    # the last tile of the photo, Dee's 2-3, is not left behind
    assert third["status"] == "kept" and third["proposal"]["kept"] == [play(3, "2-3", "west")]


# -- finding 5: true words ----------------------------------------------------------------------------


def test_the_same_photo_sent_twice_is_not_a_second_change_of_the_table(cam):
    cam.script.readings += [seen("6-6"), seen("6-6")]
    first = send(cam, photo(), headers=ENGLISH).get_json()
    again = send(cam, photo(), headers=ENGLISH).get_json()
    assert first["proposal"]["code"] == again["proposal"]["code"] == "leader_unknown"
    assert "missed" not in again["message"] and again["say"] == first["say"]
    accepted = cam.post(f"/frames/{again['id']}/accept", {"event": play(0, "6-6")}, headers=ENGLISH)
    assert accepted.status_code == 200, accepted.get_json()
    # the next photo shows one new tile, as the table changed once: no "a play may have been missed"
    cam.script.readings.append(seen("6-6", "6-4"))
    nxt = send(cam, photo(), headers=ENGLISH).get_json()
    assert nxt["proposal"]["code"] != "missed" and "changed 2 times" not in nxt["say"]
    assert nxt["status"] == "kept" and nxt["proposal"]["kept"] == [play(1, "4-6", "west")]


def left_open_then_scored(cam, turn_down: bool) -> dict:
    """A faint 6-4 asked about; the question turned down (or left open), the real play (a 6-3) scored
    on the pad; the 6-4 seen again."""
    assert cam.event(play(0, "6-6")).status_code == 201
    cam.script.readings.append(seen("6-6", ("6-4", 0.5)))
    frame = send(cam, photo(), headers=ENGLISH).get_json()
    assert frame["status"] == "confirm"
    if turn_down:
        assert cam.post(f"/frames/{frame['id']}/reject", {}).status_code == 200
    event = frame["proposal"]["events"][0]
    assert cam.event({**event, "seat": 1, "tile": "6-3"}).status_code == 201
    cam.script.readings.append(seen("6-6", "6-4"))
    return send(cam, photo(), headers=ENGLISH).get_json()


def test_a_question_nobody_answered_is_not_said_to_have_been_turned_down(cam):
    again = left_open_then_scored(cam, turn_down=False)
    assert again["status"] == "confirm" and again["proposal"]["code"] == "unanswered"
    assert "turned down" not in again["say"] and " No " not in again["say"]
    assert "4-6 was asked about before, and the record went on without an answer" in again["say"]
    spanish = cam.get(f"/frames/{again['id']}", headers={**cam.auth, **SPANISH}).get_json()
    assert "ya se preguntó por la 4-6 y la partida siguió sin respuesta" in spanish["say"]


def test_a_question_answered_no_says_so(cam):
    again = left_open_then_scored(cam, turn_down=True)
    assert again["status"] == "confirm" and again["proposal"]["code"] == "turned_down"
    assert "a question about 4-6 was answered No before" in again["say"]


# -- finding 6: who led, in the question itself --------------------------------------------------------


def test_a_lead_nobody_said_who_laid_lists_every_player_to_tap(cam):
    cam.script.readings.append(seen("6-6"))
    frame = send(cam, photo(), headers=ENGLISH).get_json()
    proposal = frame["proposal"]
    assert frame["status"] == "confirm" and proposal["code"] == "leader_unknown"
    assert proposal["events"] == [{"type": "play", "seat": None, "tile": "6-6"}]
    assert proposal["seats"] == [0, 1, 2, 3]
    assert frame["say"] == "Who played 6-6? Ana, Ben, Cruz or Dee?"
    # one tap on a player records it for that player
    done = cam.post(f"/frames/{frame['id']}/accept", {"event": play(3, "6-6")}, headers=ENGLISH)
    assert done.status_code == 200 and done.get_json()["say"] == "Recorded: Dee played 6-6"
    assert events_of(cam) == [play(3, "6-6")]


def test_leads_by_a_player_nobody_named_are_not_offered_with_a_seat():
    """Two new tiles, either of which may have led, and nobody said who leads: the seat of each
    would be a guess, so nothing is offered to tap (the pad says who led)."""
    from scorer.moves import Move
    from scorer.tiles import Tile
    from vision.follow.follower import Candidate, Outcome, Reason
    from webapp.frames import proposal_of

    def lead(tile: str) -> Candidate:
        return Candidate(Move(0, Tile.parse(tile), None, ()), {"type": "play", "seat": 0, "tile": tile}, 0, 0.9, 1.0)

    firsts = [{"type": "play", "seat": 0, "tile": "3-5"}, {"type": "play", "seat": 0, "tile": "1-5"}]
    why = Reason("2 new tiles at once, and the order cannot be told", code="order_unknown", count=2, plays=firsts)
    outcome = Outcome("ask", why, candidates=[[lead("3-5")], [lead("1-5")]])
    named = proposal_of(outcome, live=False, leader_known=True)
    assert named["plays"] == firsts and named["events"] == []
    unnamed = proposal_of(outcome, live=False, leader_known=False)
    assert "plays" not in unnamed and unnamed["events"] == [] and "seats" not in unnamed


# -- on the page: which came first, then who laid it ------------------------------------------------

WHICH_FIRST = {
    "en": {
        "plays": ["3-6 on the west", "4-6 on the west"],
        "who": "Who laid 4-6?",
        "seats": ["Ben (their turn)", "Cruz", "Dee", "Ana"],
        "yes": "Yes",
        "recorded": "Recorded: Ben played 4-6 on the west. Kept to confirm: Cruz, 3-6 on the east.",
        "no_one": "No one passed",
    },
    "es": {
        "plays": ["la 3-6 por el oeste", "la 4-6 por el oeste"],
        "who": "¿Quién puso la 4-6?",
        "seats": ["Ben (le toca)", "Cruz", "Dee", "Ana"],
        "yes": "Sí",
        "recorded": "Anotado: Ben jugó la 4-6 por el oeste. Pendiente de confirmar: Cruz, la 3-6 por el este.",
        "no_one": "Nadie pasó",
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_asks_which_play_came_first_then_who_laid_it(scripted, open_page, tmp_path, lang):
    """`two_orders` on a phone's page, nobody's seat settled by an arm: a button a play that may
    have come first; a tap on one asks who laid it, a button a seat; a tap on a seat records it and
    the rest of the photo is asked about (Cruz's 3-6, kept: did anyone pass?)."""
    from tests.support.page import PHONE, record_of, start_match, version, wait_version

    words = WHICH_FIRST[lang]
    page = open_page(PHONE, locale="es-ES" if lang == "es" else "en-GB")
    game = start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')  # Ana leads on the pad
    page.click('[data-tile="6-6"]')
    wait_version(page, 1)
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    scripted.script.readings.append(seen("3-6", "6-6", "6-4"))  # Ben laid 3-6 or 4-6 (or passed)
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#cam-seats:not([hidden]) button.cam-first")

    firsts = page.locator("#cam-seats button.cam-first")
    assert sorted(firsts.all_inner_texts()) == words["plays"]
    assert page.locator("#cam-accept").is_hidden()  # nothing proposed as if known: no "Yes"
    assert words["yes"] not in page.inner_text("#camera")
    assert page.locator("#cam-seats button[data-seat]").count() == 0  # who laid it: asked after

    page.click('#cam-seats button.cam-first[data-tile="4-6"]')
    page.wait_for_selector("#cam-seats button[data-seat]")
    assert page.inner_text("#cam-say") == words["who"]
    seats = page.locator("#cam-seats button")
    assert seats.all_inner_texts() == words["seats"]
    assert [seats.nth(i).get_attribute("data-seat") for i in range(4)] == ["1", "2", "3", "0"]
    assert page.locator("#cam-accept").is_hidden()
    assert words["yes"] not in page.inner_text("#camera")

    before = version(page)
    page.click('#cam-seats button[data-seat="1"]')  # Ben laid 4-6
    wait_version(page, before + 1)
    page.wait_for_function("(t) => document.getElementById('cam-say').textContent.startsWith(t)", arg=words["recorded"])
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6"), play(1, "4-6", "west")]
    # the rest of the photo: Cruz's 3-6 is kept, and one tap says no one passed
    page.click(f'#cam-seats button:text-is("{words["no_one"]}")')
    wait_version(page, before + 2)
    assert record_of(page, game)["hands"][0]["events"] == [
        play(0, "6-6"),
        play(1, "4-6", "west"),
        play(2, "3-6", "east"),
    ]


@pytest.mark.slow
def test_a_first_play_whose_seat_is_named_is_one_tap_and_one_open_is_asked(scripted, open_page, tmp_path):
    """`two_orders` as the page gets it where an arm named who laid 4-6 (Ben) and nobody's seat is
    settled for 3-6: the 4-6 button names Ben and one tap records it; the 3-6 one names nobody.
    (The server's answer is given that seat in the page's own fetch: photos show no arm.)"""
    from tests.support.page import PHONE, record_of, start_match, version, wait_version

    page = open_page(PHONE, locale="en-GB")
    game = start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')  # Ana leads on the pad
    page.click('[data-tile="6-6"]')
    wait_version(page, 1)
    page.evaluate(
        """() => {
          const fetched = window.fetch;
          window.fetch = async (...args) => {
            const response = await fetched(...args);
            if (!String(args[0]).includes("/frames")) return response;
            const body = await response.json();
            const plays = (body.proposal || {}).plays || [];
            plays.forEach((p) => { if (p.tile === "4-6") p.seat = 1; });
            return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
          };
        }"""
    )
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    scripted.script.readings.append(seen("3-6", "6-6", "6-4"))
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#cam-seats:not([hidden]) button.cam-first")
    firsts = page.locator("#cam-seats button.cam-first")
    assert sorted(firsts.all_inner_texts()) == ["3-6 on the west", "Ben, 4-6 on the west"]
    before = version(page)
    page.click('#cam-seats button.cam-first[data-tile="4-6"]')  # one tap: no seat asked
    wait_version(page, before + 1)
    assert record_of(page, game)["hands"][0]["events"] == [play(0, "6-6"), play(1, "4-6", "west")]
