"""What every answer says to the browser about itself, and a session cookie nobody can read.

Headers: the pages run only scripts from this server's files (a Content-Security-Policy with no
inline script: an injected `<script>` or `onclick=` does nothing), may not be framed by another
site (frame-ancestors 'none', and X-Frame-Options for older browsers), are taken as the type
they say (nosniff) and send no Referer (a link may carry a match's key). Inline style
attributes stay allowed: the pad's grid and the replay's frame place themselves with them.

The session cookie holds the scorer and viewer links a browser opened (their tokens) and its
roles. Flask signs its cookie but anyone holding it can read it (base64 and zlib); here it is
sealed with Fernet (AES and HMAC, from `cryptography`), its key derived from the app's secret
key, so it is unreadable as well as unforgeable.
"""

from __future__ import annotations

import base64
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import Flask, Response
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class _Sealed:
    """Flask's session serializer, encrypting: `dumps` and `loads(value, max_age)`."""

    def __init__(self, key: bytes, serializer: Any) -> None:
        self.fernet = Fernet(key)
        self.serializer = serializer

    def dumps(self, value: Any) -> str:
        return self.fernet.encrypt(self.serializer.dumps(value).encode("utf-8")).decode("ascii")

    def loads(self, value: str | bytes, max_age: int | None = None) -> Any:
        try:
            text = value.encode("ascii") if isinstance(value, str) else value
            return self.serializer.loads(self.fernet.decrypt(text, ttl=max_age).decode("utf-8"))
        except (InvalidToken, UnicodeError, ValueError):
            raise BadSignature("the session cookie is not one this server sealed") from None


class SealedSessionInterface(SecureCookieSessionInterface):
    """Flask's cookie session, sealed (`_Sealed`) instead of only signed."""

    def get_signing_serializer(self, app: Flask) -> _Sealed | None:  # type: ignore[override]
        if not app.secret_key:
            return None
        secret = app.secret_key if isinstance(app.secret_key, bytes) else str(app.secret_key).encode("utf-8")
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"spinner session cookie").derive(secret)
        return _Sealed(base64.urlsafe_b64encode(key), self.serializer)


def init_app(app: Flask) -> None:
    app.session_interface = SealedSessionInterface()
    app.after_request(_headers)
