"""Tournament operations: every change is worked out by the scorer first, then written once.

Each operation loads the stored state (`Tournament.from_dict`, which re-checks every rule),
asks the scorer's `Tournament` for the new state (registration, pairing, results and
corrections are all the scorer's), and writes it with a guarded version bump, like the match
store: of two changes made on the same version one wins, the other is replayed or refused, and
a refused change writes nothing.

The results (from the tables' matches, or by the director's hand) are in `results`.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, overload

from flask import current_app
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from scorer.tournament import (
    BREAKS,
    ROUNDS,
    Team,
    Tournament,
    TournamentError,
    schedule,
)

from .. import store
from ..auth import clean_text, digest, name_key, new_token
from ..bidi import name as _n
from ..db import db
from ..errors import ApiError
from ..models import Game
from ..models import now as utc_now
from . import words
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


@overload
def aware(moment: datetime) -> datetime: ...
@overload
def aware(moment: None) -> None: ...
@overload
def aware(moment: datetime | None) -> datetime | None: ...
def aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; they were written in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


# -- reading ----------------------------------------------------------------------------------


def get(tournament_id: str) -> TournamentRow:
    row = (
        db.session.get(TournamentRow, tournament_id)
        if isinstance(tournament_id, str) and len(tournament_id) <= 32
        else None
    )
    if row is None:
        raise missing(tournament_id)
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
    return list(
        db.session.scalars(
            select(TournamentChange)
            .where(TournamentChange.tournament_id == tournament_id)
            .order_by(TournamentChange.version)
        )
    )


# -- the schedule -----------------------------------------------------------------------------


def round_ends(t: Tournament, tables: dict[tuple[int, int], TableRow]) -> list[datetime]:
    """When each complete round ended: when its last table's result came in."""
    ends: list[datetime] = []
    for r in t.rounds:
        if not r.complete:
            break
        times = [aware(tables[(r.number, p.table)].result_at) for p in r.pairings if (r.number, p.table) in tables]
        known = [moment for moment in times if moment is not None]
        if not times or len(known) != len(times):
            break
        ends.append(max(known))
    return ends


def next_round_at(t: Tournament, tables: dict[tuple[int, int], TableRow]) -> datetime | None:
    """The earliest start of the next round by the scorer's schedule, once the current round is over."""
    current = t.current_round
    first = t.rounds[0].started_at if t.rounds else None
    if current is None or not current.complete or first is None:
        return None
    ends = round_ends(t, tables)
    if len(ends) != len(t.rounds) or len(ends) >= ROUNDS:
        return None
    try:
        return schedule(first, ends)[-1]
    except TournamentError:  # times out of order (a clock set back): no schedule rather than a wrong one
        return None


def break_until(t: Tournament, tables: dict[tuple[int, int], TableRow], now: datetime) -> datetime | None:
    """The end of the break the rules put after the round just played, while it runs; else None."""
    start = next_round_at(t, tables)
    if start is None or t.round_number not in BREAKS or now >= start:
        return None
    return start


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
    #: Why, for the history, when the plan knows better than the caller (a round started during the break).
    why: str | None = None


class Stale(ApiError):
    def __init__(self, made_on: int, now: int) -> None:
        super().__init__(
            409,
            f"the tournament changed since version {made_on} (it is at version {now} now): "
            "nothing was recorded; reload and try again",
            version=now,
        )


def refusal(error: TournamentError, status: int = 422) -> ApiError:
    """The scorer's refusal: its own words for the API, the director's (`say`) for the pages."""
    return ApiError(status, str(error), say=words.refusal(error))


def missing(tournament_id: object) -> ApiError:
    return ApiError(
        404,
        f"no tournament {tournament_id!r} on this server",
        say=_("There is no such tournament on this server: check the link."),
    )


_TOURNAMENT_LOCKS: dict[str, threading.RLock] = {}
_LOCKS_GUARD = threading.Lock()


