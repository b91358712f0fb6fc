"""Where the companion keeps things, read once from the environment.

`SPINNER_DATA` holds everything the server writes (the SQLite database, kept camera frames,
the HTTPS certificate, the session key); `DATABASE_URL` points elsewhere when a table wants
PostgreSQL. Both default to places under the working folder, so `make run` needs nothing set.
Past one machine (docs/deploy.md): `SPINNER_PHOTO_DIR` puts the kept photos in a folder every
process shares, and `SPINNER_READERS=queue` hands photo reading to `spinner reader-worker`s.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

DEFAULT_DATA = "spinner-data"

#: A request body larger than this is refused before it is read (photos are the largest).
MAX_UPLOAD_BYTES = 8 * 1024 * 1024
#: A match exported with its photos (a ZIP) may be much larger than one photo.
MAX_IMPORT_BYTES = 256 * 1024 * 1024
#: One event or one hand of JSON is small; a whole imported record is the largest JSON we take.
MAX_JSON_BYTES = 2 * 1024 * 1024


def data_dir(value: str | os.PathLike[str] | None = None) -> Path:
    path = Path(value or os.environ.get("SPINNER_DATA") or DEFAULT_DATA).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url(data: Path, value: str | None = None) -> str:
    url = value or os.environ.get("DATABASE_URL") or f"sqlite:///{data / 'spinner.db'}"
    # Hosting services still hand out postgres://; SQLAlchemy wants postgresql+driver://.
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def secret_key(data: Path) -> str:
    """The key that signs session cookies, made once and kept, so a restart logs nobody out."""
    path = data / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        path.write_text(key)
        path.chmod(0o600)
        return key


def _bundled_models() -> Path:
    from vision.read.models import models_dir

    return models_dir()


#: Who reads the photos: a child process of each web process, or reader workers fed through PostgreSQL.
READERS = ("process", "queue")


def readers(value: str | None, url: str) -> str:
    """`SPINNER_READERS`, checked: a clear ValueError for a value the server cannot run with."""
    value = (value or "process").strip().lower()
    if value not in READERS:
        raise ValueError(f"SPINNER_READERS is 'process' (the default) or 'queue', not {value[:40]!r}")
    if value == "queue" and not url.startswith("postgresql"):
        raise ValueError(
            "SPINNER_READERS=queue keeps its queue in PostgreSQL: set DATABASE_URL=postgresql://... "
            "(on SQLite, leave SPINNER_READERS unset: the server reads the photos itself)"
        )
    return value


def photo_dir(data: Path, value: str | os.PathLike[str] | None = None) -> Path:
    """Where kept photos go: `SPINNER_PHOTO_DIR`, or `frames/` under SPINNER_DATA."""
    given = value or os.environ.get("SPINNER_PHOTO_DIR")
    return Path(given).expanduser().resolve() if given else data / "frames"


def load(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The Flask config: environment first, then `overrides` (tests pass theirs here)."""
    overrides = dict(overrides or {})
    data = data_dir(overrides.pop("SPINNER_DATA", None))
    url = database_url(data, overrides.pop("DATABASE_URL", None))
    photos = photo_dir(data, overrides.pop("SPINNER_PHOTO_DIR", None))
    config: dict[str, Any] = {
        "SPINNER_DATA": data,
        # kept photos: a folder every web process and reader worker reaches (docs/deploy.md)
        "SPINNER_PHOTOS": photos,
        "SQLALCHEMY_DATABASE_URI": url,
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "SECRET_KEY": os.environ.get("SPINNER_SECRET_KEY") or secret_key(data),
        "MAX_CONTENT_LENGTH": MAX_UPLOAD_BYTES,
        "MAX_JSON_BYTES": MAX_JSON_BYTES,
        "MAX_IMPORT_BYTES": MAX_IMPORT_BYTES,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        # Live updates: seconds between heartbeats, and how long one stream lives before the
        # browser reconnects (so a waitress thread is never held for ever).
        "SSE_HEARTBEAT": float(os.environ.get("SPINNER_SSE_HEARTBEAT") or 15.0),
        "SSE_LIFETIME": 300.0,
        # How many live streams at once; beyond it the page polls (see webapp/live.py).
        "SSE_MAX_STREAMS": 400,
        # The photo reader (webapp/readers.py): its models, how many frames are read at once,
        # onnxruntime's threads per read, and how long an upload waits for its reading.
        "SPINNER_MODELS": Path(os.environ.get("SPINNER_MODELS") or _bundled_models()),
        "READER_WORKERS": int(os.environ.get("SPINNER_READER_WORKERS") or 1),
        "READER_THREADS": int(os.environ.get("SPINNER_READER_THREADS") or 0) or None,
        # Processes the reader runs in (its own interpreter lock); 0 reads in the server's process.
        "READER_PROCESSES": int(os.environ.get("SPINNER_READER_PROCESSES") or 1),
        "READ_WAIT": 30.0,
        # process: each web process reads in a child process of its own (the default; SQLite or
        # PostgreSQL); queue: photos wait in PostgreSQL for `spinner reader-worker`s (webapp/readqueue)
        "READERS": readers(overrides.pop("READERS", None) or os.environ.get("SPINNER_READERS"), url),
        "CAMERA_WAIT": 2.0,
        # Photo uploads taken in at once (each decodes its photo); the rest wait up to FRAME_SLOT_WAIT s.
        "FRAME_SLOTS": 4,
        "FRAME_SLOT_WAIT": 10.0,
    }
    busy = float(overrides.pop("SQLITE_BUSY_TIMEOUT", None) or os.environ.get("SPINNER_SQLITE_BUSY_TIMEOUT") or 5)
    if url.startswith("sqlite"):
        # The server answers from many threads: SQLite waits a while for the write lock instead
        # of failing at once; past that (another process holds it) the answer is 503, try again.
        # A thread waits as long for a pooled connection, then 503 too (never a 500 after 30 s).
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"timeout": busy}}
        if url.rstrip("/") not in ("sqlite:", "sqlite:///:memory:"):  # an in-memory database has no pool to wait on
            config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_timeout"] = busy
    else:
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_pre_ping": True, "pool_timeout": busy}
    config.update(overrides)
    return config
