"""Issue 36, defect 4: players' words. The rules engine's refusals carry a code the page words
(names, numbers from 1) in Spanish or English; the catalogue holds every string of the page; the
command line keeps the engine's precise wording."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.page import PHONE, import_record, record_of, tap_and_wait
from tests.support.records import hand, pass_, play, record

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "webapp" / "translations"


def codes_raised(tournament: bool = False) -> set[str]:
    """The codes of the rules engine's refusals (RecordError), or of the tournament's (TournamentError)."""
    found: set[str] = set()
    for path in (ROOT / "scorer").glob("*.py"):
        if (path.name == "tournament.py") == tournament:
            found.update(re.findall(r'code="(\w+)"', path.read_text()))
    return found


def test_every_code_the_engine_raises_has_words_for_players():
    from webapp.wording import RULES

    raised = codes_raised()
    assert len(raised) > 50
    assert sorted(raised - set(RULES)) == []


def test_every_code_the_tournament_raises_has_words_for_the_director():
    from webapp.tournament.words import RULES

    raised = codes_raised(tournament=True)
    assert len(raised) > 20
    assert sorted(raised - set(RULES)) == []


def test_every_string_of_the_page_has_its_spanish(tmp_path):
    """Extract the catalogue afresh: a string added to a page or a message without its Spanish fails here."""
    from babel.messages.pofile import read_po

    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "-q",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "L",
            "-o",
            str(pot),
            "--no-location",
            "--omit-header",
            "webapp",
        ],
        check=True,
        cwd=ROOT,
    )
    with pot.open("rb") as f:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    with (CATALOGUE / "es" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        spanish = {(m.id if isinstance(m.id, str) else m.id[0]): m.string for m in read_po(f, locale="es") if m.id}
    assert len(wanted) > 200
    assert sorted(wanted - {k for k, v in spanish.items() if v and (v if isinstance(v, str) else all(v))}) == []


def test_the_compiled_catalogue_is_the_po_file():
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    def same(value):  # a plural is a tuple in one reader and a list in the other
        return tuple(value) if isinstance(value, (list, tuple)) else value

    with (CATALOGUE / "es" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        po = {same(m.id): same(m.string) for m in read_po(f, locale="es") if m.id}
    with (CATALOGUE / "es" / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        mo = {same(m.id): same(m.string) for m in read_mo(f) if m.id}
    assert mo == po


def refusal_in(lang: str, error: dict, players=("Ana", "Ben", "Cruz", "Dee"), variant="all-fives", hands=()) -> str:
    """`say_refusal` of `error`; `hands`: the refused record's, which say what kind of event it names."""
    from flask_babel import force_locale

    from webapp import create_app
    from webapp.wording import say_refusal

    app = create_app({"DATABASE_URL": "sqlite://", "SPINNER_DATA": "/nonexistent"}, migrate=False)
    with app.test_request_context(), force_locale(lang):
        return say_refusal(error, {"players": list(players), "variant": variant, "hands": list(hands)})


def test_a_refusal_names_players_and_counts_from_one_in_both_languages():
    from scorer import Match, RecordError

    rec = record("all-fives", hand(play(0, "5-5"), play(0, "0-5", "west")), players=2)
    with pytest.raises(RecordError) as caught:
        Match.from_record(rec)
    error = caught.value.to_dict(coded=True)
    assert error["code"] == "pass_boneyard"
    assert "seat 1 must have passed" in error["error"]  # the command line's words, as they were
    english = refusal_in("en", error, players=("Ana", "Ben"), hands=rec["hands"])
    assert english == (
        "Hand 1, play 2: It is Ben's turn: Ben cannot have passed: 10 tiles are in the boneyard, "
        "so a player who cannot play draws until a tile fits."
    )
    spanish = refusal_in("es", error, players=("Ana", "Ben"), hands=rec["hands"])
    assert spanish.startswith("Mano 1, jugada 2: Le toca a Ben") and "pozo" in spanish
    for said in (english, spanish):
        assert "seat" not in said and "hand 0" not in said and "RULES.md" not in said


def test_a_refusal_names_an_event_that_is_no_play_by_its_kind_and_number():
    # The hand's list numbers every event; a draw, a pass or a reveal is not "play 2".
    from scorer import Match, RecordError

    rec = record("all-fives", hand(play(0, "5-5"), {"type": "draw", "seat": 1}), players=2)
    with pytest.raises(RecordError) as caught:
        Match.from_record(rec)
    error = caught.value.to_dict(coded=True)
    english = refusal_in("en", error, players=("Ana", "Ben"), hands=rec["hands"])
    assert english == "Hand 1, no. 2 (a draw): A draw names the tile seen, or how many tiles were drawn unseen."
    spanish = refusal_in("es", error, players=("Ana", "Ben"), hands=rec["hands"])
    assert spanish.startswith("Mano 1, n.º 2 (un robo): Un robo dice la ficha vista")
    assert refusal_in("en", error, players=("Ana", "Ben")).startswith("Hand 1, no. 2: ")  # kind not known


