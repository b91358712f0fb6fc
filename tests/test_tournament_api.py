"""The tournament's API and pages: who may run it, and bad input answered clearly with nothing recorded."""

from __future__ import annotations

import io
import json
import re

from tests.support.tournament import TEAMS, Director, TablePhone, simulated, started


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def unchanged(director: Director, before: dict) -> None:
    after = director.view()
    assert after["version"] == before["version"]
    assert after["teams"] == before["teams"] and after["rounds"] == before["rounds"]


# -- who may run it ---------------------------------------------------------------------------


def test_changes_need_the_director_token(client, director):
    body = {"name": "Intrusos", "players": ["X", "Y"]}
    response = client.post(director.url("/teams"), json=body)
    assert response.status_code == 401 and "director's link" in response.get_json()["error"]
    response = client.post(director.url("/teams"), json=body, headers={"Authorization": "Bearer guess"})
    assert response.status_code == 403
    assert response.get_json()["error"] == "wrong token: this is not the director link of this tournament"
    assert director.view()["teams"] == []
    assert client.get(director.url("/export")).status_code == 401


def test_a_table_link_is_not_the_director_link(app, client, director):
    view = started(director)
    table = view["rounds"][0]["tables"][0]
    phone = TablePhone(app, client, table)
    response = client.post(
        director.url("/rounds/1/tables/1/result"),
        headers={"Authorization": f"Bearer {phone.token}"},
        json={"points_a": 100, "points_b": 0, "winner": "a", "ended": "target", "reason": "x"},
    )
    assert response.status_code == 403
    # ...and the director's token does not score a table's match: the table's own link does
    event = {"type": "play", "seat": 0, "tile": "6-6"}
    assert client.post(f"/api/games/{phone.game_id}/events", json=event, headers=director.auth).status_code == 403


def test_anyone_reads_the_standings_but_only_the_director_sees_table_links(client, director):
    started(director)
    public = client.get(director.url()).get_json()
    assert public["standings"] and "scorer_link" not in public["rounds"][0]["tables"][0]
    assert "scorer_link" in director.view()["rounds"][0]["tables"][0]
    assert client.get("/api/tournaments/nope").status_code == 404


# -- registration -----------------------------------------------------------------------------


def test_a_ninth_team_is_refused(director):
    director.register_all()
    before = director.view()
    response = director.post("/teams", {"name": "Novena", "players": ["Quique", "Rita"]})
    assert response.status_code == 409
    assert response.get_json()["error"] == "registration is closed (8 teams registered); team 'Novena' cannot register"
    unchanged(director, before)


def test_registering_after_close_is_refused(director):
    director.register_all(TEAMS[:4])
    assert director.post("/close").status_code == 200
    before = director.view()
    response = director.post("/teams", {"name": "Tarde", "players": ["Quique", "Rita"]})
    assert response.status_code == 409 and "registration is closed (4 teams registered)" in response.get_json()["error"]
    unchanged(director, before)
    assert director.post("/close").get_json()["error"] == "registration is already closed"


def test_bad_teams_are_refused_with_the_problem_named(director):
    director.register_all(TEAMS[:2])
    before = director.view()
    cases = [
        ({"name": "", "players": ["A", "B"]}, 400, "a team needs a name"),
        ({"name": "Solo", "players": ["A"]}, 400, "team 'Solo' needs exactly two players"),
        ({"name": "Twice", "players": ["Zoe", " zoe "]}, 400, "lists player 'Zoe' twice"),
        ({"name": "los primos", "players": ["Q", "R"]}, 422, "a team called 'Los Primos' is already registered"),
        (
            {"name": "Nuevo", "players": ["ana", "Q"]},
            422,
            "player 'ana' of team 'Nuevo' already plays for team 'Los Primos'",
        ),
    ]
    for body, status, words in cases:
        response = director.post("/teams", body)
        assert response.status_code == status and words in response.get_json()["error"], (body, response.get_json())
    response = director.client.post(
        director.url("/teams"), data="{nope", headers={**director.auth, "Content-Type": "application/json"}
    )
    assert response.status_code == 400 and "not valid JSON" in response.get_json()["error"]
    unchanged(director, before)


