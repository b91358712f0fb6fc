"""What a tournament director's probe found running whole nights through the API: names in two
Unicode forms, teams called "a" and "b", no way to withdraw a team, one draw number giving two
draws, names cut short, and two small holes (a reason-only correction, a table renaming its match)."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.tournament import TEAMS, Director, started

COMPOSED, COMBINING = "Capic\u00faa", "Capicu\u0301a"


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def page_of(app, director: Director):
    """The director's page in a browser of its own (its session holds the director link)."""
    page = app.test_client()
    page.get(f"/t/{director.id}/join?key={director.token}")
    return page


def every_result(director: Director, number: int) -> None:
    for t in director.tables():
        if t["result"] is None:
            response = director.result(
                number, t["table"], points_a=100, points_b=t["table"], winner="a", ended="target", reason="sheet"
            )
            assert response.status_code == 201, response.get_json()


# -- 1. one name in two Unicode forms ----------------------------------------------------------


def test_a_name_typed_in_two_unicode_forms_is_one_name(director):
    assert director.post("/teams", {"name": COMPOSED, "players": ["Jos\u00e9", "Fito"]}).status_code == 201
    again = director.post("/teams", {"name": COMBINING, "players": ["Lola", "Nico"]})
    assert again.status_code == 422 and "is already registered" in again.get_json()["error"]
    twice = director.post("/teams", {"name": "Otros", "players": ["Jose\u0301", "Lola"]})
    assert twice.status_code == 422 and "already plays for team" in twice.get_json()["error"]
    assert [t["name"] for t in director.view()["teams"]] == [COMPOSED]


def test_a_winner_typed_in_the_other_unicode_form_is_that_team(director):
    teams = [(COMPOSED, ("Elena", "Fito")), TEAMS[0], TEAMS[1], TEAMS[3]]
    table = next(t for t in started(director, teams)["rounds"][0]["tables"] if COMPOSED in (t["team_a"], t["team_b"]))
    response = director.result(
        1, table["table"], points_a=0, points_b=0, winner=COMBINING, ended="director", reason="no-show"
    )
    assert response.status_code == 201, response.get_json()
    assert director.tables()[table["table"] - 1]["result"]["winner"] == COMPOSED


# -- 3. a team called "a" or "b" -------------------------------------------------------------------


def test_a_team_cannot_be_called_by_a_winners_letter(director):
    for name in ("a", "B", " b "):
        response = director.post("/teams", {"name": name, "players": ["X", "Y"]})
        assert response.status_code == 422, name
        assert f"a team cannot be called {name.strip()!r}" in response.get_json()["error"]
    assert director.view()["teams"] == []
    assert director.post("/teams", {"name": "Team A", "players": ["X", "Y"]}).status_code == 201


@pytest.mark.parametrize("name", ["\uff21", "a\u2060", "\ufeffb", "\u00adB\U000e0041", "\u0430", "\u0392"])
def test_a_winners_letter_in_disguise_is_refused_too(director, name):
    """Fullwidth "\uff21" and "a" with a word joiner registered (201) and looked exactly like the
    letter a result names its winner by: they are compared by the same key (NFKC, nothing invisible)."""
    response = director.post("/teams", {"name": name, "players": ["X", "Y"]})
    assert response.status_code == 422, response.get_json()
    assert "a team cannot be called" in response.get_json()["error"]
    assert director.view()["teams"] == []


@pytest.mark.parametrize(
    "team, players", [("\u3164", ["X", "Y"]), ("Reds", ["\u2800", "Y"]), ("Reds", ["X", "x\u2060"])]
)
def test_a_name_that_shows_nothing_or_the_partners_name_is_refused(director, team, players):
    response = director.post("/teams", {"name": team, "players": players})
    assert response.status_code == 400, response.get_json()
    assert director.view()["teams"] == []


