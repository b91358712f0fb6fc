"""Issue 36, done when: a whole partners match and an all-fives hand scored on the pad, at
320x568, 390x844 and 1366x768, the board saying what players expect at each step."""

from __future__ import annotations

import pytest

from tests.support.page import SCREENS, answer_of, meant_taps, start_match, tap_and_wait, version, wait_version
from tests.support.records import SIX_BLOCK_PLAYS

pytestmark = pytest.mark.slow

#: Beside a spinner with nothing on either side the pad offers west only: the hand is tapped mirrored.
MIRROR = {"east": "west", "west": "east", "north": "north", "south": "south"}


def status(page) -> str:
    return " ".join(page.inner_text(".status").split())


def totals(page) -> list[str]:
    return [t.strip() for t in page.locator("#board .total").all_inner_texts()]


@pytest.mark.parametrize("screen", list(SCREENS), ids=list(SCREENS))
def test_a_whole_partners_match_on_the_pad(live_server, open_page, screen):
    page = open_page(SCREENS[screen])
    page.goto(live_server.url + "/")
    page.fill('input[name="target"]', "50")
    for seat, name in enumerate(["Ana", "Ben", "Cruz", "Dee"]):
        page.fill(f'.player[data-seat="{seat}"] input', name)
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#pad")
    game = page.locator("#board").get_attribute("data-game")
    assert "Whoever holds 6-6 leads it" in status(page) and "to 50" in status(page)
    page.click('.seat[data-seat="0"]')
    for n, event in enumerate(SIX_BLOCK_PLAYS):
        tile = "-".join(sorted(event["tile"].split("-")))
        fits = page.evaluate(f"window.spinnerBoard.board.pad.fits['{tile}']")
        if len(fits) > 1:
            page.click(f'#pad [data-tile="{tile}"]')
            assert page.inner_text("#tiles-hint") == f"Where does {tile} go?"
            tap_and_wait(page, f'.end[data-end="{MIRROR[event["end"]]}"]')
        else:
            tap_and_wait(page, f'#pad [data-tile="{tile}"]')
        if n == 0:
            assert "Count 12" in " ".join(page.inner_text(".count-big").split())
    assert totals(page) == ["0", "10"]  # 6-4 made the count 10, for Ben & Dee
    assert "Dee 5" in page.inner_text(".left")  # tiles left per player
    meant_taps(page)  # four passes in a row, one per player
    for _ in range(4):
        tap_and_wait(page, "#pass")
    assert status(page).startswith("Blocked: nobody can play. Tap the tiles left by Ana, Ben, Cruz, Dee")
    # Each player's pips in one step: a box each, one button (four events, in turn).
    boxes = page.locator("#pips-all input")
    assert page.locator("#pips-all label").all_inner_texts() == ["Ana", "Ben", "Cruz", "Dee"]
    for n, value in enumerate(("20", "25", "20", "25")):
        boxes.nth(n).fill(value)
    before = version(page)
    page.click("#send-all-pips")
    wait_version(page, before + 4)
    assert totals(page) == ["50", "10"]
    assert status(page).startswith("Ana & Cruz win the match")
    answer = answer_of(page, game)
    assert answer["winner"] == 0 and answer["totals"] == [50, 10]
    assert page.locator("#next-hand").is_hidden()
    assert page.locator(".hands tbody tr").count() == 1


@pytest.mark.parametrize("screen", list(SCREENS), ids=list(SCREENS))
def test_an_all_fives_hand_on_the_pad(live_server, open_page, screen):
    page = open_page(SCREENS[screen])
    game = start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    assert "Tap who leads" in page.inner_text("#tiles-hint")
    page.click('.seat[data-seat="0"]')
    tap_and_wait(page, '#pad [data-tile="6-6"]')
    assert "Finn to play" in status(page) and "Boneyard 10" in page.inner_text(".left")
    for left in range(9, -1, -1):  # Finn draws the whole boneyard
        tap_and_wait(page, "#draw")
        assert f"Boneyard {left}" in page.inner_text(".left")
    assert page.locator("#draw").is_disabled()
    assert "Finn 19" in page.inner_text(".left")
    meant_taps(page)  # Finn passes, then Eve
    tap_and_wait(page, "#pass")
    tap_and_wait(page, "#pass")
    assert status(page).startswith("Blocked: nobody can play.")
    for value in ("40", "116"):  # 156 pips off the table: 8 tiles and 19
        page.fill("#pips", value)
        tap_and_wait(page, "#send-pips")
    answer = answer_of(page, game)
    first = answer["hands"][0]
    assert first["end"] == "blocked" and first["pips"] == [40, 116]
    assert totals(page) == [str(t) for t in answer["totals"]]
    assert page.locator("#next-hand").is_visible()
    items = page.locator(".plays li .what").all_inner_texts()
    assert "Finn passed" in items and "Eve passed" in items and "Finn had 116 pips left" in items


def test_count_everyones_pips_takes_the_boxes_filled(live_server, open_page):
    """A partners hand gone out waits for the pips of the three still holding tiles, but scores on
    the losing team's alone: the box of the winner's partner may stay empty."""
    from scorer.simulate import simulate_match
    from tests.support.page import import_record

    full = simulate_match("partners", 4, 0)  # its first hand: seat 1 goes out
    first = full["hands"][0]
    observed = {**{k: v for k, v in full.items() if k != "hands"}, "options": {"target": 500}}
    observed["hands"] = [{"leader": first["leader"], "events": first["events"]}]
    page = open_page(SCREENS["390x844"])
    game = import_record(page, live_server.url, observed)
    page.wait_for_selector("#pad[data-ready]")
    assert page.locator("#pips-all label").all_inner_texts() == ["Ana", "Cruz", "Dee"]
    dealt = [set(tiles) for tiles in first["deal"]]
    played = {e["tile"] for e in first["events"] if e["type"] == "play"}
    left = [sum(int(p) for tile in dealt[seat] - played for p in tile.split("-")) for seat in range(4)]
    boxes = page.locator("#pips-all input")
    boxes.nth(0).fill(str(left[0]))  # Ana
    boxes.nth(1).fill(str(left[2]))  # Cruz; Dee, Ben's partner, left empty
    before = version(page)
    page.click("#send-all-pips")
    wait_version(page, before + 2)
    answer = answer_of(page, game)
    hand = answer["hands"][0]
    assert hand["end"] == "out" and "awaiting_pips" not in hand
    assert hand["bonus"][1] > 0 and answer["totals"][1] > 0
    assert page.inner_text("#pad-error") == ""
