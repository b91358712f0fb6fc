"""The camera's API: send a photo, see what the reader made of it, answer its proposal.

`POST /api/games/ID/frames` takes one photo (multipart field `photo`, or the image itself as
the body with an image/* content type) from the scorer, keeps it and has it read; it answers the
frame with the camera's proposal once read (201), or while still being read (202, then
`GET /api/games/ID/frames/N`). `?wait=0` answers at once. A live camera's frame (`?source=camera`)
waits two seconds at most and is kept only once the reader takes it: until then its answer is
202 with no id (and "skipped" when a newer frame of the table replaced it). With a live frame the
page sends two small captures of its own (`before`, a second earlier, and `now`, as it took the
frame): alike, the table was still, so the frame is no hand caught mid-move, however long ago
the frame before it was sent. Every answer carries
`asks`: the newest frame whose proposal still waits for a tap (a question the record moved
past, its play scored on the pad or by answering a newer frame, is settled first:
`frames.settle_passed`); `GET /api/games/ID/frames/asks` answers it alone, with the plays kept to
confirm first, for a page opened while a question waits. A sure play is already recorded; an unsure one is recorded by `POST .../frames/N/accept` (optionally with a corrected `event`) or
turned down by `POST .../frames/N/reject`.
"""

from __future__ import annotations

import threading

from flask import Blueprint, current_app, jsonify, request, send_file
from werkzeug.http import parse_range_header

from . import auth, camera, camera_words, frames, schemas, twelve, uploads, validate
from .api import body, readable, scorer_game
from .db import db
from .errors import ApiError

bp = Blueprint("frames", __name__, url_prefix="/api/games/<game_id>/frames")


def _seat() -> int | None:
    value = request.args.get("seat") or (request.form.get("seat") if request.form else None)
    if value in (None, ""):
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 1:
        raise ApiError(400, f"seat must be a seat number (0 for the first player), not {value[:20]!r}")
    return int(value)


def _upload() -> bytes:
    if request.mimetype == "multipart/form-data":
        photo = request.files.get("photo")
        if photo is None:
            raise ApiError(400, "send the photo in the form field 'photo'")
        return uploads.read_all(photo.stream, current_app.config["MAX_CONTENT_LENGTH"])
    if request.mimetype.startswith("image/") or request.mimetype == "application/octet-stream":
        return uploads.body(current_app.config["MAX_CONTENT_LENGTH"])
    raise ApiError(
        415,
        "send a photo: multipart/form-data with a 'photo' field, or the image as the body "
        f"(image/jpeg, image/png...), not {request.mimetype or 'no content type'}",
    )


def _still() -> bool | None:
    """Whether the live camera saw the table still as it took the frame: its two small captures
    `before` and `now` (multipart fields), where it sent them (`camera.still_between`)."""
    if request.mimetype != "multipart/form-data" or "before" not in request.files or "now" not in request.files:
        return None
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    before = uploads.read_all(request.files["before"].stream, limit)
    now = uploads.read_all(request.files["now"].stream, limit)
    return camera.still_between(before, now)


def _slots(app) -> threading.BoundedSemaphore:  # type: ignore[no-untyped-def]
    slots = app.extensions.get("spinner_frame_slots")
    if slots is None:
        slots = app.extensions.setdefault("spinner_frame_slots", threading.BoundedSemaphore(app.config["FRAME_SLOTS"]))
    return slots


