"""The camera's answers in players' words: names for seats, numbers from 1, in the page's language.

The follower says why it asks, or why it records nothing, with a stable code and its parameters
(`vision.follow.follower.Outcome.code`, `params`); the command line (`spinner watch`) and the
API's `message` keep its precise English. This module words each code for the table ("Was it
Ana, 4-6 on the east? (2 new tiles at once: which came first is not known)"), and each state of
a frame as the camera box shows it (`say`). Every sentence goes through Flask-Babel, so the
catalogue (webapp/translations) holds them all; an unknown code falls back to the message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from .wording import Table, end, event_words, rule


def play_words(event: dict[str, Any], table: Table) -> str:
    """A proposed play in a few words: "Ana, 4-6 on the east" ("Ana, 6-6" for the lead); "4-6 on the
    east" where its seat is not known (None: a pass no photo shows, and no arm seen)."""
    who, tile = table.seat(event.get("seat")), event.get("tile")
    if event.get("seat") is None:
        if isinstance(event.get("end"), str):
            return _("%(tile)s on the %(end)s", tile=tile, end=end(event["end"]))
        return str(tile)
    if isinstance(event.get("end"), str):
        return _("%(who)s, %(tile)s on the %(end)s", who=who, tile=tile, end=end(event["end"]))
    return _("%(who)s, %(tile)s", who=who, tile=tile)


def seat_choices(seats: Sequence[Any], table: Table, turn: bool = False) -> str:
    """The seats that may have laid a tile, likeliest first: "Ana (their turn), Ben or Cruz".
    `turn`: the first is the seat whose turn it is (the others would mean passes no photo shows)."""
    names = [table.seat(s) for s in seats]
    if names and turn:
        names[0] = _("%(who)s (their turn)", who=names[0])
    if len(names) < 2:
        return "".join(names)
    return _("%(some)s or %(last)s", some=", ".join(names[:-1]), last=names[-1])


def _evidence(p: dict[str, Any], t: Any) -> str:
    said = _("the photo is sure of it (%(share)s in 100)", share=round(float(p.get("share") or 0) * 100))
    if p.get("seat") is None or not p.get("seats"):
        return said
    # no photo shows who laid it: the tiles each player may still hold left only one (the follower's
    # count of the deals, `scorer.chance`)
    return _(
        "%(said)s; no photo shows who laid %(tile)s, but counting the tiles left only %(who)s",
        said=said,
        tile=p.get("tile") or "",
        who=t.seat(p.get("seat")),
    )


def _tiles(tiles: Sequence[Any]) -> str:
    return ", ".join(str(t) for t in tiles)


def _ends(values: Sequence[Any], count: Any) -> str:
    """Open ends as the photo or the record has them: "6, 4" or "6, 4 (count 10)"."""
    ends = ", ".join(str(v) for v in values)
    return _("%(ends)s (count %(count)s)", ends=ends, count=count) if count is not None else ends


def _refused(p: dict[str, Any], t: Table) -> str:
    """The scorer's refusal inside a reason (`rule`, `rule_params`, `error`), in players' words."""
    return rule(p.get("rule"), p.get("rule_params"), str(p.get("error", "")), t)


