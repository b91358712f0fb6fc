"""A synchronizer token for forms and for the page's own fetches (small, no extra package).

The token lives in the signed session cookie; a form posts it back as `csrf_token`, the page's
JavaScript as the `X-CSRF-Token` header. A request authenticated by a bearer token does not
need it: nothing sends that header on the user's behalf.
"""

from __future__ import annotations

import hmac
import secrets

from flask import request, session

from .errors import ApiError


def token() -> str:
    value = session.get("csrf")
    if not value:
        value = session["csrf"] = secrets.token_urlsafe(24)
    return value


def check() -> None:
    expected = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token") or (request.form.get("csrf_token") if request.form else None)
    # compare_digest takes str only when ASCII (a non-ASCII one raised TypeError: a 500); the
    # token we hand out is ASCII, so one that is not is simply wrong
    if not expected or not sent or not sent.isascii() or not hmac.compare_digest(sent, str(expected)):
        raise ApiError(403, "the form's security token is missing or out of date: reload the page and try again")
