"""twelve, the memory game, on the phone: the New match form offers it for one player, and the
scorer taps the two tiles turned (a pair of 12 removed, any other turned back), with Undo."""

from __future__ import annotations

import time

import pytest

from tests.support.page import PHONE, answer_of, api, axe_findings, record_of, version

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


def new_game(page, url: str, sets: str = "") -> str:
    page.goto(url + "/")
    page.select_option("#variant", "twelve")
    page.fill('.player[data-seat="0"] input', "Ana")
    if sets:
        page.select_option('select[name="sets"]', label=sets)
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#twelve-pad[data-ready]")
    return page.locator("#board").get_attribute("data-game")


def taps(page, *tiles: str, gap_ms: int = 80) -> None:
    """Tap the tiles `gap_ms` apart, as a fast scorer does, whatever is being sent meanwhile (the
    page taps itself: the test's own calls wait on the slowed requests)."""
    page.evaluate(
        """([tiles, gap]) => new Promise((done) => {
            tiles.forEach((tile, n) => setTimeout(() => {
                document.querySelector(`#flips [data-tile="${tile}"]`).click();
                if (n === tiles.length - 1) done();
            }, n * gap));
        })""",
        [list(tiles), gap_ms],
    )


def chosen(page, tile: str, copy: int = 0) -> bool:
    return "chosen" in page.get_attribute(f'#flips [data-tile="{tile}"][data-copy="{copy}"]', "class")


def flips(page, game: str) -> list[list[str]]:
    return [e["tiles"] for e in record_of(page, game)["hands"][0]["events"]]


def test_taps_made_while_an_attempt_is_sent_wait_their_turn(live_server, open_page):
    """Probe (page_fasttap2): on a slow network the scorer taps 6-6, 0-0, then 5-6 while that flip
    is being sent; 5-6 was dropped (let go when this phone's own flip came back), the next taps paired
    up wrong and ["0-1", "4-6"] was recorded, an attempt never made."""
    page = open_page(PHONE)
    game = new_game(page, live_server.url)
    before = version(page)

    def slowly(route) -> None:  # a phone's network: each flip takes 300 ms to get there
        time.sleep(0.3)
        route.continue_()

    page.route("**/events", slowly)
    taps(page, "6-6", "0-0", "5-6")
    wait_version(page, before + 1)
    # 5-6, tapped while 6-6 and 0-0 were on their way, is still the attempt's first tile
    assert chosen(page, "5-6")
    assert page.inner_text("#twelve-hint") == "5-6 turned: tap the second tile"
    taps(page, "0-1", "4-6", "0-2")  # the second attempt is sent while the third is tapped
    wait_version(page, before + 3)
    assert flips(page, game) == [["6-6", "0-0"], ["5-6", "0-1"], ["4-6", "0-2"]]
    assert not any(chosen(page, t) for t in ("6-6", "0-0", "5-6", "0-1", "4-6", "0-2"))
    assert page.inner_text("#twelve-hint") == "4-6 and 0-2 make 12: removed. Turn two more"


def test_a_tile_chosen_is_let_go_in_words_when_another_phone_records_a_flip(live_server, open_page):
    """Probe (page_twelve2): another phone's flip silently let go of this phone's first tile."""
    page = open_page(PHONE)
    new_game(page, live_server.url)
    page.click('#flips [data-tile="1-1"]')
    assert chosen(page, "1-1")
    before = version(page)
    assert api(page, "POST", "/events", {"type": "flip", "tiles": ["3-3", "4-5"]})["status"] == 201  # another phone
    wait_version(page, before + 1)
    assert not chosen(page, "1-1")
    assert page.inner_text("#twelve-hint") == "1-1 was let go: another phone recorded a flip; tap 1-1 again"
    # and where the other phone's flip removed it
    page.click('#flips [data-tile="6-6"]')
    assert api(page, "POST", "/events", {"type": "flip", "tiles": ["6-6", "0-0"]})["status"] == 201
    wait_version(page, before + 2)
    assert page.inner_text("#twelve-hint") == "6-6 was let go: another phone recorded it removed."
    # this phone's own attempt keeps nothing chosen that it did not tap
    page.click('#flips [data-tile="1-1"]')
    page.click('#flips [data-tile="2-2"]')
    wait_version(page, before + 3)
    assert page.inner_text("#twelve-hint") == "1-1 and 2-2 do not make 12: turned back. Turn two more"


def test_the_choice_of_sets_is_in_sight_when_twelve_is_chosen(live_server, open_page):
    """Probe (page_sets): the one set / two sets choice hid inside the closed "House rules"."""
    page = open_page(PHONE)
    page.goto(live_server.url + "/")
    assert page.locator('select[name="sets"]').is_hidden()  # not the default game's
    assert page.locator("details.options").is_visible()
    page.select_option("#variant", "twelve")
    assert page.locator('select[name="sets"]').is_visible()  # in sight, nothing to unfold
    assert page.locator("details.options").is_hidden()  # twelve has no other house rule
    page.select_option("#variant", "partners")
    assert page.locator('select[name="sets"]').is_hidden() and page.locator("details.options").is_visible()


def test_with_two_sets_the_copy_tapped_is_the_one_removed(live_server, open_page):
    """Probe (page_sets): with two sets, the first 6-6 of a removed pair left its button and faded
    the other copy's."""
    page = open_page(PHONE)
    game = new_game(page, live_server.url, sets="two sets, 56 tiles")
    assert page.locator("#flips .flipbtn").count() == 56
    before = version(page)
    page.click('#flips [data-tile="6-6"][data-copy="0"]')
    page.click('#flips [data-tile="0-0"][data-copy="1"]')
    wait_version(page, before + 1)

    def removed(tile: str, copy: int) -> bool:
        return "removed" in page.get_attribute(f'#flips [data-tile="{tile}"][data-copy="{copy}"]', "class")

    assert removed("6-6", 0) and not removed("6-6", 1)
    assert removed("0-0", 1) and not removed("0-0", 0)
    assert answer_of(page, game)["face_down"]["6-6"] == 1
    page.click("#twelve-undo")
    wait_version(page, before + 2)
    assert not any(removed(t, c) for t in ("6-6", "0-0") for c in (0, 1))


def test_a_player_named_beyond_latin_1_still_records_each_attempt(live_server, open_page):
    """The name for the history went in a header, which holds Latin-1 only: fetch refused every
    attempt of a player called "Łukasz" (words.js now sends it as RFC 8187 has it)."""
    page = open_page(PHONE)
    page.goto(live_server.url + "/")
    page.select_option("#variant", "twelve")
    page.fill('.player[data-seat="0"] input', "Łukasz")
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#twelve-pad[data-ready]")
    game = page.locator("#board").get_attribute("data-game")
    page.fill("#who", "Łukasz")
    page.dispatch_event("#who", "change")
    turn(page, "6-6", "0-0")
    changes = page.evaluate(f"fetch('/api/games/{game}/history').then(r => r.json())")["changes"]
    assert changes[-1]["action"] == "event" and changes[-1]["who"] == "Łukasz"