def apply_change(
    tournament_id: str,
    expected: int | None,
    plan_for: Callable[[TournamentRow, Tournament], Plan | None],
    *,
    who: str,
    why: str,
) -> tuple[TournamentRow, Plan | None]:
    # Changes to one tournament take turns inside this process: eight tables' pages may all record
    # the bell at once, and a board request must not fail for losing that race five times.
    with _LOCKS_GUARD:
        lock = _TOURNAMENT_LOCKS.setdefault(tournament_id, threading.RLock())
    with lock:
        return _apply_change_in_turn(tournament_id, expected, plan_for, who=who, why=why)


def _apply_change_in_turn(
    tournament_id: str,
    expected: int | None,
    plan_for: Callable[[TournamentRow, Tournament], Plan | None],
    *,
    who: str,
    why: str,
) -> tuple[TournamentRow, Plan | None]:
    for _attempt in range(RETRIES):
        row = db.session.get(TournamentRow, tournament_id, populate_existing=True)
        if row is None:
            raise missing(tournament_id)
        old = row.version  # before planning: a plan that commits (new matches) expires the row
        if expected is not None and old != expected:
            raise Stale(expected, old)
        try:
            plan = plan_for(row, state_of(row))
        except TournamentError as error:
            db.session.rollback()
            raise refusal(error) from None
        if plan is None:
            return row, None
        moved = db.session.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tournament_id, TournamentRow.version == old)
            .values(version=old + 1, state=plan.state.to_dict(), updated_at=utc_now()),
            execution_options={"synchronize_session": False},
        )
        # an UPDATE's Result is a CursorResult at run time; Session.execute's stub says only Result
        if moved.rowcount == 1:  # type: ignore[attr-defined]
            if plan.write is not None:
                plan.write(old + 1)
            db.session.add(
                TournamentChange(
                    tournament_id=tournament_id,
                    version=old + 1,
                    action=plan.action,
                    round=plan.round,
                    table=plan.table,
                    before=plan.before,
                    after=plan.after,
                    who=who,
                    why=plan.why or why,
                )
            )
            try:
                db.session.commit()
                fresh = db.session.get(TournamentRow, tournament_id, populate_existing=True)
                if fresh is None:  # removed (a replacing import) since the change landed
                    raise missing(tournament_id)
                return fresh, plan
            except IntegrityError:
                pass
        db.session.rollback()
        if plan.undo is not None:
            plan.undo()
        if expected is not None:
            raise Stale(expected, old + 1)
    raise ApiError(
        409,
        "the tournament is changing too fast to keep up: nothing was recorded; try again",
        say=_("The tournament is changing too fast to keep up: nothing was recorded. Try again."),
    )


# -- creating ---------------------------------------------------------------------------------


def create(title: object, *, who: str) -> tuple[TournamentRow, str]:
    """A new tournament with registration open; the director token is shown once."""
    token = new_token()
    row = TournamentRow(
        id=secrets.token_urlsafe(9),
        title=clean_text(title, 120) or "Tournament night",
        state=Tournament().to_dict(),
        version=1,
        director_hash=digest(token),
    )
    db.session.add(row)
    db.session.flush()
    db.session.add(
        TournamentChange(tournament_id=row.id, version=1, action="create", who=who, after={"title": row.title})
    )
    db.session.commit()
    return row, token


# -- registration -----------------------------------------------------------------------------


#: The longest team or player name kept (the director's form holds as many; the table's match
#: keeps player names as long, `schemas.NAME_LENGTH`). A longer one is refused, not cut short.
NAME_LENGTH = 40
#: A director's result names its winner by team name or by these letters for the table's first and
#: second team (`results.result_from`): no team may be called one of them.
SIDE_LETTERS = ("a", "b")


def _whole_name(value: str, what: str, said: str) -> str:
    """A name as typed (`clean_text`), refused past `NAME_LENGTH` rather than cut short."""
    text = clean_text(value, NAME_LENGTH + 1_000)
    if len(text) > NAME_LENGTH:
        raise ApiError(
            400,
            f"{what} is at most {NAME_LENGTH} characters, and {text[:NAME_LENGTH] + '…'!r} has {len(text)}: "
            "nothing was recorded; shorten it",
            say=_(
                "%(what)s is at most %(most)s characters, and %(name)s has %(n)s: shorten it.",
                what=said,
                most=NAME_LENGTH,
                name=_n(text[:NAME_LENGTH] + "…"),
                n=len(text),
            ),
        )
    return text


