"""The companion's app for the tests: one on a fresh SQLite file, and a match seen through its API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]


def app_on_fresh_sqlite(tmp_path: Path, **config: Any) -> Iterator[Any]:
    """The companion on its own SQLite file under tmp_path, with `config` on top; for a fixture to
    yield from. The store's cache is emptied first (it outlives an app) and the engine closed after."""
    from webapp import create_app
    from webapp.db import db
    from webapp.store import cache

    cache.clear()
    app = create_app(
        {
            "SPINNER_DATA": tmp_path / "data",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "TESTING": True,
            **config,
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def app_on_postgresql(tmp_path: Path, url: str, **config: Any) -> Iterator[Any]:
    """The companion on the PostgreSQL database at `url` (its migrations applied at start)."""
    from webapp import create_app
    from webapp.db import db
    from webapp.store import cache

    cache.clear()
    app = create_app({"SPINNER_DATA": tmp_path / "data", "DATABASE_URL": url, "TESTING": True, **config})
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class Table:
    """One match seen through the API, with its scorer token at hand."""

    def __init__(self, client: Any, created: dict[str, Any]) -> None:
        self.client = client
        self.id = created["id"]
        self.token = created["token"]
        self.viewer = created["viewer_token"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None, **kwargs: Any):
        return self.client.post(
            f"/api/games/{self.id}{path}", json=json, headers={**self.auth, **(headers or {})}, **kwargs
        )

    def event(self, event: dict[str, Any], **kwargs: Any):
        return self.post("/events", event, **kwargs)

    def get(self, path: str, **kwargs: Any):
        return self.client.get(f"/api/games/{self.id}{path}", **kwargs)

    def record(self) -> dict[str, Any]:
        return self.get("/record").get_json()

    def version(self) -> int:
        return self.client.get(f"/api/games/{self.id}").get_json()["version"]


def new_table(client: Any, variant: str = "partners", players: list[str] | None = None) -> Table:
    """A match made through the API with its first hand started."""
    response = client.post("/api/games", json={"variant": variant, "players": players or PLAYERS})
    assert response.status_code == 201, response.get_json()
    t = Table(client, response.get_json())
    assert t.post("/hands", {}).status_code == 201
    return t
