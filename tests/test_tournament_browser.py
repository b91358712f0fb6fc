"""The director's page in real headless Chromium: register, close, start a round, watch a table's
match reach the standings by itself, enter a result by hand, the bell, and the standings board."""

from __future__ import annotations

import os
import re

import pytest

from tests.support.browser import expect, new_page
from tests.support.tournament import TEAMS, TablePhone, simulated

pytestmark = pytest.mark.slow
#: Set SPINNER_SHOTS=DIR to keep screenshots of the pages (for a person to look at).
SHOTS = os.environ.get("SPINNER_SHOTS")


def card(page, table: int):
    return page.locator(f"#round-1 .table-card[data-table='{table}']")


def test_the_director_runs_a_round_from_the_page(tournament_server, browser):
    app, clock, url = tournament_server
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(url + "/t")
    page.fill("input[name=title]", "Club night")
    page.fill("input[name=who]", "Rosa")
    page.click("text=Open registration")
    page.wait_for_selector("#registration")
    director_link = page.inner_text("#director-link")
    tournament_id = re.search(r"/t/([^/]+)/join", director_link).group(1)

    for registered, (name, (first, second)) in enumerate(TEAMS, 1):
        page.fill("#register-form input[name=name]", name)
        page.fill("#register-form input[name=player1]", first)
        page.fill("#register-form input[name=player2]", second)
        page.click("#register-form button[type=submit]")
        expect(page.locator("#teams li")).to_have_count(registered)  # the page after the form, with the team
    assert page.locator("#registration").count() == 0  # closed by itself at eight
    assert page.locator("#teams li").count() == 8

    page.goto(url + f"/t/{tournament_id}")
    page.fill("input[name=seed]", "2025")
    page.click("#start-round")
    page.wait_for_selector("#round-1")
    assert page.locator("#round-1 .table-card").count() == 4
    assert re.fullmatch(r"\d+:\d\d", page.inner_text("#clock-time").strip())
    assert page.locator("#start-round").count() == 0

    # Table 2's phone scores its match with the scorer link from the page; the result comes by itself.
    link = card(page, 2).locator("a.scorer-link").get_attribute("href")
    game_id = re.search(r"/g/([^/]+)/join", link).group(1)
    record, _ = simulated(3)
    phone = TablePhone(app, app.test_client(), {"game_id": game_id, "scorer_link": link})
    phone.play(record)
    page.wait_for_function(
        "document.querySelector(\"#round-1 .table-card[data-table='2']\")?.classList.contains('done')"
    )
    assert " won " in card(page, 2).locator(".state").inner_text()

    # The director enters table 1's result by hand, with its reason.
    one = card(page, 1)
    one.locator("summary", has_text="Enter the result by hand").click()
    one.locator("input[name=points_a]").fill("0")
    one.locator("input[name=points_b]").fill("0")
    one.locator("select[name=winner]").select_option("b")
    one.locator("input[name=reason]").fill("no-show at table 1")
    one.locator("button", has_text="Record").click()
    page.wait_for_selector("#round-1 .table-card[data-table='1'].done")
    assert "no-show at table 1" in card(page, 1).inner_text()

    # A result that cannot be: refused in words, nothing recorded.
    three = card(page, 3)
    three.locator("summary", has_text="Enter the result by hand").click()
    three.locator("input[name=points_a]").fill("50")
    three.locator("input[name=points_b]").fill("10")
    three.locator("select[name=ended]").select_option("target")
    three.locator("input[name=reason]").fill("sheet")
    three.locator("button", has_text="Record").click()
    page.wait_for_selector(".flash")
    assert "Pollona has 50 points; a match won at the target needs 100" in page.inner_text(".flash")
    assert "done" not in (card(page, 3).get_attribute("class") or "")

    # Table 3's own match page, as a viewer at the table sees it: its round, its table, the clock.
    link3 = card(page, 3).locator("a.scorer-link").get_attribute("href")
    TablePhone(
        app, app.test_client(), {"game_id": re.search(r"/g/([^/]+)/join", link3).group(1), "scorer_link": link3}
    ).play(simulated(5)[0], hands=0, events=3)
    table_page = new_page(browser, viewport={"width": 400, "height": 800})
    table_page.goto(card(page, 3).locator("a", has_text="match").get_attribute("href"))
    assert "round 1 of 4 · table 3" in table_page.inner_text("#tournament-table")
    assert re.fullmatch(r"\d+:\d\d", table_page.inner_text("#round-clock-left").strip())
    assert table_page.locator("#bell-banner").count() == 0

    # The bell: the clock on the page turns when the server's clock passes thirty minutes.
    clock.advance(minutes=30, seconds=2)
    # (null-safe: the director's page reloads itself when a table's match moves, table 3's above,
    # and a check that lands mid-reload finds no clock yet)
    page.wait_for_function("document.getElementById('clock')?.classList.contains('rung')")
    assert page.inner_text("#clock-time").strip() == "bell"
    # ...and the table's page shows the bell, though nothing was posted at the table.
    table_page.wait_for_selector("#bell-banner")
    assert table_page.inner_text("#bell-banner") == "Bell: finish the hand in play"
    if SHOTS:
        table_page.screenshot(path=f"{SHOTS}/table-bell.png", full_page=True)

    # The standings board: public, big type, and a print sheet without the page's chrome.
    board = new_page(browser, viewport={"width": 1920, "height": 1080})
    board.goto(url + f"/t/{tournament_id}/board")
    rows = board.locator(".standings tbody tr")
    assert rows.count() == 8
    assert board.locator(".standings tbody tr").first.locator(".wins").inner_text() == "1"
    # The board follows by itself, in place (a projector does not flicker): table 4 plays its match.
    board.evaluate("window.stayed = true")
    link4 = card(page, 4).locator("a.scorer-link").get_attribute("href")
    record4, answer4 = simulated(4)
    TablePhone(
        app, app.test_client(), {"game_id": re.search(r"/g/([^/]+)/join", link4).group(1), "scorer_link": link4}
    ).play(record4)
    board.wait_for_function(
        "document.querySelectorAll('.board-tables li .board-state').length === 4 && "
        "document.querySelectorAll('.board-tables li')[3].textContent.includes('won')"
    )
    assert board.evaluate("window.stayed") is True
    # the bell had rung before its first hand was played: that hand, once over, decided the match
    a, b = answer4["hands"][0]["totals"]
    assert f"won {max(a, b)}–{min(a, b)} (at the bell)" in board.locator(".board-tables li").nth(3).inner_text()
    size = float(board.eval_on_selector(".standings", "e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 40  # readable across the room
    board.emulate_media(media="print")
    assert board.eval_on_selector(".top", "e => getComputedStyle(e).display") == "none"
    assert board.eval_on_selector(".clock", "e => getComputedStyle(e).display") == "none"
    if SHOTS:
        board.screenshot(path=f"{SHOTS}/board-print.png", full_page=True)
        board.emulate_media(media="screen")
        board.screenshot(path=f"{SHOTS}/board.png", full_page=True)
        page.screenshot(path=f"{SHOTS}/director.png", full_page=True)