#: Each code of the follower's reasons (vision/follow/follower.py, vision/follow/table.py): its
#: words for players, from its params and the table. A phrase, lower case: it is put in a sentence.
REASONS: dict[str, Callable[[dict[str, Any], Table], str]] = {
    "missed": lambda p, t: ngettext(
        "the table changed %(changes)s times but only %(num)s new tile was seen: a play may have been missed",
        "the table changed %(changes)s times but only %(num)s new tiles were seen: a play may have been missed",
        p.get("found") or 0,
        changes=p.get("changes"),
    ),
    "no_legal_move": lambda p, t: _("no play the rules allow fits the photo"),
    "no_open_end": lambda p, t: _("%(tile)s does not lie against an open end", tile=p.get("tile")),
    "not_legal": lambda p, t: _("the photo shows %(tile)s, which cannot be played here", tile=p.get("tile")),
    "unsure": lambda p, t: _("the photo is not clear enough"),
    "unsure_tile": lambda p, t: (
        _(
            "the photo may show %(tile)s standing in a player's hand, not laid: keep your own tiles out of the picture",
            tile=p.get("tile"),
        )
        if p.get("standing")
        else _(
            "the table is too dark to be sure of the tile the rules make %(tile)s: it read %(read)s; more light helps",
            tile=p.get("tile"),
            read=p.get("read"),
        )
        if p.get("dark")
        else _(
            "the reader is not sure of the tile the rules make %(tile)s: it read %(read)s",
            tile=p.get("tile"),
            read=p.get("read"),
        )
    ),
    "cannot_tell": lambda p, t: _("it could also be %(other)s", other=play_words(p.get("other") or {}, t)),
    "layout_differs": lambda p, t: _(
        "the photo's open ends show %(seen)s, but this play would leave %(after)s",
        seen=_ends(p.get("ends") or [], p.get("count")),
        after=_ends(p.get("after") or [], p.get("after_count")),
    ),
    "too_many": lambda p, t: _("%(n)s new tiles at once", n=p.get("count")),
    "no_order": lambda p, t: _("%(n)s new tiles at once, in no order the rules allow", n=p.get("count")),
    "order_unseen": lambda p, t: _(
        "%(n)s new tiles at once, and the photo does not show which end each lies against", n=p.get("count")
    ),
    "order_unknown": lambda p, t: _("%(n)s new tiles at once: which came first is not known", n=p.get("count")),
    "first_look": lambda p, t: _("these tiles were on the table when the camera started: were they played?"),
    "leader_unknown": lambda p, t: _("who leads this hand is not known: tap who played it"),
    "who_played": lambda p, t: _(
        "who played %(tile)s is not known: %(seats)s", tile=p.get("tile"), seats=seat_choices(p.get("seats") or [], t)
    ),
    "seats_confirmed": lambda p, t: _("who played them: said by a player"),
    "passes_unsure": lambda p, t: _(
        "did anyone pass from %(tile)s on? (no photo shows a pass)", tile=p.get("tile") or ""
    ),
    "seat_unsure": lambda p, t: _(
        "who played %(tile)s is not known (%(seats)s): followed as %(who)s's play, kept to confirm",
        tile=p.get("tile"),
        seats=seat_choices(p.get("seats") or [], t),
        who=t.seat(p.get("seat")),
    ),
    "refused": lambda p, t: _("the rules refuse it: %(why)s", why=_refused(p, t)),
    "also_lies": lambda p, t: ngettext(
        "%(tiles)s also lies on the table but is not recorded: which was played first?",
        "%(tiles)s also lie on the table but are not recorded: which was played first?",
        len(p.get("tiles") or []),
        tiles=_tiles(p.get("tiles") or []),
    ),
    "turned_down": lambda p, t: _(
        "a question about %(tile)s was answered No before: was it played since, or was a play missed before it?",
        tile=p.get("tile"),
    ),
    "unanswered": lambda p, t: _(
        "%(tile)s was asked about before, and the record went on without an answer: was it played since, "
        "or was a play missed before it?",
        tile=p.get("tile"),
    ),
    "asked_already": lambda p, t: _(
        "%(why)s: turned down already, not asked again",
        why=reason_words(p.get("why"), p.get("why_params"), t) or _("a question"),
    ),
    "table_start": lambda p, t: _("the table as the camera first sees it"),
    "over_pad": lambda p, t: _("the hand is over: start the next one on the pad"),
    "match_over": lambda p, t: _("the match is over: it is won (start a new match for another game)"),
    "next_hand_refused": lambda p, t: _(
        "the table is cleared, but the next hand cannot start: %(why)s", why=_refused(p, t)
    ),
    "next_hand": lambda p, t: _("the table is cleared: hand %(hand)s starts", hand=(p.get("hand") or 0) + 1),
    "over_show": lambda p, t: _("the hand is over: show each player's tiles, then clear the table"),
    "layout_moved": lambda p, t: _(
        "the tiles on the table left their places (%(tiles)s): the camera moved, or tiles were moved or taken back",
        tiles=_tiles(p.get("tiles") or []),
    ),
    "replaced": lambda p, t: _(
        "%(tiles)s, recorded, is no longer there and %(laid)s lies in its place: was it taken back and "
        "another tile played? Put the record right on the pad",
        tiles=_tiles(p.get("tiles") or []),
        laid=_tiles(p.get("laid") or []),
    ),
    "into_view": lambda p, t: _(
        "%(tiles)s came into view as the camera moved: was it played?", tiles=_tiles(p.get("tiles") or [])
    ),
    "no_new_tile": lambda p, t: _("no new tile"),
    "unsettled_end": lambda p, t: _(
        "the photos ended with the table changed since the last play recorded, and no new tile read "
        "there: was a tile played?"
    ),
    "no_new_tile_photo": lambda p, t: _(
        "no new tile was read in this photo (if a tile was played, take the photo again over the whole "
        "layout, or score the play on the pad)"
    ),
    "drawn": lambda p, t: _("a tile drawn from the boneyard"),
    "moving": lambda p, t: _("the table is moving: waiting for it to settle"),
    "unchanged": lambda p, t: _("the table has not changed"),
    "evidence": lambda p, t: _evidence(p, t),
    "confirmed": lambda p, t: _("confirmed by a player"),
    "passed": lambda p, t: _("%(who)s passed", who=t.seat(p.get("seat"))),
    "pass_refused": lambda p, t: _(
        "a pass by %(who)s is refused: %(why)s", who=t.seat(p.get("seat")), why=_refused(p, t)
    ),
    "revealed": lambda p, t: ngettext(
        "%(who)s holds %(num)s pip", "%(who)s holds %(num)s pips", p.get("pips") or 0, who=t.seat(p.get("seat"))
    ),
    "reveal_refused": lambda p, t: _(
        "%(who)s shows %(tiles)s: refused: %(why)s",
        who=t.seat(p.get("seat")),
        tiles=_tiles(p.get("tiles") or []) or _("no tiles"),
        why=_refused(p, t),
    ),
}

