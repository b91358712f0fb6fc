"""cross, a lead proved wrong after the hand went on (a play of a double the seat held from the
deal): the pad says so and offers what a table does, deal the hand again or keep it as played."""

from __future__ import annotations

import pytest

from tests.support.page import SMALL, api, meant_taps, record_of, start_match, version, wait_version

pytestmark = pytest.mark.slow

#: Ana leads 5-5 and the hand goes on round it; Cruz, on turn, then plays 6-6 he never drew.
MISLED = [
    {"type": "play", "seat": 0, "tile": "5-5"},
    {"type": "play", "seat": 1, "tile": "5-6", "end": "west"},
    {"type": "play", "seat": 2, "tile": "4-5", "end": "east"},
    {"type": "play", "seat": 0, "tile": "3-5", "end": "north"},
    {"type": "play", "seat": 1, "tile": "2-5", "end": "south"},
]


def misled(page, url: str) -> str:
    game = start_match(page, url, ["Ana", "Ben", "Cruz"], variant="cross")
    meant_taps(page)  # the plays below come through the API, as from another phone, just before the tap
    for event in MISLED:
        assert api(page, "POST", "/events", event)["status"] == 201
    page.wait_for_function("window.spinnerBoard.board.current.events.length === 5")
    page.click('[data-tile="6-6"]')  # Cruz's turn; 6-6 fits the west end only
    page.wait_for_selector("#pad-lead-ways", state="visible")
    said = page.inner_text("#pad-error")
    assert "Cruz held 6-6 from the deal" in said and said.endswith("Deal this hand again, or keep it as played.")
    assert len(record_of(page, game)["hands"][0]["events"]) == 5  # nothing recorded
    return game


def test_a_misled_cross_hand_is_kept_as_played(live_server, open_page):
    page = open_page(SMALL)
    game = misled(page, live_server.url)
    before = version(page)
    page.click("#pad-lead-stands")
    wait_version(page, before + 2)  # the ruling, then the play refused before
    page.wait_for_selector("#pad-lead-ways", state="hidden")
    hand = record_of(page, game)["hands"][0]
    assert hand["lead_stands"] is True
    assert hand["events"][-1] == {"type": "play", "seat": 2, "tile": "6-6", "end": "west"}
    assert page.inner_text("#pad-error") == ""


def test_a_misled_cross_hand_is_dealt_again(live_server, open_page):
    page = open_page(SMALL)
    game = misled(page, live_server.url)
    before = version(page)
    page.click("#pad-deal-again")
    wait_version(page, before + 2)  # the hand voided, then a new one started
    page.wait_for_selector("#pad-lead-ways", state="hidden")
    assert record_of(page, game)["hands"] == [{"events": []}]
    changes = api(page, "GET", "/history", None)["body"]["changes"]
    assert [c["action"] for c in changes[-2:]] == ["void", "hand"]
    assert changes[-2]["before"]["events"] == MISLED  # the hand as played stays in the history
    page.click('.seat[data-seat="2"]')
    before = version(page)
    page.click('[data-tile="6-6"]')  # Cruz leads the highest double
    wait_version(page, before + 1)
    assert record_of(page, game)["hands"][0]["events"] == [{"type": "play", "seat": 2, "tile": "6-6"}]


def test_a_correction_that_proves_the_lead_wrong_offers_the_same_two_ways_on_the_pad(live_server, open_page):
    page = open_page(SMALL)
    game = start_match(page, live_server.url, ["Ana", "Ben", "Cruz"], variant="cross")
    for event in [*MISLED, {"type": "play", "seat": 2, "tile": "4-4", "end": "east"}]:
        assert api(page, "POST", "/events", event)["status"] == 201
    page.wait_for_function("window.spinnerBoard.board.current.events.length === 6")
    page.click('#board-bottom .fix[data-event="5"]')  # it was Cruz's 6-6, on the west
    page.wait_for_selector("#fix-dialog[open]")
    page.click('[data-fix-tile="6-6"]')
    page.click('[data-fix-end="west"]')
    page.fill("#fix-why", "it was the 6-6")
    page.click("#fix-save")
    page.wait_for_selector("#fix-dialog", state="hidden")  # the pad behind says why, with the two ways
    page.wait_for_selector("#pad-lead-ways", state="visible")
    assert "Cruz held 6-6 from the deal" in page.inner_text("#pad-error")
    before = version(page)
    page.click("#pad-lead-stands")
    wait_version(page, before + 2)  # the ruling, then the correction
    hand = record_of(page, game)["hands"][0]
    assert (hand["lead_stands"], hand["events"][5]) == (True, {"type": "play", "seat": 2, "tile": "6-6", "end": "west"})
