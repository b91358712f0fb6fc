"""A new player's phone (the probe of /tmp/probe-phone, findings 8 to 12): the words a newcomer
reads. The first lead said once, as the variant's rule has it; what a hand scored, all told; what
"Show tiles" recorded and whose tiles come next; the count a disputed play made and the ends that
made it; hidden tiles that cannot pass for points; the ends' buttons that say which arm is which;
the house rules' defaults; the play order; Undo with nothing to undo; and names and tile names that
never break inside themselves on a 360 px phone."""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from tests.support.page import api, import_record, start_match, tap_and_wait, version, wait_version
from tests.support.records import LOW_TEAM0, SIX_BLOCK_PLAYS, hand, pass_, pips, play, record, six_block
from tests.test_webapp_pages import csrf_of, new_match

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
PROBE_NAMES = ["Maria", "Jose", "Luis", "Carmen"]


def text(page: str) -> str:
    """The page's words: tags out, spaces as one."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def status(page: str) -> str:
    return text(re.search(r'<p class="say">(.*?)</p>', page, re.S).group(1))


def imported(client, rec: dict) -> str:
    token = csrf_of(client.get("/").text)
    response = client.post(
        "/import", data={"csrf_token": token, "record": (io.BytesIO(json.dumps(rec).encode()), "m.json")}
    )
    assert response.status_code == 302, response.text
    return response.headers["Location"].rsplit("/", 1)[-1]


# -- 8: the first lead, said once --------------------------------------------------------------


def test_partners_first_lead_is_said_once_as_the_rules_have_it(client):
    page = client.get(f"/g/{new_match(client)}").text
    assert status(page) == "Whoever holds 6-6 leads it"
    # the layout does not contradict it ("lead any tile"), nor say it again
    picture = re.search(r'<div class="picture".*?</div>', page, re.S).group(0)
    assert text(picture) == "no tile played yet"
    assert "lead any tile" not in page and "Tap who leads" not in status(page)
    # a tile's name in the status line never breaks at its hyphen
    assert '<span class="tn">6-6</span>' in page


@pytest.mark.parametrize(
    ("variant", "players", "said"),
    [
        ("all-fives", ["Ana", "Ben"], "The table picks who leads, with any tile"),
        ("cross", ["Ana", "Ben"], "Whoever holds the highest double leads it"),  # 14 tiles of 28 dealt
        ("cross", ["Ana", "Ben", "Cruz", "Dee"], "Whoever holds 6-6 leads it"),  # all 28 dealt
    ],
)
def test_each_variant_says_its_own_first_lead(client, variant, players, said):
    page = client.get(f"/g/{new_match(client, variant=variant, player=players)}").text
    assert status(page) == said


def test_a_later_hand_names_its_leader_and_what_they_may_lead(client):
    rec = record(
        "partners",
        hand(
            *SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1), pips(0, 25), pips(1, 20), pips(2, 25), pips(3, 20)
        ),
        hand(),
    )
    assert status(client.get(f"/g/{imported(client, rec)}").text) == "Ben leads, with any tile"


# -- 9: what a hand scored ---------------------------------------------------------------------


def test_the_end_of_a_hand_says_what_the_winners_scored_in_it_all_told(client):
    # 6-4 made 10 for Ben & Dee in play; blocked, they hold the fewer pips (40 to 50): 50 more
    rec = record(
        "partners",
        hand(
            *SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1), pips(0, 25), pips(1, 20), pips(2, 25), pips(3, 20)
        ),
    )
    game = imported(client, rec)
    page = client.get(f"/g/{game}").text
    assert status(page) == "Hand over: Ben & Dee score 60 in this hand (10 in play, 50 for the pips left)"
    assert client.get(f"/api/games/{game}/score").get_json()["totals"] == [0, 60]
    board = client.get(f"/api/games/{game}/board").get_json()
    assert board["current"]["scored"] == {"total": 60, "plays": 10, "bonus": 50, "adjusted": 0}


def test_a_hand_scored_in_one_part_says_it_once(client):
    rec = record(
        "partners",
        hand(
            *SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1), pips(0, 20), pips(1, 25), pips(2, 20), pips(3, 25)
        ),
    )
    page = client.get(f"/g/{imported(client, rec)}").text
    assert status(page) == "Hand over: Ana & Cruz score 50 in this hand"


# -- 10: what a disputed play made ---------------------------------------------------------------


def test_a_dispute_carries_the_count_the_play_made_and_its_ends(client):
    game = imported(client, record("partners", hand(*SIX_BLOCK_PLAYS[:8])))
    page = client.get(f"/g/{game}").text
    response = client.post(
        f"/api/games/{game}/disputes",
        json={"hand": 0, "event": 7, "why": "Dee says the 6-4 made 15"},
        headers={"X-CSRF-Token": csrf_of(page)},
    )
    assert response.status_code == 201, response.text
    board = client.get(f"/api/games/{game}/board").get_json()
    made = board["disputes"][0]["made"]
    assert made["count"] == 10
    assert sum(n for _, _, n in made["terms"]) == 10
    assert ["east", "4-6", 4] in made["terms"]  # the 6-4 itself: its east end shows 4
    assert made["ends"] == {"west": 6, "east": 4, "north": 6, "south": 6}
    # the card keeps each tile's name whole, in the players' words and in the reason given
    card = client.get(f"/g/{game}").text
    assert 'played <span class="tn">6-4</span> on the east' in card and 'the <span class="tn">6-4</span> made' in card


# -- 11: hidden tiles, the ends, the form, Undo --------------------------------------------------


def test_tiles_not_drawn_are_said_in_words_never_as_plus_points(app):
    from flask_babel import force_locale

    from scorer import Match
    from webapp.picture import layout_svg

    rec = record("partners", hand(*SIX_BLOCK_PLAYS))
    layout = Match.from_record(rec, open_last=True).current.layout
    with app.test_request_context(), force_locale("en"):
        svg = layout_svg(layout, layout.open_ends())
    more = re.findall(r'<text class="more"[^>]*>(.*?)</text>', svg)
    # "not drawn" read as not taken from the boneyard, in a draw game: the tiles are not pictured
    assert more and all(re.fullmatch(r"<title>(\d+) more tiles?, not shown</title>\1 tiles?", m) for m in more), more
    assert "not drawn" not in svg
    assert not re.search(r">\+\d", svg)
    with app.test_request_context(), force_locale("es"):
        spanish = layout_svg(layout, layout.open_ends())
        assert "fichas</text>" in spanish and "fichas más, sin mostrar</title>" in spanish


@pytest.mark.parametrize(
    ("variant", "players", "said", "dicho"),
    [
        # RULES.md: "a single highest score over 100 wins", so exactly 100 does not
        ("all-fives-bonus", ["Ana", "Ben"], "over 100", "más de 100"),
        ("draw", ["Ana", "Ben"], "to 50", "a 50"),  # reaching the target wins
        ("partners", ["Ana", "Ben", "Cruz", "Dee"], "to 250", "a 250"),
    ],
)
def test_the_board_says_whether_the_target_is_reached_or_passed(client, variant, players, said, dicho):
    game = new_match(client, variant=variant, player=players)
    target = re.compile(r'<p class="target">(.*?)</p>')
    assert target.search(client.get(f"/g/{game}").text).group(1) == said
    spanish = client.get(f"/g/{game}", headers={"Accept-Language": "es"}).text
    assert target.search(spanish).group(1) == dicho
    form = client.get("/").text  # the new-match form's "blank: the game's own" says the same
    own = re.search(rf'<option value="{variant}"[^>]* data-target="([^"]*)"', form).group(1)
    assert own == ("over 100" if variant == "all-fives-bonus" else own)


def test_the_ends_buttons_point_the_way_their_arm_lies(client):
    page = client.get(f"/g/{new_match(client)}").text
    for end, arrow in (("west", "←"), ("north", "↑"), ("south", "↓"), ("east", "→")):
        button = re.search(rf'<button type="button" class="end" data-end="{end}"[^>]*>(.*?)</button>', page).group(1)
        assert f'<span class="arrow" aria-hidden="true">{arrow}</span> {end}' in button


def test_undo_waits_for_something_to_undo(client):
    game = new_match(client)
    page = client.get(f"/g/{game}").text
    assert re.search(r'<button [^>]*id="undo" disabled>', page)
    assert client.get(f"/api/games/{game}/board").get_json()["pad"]["can_undo"] is False
    client.post(f"/api/games/{game}/events", json=play(0, "6-6"), headers={"X-CSRF-Token": csrf_of(page)})
    assert client.get(f"/api/games/{game}/board").get_json()["pad"]["can_undo"] is True
    assert not re.search(r'id="undo" disabled', client.get(f"/g/{game}").text)


def test_the_form_says_each_default_and_which_way_play_goes(client):
    page = client.get("/").text
    # partners is chosen: its own target and each house rule's default, in words
    assert "(blank: the game's own, 250)" in page
    assert "the losers' pips (the game's default)" in text(page)
    assert "counter-clockwise" in page
    # each game's defaults ride on its option, for new.js
    draw = re.search(r'<option value="draw"[^>]*>', page).group(0)
    assert 'data-target="50 with 2 players, 100 with 3–4 players"' in draw


# -- filters: names that wrap between words, tile names whole ---------------------------------------


def test_a_name_is_fitted_by_its_longest_word(app):
    from webapp.pages import name_fit, tiles_whole

    assert name_fit("Ana") == "" and name_fit("Maria José") == ""
    assert name_fit("Carmen") == "fit6" and name_fit("Guadalupe Fernández") == "fit9"
    assert name_fit("Bartholomewmaximilianoalejandrofernandez") == "fit12"
    assert str(tiles_whole("Carmen played 1-1 <b>")) == 'Carmen played <span class="tn">1-1</span> &lt;b&gt;'
    assert str(tiles_whole("10-12 and 2-34")) == "10-12 and 2-34"  # not tiles


# -- in the browser: the pad's words, the settle dialog, a 360 px phone ------------------------------


def lines_of(page, selector: str) -> int:
    """How many lines the text of `selector` takes."""
    return page.eval_on_selector(
        selector,
        """e => { const r = document.createRange(); r.selectNodeContents(e);
                 return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; }""",
    )


@pytest.mark.slow
def test_the_pad_says_the_lead_as_the_rules_have_it(live_server, open_page):
    page = open_page(PHONE_360)
    start_match(page, live_server.url, PROBE_NAMES)
    hint = page.locator("#tiles-hint")
    assert hint.inner_text() == "Tap who holds 6-6, then 6-6"
    assert page.locator("#undo").is_disabled()
    page.click('#pad [data-tile="6-6"]')  # the tile before the player: said what to do
    assert hint.inner_text() == "Who led 6-6? Tap them first, then 6-6 again."
    page.click('.seat[data-seat="3"]')
    assert hint.inner_text() == "Carmen leads: tap 6-6"
    tap_and_wait(page, '#pad [data-tile="6-6"]')
    assert page.locator("#undo").is_enabled()
    # Carmen on one line of her button at 360 px ("Carme / n" before), each seat's name whole
    for seat in range(4):
        assert lines_of(page, f'#pad .seat[data-seat="{seat}"] .nm') == 1, PROBE_NAMES[seat]
        clipped = page.eval_on_selector(f'#pad .seat[data-seat="{seat}"] .nm', "e => e.scrollWidth > e.clientWidth + 1")
        assert not clipped, PROBE_NAMES[seat]


@pytest.mark.slow
def test_longer_names_shrink_rather_than_break(live_server, open_page):
    page = open_page(PHONE_360)
    rec = record("partners", hand())
    rec["players"] = ["Guadalupe Fernández", "Roberto", "Alejandra", "Ana"]
    import_record(page, live_server.url, rec)
    page.wait_for_selector("#pad[data-ready]")
    words = page.eval_on_selector_all(
        "#pad .seat .nm",
        """ns => ns.map(n => { const t = n.firstChild.firstChild || n.firstChild; const out = [];
              // each word's letters on one line: the tops of its first and last letters agree
              for (const m of t.textContent.matchAll(/\\S+/g)) {
                const r = document.createRange(); r.setStart(t, m.index); r.setEnd(t, m.index + 1);
                const first = r.getBoundingClientRect().top;
                r.setStart(t, m.index + m[0].length - 1); r.setEnd(t, m.index + m[0].length);
                out.push([m[0], Math.abs(r.getBoundingClientRect().top - first) < 2]);
              } return out; })""",
    )
    broken = [word for name in words for word, whole in name if not whole]
    assert broken == []


@pytest.mark.slow
def test_show_tiles_says_what_was_recorded_and_whose_tiles_come_next(live_server, open_page):
    page = open_page(PHONE_360)
    rec = record("partners", hand(*SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1)))
    rec["players"] = PROBE_NAMES
    import_record(page, live_server.url, rec)
    page.wait_for_selector("#pad[data-ready]")
    hint = page.locator("#tiles-hint")
    assert hint.inner_text() == "Maria: tap the tiles left, then Show tiles"
    for tile in ("0-0", "0-1", "0-2", "0-4"):  # her four tiles left
        page.click(f'#pad [data-tile="{tile}"]')
    tap_and_wait(page, "#reveal")
    assert hint.inner_text() == "Maria showed 0-0, 0-1, 0-2, 0-4. Jose: tap the tiles left, then Show tiles"
    page.fill("#pips", "25")
    tap_and_wait(page, "#send-pips")
    assert hint.inner_text() == "Jose had 25 pips left. Luis: tap the tiles left, then Show tiles"


def settle_dispute_of(page, server, rec: dict, why: str) -> None:
    """Import `rec`, dispute its first hand's play 8 (event 7) and open the Settle dialog on it."""
    import_record(page, server.url, rec)
    page.wait_for_selector("#pad[data-ready]")
    before = version(page)
    assert api(page, "POST", "/disputes", {"hand": 0, "event": 7, "why": why})["status"] == 201
    wait_version(page, before + 1)
    page.click("#board .settle")
    page.wait_for_selector("#fix-dialog[open]")


