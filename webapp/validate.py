"""Bounded JSON: every JSON the companion takes in is read here, whatever door it came through.

Python's `json` parses what no client of ours sends and then fails far from the door: nesting
deep enough to exhaust the interpreter's recursion, integers of thousands of digits (which
`int()` refuses past 4,300 and SQLite past 2^63), NaN and Infinity (not JSON at all), and text
escaped as half a character (`"\\ud800"`, a lone UTF-16 surrogate: no UTF-8 can hold it, so a
match keeping one could be neither shown nor downloaded again). `loads` refuses all of them with
a 400 naming the problem, before any of it reaches the store, the scorer or the database.
`check` holds a value to a JSON Schema (`webapp.schemas`) and names the first place it breaks.
Both are `scorer.schema`'s, which `spinner score` reads records with too: the same words.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from werkzeug.routing import IntegerConverter

from scorer import schema
from scorer.schema import MAX_DEPTH, MAX_INT, ShapeError, depth_of

from .errors import ApiError

__all__ = ["MAX_DEPTH", "MAX_INT", "BoundedInt", "ascii_int", "check", "depth_of", "loads", "refused"]
_MAX_DIGITS = len(str(MAX_INT))


@contextlib.contextmanager
def refused(status: int = 400) -> Iterator[None]:
    """A `ShapeError` raised within, as the refusal `status` naming its field."""
    try:
        yield
    except ShapeError as error:
        raise ApiError(status, error.message, field=error.field or None) from None


def loads(raw: bytes | str, what: str = "the JSON") -> Any:
    """`raw` parsed, or a 400 naming what is wrong with it."""
    with refused():
        return schema.loads(raw, what)


def check(value: Any, schema_: dict[str, Any], what: str, status: int = 400) -> Any:
    """`value` when it keeps to `schema_`, else `status` naming the first place it does not."""
    with refused(status):
        return schema.check(value, schema_, what)


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


#: The times a file may give (an archive's history, a tournament's rounds and results): the
#: round clock adds hours to a round's start, and a start in the year 9999 could not be read
#: back (an OverflowError, a 500 on every read of the tournament).
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def moment(value: object, where: str, status: int = 400) -> datetime | None:
    """An ISO 8601 time with its time zone, between 1970 and 9000; None for null."""
    if value is None:
        return None
    try:
        read = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        read = None
    if read is None or read.tzinfo is None:
        raise ApiError(status, f"{where}: {str(value)[:40]!r} is not a time with its time zone (ISO 8601)")
    of_our_time(read, where, status)
    return read


def of_our_time(read: datetime, where: str, status: int = 400) -> None:
    """Refuse a time before 1970 or from the year 9000 on (compared without adding to it)."""
    if not EARLIEST <= read < LATEST:
        raise ApiError(status, f"{where}: {read.isoformat()} is not a time between 1970 and 9000")
