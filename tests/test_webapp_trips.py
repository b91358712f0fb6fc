"""What a change costs the database: its statements, counted as the app sends them.

A play recorded through the API reads the match's row once (the scorer's check, with whether a
guard concerns the match), looks for plays kept to confirm, bumps the version and writes its
rows; on PostgreSQL it queues its notification. It reads nothing back after the commit, and a
match that is no tournament table costs the tournament's guard no query (docs/scale.md)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.records import play
from tests.support.tournament import TEAMS, TablePhone, simulated, started

BOTH_DATABASES = pytest.mark.database("sqlite", "postgresql")


def kind(statement: str) -> str:
    """ "SELECT games", "INSERT events", "NOTIFY"...: the verb and the table of the outer statement."""
    flat = " ".join(statement.split())
    if "pg_notify" in flat:
        return "NOTIFY"
    while True:  # subqueries out, innermost first: what is left is the statement itself
        inner = re.sub(r"\([^()]*\)", "", flat)
        if inner == flat:
            break
        flat = inner
    verb = flat.split()[0].upper()
    table = re.search(r"\b(?:FROM|INTO|UPDATE)\s+(\w+)", flat, re.IGNORECASE)
    return f"{verb} {table.group(1) if table else '?'}"


@contextmanager
def counted(app: Any, *, after: bool = False) -> Iterator[list[str]]:
    """The statements the app sends meanwhile, as `kind` names them (`after`: once each has run)."""
    from sqlalchemy import event

    from webapp.db import db

    with app.app_context():
        engine = db.engine
    sent: list[str] = []

    def before(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
        sent.append(kind(statement))

    hook = "after_cursor_execute" if after else "before_cursor_execute"
    event.listen(engine, hook, before)
    try:
        yield sent
    finally:
        event.remove(engine, hook, before)


def test_kind_names_the_outer_statement():
    assert kind("SELECT EXISTS (SELECT * FROM tournament_tables WHERE x) AS a, games.id FROM games WHERE") == (
        "SELECT games"
    )
    assert kind("INSERT INTO events (a, b) VALUES (1, (SELECT max(p) FROM events))") == "INSERT events"
    assert kind("SELECT pg_notify(%(channel)s, %(payload)s)") == "NOTIFY"


@BOTH_DATABASES
def test_a_play_reads_the_match_once_and_nothing_back(app, table, database):
    assert table.event(play(0, "6-6")).status_code == 201  # the match's record in the cache, as in play
    with counted(app) as sent:
        response = table.event(play(1, "6-4", "west"))
    assert response.status_code == 201
    writes = ["UPDATE games", "INSERT changes", "INSERT events"]
    notify = ["NOTIFY"] if database == "postgresql" else []
    # the scorer's check (the match's row), the plays kept to confirm, then the change's own writes
    assert sent == ["SELECT games", "SELECT frames", *writes, *notify]
    change = response.get_json()["change"]  # whole, though not read back
    assert change["version"] == 4 and change["action"] == "event" and change["hand"] == 0 and change["event"] == 1
    assert change["after"] == play(1, "6-4", "west") and change["who"] == "scorer token" and change["at"]
    assert table.get("/history").get_json()["changes"][-1] == change


@BOTH_DATABASES
def test_a_new_hand_and_an_undo_cost_no_more(app, table, database):
    table.event(play(0, "6-6"))
    notify = ["NOTIFY"] if database == "postgresql" else []
    with counted(app) as sent:
        assert table.post("/undo", {"why": "wrong tile"}).status_code == 200
    # the plays kept to confirm (an undo waits for them), the undo's event row looked up to mark it
    # taken back, and the photos linked to it or after it (`store._relink`), which flushes the
    # event's update first
    assert sent == [
        "SELECT games",
        "SELECT frames",
        "UPDATE games",
        "SELECT events",
        "UPDATE events",
        "SELECT frames",
        "INSERT changes",
        *notify,
    ]
    with counted(app) as sent:
        assert table.post("/undo", {}).status_code == 200  # the hand itself
        assert table.post("/hands", {"leader": 0}).status_code == 201
    assert sent.count("SELECT games") == 2 and "SELECT changes" not in sent


def test_a_play_after_an_undo_takes_the_place_after_the_hands_last_row(app, table):
    """The INSERT works out the event's position (taken-back rows count): each version's record
    still reads as it was."""
    from sqlalchemy import select

    from webapp.db import db
    from webapp.models import EventRow

    table.event(play(0, "6-6"))
    table.event(play(1, "6-4", "west"))
    table.post("/undo", {"why": "wrong tile"})
    table.event(play(1, "6-5", "west"))
    with app.app_context():
        rows = db.session.execute(select(EventRow.position, EventRow.removed_version).order_by(EventRow.id)).all()
    assert [tuple(row) for row in rows] == [(0, None), (1, 5), (2, None)]
    assert table.get("/record?version=4").get_json()["hands"][0]["events"] == [play(0, "6-6"), play(1, "6-4", "west")]
    assert table.record()["hands"][0]["events"] == [play(0, "6-6"), play(1, "6-5", "west")]


def test_a_tournament_tables_change_still_asks_the_guard(app, client, director):
    """A table's match is read with its guard's condition true: the guard reads the tournament."""
    game = started(director, TEAMS[:4])["rounds"][0]["tables"][0]
    record, _ = simulated(3)
    phone = TablePhone(app, client, game)
    with counted(app) as sent:
        phone.event(record["hands"][0]["events"][0])
    assert "SELECT tournament_tables" in sent and sent.count("SELECT games") == 1


@BOTH_DATABASES
def test_a_phone_whose_turn_comes_after_another_ones_change_reads_the_match_again(app, table):
    """Two phones of one process: the second read the match (its scorer check), then waited for its
    turn while the first changed it. It reads the match again rather than lose the version bump and
    start over (this process heard of the first change)."""
    from webapp import store

    client = app.test_client()
    answers: list[int] = []
    with counted(app, after=True) as sent:
        with store.in_turn(table.id):  # the first phone's turn, held
            second = threading.Thread(
                target=lambda: answers.append(
                    client.post(f"/api/games/{table.id}/events", json=play(0, "6-6"), headers=table.auth).status_code
                )
            )
            second.start()
            for _ in range(500):  # the second phone has read the match, and waits for its turn
                if "SELECT games" in sent:
                    break
                time.sleep(0.01)
            assert "SELECT games" in sent
            first = table.event({"type": "adjust", "team": 0, "points": 5, "reason": "first"})
            assert first.status_code == 201
        second.join()
    assert answers == [201]
    assert sent.count("UPDATE games") == 2  # no bump lost, none made again
    assert table.record()["hands"][0]["events"][1] == play(0, "6-6")


@pytest.fixture
def no_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Changes of one match do not take turns in this process: each request races the others as a
    request of another process would, and only the database's guarded version bump keeps order."""
    from webapp import store

    monkeypatch.setattr(store, "_game_lock", lambda game_id: threading.RLock())


