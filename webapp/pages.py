"""The HTML pages for phones: the match list, the new-match form, the board and the pad."""
from __future__ import annotations

from flask import Blueprint, redirect, request, url_for

from . import auth, store

bp = Blueprint("pages", __name__)


@bp.get("/g/<game_id>/join")
def claim(game_id: str):  # type: ignore[no-untyped-def]
    """A scorer or viewer link: remember the role in this browser, then show the match without the key."""
    game = store.get_game(game_id)
    role = auth.role_of_token(game, request.args.get("key"))
    if role is not None:
        auth.remember(game, role)
    return redirect(url_for("pages.match", game_id=game.id))


@bp.get("/g/<game_id>")
def match(game_id: str):  # type: ignore[no-untyped-def]
    return "todo"
