"""Tournament operations: every change is worked out by the scorer first, then written once.

Each operation loads the stored state (`Tournament.from_dict`, which re-checks every rule),
asks the scorer's `Tournament` for the new state (registration, pairing, results and
corrections are all the scorer's), and writes it with a guarded version bump, like the match
store: of two changes made on the same version one wins, the other is replayed or refused, and
a refused change writes nothing.

`sync` is how a table's result reaches the standings by itself: it reads each unfinished
table's companion match and records what it says (the target reached, or the bell's winner).
Every read of the tournament runs it first, so the director's page, the standings board and
the API never show a result the matches do not.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import current_app
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from scorer.commands import replay
from scorer.tournament import (
    ROUND_LENGTH,
    MatchResult,
    Team,
    Tournament,
    TournamentError,
)

from .. import store
from ..auth import clean_text, digest, new_token
from ..db import db
from ..errors import ApiError
from ..models import Game
from ..models import now as utc_now
from . import calls
from .access import table_token
from .models import TableRow, TournamentChange, TournamentRow

RETRIES = 5
VARIANT = "partners-block"
#: Who the history names for what the companion recorded by itself (a match's end, the bell).
BY_MATCH = "the companion"


def clock() -> datetime:
    """Now, in UTC; tests set `TOURNAMENT_CLOCK` to move the round clock past the bell."""
    custom = current_app.config.get("TOURNAMENT_CLOCK")
    return custom() if custom is not None else utc_now()


def aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; they were written in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


# -- reading ----------------------------------------------------------------------------------

def get(tournament_id: str) -> TournamentRow:
    row = db.session.get(TournamentRow, tournament_id) if isinstance(tournament_id, str) and len(tournament_id) <= 32 else None
    if row is None:
        raise ApiError(404, f"no tournament {tournament_id!r} on this server")
    return row


def state_of(row: TournamentRow) -> Tournament:
    try:
        return Tournament.from_dict(row.state)
    except TournamentError as error:  # only a database edited by hand gets here
        raise ApiError(500, f"the stored tournament breaks a rule: {error}") from None


def tables_of(tournament_id: str) -> dict[tuple[int, int], TableRow]:
    rows = db.session.scalars(select(TableRow).where(TableRow.tournament_id == tournament_id))
    return {(r.round, r.table): r for r in rows}


def history(tournament_id: str) -> list[TournamentChange]:
    return list(db.session.scalars(
        select(TournamentChange).where(TournamentChange.tournament_id == tournament_id).order_by(TournamentChange.version)
    ))


# -- changing ---------------------------------------------------------------------------------

@dataclass
class Plan:
    """A change worked out on the state as it stands: the new state and what else to write."""

    state: Tournament
    action: str
    round: int | None = None
    table: int | None = None
    before: Any = None
    after: Any = None
    write: Callable[[int], None] | None = None
    #: Undoes what planning already wrote elsewhere (the matches of a new round) if the change loses.
    undo: Callable[[], None] | None = None


class Stale(ApiError):
    def __init__(self, made_on: int, now: int) -> None:
        super().__init__(409, f"the tournament changed since version {made_on} (it is at version {now} now): "
                              "nothing was recorded; reload and try again", version=now)


def _refused(error: TournamentError, status: int = 422) -> ApiError:
    return ApiError(status, str(error))


def _change(tournament_id: str, expected: int | None, plan_for: Callable[[TournamentRow, Tournament], Plan | None],
            *, who: str, why: str) -> tuple[TournamentRow, Plan | None]:
    for _ in range(RETRIES):
        row = db.session.get(TournamentRow, tournament_id, populate_existing=True)
        if row is None:
            raise ApiError(404, f"no tournament {tournament_id!r} on this server")
        old = row.version  # before planning: a plan that commits (new matches) expires the row
        if expected is not None and old != expected:
            raise Stale(expected, old)
        try:
            plan = plan_for(row, state_of(row))
        except TournamentError as error:
            db.session.rollback()
            raise _refused(error) from None
        if plan is None:
            return row, None
        moved = db.session.execute(
            update(TournamentRow).where(TournamentRow.id == tournament_id, TournamentRow.version == old)
            .values(version=old + 1, state=plan.state.to_dict(), updated_at=utc_now()),
            execution_options={"synchronize_session": False},
        )
        if moved.rowcount == 1:
            if plan.write is not None:
                plan.write(old + 1)
            db.session.add(TournamentChange(
                tournament_id=tournament_id, version=old + 1, action=plan.action, round=plan.round,
                table=plan.table, before=plan.before, after=plan.after, who=who, why=why,
            ))
            try:
                db.session.commit()
                return db.session.get(TournamentRow, tournament_id, populate_existing=True), plan
            except IntegrityError:
                pass
        db.session.rollback()
        if plan.undo is not None:
            plan.undo()
        if expected is not None:
            raise Stale(expected, old + 1)
    raise ApiError(409, "the tournament is changing too fast to keep up: nothing was recorded; try again")


# -- creating ---------------------------------------------------------------------------------

def create(title: object, *, who: str) -> tuple[TournamentRow, str]:
    """A new tournament with registration open; the director token is shown once."""
    token = new_token()
    row = TournamentRow(id=secrets.token_urlsafe(9), title=clean_text(title, 120) or "Tournament night",
                        state=Tournament().to_dict(), version=1, director_hash=digest(token))
    db.session.add(row)
    db.session.flush()
    db.session.add(TournamentChange(tournament_id=row.id, version=1, action="create", who=who, after={"title": row.title}))
    db.session.commit()
    return row, token


# -- registration -----------------------------------------------------------------------------

def team_from(data: dict[str, Any]) -> Team:
    name = data.get("name")
    players = data.get("players")
    if not isinstance(name, str) or not name.strip():
        raise ApiError(400, "a team needs a name")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
        raise ApiError(400, f"team {clean_text(name, 40)!r} needs exactly two players, each with a name")
    try:
        return Team(clean_text(name, 40), (clean_text(players[0], 40), clean_text(players[1], 40)))
    except TournamentError as error:
        raise _refused(error, 400) from None


def register(tournament_id: str, data: dict[str, Any], expected: int | None, *, who: str) -> TournamentRow:
    team = team_from(data)

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        if t.registration_closed:
            raise ApiError(409, f"registration is closed ({len(t.teams)} teams registered); "
                                f"team {team.name!r} cannot register")
        new = t.register(team)
        return Plan(new, "register", after=team.to_dict())

    return _change(tournament_id, expected, plan, who=who, why="")[0]


def close(tournament_id: str, expected: int | None, *, who: str) -> TournamentRow:
    def plan(row: TournamentRow, t: Tournament) -> Plan:
        if t.registration_closed:
            raise ApiError(409, "registration is already closed")
        return Plan(t.close_registration(), "close", after={"teams": len(t.teams)})

    return _change(tournament_id, expected, plan, who=who, why="")[0]


# -- rounds -----------------------------------------------------------------------------------

def players_at(t: Tournament, team_a: str, team_b: str) -> list[str]:
    """Seats in play order: partners face each other (seats 0 and 2 are the first team)."""
    a, b = t.team(team_a).players, t.team(team_b).players
    return [a[0], b[0], a[1], b[1]]


def _new_table_match(t: Tournament, title: str, number: int, pairing: Any, director: str, *, who: str,
                     record: dict[str, Any] | None = None) -> Game:
    spec: dict[str, Any] = dict(record) if record is not None else {
        "variant": VARIANT, "players": players_at(t, pairing.team_a, pairing.team_b),
    }
    spec["title"] = f"{title} · round {number}, table {pairing.table}: {pairing.team_a} v {pairing.team_b}"
    created = store.create(spec, who=who, source="import" if record is not None else "api")
    game = created.game
    game.scorer_hash = digest(table_token(director, game.id, "scorer"))
    game.viewer_hash = digest(table_token(director, game.id, "viewer"))
    db.session.commit()
    if record is None:
        store.start_hand(game.id, None, None, 1, who=who, why="the first hand")
    return game


def _drop_games(game_ids: list[str]) -> None:
    for game_id in game_ids:
        game = db.session.get(Game, game_id)
        if game is not None:
            db.session.delete(game)
    db.session.commit()


def start_round(tournament_id: str, seed: object, expected: int | None, director: str, *, who: str) -> TournamentRow:
    """Pair the next round (the scorer's pairing), make one companion match per table, start the clock."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise ApiError(400, f"a seed is a whole number or text, not {seed!r}")
    if isinstance(seed, str):
        seed = seed.strip() or None
    made: list[str] = []

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        made.clear()
        number = t.round_number + 1
        chosen = seed if seed is not None or number != 1 else secrets.randbelow(1_000_000)
        new = t.start_round(chosen, at=clock())
        current = new.current_round
        assert current is not None
        try:
            for pairing in current.pairings:
                made.append(_new_table_match(new, row.title, number, pairing, director, who=who).id)
        except Exception:
            db.session.rollback()
            _drop_games(list(made))  # a round is made whole or not at all
            raise

        def write(version: int) -> None:
            for pairing, game_id in zip(current.pairings, made):
                db.session.add(TableRow(tournament_id=row.id, round=number, table=pairing.table, game_id=game_id))

        return Plan(new, "round", round=number, write=write, undo=lambda: _drop_games(list(made)),
                    after={"seed": current.seed, "pairings": [p.to_dict() for p in current.pairings]})

    return _change(tournament_id, expected, plan, who=who, why="")[0]


# -- results ----------------------------------------------------------------------------------

def _answer(game: Game, version: int | None = None) -> dict[str, Any]:
    if version is None:
        return store.snapshot(game).answer
    match, _ = replay(store.record_of(game, version))
    return match.answer() if match is not None else {"hands": [], "totals": [0, 0], "winner": None}


def _version_at(game: Game, moment: datetime) -> int:
    """The match's version when `moment` came: the last change made by then."""
    version = 1
    for change in store.history(game.id):
        if aware(change.at) <= moment:
            version = change.version
    return version


@dataclass
class TableView:
    """One table as the director sees it: the pairing, its match, its result or what it does now."""

    round: int
    pairing: Any
    game: Game | None
    result: MatchResult | None
    call: calls.Call | None
    bell_hands: int | None


def read_tables(t: Tournament, tables: dict[tuple[int, int], TableRow], now: datetime) -> list[TableView]:
    """Every table of the current round, each with what its match says now."""
    current = t.current_round
    if current is None:
        return []
    views: list[TableView] = []
    rings_at = current.started_at + ROUND_LENGTH if current.started_at is not None else None
    for pairing in current.pairings:
        row = tables.get((current.number, pairing.table))
        game = db.session.get(Game, row.game_id) if row is not None else None
        result = current.result(pairing.table)
        bell_hands = row.bell_hands if row is not None else None
        call = None
        if game is not None:
            if bell_hands is None and rings_at is not None and now >= rings_at and result is None:
                bell_hands = calls.counting_hands(_answer(game, _version_at(game, rings_at)))
            call = calls.call(pairing, _answer(game), current.started_at, now, bell_hands)
        views.append(TableView(current.number, pairing, game, result, call, bell_hands))
    return views


def sync(tournament_id: str) -> TournamentRow:
    """Record what the matches of the current round say: ended at the target, or decided by the bell."""
    now = clock()

    def plan(row: TournamentRow, t: Tournament) -> Plan | None:
        tables = tables_of(row.id)
        views = read_tables(t, tables, now)
        new, results, bells = t, [], {}
        for view in views:
            row_t = tables.get((view.round, view.pairing.table))
            if row_t is None or view.result is not None:
                continue
            if view.bell_hands is not None and row_t.bell_hands is None:
                bells[view.pairing.table] = view.bell_hands
            if view.call is not None and view.call.result is not None:
                try:
                    new = new.record_result(view.call.result)
                except TournamentError:  # never in practice; a read must not fail: the director decides
                    continue
                results.append(view.call.result)
        if not results and not bells:
            return None
        number = views[0].round

        def write(version: int) -> None:
            for table, hands in bells.items():
                tables[(number, table)].bell_hands = hands
            for result in results:
                tables[(number, result.table)].result_at = now

        action = "result" if results else "bell"
        return Plan(new, action, round=number, table=results[0].table if len(results) == 1 else None, write=write,
                    after={"results": [r.to_dict() for r in results], "bell_hands": bells})

    return _change(tournament_id, None, plan, who=BY_MATCH, why="")[0]


def result_from(data: dict[str, Any], t: Tournament, number: int, table: int, *, default_ending: str) -> MatchResult:
    """A result typed by the director: points of each side, the winner, how it ended, the reason."""
    if not 1 <= number <= len(t.rounds):
        raise ApiError(404, f"there is no round {number} (rounds 1 to {len(t.rounds)} have started)"
                       if t.rounds else "no round has started yet")
    r = t.rounds[number - 1]
    try:
        pairing = r.pairing(table)
    except TournamentError as error:
        raise ApiError(404, str(error)) from None
    points = []
    for key, team in (("points_a", pairing.team_a), ("points_b", pairing.team_b)):
        value = data.get(key)
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        if not isinstance(value, int) or isinstance(value, bool):
            raise ApiError(400, f"table {table}: the points of {team!r} must be a whole number, not {value!r}")
        points.append(value)
    winner = data.get("winner")
    if winner in ("a", "b"):
        winner = pairing.team_a if winner == "a" else pairing.team_b
    if not isinstance(winner, str) or not winner.strip():
        raise ApiError(400, f"table {table}: say which team won ({pairing.team_a!r} or {pairing.team_b!r})")
    ended = data.get("ended") or default_ending
    reason = clean_text(data.get("reason"), 300) or None
    try:
        return MatchResult(table, pairing.team_a, pairing.team_b, points[0], points[1], winner, ended, reason)
    except TournamentError as error:
        raise _refused(error) from None


def enter_result(tournament_id: str, number: int, table: int, data: dict[str, Any], expected: int | None, *,
                 who: str) -> TournamentRow:
    """The director records a table's result by hand (a sheet, a no-show...): the reason is kept."""
    why = clean_text(data.get("reason"), 300)
    if not why:
        raise ApiError(400, f"round {number}, table {table}: a result entered by hand needs its reason")

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        result = result_from(data, t, number, table, default_ending="director")
        if number != t.round_number:
            raise ApiError(409, f"round {number}, table {table} already has a result: correct it with a reason")
        existing = t.current_round.result(table) if t.current_round else None
        if existing is not None:
            raise ApiError(409, f"round {number}, table {table} already has a result ({existing}): "
                                "correct it with a reason")
        new = t.record_result(result)
        tables = tables_of(row.id)

        def write(version: int) -> None:
            if (number, table) in tables:
                tables[(number, table)].result_at = clock()

        return Plan(new, "result", round=number, table=table, after=new.current_round.result(table).to_dict(), write=write)

    return _change(tournament_id, expected, plan, who=who, why=why)[0]


def correct(tournament_id: str, number: int, table: int, data: dict[str, Any], expected: int | None, *,
            who: str, shown: dict[str, Any] | None = None) -> TournamentRow:
    """The director changes a recorded result; the scorer keeps before, after, reason and name.

    `shown` is the result the director saw when correcting: if the table's result changed since
    (another correction), nothing is recorded and the director is told what it is now.
    """
    why = clean_text(data.get("reason"), 300)
    if not why:
        raise ApiError(400, f"round {number}, table {table}: a correction needs its reason")

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        result = result_from(data, t, number, table, default_ending="director")
        before = t.rounds[number - 1].result(table)
        if shown is not None and before is not None and shown != before.to_dict():
            raise ApiError(409, f"round {number}, table {table}: the result changed while you corrected it "
                                f"(it is now {before}): nothing was recorded; look again and correct it if need be")
        new = t.correct_result(table, result, reason=why, by=who, round_number=number)
        after = new.rounds[number - 1].result(table)
        return Plan(new, "correct", round=number, table=table, before=before.to_dict() if before else None,
                    after=after.to_dict() if after else None)

    return _change(tournament_id, expected, plan, who=who, why=why)[0]
