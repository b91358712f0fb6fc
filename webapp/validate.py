"""Bounded JSON: every JSON the companion takes in is read here, whatever door it came through.

Python's `json` parses what no client of ours sends and then fails far from the door: nesting
deep enough to exhaust the interpreter's recursion, integers of thousands of digits (which
`int()` refuses past 4,300 and SQLite past 2^63), NaN and Infinity (not JSON at all), and text
escaped as half a character (`"\\ud800"`, a lone UTF-16 surrogate: no UTF-8 can hold it, so a
match keeping one could be neither shown nor downloaded again). `loads` refuses all of them with
a 400 naming the problem, before any of it reaches the store, the scorer or the database.
`check` holds a value to a JSON Schema (`webapp.schemas`) and names the first place it breaks.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from werkzeug.routing import IntegerConverter

from .errors import ApiError

#: Deeper than any record of GAME_RECORD.md (record > hands > hand > events > event > tiles).
MAX_DEPTH = 32
#: Integers as large as a JSON number keeps exactly in every language (2^53).
MAX_INT = 2**53 - 1
_MAX_DIGITS = len(str(MAX_INT))


class _Refused(ValueError):
    """A number the parse hooks refuse; turned into the 400 by `loads`."""


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


def loads(raw: bytes | str, what: str = "the JSON") -> Any:
    """`raw` parsed, or a 400 naming what is wrong with it."""
    try:
        value = json.loads(raw, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    except _Refused as error:
        raise ApiError(400, f"{what}: {error}") from None
    except UnicodeDecodeError:
        raise ApiError(400, f"{what} is not text: send JSON in UTF-8") from None
    except json.JSONDecodeError as error:
        raise ApiError(
            400, f"{what} is not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise ApiError(400, f"{what} nests lists and objects more than {MAX_DEPTH} deep") from None
    except ValueError as error:  # any other number Python will not make
        raise ApiError(400, f"{what}: {error}") from None
    if depth_of(value) > MAX_DEPTH:
        raise ApiError(400, f"{what} nests lists and objects more than {MAX_DEPTH} deep")
    if (path := _half_character(value)) is not None:
        where = _where(path)
        raise ApiError(
            400,
            f"{what}{': ' + where if where else ''} holds half a character (an escape from \\ud800 to \\udfff "
            "with no other half): send whole characters",
            field=where or None,
        )
    return value


def _where(path: Any) -> str:
    parts = [f"[{p}]" if isinstance(p, int) else (f".{p}" if parts_ok(p) else f"[{p!r}]") for p in path]
    return "".join(parts).lstrip(".")


def parts_ok(name: object) -> bool:
    return isinstance(name, str) and name.isidentifier()


_VALIDATORS: dict[int, Draft202012Validator] = {}
#: Failures the schema's own description explains better than jsonschema's words.
_DESCRIBED = ("pattern", "enum", "minimum", "maximum", "type")


def check(value: Any, schema: dict[str, Any], what: str, status: int = 400) -> Any:
    """`value` when it keeps to `schema`, else `status` naming the first place it does not."""
    validator = _VALIDATORS.get(id(schema))
    if validator is None:
        validator = _VALIDATORS.setdefault(id(schema), Draft202012Validator(schema))
    error = best_match(validator.iter_errors(value))
    if error is not None:
        where = _where(error.absolute_path)
        described = error.schema.get("description") if error.validator in _DESCRIBED else None
        said = f"{where}: " if where else ""
        message = f"{described} ({_plain(error.message)})" if described else _plain(error.message)
        if error.validator == "maxLength":  # jsonschema says "too long", not how long may be
            message += f" (at most {error.validator_value} characters)"
        raise ApiError(status, f"{what}: {said}{message}", field=where or None)
    return value


def _plain(message: str) -> str:
    # jsonschema quotes the whole offending value; a hostile value may be megabytes long.
    return message if len(message) <= 200 else message[:200] + "..."


def ascii_int(text: str | None, name: str, maximum: int = MAX_INT) -> int | None:
    """A whole number written in ASCII digits (`str.isdigit` also passes "²" and "٣"), or a 400."""
    if text is None or text == "":
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > _MAX_DIGITS or int(text) > maximum:
        raise ApiError(400, f"{name} must be a whole number from 0 to {maximum}, not {text[:20]!r}")
    return int(text)


class BoundedInt(IntegerConverter):
    """`<int:...>` in a route: ASCII digits only and at most 2^53 (a number past SQLite's 2^63
    would fail in the database, not here), so any other path is simply not found (404)."""

    regex = r"[0-9]{1,16}"

    def __init__(self, map, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("max", MAX_INT)
        super().__init__(map, *args, **kwargs)
