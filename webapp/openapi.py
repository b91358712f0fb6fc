"""The JSON API described once, as OpenAPI 3.1: served at /api/openapi.json, written to
docs/openapi.json (`python -m webapp.openapi > docs/openapi.json`), and used to check each request.

The record, hand and event are `webapp.schemas` (GAME_RECORD.md as JSON Schema). Before a view
runs, `check_request` holds the request to its operation here: the integer query parameters
(ASCII digits, bounded) and the JSON body (bounded by `webapp.validate`, then its schema). The
views still check what only they can know (the token, the match's version, the scorer's rules).
"""

from __future__ import annotations

import copy
import json
import re
import sys
from typing import Any

from flask import Blueprint, Flask, jsonify, request
from werkzeug.routing import Rule

from . import schemas, validate

bp = Blueprint("openapi", __name__)

INTEGER = {"type": "integer", "minimum": 0, "maximum": validate.MAX_INT}
VERSION = {
    "type": "integer",
    "minimum": 1,
    "maximum": validate.MAX_INT,
    "description": "the version the change was made on",
}
TEXT = {"type": "string", "maxLength": 1000}
#: kept whole up to these lengths and refused beyond (they were cut short without a word)
WHY = {"type": "string", "maxLength": schemas.WHY_LENGTH}
TITLE = {"type": "string", "maxLength": schemas.TITLE_LENGTH}
REF = {name: {"$ref": f"#/components/schemas/{name}"} for name in ("Record", "Hand", "Event", "Error")}

#: Fields any change of a match may carry besides its own.
CHANGE = {"version": VERSION, "who": TEXT, "why": WHY, "source": {"type": "string", "maxLength": 16}}


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = list(required)
    return out


def _event_with(required_event: bool = False) -> dict[str, Any]:
    return _object({**CHANGE, "event": REF["Event"]}, ("event",) if required_event else ())


