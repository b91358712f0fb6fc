"""The match store: a match's record lives in rows; every change is checked by the scorer first.

A change (a new hand, an event, a correction, an undo...) is planned on the record as it
stands, the whole candidate record is replayed by the scorer (`Match.from_record`), and only
if it is legal are rows written. The version bump is a guarded UPDATE (`... WHERE version = v`):
of two phones that both built on version v, one wins and the other is told the match moved on
(or, when it named no version, is replayed on the new one), so no event is ever lost.
"""

from __future__ import annotations

import functools
import json
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, false, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import with_expression
from sqlalchemy.orm.interfaces import ORMOption

from scorer import RECORD_FORMAT, Match, RecordError, schema
from scorer.commands import replay
from scorer.explicit import Explicit, explicit_record
from scorer.schema import check_players

from . import fanout, live, schemas, twelve, validate
from .auth import clean_text, digest, new_token
from .db import db
from .errors import ApiError, Stale, record_error
from .models import Change, EventRow, Frame, Game, HandRow, now

#: How often a change that named no version is replayed on a newer one before giving up.
RETRIES = 20
_GAME_LOCKS: dict[str, threading.RLock] = {}
_LOCKS_GUARD = threading.Lock()
MAX_EVENT_BYTES = 8 * 1024
RECORD_KEYS = ("format", "variant", "options", "players", "hands")
#: a hand's fields of GAME_RECORD.md; any other is kept as the hand's own (`HandRow.extra`)
HAND_KEYS = ("leader", "deal", "events")


@dataclass
class Snapshot:
    """A match at one version: its record and the scorer's answer. Shared: never change it."""

    game_id: str
    version: int
    record: dict[str, Any]
    match: Match | None
    answer: dict[str, Any]
    #: The rule the stored record breaks, if the scorer no longer accepts it (never in practice).
    error: dict[str, Any] | None = None
    #: What the pages made of it (board JSON, HTML), filled once by `webapp.board`.
    views: dict[Hashable, Any] = field(default_factory=dict)
    #: The action of the change that made this version, where this process made it (None: not
    #: known here); "hand after void" for a hand started right after a void. Undo asks the history
    #: for the last changes only where it may reverse one (`_reversing`): never for a play's undo.
    last_change: str | None = None


class _Cache:
    """The last snapshots made, by (match, version): 200 viewers of one table share one replay.
    And the last records handed out (`explicit`), fewer: each is as large as its record."""

    def __init__(self, size: int = 256, handed_size: int = 16) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()
        self.handed_size = handed_size
        self.handed: OrderedDict[tuple[str, int], Explicit] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> Snapshot | None:
        with self.lock:
            snap = self.items.get(key)
            if snap is not None:
                self.items.move_to_end(key)
            return snap

    def put(self, snap: Snapshot) -> Snapshot:
        with self.lock:
            self.items[(snap.game_id, snap.version)] = snap
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return snap

    def get_handed(self, key: tuple[str, int]) -> Explicit | None:
        with self.lock:
            found = self.handed.get(key)
            if found is not None:
                self.handed.move_to_end(key)
            return found

    def put_handed(self, key: tuple[str, int], found: Explicit) -> Explicit:
        with self.lock:
            self.handed[key] = found
            while len(self.handed) > self.handed_size:
                self.handed.popitem(last=False)
        return found

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.handed.clear()


cache = _Cache()


# -- reading ----------------------------------------------------------------------------------


def get_game(game_id: str, *, changing: bool = False) -> Game:
    """The match's row. `changing`: read for a change about to be made (the scorer's check before
    it), with whether a guard concerns the match (`Game.guarded`, in the same SELECT), so that the
    change itself need not read the row again nor ask each guard (`_change_in_turn`)."""
    if not isinstance(game_id, str) or len(game_id) > 32:
        game = None
    else:
        game = db.session.get(Game, game_id, options=_guarded() if changing else None)
    if game is None:
        raise ApiError(404, f"no match {game_id!r} on this server")
    if changing:
        # The session's identity map holds its rows weakly: held here, the row is still there when
        # the change asks for it, though the caller kept no reference (`_change_in_turn`).
        db.session.info[_CHANGING] = game
    return game


_CHANGING = "spinner.changing"


def _standing(model: type[HandRow] | type[EventRow], game_id: str, version: int | None):  # type: ignore[no-untyped-def]
    query = select(model).where(model.game_id == game_id)
    if version is None:
        return query.where(model.removed_version.is_(None))
    return query.where(
        model.created_version <= version, (model.removed_version.is_(None)) | (model.removed_version > version)
    )


def record_of(game: Game, version: int | None = None) -> dict[str, Any]:
    """The match record of GAME_RECORD.md, as it stands now or as it stood at `version`."""
    hand_rows = db.session.scalars(_standing(HandRow, game.id, version).order_by(HandRow.number)).all()
    event_rows = db.session.scalars(
        _standing(EventRow, game.id, version).order_by(EventRow.hand, EventRow.position)
    ).all()
    hands: list[dict[str, Any]] = []
    for row in hand_rows:
        hand: dict[str, Any] = dict(row.extra or {})
        if row.leader is not None:
            hand["leader"] = row.leader
        if row.deal is not None:
            hand["deal"] = row.deal
        hand["events"] = []
        hands.append(hand)
    for event in event_rows:
        hands[event.hand]["events"].append(stored_event(event.body))
    return {
        **game.extra,
        "format": RECORD_FORMAT,
        "variant": game.variant,
        "options": game.options,
        "players": game.players,
        "hands": hands,
    }


def stored_event(body: Any) -> Any:
    """An event as stored, in the shape GAME_RECORD.md gives it. Before the scorer held a draw to
    its tile or its count, one or the other, it took a draw with neither as one tile drawn unseen
    and a draw with both (a count of 1) as the tile: rows of that time are read so, as they were
    scored, and every other event as it is."""
    if type(body) is dict and body.get("type") == "draw":
        if body.get("tile") is not None and body.get("count") == 1:
            return {k: v for k, v in body.items() if k != "count"}
        if body.get("tile") is None and body.get("count") is None:
            return {**{k: v for k, v in body.items() if k != "tile"}, "count": 1}
    return body


