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


def check_record(record: Any, what: str = "the record") -> dict[str, Any]:
    """The record with its null fields left out (`scorer.schema.check_record`), or a 400."""
    with validate.refused():
        return schema.check_record(record, what)


def check_event(event: Any, what: str = "the event") -> dict[str, Any]:
    """The event with its null fields left out, or a 400."""
    return schema.without_nulls(validate.check(event, EVENT, what))


def check_hand(hand: Any, what: str = "the hand") -> dict[str, Any]:
    return validate.check(hand, HAND, what)  # type: ignore[no-any-return]
