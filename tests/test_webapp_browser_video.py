"""The whole way from a camera to the score, in real headless Chromium with the bundled models:
Chromium's fake camera films a synthetic game (rendered by the dataset generator, with arms
reaching in to lay each tile, light drifting and the camera shaking a little: the `film` fixture),
the page's live camera sends a frame a second, the server reads each with the ONNX models, and the
plays, their counts and the totals that appear must be the game's true ones.

Which frames the reader gets depends on the machine's load (the page sends the next frame when the
last is read), so a table may be seen once, or only mid-move, and the camera then rightly asks
before recording. What must hold for the player, however loaded the machine: every question
proposes the true next tile (the test taps Yes, or, asked who played it, the true seat), no wrong
play is ever recorded, and in the end the record is the game's. A model that reads worse shows up here as a wrong play or question.

Nothing here waits for time to pass: each wait is for the page to change (its board's version, or
a question shown), and its time limit is only there to fail a test that would otherwise hang.
"""

from __future__ import annotations

import pytest

from scorer.match import score_record
from tests.support.browser import expect, new_page, score_of, start_match

pytestmark = pytest.mark.slow

#: the camera asks: "Yes" to a proposed play, or a button for each seat that may have laid the tile
QUESTION = "!document.getElementById('cam-accept').hidden || !document.getElementById('cam-seats').hidden"


def plays_of(answer: dict) -> list[tuple]:
    return [
        (p["seat"], "-".join(sorted(p["tile"].split("-"))), p["count"], p["points"])
        for p in answer["hands"][0]["plays"]
    ]


def names(tile: str) -> tuple[str, str]:
    """A tile as the page may write it: either half first."""
    low, high = tile.split("-")
    return f"{low}-{high}", f"{high}-{low}"


def test_the_live_camera_scores_a_filmed_game_with_the_bundled_models(film, models_server, film_browser):
    truth = score_record(film.video.record)
    expected = plays_of(truth)
    assert len(expected) == film.video.plays
    # A failure bound, never a condition of success: the film (it loops) three times over, and a
    # minute more, for any one change the page waits for.
    patience_ms = (3 * film.seconds + 60) * 1000

    page = new_page(film_browser)
    start_match(page, models_server.url, film.video.record["players"], variant=film.video.record["variant"])
    page.click('.seat[data-seat="0"]')  # who leads, for the camera
    page.click("#cam-live")
    page.wait_for_function("document.getElementById('cam-video').videoWidth > 0")
    assert page.evaluate("document.getElementById('cam-video').videoWidth") == 1280

    asked: list[str] = []
    recorded: list[tuple] = []
    version = page.evaluate("window.spinnerBoard.version")
    while len(recorded) < len(expected):
        # Until the board moves on or the camera asks.
        page.wait_for_function(
            f"([v]) => window.spinnerBoard.version > v || ({QUESTION})", arg=[version], timeout=patience_ms
        )
        version = page.evaluate("window.spinnerBoard.version")
        recorded = plays_of(score_of(page))
        assert recorded == expected[: len(recorded)], (
            f"a wrong play was recorded: {recorded} (the truth: {expected}; answered so far: {asked})"
        )
        if len(recorded) < len(expected) and page.evaluate(QUESTION):
            said = page.evaluate("document.getElementById('cam-say').textContent")
            tile = expected[len(recorded)][1]
            assert any(name in said for name in names(tile)), (
                f"the camera proposes a wrong tile (the next is {tile}): {said}"
            )
            if page.evaluate("!document.getElementById('cam-seats').hidden"):
                asked.append(f"{said} -> seat {expected[len(recorded)][0]}")
                page.click(f'.cam-seat[data-seat="{expected[len(recorded)][0]}"]')  # who played it: one tap
            else:
                asked.append(f"{said} -> yes")
                page.click("#cam-accept")
            # The tap records the play and the question goes; a refusal says why in its place.
            page.wait_for_function(
                f"([said]) => !({QUESTION}) || document.getElementById('cam-say').textContent !== said",
                arg=[said],
                timeout=patience_ms,
            )
            assert not page.evaluate(QUESTION), f"the tap was refused: {page.inner_text('#cam-say')}"
    page.click("#cam-live")  # stop it

    answer = score_of(page)
    assert plays_of(answer) == expected, f"the camera asked {len(asked)} times: {asked}"
    assert answer["totals"] == truth["totals"]
    expect(page.locator("#board .total")).to_have_text([str(t) for t in truth["totals"]])