@pytest.mark.slow
def test_settling_a_dispute_shows_the_count_and_the_ends_that_made_it(live_server, open_page):
    page = open_page(PHONE_360)
    settle_dispute_of(page, live_server, record("partners", hand(*SIX_BLOCK_PLAYS[:8])), "Dee says it made 15")
    assert page.inner_text("#fix-now") == "Recorded now: Dee played 6-4 on the east"
    made = page.inner_text("#fix-made")
    assert made.startswith("The count after it: 10 = ") and "east 4" in made, made
    # the card's tile names never break at the hyphen
    assert page.eval_on_selector("#open-disputes .tn", "e => getComputedStyle(e).whiteSpace") == "nowrap"
    page.click("#fix-cancel")


@pytest.mark.slow
def test_settling_a_dispute_of_an_earlier_hand_starts_from_the_play_disputed(live_server, open_page):
    """Once the next hand started, the board lists its events only: Settle opened on a blank
    play with the first player chosen (and nothing "recorded now"), so a correction of the tile
    alone went in as Maria's play, not Carmen's."""
    page = open_page(PHONE_360)
    rec = six_block(LOW_TEAM0, "partners")
    rec["hands"].append(hand())
    rec["players"] = PROBE_NAMES
    settle_dispute_of(page, live_server, rec, "it went west")
    assert page.inner_text("#fix-title") == "Settle the dispute: Hand 1, play 8"
    assert page.inner_text("#fix-now") == "Recorded now: Carmen played 6-4 on the east"
    chosen = "#fix-dialog [aria-checked=true], #fix-dialog [aria-pressed=true]"
    picked = page.eval_on_selector_all(
        chosen, "bs => bs.map(b => b.dataset.fixSeat || b.dataset.kind || b.dataset.fixTile || b.dataset.fixEnd)"
    )
    assert sorted(picked) == ["3", "4-6", "east", "play"]
    page.click("#fix-cancel")