def test_an_imported_night_with_teams_a_and_b_names_its_winner_without_guessing(client, director):
    """A night kept from before the rule: table 1 is `b v a`. The probe's winner "b" gave the win to
    "a"; a letter that is also the other team's name is refused, and a name is that team."""
    started(director, TEAMS[:4])
    data = client.get(director.url("/export"), headers=director.auth).get_json()
    first = data["tournament"]["rounds"][0]["pairings"][0]
    renamed = {first["team_a"]: "b", first["team_b"]: "a"}
    text = json.dumps(data, ensure_ascii=False)
    for old, new in renamed.items():
        text = text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new))
    created = client.post("/api/tournaments/import", json=json.loads(text))
    assert created.status_code == 201, created.get_json()
    night = Director(client, created.get_json())
    assert (night.tables()[0]["team_a"], night.tables()[0]["team_b"]) == ("b", "a")
    for letter in ("a", "b"):
        refused = night.result(1, 1, points_a=100, points_b=10, winner=letter, ended="director", reason="sheet")
        assert refused.status_code == 422
        assert (
            f"the winner {letter!r} is both a team's name and the letter of the other team"
            in (refused.get_json()["error"])
        )
    assert night.tables()[0]["result"] is None
    named = night.result(1, 1, points_a=100, points_b=10, winner="B", ended="target", reason="sheet")
    assert named.status_code == 201, named.get_json()
    assert night.tables()[0]["result"]["winner"] == "b"


# -- 4. withdrawal -------------------------------------------------------------------------------------


def test_a_withdrawn_team_is_not_paired_again_and_keeps_its_results(app, client, director):
    director.register_all()
    assert director.post("/rounds", {"seed": 9}).status_code == 201
    every_result(director, 1)
    assert director.post("/rounds").status_code == 201
    leaving = director.tables()[1]["team_b"]
    # the director's alone, with a reason, for a registered team
    assert client.post(director.url("/withdrawals"), json={"team": leaving, "reason": "x"}).status_code == 401
    assert director.post("/withdrawals", {"team": leaving}).status_code == 400
    assert director.post("/withdrawals", {"team": "Nadie", "reason": "x"}).status_code == 404
    response = director.post("/withdrawals", {"team": leaving.upper(), "reason": "a family emergency", "who": "Rosa"})
    assert response.status_code == 201, response.get_json()
    view = response.get_json()
    (team,) = [t for t in view["teams"] if t["withdrawn"]]
    assert (team["name"], team["withdrawn_reason"]) == (leaving, "a family emergency")
    assert view["standings"][-1]["team"] == leaving and view["standings"][-1]["withdrawn"]
    again = director.post("/withdrawals", {"team": leaving, "reason": "again"})
    assert again.status_code == 422 and "has withdrawn already" in again.get_json()["error"]
    history = client.get(director.url("/history"), headers=director.auth).get_json()["changes"][-1]
    assert (history["action"], history["round"], history["who"], history["why"]) == (
        "withdraw",
        2,
        "Rosa",
        "a family emergency",
    )

    # its table of round 2 waits for the director's result: a forfeit
    for t in director.tables():
        if t["table"] != 2:
            done = director.result(2, t["table"], points_a=100, points_b=5, winner="a", ended="target", reason="sheet")
            assert done.status_code == 201, done.get_json()
    refused = director.post("/rounds")
    assert refused.status_code == 422 and "table(s) 2 have no result" in refused.get_json()["error"]
    assert director.tables()[1]["withdrawn"] == [leaving]
    every_result(director, 2)
    round3 = director.post("/rounds", {"during_break": True})
    assert round3.status_code == 201, round3.get_json()
    r = round3.get_json()["rounds"][2]
    assert len(r["tables"]) == 3 and r["bye"] and r["bye"] != leaving
    assert leaving not in {n for t in r["tables"] for n in (t["team_a"], t["team_b"])}
    line = next(s for s in round3.get_json()["standings"] if s["team"] == r["bye"])
    assert line["byes"] == 1

    # the pages: the board marks it and shows the bye; the export keeps it all
    board = client.get(f"/t/{director.id}/board").text
    assert 'class=" withdrawn"' in board and "withdrawn</span>" in board and 'id="bye"' in board
    data = client.get(director.url("/export"), headers=director.auth).get_json()
    assert data["tournament"]["version"] == 2 and data["tournament"]["withdrawals"][0]["team"] == leaving
    kept = Director(client, client.post("/api/tournaments/import", json=data).get_json())
    assert kept.view()["standings"] == director.view()["standings"]
    assert kept.view()["rounds"][2]["bye"] == r["bye"]


