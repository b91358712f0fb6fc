"""Issue 36, what players expect: the page at 320x568, 390x844 and 1366x768 with no serious or
critical axe-core finding (light, dark, Spanish), a spoken name for every tile, two columns on a
laptop, dark mode from the phone's setting, and the pad usable by keyboard."""

from __future__ import annotations

import pytest

from tests.support.page import LAPTOP, PHONE, SCREENS, axe_findings, import_record, version, wait_version
from tests.support.records import SIX_BLOCK_PLAYS, hand, pass_, pips, record

pytestmark = pytest.mark.slow

#: Hand 1 scored (a blocked hand), an open dispute on hand 2's lead: most of what the board shows.
PLAYED = record(
    "partners",
    hand(*SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1), pips(0, 20), pips(1, 25), pips(2, 20), pips(3, 25)),
    hand(),
)


def dispute(page) -> None:
    from tests.support.page import api

    api(page, "POST", "/events", {"type": "play", "seat": 1, "tile": "5-5"})
    api(page, "POST", "/disputes", {"hand": 1, "event": 0, "why": "was it 5-5?"})
    page.reload()
    page.wait_for_selector("#open-disputes")


@pytest.mark.parametrize("screen", list(SCREENS), ids=list(SCREENS))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_finding(live_server, open_page, screen, scheme):
    page = open_page(SCREENS[screen], color_scheme=scheme)
    import_record(page, live_server.url, PLAYED)
    dispute(page)
    assert axe_findings(page) == []
    page.click("#board-bottom .fix")
    page.wait_for_selector("#fix-dialog[open]")
    assert axe_findings(page) == []
    page.click("#fix-cancel")
    page.goto(live_server.url + "/")
    page.click("details.options summary")
    assert axe_findings(page) == []
    viewer = open_page(SCREENS[screen], color_scheme=scheme, locale="es-ES")
    viewer.goto(page.url)  # the list, in Spanish, then a match as a viewer
    viewer.click(".games li.game > a")
    viewer.wait_for_selector("#board")
    assert viewer.locator("html").get_attribute("lang") == "es"
    assert axe_findings(viewer) == []


def test_every_tile_has_a_spoken_name(live_server, open_page):
    page = open_page(PHONE)
    import_record(page, live_server.url, PLAYED)
    names = page.eval_on_selector_all("#pad .tilebtn", "bs => bs.map(b => b.getAttribute('aria-label'))")
    assert len(names) == 28 and len(set(names)) == 28
    assert {"five-five", "blank-six", "six-six"} <= set(names)
    page.click("text=Español")
    page.wait_for_selector("html[lang=es]")
    names = page.eval_on_selector_all("#pad .tilebtn", "bs => bs.map(b => b.getAttribute('aria-label'))")
    assert {"cinco-cinco", "blanca-seis", "seis-seis"} <= set(names)


def test_dark_mode_follows_the_phone(live_server, open_page):
    light = open_page(PHONE, color_scheme="light")
    dark = open_page(PHONE, color_scheme="dark")
    url = live_server.url + "/"
    light.goto(url)
    dark.goto(url)
    background = "getComputedStyle(document.body).backgroundColor"
    assert light.evaluate(background) == "rgb(242, 244, 243)"
    assert dark.evaluate(background) == "rgb(15, 21, 19)"
    assert dark.evaluate("getComputedStyle(document.querySelector('.card')).color") == "rgb(238, 242, 240)"


def test_a_laptop_shows_the_board_beside_the_pad_and_the_hand(live_server, open_page):
    page = open_page(LAPTOP)
    import_record(page, live_server.url, PLAYED)
    board = page.locator("#board").bounding_box()
    pad = page.locator("#pad").bounding_box()
    plays = page.locator("#board-bottom").bounding_box()
    assert pad["x"] > board["x"] + board["width"] and plays["x"] == pad["x"]
    assert pad["y"] < board["y"] + board["height"]  # side by side, not one under the other
    phone = open_page(PHONE)
    phone.goto(page.url)
    assert phone.locator("#board").bounding_box()["x"] == phone.locator("#board-bottom").bounding_box()["x"]


def test_the_pad_is_usable_by_keyboard(live_server, open_page):
    page = open_page(LAPTOP)
    import_record(page, live_server.url, PLAYED)  # hand 2: Ben leads
    page.focus('#pad [data-tile="5-5"]')
    before = version(page)
    page.keyboard.press("Enter")
    wait_version(page, before + 1)
    page.focus('#pad [data-tile="4-5"]')
    page.keyboard.press("Space")
    wait_version(page, before + 2)
    page.focus("#undo")
    page.keyboard.press("Enter")
    wait_version(page, before + 3)
    assert [e["tile"] for e in page.evaluate("window.spinnerBoard.board.current.events")] == ["5-5"]