def team_from(data: dict[str, Any]) -> Team:
    name = data.get("name")
    players = data.get("players")
    if not isinstance(name, str) or not name.strip():
        raise ApiError(400, "a team needs a name", say=_("A team needs a name."))
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
        raise ApiError(
            400,
            f"team {clean_text(name, NAME_LENGTH)!r} needs exactly two players, each with a name",
            say=_("%(team)s needs two players, each with a name.", team=_n(clean_text(name, NAME_LENGTH))),
        )
    team = _whole_name(name, "a team's name", _("A team's name"))
    if name_key(team) in SIDE_LETTERS:
        raise ApiError(
            422,
            f"a team cannot be called {team!r}: a result names its winner 'a' or 'b' for the table's first or "
            "second team; choose another name (such as 'Team A')",
            say=_(
                "A team cannot be called %(team)s: a result's winner may be given as a or b, for the first or "
                "second team at the table. Choose another name, such as “Team A”.",
                team=_n(team),
            ),
        )
    first, second = (_whole_name(p, "a player's name", _("A player's name")) for p in players)
    try:
        return Team(team, (first, second))
    except TournamentError as error:
        raise refusal(error, 400) from None


def register(tournament_id: str, data: dict[str, Any], expected: int | None, *, who: str) -> TournamentRow:
    team = team_from(data)

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        if t.registration_closed:
            raise ApiError(
                409,
                f"registration is closed ({len(t.teams)} teams registered); team {team.name!r} cannot register",
                say=_(
                    "Registration is closed (%(teams)s teams): %(team)s cannot register.",
                    teams=len(t.teams),
                    team=_n(team.name),
                ),
            )
        new = t.register(team)
        return Plan(new, "register", after=team.to_dict())

    return apply_change(tournament_id, expected, plan, who=who, why="")[0]


def close(tournament_id: str, expected: int | None, *, who: str) -> TournamentRow:
    def plan(row: TournamentRow, t: Tournament) -> Plan:
        if t.registration_closed:
            raise ApiError(409, "registration is already closed", say=_("Registration is already closed."))
        return Plan(t.close_registration(), "close", after={"teams": len(t.teams)})

    return apply_change(tournament_id, expected, plan, who=who, why="")[0]


# -- withdrawal -------------------------------------------------------------------------------


def withdraw(tournament_id: str, data: dict[str, Any], expected: int | None, *, who: str) -> TournamentRow:
    """A team leaves (the scorer's `Tournament.withdraw`): it keeps its results, is paired in no later
    round, and its table of the round in play, if any, waits for the director's result (a forfeit)."""
    team = data.get("team")
    if not isinstance(team, str) or not team.strip():
        raise ApiError(400, "say which team withdraws (its name)", say=_("Say which team withdraws."))
    why = clean_text(data.get("reason"), 300)
    if not why:
        raise ApiError(
            400,
            f"team {clean_text(team, NAME_LENGTH)!r}: a withdrawal needs its reason",
            say=_("%(team)s: a withdrawal needs its reason.", team=_n(clean_text(team, NAME_LENGTH))),
        )

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        try:
            name = t.team(team).name
        except TournamentError:
            raise ApiError(
                404,
                f"no team called {clean_text(team, NAME_LENGTH)!r} is registered",
                say=_("No team called %(team)s is registered.", team=_n(clean_text(team, NAME_LENGTH))),
            ) from None
        new = t.withdraw(name, reason=why, by=who)
        withdrawal = new.withdrawal(name)
        assert withdrawal is not None  # just made
        return Plan(
            new,
            "withdraw",
            round=withdrawal.round_number or None,
            after={"team": name, "round": withdrawal.round_number},
        )

    return apply_change(tournament_id, expected, plan, who=who, why=why)[0]


# -- rounds -----------------------------------------------------------------------------------


def players_at(t: Tournament, team_a: str, team_b: str) -> list[str]:
    """Seats in play order: partners face each other (seats 0 and 2 are the first team)."""
    a, b = t.team(team_a).players, t.team(team_b).players
    return [a[0], b[0], a[1], b[1]]