@bp.post("")
def send(game_id: str):  # type: ignore[no-untyped-def]
    game = scorer_game(game_id)
    if game.variant == twelve.VARIANT:  # no layout on the table: nothing for the reader
        raise ApiError(409, "twelve is a memory game with no layout to photograph: record each attempt on the pad")
    source = request.args.get("source", "photo")
    if source not in ("photo", "camera"):
        raise ApiError(400, "source is photo (one shot) or camera (a live camera's frame)")
    seat = _seat()
    players = len(game.players)
    if seat is not None and seat >= players:
        # refused at the door: past it, the follower failed on it and the photo was kept as one
        # "the reader failed on", a reason that named neither the seat nor the photo's real state
        raise ApiError(400, f"there is no seat {seat}: this match has {players} players (seats 0 to {players - 1})")
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    data = _upload()  # received first: a phone on a slow network must not hold a slot while it sends
    # Only a few uploads are checked and kept at once, so that a room full of cameras never slows the score.
    slots = _slots(app)
    if not slots.acquire(timeout=float(app.config["FRAME_SLOT_WAIT"])):
        raise ApiError(503, "the server is busy with other tables' photos: nothing was kept; send it again")
    try:
        unreadable = frames.unavailable(app, game.variant)  # then the answer comes at once, without the queue
        still = _still() if source == "camera" else None
        job = frames.intake(game_id, data, source=source, who=auth.who(), seat=seat, unreadable=unreadable, still=still)
    finally:
        slots.release()
    if unreadable is None:
        frames.queue(app).submit(job)
        db.session.remove()  # hold no database connection while the reader works
        # A photo waits for its reading; a live camera's frame only a moment: its play reaches the
        # board by itself, and a question it raises comes back with a later frame's answer ("asks").
        wait = app.config["READ_WAIT"] if source == "photo" else app.config["CAMERA_WAIT"]
        if request.args.get("wait", "1") != "0":
            job.done.wait(float(wait))
        unreadable = job.unreadable  # a reader worker's "cannot read" (SPINNER_READERS=queue)
    frame_id = job.frame_id
    if frame_id is None:  # a live frame not taken by the reader yet, skipped for a newer one, or unreadable here
        asking = frames.asking(game_id)
        status, message = (
            ("no-reader", unreadable)
            if unreadable
            else ("skipped", frames.SKIPPED)
            if job.skipped
            else ("queued", "waiting for the reader")
        )
        response = jsonify(
            {
                "id": None,
                "status": status,
                "message": message,
                "say": camera_words.frame_say(status, message, None, source, frames.table_of(game_id)),
                "asks": frames.to_json(asking, reading=False) if asking is not None else None,
            }
        )
        response.status_code = 201 if unreadable else 202
        return response
    frame = frames.get(game_id, frame_id)
    answer = frames.to_json(frame)
    asking = frames.asking(game_id)
    answer["asks"] = frames.to_json(asking, reading=False) if asking is not None and asking.id != frame_id else None
    answer["seating_learnt"] = frames.learnt_seating(game_id)
    response = jsonify(answer)
    response.status_code = 202 if frame.status == "queued" else 201
    return response


@bp.get("")
def listing(game_id: str):  # type: ignore[no-untyped-def]
    readable(game_id)
    hand = validate.ascii_int(request.args.get("hand"), "hand")
    frames.settle_passed(game_id)  # a question the record moved past is shown settled
    table = frames.table_of(game_id)
    return jsonify({"frames": [frames.to_json(f, reading=False, table=table) for f in frames.of_game(game_id, hand)]})


@bp.get("/asks")
def asks(game_id: str):  # type: ignore[no-untyped-def]
    """The camera's question open now, for a page opened (or reloaded) while it waits: the plays
    kept to confirm ("did anyone pass from 0-4 on?"), else the newest frame whose proposal waits
    for a tap (`asks` of a frame's answer); null when nothing waits."""
    readable(game_id)
    frame = frames.kept_open(game_id) or frames.asking(game_id)
    return jsonify({"asks": frames.to_json(frame, reading=False) if frame is not None else None})


@bp.get("/<int:frame_id>")
def one(game_id: str, frame_id: int):  # type: ignore[no-untyped-def]
    readable(game_id)
    frames.settle_passed(game_id)
    return jsonify(frames.to_json(frames.get(game_id, frame_id)))


@bp.get("/<int:frame_id>/image")
def image(game_id: str, frame_id: int):  # type: ignore[no-untyped-def]
    readable(game_id)
    frame = frames.get(game_id, frame_id)
    path = frames.file_of(frame)
    if path is None or not path.is_file():
        raise ApiError(404, f"frame {frame_id}'s photo was not kept")
    said = request.headers.get("Range")
    if said is not None and ((ranges := parse_range_header(said)) is None or len(ranges.ranges) != 1):
        # RFC 9110 (14.2) lets a server ignore a Range it will not follow: the whole image, not a 416
        request.environ.pop("HTTP_RANGE", None)
    response = send_file(path, mimetype=frames.MIMETYPES.get(path.suffix[1:], "application/octet-stream"), max_age=3600)
    # Kept by the phone that asked only: send_file says "public", which lets a shared cache (a
    # proxy's) keep a private match's photo, read with its link, and hand it to anyone asking for
    # the address without one, and keep a deleted match's photos (RFC 9111, 5.2.2.9).
    response.cache_control.public = False
    response.cache_control.private = True
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.post("/<int:frame_id>/accept")
def accept(game_id: str, frame_id: int):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    frame = frames.answer(
        game_id,
        frame_id,
        True,
        data.get("event"),
        who=auth.who(data),
        why=auth.whole_text(data.get("why"), schemas.WHY_LENGTH, "why"),
        passes=data.get("passes"),
    )
    return jsonify(frames.to_json(frame))


@bp.post("/<int:frame_id>/reject")
def reject(game_id: str, frame_id: int):  # type: ignore[no-untyped-def]
    data = body()
    scorer_game(game_id)
    frame = frames.answer(
        game_id,
        frame_id,
        False,
        None,
        who=auth.who(data),
        why=auth.whole_text(data.get("why"), schemas.WHY_LENGTH, "why"),
    )
    return jsonify(frames.to_json(frame))
