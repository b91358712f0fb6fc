"""The HTML pages for phones: the match list, the new-match form, the board and the pad.

The pages read through the same store as the API, and the pad changes the match through the
API itself (with the session and its CSRF token instead of a bearer token), so there is one
way in for every change and the scorer checks each one.
"""

from __future__ import annotations

import contextlib
import re
from functools import lru_cache
from typing import Any

from flask import Blueprint, Flask, current_app, flash, redirect, render_template, request, session, url_for
from flask.blueprints import BlueprintSetupState
from flask_babel import format_datetime
from flask_babel import gettext as _
from markupsafe import Markup, escape
from sqlalchemy import select

from scorer.variants import _CHOICES, VARIANTS, Variant, make_rules

from . import (
    archive,
    auth,
    bidi,
    board,
    csrf,
    frames,
    i18n,
    matches,
    picture,
    schemas,
    store,
    twelve,
    validate,
    wording,
)
from .db import db
from .errors import ApiError
from .models import Game
from .tournament import table as tournament_table
from .tournament import words as tournament_words

bp = Blueprint("pages", __name__)


def _languages(state: BlueprintSetupState) -> None:
    assert isinstance(state.app, Flask)  # typed as any app; a flask.Blueprint's is always a Flask
    i18n.init_app(state.app)


# Spanish and English for every page of the app (the tournament's too): set up with this blueprint.
bp.record_once(_languages)

#: A few words on each variant for the form (RULES.md has the whole of it), in the page's language.
LABELS = wording.VARIANTS
#: How many matches a browser keeps the links (tokens) of, in its signed session cookie.
KEPT_LINKS = 12


@bp.app_context_processor
def helpers() -> dict[str, Any]:
    return {
        "csrf_token": csrf.token,
        "tile_svg": picture.tile_svg,
        "qr": qr_svg,
        "spoken": wording.spoken,
        "end_name": wording.end,
        "end_arrow": end_arrow,
        "script_words": wording.script_words,
        "option_label": option_label,
        "variant_name": variant_name,
        "has_spinner": has_spinner,
        "table_words": table_words,
    }


#: Which way each end lies in the layout's picture (west is its left): beside the end's name on the buttons.
ARROWS = {"west": "←", "north": "↑", "south": "↓", "east": "→"}


def end_arrow(end: str) -> Markup:
    return Markup('<span class="arrow" aria-hidden="true">%s</span> ') % ARROWS[end] if end in ARROWS else Markup()


def table_words(t: dict[str, Any]) -> dict[str, Any]:
    """A tournament table's banner and note in the page's language, with the team names isolated."""
    with bidi.isolating():
        said = tournament_words.table(t)
    return {key: bidi.isolated(value) if value else value for key, value in said.items()}


# Every name a player typed, isolated on the page (webapp.bidi): `{{ name|bdi }}`, `{{ said|isolated }}`.
bp.add_app_template_filter(bidi.bdi, "bdi")
bp.add_app_template_filter(bidi.bdi_join, "bdi_join")
bp.add_app_template_filter(bidi.isolated, "isolated")

#: A tile's name ("1-1") in running text: a line may break after its hyphen, which reads as two numbers.
_TILE_NAME = re.compile(r"(?<![\w-])([0-6]-[0-6])(?![\w-])")


@bp.app_template_filter("tn")
def tile_name(tile: object) -> Markup:
    """A tile's name kept on one line (`.tn`: white-space nowrap)."""
    return Markup('<span class="tn">%s</span>') % ("" if tile is None else tile)


@bp.app_template_filter("tiles_whole")
def tiles_whole(text: object) -> Markup:
    """Text for HTML, escaped, each tile's name in it kept on one line ("Carmen played 1-1 …")."""
    return Markup(_TILE_NAME.sub(r'<span class="tn">\1</span>', str(escape("" if text is None else text))))


