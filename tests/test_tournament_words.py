"""Issue 36, Spanish and English: the tournament's pages (the director's page, the standings board,
the table cards, the list, a table's banner on its match page and the director's refusals) speak
the page's language, with names and numbers from 1; the English pages keep their words."""

from __future__ import annotations

import html
import re

from tests.support.tournament import Director, started

SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}

#: English words the tournament's pages said before they spoke Spanish: none may be left on a Spanish page.
ENGLISH = [
    "Round 1 in play",
    "Registration",
    "Standings",
    "Table 1",
    "Seat 1",
    "Place",
    "Won",
    "Lost",
    "Points",
    "Enter the result by hand",
    "How it ended",
    "Winner",
    "Reason",
    "Your name",
    "reached 100",
    "at the bell",
    "director's decision",
    "scorer link",
    "Scorer QR",
    "Table cards to print",
    "Export the tournament",
    "History of changes",
    "Tournament created",
    "Director link",
    "playing",
    "Print",
    "Partners face each other",
    "New tournament night",
    "Open registration",
    "Import a tournament file",
    "Bell",
    "bell at",
    "Match decided",
    "won",
    "round 1 of 4",
]


def shown(page: str) -> str:
    """The words a player sees: no scripts' data, no tags, entities read."""
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r"</?bdi>", "", page)  # a name's own element, inside the sentence (webapp/bidi.py)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page))


def leftovers(text: str) -> list[str]:
    return [word for word in ENGLISH if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]


def first_table(director: Director) -> dict:
    """Round 1 drawn; its first table as the director's view gives it (teams, match, links)."""
    return started(director)["rounds"][0]["tables"][0]


def director_browser(app, director: Director):
    """A browser that opened the director's link (its session keeps the key)."""
    browser = app.test_client()
    assert browser.get(f"/t/{director.id}/join?key={director.token}").status_code == 302
    return browser


def test_the_director_page_board_and_cards_speak_spanish(app, director):
    started(director)
    browser = director_browser(app, director)

    page = shown(browser.get(f"/t/{director.id}", headers=SPANISH).text)
    for words in (
        "Ronda 1 en juego",
        "Mesa 1",
        "Clasificación con los resultados hasta ahora",
        "Anotar el resultado a mano",
        "Cómo terminó",
        "llegó a 100",
        "decisión del director",
        "Tarjetas de mesa para imprimir",
        "Historial de cambios",
        "Torneo creado · Rosa",
        "Ronda empezada · ronda 1",
        "Los Primos",
        "jugando",
        "Puesto",
        "Ganadas",
    ):
        assert words in page, words
    assert leftovers(page) == []

    board = shown(browser.get(f"/t/{director.id}/board", headers=SPANISH).text)
    for words in ("Ronda 1 en juego", "Ronda 1", "Mesa 1", "contra", "Imprimir", "Puesto", "Ganadas", "Perdidas"):
        assert words in board, words
    assert leftovers(board) == []

    cards = shown(browser.get(f"/t/{director.id}/cards", headers=SPANISH).text)
    for words in ("Mesa 1", "ronda 1", "Asiento 1", "Asiento 4", "Los compañeros se sientan frente a frente"):
        assert words in cards, words
    assert leftovers(cards) == []

    listing = shown(browser.get("/t", headers=SPANISH).text)
    for words in (
        "Noche de torneo nueva",
        "Abrir la inscripción",
        "Torneos que diriges",
        "Importar un archivo de torneo",
    ):
        assert words in listing, words
    assert leftovers(listing) == []


def test_the_english_pages_keep_their_words(app, director):
    started(director)
    browser = director_browser(app, director)
    page = shown(browser.get(f"/t/{director.id}").text)
    for words in ("Round 1 in play", "Table 1", "Enter the result by hand", "How it ended", "Standings"):
        assert words in page, words
    assert "Ronda" not in page and "Mesa" not in page


def test_a_refusal_on_the_director_page_names_teams_in_spanish(app, director):
    browser = director_browser(app, director)
    page = browser.get(f"/t/{director.id}", headers=SPANISH).text
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "name": "Los Primos", "player1": "Ana", "player2": "Beto"}
    assert browser.post(f"/t/{director.id}/teams", data=form, headers=SPANISH).status_code == 302
    again = browser.post(
        f"/t/{director.id}/teams", data={**form, "name": "Otros"}, headers=SPANISH, follow_redirects=True
    )
    said = shown(again.text)
    assert "Ana, de Otros, ya juega en Los Primos." in said
    assert "Inscripción: 1 de 8 equipos" in said
    # Closing with one team: the scorer's rule, worded for the director with the count of teams.
    closed = shown(browser.post(f"/t/{director.id}/close", data=form, headers=SPANISH, follow_redirects=True).text)
    assert "La inscripción se cierra con un número par de equipos, de 4 a 8" in closed and "no con 1." in closed
    for english in ("already plays", "registration can close", "'Ana'", "team "):
        assert english not in said + closed


def test_a_result_refused_is_worded_with_the_table_and_its_teams(app, director):
    table = first_table(director)
    browser = director_browser(app, director)
    page = browser.get(f"/t/{director.id}", headers=SPANISH).text
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    form = {
        "csrf_token": token,
        "mode": "record",
        "points_a": "40",
        "points_b": "90",
        "winner": "a",
        "ended": "bell",
        "reason": "hoja",
    }
    number = table["table"]
    refused = browser.post(
        f"/t/{director.id}/rounds/1/tables/{number}/result", data=form, headers=SPANISH, follow_redirects=True
    )
    said = shown(refused.text)
    a, b = table["team_a"], table["team_b"]
    assert (
        f"Mesa {number} ({a} contra {b}): con la campana gana el tanteo más alto, y {b} tiene 90 contra 40 de {a}."
        in said
    )
    assert director.tables()[number - 1]["result"] is None


def test_a_table_banner_speaks_the_page_language_and_the_board_json_stays_english(client, director):
    table = first_table(director)
    response = director.result(
        1, table["table"], points_a=0, points_b=0, winner="b", ended="director", reason="no vinieron"
    )
    assert response.status_code == 201, response.get_json()
    game = table["game_id"]
    spanish = shown(client.get(f"/g/{game}", headers=SPANISH).text)
    assert f"Partida decidida: {table['team_b']} ganó 0–0 (decisión del director)" in spanish
    assert "Decisión del director: no vinieron" in spanish
    assert f"ronda 1 de 4 · mesa {table['table']}" in spanish
    assert "Match decided" not in spanish and "round 1 of 4" not in spanish
    said = client.get(f"/api/games/{game}/board", headers=SPANISH).get_json()["tournament"]
    assert said["banner"] == f"Match decided: {table['team_b']} won 0–0 (director's decision)"
    english = shown(client.get(f"/g/{game}").text)
    assert f"Match decided: {table['team_b']} won 0–0 (director's decision)" in english


def test_the_round_clock_script_has_its_words_in_spanish(app, director):
    started(director)
    browser = director_browser(app, director)
    page = browser.get(f"/t/{director.id}", headers=SPANISH).text
    words = re.search(r'<script id="page-words" type="application/json">(.*?)</script>', page, re.S).group(1)
    assert '"clock_bell": "campana"' in words
    assert "Se acabó el descanso" in html.unescape(words) or "Se acab\\u00f3 el descanso" in words