@BOTH_DATABASES
def test_phones_of_two_processes_at_once_never_lose_an_event(app, table, no_turns):
    def phone(team: int) -> None:
        client = app.test_client()
        for _ in range(8):
            response = client.post(
                f"/api/games/{table.id}/events",
                headers=table.auth,
                json={"type": "adjust", "team": team, "points": 5, "reason": "test"},
            )
            assert response.status_code == 201, response.get_json()

    threads = [threading.Thread(target=phone, args=(team,)) for team in (0, 1, 0)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert table.get("/score").get_json()["totals"] == [80, 40]
    versions = [c["version"] for c in table.get("/history").get_json()["changes"]]
    assert versions == list(range(1, 27))
    assert len(table.record()["hands"][0]["events"]) == 24


@BOTH_DATABASES
def test_phones_of_two_processes_on_one_version_one_wins(app, table, no_turns):
    results: list[tuple[int, Any]] = []
    ready = threading.Barrier(3)

    def phone(team: int) -> None:
        client = app.test_client()
        ready.wait()
        response = client.post(
            f"/api/games/{table.id}/events",
            headers={**table.auth, "If-Match": "2"},
            json={"type": "adjust", "team": team % 2, "points": 5, "reason": "x"},
        )
        results.append((response.status_code, response.get_json().get("version")))

    threads = [threading.Thread(target=phone, args=(t,)) for t in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(code for code, _ in results) == [201, 409, 409]
    assert all(version == 3 for _, version in results)  # the loser is told the version that won
    assert len(table.record()["hands"][0]["events"]) == 1
