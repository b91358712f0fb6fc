"""Issue 34: where each player sits, said once at the start. The record's `"seating"` (each seat's
side of the camera's picture, in seat order) is set on the page or through `PUT .../seating`, kept
as a change of its own (its version, a line in the history), exported with the record, and given
to the camera's follower, which then names the player of a tile by the side its arm came from,
from the first play. A bad seating is refused naming what is wrong, and changes nothing."""

from __future__ import annotations

import pytest

from scorer.match import Match
from tests.support.records import play
from vision.follow.follower import Follower, seating_of
from vision.follow.table import Table

SEATED = ["bottom", "right", "top", "left"]


def test_a_seating_is_kept_in_the_record_and_can_be_taken_back(cam):
    before = cam.version()
    said = cam.client.put(f"/api/games/{cam.id}/seating", json={"seating": SEATED}, headers=cam.auth)
    assert said.status_code == 200, said.get_json()
    assert said.get_json()["version"] == before + 1
    assert cam.record()["seating"] == SEATED
    history = cam.get("/history", headers={**cam.auth, "Accept-Language": "en"}).get_json()
    assert any(c["action"] == "seating" for c in history["changes"])
    taken = cam.client.put(f"/api/games/{cam.id}/seating", json={"seating": None}, headers=cam.auth)
    assert taken.status_code == 200 and "seating" not in cam.record()


@pytest.mark.parametrize(
    "seating, says",
    [
        (["bottom", "right", "top"], "give each of the 4 players their own side"),
        (["bottom", "bottom", "top", "left"], "give each of the 4 players their own side"),
        (["bottom", "right", "up", "left"], "seating"),
        ("bottom,right,top,left", "seating"),
    ],
)
def test_a_bad_seating_is_refused_and_changes_nothing(cam, seating, says):
    before = cam.version()
    said = cam.client.put(f"/api/games/{cam.id}/seating", json={"seating": seating}, headers=cam.auth)
    assert said.status_code == 400 and says in said.get_json()["error"]
    assert cam.version() == before and "seating" not in cam.record()
    missing = cam.client.put(f"/api/games/{cam.id}/seating", json={}, headers=cam.auth)
    assert missing.status_code == 400 and "seating" in missing.get_json()["error"]


def test_a_viewer_cannot_seat_the_players(cam):
    said = cam.client.put(f"/api/games/{cam.id}/seating", json={"seating": SEATED})
    assert said.status_code in (401, 403)


def test_the_camera_takes_the_seating_from_the_record_and_from_a_change_of_it():
    record = {"variant": "partners", "players": ["Ana", "Ben", "Cruz", "Dee"], "hands": [{"leader": 0, "events": []}]}
    assert seating_of({**record, "seating": SEATED}) == [2, 1, 0, 3]
    assert seating_of({**record, "seating": SEATED[:3]}) is None  # not one a seat: ignored, as a reader does
    follower = Follower.from_record({**record, "seating": SEATED})
    assert follower.seats.given and follower.seats.seating.sides == (2, 1, 0, 3)
    assert follower.record()["seating"] == SEATED  # and writes it back
    table = Table(record)
    assert table.follower.seats.seating is None  # learnt from the plays
    table.sync({**record, "seating": SEATED})
    assert table.follower.seats.given and table.follower.seats.seating.sides == (2, 1, 0, 3)
    table.sync(record)  # taken back: learnt again
    assert table.follower.seats.seating is None and not table.follower.seats.given


def test_spinner_watch_writes_the_seating_it_was_given():
    match = Match.new("partners", ["Ana", "Ben", "Cruz", "Dee"])
    follower = Follower(match, leader=0, seating=[2, 1, 0, 3])
    assert follower.record()["seating"] == SEATED
    assert Match.from_record({**follower.record(), "hands": [{"leader": 0, "events": [play(0, "6-6")]}]})


@pytest.mark.slow
def test_the_page_says_where_each_player_sits(scripted, open_page):
    from tests.support.page import PHONE, axe_findings, record_of, start_match

    page = open_page(PHONE)
    game = start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click("#cam-seating summary")
    # the camera's picture with a select at each side: who sits there
    assert page.locator("#cam-seating select").count() == 4
    side = lambda name: page.locator(f'#cam-seating select[data-side="{name}"]')  # noqa: E731
    side("bottom").select_option(label="Ana")
    side("right").select_option(label="Ben")
    side("top").select_option(label="Ben")  # Ben twice, Cruz and Dee nowhere
    page.click("#cam-seating-save")
    assert page.inner_text("#cam-seating-said") == "Put each player at one side of the picture, or nobody anywhere."
    side("top").select_option(label="Cruz")
    side("left").select_option(label="Dee")
    page.click("#cam-seating-save")
    page.wait_for_function("document.getElementById('cam-seating-said').textContent.startsWith('Saved')")
    assert record_of(page, game)["seating"] == SEATED
    assert axe_findings(page) == []
    page.reload()
    page.click("#cam-seating summary")
    chosen = page.locator("#cam-seating select").evaluate_all("ss => ss.map(s => [s.dataset.side, s.value])")
    assert sorted(chosen) == [["bottom", "0"], ["left", "3"], ["right", "1"], ["top", "2"]]


def test_the_seating_learnt_from_the_plays_is_offered_to_be_confirmed(cam, script):
    from tests.support.camera import photo, seen, send
    from vision.follow.seats import Seating
    from webapp import frames

    assert cam.event(play(0, "6-6")).status_code == 201
    script.readings.append(seen("6-6"))
    assert send(cam, photo()).get_json()["seating_learnt"] is None  # nothing learnt yet
    with cam.app.app_context():
        frames.tables(cam.app).find(cam.id).follower.seats.seating = Seating((2, 1, 0, 3))  # as the arms taught it
    script.readings.append(seen("6-6"))
    assert send(cam, photo()).get_json()["seating_learnt"] == SEATED
    cam.client.put(f"/api/games/{cam.id}/seating", json={"seating": SEATED}, headers=cam.auth)
    script.readings.append(seen("6-6"))
    assert send(cam, photo()).get_json()["seating_learnt"] is None  # said: nothing to confirm