@bp.app_template_filter("name_fit")
def name_fit(name: object) -> str:
    """The class that fits a player's name to a seat button (app.css `.nm.fitN`): a name wraps only
    between its words, so a longer word is set smaller, never broken ("Carme / n")."""
    longest = max((len(word) for word in str(name or "").split()), default=0)
    return f"fit{min(longest, 12)}" if longest > 5 else ""


def variant_name(name: str) -> str:
    """A game's short name in the page's language ("Partners", "Todos cincos")."""
    return str(LABELS.get(name, name)).split(" (")[0]


def variant_details(name: str) -> str:
    """What a game's name leaves out, in the page's language ("fives, spinner; 4 in teams, 250"):
    said under the new-match form's select, whose options keep to the short name (a phone's width)."""
    label = str(LABELS.get(name, name))
    return label[label.index(" (") + 2 : -1] if " (" in label and label.endswith(")") else ""


def has_spinner(name: str) -> bool:
    """Whether a game has a spinner, so north and south ends (RULES.md: not in draw or block)."""
    found = VARIANTS.get(name)
    return bool(found and found.spinner)


def option_defaults(variant: Variant) -> dict[str, str]:
    """What a game does where the house rules say nothing: each of its options' default, in words
    (the new-match form's "… (the game's default)"). The scorer's own defaults (`make_rules`)."""
    rules = make_rules(variant.name, variant.players[-1], {})
    return {name: option_label(name, getattr(rules, name)) for name in _CHOICES if name in variant.options}


def target_words(variant: Variant) -> str:
    """A game's own target, in words: "250", or by the number of players ("50 with 2 players, 100 with 3–4")."""
    by_target: dict[int, list[int]] = {}
    for players, target in sorted(variant.target.items()):
        by_target.setdefault(target, []).append(players)
    if len(by_target) == 1:
        only = next(iter(by_target))
        # won only by going past it ("a single highest score over 100 wins"): said so
        return _("over %(n)s", n=only) if variant.target_strict else str(only)
    said = []
    for target, counts in by_target.items():
        many = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        said.append(_("%(target)s with %(players)s players", target=target, players=many))
    return ", ".join(said)


def option_label(name: str, value: object = None) -> str:
    """A house rule of the new-match form (or one of its choices) in words."""
    if value is None:
        return str(wording.OPTIONS.get(name, name.replace("_", " ")))
    return str(wording.CHOICES.get(name, {}).get(value, value))


@lru_cache(maxsize=64)
def qr_svg(url: str) -> str:
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff")


@bp.errorhandler(ApiError)
def refused(error: ApiError):  # type: ignore[no-untyped-def]
    return render_template("error.html", message=said(error), status=error.status), error.status


def said(error: ApiError) -> str:
    """A refusal in players' words where the rules engine gave its code (`say`), else its message."""
    return str(error.extra.get("say") or error.message)


@bp.get("/lang/<code>")
def language(code: str):  # type: ignore[no-untyped-def]
    """The language switch: keep the choice in a cookie and go back to the page it was made on."""
    if code not in i18n.LANGUAGES:
        raise ApiError(404, "no such language here")
    back = request.args.get("next", "")
    # Only a path on this server: never a redirect elsewhere (//host or a scheme), nor a control
    # character (a line break would end the Location header, and Werkzeug refuses to send it).
    if not back.startswith("/") or back.startswith("//") or "\\" in back or not back.isprintable():
        back = url_for("pages.index")
    response = redirect(back)
    response.set_cookie(i18n.COOKIE, code, max_age=i18n.COOKIE_AGE, samesite="Lax", httponly=True)
    return response


def keep_links(game: Game, **tokens: str) -> None:
    """Keep a match's link tokens in this browser's session so its page can show the links again."""
    kept = dict(session.get("tokens", {}))
    entry = dict(kept.pop(game.id, {}))
    entry.update(tokens)
    kept[game.id] = entry
    while len(kept) > KEPT_LINKS:
        kept.pop(next(iter(kept)))
    session["tokens"] = kept