def live_match(record: dict[str, Any]) -> Match:
    """The match a stored record describes, its last hand as it is being played: a seat that laid
    its last counted tile in a hand whose draws are not all seen (a camera follows it) has perhaps
    gone out, and the board says so (`maybe_out`) rather than ending the hand on the record's
    silence; the next event says which (a play goes on, pips or tiles shown end it)."""
    return Match.from_record(record, live=True)


def scored(record: dict[str, Any]) -> tuple[Match | None, dict[str, Any]]:
    """The match a record makes and the scorer's answer, or the RecordError: the one memory game
    has no `Match`, only its answer (`webapp.twelve`)."""
    if twelve.of(record):
        return None, twelve.scored(record)
    match = live_match(record)
    return match, match.answer()


def _replayed(game_id: str, version: int, record: dict[str, Any]) -> Snapshot:
    if twelve.of(record):
        said, broken = twelve.replayed(record)
        return Snapshot(game_id, version, record, None, said, error=broken.to_dict(coded=True) if broken else None)
    match, error = replay(record, live=True)  # the last hand as it is being played (`live_match`)
    if error is None and match is not None:
        return Snapshot(game_id, version, record, match, match.answer())
    answer = match.answer() if match is not None else {"hands": [], "totals": [], "winner": None}
    return Snapshot(game_id, version, record, match, answer, error=error.to_dict(coded=True) if error else None)


def snapshot(game: Game) -> Snapshot:
    key = (game.id, game.version)
    return cache.get(key) or cache.put(_replayed(game.id, game.version, record_of(game)))


def handed_out(game: Game, version: int | None = None) -> Explicit:
    """The record as handed out (a download, an export) now or as it stood at `version`: the draws
    a camera did not see written out (`scorer.explicit`). Made once for each version of a match
    (a long record takes a while: anyone with a viewer link may ask for it again and again); shared:
    never change it."""
    at = game.version if version is None else version
    key = (game.id, at)
    found = cache.get_handed(key)
    if found is None:
        record = snapshot(game).record if at == game.version else record_of(game, at)
        found = cache.put_handed(key, explicit_record(record))
    return found


# -- creating ---------------------------------------------------------------------------------


@dataclass
class Created:
    game: Game
    scorer_token: str
    viewer_token: str


#: the longest player name kept (the page's name fields hold as many; `schemas` refuses longer)
NAME_LENGTH = schemas.NAME_LENGTH


def _players(value: object) -> list[str]:
    """The players' names, cleaned, or a 400 (`scorer.schema.check_players`: the words `spinner score` says)."""
    with validate.refused():
        return check_players(value)


#: The sides of the camera's picture a player may sit at (`vision.follow.seats.SIDES`).
SIDES = schema.SIDES


def seating_of(value: object, players: int) -> list[str] | None:
    """A record's `seating`, checked: each player's own side of the camera's picture, or None."""
    with validate.refused():
        return schema.check_seating(value, players)


def create(
    spec: object,
    *,
    who: str,
    source: str = "api",
    history: list[dict[str, Any]] | None = None,
    times: list[Any] | None = None,
) -> Created:
    """A new match from a whole record or just its variant and players (GAME_RECORD.md).

    `history`: the changes that made the record, as an archive carries them (checked by
    `webapp.archive`), with their times (`times`, None for now): kept with their versions, and the
    import comes after them as a change of its own, at the version the match then takes. The
    record as it stood before that version is not kept (`kept_from`)."""
    if not isinstance(spec, dict):
        raise ApiError(400, "a new match is a JSON object: a match record, or at least its variant and players")
    # the check `spinner score` makes, in its words: null fields are left out from here on
    spec = schemas.check_record(spec, "this record")
    record: dict[str, Any] = {key: spec[key] for key in spec if key not in ("title", "private", "who")}
    record["format"] = record.get("format", RECORD_FORMAT)
    record["players"] = _players(record.get("players"))
    if "seating" in record:  # as a seating change checks it: the camera trusts it
        record["seating"] = seating_of(record["seating"], len(record["players"]))
        if record["seating"] is None:
            del record["seating"]
    record.setdefault("options", {})
    record.setdefault("hands", [])
    try:
        if twelve.of(record):
            twelve.scored(record)
        else:
            Match.from_record(record)
    except RecordError as error:
        raise _said(record_error(error, what="this record cannot be scored"), error, record) from None
    hands = record["hands"]
    version = history[-1]["version"] + 1 if history else 1
    scorer_token, viewer_token = new_token(), new_token()
    game = Game(
        id=secrets.token_urlsafe(9),
        title=clean_text(spec.get("title"), 120),
        variant=record["variant"],
        options=record["options"] or {},
        players=record["players"],
        extra={k: v for k, v in record.items() if k not in RECORD_KEYS},
        private=spec.get("private") is True,
        version=version,
        scorer_hash=digest(scorer_token),
        viewer_hash=digest(viewer_token),
    )
    db.session.add(game)
    db.session.flush()
    for k, change in enumerate(history or []):
        at = (times or [])[k] if k < len(times or []) else None
        db.session.add(
            Change(
                game_id=game.id,
                version=change["version"],
                action=change["action"],
                hand=change.get("hand"),
                event=change.get("event"),
                before=change.get("before"),
                after=change.get("after"),
                who=clean_text(change.get("who"), 60),
                why=clean_text(change.get("why"), schemas.REASON_LENGTH),
                source=change.get("source") or "import",
                **({"at": at} if at is not None else {}),
            )
        )
    count = 0
    for number, hand in enumerate(hands):
        db.session.add(
            HandRow(
                game_id=game.id,
                number=number,
                leader=hand.get("leader"),
                deal=hand.get("deal"),
                extra={k: v for k, v in hand.items() if k not in HAND_KEYS} or None,
                created_version=version,
            )
        )
        for position, event in enumerate(hand.get("events", [])):
            db.session.add(
                EventRow(game_id=game.id, hand=number, position=position, body=event, created_version=version)
            )
            count += 1
    action = "import" if hands or history else "create"
    db.session.add(
        Change(
            game_id=game.id,
            version=version,
            action=action,
            who=who,
            source=source,
            after={"variant": game.variant, "players": game.players, "hands": len(hands), "events": count}
            | ({"changes": len(history)} if history else {}),
        )
    )
    db.session.commit()
    return Created(game, scorer_token, viewer_token)


