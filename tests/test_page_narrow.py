"""A new player's phone (360 and 412 px wide): long names never make a page scroll sideways, the
pad's player buttons tell two similar names apart, and every label fits its button."""

from __future__ import annotations

import pytest

from tests.support.page import import_record
from tests.support.records import SIX_BLOCK_PLAYS, hand, pass_, pips, record

pytestmark = pytest.mark.slow

#: The longest name a player may have (webapp/schemas.py NAME_LENGTH), without a space to wrap at.
LONGEST = "Bartholomewmaximilianoalejandrofernandez"
NAMES = ["Maximiliano Alejandro", "Guadalupe Fernández", LONGEST, "Christopher"]
NARROW = {"360": {"width": 360, "height": 740}, "412": {"width": 412, "height": 915}}


def phone(width: str) -> dict:
    return {"viewport": NARROW[width], "has_touch": True, "is_mobile": True}


def sideways(page) -> int:
    """How far the page scrolls sideways (0: not at all). The phone's width, not innerWidth: a
    mobile browser widens its layout viewport (zooming out) to fit a page that runs over."""
    screen = page.viewport_size["width"]
    return page.evaluate(f"Math.max(document.documentElement.scrollWidth, window.innerWidth) - {screen}")


def long_names_match(page, url: str) -> None:
    """A match with a scored hand (totals, the table, the chart's legend) and one in play."""
    rec = record(
        "partners",
        hand(
            *SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1), pips(0, 20), pips(1, 25), pips(2, 20), pips(3, 25)
        ),
        hand(),
    )
    rec["players"] = NAMES
    import_record(page, url, rec)
    page.wait_for_selector("#pad[data-ready]")


@pytest.mark.parametrize("width", list(NARROW))
def test_long_names_never_scroll_the_page_sideways(live_server, open_page, width):
    page = open_page(phone(width))
    long_names_match(page, live_server.url)
    assert page.locator(".side .name").first.is_visible()
    assert sideways(page) <= 0, "the match page scrolls sideways"
    page.click("#cam-seating summary")  # the seating's selects list every name
    assert sideways(page) <= 0, "the camera's seating scrolls sideways"
    page.goto(live_server.url + "/")  # the front page lists the match to resume
    page.wait_for_selector(".games li")
    assert sideways(page) <= 0, "the front page scrolls sideways"
    start = page.locator("#new-match button[type=submit]").bounding_box()
    assert start and start["x"] >= 0 and start["x"] + start["width"] <= NARROW[width]["width"]


def test_two_similar_names_can_be_told_apart_on_the_pad(live_server, open_page):
    page = open_page(phone("360"))
    rec = record("partners", hand())
    rec["players"] = ["Maria José", "Maria Luisa", "Ana", LONGEST]
    import_record(page, live_server.url, rec)
    page.wait_for_selector("#pad[data-ready]")
    # Each name whole on its button (on two lines if need be): not clipped to "Maria…".
    for seat in (0, 1):
        clipped = page.eval_on_selector(
            f'#pad .seat[data-seat="{seat}"] .nm',
            "e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1",
        )
        assert not clipped, f"seat {seat}'s name is cut"
    assert sideways(page) <= 0


@pytest.mark.parametrize("width", list(NARROW))
def test_a_spanish_page_says_it_all_in_spanish_and_fits(live_server, open_page, width):
    page = open_page(phone(width), locale="es-ES")
    page.goto(live_server.url + "/")
    # new.js's hint under the game, in the page's language
    assert page.inner_text("#variant-hint") == "4 jugadores."
    page.select_option("#variant", "all-fives")
    assert page.inner_text("#variant-hint").startswith("De 2 a 4 jugadores")
    for seat, name in enumerate(["Ana", "Ben"]):
        page.fill(f'.player[data-seat="{seat}"] input', name)
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#pad[data-ready]")
    # the layout shows no tile yet; who leads with what is the status line's (La mesa elige quién sale…)
    assert page.inner_text("#board .picture") == "aún no se jugó ninguna ficha"
    assert page.inner_text(".status .say") == "La mesa elige quién sale, con cualquier ficha"
    # every label of the pad's action buttons inside its button ("Deshacer" spilled at 412 px)
    spilled = page.eval_on_selector_all(
        "#pad .actions button:not([hidden])", "bs => bs.filter(b => b.scrollWidth > b.clientWidth).map(b => b.id)"
    )
    assert spilled == []
    assert sideways(page) <= 0


def test_the_new_match_form_fits_and_says_what_opens(live_server, open_page):
    page = open_page(phone("360"))
    page.goto(live_server.url + "/")
    # Each game's name fits the select (no "Partners (fives, spinner; 4 in te…"); the rest is said below.
    too_wide = page.evaluate(
        """() => {
            const select = document.getElementById('variant');
            const pen = document.createElement('canvas').getContext('2d');
            pen.font = getComputedStyle(select).font;
            const room = select.clientWidth - 40; // the arrow and the padding
            return Array.from(select.options).filter(o => pen.measureText(o.text).width > room).map(o => o.text);
        }"""
    )
    assert too_wide == []
    assert page.inner_text("#variant-details") == "fives, spinner; 4 in teams, 250"
    page.select_option("#variant", "draw")
    assert page.inner_text("#variant-details") == "2–4 alone"
    # The house rules show that they open: a marker before the summary, turned when open.
    marker = "getComputedStyle(document.querySelector('details.options > summary'), '::before').content"
    closed = page.evaluate(marker)
    assert closed not in ("none", "normal", "")
    page.click("details.options summary")
    assert page.evaluate(marker) != closed
    # Sniff, as RULES.md defines it: the spinner keeps counting while a side is open.
    page.select_option("#variant", "partners")
    sniff = page.inner_text('[data-option="sniff"]')
    assert "spinner counts while a side is open" in sniff and "crosswise" not in sniff


@pytest.mark.parametrize(
    ("variant", "ends"), [("draw", ["west", "east"]), ("all-fives", ["west", "north", "south", "east"])]
)
def test_only_a_game_with_a_spinner_shows_north_and_south(live_server, open_page, variant, ends):
    page = open_page(phone("360"))
    page.goto(live_server.url + "/")
    page.select_option("#variant", variant)
    for seat, name in enumerate(["Ana", "Ben"]):
        page.fill(f'.player[data-seat="{seat}"] input', name)
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#pad[data-ready]")
    shown = page.eval_on_selector_all("#pad .end", "bs => bs.filter(b => b.offsetParent).map(b => b.dataset.end)")
    assert shown == ends
    fix_ends = page.eval_on_selector_all("#fix-dialog [data-fix-end]", "bs => bs.map(b => b.dataset.fixEnd)")
    assert fix_ends == ends
