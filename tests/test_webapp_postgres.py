"""The companion on a real PostgreSQL server (DATABASE_URL), started for these tests and thrown
away after; skipped where the server binaries are not installed. The same API tests as on SQLite
run here, the concurrency ones first: the guarded version bump must hold on PostgreSQL too."""
from __future__ import annotations

import itertools

import pytest

import pg_server
from test_webapp_api import (  # noqa: F401  (collected again here, on PostgreSQL)
    test_a_change_on_a_stale_version_is_refused_and_nothing_recorded,
    test_a_correction_that_breaks_a_later_event_is_refused,
    test_a_hand_scored_play_by_play_matches_the_scorer,
    test_an_illegal_play_is_refused_with_hand_event_and_rule_and_nothing_recorded,
    test_disputes_are_marked_and_settled_with_a_correction,
    test_import_a_whole_record_and_export_it_again,
    test_two_phones_at_once_never_lose_an_event,
    test_two_phones_on_the_same_version_one_wins,
    test_undo_is_a_new_history_entry_and_the_old_version_is_still_readable,
)
from test_webapp_camera import Script, photo, seen, send  # noqa: F401
from webapp_support import PLAYERS, Table, client, table  # noqa: F401  (fixtures)

pytestmark = pytest.mark.slow
_names = itertools.count()


@pytest.fixture(scope="module")
def postgres():
    from webapp import fanout

    for server in pg_server.running():
        yield server
        fanout.stop_all()  # before the server goes, so no listener is left knocking


@pytest.fixture
def app(tmp_path, postgres):
    """An app on a fresh database of the throwaway server (its migrations applied at start)."""
    from webapp import create_app
    from webapp.store import cache

    cache.clear()
    url = postgres.create_database(f"spinner_{next(_names)}")
    app = create_app({"SPINNER_DATA": tmp_path / "data", "DATABASE_URL": url, "TESTING": True,
                      "SPINNER_READER": Script(), "READ_WAIT": 10.0})
    yield app
    from webapp.db import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_it_really_is_postgresql(app):
    from sqlalchemy import inspect

    from webapp.db import db

    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
        tables = set(inspect(db.engine).get_table_names())
    assert {"games", "hands", "events", "changes", "frames", "alembic_version"} <= tables


def test_frames_and_their_export_on_postgresql(app, table):
    reader = app.config["SPINNER_READER"]
    reader.readings.append(seen("6-6"))
    table.app = app
    frame = send(table, photo(), "?seat=0").get_json()
    assert frame["status"] == "recorded"
    exported = table.client.get(f"/api/games/{table.id}/export")
    imported = table.client.post("/api/games", data=exported.data, content_type="application/zip")
    copy = Table(table.client, imported.get_json())
    assert copy.record()["hands"] == table.record()["hands"]
    assert [f["event"] for f in copy.get("/frames").get_json()["frames"]] == [0]
