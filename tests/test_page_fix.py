"""Issue 36, defects 3 and 8: a correction is made by tapping, like a play (no JSON), and so is the
settling of a dispute; an open dispute shows on the match page, for the scorer and for viewers."""

from __future__ import annotations

import pytest

from tests.support.page import SMALL, record_of, start_match, tap_and_wait, version, wait_version

pytestmark = pytest.mark.slow


def two_plays(page, url: str) -> str:
    game = start_match(page, url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')
    tap_and_wait(page, '[data-tile="6-6"]')
    tap_and_wait(page, '[data-tile="5-6"]')  # Ben, beside the lone spinner: one end, one tap
    return game


def open_fix(page, play: int) -> None:
    page.click(f'#board-bottom .fix[data-event="{play - 1}"]')
    page.wait_for_selector("#fix-dialog[open]")


def test_a_correction_of_a_pass_names_it_by_its_kind_not_as_a_play(live_server, open_page):
    page = open_page(SMALL)
    start_match(page, live_server.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')
    tap_and_wait(page, '[data-tile="6-6"]')
    tap_and_wait(page, "#pass")  # Ben passes
    open_fix(page, 2)
    assert page.inner_text("#fix-title") == "Correct: Hand 1, no. 2 (a pass)"
    assert page.get_attribute('#board-bottom .fix[data-event="1"]', "aria-label") == "Correct no. 2: Ben passed"


def test_a_correction_is_tapped_not_typed(live_server, open_page):
    page = open_page(SMALL)
    game = two_plays(page, live_server.url)
    open_fix(page, 2)
    assert page.locator("#fix-dialog textarea").count() == 0
    assert page.inner_text("#fix-title") == "Correct: Hand 1, play 2"
    assert page.inner_text("#fix-now") == "Recorded now: Ben played 5-6 on the west"
    # What the table agrees: Ben played 4-6, on the west.
    assert page.get_attribute('[data-fix-seat="1"]', "aria-checked") == "true"
    page.click('[data-fix-tile="4-6"]')
    assert page.get_attribute('[data-fix-end="west"]', "aria-checked") == "true"  # as recorded
    page.fill("#fix-why", "it was the 4-6")
    before = version(page)
    page.click("#fix-save")
    wait_version(page, before + 1)
    page.wait_for_selector("#fix-dialog", state="hidden")
    assert record_of(page, game)["hands"][0]["events"][1] == {"type": "play", "seat": 1, "tile": "4-6", "end": "west"}
    assert page.locator(".plays li .what").first.inner_text().startswith("4-6")
    # The dialog fits the small phone: nothing runs off its side.
    open_fix(page, 2)
    box = page.locator("#fix-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320
    assert page.evaluate(
        "(() => { const d = document.getElementById('fix-dialog'); return d.scrollWidth <= d.clientWidth; })()"
    )
    page.click("#fix-cancel")


def test_a_correction_to_a_pass_and_a_refusal_in_words(live_server, open_page):
    page = open_page(SMALL)
    game = two_plays(page, live_server.url)
    open_fix(page, 2)
    page.click('[data-kind="pass"]')
    assert page.locator("#fix-tiles").is_hidden()
    page.fill("#fix-why", "Ben passed")
    page.click("#fix-save")  # a pass by Ben there leaves nothing to show for 5-6: still legal in partners
    page.wait_for_selector("#fix-dialog", state="hidden")
    assert record_of(page, game)["hands"][0]["events"][1] == {"type": "pass", "seat": 1}
    open_fix(page, 1)
    page.click('[data-fix-tile="1-2"]')
    page.fill("#fix-why", "not 6-6")
    page.click("#fix-save")  # partners' first lead is 6-6: refused, in words, and the dialog stays
    page.wait_for_function("document.getElementById('fix-error').textContent.length > 0")
    said = page.inner_text("#fix-error")
    assert "The lead must be 6-6, not 1-2." in said and "seat" not in said
    assert page.locator("#fix-dialog[open]").count() == 1


def test_a_dispute_shows_on_the_match_page_and_is_settled_by_tapping(live_server, open_page):
    page = open_page(SMALL)
    game = two_plays(page, live_server.url)
    viewer = open_page(SMALL)
    viewer.goto(page.locator(".share .link a").first.get_attribute("href"))
    viewer.wait_for_function("document.getElementById('live').textContent === 'live'")

    open_fix(page, 2)
    page.fill("#fix-why", "Dee says it was the 3-6")
    before = version(page)
    page.click("#fix-dispute")
    wait_version(page, before + 1)
    for phone in (page, viewer):
        phone.wait_for_selector("#open-disputes")
        said = " ".join(phone.inner_text("#open-disputes").split())
        assert "Disputed Hand 1, play 2 (Ben played 5-6 on the west): “Dee says it was the 3-6”" in said
    assert viewer.locator("#open-disputes .settle").is_hidden()  # viewers see it; the scorer settles it

    page.click("#open-disputes .settle")
    page.wait_for_selector("#fix-dialog[open]")
    assert page.inner_text("#fix-title") == "Settle the dispute: Hand 1, play 2"
    assert page.locator("#fix-remove").is_hidden() and page.locator("#fix-stands").is_visible()
    page.click('[data-fix-seat="3"]')
    page.click('[data-fix-tile="3-6"]')
    page.fill("#fix-why", "Dee was right")
    before = version(page)
    page.click("#fix-save")
    wait_version(page, before + 2)  # the correction, then the settling
    page.wait_for_selector("#open-disputes", state="detached")
    viewer.wait_for_selector("#open-disputes", state="detached")
    assert record_of(page, game)["hands"][0]["events"][1] == {"type": "play", "seat": 3, "tile": "3-6", "end": "west"}


def test_the_chosen_player_shows_in_the_correction(live_server, open_page):
    """The ✎ dialog's seats are radios (aria-checked): the chosen one must look chosen."""
    page = open_page(SMALL)
    two_plays(page, live_server.url)
    open_fix(page, 2)

    def backgrounds() -> list[str]:
        return page.eval_on_selector_all(
            "#fix-dialog [data-fix-seat]", "bs => bs.map(b => getComputedStyle(b).backgroundColor)"
        )

    seats = backgrounds()
    assert page.get_attribute('[data-fix-seat="1"]', "aria-checked") == "true"
    assert seats[1] != seats[0] and seats[0] == seats[2] == seats[3]
    page.click('[data-fix-seat="3"]')  # re-assigned to Dee: the feedback moves with it
    page.wait_for_selector('[data-fix-seat="3"][aria-checked="true"]')
    seats = backgrounds()
    assert seats[3] != seats[1] and seats[0] == seats[1] == seats[2]


def test_a_correction_a_later_play_no_longer_fits_offers_to_take_it_back(live_server, open_page):
    """Probe (phone), finding 7: the refusal says what to do, and the dialog offers to do it."""
    page = open_page(SMALL)
    game = two_plays(page, live_server.url)  # Ana 6-6, Ben 5-6 on the west
    tap_and_wait(page, '[data-tile="2-6"]')  # Cruz, on the east (west and east come first)
    tap_and_wait(page, '[data-tile="2-3"]')  # Dee, on the east: it shows 2
    open_fix(page, 3)  # it was Cruz's 1-6, not 2-6: then Dee's 2-3 fits nowhere it was laid
    page.click('[data-fix-tile="1-6"]')
    page.fill("#fix-why", "it was the 1-6")
    page.click("#fix-save")
    page.wait_for_selector("#fix-take-back", state="visible")
    assert page.inner_text("#fix-error") == (
        "Hand 1: with play 3 corrected to Cruz played 1-6 on the east, play 4 (Dee played 2-3 on the east) no longer "
        "fits: 2-3 does not fit the east end: it shows 1. Take it back with the correction, then tap it again if it was played."
    )
    assert page.inner_text("#fix-take-back") == "Correct play 3 and take back play 4"
    assert len(record_of(page, game)["hands"][0]["events"]) == 4  # nothing changed yet
    before = version(page)
    page.click("#fix-take-back")
    wait_version(page, before + 2)
    page.wait_for_selector("#fix-dialog", state="hidden")
    events = record_of(page, game)["hands"][0]["events"]
    assert [(e["seat"], e["tile"], e.get("end")) for e in events] == [
        (0, "6-6", None),
        (1, "5-6", "west"),
        (2, "1-6", "east"),
    ]
    page.wait_for_function("document.getElementById('tiles-hint').textContent === 'Dee: tap the tile played'")
    # a new draft in the dialog is a new correction: the offer made for the last one goes
    open_fix(page, 3)
    assert page.locator("#fix-take-back").is_hidden()
    page.click("#fix-cancel")