def test_registration_closes_early_only_with_an_even_number_from_four(director):
    director.register_all(TEAMS[:5])
    response = director.post("/close")
    assert response.status_code == 422 and "not with 5" in response.get_json()["error"]
    response = director.post("/rounds", {"seed": 3})
    assert response.status_code == 422 and "registration is still open (5 teams)" in response.get_json()["error"]


def test_a_change_made_on_an_old_version_is_refused(director):
    version = director.view()["version"]
    assert director.post("/teams", {"name": "Ases", "players": ["a1", "a2"], "version": version}).status_code == 201
    response = director.post("/teams", {"name": "Bravos", "players": ["b1", "b2"], "version": version})
    assert response.status_code == 409 and "nothing was recorded" in response.get_json()["error"]
    assert [t["name"] for t in director.view()["teams"]] == ["Ases"]


# -- results ----------------------------------------------------------------------------------


def test_results_for_unknown_tables_and_rounds_are_refused(director):
    response = director.result(1, 1, points_a=100, points_b=0, winner="a", ended="target", reason="sheet")
    assert response.status_code == 404 and response.get_json()["error"] == "no round has started yet"
    started(director)
    before = director.view()
    response = director.result(1, 9, points_a=100, points_b=0, winner="a", ended="target", reason="sheet")
    assert response.status_code == 404 and response.get_json()["error"] == "round 1 has no table 9 (tables 1 to 4)"
    response = director.result(2, 1, points_a=100, points_b=0, winner="a", ended="target", reason="sheet")
    assert response.status_code == 404 and "there is no round 2" in response.get_json()["error"]
    unchanged(director, before)


def test_bad_results_are_refused_and_nothing_recorded(director):
    view = started(director)
    t = view["rounds"][0]["tables"][0]
    before = director.view()
    cases = [
        (
            {"points_a": 100, "points_b": 0, "winner": "a", "ended": "target"},
            400,
            "a result entered by hand needs its reason",
        ),
        (
            {"points_a": "lots", "points_b": 0, "winner": "a", "reason": "x"},
            400,
            f"the points of '{t['team_a']}' must be a whole number",
        ),
        (
            {"points_a": 50, "points_b": 0, "winner": "a", "ended": "target", "reason": "sheet"},
            422,
            "won at the target with 50 points",
        ),
        (
            {"points_a": 40, "points_b": 60, "winner": "a", "ended": "bell", "reason": "sheet"},
            422,
            "at the bell the higher score wins",
        ),
        (
            {"points_a": 40, "points_b": 60, "winner": "Nobody", "reason": "sheet"},
            422,
            "the winner 'Nobody' did not play at this table",
        ),
        (
            {"points_a": 40, "points_b": 60, "winner": "a", "ended": "forfeit", "reason": "sheet"},
            422,
            "ends by 'target', 'bell' or 'director'",
        ),
    ]
    for body, status, words in cases:
        response = director.result(1, 1, **body)
        assert response.status_code == status and words in response.get_json()["error"], (body, response.get_json())
    unchanged(director, before)


def test_the_director_enters_a_result_by_hand_and_corrects_it_with_reasons(director):
    view = started(director)
    t = view["rounds"][0]["tables"][2]
    response = director.result(
        1, 3, points_a=0, points_b=0, winner="b", ended="director", reason=f"{t['team_a']} did not show up", who="Rosa"
    )
    assert response.status_code == 201, response.get_json()
    result = response.get_json()["rounds"][0]["tables"][2]["result"]
    assert result["winner"] == t["team_b"] and result["reason"] == f"{t['team_a']} did not show up"
    response = director.result(1, 3, points_a=100, points_b=0, winner="a", ended="target", reason="again")
    assert response.status_code == 409 and "correct it with a reason" in response.get_json()["error"]
    response = director.put(
        "/rounds/1/tables/3/result", {"points_a": 0, "points_b": 0, "winner": "a", "ended": "director"}
    )
    assert response.status_code == 400 and "a correction needs its reason" in response.get_json()["error"]
    response = director.put(
        "/rounds/1/tables/3/result",
        {
            "points_a": 0,
            "points_b": 0,
            "winner": "a",
            "ended": "director",
            "reason": "they were at the bar, not absent",
            "who": "Rosa",
        },
    )
    assert response.status_code == 200
    data = response.get_json()
    assert data["rounds"][0]["tables"][2]["result"]["winner"] == t["team_a"]
    (c,) = data["corrections"]
    assert (c["by"], c["reason"], c["before"]["winner"], c["after"]["winner"]) == (
        "Rosa",
        "they were at the bar, not absent",
        t["team_b"],
        t["team_a"],
    )
    history = director.client.get(director.url("/history"), headers=director.auth).get_json()["changes"]
    assert [h["action"] for h in history][-2:] == ["result", "correct"]
    assert history[-1]["why"] == "they were at the bar, not absent"


