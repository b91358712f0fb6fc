"""A table's result reaching the standings: by itself from its match, or by the director's hand.

`sync` is how a table's result reaches the standings by itself: it reads each unfinished table's
companion match and records what it says (the target reached, or the bell's winner, see
`calls`). Every read of the tournament runs it first, so the director's page, the standings
board and the API never show a result the matches do not. The director's own results and
corrections (`enter_result`, `correct`) keep their reason; the scorer keeps each correction's
before and after.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app
from flask_babel import gettext as _

from scorer.commands import replay
from scorer.tournament import (
    ROUND_LENGTH,
    Ending,
    MatchResult,
    Pairing,
    Round,
    Tournament,
    TournamentError,
)

from .. import store
from ..auth import clean_text, name_key
from ..bidi import name as _n
from ..db import db
from ..errors import ApiError
from ..models import Game
from . import calls, words
from .models import TableRow, TournamentRow
from .service import BY_MATCH, Plan, apply_change, aware, clock, refusal, tables_of


def _answer(game: Game, version: int | None = None) -> dict[str, Any]:
    if version is None:
        return store.snapshot(game).answer
    match, _steps = replay(store.record_of(game, version), live=True)  # as the match stood then (`store.live_match`)
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


def read_table(
    r: Round, pairing: Pairing, row: TableRow | None, now: datetime, answer: dict[str, Any] | None = None
) -> TableView:
    """One table of round `r` with what its match says at `now` (`answer`: the match's, if already read)."""
    game = db.session.get(Game, row.game_id) if row is not None else None
    result = r.result(pairing.table)
    bell_hands = row.bell_hands if row is not None else None
    call = None
    if game is not None:
        rings_at = r.started_at + ROUND_LENGTH if r.started_at is not None else None
        if bell_hands is None and rings_at is not None and now >= rings_at and result is None:
            bell_hands = calls.counting_hands(_answer(game, _version_at(game, rings_at)))
        try:
            call = calls.call(pairing, answer if answer is not None else _answer(game), r.started_at, now, bell_hands)
        except TournamentError as error:
            # the match decided something no tournament result can say (won at another target, in
            # a table imported before its rules were checked): the director enters the result, and
            # a read of the tournament, or the table's own page, must not fail on it
            current_app.logger.warning("round %s, table %s: %s", r.number, pairing.table, error)
            call = None
    return TableView(r.number, pairing, game, result, call, bell_hands)


def read_tables(t: Tournament, tables: dict[tuple[int, int], TableRow], now: datetime) -> list[TableView]:
    """Every table of the current round, each with what its match says now."""
    current = t.current_round
    if current is None:
        return []
    return [read_table(current, p, tables.get((current.number, p.table)), now) for p in current.pairings]


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
        return Plan(
            new,
            action,
            round=number,
            table=results[0].table if len(results) == 1 else None,
            write=write,
            after={"results": [r.to_dict() for r in results], "bell_hands": bells},
        )

    return apply_change(tournament_id, None, plan, who=BY_MATCH, why="")[0]


def result_from(data: dict[str, Any], t: Tournament, number: int, table: int, *, default_ending: Ending) -> MatchResult:
    """A result typed by the director: points of each side, the winner, how it ended, the reason."""
    if not 1 <= number <= len(t.rounds):
        raise ApiError(
            404,
            f"there is no round {number} (rounds 1 to {len(t.rounds)} have started)"
            if t.rounds
            else "no round has started yet",
            say=_("There is no round %(n)s (rounds 1 to %(last)s have started).", n=number, last=len(t.rounds))
            if t.rounds
            else _("No round has started yet."),
        )
    r = t.rounds[number - 1]
    try:
        pairing = r.pairing(table)
    except TournamentError as error:
        raise refusal(error, 404) from None
    points = []
    for key, team in (("points_a", pairing.team_a), ("points_b", pairing.team_b)):
        value = data.get(key)
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) <= 6:
            value = int(value.strip())
        if not isinstance(value, int) or isinstance(value, bool):
            raise ApiError(
                400,
                f"table {table}: the points of {team!r} must be a whole number, not {value!r}",
                say=_(
                    "Table %(table)s: the points of %(team)s are a whole number, such as 85.",
                    table=table,
                    team=_n(team),
                ),
            )
        points.append(value)
    winner = _winner(data.get("winner"), pairing)
    if not isinstance(winner, str) or not winner.strip():
        raise ApiError(
            400,
            f"table {table}: say which team won ({pairing.team_a!r} or {pairing.team_b!r})",
            say=_(
                "Table %(table)s: say which team won (%(team_a)s or %(team_b)s).",
                table=table,
                team_a=_n(pairing.team_a),
                team_b=_n(pairing.team_b),
            ),
        )
    ended = data.get("ended") or default_ending
    reason = clean_text(data.get("reason"), 300) or None
    try:
        return MatchResult(table, pairing.team_a, pairing.team_b, points[0], points[1], winner, ended, reason)
    except TournamentError as error:
        raise refusal(error) from None


