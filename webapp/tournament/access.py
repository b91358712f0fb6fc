"""The director's link, and the table links derived from it.

A tournament has one random director token; only its SHA-256 digest is stored. It arrives as
`Authorization: Bearer TOKEN` (the API) or from the session cookie that opening the director
link fills in (the page); a change made on the strength of the cookie must also carry the CSRF
token, as everywhere in the companion.

Each table's match gets scorer and viewer tokens derived from the director token (HMAC), so
the director's page can show every table's links again without any token kept in the clear,
and the match itself checks them like any other match (`webapp.auth`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from flask import request, session
from flask_babel import gettext as _

from .. import csrf
from ..auth import digest
from ..errors import ApiError
from .models import TournamentRow

#: How many tournaments one browser remembers its director link for.
SESSION_TOURNAMENTS = 8


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return None


def is_director_token(row: TournamentRow, token: str | None) -> bool:
    if not token or len(token) > 200:
        return False
    return hmac.compare_digest(digest(token), row.director_hash)


def remember(row: TournamentRow, token: str) -> None:
    kept = dict(session.get("directors", {}))
    kept.pop(row.id, None)
    kept[row.id] = token
    while len(kept) > SESSION_TOURNAMENTS:
        kept.pop(next(iter(kept)))
    session["directors"] = kept


def kept_token(row: TournamentRow) -> str | None:
    token = session.get("directors", {}).get(row.id)
    return token if is_director_token(row, token) else None


def director_token(row: TournamentRow) -> str | None:
    """The director token this request carries, if it carries the right one (no CSRF check)."""
    sent = bearer()
    if sent is not None:
        return sent if is_director_token(row, sent) else None
    return kept_token(row)


def require_director(row: TournamentRow) -> str:
    """The director token, or a 401/403 that says what is missing; session changes need CSRF."""
    sent = bearer()
    if sent is not None:
        if is_director_token(row, sent):
            return sent
        raise ApiError(
            403,
            "wrong token: this is not the director link of this tournament",
            say=_("This is not the director link of this tournament."),
        )
    token = kept_token(row)
    if token is None:
        raise ApiError(
            401,
            "running the tournament needs the director's link (or the API's Authorization: Bearer TOKEN)",
            say=_("Only the director runs the tournament: open this page with the director's link."),
        )
    if request.method not in ("GET", "HEAD"):
        csrf.check()
    return token


def table_token(director: str, game_id: str, role: str) -> str:
    """A table's scorer or viewer token, derived from the director token and the match."""
    mac = hmac.new(director.encode("utf-8"), f"spinner-table:{game_id}:{role}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode("ascii")
