"""Errors the API answers in JSON: what went wrong in plain words, and nothing recorded."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException

from scorer import RecordError


class ApiError(Exception):
    """A refusal: an HTTP status and a message for the person at the table."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        return {"error": self.message, "status": self.status, **self.extra}


class Stale(ApiError):
    """The match moved on since the version the change was made on."""

    def __init__(self, made_on: int | None, now: int) -> None:
        said = f"version {made_on}" if made_on is not None else "the version you saw"
        super().__init__(
            409,
            f"the match changed since {said} (it is at version {now} now): nothing was recorded; reload and try again",
            version=now,
        )


def record_error(error: RecordError, *, what: str = "") -> ApiError:
    """A rule broken: 422 naming the hand, the event and the rule (the scorer's own words)."""
    prefix = f"{what}: " if what else ""
    return ApiError(
        422,
        f"{prefix}{error}",
        rule=error.message,
        hand=error.hand,
        event=error.event,
    )


#: Seconds a client is asked to wait before trying again after a 503.
RETRY_AFTER = 2


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _too_large() -> str:
    """Why a body was refused as too large: the whole of it, or (a body within the limit) a form of
    too many parts or a field not a file too long, which Werkzeug refuses with the same 413."""
    limit = request.max_content_length
    size = request.content_length
    if size is not None and limit is not None and size <= limit:
        parts, field = request.max_form_parts, request.max_form_memory_size
        return (
            f"the form has too many parts or too long a field: at most {parts} parts, and "
            f"{(field or 0) // 1000} KB in a field that is not a file"
        )
    return f"the upload is too large: at most {(limit or 0) // (1024 * 1024)} MB"


def init_app(app: Flask) -> None:
    from .uploads import drain_refused_body  # uploads raises ApiError: imported once both exist

    @app.errorhandler(ApiError)
    def _api_error(error: ApiError):  # type: ignore[no-untyped-def]
        if error.status == 413:
            drain_refused_body()
        response = jsonify(error.to_dict())
        response.status_code = error.status
        if error.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="spinner"'
        if error.status == 503:
            response.headers["Retry-After"] = str(RETRY_AFTER)
        return response

    @app.errorhandler(OperationalError)
    @app.errorhandler(PoolTimeout)
    def _database_busy(error: Exception):  # type: ignore[no-untyped-def]
        # SQLite waited its turn for the write lock (another process held it), every pooled
        # connection stayed taken, or PostgreSQL went away: nothing was written. Busy is not broken.
        from .db import db

        db.session.rollback()
        app.logger.warning("database unavailable: %s", getattr(error, "orig", None) or error)
        busy = ApiError(503, "the database is too busy or out of reach just now: nothing was recorded; try again")
        if _wants_json():
            return _api_error(busy)
        return busy.message, 503, {"Retry-After": str(RETRY_AFTER)}

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException):  # type: ignore[no-untyped-def]
        if error.code == 413:
            drain_refused_body()
        if not _wants_json():
            if error.code == 404:
                # Any page that is not here (a mistyped path, a hand number not in the route) gets
                # the friendly page a missing match gets (pages.refused), not the framework's.
                from flask import render_template
                from flask_babel import gettext as _

                message = _("There is no such page here.")
                return render_template("error.html", message=message, status=404), 404
            return error
        messages = {
            413: _too_large(),
            404: "no such page or match",
            405: f"{request.method} is not allowed here",
        }
        response = jsonify({"error": messages.get(error.code or 500, error.description), "status": error.code})
        response.status_code = error.code or 500
        return response
