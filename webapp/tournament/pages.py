"""The director's page, the standings board and the tournament list (HTML).

The forms post here with the session's director link and the CSRF token; each one calls the
same operation as the API, and a refusal comes back as a message on the director's page with
nothing recorded (post, redirect, get: a reload never posts twice).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import bidi, csrf, validate
from ..auth import clean_text
from ..db import db
from ..errors import ApiError
from . import access, results, service, transfer, view, words
from .models import TournamentRow

bp = Blueprint(
    "tournament_pages",
    __name__,
    url_prefix="/t",
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
)


@bp.context_processor
def polling() -> dict[str, Any]:
    """How often the pages ask for news (`TOURNAMENT_POLL_S`, default 4 seconds)."""
    return {
        "poll_ms": int(float(current_app.config.get("TOURNAMENT_POLL_S", 4)) * 1000),
        "history_action": words.action,
        "history_who": words.who,
    }


#: An anchor of the director's page, as its forms send it back (`#r2t3`).
ANCHOR = re.compile(r"#[A-Za-z0-9_-]{1,40}")


def said(error: ApiError) -> str:
    """A refusal in the director's words: the scorer's worded by its code (`say`), else the message.

    The break's refusal gives its end as a `<time>` the page's script shows in the director's own
    time, as it shows the round clock (the flash keeps the markup: Flask's session keeps `Markup`).
    """
    until, left, number = (error.extra.get(key) for key in ("break_until", "minutes_left", "after_round"))
    if isinstance(until, str) and isinstance(left, int) and isinstance(number, int):
        moment = Markup('<time datetime="%s">%s UTC</time>') % (until, until[11:16])
        return service.break_words(number, left, moment)
    return str(error.extra.get("say") or error.message)


@bp.errorhandler(ApiError)
def refused(error: ApiError):  # type: ignore[no-untyped-def]
    return render_template("error.html", message=said(error), status=error.status), error.status


def _who() -> str:
    """The director's name for the history: as typed on this form (then remembered), else as before."""
    typed = clean_text(request.form.get("who"), 60)
    if typed:
        session["who"] = typed
    return typed or clean_text(session.get("who"), 60) or "director"


def _shown_result() -> dict[str, Any] | None:
    """The result the correction form was opened on (the page's forms carry no tournament version:
    a table finishing elsewhere must not refuse the director's form; only this table's result may)."""
    try:
        value = validate.loads(request.form.get("expected") or "null", "expected")
    except ApiError:
        return None
    return value if isinstance(value, dict) else None


def _acting(tournament_id: str, action: Callable[[TournamentRow, str], Any]) -> Response:
    """Run one of the director's forms, then back to the page; a refusal is shown there, nothing recorded."""
    row = service.get(tournament_id)
    try:
        token = access.require_director(row)
        with bidi.isolating():  # the refusal's names, for the flash's |isolated
            action(row, token)
    except ApiError as error:
        if error.status in (401, 403):  # who may act, or a stale form: a page of its own
            raise
        flash(said(error))
    return redirect(url_for("tournament_pages.director", tournament_id=tournament_id) + _anchor())


def _anchor() -> str:
    """The place on the director's page a form came from (`#r2t3`), or none: only a fragment goes
    back in the redirect (a line break in it would end the Location header)."""
    anchor = request.form.get("anchor", "")
    return anchor if ANCHOR.fullmatch(anchor) else ""


@bp.get("")
def index():  # type: ignore[no-untyped-def]
    kept = session.get("directors", {})
    rows = [r for r in (db.session.get(TournamentRow, tid) for tid in kept) if r is not None]
    return render_template("tournament/index.html", tournaments=rows)


@bp.post("")
def create():  # type: ignore[no-untyped-def]
    csrf.check()
    row, token = service.create(request.form.get("title"), who=_who())
    access.remember(row, token)
    session["new_director_link"] = {row.id: token}
    return redirect(url_for("tournament_pages.director", tournament_id=row.id))


@bp.post("/import")
def import_file():  # type: ignore[no-untyped-def]
    csrf.check()
    upload = request.files.get("file")
    try:
        if upload is None or not upload.filename:
            raise ApiError(400, _("Choose a tournament file (JSON exported from a director's page)."))
        limit = current_app.config["MAX_JSON_BYTES"]
        raw = upload.read(limit + 1)
        if len(raw) > limit:
            raise ApiError(413, _("The tournament file is too large: at most %(kb)s KB.", kb=limit // 1024))
        try:
            data = validate.loads(raw, "it")
        except ApiError:  # the parser's words are for developers: the file could not be read
            raise ApiError(400, _("%(file)s is not a JSON tournament file.", file=upload.filename)) from None
        row, token = transfer.load(data, who=_who())
    except ApiError as error:
        flash(said(error))
        return redirect(url_for("tournament_pages.index"))
    access.remember(row, token)
    session["new_director_link"] = {row.id: token}
    return redirect(url_for("tournament_pages.director", tournament_id=row.id))


@bp.get("/<tournament_id>/join")
def join(tournament_id: str):  # type: ignore[no-untyped-def]
    row = service.get(tournament_id)
    token = request.args.get("key", "")
    if not access.is_director_token(row, token):
        raise ApiError(403, _("This director link's key is not right for this tournament."))
    access.remember(row, token)
    return redirect(url_for("tournament_pages.director", tournament_id=row.id))


@bp.get("/<tournament_id>")
def director(tournament_id: str):  # type: ignore[no-untyped-def]
    row = service.get(tournament_id)
    token = access.require_director(row)
    row = results.sync(row.id)
    with bidi.isolating():  # the page's sentences mark the names they hold (`|isolated`)
        data = view.build(row, service.state_of(row), service.tables_of(row.id), service.clock(), token)
    fresh = session.get("new_director_link", {}).get(row.id)
    if fresh:
        session.pop("new_director_link", None)
    link = url_for("tournament_pages.join", tournament_id=row.id, key=token, _external=True)
    return render_template(
        "tournament/director.html", v=data, director_link=link, fresh=bool(fresh), history=service.history(row.id)
    )


@bp.get("/<tournament_id>/cards")
def cards(tournament_id: str):  # type: ignore[no-untyped-def]
    """A card per table of the current round: its seats and its scorer link as a code (director only)."""
    row = service.get(tournament_id)
    token = access.require_director(row)
    with bidi.isolating():
        data = view.build(row, service.state_of(row), service.tables_of(row.id), service.clock(), token)
    if not data["rounds"]:
        raise ApiError(404, _("No round has started: the table cards come with round 1."))
    return render_template("tournament/cards.html", v=data, r=data["rounds"][-1])


@bp.get("/<tournament_id>/board")
def board(tournament_id: str):  # type: ignore[no-untyped-def]
    row = results.sync(service.get(tournament_id).id)
    with bidi.isolating():
        data = view.build(row, service.state_of(row), service.tables_of(row.id), service.clock(), None)
    return render_template("tournament/board.html", v=data)


@bp.post("/<tournament_id>/teams")
def register(tournament_id: str):  # type: ignore[no-untyped-def]
    form = request.form
    data = {"name": form.get("name", ""), "players": [form.get("player1", ""), form.get("player2", "")]}
    return _acting(tournament_id, lambda row, token: service.register(row.id, data, None, who=_who()))


@bp.post("/<tournament_id>/close")
def close(tournament_id: str):  # type: ignore[no-untyped-def]
    return _acting(tournament_id, lambda row, token: service.close(row.id, None, who=_who()))


@bp.post("/<tournament_id>/withdrawals")
def withdraw(tournament_id: str):  # type: ignore[no-untyped-def]
    form = request.form
    data = {"team": form.get("team", ""), "reason": form.get("reason", "")}

    def act(row: TournamentRow, token: str) -> None:
        results.sync(row.id)
        service.withdraw(row.id, data, None, who=_who())

    return _acting(tournament_id, act)


@bp.post("/<tournament_id>/rounds")
def start_round(tournament_id: str):  # type: ignore[no-untyped-def]
    # As typed: the scorer reads a draw number of digits as that number, whoever sends it.
    seed_value = request.form.get("seed", "").strip() or None

    # Ticked on the page only while the break runs: the director starts the round during it knowingly.
    during_break = request.form.get("during_break") == "1"

    def act(row: TournamentRow, token: str) -> None:
        results.sync(row.id)
        service.start_round(row.id, seed_value, None, token, who=_who(), during_break=during_break)

    return _acting(tournament_id, act)


@bp.post("/<tournament_id>/rounds/<int:number>/tables/<int:table>/result")
def result(tournament_id: str, number: int, table: int):  # type: ignore[no-untyped-def]
    form = request.form
    data = {key: form.get(key) for key in ("points_a", "points_b", "winner", "ended", "reason")}

    def act(row: TournamentRow, token: str) -> None:
        results.sync(row.id)
        if form.get("mode") == "correct":
            results.correct(row.id, number, table, data, None, who=_who(), shown=_shown_result())
        else:
            results.enter_result(row.id, number, table, data, None, who=_who())

    return _acting(tournament_id, act)