#: The page's own reasons for a frame (webapp/frames.py): whole sentences.
FRAME_REASONS: dict[str, Callable[[dict[str, Any], Table], str]] = {
    "no_hand": lambda p, t: _("No hand has started: start one, then take the photo."),
    "no_tile_read": lambda p, t: _(
        "No tile was found in this photo: hold the phone over the whole layout, or score this play on the pad."
    ),
    "not_recorded": lambda p, t: _(
        "The camera's play was not recorded: %(why)s",
        why=_refused(p, t) if p.get("rule") else _("another phone changed the match first."),
    ),
}


def reason_words(code: Any, params: Any, table: Table) -> str | None:
    """A follower's reason in players' words; None for a code not known here (or odd params)."""
    say = REASONS.get(code) if isinstance(code, str) else None
    if say is None:
        return None
    try:
        return say(dict(params) if isinstance(params, dict) else {}, table)
    except (KeyError, TypeError, ValueError, AttributeError):  # odd params from an old frame
        return None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def frame_say(
    status: str | None, message: str, proposal: dict[str, Any] | None, source: str | None, table: Table
) -> str:
    """What the camera box says of a frame, in players' words; the frame's message where the
    page has no words for it (a frame kept before its reasons had codes)."""
    try:
        said = _frame_say(status, proposal or {}, source, table)
        answered = (proposal or {}).get("answered")
        if said and isinstance(answered, dict):  # a photo taken up again once one of its plays was answered
            done = _("Recorded: %(play)s.", play=event_words(answered, table))
            said = done if status == "accepted" else f"{done} {said}"
    except (KeyError, TypeError, ValueError, AttributeError):
        said = None
    return said or message


def _run_words(status: str, proposal: dict[str, Any], params: dict[str, Any], table: Table) -> str:
    """The one question for plays followed with their seat open (no photo shows a pass): on the
    frame of a play kept, and on the frame that holds the question."""
    plays = [e for e in params.get("plays") or [] if isinstance(e, dict)]
    first = plays[0].get("tile") if plays else ""
    if status == "kept":
        laid = "; ".join(play_words(e, table) for e in proposal.get("kept") or [] if isinstance(e, dict))
        return _(
            "Kept to confirm: %(plays)s. No photo shows a pass: did anyone pass from %(tile)s on?",
            plays=laid,
            tile=first,
        )
    return _(
        "Did anyone pass from %(tile)s on? Followed as if no one did: %(plays)s.",
        tile=first,
        plays="; ".join(play_words(e, table) for e in plays),
    )


