"""The database handle and the migrations that the app applies to itself at start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import Migrate
from flask_migrate import upgrade as migrate_upgrade
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate(directory=str(MIGRATIONS))


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets the live pages read while a phone writes; foreign keys are off by default in SQLite.
    # synchronous=NORMAL: in WAL mode a commit survives the server crashing and never corrupts the
    # file; only an operating-system crash or power cut may lose the last commits. It spares an
    # fsync per change (7 ms each on the development machine, the largest cost of an event).
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def init_app(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db)


def upgrade(app: Flask) -> None:
    """Bring the database to the newest schema (a no-op when it is there already)."""
    with app.app_context():
        migrate_upgrade(directory=str(MIGRATIONS))
