"""The JSON API (the page itself uses it; README documents it).

Changes need the scorer token (`Authorization: Bearer TOKEN`, or the page's session plus its
CSRF token); reads need nothing for a listed match, and the viewer or scorer token for a
private one. A change may name the version it was made on (`If-Match: "7"` or `"version": 7`):
on any other version it is refused with 409 and nothing is recorded.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from datetime import UTC
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request, url_for
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.wsgi import wrap_file

from . import archive, auth, board, schemas, store, uploads, validate
from .db import db
from .errors import ApiError
from .live import hub
from .models import Game
from .tournament import table as tournament_table

bp = Blueprint("api", __name__, url_prefix="/api")


# -- reading a request ------------------------------------------------------------------------


def body() -> dict[str, Any]:
    """The request's JSON object, or a 400 that says where the JSON breaks (parsed once per request)."""
    if "spinner_body" not in g:
        g.spinner_body = _parsed_body()
    return g.spinner_body


def _parsed_body() -> dict[str, Any]:
    limit = current_app.config["MAX_JSON_BYTES"]
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(413, f"the JSON is too large: at most {limit // 1024} KB")
    raw = request.get_data(cache=True)
    if len(raw) > limit:
        raise ApiError(413, f"the JSON is too large: at most {limit // 1024} KB")
    if not raw.strip():
        return {}
    value = validate.loads(raw, "the body")
    if not isinstance(value, dict):
        raise ApiError(400, "send a JSON object")
    return value


def expected_version(data: dict[str, Any]) -> int | None:
    """The version a change was made on: the If-Match header, or the body's `version` (both, only
    where they agree: a client saying two versions is not sure which board it changed)."""
    header = request.headers.get("If-Match")
    said: int | None = None
    if header:
        text = header.strip().removeprefix("W/").strip('"').removeprefix("v")
        if not (text.isascii() and text.isdigit()) or len(text) > 15:
            raise ApiError(400, f'If-Match must be the match\'s version, such as "7", not {header[:40]!r}')
        said = int(text)
    value = data.get("version")
    if value is None:
        return said
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ApiError(400, f"version must be the match's version number, not {value!r}")
    if said is not None and said != value:
        raise ApiError(
            400,
            f"If-Match says version {said} and the body's version says {value}: send the one the change was made on",
        )
    return value


def reason(data: dict[str, Any]) -> str:
    return auth.whole_text(data.get("why"), schemas.WHY_LENGTH, "why")


def source(data: dict[str, Any]) -> str:
    value = data.get("source")
    return value if value in ("pad", "camera", "api") else "api"


def over_kept(game_id: str, data: dict[str, Any], change: str | None = None) -> AbstractContextManager[None]:
    """Around a change of the match's record: refused with 409 (`kept_open`) while the camera keeps
    plays to confirm, which it would drop, unless the body says `"drop_kept": true` (made, and they
    are dropped). `change`: what it is, for the refusal ("undoing the last event"); None for a play,
    pass or draw scored on the pad (`webapp.frames.over_kept`)."""
    from . import frames  # the camera's frames: plays kept to confirm come before this change

    drop = data.get("drop_kept")
    if drop is None:  # null is left out, as everywhere (GAME_RECORD.md)
        drop = False
    if type(drop) is not bool:
        raise ApiError(400, "drop_kept is true (make this change and drop the plays kept to confirm) or false")
    return frames.over_kept(game_id, drop, change)


def scorer_game(game_id: str) -> Game:
    """The match, if the caller holds its scorer link; read as for a change (`store.get_game`)."""
    game = store.get_game(game_id, changing=True)
    auth.require_scorer(game)
    return game


def changed(done: store.Done, status: int = 200) -> Response:
    response = jsonify(
        {
            "id": done.change.game_id,
            "version": done.version,
            "change": change_json(done.change),
            "score": done.snapshot.answer,
        }
    )
    response.status_code = status
    response.headers["ETag"] = f'"{done.version}"'
    return response