#: Each operation: (method, path, summary, who may call it, JSON body schema or None, query parameters,
#: other body media types).
Operation = tuple[str, str, str, str, "dict[str, Any] | None", "dict[str, dict[str, Any]]", "tuple[str, ...]"]
G = "/api/games/{game_id}"
T = "/api/tournaments/{tournament_id}"
OPERATIONS: list[Operation] = [
    (
        "post",
        "/api/games",
        "Create a match (a variant and players, or a whole record), or import an exported ZIP",
        "anyone",
        {"allOf": [REF["Record"]]},
        {},
        ("application/zip",),
    ),
    ("get", "/api/games", "The listed matches, newest first", "anyone", None, {}, ()),
    ("get", G, "A match's summary and the caller's role", "reader", None, {}, ()),
    (
        "post",
        f"{G}/hands",
        "Start a hand",
        "scorer",
        _object(
            {
                **CHANGE,
                "leader": {"anyOf": [schemas.SEAT, {"type": "null"}]},
                "deal": schemas.HAND["properties"]["deal"],
            }
        ),
        {},
        (),
    ),
    (
        "post",
        f"{G}/events",
        "Record an event (bare, or as {event, version, who, why})",
        "scorer",
        {**_object({**CHANGE, "event": REF["Event"], **schemas.EVENT["properties"]})},
        {},
        (),
    ),
    (
        "put",
        f"{G}/hands/{{hand}}/events/{{index}}",
        "Correct an event (needs why); with take_back_from, the hand's events from there on are taken back first",
        "scorer",
        _object(
            {
                **CHANGE,
                "event": REF["Event"],
                "take_back_from": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "the first event to take back with the correction (after the one corrected), "
                    "where a later event no longer fits it: the refusal names it",
                },
            },
            ("event",),
        ),
        {},
        (),
    ),
    (
        "delete",
        f"{G}/hands/{{hand}}/events/{{index}}",
        "Remove an event (needs why)",
        "scorer",
        _object(CHANGE),
        {},
        (),
    ),
    (
        "delete",
        f"{G}/hands/{{hand}}",
        "Deal the last hand again: it is voided with its events, as one change (needs why)",
        "scorer",
        _object(CHANGE),
        {},
        (),
    ),
    (
        "post",
        f"{G}/hands/{{hand}}/lead-stands",
        "Let the hand's lead stand though later plays prove it wrong (cross; needs why)",
        "scorer",
        _object(CHANGE),
        {},
        (),
    ),
    ("post", f"{G}/undo", "Take back the last thing recorded", "scorer", _object(CHANGE), {}, ()),
    (
        "put",
        f"{G}/seating",
        "Where each player sits in the camera's picture (the record's seating), or null to forget it",
        "scorer",
        _object(
            {
                "seating": {
                    "type": ["array", "null"],
                    "maxItems": 10,
                    "items": {"type": "string", "enum": ["top", "right", "bottom", "left"]},
                    "description": "the side of the camera's picture each seat sits at, in seat order",
                },
                **CHANGE,
            },
            ("seating",),
        ),
        {},
        (),
    ),
    (
        "post",
        f"{G}/disputes",
        "Mark a hand or an event as disputed (needs why)",
        "scorer",
        _object({**CHANGE, "hand": INTEGER, "event": INTEGER}),
        {},
        (),
    ),
    (
        "post",
        f"{G}/disputes/{{version}}/settle",
        "Settle a dispute, with a correction if agreed",
        "scorer",
        _event_with(),
        {},
        (),
    ),
    ("get", f"{G}/score", "The scorer's answer (GAME_RECORD.md)", "reader", None, {}, ()),
    (
        "get",
        f"{G}/record",
        "The match record, now or at ?version=N",
        "reader",
        None,
        {"version": VERSION, "download": {"type": "string", "maxLength": 8}},
        (),
    ),
    ("get", f"{G}/export", "The record with its frames, as a ZIP", "reader", None, {}, ()),
    ("get", f"{G}/history", "Every version: who, when, why", "reader", None, {}, ()),
    ("get", f"{G}/board", "The board the live page draws (304 while unchanged)", "reader", None, {}, ()),
    ("get", f"{G}/stream", "Server-sent events: the board after every change", "reader", None, {}, ()),
    (
        "post",
        f"{G}/frames",
        "Send a photo to be read (multipart 'photo', or the image as the body)",
        "scorer",
        None,
        {
            "source": {"type": "string", "enum": ["photo", "camera"]},
            "seat": {"type": "integer", "minimum": 0, "maximum": 9},
            "wait": {"type": "string", "maxLength": 1},
        },
        ("multipart/form-data", "image/jpeg", "image/png", "image/webp", "image/heic"),
    ),
    ("get", f"{G}/frames", "The match's kept frames", "reader", None, {"hand": INTEGER}, ()),
    (
        "get",
        f"{G}/frames/asks",
        "The camera's question open now (plays kept to confirm first), or null",
        "reader",
        None,
        {},
        (),
    ),
    ("get", f"{G}/frames/{{frame_id}}", "One frame with its reading and proposal", "reader", None, {}, ()),
    ("get", f"{G}/frames/{{frame_id}}/image", "The frame's photo", "reader", None, {}, ()),
    (
        "post",
        f"{G}/frames/{{frame_id}}/accept",
        "Record the frame's proposed play (or a corrected event; a question of several new tiles in more "
        "than one order proposes none: send one of its 'plays', and the same photo asks or records the rest); "
        "for plays kept with their seat open (status kept, or code passes_unsure), record them all, 'passes' "
        "naming each play laid after a pass",
        "scorer",
        _object(
            {
                "event": REF["Event"],
                "passes": {
                    "type": "array",
                    "maxItems": 64,
                    "items": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 2,
                        "items": {"type": "integer", "minimum": 0},
                        "description": "[play, seat]: the play (from 0, in the order kept) and who laid it",
                    },
                },
                "who": TEXT,
                "why": WHY,
            }
        ),
        {},
        (),
    ),
    (
        "post",
        f"{G}/frames/{{frame_id}}/reject",
        "Turn the frame's proposal down",
        "scorer",
        _object({"who": TEXT, "why": WHY}),
        {},
        (),
    ),
    (
        "post",
        "/api/tournaments",
        "Create a tournament (answers the director's token)",
        "anyone",
        _object({"title": TITLE, "who": TEXT}),
        {},
        (),
    ),
    (
        "post",
        "/api/tournaments/import",
        "A new tournament from an exported file",
        "anyone",
        _object(
            {
                "format": {"type": "string", "maxLength": 64},
                "version": INTEGER,
                "title": TITLE,
                "tables": {
                    "type": "array",
                    "maxItems": 10_000,
                    "items": _object(
                        {
                            "round": INTEGER,
                            "table": INTEGER,
                            "record": REF["Record"],
                            "bell_hands": {"anyOf": [INTEGER, {"type": "null"}]},
                        }
                    ),
                },
            },
            ("format",),
        ),
        {},
        (),
    ),
    ("get", T, "The tournament as it stands", "anyone", None, {}, ()),
    ("get", f"{T}/standings", "The standings", "anyone", None, {}, ()),
    (
        "post",
        f"{T}/teams",
        "Register a team",
        "director",
        _object(
            {"version": VERSION, "who": TEXT, "name": TEXT, "players": {"type": "array", "maxItems": 8, "items": TEXT}}
        ),
        {},
        (),
    ),
    ("post", f"{T}/close", "Close registration", "director", _object({"version": VERSION, "who": TEXT}), {}, ()),
    (
        "post",
        f"{T}/withdrawals",
        "Withdraw a team (needs reason): it keeps its results and is paired in no later round",
        "director",
        _object({"version": VERSION, "who": TEXT, "team": TEXT, "reason": TEXT}),
        {},
        (),
    ),
    (
        "post",
        f"{T}/rounds",
        "Pair and start the next round",
        "director",
        _object(
            {
                "version": VERSION,
                "who": TEXT,
                "during_break": {"type": "boolean", "description": "during_break is true or false"},
                "seed": {
                    "type": ["integer", "string", "null"],
                    "maxLength": 64,
                    "minimum": 0,
                    "maximum": validate.MAX_INT,
                },
            }
        ),
        {},
        (),
    ),
    (
        "post",
        f"{T}/rounds/{{number}}/tables/{{table}}/result",
        "Enter a table's result by hand",
        "director",
        _object(
            {
                "version": VERSION,
                "who": TEXT,
                "points_a": {"type": ["integer", "string"], "maxLength": 8},
                "points_b": {"type": ["integer", "string"], "maxLength": 8},
                "winner": TEXT,
                "ended": TEXT,
                "reason": TEXT,
            }
        ),
        {},
        (),
    ),
    (
        "put",
        f"{T}/rounds/{{number}}/tables/{{table}}/result",
        "Correct a table's result",
        "director",
        _object(
            {
                "version": VERSION,
                "who": TEXT,
                "points_a": {"type": ["integer", "string"], "maxLength": 8},
                "points_b": {"type": ["integer", "string"], "maxLength": 8},
                "winner": TEXT,
                "ended": TEXT,
                "reason": TEXT,
            }
        ),
        {},
        (),
    ),
    ("get", f"{T}/export", "The whole night as one file", "director", None, {}, ()),
    ("get", f"{T}/history", "Every change of the tournament", "director", None, {}, ()),
    ("get", "/api/openapi.json", "This document", "anyone", None, {}, ()),
]
INTEGER_PATHS = {"hand", "index", "version", "frame_id", "number", "table"}
ERROR = _object({"error": {"type": "string"}, "status": {"type": "integer"}}, ("error", "status"))