# -- changing ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Guard:
    """A check a change must pass besides the scorer's: `check` is given the match, the snapshot the
    change is made on and the record and `Match` it makes, and raises an ApiError to refuse it.

    `concerns`: a SQL condition on the match's `games` row (a correlated EXISTS, say) that holds
    for every match `check` could refuse a change of; it is read with the row (`Game.guarded`),
    so a match no guard concerns costs no query of the guards' own. None: every match."""

    check: Callable[[Game, Snapshot, dict[str, Any], Match], None]
    concerns: ColumnElement[bool] | None = None


#: The guards every change passes: the tournament's (`tournament.table.hold_result`) keeps a
#: table's recorded result its match's.
GUARDS: list[Guard] = []


def _guarded() -> tuple[ORMOption, ...] | None:
    """The loader option that reads `Game.guarded` with the row; None where there is nothing to
    read (no guard, or one that concerns every match: then every change runs the guards)."""
    return _guarded_by(tuple(GUARDS))


@functools.lru_cache(maxsize=4)
def _guarded_by(guards: tuple[Guard, ...]) -> tuple[ORMOption, ...] | None:
    # made once for the guards there are (the option costs more to make than to use)
    if any(guard.concerns is None for guard in guards):
        return None
    concerns = [guard.concerns for guard in guards if guard.concerns is not None]
    return (with_expression(Game.guarded, or_(*concerns) if concerns else false()),)


@dataclass
class Plan:
    """A change, worked out on the record as it stands: the record it makes and the rows to write."""

    record: dict[str, Any]
    write: Callable[[int], None]
    action: str
    what: str
    hand: int | None = None
    event: int | None = None
    before: Any = None
    after: Any = None
    #: what the change does to the event at (hand, event), for the frames linked to it
    #: (`_relink`): "made" (the frames `made_by` made it), "corrected", or "taken back" (the
    #: events after it in the hand move up one place); "voided": the whole hand taken back;
    #: "restored": a voided hand brought back (its frames linked again to their events)
    moves: str | None = None
    made_by: tuple[int, ...] = ()
    #: "restored": the version of the void it reverses
    voided_at: int | None = None


@dataclass
class Done:
    version: int
    change: Change
    snapshot: Snapshot


def _game_lock(game_id: str) -> threading.RLock:
    with _LOCKS_GUARD:
        return _GAME_LOCKS.setdefault(game_id, threading.RLock())


def in_turn(game_id: str) -> threading.RLock:
    """The match's turn in this process, for a step that reads and then writes beside its changes
    (a tap on a camera's question): taken around both, no other change of the match comes between."""
    return _game_lock(game_id)


def _change(
    game_id: str, expected: int | None, plan_for: Callable[[Game, Snapshot], Plan], *, who: str, why: str, source: str
) -> Done:
    # Changes to one match take turns inside this process, so two phones never race each other
    # into the retry limit; the version check below still settles races between processes.
    with _game_lock(game_id):
        return _change_in_turn(game_id, expected, plan_for, who=who, why=why, source=source)


def _change_in_turn(
    game_id: str, expected: int | None, plan_for: Callable[[Game, Snapshot], Plan], *, who: str, why: str, source: str
) -> Done:
    for attempt in range(RETRIES):
        # The row as this transaction read it already (the scorer's check, just before), if it did;
        # else read now, with the guards' conditions. It may be older than the newest version: the
        # guarded UPDATE below, not this read, keeps two changes from landing on one version, and
        # its rollback expires the row, so a change that lost the race reads it afresh.
        game = db.session.get(Game, game_id, options=_guarded())
        if game is None:
            raise ApiError(404, f"no match {game_id!r} on this server")
        if live.hub.version(game_id) > game.version or (expected is not None and game.version != expected):
            # read before a change this process has seen since (its turn came after another's), or
            # not the version the caller names: read again, so that the change is not made on a
            # version known to be gone, and the caller is told of the newest
            db.session.refresh(game)
        if expected is not None and game.version != expected:
            raise _stale(game, expected, game.version)
        current = snapshot(game)
        plan = plan_for(game, current)
        try:
            match, answer = scored(plan.record)
        except RecordError as error:
            raise _said(record_error(error, what=plan.what), error, plan.record) from None
        # None: not read with the row, so each guard asks for itself; no Match (twelve): no guard's
        if game.guarded is not False and match is not None:
            for guard in GUARDS:
                guard.check(game, current, plan.record, match)
        old = game.version
        new = old + 1
        moved = db.session.execute(
            update(Game).where(Game.id == game_id, Game.version == old).values(version=new, updated_at=now()),
            execution_options={"synchronize_session": False},
        )
        # an UPDATE's Result is a CursorResult at run time; Session.execute's stub says only Result
        if moved.rowcount != 1:  # type: ignore[attr-defined]  # somebody else's change landed in between
            db.session.rollback()
            if expected is not None:
                raise _stale(game, expected, old + 1)
            time.sleep(random.uniform(0, 0.005 * (attempt + 1)))  # another process: let it finish
            continue
        plan.write(new)
        _relink(game_id, plan, new, who=who, why=why)
        change = Change(
            game_id=game_id,
            version=new,
            action=plan.action,
            hand=plan.hand,
            event=plan.event,
            before=plan.before,
            after=plan.after,
            who=who,
            why=why,
            source=source,
        )
        db.session.add(change)
        try:
            db.session.flush()
            # Kept out of the commit's expiry: every value of the change's row is known here (its
            # id came back from the INSERT), and the answer shows it; expired, reading it would be
            # one more SELECT per change.
            db.session.expunge(change)
            fanout.announce(db.session, game_id, new)  # sent by PostgreSQL when this commits
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            if expected is not None:
                raise _stale(game, expected, new) from None
            time.sleep(random.uniform(0, 0.005 * (attempt + 1)))
            continue
        made = _made_by(plan.action, current.last_change)
        snap = cache.put(Snapshot(game_id, new, plan.record, match, answer, last_change=made))
        live.publish(game_id, new)
        return Done(new, change, snap)
    raise ApiError(409, "the match is changing too fast to keep up: nothing was recorded; try again")