def test_the_next_round_waits_for_every_table(director):
    started(director)
    response = director.post("/rounds")
    assert (
        response.status_code == 422
        and "round 1 is not finished: table(s) 1, 2, 3, 4 have no result" in response.get_json()["error"]
    )
    response = director.post("/rounds", {"seed": 5})
    assert response.status_code == 422 and "round 1 is not finished" in response.get_json()["error"]


def test_a_match_that_ends_reaches_the_standings_by_itself(app, client, director):
    view = started(director)
    t = view["rounds"][0]["tables"][1]
    record, answer = simulated(3)
    TablePhone(app, client, t).play(record)
    standings = client.get(director.url("/standings")).get_json()["standings"]
    winner = t["team_a"] if answer["winner"] == 0 else t["team_b"]
    line = next(s for s in standings if s["team"] == winner)
    assert (line["wins"], line["points"]) == (1, max(answer["totals"]))
    table = director.tables()[1]
    assert table["result"]["ended"] == "target" and table["status"].startswith(f"{winner} won")
    assert "match_says" not in table
    # a result changed by hand that the match does not bear out is flagged, not undone
    loser_points = min(answer["totals"]) - 1
    points = (
        {"points_a": max(answer["totals"]), "points_b": loser_points}
        if answer["winner"] == 0
        else {"points_a": loser_points, "points_b": max(answer["totals"])}
    )
    response = director.put(
        "/rounds/1/tables/2/result", {**points, "winner": winner, "ended": "target", "reason": "typo"}
    )
    assert response.status_code == 200, response.get_json()
    table = response.get_json()["rounds"][0]["tables"][1]
    assert table["result"]["reason"] == "typo" and table["match_says"].startswith("the table's match says")


# -- export and import ------------------------------------------------------------------------


def test_a_bad_file_is_refused_and_nothing_is_written(app, client, director):
    started(director, TEAMS[:4])
    data = client.get(director.url("/export"), headers=director.auth).get_json()
    from webapp.db import db
    from webapp.tournament.models import TournamentRow

    def count() -> int:
        with app.app_context():
            return db.session.query(TournamentRow).count()

    before = count()
    cases = []
    cases.append(({"format": "something else"}, "this is not a tournament file"))
    broken = json.loads(json.dumps(data))
    broken["tables"][0]["record"]["hands"][0]["events"] = [
        {"type": "play", "seat": 0, "tile": "1-2"},
        {"type": "play", "seat": 1, "tile": "5-5"},
    ]
    cases.append((broken, "round 1, table 1: the match record breaks a rule"))
    missing = json.loads(json.dumps(data))
    missing["tables"].pop()
    cases.append((missing, "the file has no match record for round 1, table 2"))
    swapped = json.loads(json.dumps(data))
    swapped["tables"][0]["record"]["players"] = list(reversed(swapped["tables"][0]["record"]["players"]))
    cases.append((swapped, "round 1, table 1: the record is not the partners-block match"))
    tampered = json.loads(json.dumps(data))
    tampered["tournament"]["rounds"][0]["pairings"][0]["team_b"] = tampered["tournament"]["rounds"][0]["pairings"][1][
        "team_a"
    ]
    cases.append((tampered, "the tournament in the file breaks a rule"))
    for body, words in cases:
        response = client.post("/api/tournaments/import", json=body)
        assert response.status_code == 422 and words in response.get_json()["error"], response.get_json()
    assert count() == before