def new_table_match(
    t: Tournament,
    title: str,
    number: int,
    pairing: Any,
    director: str,
    *,
    who: str,
    record: dict[str, Any] | None = None,
) -> Game:
    spec: dict[str, Any] = (
        dict(record)
        if record is not None
        else {
            "variant": VARIANT,
            "players": players_at(t, pairing.team_a, pairing.team_b),
        }
    )
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


def _break_refusal(t: Tournament, until: datetime, now: datetime) -> ApiError:
    """Refused in the break: its end as an instant (`break_until`, ISO 8601 with its zone, for the
    page to show in the director's own time as its clock does) and the minutes left, in words."""
    left = math.ceil((until - now).total_seconds() / 60)
    return ApiError(
        409,
        f"the ten-minute break after round {t.round_number} has {left} min left (it ends at "
        f"{until.isoformat()}): round {t.round_number + 1} starts then, unless you confirm "
        "starting it during the break; nothing was recorded",
        say=break_words(t.round_number, left),
        break_until=until.isoformat(),
        minutes_left=left,
        after_round=t.round_number,
    )


def break_words(number: int, left: int, until: object = None) -> str:
    """The break refusal in the director's words; `until` (the page's `<time>`) says when it ends."""
    if until is None:
        return _(
            "The ten-minute break after round %(n)s has %(left)s min left: round %(next)s starts then, unless "
            "you tick the box to start it during the break. Nothing was recorded.",
            n=number,
            left=left,
            next=number + 1,
        )
    # The sentence's own words are the translation's; only `until` is markup, the rest is escaped.
    sentence = _(
        "The ten-minute break after round %(n)s runs to %(time)s (%(left)s min left): round %(next)s "
        "starts then, unless you tick the box to start it during the break. Nothing was recorded."
    )
    return Markup(sentence) % {"n": number, "time": until, "left": left, "next": number + 1}


def start_round(
    tournament_id: str, seed: object, expected: int | None, director: str, *, who: str, during_break: bool = False
) -> TournamentRow:
    """Pair the next round (the scorer's pairing), make one companion match per table, start the clock.

    RULES.md: "a ten-minute break follows round two". The break is the players' by rule, so a
    round is not started in it by a stray click: the director must say so (`during_break`),
    as with any decision that sets a rule aside, and the history keeps that it was.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise ApiError(400, f"a seed is a whole number or text, not {seed!r}")
    if not isinstance(during_break, bool):
        raise ApiError(400, f"during_break is true or false, not {during_break!r}")
    if isinstance(seed, str):
        seed = seed.strip() or None
    made: list[str] = []

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        made.clear()
        number = t.round_number + 1
        now = clock()
        until = break_until(t, tables_of(row.id), now)
        if until is not None and not during_break:
            raise _break_refusal(t, until, now)
        chosen = seed if seed is not None or number != 1 else secrets.randbelow(1_000_000)
        new = t.start_round(chosen, at=now)
        current = new.current_round
        assert current is not None
        try:
            for pairing in current.pairings:
                made.append(new_table_match(new, row.title, number, pairing, director, who=who).id)
        except Exception:
            db.session.rollback()
            _drop_games(list(made))  # a round is made whole or not at all
            raise

        def write(version: int) -> None:
            for pairing, game_id in zip(current.pairings, made, strict=False):
                db.session.add(TableRow(tournament_id=row.id, round=number, table=pairing.table, game_id=game_id))

        after: dict[str, Any] = {"seed": current.seed, "pairings": [p.to_dict() for p in current.pairings]}
        if until is not None:
            after["break_until"] = until.isoformat()
        return Plan(
            new,
            "round",
            round=number,
            write=write,
            undo=lambda: _drop_games(list(made)),
            after=after,
            # in minutes, not a clock time: the history is read in the director's time zone, and kept in UTC
            why=f"started during the break, {math.ceil((until - now).total_seconds() / 60)} min before its end"
            if until is not None
            else None,
        )

    return apply_change(tournament_id, expected, plan, who=who, why="")[0]