def test_the_director_withdraws_a_team_from_the_page(app, director):
    started(director, TEAMS[:4])
    page = page_of(app, director)
    text = page.get(f"/t/{director.id}").text
    assert "Withdraw <bdi>Los Primos</bdi>" in text
    form = {"csrf_token": csrf_of(text), "team": "Los Primos", "who": "Rosa", "anchor": "#teams"}
    refused = page.post(f"/t/{director.id}/withdrawals", data=form, follow_redirects=True).text
    assert "a withdrawal needs its reason" in refused
    response = page.post(f"/t/{director.id}/withdrawals", data={**form, "reason": "went home"})
    assert response.status_code == 302 and response.headers["Location"].endswith("#teams")
    text = page.get(f"/t/{director.id}").text
    assert "<bdi>Los Primos</bdi> withdrew in round 1" in text and "A team at this table has withdrawn" in text
    assert "Withdraw <bdi>Los Primos</bdi>" not in text


# -- 5. one draw number, one draw --------------------------------------------------------------------


def test_a_draw_number_draws_the_same_from_the_page_and_the_api(app, client):
    def night(seed, *, page: bool = False) -> list:
        made = Director(client, client.post("/api/tournaments", json={"title": "Viernes"}).get_json())
        made.register_all()
        if page:
            browser = page_of(app, made)
            text = browser.get(f"/t/{made.id}").text
            browser.post(f"/t/{made.id}/rounds", data={"csrf_token": csrf_of(text), "seed": seed})
        else:
            assert made.post("/rounds", {"seed": seed}).status_code == 201
        r = made.view()["rounds"][0]
        return [r["seed"], [(t["team_a"], t["team_b"]) for t in r["tables"]]]

    assert night(42) == night("42") == night(" 42 ") == night("42", page=True)
    assert night(42)[0] == 42


# -- 6. names too long -----------------------------------------------------------------------------


def test_a_name_over_forty_characters_is_refused_not_cut(director):
    long = "Los Amigos del Parque Central de la Habana Vieja A"
    response = director.post("/teams", {"name": long, "players": ["Ana", "Beto"]})
    assert response.status_code == 400
    said = response.get_json()
    assert said["error"].startswith("a team's name is at most 40 characters") and f"has {len(long)}" in said["error"]
    assert "at most 40 characters" in said["say"]
    player = director.post("/teams", {"name": "Amigos", "players": ["Ana", "B" * 41]})
    assert player.status_code == 400 and "a player's name is at most 40 characters" in player.get_json()["error"]
    assert director.view()["teams"] == []
    assert director.post("/teams", {"name": long[:40], "players": ["Ana", "B" * 40]}).status_code == 201


# -- 8. small points ------------------------------------------------------------------------------


def test_a_correction_of_the_reason_alone_is_refused(director):
    started(director, TEAMS[:4])
    body = {"points_a": 0, "points_b": 0, "winner": "b", "ended": "director", "reason": "no-show"}
    assert director.post("/rounds/1/tables/1/result", body).status_code == 201
    before = director.view()
    response = director.put("/rounds/1/tables/1/result", {**body, "reason": "they arrived after the bell"})
    assert response.status_code == 422
    assert "a new reason alone is no correction" in response.get_json()["error"]
    assert director.view()["version"] == before["version"] and director.view()["corrections"] == []


def test_a_tables_scorer_cannot_rename_its_tournament_match(app, client, director):
    from tests.support.tournament import key_of

    table = started(director, TEAMS[:4])["rounds"][0]["tables"][0]
    phone = app.test_client()
    phone.get(f"/g/{table['game_id']}/join?key={key_of(table['scorer_link'])}")
    title = client.get(f"/api/games/{table['game_id']}").get_json()["title"]
    token = csrf_of(phone.get("/").text)
    refused = phone.post(
        f"/g/{table['game_id']}/rename",
        data={"csrf_token": token, "title": "Round 1, table 1: T9 v T8"},
        follow_redirects=True,
    )
    assert "This match is a tournament table: its name is the tournament’s" in refused.text
    assert client.get(f"/api/games/{table['game_id']}").get_json()["title"] == title