def _made_by(action: str, before: str | None) -> str | None:
    """`Snapshot.last_change` of a version `action` made on one whose own was `before`."""
    if action != "hand":
        return action
    if before is None:  # whether a void came just before is not known here
        return None
    return "hand after void" if before == "void" else "hand"


#: How many of the changes made since the version a refused change names its answer lists.
STALE_CHANGES = 5


def _stale(game: Game, expected: int, now: int) -> Stale:
    """The refusal of a change made on `expected` where the match is at `now`: with the changes
    made since (`changes`, the newest few) and, for the page, what they did in players' words
    (`say`: "Another phone recorded Cruz played 5-6 on the west first..."), so that a tap meant
    for a turn another phone recorded meanwhile is said to be refused, and why."""
    from . import wording

    stale = Stale(expected, now)
    stale.extra["code"] = "changed"
    since = list(
        db.session.scalars(
            select(Change)
            .where(Change.game_id == game.id, Change.version > expected)
            .order_by(Change.version.desc())
            .limit(STALE_CHANGES)
        )
    )[::-1]
    stale.extra["changes"] = [change_fields(c) for c in since]
    said = wording.say_stale(since, {"players": game.players, "variant": game.variant})
    if said:
        stale.extra["say"] = said
    return stale


def change_fields(change: Change) -> dict[str, Any]:
    """A change's fields as the API shows them (`api.change_json` adds when it was made)."""
    return {
        "version": change.version,
        "action": change.action,
        "hand": change.hand,
        "event": change.event,
        "before": change.before,
        "after": change.after,
        "who": change.who,
        "why": change.why,
        "source": change.source,
    }


def _relink(game_id: str, plan: Plan, version: int, *, who: str, why: str) -> None:
    """Keep each kept frame's link to the event it made right, in the change's own transaction:
    the one place where events are added, corrected, removed or taken back. A frame whose event is
    taken back (an undo, a removal) keeps no index (its `link` says what took it back, and where
    it stood), and the frames of the events after it move up with them; a corrected event's
    frames stay at its place, their `link` saying so; a new event's frames (`made_by`) name it."""
    if plan.moves == "voided" and plan.hand is not None:  # the whole hand taken back: its frames keep no event
        said = {"action": plan.action, "version": version, "hand": plan.hand, "who": who, "why": why}
        for frame in db.session.scalars(select(Frame).where(Frame.game_id == game_id, Frame.hand == plan.hand)):
            if frame.event is not None:
                frame.link = {"state": "taken back", **said, "event": frame.event}
                frame.event = None
        return
    if plan.moves == "restored" and plan.hand is not None:  # a voided hand back: its frames' events with it
        for frame in db.session.scalars(select(Frame).where(Frame.game_id == game_id, Frame.hand == plan.hand)):
            link = frame.link or {}
            if frame.event is None and link.get("action") == "void" and link.get("version") == plan.voided_at:
                frame.event, frame.link = link.get("event"), None
        return
    if plan.moves is None or plan.hand is None or plan.event is None:
        return
    h, e = plan.hand, plan.event
    if plan.moves == "made":
        if plan.made_by:
            made = select(Frame).where(Frame.game_id == game_id, Frame.id.in_(plan.made_by))
            for frame in db.session.scalars(made):
                frame.hand, frame.event, frame.link = h, e, None
        return
    said = {"action": plan.action, "version": version, "event": e, "who": who, "why": why}
    linked = db.session.scalars(select(Frame).where(Frame.game_id == game_id, Frame.hand == h, Frame.event >= e)).all()
    for frame in linked:
        if frame.event == e:
            frame.link = {"state": "corrected" if plan.moves == "corrected" else "taken back", **said}
            if plan.moves == "taken back":
                frame.event = None
        elif plan.moves == "taken back":
            frame.event = (frame.event or 0) - 1


def _said(refusal: ApiError, error: RecordError, record: dict[str, Any]) -> ApiError:
    """The refusal with the engine's code and params, and the page's words for players (`say`)."""
    from . import wording

    refusal.extra.update(code=error.code, params=error.params)
    refusal.extra["say"] = wording.say_refusal(error.to_dict(coded=True), record)
    return refusal


def _copy(record: dict[str, Any]) -> dict[str, Any]:
    # Plans change a copy: the snapshot's record is shared by every thread.
    return json.loads(json.dumps(record))


def _check_event(event: object) -> dict[str, Any]:
    if not isinstance(event, dict):
        raise ApiError(
            400, 'an event is a JSON object such as {"type": "play", "seat": 0, "tile": "6-6"} (GAME_RECORD.md)'
        )
    event = schemas.check_event(event)  # null fields left out, as in an imported record
    if len(json.dumps(event)) > MAX_EVENT_BYTES:
        raise ApiError(413, f"an event is at most {MAX_EVENT_BYTES} bytes of JSON")
    event = dict(event)
    if "reason" in event:  # as long as the schema allows (`schemas.REASON_LENGTH`): kept whole
        event["reason"] = clean_text(event["reason"], schemas.REASON_LENGTH)
    return event


def _event_rows(game_id: str, hand: int) -> list[EventRow]:
    return list(
        db.session.scalars(_standing(EventRow, game_id, None).where(EventRow.hand == hand).order_by(EventRow.position))
    )


def _locate(record: dict[str, Any], hand: object, event: object) -> tuple[int, int]:
    hands = record["hands"]
    if not isinstance(hand, int) or isinstance(hand, bool) or not 0 <= hand < len(hands):
        raise ApiError(404, f"no hand {hand!r} in this match (it has {len(hands)})")
    events = hands[hand]["events"]
    if not isinstance(event, int) or isinstance(event, bool) or not 0 <= event < len(events):
        raise ApiError(404, f"no event {event!r} in hand {hand} (it has {len(events)})")
    return hand, event


