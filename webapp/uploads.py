"""Request bodies read with their limit counted as they arrive, chunked or not.

A body with a Content-Length over the limit is refused before it is read (Werkzeug does that).
A chunked body says nothing of its length: it is read here a piece at a time, and once it has
run past the limit the request is refused with 413 and nothing of it is kept. Reading all that
is allowed and then stopping would keep a photo cut short and answer as if it were whole.
Large bodies (imported archives) go to a temporary file, not to memory.

A refused chunked body is read on to its end (up to `DRAIN`) before the 413 goes out: a server
that answers and closes while the client is still sending makes the client's next write fail,
and the client never reads why it was refused.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from .errors import ApiError

CHUNK = 64 * 1024
#: Bodies up to this stay in memory while spooled; larger ones move to a temporary file.
IN_MEMORY = 1024 * 1024
#: At most this much of a refused chunked body is read and thrown away before the answer.
DRAIN = 4 * 1024 * 1024


def too_large(limit: int, what: str = "the upload") -> ApiError:
    return ApiError(413, f"{what} is too large: at most {limit // (1024 * 1024) or 1} MB; nothing was kept")


def copy(source: IO[bytes], target: IO[bytes], limit: int, what: str = "the upload") -> int:
    """Copy `source` into `target`; 413 once more than `limit` bytes came."""
    total = 0
    try:
        while True:
            chunk = source.read(CHUNK)
            if not chunk:
                return total
            total += len(chunk)
            if total > limit:
                raise too_large(limit, what)
            target.write(chunk)
    except RequestEntityTooLarge:  # Werkzeug's own count of a chunked body ran out first
        raise too_large(limit, what) from None


def read_all(source: IO[bytes], limit: int, what: str = "the upload") -> bytes:
    """All of `source` in memory (for bodies small enough to hold: one photo)."""
    parts: list[bytes] = []
    total = 0
    try:
        while True:
            chunk = source.read(CHUNK)
            if not chunk:
                return b"".join(parts)
            total += len(chunk)
            if total > limit:
                raise too_large(limit, what)
            parts.append(chunk)
    except RequestEntityTooLarge:
        raise too_large(limit, what) from None


def drain_refused_body() -> None:
    """Read what is left of a refused chunked body, so the client finishes sending and reads the
    refusal. A body with a Content-Length is refused before it is read and is left alone: reading
    past its declared end would wait on the socket."""
    environ = request.environ
    source = environ.get("wsgi.input")
    if not environ.get("wsgi.input_terminated") or source is None:
        return
    left = DRAIN
    try:
        while left > 0:
            chunk = source.read(min(CHUNK, left))
            if not chunk:
                return
            left -= len(chunk)
    except (OSError, ValueError):  # the client went away or sent a broken chunk: nothing to save
        return


def body(limit: int, what: str = "the upload") -> bytes:
    """The request's body, at most `limit` bytes."""
    if request.content_length is not None and request.content_length > limit:
        raise too_large(limit, what)
    return read_all(request.stream, limit, what)


@contextmanager
def spooled(limit: int, what: str = "the upload") -> Iterator[IO[bytes]]:
    """The request's body in a temporary file (in memory while small), at most `limit` bytes."""
    if request.content_length is not None and request.content_length > limit:
        raise too_large(limit, what)
    with tempfile.SpooledTemporaryFile(max_size=IN_MEMORY) as file:
        copy(request.stream, file, limit, what)
        file.seek(0)
        yield file