def test_a_file_whose_times_the_round_clock_cannot_reach_is_refused(app, client, director):
    """A round started in the year 9999 came in, and every read of the tournament after it was a
    500: the round clock adds half an hour to the start (OverflowError)."""
    started(director, TEAMS[:4])
    data = client.get(director.url("/export"), headers=director.auth).get_json()
    late = json.loads(json.dumps(data))
    late["tournament"]["rounds"][0]["started_at"] = "9999-12-31T23:59:59+00:00"
    early = json.loads(json.dumps(data))
    early["tables"][0]["result_at"] = "0001-01-01T00:00:00+01:00"
    for body, words in (
        (late, "round 1: its start time: 9999-12-31T23:59:59+00:00 is not a time between 1970 and 9000"),
        (early, "round 1, table 1: result_at: 0001-01-01T00:00:00+01:00 is not a time between 1970 and 9000"),
    ):
        response = client.post("/api/tournaments/import", json=body)
        assert response.status_code == 422 and response.get_json()["error"] == words
    kept = client.post("/api/tournaments/import", json=data)
    assert kept.status_code == 201 and client.get(f"/api/tournaments/{kept.get_json()['id']}").status_code == 200


# -- the pages --------------------------------------------------------------------------------


def test_the_director_page_needs_the_director_link(app, client, director):
    stranger = app.test_client()
    assert stranger.get(f"/t/{director.id}").status_code == 401
    assert stranger.get(f"/t/{director.id}/join?key=guess").status_code == 403
    response = stranger.get(f"/t/{director.id}/join?key={director.token}")
    assert response.status_code == 302 and "key=" not in response.headers["Location"]
    assert "Registration: 0 of 8 teams" in stranger.get(f"/t/{director.id}").text
    assert stranger.get(f"/t/{director.id}/board").status_code == 200
    assert stranger.get(f"/t/{director.id}/cards").status_code == 404  # no round yet
    view = started(director)
    cards = stranger.get(f"/t/{director.id}/cards").text
    first = view["rounds"][0]["tables"][0]
    assert cards.count('class="table-sheet"') == 4 and "<svg" in cards
    assert f"<span>Seat 2</span> <bdi>{first['players_b'][0]}</bdi>" in cards
    assert app.test_client().get(f"/t/{director.id}/cards").status_code == 401


def test_the_forms_register_and_say_what_is_wrong(client):
    token = csrf_of(client.get("/t").text)
    response = client.post("/t", data={"csrf_token": token, "title": "Viernes", "who": "Rosa"})
    assert response.status_code == 302
    page_url = response.headers["Location"]
    page = client.get(page_url).text
    assert "Your director link" in page
    form = {"csrf_token": token, "name": "Los Primos", "player1": "Ana", "player2": "Beto"}
    assert (
        client.post(f"{page_url}/teams", data={k: v for k, v in form.items() if k != "csrf_token"}).status_code == 403
    )
    assert client.post(f"{page_url}/teams", data=form).status_code == 302
    page = client.post(f"{page_url}/teams", data={**form, "name": "Otros"}, follow_redirects=True).text
    # names, not quoted ids, each isolated in its own direction
    assert "<bdi>Ana</bdi> of <bdi>Otros</bdi> already plays for <bdi>Los Primos</bdi>." in page
    assert "Registration: 1 of 8 teams" in page


def test_a_form_goes_back_to_its_place_on_the_page_and_nowhere_else(client):
    token = csrf_of(client.get("/t").text)
    page_url = client.post("/t", data={"csrf_token": token, "title": "Viernes"}).headers["Location"]
    form = {"csrf_token": token, "name": "Los Primos", "player1": "Ana", "player2": "Beto"}
    for anchor, back in (("#r1t2", "#r1t2"), ("\r\nSet-Cookie: a=b", ""), ("//evil.example", ""), ("#a b", "")):
        response = client.post(f"{page_url}/teams", data={**form, "anchor": anchor})
        assert response.status_code == 302 and response.headers["Location"] == page_url + back, anchor


