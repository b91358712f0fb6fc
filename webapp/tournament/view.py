"""What the director's page, the standings board and the API show: one dict, read off the scorer.

Standings, places, champions, pairings and the schedule all come from `scorer.tournament`;
this module only arranges them for the pages (and the page's script only counts the clock
down to the time given here).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import url_for

from scorer.tournament import MAX_TEAMS, ROUND_LENGTH, ROUNDS, Ending, Tournament

from ..db import db
from ..models import Game
from . import words as said
from .access import table_token
from .models import TableRow, TournamentRow
from .results import TableView, read_tables
from .service import break_until, next_round_at


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def clock_of(t: Tournament, tables: dict[tuple[int, int], TableRow], now: datetime) -> dict[str, Any]:
    current = t.current_round
    data: dict[str, Any] = {
        "now": now.isoformat(),
        "round_length_s": int(ROUND_LENGTH.total_seconds()),
        "started_at": None,
        "rings_at": None,
        "rung": False,
        "next_round_at": None,
        "break_until": None,
    }
    if current is None:
        return data
    if current.started_at is not None:
        rings_at = current.started_at + ROUND_LENGTH
        data.update(started_at=_iso(current.started_at), rings_at=_iso(rings_at), rung=now >= rings_at)
    data["next_round_at"] = _iso(next_round_at(t, tables))
    data["break_until"] = _iso(break_until(t, tables, now))
    return data


def phase_of(t: Tournament, clock: dict[str, Any]) -> str:
    if t.registration_open:
        return "registration"
    if not t.rounds:
        return "ready"
    if t.finished:
        return "finished"
    current = t.current_round
    assert current is not None  # there are rounds
    if not current.complete:
        return "round"
    return "break" if clock.get("break_until") else "between"


def _table(view: TableView, director: str | None) -> dict[str, Any]:
    p, result, call, game = view.pairing, view.result, view.call, view.game
    data: dict[str, Any] = {
        "table": p.table,
        "team_a": p.team_a,
        "team_b": p.team_b,
        "game_id": game.id if game else None,
        "game_version": game.version if game else None,
        "score": list(call.points) if call else None,
        "result": result.to_dict() if result else None,
        "status": _status(view),
        "bell_hands": view.bell_hands,
    }
    if result is not None and call is not None and call.result is not None and result.ended is not Ending.DIRECTOR:
        told = call.result
        if (told.points_a, told.points_b, told.winner, told.ended) != (
            result.points_a,
            result.points_b,
            result.winner,
            result.ended,
        ):
            # The match and the recorded result disagree (a table fixed its record afterwards, or a
            # correction by hand): shown, never changed by itself; the director decides.
            data["match_says"] = said.match_says(call.result)
    if game is not None:
        data["match_url"] = url_for("pages.match", game_id=game.id, _external=True)
        if director is not None:
            data["scorer_link"] = url_for(
                "pages.claim", game_id=game.id, key=table_token(director, game.id, "scorer"), _external=True
            )
            data["viewer_link"] = url_for(
                "pages.claim", game_id=game.id, key=table_token(director, game.id, "viewer"), _external=True
            )
    return data


def _status(view: TableView) -> str:
    """The table's state in the page's language (the API answers in the request's, as the pages)."""
    if view.result is not None:
        return said.won(view.result.to_dict())
    if view.call is None:
        return said.no_match()
    return said.call(view.call)


def result_words(r: Any) -> str:
    return said.result(r)


def build(
    row: TournamentRow, t: Tournament, tables: dict[tuple[int, int], TableRow], now: datetime, director: str | None
) -> dict[str, Any]:
    """The whole tournament for a page or the API; table links only for the director."""
    clock = clock_of(t, tables, now)
    phase = phase_of(t, clock)
    current_views = {v.pairing.table: v for v in read_tables(t, tables, now)}
    players = {team.name: list(team.players) for team in t.teams}
    gone = {w.team: w for w in t.withdrawals}
    rounds = []
    for r in t.rounds:
        entries = []
        for p in r.pairings:
            view = current_views.get(p.table) if r is t.current_round else None
            if view is None:
                view = TableView(r.number, p, None, r.result(p.table), None, None)
                row_t = tables.get((r.number, p.table))
                if row_t is not None:
                    view.game = db.session.get(Game, row_t.game_id)
            entry = _table(view, director)
            entry["players_a"], entry["players_b"] = players.get(p.team_a, []), players.get(p.team_b, [])
            # marked from the round it withdrew in: it played the rounds before as any team did
            entry["withdrawn"] = [name for name in p.teams if name in gone and gone[name].round_number <= r.number]
            entry["result_words"] = result_words(r.result(p.table)) if r.result(p.table) else None
            entries.append(entry)
        rounds.append(
            {
                "number": r.number,
                "seed": r.seed,
                "started_at": _iso(r.started_at),
                "complete": r.complete,
                "missing": list(r.missing),
                "tables": entries,
                "bye": r.bye,
                "bye_words": said.bye(r.bye) if r.bye is not None else None,
            }
        )
    standings = [
        {
            "place": s.place,
            "team": s.team,
            "players": players.get(s.team, []),
            "wins": s.wins,
            "losses": s.losses,
            "points": s.points,
            "played": s.played,
            "byes": s.byes,
            "withdrawn": s.withdrawn,
        }
        for s in t.standings()
    ]
    champions = list(t.champions()) if t.finished else []
    n = t.round_number
    words = said.phase(phase, n)
    return {
        "id": row.id,
        "title": row.title,
        "version": row.version,
        "phase": phase,
        "phase_words": words,
        "registration_open": t.registration_open,
        "max_teams": MAX_TEAMS,
        "rounds_total": ROUNDS,
        "round": n,
        "can_start": _can_start(t),
        "next_round": n + 1 if n < ROUNDS else None,
        "teams": [
            {
                "name": team.name,
                "players": list(team.players),
                "withdrawn": team.name in gone,
                "withdrawn_words": said.withdrawn(team.name, gone[team.name].round_number)
                if team.name in gone
                else None,
                "withdrawn_reason": gone[team.name].reason if team.name in gone else None,
            }
            for team in t.teams
        ],
        "can_withdraw": t.registration_closed and not t.finished and len(t.in_play()) > 2,
        "rounds": rounds,
        "standings": standings,
        "champions": champions,
        "clock": clock,
        "corrections": [
            {**c.to_dict(), "before_words": result_words(c.before), "after_words": result_words(c.after)}
            for c in t.corrections
        ],
        "links": {"board": url_for("tournament_pages.board", tournament_id=row.id, _external=True)},
    }


def _can_start(t: Tournament) -> bool:
    return t.registration_closed and t.round_number < ROUNDS and (t.current_round is None or t.current_round.complete)