def links(game: Game) -> dict[str, str | None]:
    kept = session.get("tokens", {}).get(game.id, {})
    viewer = None
    if kept.get("viewer"):
        viewer = url_for("pages.claim", game_id=game.id, key=kept["viewer"], _external=True)
    elif not game.private:
        viewer = url_for("pages.match", game_id=game.id, _external=True)
    scorer = url_for("pages.claim", game_id=game.id, key=kept["scorer"], _external=True) if kept.get("scorer") else None
    return {"viewer": viewer, "scorer": scorer}


@bp.get("/")
def index():  # type: ignore[no-untyped-def]
    roles = session.get("roles", {})
    query = (
        select(Game)
        .where(Game.private.is_(False) | Game.id.in_(list(roles)))
        .order_by(Game.updated_at.desc())
        .limit(100)
    )
    variants = [
        {
            "name": v.name,
            "label": variant_name(v.name),
            "details": variant_details(v.name),
            "players": v.players,
            "teams": v.teams,
            "options": sorted(v.options),
            "presets": sorted(v.presets),
            "defaults": option_defaults(v),
            "target": target_words(v),
        }
        for v in VARIANTS.values()
    ]
    variants.append(twelve.form_entry(variant_name(twelve.VARIANT), variant_details(twelve.VARIANT)))
    presets = sorted({p for v in VARIANTS.values() for p in v.presets})
    games = [resume_line(game, roles.get(game.id) == "scorer") for game in db.session.scalars(query).all()]
    choices = {**_CHOICES, "sets": list(twelve.SETS)}  # twelve's one option, shown for it alone
    return render_template(
        "index.html",
        games=games,
        variants=variants,
        choices=choices,
        presets=presets,
        main_options=twelve.MAIN_OPTIONS,
    )


def resume_line(game: Game, scorer: bool) -> dict[str, Any]:
    """A line of the resume list: a title players know the match by, its score and when it was played."""
    try:
        snap = store.snapshot(game)
        table = board.table_of(snap)
        totals = snap.answer.get("totals") or []
    except ApiError:  # a stored record the scorer cannot read any more still gets its line
        table, totals = wording.Table(list(game.players)), []
    title = game.title or " v ".join(table.sides)
    score = " – ".join(str(t) for t in totals)
    if game.variant == twelve.VARIANT:
        with contextlib.suppress(ApiError):
            score = twelve.score_line(store.snapshot(game).answer)
    return {
        "game": game,
        "title": title,
        "score": score,
        "scorer": scorer,
        "variant": variant_name(game.variant),
        "when": format_datetime(game.updated_at, "d MMM, HH:mm"),
    }


def spec_from_form() -> dict[str, Any]:
    """The new-match form as the API's JSON (the scorer checks all of it)."""
    form = request.form
    options: dict[str, Any] = {}
    target = form.get("target", "").strip()
    if target:
        if not (target.isascii() and target.isdigit()) or len(target) > 6:
            raise ApiError(400, "the target is a whole number of points (at most 100000)")
        options["target"] = int(target)
    if form.get("preset"):
        options["preset"] = form["preset"]
    for name in _CHOICES:
        if form.get(name):
            try:
                options[name] = validate.loads(form[name], name)
            except ApiError:
                raise ApiError(400, f"{name}: choose one of the listed values") from None
    options.update(twelve.options_from_form(form))
    players = [name for name in form.getlist("player") if name.strip()]
    return {
        "variant": form.get("variant"),
        "players": players,
        "options": options,
        "title": form.get("title", ""),
        "private": form.get("private") == "1",
    }