@pytest.mark.slow
def test_the_new_match_form_says_each_game_s_defaults(live_server, open_page):
    page = open_page(PHONE_360)
    page.goto(live_server.url + "/")
    page.select_option("#variant", "draw")
    assert page.inner_text("#target-hint") == "(blank: the game's own, 50 with 2 players, 100 with 3–4 players)"
    page.select_option("#variant", "partners-block")
    page.click("details.options summary")
    labels = page.locator('select[name="winners_score"] option').all_inner_texts()
    assert labels == ["the losers' pips (the game's default)", "the losers' pips", "every pip left"]
    page.select_option("#variant", "all-fives")
    assert page.locator('select[name="sniff"] option').first.inner_text() == "no (the game's default)"


# -- the name for the history, in any script ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("who", ["Łukasz", "Иван", "李雷", "Zoë 🂡"])
def test_a_scorer_named_beyond_latin_1_still_records_each_tap(live_server, open_page, who):
    """The name typed under the pad went in a header, which holds Latin-1 only: fetch refused every
    tap of a scorer called "Łukasz" ("No connection: nothing was recorded"), reload or not."""
    page = open_page(PHONE_360)
    game = start_match(page, live_server.url, PROBE_NAMES)
    page.fill("#who", who)
    page.dispatch_event("#who", "change")
    page.click('.seat[data-seat="3"]')
    tap_and_wait(page, '#pad [data-tile="6-6"]')
    assert page.inner_text("#pad-error") == ""
    page.reload()
    page.wait_for_selector("#pad[data-ready]")
    assert page.input_value("#who") == who
    tap_and_wait(page, '#pad [data-tile="5-6"]')
    changes = page.evaluate(f"fetch('/api/games/{game}/history').then(r => r.json())")["changes"]
    assert [c["who"] for c in changes[-2:]] == [who, who]
