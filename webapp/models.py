"""The tables. A match's record is kept as rows that are never overwritten.

`games` holds what a record says once (variant, options, players); `hands` and `events` hold
the rest, one row per hand and per event, each stamped with the version of the match that
added it and, once undone or corrected, the version that removed it. The record at any
version is therefore still there to read. `changes` says who made each version, when and why.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, query_expression

from .db import db


def now() -> datetime:
    return datetime.now(UTC)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """A match. (`Match` is the scorer's class; this is its row.)"""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(120), default="")
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[list[str]] = mapped_column(JSON)
    #: Record fields this server does not know, kept so an import exports as it came.
    extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: Unlisted, and readable only with a link that carries a token.
    private: Mapped[bool] = mapped_column(default=False)
    #: Bumped by every change; a change made on an older version is refused (409).
    version: Mapped[int] = mapped_column(Integer, default=1)
    scorer_hash: Mapped[str] = mapped_column(String(64))
    viewer_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: Whether a guard of the store's changes (`store.GUARDS`) concerns this match: True or False
    #: where the row was read for a change with the guards' conditions (`store.get_game(...,
    #: changing=True)`), else None (not asked: every guard runs). No column: read with the row.
    guarded: Mapped[bool | None] = query_expression()


class HandRow(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "hands"
    __table_args__ = (Index("ix_hands_game", "game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    leader: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deal: Mapped[list[list[str]] | None] = mapped_column(JSON, nullable=True)
    #: the hand's fields GAME_RECORD.md does not name (another tool's), kept to be given back
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_version: Mapped[int] = mapped_column(Integer)
    removed_version: Mapped[int | None] = mapped_column(Integer, nullable=True)


class EventRow(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "events"
    __table_args__ = (Index("ix_events_game", "game_id", "hand", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    hand: Mapped[int] = mapped_column(Integer)
    #: Order within the hand; a correction takes the position of the event it replaces.
    position: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_version: Mapped[int] = mapped_column(Integer)
    removed_version: Mapped[int | None] = mapped_column(Integer, nullable=True)


class Change(db.Model):  # type: ignore[name-defined,misc]
    """One version of a match: who made it, when, why, and what it did."""

    __tablename__ = "changes"
    # Two phones that both built on version v cannot both write version v + 1.
    __table_args__ = (UniqueConstraint("game_id", "version", name="uq_changes_game_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    #: create, import, hand, event, correct, remove, undo, dispute, settle
    action: Mapped[str] = mapped_column(String(16))
    hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    event: Mapped[int | None] = mapped_column(Integer, nullable=True)
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    who: Mapped[str] = mapped_column(String(60), default="")
    why: Mapped[str] = mapped_column(Text, default="")
    #: pad, camera, api, import
    source: Mapped[str] = mapped_column(String(16), default="api")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Frame(db.Model):  # type: ignore[name-defined,misc]
    """A photo the camera or a player sent: kept as a file, with what the reader made of it.

    `status` says where it stands: queued, recorded (its play was written by itself), confirm
    (a proposal waits for one tap), kept (its play is followed with its seat open, not recorded,
    until the one question for such plays is answered), accepted or rejected (the tap), nothing
    (no new tile), over
    (the hand was over), skipped (a newer frame of the same table came first), no-reader
    (the server has no reader) or unreadable. `event` is the index in `hand` of the event it
    produced, so a replay can show the frame with that event and its points. Every change that
    moves events keeps it right in the change's own transaction (`webapp.store`): an event removed
    before it shifts it with its event, and once its event is corrected or taken back `link` says
    so (`{"state": "corrected" | "taken back", "action", "version", "event", "who", "why"}`: the
    change that did it and the index the event had then); a frame taken back has no `event`, so
    it never names another event.
    """

    __tablename__ = "frames"
    __table_args__ = (Index("ix_frames_game", "game_id", "hand", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The match's version when the frame was read (what the proposal was made against).
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    event: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: None while the event it made stands as made; else what became of it (see above)
    link: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: photo (one shot from the page), camera (a live camera's frame), import
    source: Mapped[str] = mapped_column(String(16), default="photo")
    status: Mapped[str] = mapped_column(String(16), default="queued")
    message: Mapped[str] = mapped_column(Text, default="")
    #: The file under SPINNER_DATA (relative), or "" once dropped (skipped camera frames).
    path: Mapped[str] = mapped_column(String(200), default="")
    width: Mapped[int] = mapped_column(Integer, default=0)
    height: Mapped[int] = mapped_column(Integer, default=0)
    reading: Mapped[Any] = mapped_column(JSON, nullable=True)
    proposal: Mapped[Any] = mapped_column(JSON, nullable=True)
    who: Mapped[str] = mapped_column(String(60), default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ReadJob(db.Model):  # type: ignore[name-defined,misc]
    """A frame waiting for a reader worker (`webapp.readqueue`, SPINNER_READERS=queue; PostgreSQL).

    `state`: waiting, reading (a worker took it: `worker` is its lease), done, skipped (a newer
    frame of the same table came first), no-reader or failed. A photo's row and file are kept
    before it is queued (`frame_id`); a live camera's frame travels as `data` and `spec` (its row
    to be) until a worker takes it. `data` is dropped once the job is settled.
    """

    __tablename__ = "read_jobs"
    __table_args__ = (Index("ix_read_jobs_state", "state", "id"), Index("ix_read_jobs_game", "game_id", "state"))

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    frame_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    state: Mapped[str] = mapped_column(String(16), default="waiting")
    data: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    spec: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    worker: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    message: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
