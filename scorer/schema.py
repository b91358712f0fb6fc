"""The one check of a match record's shape, for every reader: `spinner score`, the web import, the
archive and the tournament file all refuse the same records, in the same words.

A record (GAME_RECORD.md) is first read as bounded JSON (`loads`: no NaN, no integer past 2^53,
nothing nested deeper than any record, no half of a UTF-16 pair, no key twice in one object), then held to the JSON Schema
below (`check_record`): the types, ASCII tile names, integers in a sane range, lists of a bounded
length, the players' names (one each, told apart) and our own `seating`. Whether a record is
*legal* (whose turn, which end, what scores) stays the scorer's to say (`Match.from_record`); a
record that passes here may still be refused by it, with the rule it breaks.

**null is "left out".** GAME_RECORD.md lets a writer leave a field out (`leader`, `deal`, a play's
`end`...); many writers put null there instead. Every optional field of the record, a hand or an
event may be null, and reads exactly as if it were left out: `check_record` gives the record
without them. A field that must be there (`variant`, `players`, an event's `type`) may not be null.

Every refusal is a `ShapeError` (a `RecordError`) whose message starts with what was read (a file
name, "the body") and names the field by its path, e.g. `hands[0].events[1].tile`; those about the
players' names and the seating are sentences of their own (a page shows them to whoever typed the
names), which `ShapeError.said_of` names the file before.
"""

from __future__ import annotations

import codecs
import json
import math
import re
import unicodedata
from typing import Any

from .errors import RecordError

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
#: Deeper than any record of GAME_RECORD.md (record > hands > hand > events > event > tiles).
MAX_DEPTH = 32
#: Integers as large as a JSON number keeps exactly in every language (2^53).
MAX_INT = 2**53 - 1
_MAX_DIGITS = len(str(MAX_INT))
#: The sides of the camera's picture a player may sit at (the record's `seating`;
#: `vision.follow.seats.SIDES`).
SIDES = ("top", "right", "bottom", "left")


class ShapeError(RecordError):
    """A record (or a part of one) of the wrong shape. `field` is the path of the first field that
    breaks it (`hands[0].events[1].tile`; "" for the whole value); the message names it too, after
    what was read, so it is printed as it is (no "hand H, event E" before it)."""

    def __init__(self, message: str, field: str = "", path: tuple[Any, ...] = (), what: str = "") -> None:
        hand = path[1] if len(path) > 1 and path[0] == "hands" and isinstance(path[1], int) else None
        event = path[3] if hand is not None and len(path) > 3 and path[2] == "events" else None
        super().__init__(message, hand, event if isinstance(event, int) else None, code="shape", field=field)
        self.field = field
        #: what was read, as the message names it first ("" where the message is a sentence of
        #: its own, such as the players' names: the page shows it as it is)
        self.what = what

    def said_of(self, what: str) -> str:
        """The message, naming `what` first where it does not already."""
        return self.message if self.what else f"{what}: {self.message}"

    def __str__(self) -> str:
        return self.message


# -- bounded JSON ------------------------------------------------------------------------------