def test_a_team_is_named_by_its_players():
    from scorer import Match, RecordError

    rec = record("partners", hand(play(0, "6-6"), pass_(1), pass_(2), pass_(3)), options={"target": 10})
    rec["hands"][0]["events"].append({"type": "adjust", "team": 1, "points": 20, "reason": "a penalty"})
    rec["hands"][0]["events"].append(play(0, "6-5", "west"))
    with pytest.raises(RecordError) as caught:
        Match.from_record(rec)
    said = refusal_in("en", caught.value.to_dict(coded=True), variant="partners", hands=rec["hands"])
    assert said == "Hand 1, play 6: The match is over: Ben & Dee won."


@pytest.mark.slow
def test_the_play_list_and_refusals_speak_of_players(live_server, open_page):
    page = open_page(PHONE)
    rec = record("all-fives", hand(play(0, "5-5"), {"type": "draw", "seat": 1, "count": 10}, pass_(1)), players=2)
    game = import_record(page, live_server.url, rec)
    items = page.locator(".plays li .what").all_inner_texts()
    assert "Ben passed" in items and "Ben drew 10 tiles" in items
    assert not any("seat" in item for item in items)
    page.click('.seat[data-seat="1"]')  # Ben again, out of turn: it is Ana's
    page.click("#end-hand summary")
    page.fill("#pips", "30")
    page.click("#send-pips")
    page.wait_for_function("document.getElementById('pad-error').textContent.length > 0")
    said = page.inner_text("#pad-error")
    assert said.startswith("Hand 1, no. 4 (pips counted): The hand is not over yet")  # the pips, not a play
    assert "seat" not in said and "event" not in said
    assert len(record_of(page, game)["hands"][0]["events"]) == 3


@pytest.mark.slow
def test_the_spanish_page_follows_the_browser_and_the_switch(live_server, open_page):
    page = open_page(PHONE, locale="es-ES")
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.inner_text("h1") == "Partida nueva"
    start = page.locator("#new-match button[type=submit]")
    assert start.inner_text() == "Empezar la partida"
    for seat, name in enumerate(["Ana", "Ben", "Cruz", "Dee"]):
        page.fill(f'.player[data-seat="{seat}"] input', name)
    start.click()
    page.wait_for_selector("#pad")
    assert "Sale quien tenga la 6-6" in page.inner_text(".status")
    page.click('.seat[data-seat="1"]')
    tap_and_wait(page, '[data-tile="6-6"]')
    page.wait_for_function("document.querySelector('.status').textContent.includes('Juega')")
    assert "Juega Cruz" in page.inner_text(".status")
    # what this phone recorded, then whose turn it is, by name
    assert page.inner_text("#tiles-hint") == "Ben jugó la 6-6. Cruz: toca la ficha jugada"
    assert page.locator(".plays li .what").first.inner_text().startswith("6-6")
    page.wait_for_function("document.getElementById('live').textContent === 'en vivo'")
    page.click("text=English")
    page.wait_for_selector("html[lang=en]")
    assert "Cruz to play" in page.inner_text(".status")
    page.goto(live_server.url + "/")
    assert page.inner_text("h1") == "New match"  # the switch outlasts the page it was made on


@pytest.mark.parametrize(
    ("code", "params", "said"),
    [
        # a count of one is said in the singular, whichever number the sentence turns on
        ("reveal_count", {"seat": 1, "holds": 3, "shown": 1}, "Ben holds 3 tiles, not the number shown (1)."),
        ("pips_deal", {"seat": 1, "known": 1, "pips": 3}, "Ben holds 1 pip, not 3."),
        ("pips_deal", {"seat": 1, "known": 12, "pips": 3}, "Ben holds 12 pips, not 3."),
        (
            "pips_range",
            {"seat": 1, "holds": 3, "pips": 1, "least": 3, "most": 33},
            "Ben holds 3 tiles: together their pips are from 3 to 33, not 1.",
        ),
    ],
)
def test_counts_of_one_are_never_said_as_many(code, params, said):
    assert refusal_in("en", {"code": code, "params": params, "error": "engine words"}) == said
    spanish = refusal_in("es", {"code": code, "params": params, "error": "engine words"})
    assert not re.search(r"\b1 (fichas|puntos)\b", spanish) and "engine words" not in spanish