def start_hand(
    game_id: str, leader: object, deal: object, expected: int | None, *, who: str, why: str = "", source: str = "api"
) -> Done:
    schemas.check_hand({"leader": leader, "deal": deal}, "the new hand")

    def plan(game: Game, snap: Snapshot) -> Plan:
        record = _copy(snap.record)
        number = len(record["hands"])
        hand: dict[str, Any] = {"events": []}
        if leader is not None:
            hand["leader"] = leader
        if deal is not None:
            hand["deal"] = deal
        record["hands"].append(hand)

        def write(version: int) -> None:
            db.session.add(HandRow(game_id=game.id, number=number, leader=leader, deal=deal, created_version=version))

        return Plan(
            record,
            write,
            "hand",
            f"hand {number} cannot start",
            hand=number,
            after={k: v for k, v in hand.items() if k != "events"},
        )

    return _change(game_id, expected, plan, who=who, why=why, source=source)


def _flag_hand(game: Game, snap: Snapshot, h: int, flag: str, action: str, refused: str) -> Plan:
    """The plan of a change that sets `flag` true on hand `h` (its row replaced by one that says
    so): `counts_open`'s `unseen_draws`, `lead_stands`'s ruling."""
    record = _copy(snap.record)
    before = {k: v for k, v in record["hands"][h].items() if k != "events"}
    record["hands"][h][flag] = True

    def write(version: int) -> None:
        row = db.session.scalars(_standing(HandRow, game.id, None).where(HandRow.number == h)).one()
        row.removed_version = version
        db.session.add(
            HandRow(
                game_id=game.id,
                number=h,
                leader=row.leader,
                deal=row.deal,
                extra={**(row.extra or {}), flag: True},
                created_version=version,
            )
        )

    return Plan(record, write, action, refused, hand=h, before=before, after={**before, flag: True})


def counts_open(game_id: str, expected: int | None, *, who: str, why: str = "", source: str = "api") -> Done | None:
    """The current hand's draws are not all seen (a camera follows it): its record says
    `"unseen_draws": true`, so its tile counts are only the least each seat holds and no count
    ends it that an unseen draw could change (scorer/hand.py). Only an observed hand of a game
    that draws, not over; None where there is nothing to change (already open, or no such hand)."""

    def plan(game: Game, snap: Snapshot) -> Plan:
        if not opens_counts(snap):
            raise _Unchanged
        h = len(snap.record["hands"]) - 1
        return _flag_hand(game, snap, h, "unseen_draws", "counts_open", f"hand {h} cannot keep its counts open")

    try:
        return _change(game_id, expected, plan, who=who, why=why, source=source)
    except _Unchanged:
        return None


class _Unchanged(Exception):
    """`counts_open` has nothing to change."""


def opens_counts(snap: Snapshot) -> bool:
    """Whether a camera following the current hand keeps its tile counts open (`counts_open`):
    an observed hand of a game that draws, under way, whose counts are not open yet."""
    hands = snap.record.get("hands") or []
    hand = snap.match.current if snap.match is not None else None
    return bool(
        hands
        and hand is not None
        and not hand.over
        and not hand.unseen_draws
        and hands[-1].get("deal") is None
        and hand.rules.variant.leftovers == "boneyard"
    )


def append_event(
    game_id: str,
    event: object,
    expected: int | None,
    *,
    who: str,
    why: str = "",
    source: str = "api",
    made_by: tuple[int, ...] = (),
) -> Done:
    """Add `event` at the end of the current hand; `made_by`: the kept frames that made it, linked
    to it in the same transaction (`Frame.event`)."""
    event = _check_event(event)

    def plan(game: Game, snap: Snapshot) -> Plan:
        record = _copy(snap.record)
        if not record["hands"]:
            raise ApiError(409, "no hand has started: start one first (POST /api/games/ID/hands)")
        h = len(record["hands"]) - 1
        e = len(record["hands"][h]["events"])
        # a flip of twelve sent without its time: the server's clock (webapp.twelve)
        added = twelve.timed(game.id, record, snap.answer, event) if twelve.of(record) else event
        record["hands"][h]["events"].append(added)

        def write(version: int) -> None:
            # After the hand's last row, taken back ones too, worked out by the INSERT itself (a SQL
            # expression in the flush): no SELECT of its own.
            after_last = select(func.coalesce(func.max(EventRow.position) + 1, 0)).where(
                EventRow.game_id == game.id, EventRow.hand == h
            )
            db.session.add(
                EventRow(
                    game_id=game.id, hand=h, position=after_last.scalar_subquery(), body=added, created_version=version
                )
            )

        return Plan(record, write, "event", "", hand=h, event=e, after=added, moves="made", made_by=made_by)

    return _change(game_id, expected, plan, who=who, why=why, source=source)


def correct_event(
    game_id: str,
    hand: object,
    index: object,
    event: object,
    expected: int | None,
    *,
    who: str,
    why: str,
    source: str = "api",
    disputed: tuple[int, dict[str, Any]] | None = None,
) -> Done:
    """Put `event` in place of the one at (hand, index). `disputed`: the version of the dispute
    this correction settles and the event it disputed, which must be the one there now."""
    event = _check_event(event)
    if not why:
        raise ApiError(400, "a correction needs its reason (why)")

    def plan(game: Game, snap: Snapshot) -> Plan:
        record = _copy(snap.record)
        if disputed is not None:
            _still_disputed(record, hand, index, *disputed)
        h, e = _locate(record, hand, index)
        before = record["hands"][h]["events"][e]
        # a flip of twelve corrected without its time keeps the time it was recorded at
        put = twelve.kept_time(record, before, event)
        record["hands"][h]["events"][e] = put

        def write(version: int) -> None:
            row = _event_rows(game.id, h)[e]
            row.removed_version = version
            db.session.add(EventRow(game_id=game.id, hand=h, position=row.position, body=put, created_version=version))

        return Plan(
            record,
            write,
            "correct",
            f"correcting hand {h}, event {e} to {_words(put)} would break a rule",
            hand=h,
            event=e,
            before=before,
            after=put,
            moves="corrected",
        )

    return _change(game_id, expected, plan, who=who, why=why, source=source)


