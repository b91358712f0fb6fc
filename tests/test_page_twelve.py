"""twelve, the memory game, on the phone: the New match form offers it for one player, and the
scorer taps the two tiles turned (a pair of 12 removed, any other turned back), with Undo."""

from __future__ import annotations

import pytest

from tests.support.page import PHONE, answer_of, axe_findings, version

pytestmark = pytest.mark.slow


def wait_version(page, at_least: int) -> None:
    page.wait_for_function(
        f"window.spinnerBoard && window.spinnerBoard.version >= {at_least} && !document.querySelector('#twelve-pad.busy')"
    )


def turn(page, first: str, second: str) -> None:
    """Tap the two tiles turned, and wait for the board that shows the attempt."""
    before = version(page)
    page.click(f'#flips [data-tile="{first}"]')
    assert page.inner_text("#twelve-hint") == f"{first} turned: tap the second tile"
    page.click(f'#flips [data-tile="{second}"]')
    wait_version(page, before + 1)


def say(page) -> str:
    return " ".join(page.inner_text(".status .say").split())


def test_a_game_of_twelve_tapped_on_the_pad(live_server, open_page):
    page = open_page(PHONE)
    page.goto(live_server.url + "/")
    page.select_option("#variant", "twelve")
    assert page.locator('.player[data-seat="1"]').is_hidden()  # one player
    assert page.inner_text("#variant-hint") == "One player."
    assert page.locator("#target-field").is_hidden()  # attempts and time, no target
    page.fill('.player[data-seat="0"] input', "Ana")
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#twelve-pad[data-ready]")
    game = page.locator("#board").get_attribute("data-game")
    assert page.locator("#flips .flipbtn").count() == 28
    assert say(page) == "The tiles lie face down: tap the two tiles turned"
    assert page.is_disabled("#twelve-undo")

    turn(page, "1-2", "3-4")  # 10: turned back, one attempt
    assert page.inner_text("#twelve-hint") == "1-2 and 3-4 do not make 12: turned back. Turn two more"
    assert page.inner_text("#twelve-attempts") == "1"
    turn(page, "6-6", "0-0")  # 12: removed
    assert say(page) == "6-6 and 0-0 make 12: removed"
    assert "removed" in page.get_attribute('#flips [data-tile="6-6"]', "class")
    assert "1/14" in page.inner_text(".twelve-totals")
    page.click('#flips [data-tile="6-6"]', force=True)  # removed already (aria-disabled): said, nothing sent
    assert page.inner_text("#twelve-hint") == "6-6 was removed already."
    answer = answer_of(page, game)
    assert answer["attempts"] == 2 and answer["pairs"] == [["6-6", "0-0"]]

    before = version(page)
    page.click("#twelve-undo")
    wait_version(page, before + 1)
    assert "removed" not in page.get_attribute('#flips [data-tile="6-6"]', "class")
    assert answer_of(page, game)["attempts"] == 1
    assert axe_findings(page) == []
