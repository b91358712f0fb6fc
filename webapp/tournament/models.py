"""The tournament's tables (SQL ones): the tournament itself, its match tables, its history.

The tournament's whole state (teams, rounds, pairings, results, corrections) is the scorer's
`Tournament.to_dict()`, kept as one JSON value and re-checked by `Tournament.from_dict` on
every read, so the database can never hold a tournament the rules refuse. Around it:
`tournament_tables` ties each table of each round to its ordinary companion match, and
`tournament_changes` says who changed what, when and why (nothing is overwritten silently).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db
from ..models import now


class TournamentRow(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(120), default="")
    #: `scorer.tournament.Tournament.to_dict()`: the scorer re-checks it on every read.
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Bumped by every change; a change made on an older version is refused (409).
    version: Mapped[int] = mapped_column(Integer, default=1)
    director_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TableRow(db.Model):  # type: ignore[name-defined,misc]
    """One table of one round and the companion match played at it."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "table", name="uq_tournament_tables"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    #: Indexed: every board request of every match asks whether it is a tournament table.
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    #: Hands that count once the 30-minute bell rang (those over, and the one in play then);
    #: fixed when the bell is first seen, so later hands cannot change the bell's result.
    bell_hands: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: When this table's first result came in: the round ends with its last table.
    result_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentChange(db.Model):  # type: ignore[name-defined,misc]
    """One version of a tournament: who made it, when, why, and what it did."""

    __tablename__ = "tournament_changes"
    __table_args__ = (UniqueConstraint("tournament_id", "version", name="uq_tournament_changes_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    #: create, import, register, close, round, result, correct, bell
    action: Mapped[str] = mapped_column(String(16))
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    who: Mapped[str] = mapped_column(String(60), default="")
    why: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