def correct_taking_back(
    game_id: str,
    hand: object,
    index: object,
    event: object,
    take_back_from: object,
    expected: int | None,
    *,
    who: str,
    why: str,
    source: str = "api",
) -> Done:
    """Correct the event at (hand, index) where a later one no longer fits it: the events of the
    hand from `take_back_from` on (after `index`) are taken back first, each a removal of its own
    in the history, then the correction is made. All or nothing as far as the rules go: the record
    they leave is checked before anything is written, so a refusal changes nothing."""
    event = _check_event(event)
    if not why:
        raise ApiError(400, "a correction needs its reason (why)")
    with _game_lock(game_id):
        game = get_game(game_id, changing=True)
        snap = snapshot(game)
        if expected is not None and snap.version != expected:
            raise _stale(game, expected, snap.version)
        record = _copy(snap.record)
        h, e = _locate(record, hand, index)
        events = record["hands"][h]["events"]
        if (
            not isinstance(take_back_from, int)
            or isinstance(take_back_from, bool)
            or not e < take_back_from < len(events)
        ):
            raise ApiError(
                400,
                f"take_back_from is the first event to take back, after the one corrected ({e}) "
                f"and before the end of the hand ({len(events)} event{'' if len(events) == 1 else 's'}), not {take_back_from!r}",
            )
        last = len(events) - 1
        del events[take_back_from:]
        events[e] = twelve.kept_time(record, events[e], event)  # as correct_event puts it
        try:
            scored(record)
        except RecordError as error:
            what = f"correcting hand {h}, event {e} to {_words(event)} would break a rule"
            raise _said(record_error(error, what=what), error, record) from None
        version = snap.version
        taken = f"taken back to correct hand {h + 1}, play {e + 1}: {why}"
        for i in range(last, take_back_from - 1, -1):
            version = remove_event(game_id, h, i, version, who=who, why=taken, source=source).version
        return correct_event(game_id, h, e, event, version, who=who, why=why, source=source)


def remove_event(
    game_id: str,
    hand: object,
    index: object,
    expected: int | None,
    *,
    who: str,
    why: str,
    source: str = "api",
    action: str = "remove",
) -> Done:
    def plan(game: Game, snap: Snapshot) -> Plan:
        record = _copy(snap.record)
        h, e = _locate(record, hand, index)
        before = record["hands"][h]["events"].pop(e)

        def write(version: int) -> None:
            _event_rows(game.id, h)[e].removed_version = version

        return Plan(
            record,
            write,
            action,
            f"removing hand {h}, event {e} ({_words(before)}) would break a rule",
            hand=h,
            event=e,
            before=before,
            moves="taken back",
        )

    return _change(game_id, expected, plan, who=who, why=why, source=source)


def void_hand(game_id: str, hand: object, expected: int | None, *, who: str, why: str, source: str = "api") -> Done:
    """The last hand voided, to be dealt again (a `cross` lead proved wrong after the hand went on,
    a misdeal): the hand and every event of it taken back as one change, whose `before` keeps the
    hand as it was; the match stands as before the hand, and the next hand starts afresh. Only the
    last hand: the hands after one decide who leads, so an earlier one is not taken out from under them."""
    if not why:
        raise ApiError(400, "dealing a hand again needs its reason (why)")

    def plan(game: Game, snap: Snapshot) -> Plan:
        record = _copy(snap.record)
        h = _locate_hand(record, hand)
        if h != len(record["hands"]) - 1:
            raise ApiError(
                409,
                f"only the last hand ({len(record['hands']) - 1}) can be dealt again: "
                f"the hands after hand {h} follow from it",
            )
        before = record["hands"].pop()

        def write(version: int) -> None:
            for row in _event_rows(game.id, h):
                row.removed_version = version
            row = db.session.scalars(_standing(HandRow, game.id, None).where(HandRow.number == h)).one()
            row.removed_version = version

        return Plan(
            record, write, "void", f"dealing hand {h} again would break a rule", hand=h, before=before, moves="voided"
        )

    return _change(game_id, expected, plan, who=who, why=why, source=source)


def lead_stands(game_id: str, hand: object, expected: int | None, *, who: str, why: str, source: str = "api") -> Done:
    """The table lets the hand's lead stand, though later plays prove it broke the rule of who
    leads (`cross`): the hand record says `"lead_stands": true` (a house ruling a reader of
    GAME_RECORD.md may ignore) and the scorer no longer judges that lead. One change of the history."""
    if not why:
        raise ApiError(400, "letting a lead stand needs its reason (why)")

    def plan(game: Game, snap: Snapshot) -> Plan:
        h = _locate_hand(snap.record, hand)
        if snap.record["hands"][h].get("lead_stands") is True:
            raise ApiError(409, f"hand {h}'s lead stands already")
        return _flag_hand(
            game, snap, h, "lead_stands", "lead_stands", f"letting hand {h}'s lead stand would break a rule"
        )

    return _change(game_id, expected, plan, who=who, why=why, source=source)


def _last_changes(game_id: str, version: int, count: int) -> list[Change]:
    """The match's `count` newest changes up to `version`, newest first."""
    query = select(Change).where(Change.game_id == game_id, Change.version <= version)
    return list(db.session.scalars(query.order_by(Change.version.desc()).limit(count)))


def _undoing_change(game: Game, snap: Snapshot) -> Plan | None:
    """Undo's plan where the last change is one that an event's undo would not reverse: a hand
    voided (or voided and started afresh, with no event yet), or a lead let stand. None otherwise."""
    found = _reversing(game.id, snap)
    if found is None:
        return None
    what, change = found
    h = change.hand
    assert h is not None
    if what == "lead_stands":
        refused = f"taking back the ruling on hand {h}'s lead would break a rule"
        return _unflag_hand(game, snap, h, "lead_stands", refused)
    return _unvoid(game, snap, change, fresh=what == "void, dealt again")


