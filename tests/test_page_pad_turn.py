"""Issue 36, defect 1: the pad follows the turn after every recorded event. A seat tapped for one
play (a later seat, the leader) or a tile chosen before an undo must not carry over to the next tap."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import expect
from tests.support.page import (
    PHONE,
    import_record,
    record_of,
    settle_taps,
    start_match,
    tap_and_wait,
    version,
    wait_version,
)
from tests.support.records import LOW_TEAM0, draw, hand, play, record, six_block

pytestmark = pytest.mark.slow


def chosen_seat(page) -> str:
    return page.locator(".seat.on").inner_text()


def test_partners_hand_two_a_tapped_seat_does_not_stick(live_server, open_page):
    page = open_page(PHONE)
    rec = six_block(LOW_TEAM0, variant="partners")
    rec["hands"].append(hand())  # hand 2: Ben leads (the lead passes to the next seat)
    game = import_record(page, live_server.url, rec)
    assert chosen_seat(page) == "Ben"
    tap_and_wait(page, '[data-tile="5-5"]')
    assert chosen_seat(page) == "Cruz"
    # Cruz and Dee passed: the scorer taps Ana, then her tile (one end only: one tap).
    page.click('.seat[data-seat="0"]')
    tap_and_wait(page, '[data-tile="5-6"]')
    page.wait_for_function("document.querySelector('.seat.on').textContent === 'Ben'")
    assert "Ben" in page.inner_text(".status")
    tap_and_wait(page, '[data-tile="4-5"]')
    events = record_of(page, game)["hands"][1]["events"]
    assert [(e["seat"], e["tile"]) for e in events] == [(1, "5-5"), (0, "5-6"), (1, "4-5")]


def test_all_fives_the_leader_tapped_is_not_sent_for_later_plays(live_server, open_page):
    page = open_page(PHONE)
    game = start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    page.click('.seat[data-seat="1"]')  # Finn leads
    tap_and_wait(page, '[data-tile="5-5"]')
    page.wait_for_function("document.querySelector('.seat.on').textContent === 'Eve'")
    tap_and_wait(page, '[data-tile="0-5"]')
    page.wait_for_function("document.querySelector('.seat.on').textContent === 'Finn'")
    seats = [e["seat"] for e in record_of(page, game)["hands"][0]["events"]]
    assert seats == [1, 0]


def test_after_undo_the_undone_tile_is_not_left_chosen(live_server, open_page):
    page = open_page(PHONE)
    start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    page.click('.seat[data-seat="0"]')  # Eve leads
    tap_and_wait(page, '[data-tile="5-5"]')
    tap_and_wait(page, '[data-tile="0-5"]')  # one end only beside a lone spinner: one tap
    tap_and_wait(page, '[data-tile="1-5"]')  # the other side of the spinner
    page.click('[data-tile="0-1"]')  # 0 on the west, 1 on the east: the pad asks where
    assert "0-1" in page.inner_text("#tiles-hint")
    before = version(page)
    page.click("#undo")
    wait_version(page, before + 1)
    page.wait_for_function("!document.querySelector('.tilebtn.chosen')")
    assert "0-1" not in page.inner_text("#tiles-hint")
    assert page.locator(".end.on").count() == 0


def test_a_second_tap_on_pass_just_after_the_first_is_held_back(live_server, open_page):
    """A stray second tap on Pass, once the first moved the turn on, would pass for the next seat."""
    page = open_page(PHONE)
    game = start_match(page, live_server.url, ["Ana", "Ben", "Cruz", "Dee"])
    assert page.inner_text("#tiles-hint") == "Tap who holds 6-6, then 6-6"  # partners' first lead
    page.click('.seat[data-seat="0"]')
    expect(page.locator("#tiles-hint")).to_have_text("Ana leads: tap 6-6")
    tap_and_wait(page, '[data-tile="6-6"]')
    # What was recorded, and whose turn it is, without scrolling to the list of plays.
    expect(page.locator("#tiles-hint")).to_have_text("Ana played 6-6. Ben: tap the tile played")
    # The guard window, long: the second tap comes "soon" however loaded the machine is.
    page.evaluate("document.getElementById('pad').dataset.guardMs = '600000'")
    tap_and_wait(page, "#pass")
    expect(page.locator("#tiles-hint")).to_have_text("Ben passed. Cruz: tap the tile played")
    before = version(page)
    page.click("#pass")
    expect(page.locator("#tiles-hint")).to_have_text("Ben passed. Tap Pass again to pass for Cruz")
    assert version(page) == before
    tap_and_wait(page, "#pass")  # the next tap is meant: sent
    expect(page.locator("#tiles-hint")).to_have_text("Cruz passed. Dee: tap the tile played")
    events = record_of(page, game)["hands"][0]["events"]
    assert [(e["type"], e["seat"]) for e in events] == [("play", 0), ("pass", 1), ("pass", 2)]


def test_drawing_again_for_the_same_player_is_not_held_back(live_server, open_page):
    page = open_page(PHONE)
    game = start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    assert page.inner_text("#tiles-hint") == "Tap who leads, then the tile"
    page.click('.seat[data-seat="0"]')
    expect(page.locator("#tiles-hint")).to_have_text("Eve leads: tap the tile")
    tap_and_wait(page, '[data-tile="6-6"]')
    page.evaluate("document.getElementById('pad').dataset.guardMs = '600000'")
    tap_and_wait(page, "#draw")
    expect(page.locator("#tiles-hint")).to_have_text("Finn drew a tile. Finn: tap the tile played")
    tap_and_wait(page, "#draw")  # Finn draws until a tile fits: the turn stayed, so nothing is held
    draws = [e for e in record_of(page, game)["hands"][0]["events"] if e["type"] == "draw"]
    assert [e["seat"] for e in draws] == [1, 1]


def test_a_tap_for_the_turn_another_phone_just_recorded_is_refused_and_said(live_server, open_page):
    """Probe (phone), finding 1: two scorer phones show "Ben: tap the tile played". Phone A records
    Ben's 4-6; phone B's tap, aimed at Ben's turn as the board changed under it, must not be recorded
    as Cruz's play: it is refused, the page says what A recorded, and shows Cruz's turn."""
    a = open_page(PHONE)
    game = start_match(a, live_server.url, ["Ana", "Ben", "Cruz", "Dee"])
    a.click('.seat[data-seat="0"]')
    tap_and_wait(a, '[data-tile="6-6"]')
    b = open_page(PHONE)
    b.goto(a.locator("details:has-text('Scorer link') .link").text_content().strip())
    b.wait_for_selector("#pad[data-ready]")
    expect(b.locator("#tiles-hint")).to_have_text("Ben: tap the tile played")
    # B's tap comes "at once" after the board changed, however loaded the machine is
    settle_taps(b, 600000)
    tap_and_wait(a, '[data-tile="4-6"]')  # beside the lone spinner: one end, one tap
    wait_version(b, version(a))  # the stream drew A's play on B just before B's tap
    b.click('[data-tile="3-6"]')
    expect(b.locator("#pad-error")).to_have_text(
        "Another phone recorded Ben played 4-6 on the west first: nothing was recorded for this tap. "
        "Check the board and tap again."
    )
    expect(b.locator("#tiles-hint")).to_have_text("Cruz: tap the tile played")
    events = record_of(b, game)["hands"][0]["events"]
    assert [(e["seat"], e["tile"]) for e in events] == [(0, "6-6"), (1, "4-6")]
    tap_and_wait(b, '[data-tile="3-6"]')  # the player saw the refusal and Cruz's turn: this tap is meant
    events = record_of(b, game)["hands"][0]["events"]
    assert [(e["seat"], e["tile"]) for e in events] == [(0, "6-6"), (1, "4-6"), (2, "3-6")]
    # A's own taps in a row are never held for a change of its own
    expect(a.locator("#tiles-hint")).to_have_text("Dee: tap the tile played")


def test_a_tap_refused_for_a_seat_tapped_out_of_turn_says_so_and_goes_back_to_the_turn(live_server, open_page):
    """Probe (draw games), finding 1: Ben is on turn (he drew); the scorer taps Ana's seat by mistake,
    then 4-4. The refusal says what was tried, the pad goes back to Ben, so the next tap is not sent
    as Ana's again; a button offers the same tap for Ben, named, and nothing is recorded until tapped."""
    page = open_page(PHONE)
    rec = record("draw", hand(play(0, "3-4"), draw(1, count=1), leader=0), players=2)
    game = import_record(page, live_server.url, rec)
    assert chosen_seat(page) == "Ben"
    page.click('.seat[data-seat="0"]')  # Ana, by mistake
    page.click('[data-tile="4-4"]')  # one end only (east shows 4): one tap
    expect(page.locator("#pad-error")).to_have_text(
        re.compile(
            r"^Ana playing 4-4 was not recorded: Hand 1, play 3: It is Ben's turn: .* The pad is back on Ben's turn\.$"
        )
    )
    assert chosen_seat(page) == "Ben"
    expect(page.locator("#tiles-hint")).to_have_text("Ben: tap the tile played")
    expect(page.locator("#pad-retry")).to_have_text("Record it for Ben")
    assert len(record_of(page, game)["hands"][0]["events"]) == 2  # nothing recorded for anyone
    tap_and_wait(page, "#pad-retry")
    events = record_of(page, game)["hands"][0]["events"]
    assert [(e["type"], e["seat"], e.get("tile")) for e in events][-1] == ("play", 1, "4-4")
    expect(page.locator("#pad-retry")).to_be_hidden()
    expect(page.locator("#pad-error")).to_have_text("")
    expect(page.locator("#tiles-hint")).to_have_text("Ben played 4-4 on the east. Ana: tap the tile played")


def test_after_a_refusal_out_of_turn_the_next_tile_goes_to_the_seat_on_turn(live_server, open_page):
    """The same mistake, then the tile Ben really played: it is recorded as Ben's, not refused as Ana's
    again (the probe's next step, Undo, took back Ben's real draw)."""
    page = open_page(PHONE)
    rec = record("draw", hand(play(0, "3-4"), draw(1, count=1), leader=0), players=2)
    game = import_record(page, live_server.url, rec)
    page.click('.seat[data-seat="0"]')
    page.click('[data-tile="4-4"]')
    page.wait_for_function("document.getElementById('pad-error').textContent.length > 0")
    tap_and_wait(page, '[data-tile="4-5"]')  # before: sent as Ana's again, refused
    events = record_of(page, game)["hands"][0]["events"]
    assert [(e["type"], e["seat"], e.get("tile")) for e in events] == [
        ("play", 0, "3-4"),
        ("draw", 1, None),
        ("play", 1, "4-5"),
    ]
    expect(page.locator("#pad-retry")).to_be_hidden()  # its turn is past