def _frame_say(status: str | None, proposal: dict[str, Any], source: str | None, table: Table) -> str | None:
    code, params = proposal.get("code"), proposal.get("params") or {}
    if status == "queued":
        return _("Reading the photo…")
    if status == "skipped":
        return _("A newer photo of this table came first: this one was not read.")
    if status == "no-reader":
        return _("This server cannot read photos yet: score this play on the pad.")
    if status == "unreadable":
        return _("This photo could not be read: take it again, or score this play on the pad.")
    if status == "rejected" and code == "kept_dropped":
        return _("The plays kept to confirm were dropped (the record changed since): score them on the pad.")
    if status == "rejected":
        return _("Turned down: score this play on the pad.")
    if status in ("kept", "confirm") and code == "passes_unsure":
        return _run_words(status, proposal, params, table)
    if status == "superseded":  # a question the record moved past (`frames.settle_passed`)
        return _("The match changed since this question: it asks no more. Score the play on the pad if it is missing.")
    if status == "recorded" and proposal.get("settled") == "recorded":  # its play scored meanwhile
        chosen = proposal.get("chosen")
        return _("Already recorded: %(play)s", play=event_words(chosen, table)) if isinstance(chosen, dict) else None
    if status == "accepted":
        chosen = proposal.get("chosen")
        if isinstance(chosen, list):  # the plays kept to confirm, answered at once
            return _(
                "Recorded: %(plays)s", plays="; ".join(event_words(e, table) for e in chosen if isinstance(e, dict))
            )
        return _("Recorded: %(play)s", play=event_words(chosen, table)) if isinstance(chosen, dict) else None
    if code in FRAME_REASONS:
        return FRAME_REASONS[code](dict(params), table)
    if status == "recorded" or proposal.get("status") == "sure":
        events = [e for e in proposal.get("events") or [] if isinstance(e, dict)]
        if not events:
            return None
        return _("Recorded from the camera: %(plays)s", plays="; ".join(event_words(e, table) for e in events))
    why = reason_words(code, params, table)
    if why is None:
        return None
    if status == "confirm":
        event = next((e for e in proposal.get("events") or [] if isinstance(e, dict)), None)
        firsts = [e for e in proposal.get("plays") or [] if isinstance(e, dict)]
        if event is None and firsts:  # several new tiles, in more than one order: which came first?
            return _first_words(firsts, params, table)
        if event is None:
            return _(
                "The camera cannot tell the play: %(why)s. Check the photo, or score this play on the pad.", why=why
            )
        seats = proposal.get("seats") or []
        if code == "who_played" and len(seats) > 1:  # a pass no photo shows: one tap on a seat answers
            lead = not isinstance(event.get("end"), str)
            return _(
                "Who played %(tile)s? %(seats)s?", tile=event.get("tile"), seats=seat_choices(seats, table, not lead)
            )
        if event.get("seat") is None and len(seats) > 1:  # a lead nobody said who laid: a tap on a seat
            if code == "leader_unknown":
                return _("Who played %(tile)s? %(seats)s?", tile=event.get("tile"), seats=seat_choices(seats, table))
            return _(
                "Who played %(tile)s? %(seats)s? (%(why)s)",
                tile=event.get("tile"),
                seats=seat_choices(seats, table),
                why=why,
            )
        if event.get("seat") is None:
            return _("Who played %(tile)s? (%(why)s)", tile=event.get("tile"), why=why)
        return _("Was it %(play)s? (%(why)s)", play=play_words(event, table), why=why)
    if status == "nothing" and source != "camera" and code != "no_new_tile_photo":
        return _sentence(_("%(why)s: nothing to record.", why=why))
    return _sentence(why)


def _first_words(firsts: list[dict[str, Any]], params: dict[str, Any], table: Table) -> str:
    """The question of several new tiles that the rules allow in more than one order: the plays
    that may have come first, as choices ("3 new tiles at once: which did Ben play first? 2-3 on
    the west or 1-2 on the north?"); none is proposed as if known."""
    count = params.get("count") or len(firsts)
    seats = {e.get("seat") for e in firsts}
    if len(seats) == 1 and None not in seats:
        places = [
            _("%(tile)s on the %(end)s", tile=e.get("tile"), end=end(e["end"]))
            if isinstance(e.get("end"), str)
            else str(e.get("tile"))
            for e in firsts
        ]
        return _(
            "%(n)s new tiles at once: which did %(who)s play first? %(plays)s?",
            n=count,
            who=table.seat(firsts[0].get("seat")),
            plays=_choices(places),
        )
    return _(
        "%(n)s new tiles at once: which was played first? %(plays)s?",
        n=count,
        plays=_choices([play_words(e, table) for e in firsts]),
    )


def _choices(items: Sequence[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return _("%(some)s or %(last)s", some=", ".join(items[:-1]), last=items[-1])


def laid_in_turn_words(seat: Any, tile: Any, table: Table) -> str:
    """The refusal of an answer to "did anyone pass?" naming as laid after a pass a play its seat
    laid in turn (`frames._check_mark`): said for the table, the question asked again beside it."""
    return _("%(who)s laid %(tile)s in turn, so nobody passed just before it.", who=table.seat(seat), tile=tile)


def kept_open_words(count: int, rewrite: bool = False) -> str:
    """The refusal of a change while plays are kept to confirm, in the page's language (the camera
    box shows their question beside it): a play, pass or draw scored on the pad, or (`rewrite`) an
    undo, a correction or another change of the record, which would drop them."""
    if rewrite:
        return ngettext(
            "%(num)s play is kept to confirm, laid after the last one recorded: changing the record now "
            "would drop it. Answer the camera's question first, or turn it down. Nothing was changed.",
            "%(num)s plays are kept to confirm, laid after the last one recorded: changing the record now "
            "would drop them. Answer the camera's question first, or turn them down. Nothing was changed.",
            count,
        )
    return ngettext(
        "%(num)s play is kept to confirm, laid before this: answer the camera's question first, or "
        "turn it down. Nothing was recorded.",
        "%(num)s plays are kept to confirm, laid before this: answer the camera's question first, or "
        "turn them down. Nothing was recorded.",
        count,
    )
