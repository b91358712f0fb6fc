"""The match record of GAME_RECORD.md and its parts, as JSON Schema (2020-12).

These say what shape a record, a hand and an event have: the types, ASCII tile names, integers
in a sane range, lists of a bounded length. Whether a record is *legal* (whose turn, which end,
what scores) stays the scorer's to say; a record that passes here may still be refused by it,
with the rule it breaks. The OpenAPI document (`webapp.openapi`) publishes the same schemas.
"""

from __future__ import annotations

from typing import Any

from . import validate

#: Players at one table, hands in one match, events in one hand: far past any real game.
MAX_PLAYERS = 8
MAX_HANDS = 1000
MAX_EVENTS = 500
#: a player's name and an event's reason are kept whole up to these lengths, refused beyond
NAME_LENGTH = 40
REASON_LENGTH = 1000
#: a change's `why` and a match's or tournament's title: what the pages keep and show
WHY_LENGTH = 300
TITLE_LENGTH = 120


def _int(low: int, high: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, "description": description}


TILE = {
    "type": "string",
    "pattern": "^[0-9]{1,2}-[0-9]{1,2}$",
    "maxLength": 5,
    "description": 'a tile is two pip values in ASCII digits, like "3-5"',
}
SEAT = _int(0, MAX_PLAYERS - 1, "a seat number (0 for the first player)")

EVENT: dict[str, Any] = {
    "title": "Event",
    "description": 'an event is a JSON object such as {"type": "play", "seat": 0, "tile": "6-6"} '
    "(GAME_RECORD.md: play, pass, draw, reveal, pips or adjust)",
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {
            "type": "string",
            "maxLength": 16,
            "description": "the event's type: play, pass, draw, reveal, pips or adjust",
        },
        "seat": SEAT,
        "team": _int(0, 1, "a team number (0 or 1)"),
        "tile": TILE,
        "end": {"type": "string", "maxLength": 16, "description": "west, east, north or south"},
        "count": _int(0, 28, "how many tiles were drawn (0 to 28)"),
        "tiles": {"type": "array", "items": TILE, "maxItems": 28},
        "pips": _int(0, 1000, "a pip count (0 to 1000)"),
        "points": _int(-10_000, 10_000, "an adjustment is at most 10000 points either way"),
        "reason": {"type": "string", "maxLength": REASON_LENGTH},
    },
}

HAND: dict[str, Any] = {
    "title": "Hand",
    "type": "object",
    "properties": {
        "leader": {"anyOf": [SEAT, {"type": "null"}]},
        "deal": {
            "anyOf": [
                {"type": "array", "maxItems": MAX_PLAYERS, "items": {"type": "array", "items": TILE, "maxItems": 28}},
                {"type": "null"},
            ]
        },
        "events": {"type": "array", "items": EVENT, "maxItems": MAX_EVENTS},
    },
}

OPTIONS: dict[str, Any] = {
    "title": "Options",
    "description": "house rule options of RULES.md that differ from the variant's defaults",
    "type": "object",
    "maxProperties": 16,
    "properties": {
        "target": _int(-100_000, 100_000, "the target is a whole number of points, at most 100000"),
        "preset": {"type": "string", "maxLength": 40},
    },
    "additionalProperties": {"type": ["string", "boolean", "integer"], "maxLength": 40},
}

RECORD: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Match record",
    "description": "A match record of GAME_RECORD.md (format domino-record/1).",
    "type": "object",
    "properties": {
        "format": {"type": "string", "maxLength": 40},
        "variant": {"type": "string", "maxLength": 40, "description": "the variant's name (RULES.md)"},
        "options": OPTIONS,
        "players": {
            "type": "array",
            "items": {"type": "string", "maxLength": NAME_LENGTH},
            "minItems": 1,
            "maxItems": MAX_PLAYERS,
        },
        "hands": {"type": "array", "items": HAND, "maxItems": MAX_HANDS},
        "title": {"type": "string", "maxLength": TITLE_LENGTH},
        "private": {"type": "boolean"},
        "who": {"type": "string", "maxLength": 1000},
    },
}


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
MAX_VERSION = 2**31 - 2
_NULL = {"type": "null"}
_NOTE = {"anyOf": [_NULL, {"type": "object", "maxProperties": 64}]}

#: One change of a match's history as an archive carries it (`webapp.archive`, match.json): what
#: `GET /api/games/ID/history` answers. What it says of events is held to EVENT by `archive`.
CHANGE: dict[str, Any] = {
    "title": "Change",
    "type": "object",
    "required": ["version", "action"],
    "properties": {
        "version": _int(1, MAX_VERSION, "the version of the match the change made"),
        "action": {"type": "string", "maxLength": 16},
        "hand": {"anyOf": [_int(0, MAX_HANDS - 1, "a hand (from 0)"), _NULL]},
        "event": {"anyOf": [_int(0, MAX_EVENTS - 1, "an event of the hand (from 0)"), _NULL]},
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
                "version": _int(1, MAX_VERSION, "the version of the change that did it"),
                "event": {"anyOf": [_int(0, MAX_EVENTS - 1, "where the event stood then"), _NULL]},
                "who": {"type": "string", "maxLength": 60},
                "why": {"type": "string", "maxLength": REASON_LENGTH},
            },
        },
    ]
}


def check_record(record: Any, what: str = "the record") -> dict[str, Any]:
    return validate.check(record, RECORD, what)


def check_event(event: Any, what: str = "the event") -> dict[str, Any]:
    return validate.check(event, EVENT, what)


def check_hand(hand: Any, what: str = "the hand") -> dict[str, Any]:
    return validate.check(hand, HAND, what)
