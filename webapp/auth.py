"""Who may do what: the scorer link changes a match, the viewer link only reads.

Each match has two random tokens; only their SHA-256 digests are stored. A token arrives as
`Authorization: Bearer TOKEN` (the API), as `?key=TOKEN` on a GET (links and EventSource,
which cannot send headers), or from the session cookie that opening a link fills in. A change
made on the strength of the cookie must also carry the CSRF token (see `webapp.csrf`): a
cookie is sent by the browser on its own, a bearer token never is.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import urllib.parse
from typing import Literal

from flask import request, session

from scorer import schema

from . import csrf
from .errors import ApiError
from .models import Game

Role = Literal["scorer", "viewer"]
#: How many matches one browser session remembers its role in (the cookie stays small).
SESSION_GAMES = 40


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def role_of_token(game: Game, token: str | None) -> Role | None:
    if not token or len(token) > 200:
        return None
    hashed = digest(token)
    if hmac.compare_digest(hashed, game.scorer_hash):
        return "scorer"
    if hmac.compare_digest(hashed, game.viewer_hash):
        return "viewer"
    return None


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return None


def remember(game: Game, role: Role) -> None:
    """Keep the role in this browser's session cookie (a scorer role is never downgraded)."""
    roles = dict(session.get("roles", {}))
    if roles.get(game.id) == "scorer" and role == "viewer":
        return
    roles.pop(game.id, None)
    roles[game.id] = role
    while len(roles) > SESSION_GAMES:
        roles.pop(next(iter(roles)))
    session["roles"] = roles


def session_role(game_id: str) -> Role | None:
    return session.get("roles", {}).get(game_id)


def role(game: Game) -> Role | None:
    """The caller's role in this match, whichever way the token came."""
    bearer = _bearer()
    if bearer is not None:
        return role_of_token(game, bearer)
    if request.method == "GET" and "key" in request.args:
        return role_of_token(game, request.args.get("key"))
    return session_role(game.id)


def require_reader(game: Game) -> Role | None:
    found = role(game)
    if game.private and found is None:
        # A token that was sent and is wrong is forbidden; none sent at all asks for one.
        sent = _bearer() is not None or (request.method == "GET" and "key" in request.args)
        raise ApiError(403 if sent else 401, "this match is private: open it with its viewer or scorer link")
    return found


def require_scorer(game: Game) -> None:
    bearer = _bearer()
    if bearer is not None:
        found = role_of_token(game, bearer)
        if found == "scorer":
            return
        if found == "viewer":
            raise ApiError(403, "this is the viewer link: it can watch the match but not change it")
        raise ApiError(403, "wrong token: this is not the scorer link of this match")
    if session_role(game.id) == "scorer":
        csrf.check()  # the cookie came by itself: prove the page sent it
        return
    if session_role(game.id) == "viewer":
        raise ApiError(403, "this is the viewer link: it can watch the match but not change it")
    raise ApiError(401, "changing a match needs its scorer token: Authorization: Bearer TOKEN")


#: Text a player typed, made safe to keep: no control or direction characters, trimmed (the
#: scorer's, which cleans the players' names of a record the same way for `spinner score`).
clean_text = schema.clean_text


name_key = schema.name_key


def whole_text(value: object, limit: int, field: str) -> str:
    """`clean_text`, refused (400) past `limit` rather than cut short without a word."""
    text = clean_text(value, limit + 1)
    if len(text) > limit:
        raise ApiError(400, f"{field}: at most {limit} characters; nothing was recorded", field=field)
    return text


def said_who() -> str | None:
    """The name the `X-Spinner-Who` header carries. A header holds Latin-1 only, so the page sends a
    name beyond ASCII as RFC 8187 has it, `UTF-8''` and its UTF-8 percent-encoded ("Łukasz" as
    `UTF-8''%C5%81ukasz`); a client that sends the UTF-8 bytes as they are (curl) gets them read
    as UTF-8, not as the Latin-1 Werkzeug decodes every header as ("Å\x81ukasz")."""
    value = request.headers.get("X-Spinner-Who")
    if not value:
        return value
    if value[:7].lower() == "utf-8''":
        return urllib.parse.unquote(value[7:], errors="replace")
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:  # not UTF-8 (a Latin-1 name, "José"): as it came
        return value


def who(body: dict[str, object] | None = None) -> str:
    """Who made a change: what the phone says its player is called, else which link was used."""
    said = clean_text((body or {}).get("who") or said_who() or session.get("who"), 60)
    return said or ("scorer link" if _bearer() is None else "scorer token")
