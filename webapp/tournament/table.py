"""What a tournament table's own match page shows of the tournament: where it plays, the clock, the bell.

The table's scorer and viewers have its ordinary companion match open (`/g/ID`); the match's
board JSON (`webapp.board`) carries `of_match()` as its `tournament` field (None for an ordinary
match): the tournament, round and table, the two teams (side 0 of the match is the pairing's
first team), the round clock and what the table does now. It is all the server's: the 30-minute
rule is the scorer's `bell()`, read for this table's match by `calls` on the tournament's clock;
the page only counts the clock down to `rings_at` and asks again when it gets there.

The dict holds no "now": it stays the same between the moments that change it (the bell, a
hand ending, a result recorded), so the board made with it is cached and compared (its ETag)
like the match's own.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import current_app
from flask_babel import force_locale
from sqlalchemy import ColumnElement, exists, select

from scorer import Match
from scorer.tournament import (
    ROUND_LENGTH,
    ROUNDS,
    Round,
    Tournament,
    TournamentError,
    bell,
)

from ..db import db
from ..errors import ApiError
from ..models import Game
from ..store import Snapshot
from . import results, words
from .models import TableRow, TournamentRow
from .service import clock, state_of


def of_match(game: Game, snap: Snapshot) -> dict[str, Any] | None:
    """The tournament as this match's page shows it; None when the match is no tournament table."""
    row = _table_row(game.id)
    if row is None:
        return None
    try:
        return _of_table(row, snap)
    except (TournamentError, ApiError) as error:
        # The tournament cannot be read for this table (a rule its state or its match breaks):
        # the table's match stays playable, its board without the tournament part, rather than a
        # 500 on every look at it; the director settles the table from the tournament's pages.
        current_app.logger.warning("match %s: its tournament part is left out: %s", game.id, error)
        return None


def _of_table(row: TableRow, snap: Snapshot) -> dict[str, Any]:
    now = clock()
    t, r, view = _read(row, snap, now)
    if _unrecorded(r is t.current_round, row, view):
        # The first page to see the bell or the deciding hand records it, as every read of the
        # tournament does (`results.sync`), so the table never shows a decision the standings lack.
        results.sync(row.tournament_id)
        again = _table_row(row.game_id)
        assert again is not None
        row = again
        t, r, view = _read(row, snap, now)
    return _shown(_tournament_of(row), r, view, len(snap.answer.get("hands", [])), now)


def hold_result(game: Game, before: Snapshot, record: dict[str, Any], match: Match) -> None:
    """Refuse a change (an undo, a correction) that takes back what decided a table's result the
    tournament recorded from its match: the standings would keep a win the match no longer has.

    A recorded result is final but for the director's correction, with its reason (`results`):
    the director corrects it, and the next round may already be paired on it. A result the
    director entered or corrected by hand is the director's, not the match's: not held here."""
    row = _table_row(game.id)
    if row is None:
        return
    try:
        t = state_of(_tournament_of(row))
        r = t.rounds[row.round - 1]
        recorded = r.result(row.table)
        if recorded is None:
            return
        now, pairing = clock(), r.pairing(row.table)
        was = results.read_table(r, pairing, row, now, before.answer).call
        if was is None or was.result != recorded:
            return
        will = results.read_table(r, pairing, row, now, match.answer()).call
    except (TournamentError, ApiError):  # a tournament that cannot be read holds nothing back
        return
    if will is not None and will.result == recorded:
        return
    raise ApiError(
        409,
        f"round {r.number}, table {row.table}: the tournament has recorded this match's result ({recorded}), "
        "and this change would take back what decided it: nothing was changed. If the result is wrong, "
        "the director corrects it, with a reason, on the tournament's page (Correct the result)",
    )


def is_table() -> ColumnElement[bool]:
    """Whether a match is a tournament table, as SQL on its `games` row: `hold_result` holds back
    nothing of any other, and a change of one reads this with the row (`store.Guard`)."""
    return exists().where(TableRow.game_id == Game.id)


def _table_row(game_id: str) -> TableRow | None:
    return db.session.scalars(select(TableRow).where(TableRow.game_id == game_id)).first()


def _tournament_of(row: TableRow) -> TournamentRow:
    tournament = db.session.get(TournamentRow, row.tournament_id)
    assert tournament is not None  # a table row goes with its tournament (ON DELETE CASCADE)
    return tournament


def _read(row: TableRow, snap: Snapshot, now: datetime) -> tuple[Tournament, Round, results.TableView]:
    t = state_of(_tournament_of(row))
    r = t.rounds[row.round - 1]
    return t, r, results.read_table(r, r.pairing(row.table), row, now, snap.answer)


def _unrecorded(current: bool, row: TableRow, view: results.TableView) -> bool:
    """Whether the match says more than the tournament has recorded: the bell's hands, or a result."""
    if not current or view.result is not None or view.call is None:
        return False
    return view.call.result is not None or (view.bell_hands is not None and row.bell_hands is None)


def _rung(r: Round, now: datetime) -> bool:
    # The scorer's 30-minute rule; a clock that reads before the round's start has not rung it.
    return r.started_at is not None and now >= r.started_at and bell(r.started_at, now, hand_in_play=False).rung


def _shown(tournament: TournamentRow, r: Round, view: results.TableView, hands: int, now: datetime) -> dict[str, Any]:
    p, call = view.pairing, view.call
    # What counts is the tournament's result (the director may have decided or corrected it);
    # the match's own decision shows only until it is recorded.
    result = view.result or (call.result if call is not None else None)
    counting = call.hands if call is not None and call.result is not None else None
    rung = _rung(r, now)
    data: dict[str, Any] = {
        "id": tournament.id,
        "title": tournament.title,
        "standings_url": _standings_path(tournament.id),
        "round": r.number,
        "rounds_total": ROUNDS,
        "table": p.table,
        "teams": [p.team_a, p.team_b],
        "clock": _clock(r),
        "rung": rung,
        "state": "decided" if result is not None else (call.action.value if call and call.action else "play_on"),
        "result": result.to_dict() if result is not None else None,
        "recorded": view.result is not None,
        "deciding_hand": counting,
        "hands_not_counting": list(range(counting + 1, hands + 1)) if counting is not None else [],
    }
    # The board's JSON is in English (the live stream sends one to every viewer); the page draws
    # the banner and its note in its own language from the same fields (`words.table`).
    with force_locale("en"):
        data.update(words.table(data))
    return data


def _standings_path(tournament_id: str) -> str:
    # The live stream draws the board outside any request, where url_for cannot build a link;
    # the path alone comes from the app's URL map (the page resolves it against its own address).
    adapter = current_app.url_map.bind("localhost", script_name=current_app.config.get("APPLICATION_ROOT") or "/")
    return adapter.build("tournament_pages.board", {"tournament_id": tournament_id})


def _clock(r: Round) -> dict[str, Any] | None:
    if r.started_at is None:
        return None
    # In UTC, as the pages write the time before their script shows it in the phone's own.
    start = r.started_at.astimezone(UTC)
    return {
        "started_at": start.isoformat(),
        "rings_at": (start + ROUND_LENGTH).isoformat(),
        "length_s": int(ROUND_LENGTH.total_seconds()),
    }


def page_clock() -> dict[str, Any]:
    """What the match page sets its round clock by: the server's time now (a phone's clock may be
    off), and how often it asks again until the table is decided (`TOURNAMENT_TABLE_POLL_S`)."""
    poll_s = float(current_app.config.get("TOURNAMENT_TABLE_POLL_S", 15))
    return {"server_now": clock().isoformat(), "tournament_poll_ms": int(poll_s * 1000)}