def iso(moment: Any) -> str | None:
    if moment is None:
        return None
    # SQLite hands back naive datetimes; they were written in UTC.
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def change_json(change: Any) -> dict[str, Any]:
    return {**store.change_fields(change), "at": iso(change.at)}


# -- matches ----------------------------------------------------------------------------------

ZIP_TYPES = ("application/zip", "application/x-zip-compressed")


@bp.post("/games")
def create_game():  # type: ignore[no-untyped-def]
    if request.mimetype in ZIP_TYPES:  # a match exported with its frames (GET /api/games/ID/export)
        request.max_content_length = current_app.config["MAX_IMPORT_BYTES"]
        with uploads.spooled(current_app.config["MAX_IMPORT_BYTES"]) as file:
            created = archive.load(file, who=auth.who())
    else:
        data = body()
        created = store.create(data, who=auth.who(data), source="import" if data.get("hands") else "api")
    game = created.game
    response = jsonify(
        {
            "id": game.id,
            "token": created.scorer_token,
            "viewer_token": created.viewer_token,
            "version": game.version,
            "links": {
                "scorer": url_for("pages.claim", game_id=game.id, key=created.scorer_token, _external=True),
                "viewer": url_for("pages.claim", game_id=game.id, key=created.viewer_token, _external=True),
            },
        }
    )
    response.status_code = 201
    response.headers["Location"] = url_for("api.game", game_id=game.id)
    return response


@bp.get("/games")
def games():  # type: ignore[no-untyped-def]
    rows = db.session.scalars(select(Game).where(Game.private.is_(False)).order_by(Game.updated_at.desc()).limit(200))
    return jsonify({"games": [summary(game) for game in rows]})


def summary(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "title": game.title,
        "variant": game.variant,
        "players": game.players,
        "version": game.version,
        "updated_at": iso(game.updated_at),
    }


@bp.get("/games/<game_id>")
def game(game_id: str):  # type: ignore[no-untyped-def]
    found = store.get_game(game_id)
    role = auth.require_reader(found)
    return jsonify({**summary(found), "role": role, "private": found.private})


@bp.post("/games/<game_id>/hands")
def start_hand(game_id: str):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    with over_kept(game_id, data, "starting the next hand"):
        done = store.start_hand(
            game_id,
            data.get("leader"),
            data.get("deal"),
            expected_version(data),
            who=auth.who(data),
            why=reason(data),
            source=source(data),
        )
    return changed(done, 201)


@bp.post("/games/<game_id>/events")
def add_event(game_id: str):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    # A bare event of GAME_RECORD.md, or {"event": {...}, "version": 7, "who": ..., "why": ...}.
    event = data if "type" in data else data.get("event")
    if "type" in data:
        event = {k: v for k, v in data.items() if k not in ("version", "who", "why", "source", "drop_kept")}
    with over_kept(game_id, data):  # plays kept to confirm were laid before this one
        done = store.append_event(
            game_id, event, expected_version(data), who=auth.who(data), why=reason(data), source=source(data)
        )
    return changed(done, 201)


@bp.put("/games/<game_id>/hands/<int:hand>/events/<int:index>")
def correct_event(game_id: str, hand: int, index: int):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    with over_kept(game_id, data, f"correcting hand {hand}, event {index}"):
        if data.get("take_back_from") is not None:
            # a later event no longer fits the correction: taken back with it (`take_back_from`)
            done = store.correct_taking_back(
                game_id,
                hand,
                index,
                data.get("event"),
                data["take_back_from"],
                expected_version(data),
                who=auth.who(data),
                why=reason(data),
                source=source(data),
            )
            return changed(done)
        try:
            done = store.correct_event(
                game_id,
                hand,
                index,
                data.get("event"),
                expected_version(data),
                who=auth.who(data),
                why=reason(data),
                source=source(data),
            )
        except ApiError as refusal:
            raise _later_unfit(game_id, hand, index, data.get("event"), refusal) from None
    return changed(done)


