"""What an adversarial probe of tournament night found: a table's match that could not be read
as a tournament result (a 500 on its page, a 422 on every read), and a result that outlived its
match."""

from __future__ import annotations

import json

from tests.support.tournament import TEAMS, TablePhone, simulated, started


def count(app) -> tuple[int, int]:
    from webapp.db import db
    from webapp.models import Game
    from webapp.tournament.models import TournamentRow

    with app.app_context():
        return db.session.query(TournamentRow).count(), db.session.query(Game).count()


def test_a_table_record_with_other_house_rules_is_refused_at_import(app, client, director):
    started(director, TEAMS[:4])
    data = client.get(director.url("/export"), headers=director.auth).get_json()
    record, _ = simulated(3)
    before = count(app)
    body = json.loads(json.dumps(data))
    body["tables"][1]["record"]["options"] = {"target": 5}
    body["tables"][1]["record"]["hands"] = record["hands"][:1]  # won at 5: no tournament result
    response = client.post("/api/tournaments/import", json=body)
    assert response.status_code == 422
    assert response.get_json()["error"].startswith("round 1, table 2: the record plays with target 5")
    assert count(app) == before
    body["tables"][1]["record"]["options"] = {"target": 100}  # the tournament's own, said
    assert client.post("/api/tournaments/import", json=body).status_code == 201


def test_a_table_whose_match_no_tournament_result_can_say_stays_playable(app, client, director):
    """A table imported before its house rules were checked: its match won at 5 points is no
    tournament result. Its page and board still answer, and the tournament still reads."""
    from webapp.db import db
    from webapp.models import Game
    from webapp.store import cache

    table = started(director, TEAMS[:4])["rounds"][0]["tables"][0]
    with app.app_context():
        db.session.get(Game, table["game_id"]).options = {"target": 5}
        db.session.commit()
    cache.clear()
    record, _ = simulated(3)
    TablePhone(app, client, table).play(record, hands=1)
    assert client.get(f"/api/games/{table['game_id']}/score").get_json()["winner"] is not None
    assert client.get(f"/g/{table['game_id']}").status_code == 200
    assert client.get(f"/api/games/{table['game_id']}/board").status_code == 200
    assert client.get(director.url(), headers=director.auth).status_code == 200
    assert client.get(f"/t/{director.id}/board").status_code == 200


def test_a_tournament_that_cannot_be_read_leaves_the_table_playable(app, client, director, monkeypatch):
    from scorer.tournament import TournamentError
    from webapp.tournament import results

    table = started(director, TEAMS[:4])["rounds"][0]["tables"][0]

    def broken(*args, **kwargs):
        raise TournamentError("a rule the stored tournament breaks")

    monkeypatch.setattr(results, "read_table", broken)
    board = client.get(f"/api/games/{table['game_id']}/board")
    assert board.status_code == 200 and board.get_json()["tournament"] is None
    assert client.get(f"/g/{table['game_id']}").status_code == 200


# -- a recorded result and its match ---------------------------------------------------------------


def test_a_recorded_result_cannot_be_undone_from_under_the_standings(app, client, director):
    """The table's match reached 100, the tournament recorded the win; then the scorer undid the
    winning play, and the standings kept a win the match no longer had. A recorded result is
    final but for the director's correction: the undo is refused, saying so."""
    table = started(director, TEAMS[:4])["rounds"][0]["tables"][0]
    record, answer = simulated(3)
    phone = TablePhone(app, client, table)
    phone.play(record)
    recorded = director.tables()[0]["result"]
    assert recorded is not None and recorded["ended"] == "target"
    auth = {"Authorization": f"Bearer {phone.token}"}
    version = client.get(f"/api/games/{phone.game_id}").get_json()["version"]

    undone = client.post(f"/api/games/{phone.game_id}/undo", json={}, headers=auth)
    assert undone.status_code == 409
    said = undone.get_json()["error"]
    assert "round 1, table 1: the tournament has recorded this match's result" in said
    assert "nothing was changed" in said and "the director corrects it" in said
    last = len(record["hands"][-1]["events"]) - 1
    removed = client.delete(
        f"/api/games/{phone.game_id}/hands/{len(record['hands']) - 1}/events/{last}",
        json={"why": "misread"},
        headers=auth,
    )
    assert removed.status_code == 409
    assert client.get(f"/api/games/{phone.game_id}").get_json()["version"] == version
    assert director.tables()[0]["result"] == recorded

    # the director's correction is the way to change it, and the table is then the director's
    fixed = director.put(
        "/rounds/1/tables/1/result",
        {"points_a": 0, "points_b": 0, "winner": "a", "ended": "director", "reason": "misplayed last tile"},
    )
    assert fixed.status_code == 200, fixed.get_json()
    assert client.post(f"/api/games/{phone.game_id}/undo", json={}, headers=auth).status_code == 200
