"""The whole way from a camera to the score, in real headless Chromium with the bundled models:
Chromium's fake camera films a synthetic game (rendered by the dataset generator, with arms
reaching in to lay each tile, light drifting and the camera shaking a little), the page's live
camera sends a frame a second, the server reads each with the ONNX models, and the plays, their
counts and the totals that appear must be the game's true ones, with at most one tap on the phone.

The game is the first seven plays of an all-fives hand (seed 12: the fourth scores 10) that the
bundled models read right; a model that reads worse shows up here as a wrong or missing play, or
more than one question (one, proposing the true tile, is confirmed: see below).
"""
from __future__ import annotations

import time

import pytest

from scorer.match import score_record
from test_webapp_browser import PHONE, start_match
from webapp_server import chromium_path, start, without_csp

pytestmark = pytest.mark.slow

SEED, PLAYS = 12, 7
#: frames a second of the film: each still table lasts 6 s (6 frames), so the page, sending a frame a second
#: as soon as the last is read, sees it at least twice (the live camera acts on two looks that agree)
FPS = 1.0


@pytest.fixture(scope="module")
def film(tmp_path_factory):
    from vision.synth.video import game_video, write_video

    video = game_video(SEED, 1280, 960, still_frames=6, max_plays=PLAYS)
    out = tmp_path_factory.mktemp("film")
    written = write_video(video, out, fps=FPS, y4m=True)
    return video, out / "video.y4m", written["frames"]


@pytest.fixture
def models_server(tmp_path):
    server, running = start(tmp_path, SSE_HEARTBEAT=1.0, SSE_LIFETIME=60.0)
    yield running
    server.stop()


def plays_of(answer: dict) -> list[tuple]:
    return [(p["seat"], "-".join(sorted(p["tile"].split("-"))), p["count"], p["points"])
            for p in answer["hands"][0]["plays"]]


def test_the_live_camera_scores_a_filmed_game_with_the_bundled_models(film, models_server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    video, y4m, frames = film
    truth = score_record(video.record)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=[
            "--no-sandbox", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={y4m}"])
        try:
            page = without_csp(browser).new_context(**PHONE).new_page()
            start_match(page, models_server.url, video.record["players"], variant=video.record["variant"])
            page.click('.seat[data-seat="0"]')  # who leads, for the camera
            page.click("#cam-live")
            page.wait_for_function("document.getElementById('cam-video').videoWidth > 0", timeout=10000)
            assert page.evaluate("document.getElementById('cam-video').videoWidth") == 1280
            score = "fetch(`/api/games/${document.getElementById('board').dataset.game}/score`).then(r => r.json())"
            deadline = time.monotonic() + 2 * frames / FPS + 60  # the film twice over (it loops), and some
            answer = page.evaluate(score)
            asked = 0
            while len(answer["hands"][0]["plays"]) < video.plays and time.monotonic() < deadline:
                if not page.locator("#cam-accept").is_hidden():
                    # Which frames the reader gets depends on the machine's load (the page sends the
                    # next frame when the last is read), so a change can be read only mid-move and
                    # the camera then rightly asks before recording. One such question, proposing
                    # the true next tile, is what a player confirms; a second, or a wrong tile, fails.
                    said = page.inner_text("#cam-say")
                    asked += 1
                    assert asked == 1, f"the camera asks again: {said}"
                    true_next = plays_of(truth)[len(answer["hands"][0]["plays"])][1]
                    low, high = true_next.split("-")
                    assert f"{low}-{high}" in said or f"{high}-{low}" in said, f"the camera proposes a wrong tile: {said}"
                    page.click("#cam-accept")
                page.wait_for_timeout(500)
                answer = page.evaluate(score)
            page.click("#cam-live")  # stop it
            page.wait_for_function(f"window.spinnerBoard.version >= {len(answer['hands'][0]['plays']) + 1}")
            shown = [t.strip() for t in page.locator("#board .total").all_inner_texts()]
        finally:
            browser.close()
    assert plays_of(answer) == plays_of(truth)
    assert answer["totals"] == truth["totals"]
    assert shown == [str(t) for t in truth["totals"]]
