"""A whole tournament night through the companion: eight teams, four rounds of simulated matches
at the tables, one table stopped by the 30-minute bell, one result corrected by the director.

Every table plays an ordinary companion match created from the pairing; the results reach the
standings by themselves as the matches end. The standings are then checked against the rules
(most wins, then most points, equal teams sharing the place), computed here from the matches'
own scores, independently of the tournament code.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from tests.support.tournament import TEAMS, Director, TablePhone, simulated

BELL_ROUND, BELL_TABLE = 3, 2
CORRECTED_ROUND, CORRECTED_TABLE = 2, 1


def rules_standings(results: list[dict]) -> list[tuple[int, str, int, int, int]]:
    """RULES.md: most wins, then total points; teams equal on both share the place."""
    tally = {name: [0, 0, 0] for name, _ in TEAMS}
    for r in results:
        loser = r["team_b"] if r["winner"] == r["team_a"] else r["team_a"]
        tally[r["winner"]][0] += 1
        tally[loser][1] += 1
        tally[r["team_a"]][2] += r["points_a"]
        tally[r["team_b"]][2] += r["points_b"]
    order = sorted(tally, key=lambda n: (-tally[n][0], -tally[n][2]))
    lines = []
    for i, name in enumerate(order):
        wins, losses, points = tally[name]
        place = i + 1
        if lines and (lines[-1][2], lines[-1][4]) == (wins, points):
            place = lines[-1][0]
        lines.append((place, name, wins, losses, points))
    return sorted(lines)


def bell_hand(answer: dict) -> int:
    """A hand of the match that leaves the scores unequal and under 100, with more hands after it."""
    for k, hand in enumerate(answer["hands"][:-1]):
        a, b = hand["totals"]
        if k >= 1 and a != b and max(a, b) < 100:
            return k
    raise AssertionError("no hand to ring the bell in")


def test_a_whole_tournament_night(app, client, clock, director: Director):
    director.register_all()
    view = director.view()
    assert view["registration_open"] is False  # closed by itself with the eighth team
    expected: list[dict] = []  # every result, as the matches and the director decide them
    met: set[frozenset] = set()
    seed = 0

    for number in range(1, 5):
        response = director.post("/rounds", {"seed": 2025} if number == 1 else {})
        assert response.status_code == 201, response.get_json()
        view = response.get_json()
        tables = view["rounds"][-1]["tables"]
        assert [t["table"] for t in tables] == [1, 2, 3, 4]
        wins = {s["team"]: s["wins"] for s in view["standings"]}
        for t in tables:
            pair = frozenset((t["team_a"], t["team_b"]))
            assert pair not in met, f"round {number}: {sorted(pair)} meet again"
            met.add(pair)
            if number == 2:  # winners meet winners
                assert wins[t["team_a"]] == wins[t["team_b"]]
        # each table's match seats the pairing's teams, partners facing each other
        first = tables[0]
        players = client.get(f"/api/games/{first['game_id']}").get_json()["players"]
        assert players == [first["players_a"][0], first["players_b"][0], first["players_a"][1], first["players_b"][1]]

        bell_at = None
        for t in tables:
            seed += 1
            record, answer = simulated(seed)
            phone = TablePhone(app, client, t)
            if (number, t["table"]) == (BELL_ROUND, BELL_TABLE):
                bell_at = (phone, record, answer, t)
                continue
            phone.play(record)  # the last events go through the API, like the pad's
            winner = t["team_a"] if answer["winner"] == 0 else t["team_b"]
            expected.append(
                {
                    "round": number,
                    "table": t["table"],
                    "team_a": t["team_a"],
                    "team_b": t["team_b"],
                    "points_a": answer["totals"][0],
                    "points_b": answer["totals"][1],
                    "winner": winner,
                    "ended": "target",
                }
            )

        if bell_at is not None:
            phone, record, answer, t = bell_at
            k = bell_hand(answer)
            half = len(record["hands"][k]["events"]) // 2
            phone.play(record, hands=k, events=half)  # hand k is in play...
            clock.advance(minutes=30, seconds=5)  # ...when the bell rings
            table = director.tables()[BELL_TABLE - 1]
            assert table["result"] is None and table["status"] == "bell rung: finish the hand in play"
            assert director.view()["clock"]["rung"] is True
            phone.finish(record, k, half)  # the hand in play is finished, then the higher score wins
            a, b = answer["hands"][k]["totals"]
            expected.append(
                {
                    "round": number,
                    "table": t["table"],
                    "team_a": t["team_a"],
                    "team_b": t["team_b"],
                    "points_a": a,
                    "points_b": b,
                    "winner": t["team_a"] if a > b else t["team_b"],
                    "ended": "bell",
                }
            )
            # a hand started after the bell decided changes nothing
            phone.new_hand(record["hands"][k + 1].get("leader"))
            phone.event(record["hands"][k + 1]["events"][0])

        view = director.view()
        done = view["rounds"][-1]
        assert done["complete"], done["tables"]
        for t in done["tables"]:
            want = next(e for e in expected if (e["round"], e["table"]) == (number, t["table"]))
            got = t["result"]
            assert (got["points_a"], got["points_b"], got["winner"], got["ended"]) == (
                want["points_a"],
                want["points_b"],
                want["winner"],
                want["ended"],
            ), (number, t)

        if number == CORRECTED_ROUND:
            want = next(e for e in expected if (e["round"], e["table"]) == (number, CORRECTED_TABLE))
            loser = want["team_b"] if want["winner"] == want["team_a"] else want["team_a"]
            response = director.put(
                f"/rounds/{number}/tables/{CORRECTED_TABLE}/result",
                {
                    "points_a": want["points_a"],
                    "points_b": want["points_b"],
                    "winner": loser,
                    "ended": "director",
                    "reason": f"{want['winner']} used hand signals (seed 001: grounds for disqualification)",
                    "who": "Rosa",
                },
            )
            assert response.status_code == 200, response.get_json()
            before = dict(want)
            want.update(winner=loser, ended="director")
            (correction,) = response.get_json()["corrections"]
            assert correction["by"] == "Rosa" and "hand signals" in correction["reason"]
            assert correction["before"]["winner"] == before["winner"] and correction["after"]["winner"] == loser
            # the break after round two, on the server's clock
            view = response.get_json()
            assert view["phase"] == "break"
            until = datetime.fromisoformat(view["clock"]["break_until"])
            assert until == clock.now + timedelta(minutes=10)
            clock.advance(minutes=10)
            assert director.view()["phase"] == "between"
        elif number < 4:
            assert director.view()["phase"] == "between"
        clock.advance(minutes=1)

    view = director.view()
    assert view["phase"] == "finished"
    got = sorted((s["place"], s["team"], s["wins"], s["losses"], s["points"]) for s in view["standings"])
    assert got == rules_standings(expected)
    assert view["champions"] == [s["team"] for s in view["standings"] if s["place"] == 1]
    public = client.get(f"/api/tournaments/{director.id}/standings").get_json()
    assert public["standings"] == view["standings"]

    # The whole night in one file, and back: same teams, rounds, results, corrections and records.
    exported = client.get(director.url("/export"), headers=director.auth)
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    data = exported.get_json()
    assert len(data["tables"]) == 16 and data["tournament"]["corrections"][0]["reason"].endswith("disqualification)")
    imported = client.post("/api/tournaments/import", json=data)
    assert imported.status_code == 201, imported.get_json()
    copy = Director(client, imported.get_json())
    assert copy.token != director.token
    again = copy.view()
    assert again["standings"] == view["standings"] and again["champions"] == view["champions"]
    assert again["corrections"] == view["corrections"]
    for old, new in zip(
        data["tables"], client.get(copy.url("/export"), headers=copy.auth).get_json()["tables"], strict=False
    ):
        assert new["record"] == old["record"] and (new["round"], new["table"]) == (old["round"], old["table"])
