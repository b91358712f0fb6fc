"""The camera in real headless Chromium: "Take photo" on plain HTTP, the answer shown at once, one
tap to confirm; the live camera (Chromium's fake device) sending frames whose plays reach the board;
and a server without a reader, where the photo gets a plain answer and the pad still scores.

The reader is the scripted stand-in of test_webapp_camera.py: these tests are about the page, the
upload and the answer, not about reading pips.
"""
from __future__ import annotations

import numpy as np
import pytest

from test_webapp_camera import Script, photo, seen
from test_webapp_browser import PHONE, start_match, wait_version
from webapp_server import chromium_path, start, without_csp

pytestmark = pytest.mark.slow


@pytest.fixture
def scripted(tmp_path):
    script = Script()
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=30.0, SPINNER_READER=script, READ_WAIT=10.0)
    running.script = script
    yield running
    server.stop()


@pytest.fixture
def camera_browser(tmp_path_factory):
    """Chromium with a fake camera that needs no permission prompt, filming a still table (its own
    fake device draws a moving pattern, and the page's live camera acts only on a still table)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    from vision.synth.y4m import Y4mWriter

    film = tmp_path_factory.mktemp("camera") / "still-table.y4m"
    table = np.full((240, 320, 3), 90, np.uint8)
    table[100:120, 140:180] = 250
    with Y4mWriter(film, 320, 240, 5.0) as writer:
        for _ in range(5):
            writer.write(table)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=[
            "--no-sandbox", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={film}"])
        yield without_csp(browser)
        browser.close()


def test_take_photo_shows_the_proposal_and_one_tap_records_it(scripted, camera_browser, tmp_path):
    page = camera_browser.new_context(**PHONE).new_page()
    start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    version = page.evaluate("window.spinnerBoard.version")
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())

    scripted.script.readings.append(seen("6-6"))  # who led is not known: the camera asks
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#cam-accept:not([hidden])")
    assert "whose turn it is is not known" in page.inner_text("#cam-say")
    page.click('.seat[data-seat="2"]')  # Cruz led
    page.click("#cam-accept")
    wait_version(page, version + 1)
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('confirmed')")
    assert page.inner_text("#cam-say") == "confirmed by scorer link: seat 2 playing 6-6"
    assert "Cruz" in page.inner_text(".plays li")

    scripted.script.readings.append(seen("6-6", "6-1", centre="6-6", arms={"west": ["6-1"]}))  # sure: recorded at once
    page.set_input_files("#photo-input", str(shot))
    wait_version(page, version + 2)
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('the camera saw')")
    assert page.inner_text("#cam-say") == "the camera saw seat 3 playing 1-6 on the west"
    assert page.locator("#cam-accept").is_hidden()

    scripted.script.readings.append(seen("6-6", "6-1", ("6-4", 0.4), centre="6-6", arms={"west": ["6-1"], "east": ["6-4"]}))
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_selector("#cam-reject:not([hidden])")
    page.click("#cam-reject")
    page.wait_for_function("document.getElementById('cam-say').textContent.startsWith('Turned down')")
    assert page.evaluate("window.spinnerBoard.version") == version + 2

    text = tmp_path / "notes.txt"
    text.write_text("not a photo")
    page.set_input_files("#photo-input", str(text))
    page.wait_for_function("document.getElementById('cam-result').classList.contains('bad')")
    assert "not a photo this server can decode" in page.inner_text("#cam-say")


def test_the_live_camera_sends_frames_and_their_plays_reach_the_board(scripted, camera_browser):
    page = camera_browser.new_context(**PHONE).new_page()
    start_match(page, scripted.url, ["Ana", "Ben", "Cruz", "Dee"])
    version = page.evaluate("window.spinnerBoard.version")
    # the table as it starts, then each play seen twice in a row (a live camera's two looks)
    scripted.script.readings += [seen(), seen("6-6"), seen("6-6")] + [seen("6-6", "6-1", centre="6-6", arms={"west": ["6-1"]})] * 2
    page.click('.seat[data-seat="0"]')  # who leads, for the camera
    page.click("#cam-live")  # 127.0.0.1 is a secure context: the live camera is offered
    wait_version(page, version + 2)
    page.click("#cam-live")  # stop it
    answer = page.evaluate("fetch(`/api/games/${document.getElementById('board').dataset.game}/score`).then(r => r.json())")
    plays = answer["hands"][0]["plays"]
    assert [(p["seat"], p["tile"], p["count"]) for p in plays] == [(0, "6-6", 12), (1, "1-6", 13)]
    assert [t.strip() for t in page.locator("#board .total").all_inner_texts()] == ["0", "0"]


@pytest.fixture
def readerless(tmp_path):
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=30.0, SPINNER_MODELS=tmp_path / "no-models")
    yield running
    server.stop()


def test_without_a_reader_the_photo_gets_a_plain_answer_and_the_pad_still_scores(readerless, camera_browser, tmp_path):
    page = camera_browser.new_context(**PHONE).new_page()
    start_match(page, readerless.url, ["Ana", "Ben", "Cruz", "Dee"])
    version = page.evaluate("window.spinnerBoard.version")
    shot = tmp_path / "table.jpg"
    shot.write_bytes(photo())
    page.set_input_files("#photo-input", str(shot))
    page.wait_for_function("document.getElementById('cam-result').classList.contains('bad')")
    said = page.inner_text("#cam-say")
    assert "cannot read photos yet" in said and "score this play on the pad" in said
    page.click('.seat[data-seat="0"]')  # who leads: the pad asks before the first tile
    page.click('[data-tile="6-6"]')
    wait_version(page, version + 1)
    assert page.inner_text("#pad-error") == ""
