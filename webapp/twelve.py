"""`twelve`, the one-player memory game (RULES.md), in the companion: every special case of it here.

A game of twelve is a match like any other as far as the store goes (one row, one hand, an event
per attempt, versions, undo, history, export): only what scores it and what the page shows
differ. The rules engine is `scorer.twelve` (`score_twelve`), which checks each flip as the
scorer checks each play; this module is the glue:

- `scored`/`replayed`: the engine's answer for the store's snapshots (there is no `Match`);
- `timed`: a flip recorded without a `time` gets one from the server's clock, seconds since the
  server recorded the game's first flip (docs/api.md says why the server's); `kept_time`: a flip
  corrected without one keeps the time of the flip it replaces;
- `board`: what the page shows (the 28 or 56 tiles by value, face down or removed, attempts,
  pairs, time) and `score_line`: the resume list's line;
- `form_entry`: the new-match form's entry for it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from scorer import RecordError
from scorer.tiles import FULL_SET
from scorer.twelve import MAX_TIME, PAIR_TOTAL, score_twelve

VARIANT = "twelve"
#: the option `sets`: one double-six set (28 tiles) or two (56)
SETS = (1, 2)
#: the form's choices shown in sight, not folded in "House rules": how many sets is twelve's game itself
MAIN_OPTIONS = ("sets",)
#: pairs of 12 in one set (168 pips)
PAIRS_PER_SET = len(FULL_SET) // 2


def of(record: dict[str, Any]) -> bool:
    """Whether a record (or a request's spec) is a game of twelve."""
    return isinstance(record, dict) and record.get("variant") == VARIANT


def scored(record: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer, or the RecordError naming the flip that breaks a rule."""
    return score_twelve(record)


def replayed(record: dict[str, Any]) -> tuple[dict[str, Any], RecordError | None]:
    """The answer as far as the record is legal, and the error where it stops being (a stored
    record the engine no longer accepts: never in practice, as every change is checked first)."""
    try:
        return score_twelve(record), None
    except RecordError as error:
        hands = record.get("hands") or []
        cut: list[Any] = []
        if error.hand == 0 and error.event is not None and hands and isinstance(hands[0], dict):
            cut = [{**hands[0], "events": list(hands[0].get("events") or [])[: error.event]}]
        try:
            return score_twelve({**record, "hands": cut}), error
        except RecordError:
            return {"variant": VARIANT, "sides": list(record.get("players") or []), "winner": None}, error


def now() -> datetime:
    """The server's clock (a test moves it)."""
    return datetime.now(UTC)


def _first_flip_at(game_id: str) -> datetime | None:
    """When the server recorded the game's first flip standing now (its change's time): an undo
    of that flip and a new first one start the clock again."""
    from .db import db
    from .models import Change, EventRow

    query = (
        select(Change.at)
        .join(EventRow, (EventRow.game_id == Change.game_id) & (EventRow.created_version == Change.version))
        .where(EventRow.game_id == game_id, EventRow.hand == 0, EventRow.removed_version.is_(None))
        .order_by(EventRow.position)
        .limit(1)
    )
    at = db.session.scalar(query)
    if at is None:
        return None
    return at if at.tzinfo else at.replace(tzinfo=UTC)  # SQLite gives back naive UTC


def timed(game_id: str, record: dict[str, Any], answer: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """The flip with its `time`: as sent (an API client's own clock, checked by the engine), else
    seconds since the server recorded the first flip, to a tenth (0 for the first), never less than
    the flip before's (an imported record's times come from another clock)."""
    if event.get("type") != "flip" or "time" in event:
        return event
    hands = record.get("hands") or []
    events = hands[0].get("events") if hands and isinstance(hands[0], dict) else None
    if not events:
        return {**event, "time": 0.0}
    first = _first_flip_at(game_id)
    elapsed = (now() - first).total_seconds() if first is not None else 0.0
    last = answer.get("time")
    last = float(last) if isinstance(last, (int, float)) and not isinstance(last, bool) else 0.0
    # never past the engine's bound either (a game left open for months): the clock stops there
    return {**event, "time": min(float(MAX_TIME), max(last, round(max(0.0, elapsed), 1)))}


def kept_time(record: dict[str, Any], before: object, event: dict[str, Any]) -> dict[str, Any]:
    """A correction of a flip (`store.correct_event`, a dispute settled with one): the time of the
    flip it replaces where none is sent, so that correcting the tiles turned leaves the attempt
    when it was; a time sent is the correction's own (checked by the engine)."""
    if (
        not of(record)
        or event.get("type") != "flip"
        or "time" in event
        or not isinstance(before, dict)
        or before.get("type") != "flip"
        or "time" not in before
    ):
        return event
    return {**event, "time": before["time"]}


def clock(seconds: object) -> str:
    """Seconds as a clock reads: 75 -> "1:15", 3725 -> "1:02:05"."""
    s = int(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else 0
    hours, rest = divmod(max(0, s), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def board(game_id: str, record: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of a game of twelve (`board.build`'s `twelve`): every tile of the set(s)
    by value, each copy face down or removed (the engine's `face_down`), attempts, pairs removed,
    the time, and each attempt (newest last) with whether it removed its pair."""
    sets = _sets(answer)
    down = answer.get("face_down") or {}
    tiles = [
        {
            "tile": str(tile),
            "low": tile.low,
            "high": tile.high,
            "copy": copy,
            "down": copy < int(down.get(str(tile), 0)),
        }
        for tile in FULL_SET
        for copy in range(sets)
    ]
    hands = record.get("hands") or []
    events = (hands[0].get("events") or []) if hands and isinstance(hands[0], dict) else []
    attempts = int(answer.get("attempts") or 0)
    removed = set(answer.get("removed_at") or [])
    flips = [
        {
            "n": n,
            "tiles": [str(t) for t in event.get("tiles") or []],
            "removed": n in removed,
            "time": event.get("time"),
            "clock": clock(event.get("time")),
        }
        for n, event in enumerate(events[:attempts])
    ]
    started = _first_flip_at(game_id) if events else None
    return {
        "sets": sets,
        "tiles": tiles,
        "total": PAIR_TOTAL,
        "attempts": attempts,
        "pairs": len(answer.get("pairs") or []),
        "pairs_total": PAIRS_PER_SET * sets,
        "remaining": answer.get("remaining"),
        "time": answer.get("time") or 0,
        "clock": clock(answer.get("time") or 0),
        "finished": bool(answer.get("finished")),
        "started": bool(events),
        # when the server recorded the first flip: the page's clock runs from it until the game ends
        "started_at": started.isoformat() if started is not None else None,
        "flips": flips,
        "last": flips[-1] if flips else None,
    }


def _sets(answer: dict[str, Any]) -> int:
    sets = answer.get("sets")
    return sets if isinstance(sets, int) and sets in SETS else 1


def score_line(answer: dict[str, Any]) -> str:
    """The resume list's score of a game of twelve: pairs removed, or attempts and time once done."""
    attempts = int(answer.get("attempts") or 0)
    if answer.get("finished"):
        return ngettext(
            "done in %(num)s attempt, %(time)s",
            "done in %(num)s attempts, %(time)s",
            attempts,
            time=clock(answer["time"]),
        )
    pairs = len(answer.get("pairs") or [])
    total = PAIRS_PER_SET * _sets(answer)
    return _("%(pairs)s of %(total)s pairs", pairs=pairs, total=total)


def form_entry(label: str, details: str) -> dict[str, Any]:
    """The new-match form's entry for twelve, beside each variant's (`pages.index`)."""
    from .wording import CHOICES

    return {
        "name": VARIANT,
        "label": label,
        "details": details,
        "players": (1,),
        "teams": False,
        "options": ["sets"],
        "presets": [],
        "defaults": {"sets": str(CHOICES["sets"][1])},
        "target": "",
    }


def options_from_form(form: Any) -> dict[str, Any]:
    """The form's `sets` (JSON 1 or 2, as every house rule's choice is sent), or nothing."""
    text = form.get("sets", "")
    if not text:
        return {}
    if text not in ("1", "2"):
        from .errors import ApiError

        raise ApiError(400, "sets: choose one of the listed values")
    return {"sets": int(text)}
