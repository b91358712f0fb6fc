"""One file for the whole tournament night: teams, rounds, results, corrections, every match record.

```json
{"format": "spinner-tournament-night", "version": 1, "title": "...", "exported_at": "...",
 "tournament": {... scorer.tournament.Tournament.to_dict() ...},
 "tables": [{"round": 1, "table": 1, "bell_hands": null, "result_at": "...",
             "record": {... GAME_RECORD.md ...}}],
 "history": [{"version": 1, "action": "create", "who": "...", "why": "...", "at": "..."}]}
```

Import checks everything before writing anything: the tournament by the scorer's
`Tournament.from_dict`, each match record by the scorer's `Match.from_record`, and that each
table's record is the `partners-block` match of that table's two teams, seated as the pairing
seats them, with no house rule of its own (a match won at another target is no tournament result). Nothing is written unless the whole file passes.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from scorer import Match, RecordError
from scorer.tournament import TARGET, Tournament, TournamentError
from scorer.variants import json_text, make_rules

from .. import schemas, store, validate
from ..auth import clean_text, digest, new_token
from ..db import db
from ..errors import ApiError
from ..models import Game
from .models import TableRow, TournamentChange, TournamentRow
from .service import (
    VARIANT,
    aware,
    clock,
    history,
    new_table_match,
    players_at,
    state_of,
    tables_of,
)

FORMAT = "spinner-tournament-night"
VERSION = 1


def _iso(moment: datetime | None) -> str | None:
    moment = aware(moment)
    return moment.isoformat() if moment is not None else None


def export(row: TournamentRow) -> dict[str, Any]:
    t = state_of(row)
    tables = []
    for (number, table), entry in sorted(tables_of(row.id).items()):
        game = db.session.get(Game, entry.game_id)
        tables.append(
            {
                "round": number,
                "table": table,
                "bell_hands": entry.bell_hands,
                "result_at": _iso(entry.result_at),
                "record": store.snapshot(game).record if game is not None else None,
            }
        )
    changes = [
        {
            "version": c.version,
            "action": c.action,
            "round": c.round,
            "table": c.table,
            "before": c.before,
            "after": c.after,
            "who": c.who,
            "why": c.why,
            "at": _iso(c.at),
        }
        for c in history(row.id)
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "title": row.title,
        "exported_at": clock().isoformat(),
        "tournament": t.to_dict(),
        "tables": tables,
        "history": changes,
    }


def _same_rules(record: dict[str, Any], where: str) -> None:
    """Refuse a table's record whose house rules are not the tournament's: its match won at another
    target is no tournament result, and every read of the tournament then failed on it."""
    rules = make_rules(record["variant"], len(record["players"]), record.get("options"))
    tournament = make_rules(VARIANT, len(record["players"]), {})
    if rules == tournament:
        return
    name, value = next(iter(rules.options_dict().items()))
    said = f"{name} {json_text(value)} (the tournament's is {json_text(getattr(tournament, name, None))})"
    raise ApiError(
        422, f"{where}: the record plays with {said}: a table plays {VARIANT} as the tournament does, to {TARGET}"
    )


def check(data: object) -> tuple[Tournament, dict[tuple[int, int], dict[str, Any]]]:
    """The tournament and its tables from a file, or a 422 naming the first problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ApiError(422, f"this is not a tournament file (its format is not {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ApiError(
            422, f"tournament file version {data.get('version')!r} is not supported (this server reads {VERSION})"
        )
    tournament = data.get("tournament")
    try:
        if not isinstance(tournament, Mapping):
            raise TournamentError("a tournament file must hold a mapping")  # as from_dict says
        t = Tournament.from_dict(tournament)
    except TournamentError as error:
        raise ApiError(422, f"the tournament in the file breaks a rule: {error}") from None
    for r in t.rounds:
        if r.started_at is not None and r.started_at.tzinfo is None:
            raise ApiError(422, f"round {r.number}: its start time has no time zone")
        if r.started_at is not None:
            validate.of_our_time(r.started_at, f"round {r.number}: its start time", 422)
    entries = data.get("tables")
    if not isinstance(entries, list):
        raise ApiError(422, "the file lacks its list of tables")
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for entry in entries:
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("round"), int)
            or not isinstance(entry.get("table"), int)
        ):
            raise ApiError(422, "each table in the file needs its round and table number")
        key = (entry["round"], entry["table"])
        where = f"round {key[0]}, table {key[1]}"
        if key in found:
            raise ApiError(422, f"{where} is in the file twice")
        if not 1 <= key[0] <= len(t.rounds):
            raise ApiError(422, f"{where}: the tournament has no round {key[0]}")
        try:
            pairing = t.rounds[key[0] - 1].pairing(key[1])
        except TournamentError as error:
            raise ApiError(422, str(error)) from None
        record = entry.get("record")
        record = schemas.check_record(record, f"{where}: the match record")
        try:
            Match.from_record(record)
        except RecordError as error:
            raise ApiError(422, f"{where}: the match record breaks a rule: {error}") from None
        assert isinstance(record, dict)  # from_record takes nothing else
        expected = players_at(t, pairing.team_a, pairing.team_b)
        if record.get("variant") != VARIANT or [clean_text(p, 40) for p in record.get("players", [])] != expected:
            raise ApiError(
                422,
                f"{where}: the record is not the {VARIANT} match of {pairing.team_a} v "
                f"{pairing.team_b} seated {', '.join(expected)}",
            )
        _same_rules(record, where)
        bell_hands = entry.get("bell_hands")
        if bell_hands is not None and (
            not isinstance(bell_hands, int) or isinstance(bell_hands, bool) or bell_hands < 0
        ):
            raise ApiError(422, f"{where}: bell_hands must be a count of hands")
        validate.moment(entry.get("result_at"), f"{where}: result_at", 422)
        found[key] = {**entry, "record": record}  # its null fields left out
    missing = [
        f"round {r.number}, table {p.table}" for r in t.rounds for p in r.pairings if (r.number, p.table) not in found
    ]
    if missing:
        raise ApiError(422, f"the file has no match record for {', '.join(missing)}")
    return t, found