def test_the_page_import_takes_an_exported_file(client, director):
    started(director, TEAMS[:4])
    data = client.get(director.url("/export"), headers=director.auth).data
    token = csrf_of(client.get("/t").text)
    response = client.post(
        "/t/import",
        data={"csrf_token": token, "file": (io.BytesIO(data), "night.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302 and response.headers["Location"].startswith("/t/")
    page = client.get(response.headers["Location"]).text
    assert "Round 1 in play" in page and "Your director link" in page
    bad = client.post(
        "/t/import",
        data={"csrf_token": token, "file": (io.BytesIO(b"{nope"), "x.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "x.json is not a JSON tournament file" in bad.text


def test_the_pages_show_the_break_after_round_two_and_the_champions_at_the_end(app, client, clock, director):
    director.register_all()
    page = app.test_client()
    page.get(f"/t/{director.id}/join?key={director.token}")
    for number in range(1, 5):
        assert director.post("/rounds", {"seed": 9} if number == 1 else {}).status_code == 201
        for t in director.tables():
            response = director.result(
                number,
                t["table"],
                points_a=100,
                points_b=10 * t["table"],
                winner="a",
                ended="target",
                reason="score sheet",
            )
            assert response.status_code == 201, response.get_json()
        text = page.get(f"/t/{director.id}").text
        if number == 2:
            assert "Ten-minute break: round 3 from" in text and "Start round 3" in text
            board = client.get(f"/t/{director.id}/board").text
            assert "Break after round 2" in board
        elif number < 4:
            assert f"Round {number} finished" in text and f"Start round {number + 1}" in text
        clock.advance(minutes=12)
    text = page.get(f"/t/{director.id}").text
    assert "Tournament finished" in text and "Champion" in text and "Start round" not in text
    view = director.view()
    (champion,) = view["champions"]
    assert view["standings"][0]["team"] == champion and view["standings"][0]["wins"] == 4
    assert champion in client.get(f"/t/{director.id}/board").text


def test_the_migration_makes_the_tables_the_models_describe(app):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from webapp.db import db

    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == "0007"  # the newest migration
        assert compare_metadata(context, db.metadata) == []


def test_a_correction_on_the_page_is_refused_if_the_result_changed_meanwhile(app, director):
    started(director)
    assert (
        director.result(1, 1, points_a=100, points_b=40, winner="a", ended="target", reason="sheet").status_code == 201
    )
    page = app.test_client()
    page.get(f"/t/{director.id}/join?key={director.token}")
    text = page.get(f"/t/{director.id}").text
    token = csrf_of(text)
    shown = re.search(r'name="expected" value="([^"]+)"', text).group(1)
    shown = shown.replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&")
    # another table finishing (a new tournament version) does not refuse the form...
    assert (
        director.result(1, 2, points_a=0, points_b=0, winner="b", ended="director", reason="no-show").status_code == 201
    )
    # ...but a change to this table's result since the form was opened does
    assert (
        director.put(
            "/rounds/1/tables/1/result",
            {"points_a": 100, "points_b": 45, "winner": "a", "ended": "target", "reason": "second sheet"},
        ).status_code
        == 200
    )
    form = {
        "csrf_token": token,
        "mode": "correct",
        "expected": shown,
        "points_a": "100",
        "points_b": "50",
        "winner": "a",
        "ended": "target",
        "reason": "my sheet",
        "who": "Tomás",
    }
    response = page.post(f"/t/{director.id}/rounds/1/tables/1/result", data=form, follow_redirects=True)
    assert "the result changed while you corrected it" in response.text.replace("&#39;", "'")
    assert director.tables()[0]["result"]["points_b"] == 45
    form["expected"] = json.dumps(director.tables()[0]["result"])
    assert page.post(f"/t/{director.id}/rounds/1/tables/1/result", data=form).status_code == 302
    result = director.tables()[0]["result"]
    assert result["points_b"] == 50 and director.view()["corrections"][-1]["by"] == "Tomás"


def test_pages_reading_at_once_as_a_match_ends_record_its_result_once(app, client, director):
    import threading

    view = started(director)
    table = view["rounds"][0]["tables"][0]
    record, answer = simulated(3)
    phone = TablePhone(app, client, table)
    last = len(record["hands"]) - 1
    phone.play(record, hands=last, events=len(record["hands"][last]["events"]) - 1, api_tail=0)
    phone.event(record["hands"][last]["events"][-1])  # the match ends; nobody has looked yet
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def look() -> None:
        reader = app.test_client()
        barrier.wait()
        statuses.append(reader.get(director.url()).status_code)

    threads = [threading.Thread(target=look) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 6
    changes = director.client.get(director.url("/history"), headers=director.auth).get_json()["changes"]
    recorded = [c for c in changes if c["action"] == "result"]
    assert len(recorded) == 1 and recorded[0]["who"] == "the companion"
    assert recorded[0]["after"]["results"][0]["points_a"] == answer["totals"][0]


# -- the break after round two ----------------------------------------------------------------


def two_rounds_played(director: Director) -> dict:
    """Rounds one and two, every table's result entered by hand: the break after round two begins."""
    director.register_all()
    for number in (1, 2):
        assert director.post("/rounds", {"seed": 9} if number == 1 else {}).status_code == 201
        for t in director.tables():
            response = director.result(
                number, t["table"], points_a=100, points_b=t["table"], winner="a", ended="target", reason="score sheet"
            )
            assert response.status_code == 201, response.get_json()
    view = director.view()
    assert view["phase"] == "break"
    return view


def test_round_three_in_the_break_is_refused_unless_the_director_confirms(clock, director):
    before = two_rounds_played(director)
    until = before["clock"]["break_until"]
    clock.advance(minutes=4)
    response = director.post("/rounds")
    assert response.status_code == 409
    refused = response.get_json()
    # the end as an instant with its zone (a page shows it in its own time), the minutes left in words
    assert refused["error"] == (
        f"the ten-minute break after round 2 has 6 min left (it ends at {until}): round 3 starts then, "
        "unless you confirm starting it during the break; nothing was recorded"
    )
    assert (refused["break_until"], refused["minutes_left"]) == (until, 6) and "UTC" not in refused["say"]
    unchanged(director, before)
    response = director.post("/rounds", {"during_break": "yes"})
    assert response.status_code == 400 and "during_break is true or false" in response.get_json()["error"]
    response = director.post("/rounds", {"during_break": True, "who": "Rosa"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["round"] == 3
    (last,) = director.client.get(director.url("/history"), headers=director.auth).get_json()["changes"][-1:]
    assert (last["action"], last["who"]) == ("round", "Rosa")
    assert last["why"] == "started during the break, 6 min before its end"
    assert last["after"]["break_until"] == until


def test_after_the_break_round_three_starts_without_asking(clock, director):
    two_rounds_played(director)
    clock.advance(minutes=10)
    assert director.view()["phase"] == "between"
    response = director.post("/rounds")
    assert response.status_code == 201 and response.get_json()["round"] == 3
    history = director.client.get(director.url("/history"), headers=director.auth).get_json()["changes"]
    assert history[-1]["why"] == "" and "break_until" not in history[-1]["after"]


def test_the_page_asks_the_director_to_confirm_a_round_in_the_break(app, director):
    two_rounds_played(director)
    page = app.test_client()
    page.get(f"/t/{director.id}/join?key={director.token}")
    text = page.get(f"/t/{director.id}").text
    assert 'name="during_break"' in text and "Start round 3" in text
    form = {"csrf_token": csrf_of(text), "who": "Rosa"}
    refused = page.post(f"/t/{director.id}/rounds", data=form, follow_redirects=True).text
    assert "runs to" in refused and "unless you tick the box to start it during the break" in refused
    # the break's end as the page shows its clock: a <time> its script writes in the director's own time
    until = director.view()["clock"]["break_until"]
    flash = re.search(r'<p class="flash" role="alert">(.*?)</p>', refused, re.S).group(1)
    assert f'runs to <time datetime="{until}">{until[11:16]} UTC</time> (10 min left)' in flash
    assert director.view()["round"] == 2
    assert page.post(f"/t/{director.id}/rounds", data={**form, "during_break": "1"}).status_code == 302
    assert director.view()["round"] == 3
