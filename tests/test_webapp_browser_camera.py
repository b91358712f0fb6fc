"""The camera in real headless Chromium: "Take photo" on plain HTTP, the answer shown at once, one
tap to confirm; the live camera (Chromium's fake device) sending frames whose plays reach the board;
and a server without a reader, where the photo gets a plain answer and the pad still scores.

The reader is the scripted stand-in (tests/support/camera.py): these tests are about the page, the
upload and the answer, not about reading pips.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import PHONE as PHONE_SCREEN
from tests.support.browser import expect, new_page, score_of, start_match, totals, wait_version
from tests.support.camera import photo, seen

# The readings show no arm: each play is the turn seat's (who laid a tile: tests/test_follow_seats.py).
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("seats_in_turn_order")]


def test_take_photo_shows_the_proposal_and_one_tap_records_it(scripted, camera_browser, tmp_path):
    page = new_page(camera_browser)
    start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    version = page.evaluate("window.spinnerBoard.version")
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())

    scripted.script.readings.append(seen("6-6"))  # who led is not known: the camera asks
    page.set_input_files("#photo-input", str(shot))
    # the players are the answers, in the question itself: no "Yes" that needs a seat chosen below
    page.wait_for_selector("#cam-seats:not([hidden])")
    assert page.inner_text("#cam-say") == "Who played 6-6? Ana, Ben, Cruz or Dee?"
    assert page.locator("#cam-seats button").all_inner_texts() == ["Ana", "Ben", "Cruz", "Dee"]
    expect(page.locator("#cam-accept")).to_be_hidden()
    page.click('#cam-seats button[data-seat="2"]')  # Cruz led
    wait_version(page, version + 1)
    expect(page.locator("#cam-say")).to_have_text("Recorded: Cruz played 6-6")
    expect(page.locator(".plays li")).to_contain_text("Cruz")

    scripted.script.readings.append(seen("6-6", "6-1", centre="6-6", arms={"west": ["6-1"]}))  # sure: recorded at once
    page.set_input_files("#photo-input", str(shot))
    wait_version(page, version + 2)
    expect(page.locator("#cam-say")).to_have_text("Recorded from the camera: Dee played 1-6 on the west")
    expect(page.locator("#cam-accept")).to_be_hidden()

    scripted.script.readings.append(
        seen("6-6", "6-1", ("6-4", 0.4), centre="6-6", arms={"west": ["6-1"], "east": ["6-4"]})
    )
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#cam-reject:not([hidden])")
    page.click("#cam-reject")
    expect(page.locator("#cam-say")).to_have_text("Turned down: score this play on the pad.")
    assert page.evaluate("window.spinnerBoard.version") == version + 2

    # the pad goes on: what the box said of the last photo is old news, and it is cleared
    page.click('[data-tile="1-1"]')
    wait_version(page, version + 3)
    expect(page.locator("#cam-result")).to_be_hidden()

    text = tmp_path / "notes.txt"
    text.write_text("not a photo")
    page.set_input_files("#photo-input", str(text))
    expect(page.locator("#cam-result")).to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#cam-say")).to_contain_text("not a photo this server can decode")


def test_a_photo_of_several_tiles_in_two_orders_asks_which_came_first(scripted, camera_browser, tmp_path):
    page = new_page(camera_browser)
    start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    version = page.evaluate("window.spinnerBoard.version")
    page.click('.seat[data-seat="0"]')
    page.click('[data-tile="6-6"]')  # Ana leads on the pad
    wait_version(page, version + 1)
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    scripted.script.readings.append(seen("3-6", "6-6", "6-4"))  # Ben laid 3-6 or 4-6, Cruz the other
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#cam-seats:not([hidden])")
    assert page.inner_text("#cam-say").startswith("2 new tiles at once: which did Ben play first?")
    expect(page.locator("#cam-accept")).to_be_hidden()  # no order proposed as if known
    buttons = page.locator("#cam-seats button.cam-first")
    assert sorted(buttons.all_inner_texts()) == ["3-6 on the west", "4-6 on the west"]
    page.click('#cam-seats button.cam-first[data-tile="4-6"]')
    # the rest of the same photo is taken up at once: Cruz's 3-6
    wait_version(page, version + 3)
    expect(page.locator("#cam-say")).to_have_text(
        "Recorded: Ben played 4-6 on the west. Recorded from the camera: Cruz played 3-6 on the east"
    )
    plays = score_of(page)["hands"][0]["plays"]
    assert [(p["seat"], p["tile"]) for p in plays] == [(0, "6-6"), (1, "4-6"), (2, "3-6")]


def test_the_live_camera_sends_frames_and_their_plays_reach_the_board(scripted, changing_table_browser):
    page = new_page(changing_table_browser)
    start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    version = page.evaluate("window.spinnerBoard.version")
    # the bare table, then each still table that differs from the last one read, read once
    scripted.script.readings += [seen(), seen("6-6"), seen("6-6", "6-1", centre="6-6", arms={"west": ["6-1"]})]
    page.click('.seat[data-seat="0"]')  # who leads, for the camera
    page.click("#cam-live")  # 127.0.0.1 is a secure context: the live camera is offered
    wait_version(page, version + 2)
    page.click("#cam-live")  # stop it
    plays = score_of(page)["hands"][0]["plays"]
    assert [(p["seat"], p["tile"], p["count"]) for p in plays] == [(0, "6-6", 12), (1, "1-6", 13)]
    assert totals(page) == ["0", "0"]


def test_without_a_reader_the_photo_gets_a_plain_answer_and_the_pad_still_scores(readerless, camera_browser, tmp_path):
    page = new_page(camera_browser)
    start_match(page, readerless.url, ["Ana", "Ben", "Cruz", "Dee"])
    version = page.evaluate("window.spinnerBoard.version")
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    page.set_input_files("#photo-input", str(shot))
    expect(page.locator("#cam-result")).to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#cam-say")).to_contain_text("cannot read photos yet")
    expect(page.locator("#cam-say")).to_contain_text("score this play on the pad")
    page.click('.seat[data-seat="0"]')  # who leads: the pad asks before the first tile
    page.click('[data-tile="6-6"]')
    wait_version(page, version + 1)
    assert page.inner_text("#pad-error") == ""


def test_a_camera_giving_a_small_picture_is_told_once_in_the_pages_language(scripted, changing_table_browser):
    """The fake camera gives 640x480, not the 1280 wide the page asks for: tiles of some 20 pixels,
    which the reader misses. The box says so once, with what to do; the camera films on."""
    said = {
        "en": "The camera gives a small picture (640×480): hold the phone closer, or take photos instead",
        "es": "La cámara da una imagen pequeña (640×480): acerca el teléfono, o haz fotos en su lugar",
    }
    from tests.support.page import start_match as start_in_any_language

    for lang, locale in (("en", "en-GB"), ("es", "es-ES")):
        page = new_page(changing_table_browser, **PHONE_SCREEN, locale=locale)
        start_in_any_language(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
        page.click("#cam-live")
        page.wait_for_function("document.getElementById('cam-video').videoWidth > 0")
        assert page.evaluate("document.getElementById('cam-video').videoWidth") == 640
        expect(page.locator("#cam-say")).to_have_text(said[lang])
        expect(page.locator("#cam-result")).to_be_visible()
        # once: stopped and started again, the box does not say it again
        page.click("#cam-live")
        page.evaluate("document.getElementById('cam-result').hidden = true")
        page.click("#cam-live")
        page.wait_for_function("document.getElementById('cam-video').videoWidth > 0")
        page.wait_for_timeout(300)
        assert page.locator("#cam-result").is_hidden()
        page.click("#cam-live")
        page.context.close()


# (last: the page tests' Chromium is one per module, and no other Playwright may start beside it)
def test_a_phone_without_a_camera_is_told_so_in_plain_words(live_server, open_page):
    """Chromium as it comes (no fake device), the camera allowed: getUserMedia finds no camera."""
    page = open_page(PHONE_SCREEN, permissions=["camera"])
    start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    page.click("#cam-live")
    said = page.locator("#cam-say")
    expect(said).to_have_text(
        "No camera found on this device. The score pad below does the same job, and so does “Take photo”."
    )
    assert "Error" not in said.inner_text()
    # The other refusals getUserMedia gives, each in words and each with what to do instead.
    trouble = {
        name: page.evaluate(f"window.spinnerCameraTrouble('{name}')")
        for name in ("OverconstrainedError", "NotAllowedError", "SecurityError", "NotReadableError", "TypeError")
    }
    assert trouble["OverconstrainedError"].startswith("No camera found on this device.")
    assert trouble["NotAllowedError"].startswith("The camera is not allowed: allow it for this page in the browser")
    assert trouble["SecurityError"] == trouble["NotAllowedError"]
    assert trouble["NotReadableError"].startswith("The camera is in use by another app")
    assert trouble["TypeError"].startswith("The camera did not open.")
    assert all(t.endswith("The score pad below does the same job, and so does “Take photo”.") for t in trouble.values())