@bp.post("/games")
def create():  # type: ignore[no-untyped-def]
    csrf.check()
    try:
        spec = spec_from_form()
        created = store.create(spec, who=auth.who(), source="pad")
    except ApiError as error:
        flash(said(error))
        return redirect(url_for("pages.index"))
    game = created.game
    auth.remember(game, "scorer")
    keep_links(game, scorer=created.scorer_token, viewer=created.viewer_token)
    store.start_hand(game.id, None, None, 1, who=auth.who(), why="the first hand", source="pad")
    return redirect(url_for("pages.match", game_id=game.id))


@bp.post("/import")
def import_record():  # type: ignore[no-untyped-def]
    request.max_content_length = current_app.config["MAX_IMPORT_BYTES"]
    csrf.check()
    upload = request.files.get("record")
    try:
        if upload is None:
            raise ApiError(400, "choose a record file (JSON of GAME_RECORD.md)")
        if upload.stream.read(4) == b"PK\x03\x04":  # a match exported with its frames
            upload.stream.seek(0)
            created = archive.load(upload.stream, who=auth.who(), name=upload.filename or "the archive")
        else:
            upload.stream.seek(0)
            limit = current_app.config["MAX_JSON_BYTES"]
            raw = upload.stream.read(limit + 1)
            if len(raw) > limit:
                raise ApiError(413, "the record file is too large")
            try:
                record = validate.loads(raw, "it")
            except ApiError as error:
                raise ApiError(
                    400, f"{upload.filename or 'the file'} is not a JSON record nor a Spinner ZIP: {error.message}"
                ) from None
            created = store.create(record, who=auth.who(), source="import")
    except ApiError as error:
        flash(said(error))
        return redirect(url_for("pages.index"))
    auth.remember(created.game, "scorer")
    keep_links(created.game, scorer=created.scorer_token, viewer=created.viewer_token)
    return redirect(url_for("pages.match", game_id=created.game.id))


@bp.post("/g/<game_id>/rename")
def rename(game_id: str):  # type: ignore[no-untyped-def]
    game = store.get_game(game_id, changing=True)
    auth.require_scorer(game)  # the session's scorer role, with the form's CSRF token
    try:
        matches.rename(game.id, request.form.get("title", ""), who=auth.who())
    except ApiError as error:
        flash(said(error))
    return redirect(url_for("pages.index"))


@bp.post("/g/<game_id>/delete")
def delete(game_id: str):  # type: ignore[no-untyped-def]
    game = store.get_game(game_id)
    auth.require_scorer(game)
    try:
        if request.form.get("sure") != "1":
            raise ApiError(400, _("Tick the box to delete the match for good."))
        matches.delete(game.id)
        kept = dict(session.get("tokens", {}))
        kept.pop(game_id, None)
        session["tokens"] = kept
    except ApiError as error:
        flash(said(error))
    return redirect(url_for("pages.index"))


@bp.get("/g/<game_id>/join")
def claim(game_id: str):  # type: ignore[no-untyped-def]
    """A scorer or viewer link: remember the role in this browser, then show the match without the key."""
    game = store.get_game(game_id)
    token = request.args.get("key", "")
    role = auth.role_of_token(game, token)
    if role is None:
        raise ApiError(403, "this link's key is not right for this match: ask the scorer for the link again")
    auth.remember(game, role)
    keep_links(game, **{role: token})
    return redirect(url_for("pages.match", game_id=game.id))


@bp.get("/g/<game_id>")
def match(game_id: str):  # type: ignore[no-untyped-def]
    game = store.get_game(game_id)
    role = auth.require_reader(game)
    snap = store.snapshot(game)
    tournament = tournament_table.of_match(game, snap)
    return render_template(
        "game.html",
        game=game,
        role=role,
        b=board.build(game, snap, tournament),
        etag=board.etag(snap.version, tournament),
        links=links(game),
        **tournament_table.page_clock(),
    )