def _later_unfit(game_id: str, hand: int, index: int, event: Any, refusal: ApiError) -> ApiError:
    """A correction refused because a later event of the hand no longer fits it ("Hand 1, play 16:
    2-4 does not fit the west end"): the refusal says which play no longer fits and why, and what to
    do, and names the events to take back with it (`take_back_from`, `take_back_to`: send
    `"take_back_from"` to do it). Later events are never changed silently."""
    from . import wording

    later = refusal.extra.get("event")
    if refusal.status != 422 or refusal.extra.get("hand") != hand or not isinstance(later, int) or later <= index:
        return refusal
    record = store.snapshot(store.get_game(game_id)).record
    last = len(record["hands"][hand]["events"]) - 1
    refusal.extra.update(take_back_from=later, take_back_to=last)
    error = {"hand": hand, "event": later, "code": refusal.extra.get("code"), "params": refusal.extra.get("params")}
    error["error"] = refusal.message
    refusal.message = (
        f"{refusal.message}; events {later} to {last} of the hand were laid after it: send "
        f'"take_back_from": {later} to take them back with the correction'
    )
    said = wording.later_unfit(error, record, index, event, last)
    if said:
        refusal.extra["say"] = said
    return refusal


@bp.delete("/games/<game_id>/hands/<int:hand>/events/<int:index>")
def remove_event(game_id: str, hand: int, index: int):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    why = reason(data)
    if not why:
        raise ApiError(400, "removing an event needs its reason (why)")
    with over_kept(game_id, data, f"removing hand {hand}, event {index}"):
        done = store.remove_event(
            game_id, hand, index, expected_version(data), who=auth.who(data), why=why, source=source(data)
        )
    return changed(done)


@bp.delete("/games/<game_id>/hands/<int:hand>")
def void_hand(game_id: str, hand: int):  # type: ignore[no-untyped-def]
    """Deal the last hand again: it is voided, its events with it, as one change (`store.void_hand`)."""
    data = body()
    scorer_game(game_id)
    why = reason(data)
    with over_kept(game_id, data, f"dealing hand {hand} again"):
        done = store.void_hand(game_id, hand, expected_version(data), who=auth.who(data), why=why, source=source(data))
    return changed(done)


@bp.post("/games/<game_id>/hands/<int:hand>/lead-stands")
def lead_stands(game_id: str, hand: int):  # type: ignore[no-untyped-def]
    """The table lets the hand's lead stand (`cross`): `"lead_stands": true` on the hand (`store.lead_stands`)."""
    data = body()
    scorer_game(game_id)
    done = store.lead_stands(
        game_id, hand, expected_version(data), who=auth.who(data), why=reason(data), source=source(data)
    )
    return changed(done)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    with over_kept(game_id, data, "undoing the last event"):
        done = store.undo(game_id, expected_version(data), who=auth.who(data), why=reason(data), source=source(data))
    return changed(done)


@bp.put("/games/<game_id>/seating")
def seating(game_id: str):  # type: ignore[no-untyped-def]
    from . import matches

    data = body()
    scorer_game(game_id)
    if "seating" not in data:
        raise ApiError(400, "send seating: each player's side of the camera's picture in seat order, or null")
    return changed(matches.seat(game_id, data["seating"], expected_version(data), who=auth.who(data)))


@bp.post("/games/<game_id>/disputes")
def dispute(game_id: str):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    done = store.note(
        game_id,
        "dispute",
        data.get("hand"),
        data.get("event"),
        expected_version(data),
        who=auth.who(data),
        why=reason(data),
        source=source(data),
    )
    return changed(done, 201)


