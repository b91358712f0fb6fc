"""In real headless Chromium: start a match, score a hand on the pad, undo, and watch a second
phone's board follow live (server-sent events)."""
from __future__ import annotations

import pytest

from conftest import SIX_BLOCK_PLAYS
from webapp_server import browser, live_server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
#: With nothing yet on either side of the spinner the pad offers one side only (west), so the
#: hand of SIX_BLOCK_PLAYS, which went east first, is tapped as its mirror image.
MIRROR = {"east": "west", "west": "east", "north": "north", "south": "south"}


def wait_version(page, version: int) -> None:
    """Until the page shows `version` and its pad (if any) is done sending: a tap while busy is ignored."""
    page.wait_for_function(
        f"window.spinnerBoard && window.spinnerBoard.version >= {version}"
        " && !document.querySelector('#pad.busy')", timeout=10000)


def totals(page) -> list[str]:
    return [t.strip() for t in page.locator("#board .total").all_inner_texts()]


def start_match(page, url: str, players: list[str], variant: str | None = None) -> None:
    page.goto(url + "/")
    if variant:
        page.select_option("#variant", variant)
    for seat, name in enumerate(players):
        page.fill(f'.player[data-seat="{seat}"] input', name)
    page.click("text=Start the match")
    page.wait_for_selector("#pad")


def test_score_a_hand_on_the_pad_undo_and_a_second_phone_follows(live_server, browser):
    scorer = browser.new_context(**PHONE).new_page()
    start_match(scorer, live_server.url, ["Ana", "Ben", "Cruz", "Dee"])
    game_id = scorer.locator("#board").get_attribute("data-game")
    version = scorer.evaluate("window.spinnerBoard.version")
    viewer_link = scorer.locator(".share .link a").first.get_attribute("href")

    viewer = browser.new_context(**PHONE).new_page()
    viewer.goto(viewer_link)
    assert viewer.locator("#pad").count() == 0  # the viewer link only reads
    viewer.wait_for_function("document.getElementById('live').textContent === 'live'", timeout=10000)

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
            assert scorer.inner_text("#tiles-hint") == f"Where does {tile} go?"
            scorer.click(f'.end[data-end="{MIRROR[event["end"]]}"]')
        version += 1
        wait_version(scorer, version)
        assert scorer.inner_text("#pad-error") == ""
    assert asked == 5
    assert scorer.locator(".plays li").count() == 10
    counts = [c.strip() for c in scorer.locator(".plays li .count").all_inner_texts()][::-1]
    assert counts == ["12", "13", "14", "18", "6", "9", "12", "10", "11", "12"]

    for _ in range(4):  # nobody has a six: all pass, the hand is blocked
        scorer.click("#pass")
        version += 1
        wait_version(scorer, version)
    assert "Blocked: nobody can play. Tap the tiles left by Ana, Ben, Cruz, Dee" in scorer.inner_text(".status")

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
    assert "Ana & Cruz score 50" in viewer.inner_text(".status")

    # Undo the last pips: both phones go back to waiting for Dee's.
    scorer.click("#undo")
    version += 1
    wait_version(scorer, version)
    wait_version(viewer, version)
    assert "Tap the tiles left by Dee" in viewer.inner_text(".status")
    assert totals(viewer) == ["0", "10"]
    assert viewer.inner_text("#live") == "live"  # it came over the stream, not by polling

    history = scorer.evaluate(f"fetch('/api/games/{game_id}/history').then(r => r.json())")
    last = history["changes"][-1]
    assert last["action"] == "undo" and last["source"] == "pad"
    assert history["changes"][-2]["action"] == "event"  # the undone pips are still in the history


def test_an_illegal_tap_is_refused_with_the_rule(live_server, browser):
    page = browser.new_context(**PHONE).new_page()
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
    assert message.startswith("Hand 1, play 2: It is Ben's turn") and "draws until a tile fits" in message
    assert page.evaluate("window.spinnerBoard.version") == version + 1