def _reversing(game_id: str, snap: Snapshot) -> tuple[str, Change] | None:
    """What Undo reverses where it is not an event or a hand's start: ("void", the void) where the
    last change voided the last hand, ("void, dealt again", the void) where the hand was started
    afresh since with no event yet, ("lead_stands", the ruling) where the last change let a lead stand."""
    if snap.last_change is not None and snap.last_change not in ("void", "hand after void", "lead_stands"):
        return None  # known without asking the history
    hands = snap.record["hands"]
    last = _last_changes(game_id, snap.version, 2)
    if not last:
        return None
    if last[0].action == "void" and last[0].hand == len(hands):
        return "void", last[0]
    if (
        len(last) == 2
        and last[0].action == "hand"
        and last[1].action == "void"
        and last[0].hand == last[1].hand == len(hands) - 1
        and not hands[-1]["events"]
    ):
        return "void, dealt again", last[1]
    h = last[0].hand
    if last[0].action == "lead_stands" and isinstance(h, int) and 0 <= h < len(hands):
        if hands[h].get("lead_stands") is True:
            return "lead_stands", last[0]
    return None


def undo_reverses(snap: Snapshot) -> bool:
    """Whether Undo reverses a void or a ruling (`_reversing`), for the pad's Undo where the record
    alone shows nothing to take back (a match whose only hand was voided and dealt again)."""
    return _reversing(snap.game_id, snap) is not None


def _unvoid(game: Game, snap: Snapshot, void: Change, *, fresh: bool) -> Plan:
    """Undo of `void`: the hand it voided brought back as it was, its rows written again as new
    ones; `fresh`: the hand started afresh in its place (no event yet) is taken back with it."""
    h = void.hand
    assert h is not None
    hand_row = db.session.scalars(
        select(HandRow).where(HandRow.game_id == game.id, HandRow.number == h, HandRow.removed_version == void.version)
    ).one_or_none()
    if hand_row is None:  # voided before the match was imported here: its rows are not kept
        raise ApiError(409, f"hand {h} was voided before this match came to this server: it cannot be brought back")
    event_rows = list(
        db.session.scalars(
            select(EventRow)
            .where(EventRow.game_id == game.id, EventRow.hand == h, EventRow.removed_version == void.version)
            .order_by(EventRow.position)
        )
    )
    record = _copy(snap.record)
    before = None
    if fresh:
        started = record["hands"].pop()
        before = {k: v for k, v in started.items() if k != "events"}
    hand: dict[str, Any] = dict(hand_row.extra or {})
    if hand_row.leader is not None:
        hand["leader"] = hand_row.leader
    if hand_row.deal is not None:
        hand["deal"] = hand_row.deal
    hand["events"] = [stored_event(row.body) for row in event_rows]
    record["hands"].append(_copy(hand))

    def write(version: int) -> None:
        if fresh:
            row = db.session.scalars(_standing(HandRow, game.id, None).where(HandRow.number == h)).one()
            row.removed_version = version
        db.session.add(
            HandRow(
                game_id=game.id,
                number=h,
                leader=hand_row.leader,
                deal=hand_row.deal,
                extra=hand_row.extra,
                created_version=version,
            )
        )
        for row in event_rows:
            db.session.add(
                EventRow(game_id=game.id, hand=h, position=row.position, body=row.body, created_version=version)
            )

    return Plan(
        record,
        write,
        "undo",
        f"bringing back hand {h} as it was played would break a rule",
        hand=h,
        before=before,
        after=hand,
        moves="restored",
        voided_at=void.version,
    )


def _unflag_hand(game: Game, snap: Snapshot, h: int, flag: str, refused: str) -> Plan:
    """Undo of a change that set `flag` on hand `h` (`_flag_hand`): its row replaced by one without it."""
    record = _copy(snap.record)
    before = {k: v for k, v in record["hands"][h].items() if k != "events"}
    del record["hands"][h][flag]

    def write(version: int) -> None:
        row = db.session.scalars(_standing(HandRow, game.id, None).where(HandRow.number == h)).one()
        row.removed_version = version
        extra = {k: v for k, v in (row.extra or {}).items() if k != flag}
        db.session.add(
            HandRow(
                game_id=game.id,
                number=h,
                leader=row.leader,
                deal=row.deal,
                extra=extra or None,
                created_version=version,
            )
        )

    after = {k: v for k, v in before.items() if k != flag}
    return Plan(record, write, "undo", refused, hand=h, before=before, after=after)


def undo(game_id: str, expected: int | None, *, who: str, why: str = "", source: str = "api") -> Done:
    """Take back the last thing recorded: the last event, or a hand started with no event yet. Where
    the last change is a hand voided (`void_hand`), or that hand's fresh start with no event yet
    (the pad deals again at once), the voided hand comes back as it was; where it is a ruling that
    lets a lead stand (`lead_stands`), the ruling goes."""

    def plan(game: Game, snap: Snapshot) -> Plan:
        taken = _undoing_change(game, snap)
        if taken is not None:
            return taken
        record = _copy(snap.record)
        if not record["hands"]:
            raise ApiError(409, "nothing to undo: no hand has started")
        h = len(record["hands"]) - 1
        events = record["hands"][h]["events"]
        if events:
            e = len(events) - 1
            before = events.pop()

            def write(version: int) -> None:
                _event_rows(game.id, h)[e].removed_version = version

            return Plan(
                record,
                write,
                "undo",
                f"undoing hand {h}, event {e} would break a rule",
                hand=h,
                event=e,
                before=before,
                moves="taken back",
            )
        hand = record["hands"].pop()

        def write_hand(version: int) -> None:
            row = db.session.scalars(_standing(HandRow, game.id, None).where(HandRow.number == h)).one()
            row.removed_version = version

        return Plan(
            record,
            write_hand,
            "undo",
            f"undoing the start of hand {h} would break a rule",
            hand=h,
            before={k: v for k, v in hand.items() if k != "events"},
        )

    return _change(game_id, expected, plan, who=who, why=why or "undo", source=source)


