"""The match's housekeeping: renaming it and deleting it (the scorer's, from the list), and where
each player sits in the camera's picture.

A rename is a change like any other (its own version, so every open page redraws the title,
and a line in the history). A delete takes the match, its history and its photos away for good;
a tournament's table is kept, since the tournament's results are read from it.
"""

from __future__ import annotations

from pathlib import Path

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import delete as sql_delete
from sqlalchemy import select

from . import frames, schemas, store, twelve
from .auth import whole_text
from .db import db
from .errors import ApiError
from .models import Change, EventRow, Frame, Game, HandRow


def rename(game_id: str, title: object, *, who: str) -> store.Done:
    if _in_tournament(store.get_game(game_id).id):
        # Its title names the tournament, the round, the table and its teams: the director's, not the table's.
        raise ApiError(
            409,
            "this match is a tournament table: its name is the tournament's (round, table and teams)",
            say=_("This match is a tournament table: its name is the tournament’s (round, table and teams)."),
        )
    name = whole_text(title, schemas.TITLE_LENGTH, "title")  # refused past it, never cut short

    def plan(game: Game, snap: store.Snapshot) -> store.Plan:
        def write(version: int) -> None:
            game.title = name

        return store.Plan(
            snap.record, write, "rename", "renaming the match", before={"title": game.title}, after={"title": name}
        )

    return store._change(game_id, None, plan, who=who, why="", source="pad")


def seat(game_id: str, seating: object, expected: int | None, *, who: str) -> store.Done:
    """Where each player sits in the camera's picture, seat by seat (`"seating"` in the record:
    GAME_RECORD.md lets a record carry fields a reader may ignore), or None to forget it: the
    camera then names the player of a tile by the side the arm that laid it came from, from the
    first play, instead of learning it from the plays. A change like any other (its version, a
    line in the history)."""

    def plan(game: Game, snap: store.Snapshot) -> store.Plan:
        if game.variant == twelve.VARIANT:  # the engine refuses a record of twelve with one too
            raise ApiError(
                422,
                "seating: a game of twelve has no seating (no layout, no camera): nothing was changed",
                code="twelve_field",
                field="seating",
                say=_("Twelve has no seating: there is no layout for a camera to follow."),
            )
        sides = store.seating_of(seating, len(game.players))
        record = {k: v for k, v in snap.record.items() if k != "seating"}
        if sides is not None:
            record["seating"] = sides

        def write(version: int) -> None:
            extra = {k: v for k, v in (game.extra or {}).items() if k != "seating"}
            game.extra = {**extra, **({"seating": sides} if sides is not None else {})}

        return store.Plan(
            record,
            write,
            "seating",
            "seating the players",
            before={"seating": snap.record.get("seating")},
            after={"seating": sides},
        )

    return store._change(game_id, expected, plan, who=who, why="", source="pad")


def delete(game_id: str) -> None:
    game = store.get_game(game_id)
    if _in_tournament(game.id):
        raise ApiError(409, "this match is a tournament table: the tournament keeps it")
    data = frames.folder(current_app._get_current_object())  # type: ignore[attr-defined]
    paths = [row.path for row in db.session.scalars(select(Frame).where(Frame.game_id == game.id)) if row.path]
    for table in (Frame, Change, EventRow, HandRow):
        db.session.execute(sql_delete(table).where(table.game_id == game.id))
    db.session.delete(game)
    db.session.commit()
    store.cache.clear()
    for path in paths:  # after the commit: a photo left behind costs disk, a missing one would break the match
        _unlink(data / path, data)


def _in_tournament(game_id: str) -> bool:
    try:
        from .tournament.models import TableRow
    except ImportError:  # no tournaments on this server
        return False
    return db.session.scalar(select(TableRow.id).where(TableRow.game_id == game_id)) is not None


def _unlink(path: Path, inside: Path) -> None:
    try:
        resolved = path.resolve()
        if inside.resolve() in resolved.parents:  # only files under the frames folder
            resolved.unlink(missing_ok=True)
    except OSError:
        pass
