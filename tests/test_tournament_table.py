"""A tournament table's own match page (`/g/ID`, its board JSON): which tournament, round and table,
the round clock, and the 30-minute bell as the server rules it, also when nothing is posted at the table."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from tests.support.tournament import Director, TablePhone, simulated

BELL_BANNER = "Bell: finish the hand in play"
TABLE = 2


def started(director: Director) -> dict:
    director.register_all()
    response = director.post("/rounds", {"seed": 7})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["rounds"][0]["tables"][TABLE - 1]


def bell_hand(answer: dict) -> int:
    """A hand that leaves the scores unequal and under 100, with more hands after it."""
    for k, hand in enumerate(answer["hands"][:-1]):
        a, b = hand["totals"]
        if k >= 1 and a != b and max(a, b) < 100:
            return k
    raise AssertionError("no hand to ring the bell in")


def board(client, game_id: str, etag: str | None = None):
    return client.get(f"/api/games/{game_id}/board", headers={"If-None-Match": etag} if etag else {})


def test_an_ordinary_match_says_it_is_no_tournament_table(client):
    created = client.post("/api/games", json={"variant": "partners-block", "players": ["A", "B", "C", "D"]}).get_json()
    response = board(client, created["id"])
    assert response.get_json()["tournament"] is None
    assert response.headers["ETag"] == f'"{created["version"]}"'  # as before: the match's version alone
    assert 'id="tournament-table"' not in client.get(f"/g/{created['id']}").text


def test_the_table_page_shows_the_round_then_the_bell_with_nothing_posted(app, client, clock, director):
    table = started(director)
    game_id = table["game_id"]
    record, answer = simulated(5)
    k = bell_hand(answer)
    half = len(record["hands"][k]["events"]) // 2
    phone = TablePhone(app, client, table)
    phone.play(record, hands=k, events=half)  # hand k is in play

    before = board(client, game_id)
    said = before.get_json()["tournament"]
    assert (said["title"], said["round"], said["rounds_total"], said["table"]) == ("Club night", 1, 4, TABLE)
    assert said["teams"] == [table["team_a"], table["team_b"]]
    assert (said["state"], said["rung"], said["banner"], said["result"]) == ("play_on", False, None, None)
    start = datetime.fromisoformat(said["clock"]["started_at"])
    assert datetime.fromisoformat(said["clock"]["rings_at"]) == start + timedelta(minutes=30)
    assert said["clock"]["length_s"] == 1800
    page = client.get(f"/g/{game_id}").text
    assert "round 1 of 4 · <strong>table 2</strong>" in page and table["team_a"] in page
    assert BELL_BANNER not in page
    assert board(client, game_id, before.headers["ETag"]).status_code == 304  # polling costs nothing meanwhile

    clock.advance(minutes=30, seconds=1)
    # Nothing was posted at the table: the match is at the same version, but its board has moved on.
    rung = board(client, game_id, before.headers["ETag"])
    assert rung.status_code == 200 and rung.headers["ETag"] != before.headers["ETag"]
    data = rung.get_json()
    assert data["version"] == before.get_json()["version"] and data["etag"] == rung.headers["ETag"]
    said = data["tournament"]
    assert (said["state"], said["rung"], said["banner"], said["result"]) == ("finish_hand", True, BELL_BANNER, None)
    assert BELL_BANNER in data["html"]["top"]
    assert BELL_BANNER in client.get(f"/g/{game_id}").text
    # the page that saw the bell first fixed the hands that count, as the director's page would
    assert director.tables()[TABLE - 1]["bell_hands"] == k + 1

    phone.finish(record, k, half)  # the hand in play is over: the higher score wins
    said = board(client, game_id).get_json()["tournament"]
    a, b = answer["hands"][k]["totals"]
    winner = table["team_a"] if a > b else table["team_b"]
    assert said["state"] == "decided" and said["recorded"] is True and said["deciding_hand"] == k + 1
    assert (said["result"]["winner"], said["result"]["ended"]) == (winner, "bell")
    assert said["banner"] == f"Match decided: {winner} won {max(a, b)}–{min(a, b)} (at the bell)"
    assert said["note"] == f"Hand {k + 1} decided it: a hand started after it does not count."
    assert said["hands_not_counting"] == []
    assert director.tables()[TABLE - 1]["result"]["winner"] == winner

    # A hand started after the deciding one is played on the pad, and does not count.
    phone.new_hand(record["hands"][k + 1].get("leader"))
    phone.event(record["hands"][k + 1]["events"][0])
    said = board(client, game_id).get_json()["tournament"]
    assert said["result"]["winner"] == winner and said["hands_not_counting"] == [k + 2]
    assert said["note"] == f"Hand {k + 1} decided it: hand {k + 2}, started after it, does not count."
    page = client.get(f"/g/{game_id}").text
    assert f"Match decided: {winner} won" in page and f"hand {k + 2}, started after it, does not count" in page


def test_the_live_stream_and_the_page_carry_the_tournament(app, client, clock, director):
    table = started(director)
    response = app.test_client().get(f"/api/games/{table['game_id']}/stream")
    chunk = next(
        c for c in (c.decode() if isinstance(c, bytes) else c for c in response.response) if c.startswith("id: ")
    )
    response.close()
    sent = json.loads(chunk.split("data: ", 1)[1])
    assert sent["tournament"]["table"] == TABLE and "tournament-table" in sent["html"]["top"]
    page = client.get(f"/g/{table['game_id']}").text
    # the page counts down from the server's clock and its bell time, and asks again at the bell
    assert f'data-now="{clock.now.isoformat()}"' in page
    assert 'id="round-clock-left"' in page and f'data-rings-at="{sent["tournament"]["clock"]["rings_at"]}"' in page
    assert f'data-etag="{sent["etag"]}"' in page.replace("&#34;", '"')


def test_a_table_the_director_decides_shows_the_decision(client, director):
    table = started(director)
    response = director.result(
        1, TABLE, points_a=0, points_b=0, winner="b", ended="director", reason=f"{table['team_a']} did not show up"
    )
    assert response.status_code == 201, response.get_json()
    said = board(client, table["game_id"]).get_json()["tournament"]
    assert said["state"] == "decided" and said["result"]["winner"] == table["team_b"]
    assert said["banner"] == f"Match decided: {table['team_b']} won 0–0 (director's decision)"
    assert said["note"] == f"The director's decision: {table['team_a']} did not show up"
