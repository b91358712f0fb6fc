"""The match record of GAME_RECORD.md and its parts, as JSON Schema (2020-12): `scorer.schema`'s,
the one check every reader of a record runs (`spinner score` too), with the web's refusal (400).

These say what shape a record, a hand and an event have: the types, ASCII tile names, integers
in a sane range, lists of a bounded length; a field that is null reads as left out. Whether a
record is *legal* (whose turn, which end, what scores) stays the scorer's to say; a record that
passes here may still be refused by it, with the rule it breaks. The OpenAPI document
(`webapp.openapi`) publishes the same schemas.
"""

from __future__ import annotations

from typing import Any

from scorer import schema
from scorer.schema import (
    EVENT,
    HAND,
    MAX_EVENTS,
    MAX_HANDS,
    MAX_PLAYERS,
    NAME_LENGTH,
    OPTIONS,
    REASON_LENGTH,
    RECORD,
    SEAT,
    TILE,
    TITLE_LENGTH,
    WHY_LENGTH,
    int_between,
)

from . import validate

__all__ = [
    "EVENT",
    "HAND",
    "MAX_EVENTS",
    "MAX_HANDS",
    "MAX_PLAYERS",
    "NAME_LENGTH",
    "OPTIONS",
    "PROPOSAL",
    "REASON_LENGTH",
    "RECORD",
    "SEAT",
    "TILE",
    "TITLE_LENGTH",
    "WHY_LENGTH",
    "check_event",
    "check_hand",
    "check_record",
]

#: A frame's proposal as frames.json keeps it (`webapp.frames.proposal_of`, `run_proposal`): only
#: the parts an answer records from are held to a shape; the rest is drawn only as far as it fits.
PROPOSAL: dict[str, Any] = {
    "title": "Proposal",
    "type": "object",
    "properties": {
        "params": {
            "type": "object",
            "properties": {"plays": {"type": "array", "items": EVENT, "maxItems": MAX_EVENTS}},
        },
        "kept": {"type": "array", "items": EVENT, "maxItems": MAX_EVENTS},
    },
}


#: the most changes an archive's history may hold, and the highest version it may name
MAX_CHANGES = 50_000
#: The most an archive's history may give: a match's version is a 32-bit integer in PostgreSQL,
#: and an import at 2**31 - 1 could never be changed again; this leaves a billion changes.
MAX_VERSION = 2**30
_NULL = {"type": "null"}
_NOTE = {"anyOf": [_NULL, {"type": "object", "maxProperties": 64}]}

#: One change of a match's history as an archive carries it (`webapp.archive`, match.json): what
#: `GET /api/games/ID/history` answers. What it says of events is held to EVENT by `archive`.
CHANGE: dict[str, Any] = {
    "title": "Change",
    "type": "object",
    "required": ["version", "action"],
    "properties": {
        "version": int_between(1, MAX_VERSION, "the version of the match the change made"),
        "action": {"type": "string", "maxLength": 16},
        "hand": {"anyOf": [int_between(0, MAX_HANDS - 1, "a hand (from 0)"), _NULL]},
        "event": {"anyOf": [int_between(0, MAX_EVENTS - 1, "an event of the hand (from 0)"), _NULL]},
        "before": _NOTE,
        "after": _NOTE,
        "who": {"type": "string", "maxLength": 60},
        "why": {"type": "string", "maxLength": REASON_LENGTH},
        "source": {"enum": ["pad", "camera", "api", "import"]},
        "at": {"anyOf": [{"type": "string", "maxLength": 40}, _NULL]},
    },
}

#: What became of the event a kept frame made (`webapp.models.Frame.link`), as frames.json keeps it.
LINK: dict[str, Any] = {
    "anyOf": [
        _NULL,
        {
            "type": "object",
            "required": ["state", "action", "version"],
            "additionalProperties": False,
            "properties": {
                "state": {"enum": ["corrected", "taken back"]},
                "action": {"type": "string", "maxLength": 16},
                "version": int_between(1, MAX_VERSION, "the version of the change that did it"),
                "event": {"anyOf": [int_between(0, MAX_EVENTS - 1, "where the event stood then"), _NULL]},
                "who": {"type": "string", "maxLength": 60},
                "why": {"type": "string", "maxLength": REASON_LENGTH},
            },
        },
    ]
}


def check_record(record: Any, what: str = "the record") -> dict[str, Any]:
    """The record with its null fields left out (`scorer.schema.check_record`), or a 400."""
    with validate.refused():
        return schema.check_record(record, what)


def check_event(event: Any, what: str = "the event") -> dict[str, Any]:
    """The event with its null fields left out, or a 400."""
    return schema.without_nulls(validate.check(event, EVENT, what))


def check_hand(hand: Any, what: str = "the hand") -> dict[str, Any]:
    return validate.check(hand, HAND, what)  # type: ignore[no-any-return]