def note(
    game_id: str,
    action: str,
    hand: object,
    index: object,
    expected: int | None,
    *,
    who: str,
    why: str,
    settles: int | None = None,
    source: str = "api",
) -> Done:
    """A dispute marked on an event (or a hand), or settled: history only, the record stays as it is."""
    if not why:
        raise ApiError(400, f"a {action} needs its reason (why)")
    if hand is None and index is not None:  # else the event named would be dropped, and the dispute be of nothing
        raise ApiError(400, f"a {action} of an event names its hand too: send hand (from 0) with event")

    def plan(game: Game, snap: Snapshot) -> Plan:
        if settles is not None:  # checked again on the version it is written on: another process may have settled it
            _not_settled(game.id, settles)
        h: int | None = None
        e: int | None = None
        if settles is not None:  # the dispute's own place, even where its event was taken back since
            h, e = (hand if isinstance(hand, int) else None), (index if isinstance(index, int) else None)
        elif hand is not None:
            h, e = _locate(snap.record, hand, index) if index is not None else (_locate_hand(snap.record, hand), None)
        after = {"settles": settles} if settles is not None else None
        # a dispute keeps the event as it was: the place may hold another one later (an undo, a play)
        before = snap.record["hands"][h]["events"][e] if action == "dispute" and e is not None else None
        return Plan(snap.record, lambda version: None, action, action, hand=h, event=e, before=before, after=after)

    return _change(game_id, expected, plan, who=who, why=why, source=source)


def settle(
    game_id: str,
    version: int,
    event: object,
    expected: int | None,
    *,
    who: str,
    why: str,
    source: str = "api",
    correct: bool = False,
) -> Done:
    """Settle the dispute opened at `version`, first correcting the disputed event when the table agreed on one.

    It takes its turn with the match's other changes from the check on: two taps on Settle at once
    settle (and correct) once, and the second is told the dispute is settled already."""
    with _game_lock(game_id):
        opened = next((c for c in history(game_id, ("dispute",)) if c.version == version), None)
        if opened is None:
            raise ApiError(404, f"no dispute was opened at version {version}")
        _not_settled(game_id, version)
        if correct:
            if opened.event is None:
                raise ApiError(400, "this dispute is about a whole hand: correct one of its events instead")
            # a dispute opened before disputes kept their event says nothing to hold the place to
            was = (version, opened.before) if isinstance(opened.before, dict) else None
            done = correct_event(
                game_id, opened.hand, opened.event, event, expected, who=who, why=why, source=source, disputed=was
            )
            expected = done.version
        return note(
            game_id, "settle", opened.hand, opened.event, expected, who=who, why=why, settles=version, source=source
        )


def _still_disputed(record: dict[str, Any], hand: object, index: object, version: int, was: dict[str, Any]) -> None:
    """Refuse to correct the event at (hand, index) unless it is the one the dispute opened at
    `version` disputed: it may have been taken back since, and another play recorded there."""
    hands = record["hands"]
    events = hands[hand]["events"] if isinstance(hand, int) and 0 <= hand < len(hands) else []
    now = events[index] if isinstance(index, int) and 0 <= index < len(events) else None
    if now == was:
        return
    there = f"{_words(now)} is there now" if now is not None else "it was taken back"
    raise ApiError(
        409,
        f"the dispute opened at version {version} is about hand {hand}, event {index} as it was then "
        f"({_words(was)}), and {there}: nothing was corrected; settle the dispute without a correction, "
        "and correct the event there by itself if need be",
    )


def _not_settled(game_id: str, version: int) -> None:
    if any((c.after or {}).get("settles") == version for c in history(game_id, ("settle",))):
        raise ApiError(409, f"the dispute opened at version {version} is settled already")


def open_disputes(game_id: str) -> list[Change]:
    """Disputes not settled yet, oldest first."""
    changes = history(game_id, ("dispute", "settle"))
    settled = {(c.after or {}).get("settles") for c in changes if c.action == "settle"}
    return [c for c in changes if c.action == "dispute" and c.version not in settled]


def _locate_hand(record: dict[str, Any], hand: object) -> int:
    if not isinstance(hand, int) or isinstance(hand, bool) or not 0 <= hand < len(record["hands"]):
        raise ApiError(404, f"no hand {hand!r} in this match")
    return hand


def kept_from(game_id: str) -> int:
    """The first version whose record this server keeps: the match's import, where it came with
    the history of the versions before it (`create`), else 1."""
    imported = db.session.scalar(
        select(func.max(Change.version)).where(Change.game_id == game_id, Change.action == "import")
    )
    return imported or 1


def history(game_id: str, actions: tuple[str, ...] | None = None) -> list[Change]:
    """The match's changes, oldest first; only those of `actions` where given (every board drawn
    looks for open disputes, and a match's whole history grows with every play)."""
    query = select(Change).where(Change.game_id == game_id)
    if actions is not None:
        query = query.where(Change.action.in_(actions))
    return list(db.session.scalars(query.order_by(Change.version)))


def _words(event: dict[str, Any]) -> str:
    """An event in a few words, for messages and the history."""
    kind = event.get("type")
    seat = event.get("seat")
    who = f"seat {seat}" if seat is not None else (f"team {event.get('team')}" if "team" in event else "")
    if kind == "play":
        end = f" on the {event['end']}" if isinstance(event.get("end"), str) else ""
        return f"{who} playing {event.get('tile')}{end}"
    if kind == "pass":
        return f"{who} passing"
    if kind == "draw":
        return f"{who} drawing {event.get('tile') or event.get('count') or 'a tile'}"
    if kind == "reveal":
        return f"{who} showing {', '.join(map(str, event.get('tiles') or [])) or 'no tiles'}"
    if kind == "pips":
        pips = event.get("pips")
        return f"{who} counting {pips} pip{'' if pips == 1 else 's'}"
    if kind == "adjust":
        return f"an adjustment of {event.get('points')} for {who}"
    if kind == "flip":
        return f"turning {' and '.join(map(str, event.get('tiles') or [])) or 'no tiles'}"
    return f"the event {json.dumps(event)[:80]}"


words = _words