def _winner(value: object, pairing: Pairing) -> object:
    """The winner a director's result names: a team at the table by name, else `a` or `b` for its first
    or second team. No team registers as "a" or "b" (`service.SIDE_LETTERS`); a tournament stored
    before that rule where the letter is the other team's name is refused, not guessed."""
    if not isinstance(value, str):
        return value
    by_name = {name_key(pairing.team_a): pairing.team_a, name_key(pairing.team_b): pairing.team_b}.get(name_key(value))
    by_letter = {"a": pairing.team_a, "b": pairing.team_b}.get(value.strip())
    if by_name is not None and by_letter is not None and by_name != by_letter:
        raise ApiError(
            422,
            f"table {pairing.table} ({pairing.team_a} v {pairing.team_b}): the winner {value.strip()!r} is both a "
            f"team's name and the letter of the other team; nothing was recorded",
            say=_(
                "Table %(table)s (%(team_a)s v %(team_b)s): the winner %(winner)s is both a team's name and the "
                "letter of the other team. Nothing was recorded.",
                table=pairing.table,
                team_a=_n(pairing.team_a),
                team_b=_n(pairing.team_b),
                winner=_n(value.strip()),
            ),
        )
    return by_name or by_letter or value


def enter_result(
    tournament_id: str, number: int, table: int, data: dict[str, Any], expected: int | None, *, who: str
) -> TournamentRow:
    """The director records a table's result by hand (a sheet, a no-show...): the reason is kept."""
    why = clean_text(data.get("reason"), 300)
    if not why:
        raise ApiError(
            400,
            f"round {number}, table {table}: a result entered by hand needs its reason",
            say=_("Round %(n)s, table %(table)s: a result entered by hand needs its reason.", n=number, table=table),
        )

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        result = result_from(data, t, number, table, default_ending=Ending.DIRECTOR)
        if number != t.round_number:
            raise ApiError(
                409,
                f"round {number}, table {table} already has a result: correct it with a reason",
                say=_(
                    "Round %(n)s, table %(table)s already has a result: correct it with a reason.",
                    n=number,
                    table=table,
                ),
            )
        existing = t.current_round.result(table) if t.current_round else None
        if existing is not None:
            raise ApiError(
                409,
                f"round {number}, table {table} already has a result ({existing}): correct it with a reason",
                say=_(
                    "Round %(n)s, table %(table)s already has a result (%(result)s): correct it with a reason.",
                    n=number,
                    table=table,
                    result=words.result(existing),
                ),
            )
        new = t.record_result(result)
        tables = tables_of(row.id)

        def write(version: int) -> None:
            if (number, table) in tables:
                tables[(number, table)].result_at = clock()

        recorded = new.current_round.result(table) if new.current_round is not None else None
        assert recorded is not None  # record_result has just put it in the current round
        return Plan(new, "result", round=number, table=table, after=recorded.to_dict(), write=write)

    return apply_change(tournament_id, expected, plan, who=who, why=why)[0]


def correct(
    tournament_id: str,
    number: int,
    table: int,
    data: dict[str, Any],
    expected: int | None,
    *,
    who: str,
    shown: dict[str, Any] | None = None,
) -> TournamentRow:
    """The director changes a recorded result; the scorer keeps before, after, reason and name.

    `shown` is the result the director saw when correcting: if the table's result changed since
    (another correction), nothing is recorded and the director is told what it is now.
    """
    why = clean_text(data.get("reason"), 300)
    if not why:
        raise ApiError(
            400,
            f"round {number}, table {table}: a correction needs its reason",
            say=_("Round %(n)s, table %(table)s: a correction needs its reason.", n=number, table=table),
        )

    def plan(row: TournamentRow, t: Tournament) -> Plan:
        result = result_from(data, t, number, table, default_ending=Ending.DIRECTOR)
        before = t.rounds[number - 1].result(table)
        if shown is not None and before is not None and shown != before.to_dict():
            raise ApiError(
                409,
                f"round {number}, table {table}: the result changed while you corrected it "
                f"(it is now {before}): nothing was recorded; look again and correct it if need be",
                say=_(
                    "Round %(n)s, table %(table)s: the result changed while you corrected it (it is now "
                    "%(result)s). Nothing was recorded: look again and correct it if need be.",
                    n=number,
                    table=table,
                    result=words.result(before),
                ),
            )
        new = t.correct_result(table, result, reason=why, by=who, round_number=number)
        after = new.rounds[number - 1].result(table)
        return Plan(
            new,
            "correct",
            round=number,
            table=table,
            before=before.to_dict() if before else None,
            after=after.to_dict() if after else None,
        )

    return apply_change(tournament_id, expected, plan, who=who, why=why)[0]
