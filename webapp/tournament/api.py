"""The tournament's JSON API (the director's page uses the same operations; README lists it).

Changes need the director token (`Authorization: Bearer TOKEN`, or the director page's session
plus its CSRF token); reads need nothing but the tournament's id, and show the tables' links
only to the director. A change may name the version it was made on (`If-Match: "7"` or
`"version": 7`): on any other version it is refused with 409 and nothing is recorded.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, url_for

from ..api import body, expected_version, iso
from ..auth import clean_text
from . import access, results, service, transfer, view

bp = Blueprint("tournament_api", __name__, url_prefix="/api/tournaments")


def who(data: dict) -> str:
    return clean_text(data.get("who"), 60) or "director"


def shown(row, status: int = 200) -> Response:  # type: ignore[no-untyped-def]
    """The tournament as it stands, with the results its matches have reached since."""
    row = results.sync(row.id)
    director = access.director_token(row)
    data = view.build(row, service.state_of(row), service.tables_of(row.id), service.clock(), director)
    response = jsonify(data)
    response.status_code = status
    response.headers["ETag"] = f'"{data["version"]}"'
    return response


def director_row(tournament_id: str):  # type: ignore[no-untyped-def]
    row = service.get(tournament_id)
    return row, access.require_director(row)


def created(row, token: str) -> Response:  # type: ignore[no-untyped-def]
    response = jsonify(
        {
            "id": row.id,
            "token": token,
            "version": row.version,
            "links": {
                "director": url_for("tournament_pages.join", tournament_id=row.id, key=token, _external=True),
                "board": url_for("tournament_pages.board", tournament_id=row.id, _external=True),
            },
        }
    )
    response.status_code = 201
    response.headers["Location"] = url_for("tournament_api.tournament", tournament_id=row.id)
    return response


@bp.post("")
def create():  # type: ignore[no-untyped-def]
    data = body()
    row, token = service.create(data.get("title"), who=who(data))
    return created(row, token)


@bp.post("/import")
def import_file():  # type: ignore[no-untyped-def]
    data = body()
    row, token = transfer.load(data, who="import")
    return created(row, token)


@bp.get("/<tournament_id>")
def tournament(tournament_id: str):  # type: ignore[no-untyped-def]
    return shown(service.get(tournament_id))


@bp.get("/<tournament_id>/standings")
def standings(tournament_id: str):  # type: ignore[no-untyped-def]
    row = results.sync(service.get(tournament_id).id)
    data = view.build(row, service.state_of(row), service.tables_of(row.id), service.clock(), None)
    return jsonify({key: data[key] for key in ("id", "title", "version", "phase", "round", "standings", "champions")})


@bp.post("/<tournament_id>/teams")
def register(tournament_id: str):  # type: ignore[no-untyped-def]
    data = body()
    director_row(tournament_id)
    row = service.register(tournament_id, data, expected_version(data), who=who(data))
    return shown(row, 201)


@bp.post("/<tournament_id>/close")
def close(tournament_id: str):  # type: ignore[no-untyped-def]
    data = body()
    director_row(tournament_id)
    return shown(service.close(tournament_id, expected_version(data), who=who(data)))


@bp.post("/<tournament_id>/withdrawals")
def withdraw(tournament_id: str):  # type: ignore[no-untyped-def]
    data = body()
    director_row(tournament_id)
    results.sync(tournament_id)  # a table that ended a moment ago keeps its result
    row = service.withdraw(tournament_id, data, expected_version(data), who=who(data))
    return shown(row, 201)


@bp.post("/<tournament_id>/rounds")
def start_round(tournament_id: str):  # type: ignore[no-untyped-def]
    data = body()
    _, token = director_row(tournament_id)
    results.sync(tournament_id)  # a table that ended a moment ago counts before the next pairing
    row = service.start_round(
        tournament_id,
        data.get("seed"),
        expected_version(data),
        token,
        who=who(data),
        during_break=data.get("during_break", False),
    )
    return shown(row, 201)


@bp.post("/<tournament_id>/rounds/<int:number>/tables/<int:table>/result")
def enter_result(tournament_id: str, number: int, table: int):  # type: ignore[no-untyped-def]
    data = body()
    director_row(tournament_id)
    results.sync(tournament_id)
    row = results.enter_result(tournament_id, number, table, data, expected_version(data), who=who(data))
    return shown(row, 201)


@bp.put("/<tournament_id>/rounds/<int:number>/tables/<int:table>/result")
def correct_result(tournament_id: str, number: int, table: int):  # type: ignore[no-untyped-def]
    data = body()
    director_row(tournament_id)
    results.sync(tournament_id)
    row = results.correct(tournament_id, number, table, data, expected_version(data), who=who(data))
    return shown(row)


@bp.get("/<tournament_id>/export")
def export(tournament_id: str):  # type: ignore[no-untyped-def]
    row, _ = director_row(tournament_id)
    row = results.sync(row.id)
    data = transfer.export(row)
    response = Response(json.dumps(data, indent=1, ensure_ascii=False) + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="spinner-tournament-{row.id}.json"'
    return response


@bp.get("/<tournament_id>/history")
def history(tournament_id: str):  # type: ignore[no-untyped-def]
    row, _ = director_row(tournament_id)
    return jsonify(
        {
            "id": row.id,
            "version": row.version,
            "changes": [
                {
                    "version": c.version,
                    "action": c.action,
                    "round": c.round,
                    "table": c.table,
                    "before": c.before,
                    "after": c.after,
                    "who": c.who,
                    "why": c.why,
                    "at": iso(c.at),
                }
                for c in service.history(row.id)
            ],
        }
    )