@bp.get("/g/<game_id>/history")
def history(game_id: str):  # type: ignore[no-untyped-def]
    game = store.get_game(game_id)
    auth.require_reader(game)
    table = board.table_of(store.snapshot(game))
    changes = [(c, wording.change_words(c, table)) for c in store.history(game.id)]
    return render_template("history.html", game=game, changes=changes, kept_from=store.kept_from(game.id))


@bp.get("/g/<game_id>/hands/<int:hand>/replay")
def replay(game_id: str, hand: int):  # type: ignore[no-untyped-def]
    """Step through a hand's kept frames: each with what was read drawn on it, and the event and points it made."""
    game = store.get_game(game_id)
    role = auth.require_reader(game)
    snap = store.snapshot(game)
    hands = len(snap.record["hands"])
    if not 0 <= hand < max(1, hands):
        raise ApiError(404, f"no hand {hand + 1} in this match (it has {hands})")
    kept = frames.of_game(game.id, hand)
    at = min(max(request.args.get("at", type=int) or len(kept), 1), max(1, len(kept))) - 1 if kept else 0
    frame = kept[at] if kept else None
    events = board.hand_events(snap, hand)
    made = next((e for e in events if frame is not None and e["event"] is not None and e["event"] == frame.event), None)
    # what became of the play it made: corrected since, or taken back (then `made` is None)
    link = frame.link if frame is not None and isinstance(frame.link, dict) else None
    disputes = [c for c in store.open_disputes(game.id) if c.hand == hand]
    return render_template(
        "replay.html",
        game=game,
        role=role,
        hand=hand,
        hands=hands,
        frames=kept,
        at=at,
        frame=frame,
        made=made,
        link=link,
        events=events,
        disputes=disputes,
        overlay=picture.reading_svg(frame.reading, frame.width, frame.height, frame.proposal) if frame else "",
    )


def _back_to_replay(game_id: str, hand: int | None):  # type: ignore[no-untyped-def]
    at = request.form.get("at", type=int)
    if hand is None:
        return redirect(url_for("pages.match", game_id=game_id))
    return redirect(url_for("pages.replay", game_id=game_id, hand=hand, at=at))


@bp.post("/g/<game_id>/hands/<int:hand>/dispute")
def dispute(game_id: str, hand: int):  # type: ignore[no-untyped-def]
    game = store.get_game(game_id, changing=True)
    auth.require_scorer(game)  # the session's scorer role, with the form's CSRF token
    try:
        # a play's number in ASCII digits, or none (the whole hand): "x" became a whole-hand dispute
        event = validate.ascii_int(request.form.get("event"), "the play disputed")
        store.note(
            game.id,
            "dispute",
            hand,
            event,
            None,
            who=auth.who(),
            why=auth.whole_text(request.form.get("why"), schemas.WHY_LENGTH, "why"),
            source="pad",
        )
    except ApiError as error:
        flash(said(error))
    return _back_to_replay(game.id, hand)


@bp.post("/g/<game_id>/disputes/<int:version>/settle")
def settle(game_id: str, version: int):  # type: ignore[no-untyped-def]
    game = store.get_game(game_id, changing=True)
    auth.require_scorer(game)
    text = request.form.get("event", "").strip()
    hand = request.form.get("hand", type=int)
    try:
        event = None
        if text:
            event = validate.loads(text, "the corrected event")
        # a correction waits for plays the camera keeps to confirm, as on the match page
        kept = frames.over_kept(game.id, False, "correcting the disputed event") if text else contextlib.nullcontext()
        with kept:
            store.settle(
                game.id,
                version,
                event,
                None,
                who=auth.who(),
                why=auth.whole_text(request.form.get("why"), schemas.WHY_LENGTH, "why"),
                source="pad",
                correct=bool(text),
            )
    except ApiError as error:
        flash(said(error))
    return _back_to_replay(game.id, hand)


@bp.get("/favicon.ico")
def favicon():  # type: ignore[no-untyped-def]
    return redirect(url_for("static", filename="favicon.svg"), code=301)
