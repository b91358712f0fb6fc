"""A database that cannot be written just now (SQLite's write lock held elsewhere past its wait):
the change is answered 503 in plain words, nothing is recorded, and the next try goes through."""

from __future__ import annotations

import sqlite3

from tests.support.records import play
from tests.support.web import PLAYERS, Table


def test_a_locked_database_answers_503_and_records_nothing(tmp_path):
    from webapp import create_app
    from webapp.store import cache

    cache.clear()
    path = tmp_path / "busy.db"
    app = create_app(
        {
            "SPINNER_DATA": tmp_path / "data",
            "DATABASE_URL": f"sqlite:///{path}",
            "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"timeout": 0.2}},
        }
    )
    client = app.test_client()
    t = Table(client, client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json())
    assert t.post("/hands", {}).status_code == 201

    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        response = t.event(play(0, "6-6"))
        assert response.status_code == 503
        assert response.get_json()["error"] == (
            "the database is too busy or out of reach just now: nothing was recorded; try again"
        )
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert t.record()["hands"][0]["events"] == []
    assert t.event(play(0, "6-6")).status_code == 201
