"""The companion on a real PostgreSQL server (DATABASE_URL), started for these tests and thrown
away after; skipped where the server binaries are not installed. The API tests marked
`database("sqlite", "postgresql")` in test_webapp_api.py run there too, the concurrency ones
first: the guarded version bump must hold on PostgreSQL as well."""

from __future__ import annotations

import pytest

from tests.support.camera import photo, seen, send
from tests.support.web import Table

pytestmark = [pytest.mark.slow, pytest.mark.database("postgresql")]


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
