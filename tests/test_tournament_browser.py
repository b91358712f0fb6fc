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


#: The probe's projector board: table 4 was ドミノ v الدومينو at 74–36 and read "ドミノ v 36–74 · الدومينو".
RIGHT_TO_LEFT = [
    ("ドミノ", ("Haruto", "Yui")),
    ("الدومينو", ("سامي", "ليلى")),
    ("Capicúa", ("Elena", "Fito")),
    ("La Tranca", ("Gina", "Hugo")),
]

#: Where, on the screen, the first character of each side of the live score "a–b" lies, left to right.
SCORE_XS = """([a, b]) => {
  const li = [...document.querySelectorAll('.board-tables li')].find((el) => el.textContent.includes('الدومينو'));
  const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  const score = `${a}–${b}`;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(score);
    if (at < 0) continue;
    const range = document.createRange();
    const x = (i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect().left; };
    return [x(at), x(at + String(a).length + 1)];
  }
  return null;
}"""


def _uneven_start() -> tuple[dict, int, tuple[int, int]]:
    """A simulated match and a number of hands after which both teams have points, unequal, below 100."""
    for seed in range(40):
        record, answer = simulated(seed)
        for k, hand in enumerate(answer["hands"], 1):
            a, b = hand["totals"]
            if 0 < min(a, b) and a != b and max(a, b) < 100:
                return record, k, (a, b)
    raise AssertionError("no simulated match with both teams on points")


def test_a_right_to_left_name_keeps_the_score_beside_it_in_order(tournament_server, browser):
    """Finding 2 of the director's probe: every name a player typed is its own <bdi>, so the live
    score after an Arabic team name reads in its own order on the projector."""
    from tests.support.tournament import Director

    app, _clock, url = tournament_server
    client = app.test_client()
    director = Director(client, client.post("/api/tournaments", json={"title": "ليلة الدومينو"}).get_json())
    director.register_all(RIGHT_TO_LEFT)
    assert director.post("/close").status_code == 200
    assert director.post("/rounds", {"seed": 1}).status_code == 201
    table = next(t for t in director.tables() if "الدومينو" in (t["team_a"], t["team_b"]))
    record, hands, totals = _uneven_start()
    TablePhone(app, client, table).play(record, hands=hands)
    assert director.tables()[table["table"] - 1]["score"] == list(totals)

    board = new_page(browser, viewport={"width": 1600, "height": 900})
    board.goto(url + f"/t/{director.id}/board")
    line = board.locator(".board-tables li").nth(table["table"] - 1)
    # the DOM: each team name its own <bdi>, and the title too
    assert line.locator("bdi").all_inner_texts() == [table["team_a"], table["team_b"]]
    assert board.locator("h1.board-title bdi").inner_text() == "ليلة الدومينو"
    assert "الدومينو" in board.locator(".standings bdi").all_inner_texts()
    # the rendering: the first team's points are drawn left of the second's, as in the score's own text
    a, b = totals
    left_a, left_b = board.evaluate(SCORE_XS, [a, b])
    assert left_a < left_b, f"the board draws {a}–{b} as {b}–{a}"
    if SHOTS:
        board.screenshot(path=f"{SHOTS}/board-right-to-left.png", full_page=True)
