"""Issue 36, defect 8: the resume list tells matches apart (title, score, date; rename and delete
for the scorer); the board's unchanged answers (304) are no failed requests; offline, the page
does not say "live"."""

from __future__ import annotations

import pytest

from tests.support.page import PHONE, import_record, start_match, tap_and_wait
from tests.support.records import SIX_BLOCK_PLAYS, hand, pass_, pips, record

pytestmark = pytest.mark.slow

SCORED = record(
    "partners",
    hand(*SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1), pips(0, 20), pips(1, 25), pips(2, 20), pips(3, 25)),
)


def lines(page) -> list[str]:
    return [" ".join(t.split()) for t in page.locator(".games li.game > a").all_inner_texts()]


def test_the_resume_list_shows_title_score_and_date_and_the_scorer_renames_and_deletes(live_server, open_page):
    page = open_page(PHONE)
    import_record(page, live_server.url, SCORED)
    start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives", title="Friday")
    page.goto(live_server.url + "/")
    shown = lines(page)
    assert len(shown) == 2 and shown[0].startswith("Friday 0 – 0 All fives · ")
    assert shown[1].startswith("Ana & Cruz v Ben & Dee 50 – 10 Partners · ")
    assert page.locator(".games time").count() == 2
    other = open_page(PHONE)  # another phone sees the public list, and may not rename nor delete
    other.goto(live_server.url + "/")
    assert len(lines(other)) == 2 and other.locator(".games .manage").count() == 0

    second = page.locator(".games li.game").nth(1)
    second.locator("summary").click()
    second.locator('input[name="title"]').fill("Club night")
    second.locator("button", has_text="Rename").click()
    page.wait_for_function("document.querySelector('.games').textContent.includes('Club night')")
    assert lines(page)[0].startswith("Club night 50 – 10")  # renamed just now: first

    first = page.locator(".games li.game").first
    first.locator("summary").click()
    first.locator('input[name="sure"]').check()
    first.locator("button", has_text="Delete").click()
    page.wait_for_function("document.querySelectorAll('.games li.game').length === 1")
    assert lines(page)[0].startswith("Friday")


def test_an_unchanged_board_is_not_a_failed_request(live_server, open_page):
    page = open_page(PHONE)
    # What the page's own scripts get back from the board (fetch), and what the console says.
    page.add_init_script("""
        window.boardAnswers = [];
        const fetched = window.fetch;
        window.fetch = async (...args) => {
            const response = await fetched(...args);
            if (String(args[0]).endsWith('/board')) window.boardAnswers.push(response.status);
            return response;
        };""")
    complaints = []
    page.on("console", lambda message: complaints.append(message.text) if message.type == "error" else None)
    start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    for _ in range(3):
        page.evaluate("window.spinnerBoard.refresh()")
    answers = page.evaluate("window.boardAnswers")
    assert len(answers) == 3 and set(answers) == {200}
    assert complaints == []


def test_offline_the_page_says_so_and_comes_back_live(live_server, open_page):
    page = open_page(PHONE)
    start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    page.wait_for_function("document.getElementById('live').textContent === 'live'")
    page.context.set_offline(True)
    page.wait_for_function("document.getElementById('live').dataset.state === 'offline'")
    assert page.inner_text("#live") == "offline: the board may be behind"
    page.context.set_offline(False)
    page.wait_for_function("document.getElementById('live').textContent === 'live'")
    page.click('.seat[data-seat="0"]')
    tap_and_wait(page, '[data-tile="5-5"]')  # and the pad still scores