def _parameters(path: str, query: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for name in re.findall(r"{(\w+)}", path):
        schema = INTEGER if name in INTEGER_PATHS else {"type": "string", "minLength": 1, "maxLength": 32}
        out.append({"name": name, "in": "path", "required": True, "schema": schema})
    for name, schema in query.items():
        out.append({"name": name, "in": "query", "required": False, "schema": schema})
    return out


def _responses(method: str, who: str) -> dict[str, Any]:
    error = {
        "description": "refused, in plain words; nothing recorded",
        "content": {"application/json": {"schema": REF["Error"]}},
    }
    out: dict[str, Any] = {
        "200": {"description": "done"},
        "201": {"description": "made"},
        "400": error,
        "404": error,
        "409": error,
        "413": error,
        "415": error,
        "422": error,
        "503": {**error, "description": "busy: try again after Retry-After seconds"},
    }
    if who != "anyone":
        out["401"] = out["403"] = error
    return out


def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the JSON API."""
    paths: dict[str, dict[str, Any]] = {}
    for method, path, summary, who, body, query, media in OPERATIONS:
        operation: dict[str, Any] = {
            "summary": summary,
            "parameters": _parameters(path, query),
            "responses": _responses(method, who),
        }
        if who != "anyone":
            operation["description"] = f"Needs the {who}'s token (Authorization: Bearer TOKEN)" + (
                "; a listed match needs none to read" if who == "reader" else ""
            )
            operation["security"] = [{"bearer": []}]
        content: dict[str, Any] = {}
        if body is not None:
            content["application/json"] = {"schema": body}
        for kind in media:
            content[kind] = {
                "schema": _object({"photo": {"type": "string", "format": "binary"}})
                if kind == "multipart/form-data"
                else {"type": "string", "format": "binary"}
            }
        if content:
            operation["requestBody"] = {"required": method == "post" and body is None, "content": content}
        paths.setdefault(path, {})[method] = operation
    record = {k: v for k, v in copy.deepcopy(schemas.RECORD).items() if k != "$schema"}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Spinner companion API",
            "version": "1",
            "description": "Scorekeeping for dominoes at a real table. The record is GAME_RECORD.md's; "
            "every change goes through the scorer, and every refusal is JSON {error, status}.",
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "paths": paths,
        "components": {
            "schemas": {"Record": record, "Hand": schemas.HAND, "Event": schemas.EVENT, "Error": ERROR},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


# -- checking a request against its operation ------------------------------------------------------


def _resolved(schema: Any) -> Any:
    """`schema` with its component references replaced (jsonschema then needs no registry)."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            target = {"Record": schemas.RECORD, "Hand": schemas.HAND, "Event": schemas.EVENT, "Error": ERROR}[name]
            return {k: v for k, v in target.items() if k != "$schema"}
        return {k: _resolved(v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_resolved(v) for v in schema]
    return schema


def _flask_rule(path: str) -> str:
    return re.sub(
        r"{(\w+)}", lambda m: f"<int:{m.group(1)}>" if m.group(1) in INTEGER_PATHS else f"<{m.group(1)}>", path
    )


_CHECKS: dict[tuple[str, str], tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]] = {
    (method.upper(), _flask_rule(path)): (_resolved(body) if body is not None else None, query)
    for method, path, _, _, body, query, _ in OPERATIONS
}


def check_request() -> None:
    """Hold the request to its operation before the view runs (a 400 naming the field)."""
    rule = request.url_rule
    if rule is None or not rule.rule.startswith("/api/"):
        return
    found = _CHECKS.get((request.method, rule.rule))
    if found is None:
        return
    body, query = found
    for name, schema in query.items():
        if schema.get("type") == "integer":
            validate.ascii_int(request.args.get(name), name, schema.get("maximum", validate.MAX_INT))
    if body is not None and request.mimetype == "application/json":
        from .api import body as parsed_body

        if (request.method, rule.rule) == ("POST", "/api/games"):
            # a record: the whole check `spinner score` makes, in its words (`scorer.schema`)
            schemas.check_record(parsed_body(), "the body")
        else:
            validate.check(parsed_body(), body, "the body")


@bp.get("/api/openapi.json")
def served():  # type: ignore[no-untyped-def]
    return jsonify(document())


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.before_request(check_request)


def _uncovered(app: Flask) -> list[str]:
    """API routes this document does not describe (a test keeps this empty)."""
    known = {key for key in _CHECKS}
    return sorted(
        f"{method} {rule.rule}"
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in _methods(rule) - {"HEAD", "OPTIONS"}
        if (method, rule.rule) not in known
    )


def _methods(rule: Rule) -> set[str]:
    assert rule.methods is not None  # Flask's `add_url_rule` always names a route's methods
    return rule.methods


if __name__ == "__main__":
    json.dump(document(), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