def load(data: object, *, who: str) -> tuple[TournamentRow, str]:
    """A new tournament from an exported file (new director link, new table links)."""
    t, entries = check(data)
    assert isinstance(data, dict)
    token = new_token()
    row = TournamentRow(
        id=secrets.token_urlsafe(9),
        title=clean_text(data.get("title"), 120) or "Tournament night",
        state=t.to_dict(),
        version=1,
        director_hash=digest(token),
    )
    db.session.add(row)
    db.session.commit()
    made: list[str] = []
    try:
        for (number, table), entry in sorted(entries.items()):
            pairing = t.rounds[number - 1].pairing(table)
            game = new_table_match(t, row.title, number, pairing, token, who=who, record=entry["record"])
            made.append(game.id)
            db.session.add(
                TableRow(
                    tournament_id=row.id,
                    round=number,
                    table=table,
                    game_id=game.id,
                    bell_hands=entry.get("bell_hands"),
                    result_at=validate.moment(entry.get("result_at"), "result_at", 422),
                )
            )
        db.session.add(
            TournamentChange(
                tournament_id=row.id,
                version=1,
                action="import",
                who=who,
                why="imported from a file",
                before={"history": data.get("history") if isinstance(data.get("history"), list) else []},
                after={"teams": len(t.teams), "rounds": len(t.rounds)},
            )
        )
        db.session.commit()
    except Exception:
        db.session.rollback()
        for game_id in made:
            orphan = db.session.get(Game, game_id)
            if orphan is not None:
                db.session.delete(orphan)
        stale = db.session.get(TournamentRow, row.id)
        if stale is not None:
            db.session.delete(stale)
        db.session.commit()
        raise
    return row, token