@bp.post("/games/<game_id>/disputes/<int:version>/settle")
def settle(game_id: str, version: int):  # type: ignore[no-untyped-def]
    """Settle a dispute, with a correction of the disputed event when the table agreed on one (which,
    like any correction, waits for plays kept to confirm: settled as it stands, the record stays)."""
    data = body()
    scorer_game(game_id)
    correct = "event" in data
    with over_kept(game_id, data, "correcting the disputed event") if correct else contextlib.nullcontext():
        done = store.settle(
            game_id,
            version,
            data.get("event"),
            expected_version(data),
            who=auth.who(data),
            why=reason(data),
            source=source(data),
            correct=correct,
        )
    return changed(done)


# -- reading ----------------------------------------------------------------------------------


def readable(game_id: str) -> Game:
    found = store.get_game(game_id)
    auth.require_reader(found)
    return found


@bp.get("/games/<game_id>/score")
def score(game_id: str):  # type: ignore[no-untyped-def]
    snap = store.snapshot(readable(game_id))
    answer = dict(snap.answer)
    if snap.error:
        answer["error"] = snap.error
    response = jsonify(answer)
    response.headers["ETag"] = f'"{snap.version}"'
    return response


@bp.get("/games/<game_id>/record")
def record(game_id: str):  # type: ignore[no-untyped-def]
    """The match record (GAME_RECORD.md); `?version=N` as it stood then; `?download=1` as a file.

    As kept, the record is the one the events API indexes: a hand the camera follows in a game
    that draws says `"unseen_draws": true` (its counts stay open for the camera). A download is
    for any reader: those hands' draws written out (`scorer.explicit`), where they can be."""
    found = readable(game_id)
    version = validate.ascii_int(request.args.get("version"), "version")
    if version is not None and not 1 <= version <= found.version:
        raise ApiError(404, f"version {version} does not exist (the match is at {found.version})")
    if version is not None and version < (first := store.kept_from(found.id)):
        raise ApiError(
            404,
            f"the record as it stood at version {version} is not kept here: the match was imported at "
            f"version {first} with the history of its changes, not each record before it",
        )
    if request.args.get("download"):
        data = store.handed_out(found, version).record  # made once a version
    else:
        data = store.record_of(found, version) if version is not None else store.snapshot(found).record
    response = Response(json.dumps(data, indent=2, ensure_ascii=False) + "\n", mimetype="application/json")
    if request.args.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="spinner-{found.id}.json"'
    response.headers["ETag"] = f'"{version or found.version}"'
    return response


@bp.get("/games/<game_id>/export")
def export(game_id: str):  # type: ignore[no-untyped-def]
    """The record with its kept frames and their readings, as one ZIP (POST it to /api/games to import)."""
    found = readable(game_id)
    file = archive.export(found)
    size = file.seek(0, 2)
    file.seek(0)
    # sent from the file a piece at a time, and closed (so removed) when the answer is
    response = Response(wrap_file(request.environ, file), mimetype="application/zip", direct_passthrough=True)
    response.headers["Content-Disposition"] = f'attachment; filename="spinner-{found.id}.zip"'
    response.content_length = size
    return response


@bp.get("/games/<game_id>/history")
def history(game_id: str):  # type: ignore[no-untyped-def]
    found = readable(game_id)
    return jsonify(
        {"id": found.id, "version": found.version, "changes": [change_json(c) for c in store.history(found.id)]}
    )


@bp.get("/games/<game_id>/board")
def board_json(game_id: str):  # type: ignore[no-untyped-def]
    """The board; the polling fallback sends If-None-Match and gets 304 while nothing changed."""
    found = readable(game_id)
    snap = store.snapshot(found)
    # A tournament table's board changes with the round clock too (the bell), not only with the match.
    tournament = tournament_table.of_match(found, snap)
    etag = board.etag(found.version, tournament)
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers={"ETag": etag})
    _, text = board.live(found, snap, tournament)
    response = Response(text, mimetype="application/json")
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


_DRAWING: dict[str, threading.Lock] = {}
_DRAWING_GUARD = threading.Lock()


def _drawing(game_id: str) -> threading.Lock:
    with _DRAWING_GUARD:
        return _DRAWING.setdefault(game_id, threading.Lock())


