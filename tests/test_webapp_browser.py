"""In real headless Chromium: start a match, score a hand on the pad, undo, and watch a second
phone's board follow live (server-sent events)."""

from __future__ import annotations

import pytest

from tests.support.browser import expect, new_page, start_match, totals, wait_version
from tests.support.records import SIX_BLOCK_PLAYS

pytestmark = pytest.mark.slow

#: With nothing yet on either side of the spinner the pad offers one side only (west), so the
#: hand of SIX_BLOCK_PLAYS, which went east first, is tapped as its mirror image.
MIRROR = {"east": "west", "west": "east", "north": "north", "south": "south"}


def test_score_a_hand_on_the_pad_undo_and_a_second_phone_follows(live_server, browser):
    scorer = new_page(browser)
    start_match(scorer, live_server.url, ["Ana", "Ben", "Cruz", "Dee"])
    game_id = scorer.locator("#board").get_attribute("data-game")
    version = scorer.evaluate("window.spinnerBoard.version")
    viewer_link = scorer.locator(".share .link a").first.get_attribute("href")

    viewer = new_page(browser)
    viewer.goto(viewer_link)
    assert viewer.locator("#pad").count() == 0  # the viewer link only reads
    expect(viewer.locator("#live")).to_have_text("live")

    # The ten plays of the blocked hand, tapped on the pad: the tile, then the end where it is asked.
    # Nobody's turn is known before the lead (the holder of 6-6 leads): the scorer taps who leads.
    scorer.click('.seat[data-seat="0"]')
    asked = 0
    for event in SIX_BLOCK_PLAYS:
        tile = "-".join(sorted(event["tile"].split("-")))
        fits = scorer.evaluate(f"window.spinnerBoard.board.pad.fits['{tile}']")
        scorer.click(f'[data-tile="{tile}"]')
        if len(fits) > 1:  # more than one end: the pad asks which
            asked += 1
            expect(scorer.locator("#tiles-hint")).to_have_text(f"Where does {tile} go?")
            scorer.click(f'.end[data-end="{MIRROR[event["end"]]}"]')
        version += 1
        wait_version(scorer, version)
        assert scorer.inner_text("#pad-error") == ""
    assert asked == 5
    assert scorer.locator(".plays li").count() == 10
    counts = [c.strip() for c in scorer.locator(".plays li .count").all_inner_texts()][::-1]
    assert counts == ["12", "13", "14", "18", "6", "9", "12", "10", "11", "12"]

    # the pad holds back a second Pass within its guard window (a double tap): these are meant
    scorer.evaluate("document.getElementById('pad').dataset.guardMs = '0'")
    for _ in range(4):  # nobody has a six: all pass, the hand is blocked
        scorer.click("#pass")
        version += 1
        wait_version(scorer, version)
    expect(scorer.locator(".status")).to_contain_text(
        "Blocked: nobody can play. Tap the tiles left by Ana, Ben, Cruz, Dee"
    )

    # Pips left, seat by seat (the pad picks the next seat the score still needs).
    for pips in ("20", "25", "20", "25"):
        scorer.fill("#pips", pips)
        scorer.click("#send-pips")
        version += 1
        wait_version(scorer, version)
    answer = scorer.evaluate(f"fetch('/api/games/{game_id}/score').then(r => r.json())")
    assert answer["hands"][0]["end"] == "blocked"
    assert answer["hands"][0]["winner"] == 0 and answer["hands"][0]["bonus"] == [50, 0]
    assert answer["totals"] == [50, 10]
    assert totals(scorer) == ["50", "10"]
    wait_version(viewer, version)
    assert totals(viewer) == ["50", "10"]
    expect(viewer.locator(".status")).to_contain_text("Ana & Cruz score 50")

    # Undo the last pips: both phones go back to waiting for Dee's.
    scorer.click("#undo")
    version += 1
    wait_version(scorer, version)
    wait_version(viewer, version)
    expect(viewer.locator(".status")).to_contain_text("Tap the tiles left by Dee")
    assert totals(viewer) == ["0", "10"]
    assert viewer.inner_text("#live") == "live"  # it came over the stream, not by polling

    history = scorer.evaluate(f"fetch('/api/games/{game_id}/history').then(r => r.json())")
    last = history["changes"][-1]
    assert last["action"] == "undo" and last["source"] == "pad"
    assert history["changes"][-2]["action"] == "event"  # the undone pips are still in the history


def test_an_illegal_tap_is_refused_with_the_rule(live_server, browser):
    page = new_page(browser)
    start_match(page, live_server.url, ["Ana", "Ben"], variant="all-fives")
    version = page.evaluate("window.spinnerBoard.version")
    page.click('.seat[data-seat="0"]')  # Ana leads
    page.click('[data-tile="5-5"]')
    wait_version(page, version + 1)
    page.click('.seat[data-seat="0"]')  # the wrong seat: Ana just led
    page.click('[data-tile="0-5"]')
    page.wait_for_function("document.getElementById('pad-error').textContent.length > 0")
    message = page.inner_text("#pad-error")
    # In players' words: names, and plays counted from 1.
    # What was tried first, then the rule; the seat tapped out of turn gives way to the seat on turn.
    assert message.startswith("Ana playing 0-5 was not recorded: Hand 1, play 2: It is Ben's turn")
    assert "draws until a tile fits" in message and message.endswith("The pad is back on Ben's turn.")
    assert page.inner_text(".seat.on") == "Ben"
    assert page.evaluate("window.spinnerBoard.version") == version + 1