class _Refused(ValueError):
    """A number the parse hooks refuse; turned into the ShapeError by `loads`."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS or abs(value := int(text)) > MAX_INT:
        raise _Refused(f"the integer {text[:20]}{'...' if len(text) > 20 else ''} is too large (at most {MAX_INT})")
    return value


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:20]} is out of range")
    return value


def _constant(text: str) -> Any:
    raise _Refused(f"{text} is not JSON: send numbers only")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: with a key twice, JSON readers differ (Python
    keeps the last, others the first), so what one stored another would read as another record."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"the key {key[:40]!r} is given twice in one object: give each key once")
            seen.add(key)
    return value


def depth_of(value: Any) -> int:
    """How deeply lists and objects nest in `value` (without recursion: the value may be deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _half_character(value: Any) -> list[Any] | None:
    """Where `value` holds text with a lone surrogate (in a string or a key), or None."""
    if not isinstance(value, (list, dict)):
        return [] if isinstance(value, str) and _SURROGATE.search(value) else None
    stack: list[tuple[Any, list[Any]]] = [(value, [])]
    while stack:
        item, path = stack.pop()
        children = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in children:
            if isinstance(key, str) and _SURROGATE.search(key):
                return [*path, key]
            if isinstance(child, str) and _SURROGATE.search(child):
                return [*path, key]
            if isinstance(child, (list, dict)):
                stack.append((child, [*path, key]))
    return None


def bounded(value: Any, what: str) -> Any:
    """`value` (JSON already read) when it nests no deeper than a record and holds whole characters."""
    if depth_of(value) > MAX_DEPTH:
        raise ShapeError(f"{what} nests lists and objects more than {MAX_DEPTH} deep", what=what)
    if (path := _half_character(value)) is not None:
        where = where_of(path)
        raise ShapeError(
            f"{what}{': ' + where if where else ''} holds half a character (an escape from \\ud800 to \\udfff "
            "with no other half): send whole characters",
            where,
            tuple(path),
            what,
        )
    return value


def text_of(raw: bytes, what: str = "the JSON") -> str:
    """JSON's bytes as text: UTF-8, with or without a byte order mark (an editor's), else a
    ShapeError naming the encoding. Python's `json` also read UTF-16 and UTF-32 from bytes (not
    from a file read as text), so the web took files `spinner score` refused."""
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    encoding = json.detect_encoding(raw)
    if encoding.startswith(("utf-16", "utf-32")):
        name = encoding[:6].upper()
        raise ShapeError(f"{what} is in {name}: send JSON in UTF-8", what=what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ShapeError(
            f"{what} is not text in UTF-8 (Latin-1 or Windows-1252, or not text at all): send JSON in UTF-8",
            what=what,
        ) from None


def loads(raw: bytes | str, what: str = "the JSON") -> Any:
    """`raw` parsed, or a ShapeError naming what is wrong with it. Bytes are read as `text_of`
    reads them; text may start with a byte order mark too."""
    raw = text_of(raw, what) if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
    try:
        value = json.loads(
            raw, parse_int=_integer, parse_float=_real, parse_constant=_constant, object_pairs_hook=_object
        )
    except _Refused as error:
        raise ShapeError(f"{what}: {error}", what=what) from None
    except json.JSONDecodeError as error:
        raise ShapeError(
            f"{what} is not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}", what=what
        ) from None
    except RecursionError:
        raise ShapeError(f"{what} nests lists and objects more than {MAX_DEPTH} deep", what=what) from None
    except ValueError as error:  # any other number Python will not make
        raise ShapeError(f"{what}: {error}", what=what) from None
    return bounded(value, what)


# -- JSON Schema --------------------------------------------------------------------------------


def where_of(path: Any) -> str:
    """A JSON path as the messages write it: `hands[0].events[1].tile`."""
    parts = [f"[{p}]" if isinstance(p, int) else (f".{p}" if _plain_name(p) else f"[{p!r}]") for p in path]
    return "".join(parts).lstrip(".")


def _plain_name(name: object) -> bool:
    return isinstance(name, str) and name.isidentifier()


_VALIDATORS: dict[int, Any] = {}
#: Failures the schema's own description explains better than jsonschema's words.
_DESCRIBED = ("pattern", "enum", "minimum", "maximum", "type")


def _validator(schema: dict[str, Any]) -> Any:
    """JSON Schema 2020-12 with its integers whole numbers written as such: the standard's
    "integer" takes 1.0 too, which passed here and was then refused by the scorer (a 422 where
    any other non-integer is a 400)."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return validators.extend(Draft202012Validator, type_checker=checker)(schema)


def check(value: Any, schema: dict[str, Any], what: str) -> Any:
    """`value` when it keeps to `schema`, else a ShapeError naming the first place it does not."""
    from jsonschema.exceptions import best_match

    validator = _VALIDATORS.get(id(schema))
    if validator is None:
        validator = _VALIDATORS.setdefault(id(schema), _validator(schema))
    error = best_match(validator.iter_errors(value))
    if error is not None:
        where = where_of(error.absolute_path)
        described = error.schema.get("description") if error.validator in _DESCRIBED else None
        said = f"{where}: " if where else ""
        message = f"{described} ({_short(error.message)})" if described else _short(error.message)
        if error.validator == "maxLength":  # jsonschema says "too long", not how long may be
            message += f" (at most {error.validator_value} characters)"
        raise ShapeError(f"{what}: {said}{message}", where, tuple(error.absolute_path), what)
    return value


def _short(message: str) -> str:
    # jsonschema quotes the whole offending value; a hostile value may be megabytes long.
    return message if len(message) <= 200 else message[:200] + "..."


def int_between(low: int, high: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, "description": description}


def _or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema`, or null (a field that may be left out: null reads as left out)."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


TILE = {
    "type": "string",
    "pattern": "^[0-9]{1,2}-[0-9]{1,2}$",
    "maxLength": 5,
    "description": 'a tile is two pip values in ASCII digits, like "3-5"',
}
SEAT = int_between(0, MAX_PLAYERS - 1, "a seat number (0 for the first player)")

#: The latest a flip of twelve may be, in seconds since the first (`scorer.twelve`: the one bound)
TWELVE_MAX_TIME = 10_000_000

#: The fields of an event: every one may be left out (or null) as far as the shape goes; which
#: ones an event of each type needs is the scorer's to say.
EVENT_FIELDS: dict[str, Any] = {
    "seat": SEAT,
    "team": int_between(0, 1, "a team number (0 or 1)"),
    "tile": TILE,
    "end": {"type": "string", "maxLength": 16, "description": "west, east, north or south"},
    "count": int_between(0, 28, "how many tiles were drawn (0 to 28)"),
    "tiles": {"type": "array", "items": TILE, "maxItems": 28},
    "pips": int_between(0, 1000, "a pip count (0 to 1000)"),
    "points": int_between(-10_000, 10_000, "an adjustment is at most 10000 points either way"),
    "reason": {"type": "string", "maxLength": REASON_LENGTH},
    "time": {
        "type": "number",
        "minimum": 0,
        "maximum": TWELVE_MAX_TIME,
        "description": "a flip of twelve: seconds since the first flip (the server's clock where left out)",
    },
}

EVENT: dict[str, Any] = {
    "title": "Event",
    "description": 'an event is a JSON object such as {"type": "play", "seat": 0, "tile": "6-6"} '
    "(GAME_RECORD.md: play, pass, draw, reveal, pips or adjust; flip in twelve)",
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {
            "type": "string",
            "maxLength": 16,
            "description": "the event's type: play, pass, draw, reveal, pips or adjust (flip in twelve)",
        },
        **{name: _or_null(schema) for name, schema in EVENT_FIELDS.items()},
    },
}

HAND: dict[str, Any] = {
    "title": "Hand",
    "description": "a hand is a JSON object with its events (and its leader and deal, if given)",
    "type": "object",
    "properties": {
        "leader": _or_null(SEAT),
        "deal": _or_null(
            {"type": "array", "maxItems": MAX_PLAYERS, "items": {"type": "array", "items": TILE, "maxItems": 28}}
        ),
        "events": _or_null({"type": "array", "items": EVENT, "maxItems": MAX_EVENTS}),
        "unseen_draws": _or_null({"type": "boolean"}),
        "lead_stands": _or_null({"type": "boolean"}),
    },
}

OPTIONS: dict[str, Any] = {
    "title": "Options",
    "description": "house rule options of RULES.md that differ from the variant's defaults",
    "type": "object",
    "maxProperties": 16,
    "properties": {
        "target": int_between(-100_000, 100_000, "the target is a whole number of points, at most 100000"),
        "preset": {"type": "string", "maxLength": 40},
    },
    "additionalProperties": {"type": ["string", "boolean", "integer"], "maxLength": 40},
}

SEATING = {
    "type": "array",
    "maxItems": MAX_PLAYERS,
    "items": {"type": "string", "enum": list(SIDES)},
    "description": "the side of the camera's picture each seat sits at, in seat order",
}

RECORD: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Match record",
    "description": "A match record of GAME_RECORD.md (format domino-record/1); a field that is null is left out.",
    "type": "object",
    "properties": {
        "format": _or_null({"type": "string", "maxLength": 40}),
        "variant": {"type": "string", "maxLength": 40, "description": "the variant's name (RULES.md)"},
        "options": _or_null(OPTIONS),
        "players": {
            "type": "array",
            "items": {"type": "string", "maxLength": NAME_LENGTH},
            "minItems": 1,
            "maxItems": MAX_PLAYERS,
        },
        "hands": _or_null({"type": "array", "items": HAND, "maxItems": MAX_HANDS}),
        "seating": _or_null(SEATING),
        "title": _or_null({"type": "string", "maxLength": TITLE_LENGTH}),
        "private": _or_null({"type": "boolean"}),
        "who": _or_null({"type": "string", "maxLength": 1000}),
    },
}

#: The fields null may stand in for (left out), at each level of a record.
_RECORD_OPTIONAL = ("format", "options", "hands", "seating", "title", "private", "who")
_HAND_OPTIONAL = ("leader", "deal", "events", "unseen_draws", "lead_stands")
_EVENT_OPTIONAL = tuple(EVENT_FIELDS)


def without_nulls(event: dict[str, Any]) -> dict[str, Any]:
    """An event with its null fields left out (GAME_RECORD.md: they may be)."""
    if not any(event.get(name, 0) is None for name in _EVENT_OPTIONAL):
        return event
    return {k: v for k, v in event.items() if not (v is None and k in _EVENT_OPTIONAL)}


def _record_without_nulls(record: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if not (v is None and k in _RECORD_OPTIONAL)}
    if isinstance(out.get("hands"), list):
        hands = []
        for hand in out["hands"]:
            if isinstance(hand, dict):
                hand = {k: v for k, v in hand.items() if not (v is None and k in _HAND_OPTIONAL)}
                if isinstance(hand.get("events"), list):
                    hand["events"] = [without_nulls(e) if isinstance(e, dict) else e for e in hand["events"]]
            hands.append(hand)
        out["hands"] = hands
    return out


# -- names ----------------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
#: Every format character (Unicode category Cf, as of Unicode 14: soft hyphen, word joiner, BOM,
#: Arabic letter mark, Mongolian vowel separator, tag characters...; `tests/test_record_shape.py`
#: holds this list to `unicodedata`'s), the combining grapheme joiner, the Hangul and halfwidth
#: fillers, the Khmer inherent vowels, the Mongolian variation selectors and the braille blank:
#: characters that show nothing, so that "Ana\u2060" looked like "Ana" and "\u3164" like no name.
FORMAT_CHARACTERS = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
_INVISIBLE = re.compile(f"[{FORMAT_CHARACTERS}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u2800\u3164\uffa0]")
#: variation selectors choose how a character is drawn (an emoji's colour): kept in text, not
#: compared in names
_VARIATION = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def clean_text(value: object, limit: int) -> str:
    """Text a player typed, made safe to keep: no control or direction characters, no characters
    that show nothing (`_INVISIBLE`), trimmed."""
    if not isinstance(value, str):
        return ""
    text = " ".join(_INVISIBLE.sub("", _CONTROL.sub(" ", value)).split())
    return text[:limit]


#: Cyrillic and Greek small letters drawn as a Latin one in common fonts (after casefolding):
#: "\u0410na" (a Cyrillic A) shows as "Ana", and would be another player on every page.
_LOOK_ALIKE = str.maketrans(
    {
        "\u0430": "a", "\u0432": "b", "\u0441": "c", "\u0501": "d", "\u0435": "e", "\u04bb": "h",
        "\u0456": "i", "\u0458": "j", "\u043a": "k", "\u043c": "m", "\u043d": "h", "\u043e": "o",
        "\u0440": "p", "\u0455": "s", "\u0442": "t", "\u0443": "y", "\u0445": "x", "\u04cf": "l",
        "\u03b1": "a", "\u03b2": "b", "\u03b5": "e", "\u03b9": "i", "\u03ba": "k", "\u03bd": "v",
        "\u03bf": "o", "\u03c1": "p", "\u03c4": "t", "\u03c5": "u", "\u03c7": "x",
    }
)  # fmt: skip


def name_key(name: str) -> str:
    """A name as names are compared: what shows of it (`clean_text`, no variation selectors) in
    one Unicode form, NFKC ("Jose\u0301" is "Jos\u00e9", fullwidth "\uff21na" is "Ana"),
    case-insensitive; NFKC again after casefolding, which may decompose; Cyrillic and Greek letters
    that look Latin read as those (`_LOOK_ALIKE`: "\u0410na" is "Ana")."""
    normal = unicodedata.normalize("NFKC", name)
    shown = _VARIATION.sub("", clean_text(normal, len(normal)))
    return unicodedata.normalize("NFKC", shown.casefold()).translate(_LOOK_ALIKE)


def check_players(value: object) -> list[str]:
    """The players' names, cleaned (`clean_text`): one per seat, none blank, none too long, no two
    alike (the page asks "who played?" by name and shows totals by name). Its words are sentences
    of their own (the page shows them as they are to whoever typed the names)."""
    if not isinstance(value, list) or not value:
        raise ShapeError("players must be a list of names, one per seat in play order", "players", ("players",))
    names = [clean_text(name, NAME_LENGTH + 1) for name in value]
    if not all(names):
        raise ShapeError(
            "every player needs a name (the list runs over the seats in play order)", "players", ("players",)
        )
    for seat, name in enumerate(names):
        if len(name) > NAME_LENGTH:  # refused, not cut short: the match would show another name
            raise ShapeError(
                f"players[{seat}]: a name is at most {NAME_LENGTH} characters ({name[:20]!r}... is longer)",
                f"players[{seat}]",
                ("players", seat),
            )
    first: dict[str, int] = {}
    for seat, name in enumerate(names):
        other = first.setdefault(name_key(name), seat)  # "Jose\u0301" is "Jos\u00e9" (NFC)
        if other != seat:
            raise ShapeError(
                f"two players are called {names[other]!r} (seats {other + 1} and {seat + 1}): give each a "
                "name the table can tell apart (an initial will do)",
                f"players[{seat}]",
                ("players", seat),
            )
    return names


def check_seating(value: object, players: int) -> list[str] | None:
    """A record's `seating`, checked: each player's own side of the camera's picture, or None."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != players
        or not all(isinstance(v, str) and v in SIDES for v in value)
        or len(set(value)) != players
    ):
        raise ShapeError(
            f"seating: give each of the {players} players their own side of the "
            'camera\'s picture, in seat order (top, right, bottom or left; e.g. ["bottom", "right", "top", "left"]), '
            "or null",
            "seating",
            ("seating",),
        )
    return list(value)


# -- the record -----------------------------------------------------------------------------------


def check_record(record: Any, what: str = "the record") -> dict[str, Any]:
    """The record, its shape checked, with every null field left out; a ShapeError otherwise.

    In this order: a JSON object holding whole characters, the schema, its players' names, its seating.
    """
    if not isinstance(record, dict):
        raise ShapeError(f"{what}: a match record is a JSON object (GAME_RECORD.md)", what=what)
    bounded(record, what)
    check(record, RECORD, what)
    check_players(record.get("players"))
    record = _record_without_nulls(record)
    if "seating" in record:
        check_seating(record["seating"], len(record["players"]))
    return record