def _drawn(game_id: str, version: int) -> str | None:
    """The live board of this version as JSON text, if a viewer drew it already. Not for a
    tournament table: what the tournament says may have moved on (the bell) since that board was
    drawn, so its board is drawn afresh for each viewer."""
    snap = store.cache.get((game_id, version))
    live = snap.views.get("live") if snap is not None else None
    return live[1] if live is not None and live[0]["tournament"] is None else None


@bp.get("/games/<game_id>/stream")
def stream(game_id: str):  # type: ignore[no-untyped-def]
    """Server-sent events: the board now, then again after every change."""
    found = readable(game_id)
    config = current_app.config
    slot = hub.open_slot(config["SSE_MAX_STREAMS"])
    if slot is None:
        raise ApiError(503, "too many live pages at once: this page will poll for changes instead")
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    seen = request.headers.get("Last-Event-ID", type=int) or 0
    if not 0 <= seen <= found.version:  # not a version this match has had (a restored database,
        seen = 0  # a made-up id): the board now, rather than nothing until the match gets that far
    heartbeat, lifetime = float(config["SSE_HEARTBEAT"]), float(config["SSE_LIFETIME"])
    game_id = found.id
    db.session.remove()  # hold no database connection while the stream waits

    def from_database() -> tuple[int, str | None] | None:
        """The match's version and its board if newer than `seen` (None: the match is gone; the
        version seen and no board when the database is too busy to answer: the next heartbeat asks
        again, and the page keeps its board rather than losing its stream)."""
        with app.app_context():
            try:
                current = db.session.get(Game, game_id)
                if current is None:
                    return None
                if current.version <= seen:
                    return current.version, None
                snap = store.snapshot(current)
                return current.version, board.live(current, snap, tournament_table.of_match(current, snap))[1]
            except (OperationalError, PoolTimeout) as error:
                app.logger.warning("a live stream could not read the match: %s", getattr(error, "orig", None) or error)
                return seen, None
            finally:
                db.session.remove()

    def events() -> Iterator[str]:
        nonlocal seen
        # Look at the database at the start and after each quiet heartbeat (a change another
        # process made, should its notification be lost); otherwise this process's hub says when.
        poll = True
        try:
            yield "retry: 2000\n\n"
            ends = time.monotonic() + lifetime
            while time.monotonic() < ends and not hub.closing:
                newest = hub.version(game_id)
                found: tuple[int, str | None] | None = (seen, None)
                if newest > seen:
                    # The newest version this process heard of, already drawn for another viewer: no
                    # database. Every viewer of the table wakes at once: the first draws the board,
                    # the others wait for that drawing and send it, rather than all drawing it at once.
                    drawn = _drawn(game_id, newest)
                    if drawn is None:
                        with _drawing(game_id):
                            drawn = _drawn(game_id, newest)
                            found = from_database() if drawn is None else None
                    if drawn is not None:
                        seen = newest
                        yield f"id: {seen}\nevent: board\ndata: {drawn}\n\n"
                        continue
                elif poll:
                    found = from_database()
                poll = False
                if found is None:  # the match is gone
                    return
                if found[1] is not None:
                    seen = found[0]
                    yield f"id: {seen}\nevent: board\ndata: {found[1]}\n\n"
                    continue
                # The hub ahead of the database (a version heard of that the database does not show
                # yet): wait for a newer one or the heartbeat, rather than asking again at once.
                waited_from = max(seen, newest)
                if hub.wait(game_id, waited_from, min(heartbeat, max(0.0, ends - time.monotonic()))) <= waited_from:
                    poll = True
                    yield ": still here\n\n"  # keeps proxies and waitress from closing an idle stream
        finally:
            slot.release()

    response = Response(events(), mimetype="text/event-stream")
    response.call_on_close(slot.release)  # a body never read (a HEAD's) never reaches `finally`
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
