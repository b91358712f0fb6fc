"""One match's table followed by a camera whose record players keep too (the companion page).

`spinner watch` owns its record: only its follower writes it. The page's record is also written
by players (the pad, undo, corrections, answers to the camera's questions), its frames arrive one
by one and are read later (or skipped for a newer one), and a question may stay open while the
camera goes on. `Table` keeps one `Follower` in step with all that, so that the page decides
plays by the same rules as `spinner watch`:

- `see(thumb)`: a frame as it arrives, in the order the camera sent them. The motion test of
  `vision.follow.motion` (no model) says whether the table is moving, still, or changed since the
  follower last settled it. A change whose frame is never read (skipped for a newer frame) is
  owed to the next still frame read.
- `sync(record)`: the stored record, before each decision. Events added since (a question
  answered "yes", a play scored on the pad) reach the follower as `confirm` or `scored`; any other
  difference (an undo, a correction, a new hand) rebuilds it from the record, its tiles looked
  for in the next frames where they lie.
- `frame(reading, look)`: what the follower makes of a read frame (and of its pixels, where
  given: a back gone from the boneyard is a draw only where the table shows at its place): a
  play, a question with its candidates, or nothing. A photo taken on purpose (no `look`) is a change of its own.
- `decline()`: a player answered a question "no".

A play whose seat nothing settles (no arm seen, a pass possible) is followed as the turn seat's and
kept, with every play after it, until a player answers the one question for all of them (did anyone
pass from 4-5 on?): `Follower.run_question`. The answer reaches the record as those plays with
their seats, and `sync` gives them to the follower (`Follower.settle_run`); any other change of the
record drops them (`dropped`), and the table is followed from the record again.

Pure: no web framework, no database, no clock. The caller stores what it answers and serialises
calls (`lock`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from scorer.errors import RecordError
from scorer.tiles import Tile
from vision.follow.follower import Follower, Outcome, seating_of
from vision.follow.motion import Motion, MotionDetector, Region
from vision.follow.seats import ArmWatch, SeatKeeper
from vision.read.reading import HalfReading, Reading, TileReading

#: still frames in a row before the table counts as settled: the page sends a frame a second
SETTLE = 2


@dataclass(frozen=True, slots=True)
class Look:
    """What the motion test saw in one live frame as it arrived."""

    motion: Motion
    #: the table has been still for `SETTLE` frames in a row: not an arm caught over it
    settled: bool
    thumb: np.ndarray = field(repr=False)


def _key(event: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two events the same event (a stored one may carry more: who, why...)."""
    return (event.get("type"), event.get("seat"), event.get("tile"), event.get("end"), event.get("tiles"))


def _heads(record: dict[str, Any]) -> list[tuple[Any, Any, bool]]:
    """What the record says of each hand besides its events (who leads, the deal, whether its
    draws are all seen)."""
    return [(h.get("leader"), h.get("deal"), h.get("unseen_draws") is True) for h in record.get("hands") or []]


def _opened(before: list[tuple[Any, Any, bool]], after: list[tuple[Any, Any, bool]]) -> bool:
    """Whether the record's only change of heads is the last hand's counts kept open
    (`unseen_draws`, as the page's camera starts following a hand of a game that draws)."""
    return (
        len(before) == len(after) > 0
        and before[:-1] == after[:-1]
        and before[-1][:2] == after[-1][:2]
        and not before[-1][2]
        and after[-1][2]
    )


class Table:
    """One match's camera: its motion test and its follower, kept in step with the record."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.lock = threading.RLock()
        self.detector = MotionDetector(settle=SETTLE)
        #: the arms that reach over the table between reads: who laid a tile (`seats`)
        self.arms = ArmWatch(settle=SETTLE)
        self.follower = _following(record)
        # The camera's first look at this match: a tile the record does not place is a play (or
        # asked about), never the table's start: it may have been started mid-hand. (Once
        # rebuilt from the record, after an undo or a correction, the table as it then is, is
        # the start: the tile of an undone play is not proposed again.)
        self.follower.first_look_new = True
        self.heads = _heads(record)
        #: the seating the record says (`seating_of`), which the follower was given
        self.seating = seating_of(record)
        #: a change the motion test reported whose frame the follower has not seen yet
        #: (regions, again): the next still frame read shows it
        self.owed: tuple[tuple[Region, ...] | None, bool] | None = (None, False)
        #: the caller's name for the frame whose question is open (the page's frame id)
        self.asked: Any = None
        self._yes = False
        #: plays kept to confirm were dropped when the follower was rebuilt from the record (a
        #: play scored on the pad, an undo): the caller says so to their frames and clears it
        self.dropped = False

    # -- frames as they arrive ------------------------------------------------------------------

    def see(self, thumb: np.ndarray, frame_size: tuple[int, int] = (0, 0), still: bool | None = None) -> Look:
        """A live frame's thumbnail (`vision.follow.motion.thumbnail`), as it arrives. `still`:
        whether the camera saw the table still just before taking it (`MotionDetector.update`)."""
        with self.lock:
            if frame_size[0]:
                self.detector.frame_size = frame_size
            motion = self.detector.update(thumb, still)
            arm = self.arms.update(thumb, still)
            if motion.state == "change":
                owed = self.owed
                if owed is None:
                    self.owed = (motion.regions, motion.again)
                else:  # a change not read yet: the new one adds its regions to it
                    regions = None if owed[0] is None else owed[0] + motion.regions
                    self.owed = (regions, owed[1] and motion.again)
            elif arm is not None and arm.changed and self.owed is None:
                # an arm left the table changed by the arm watch's finer test, where the stillness
                # test saw too few pixels change (a small tile on a busy cloth): the frame is read
                # as a change, so that the tile is played, or the change asked about
                self.owed = (None, False)
            settled = motion.state in ("settled", "change") or (
                motion.state == "still" and self.detector.still_run >= self.detector.settle - 1
            )
            return Look(motion, settled, thumb)

    # -- the record -----------------------------------------------------------------------------

    def sync(self, record: dict[str, Any]) -> str:
        """Bring the follower to the stored record. Answers what was done: "same", "added"
        (events added since, given to the follower) or "rebuilt"."""
        with self.lock:
            seating = seating_of(record)
            if seating != self.seating:  # the players said where they sit (or took it back)
                self.seating = seating
                self.follower.seats = SeatKeeper.of(len(self.follower.match.players), seating)
            mine = {k: v for k, v in self.follower.record().items() if k != "seating"}
            hands, theirs = mine["hands"], record.get("hands") or []
            head = {k: record.get(k) for k in ("variant", "players")}
            same_head = head == {k: mine.get(k) for k in ("variant", "players")} and (record.get("options") or {}) == (
                mine.get("options") or {}
            )
            if (
                same_head
                and len(hands) == len(theirs)
                and all(
                    [_key(e) for e in a["events"]] == [_key(e) for e in b.get("events") or []]
                    for a, b in zip(hands[:-1], theirs[:-1], strict=True)
                )
                and hands
            ):
                done = [_key(e) for e in hands[-1]["events"]]
                stored = list(theirs[-1].get("events") or [])
                heads = _heads(record)
                if [_key(e) for e in stored[: len(done)]] == done and _opened(self.heads, heads):
                    # the camera follows this hand: its counts stay open, the follower goes on
                    self.follower.open_counts()
                    self.heads = heads
                if [_key(e) for e in stored[: len(done)]] == done and heads == self.heads:
                    extra = stored[len(done) :]
                    if not extra:
                        return "same"
                    try:
                        self._add(extra)
                        return "added"
                    except (RecordError, ValueError, KeyError):
                        pass  # the follower cannot take them as they come: start from the record
            self.rebuild(record)
            return "rebuilt"

    def rebuild(self, record: dict[str, Any]) -> None:
        """Follow the table from the stored record again (what was kept to confirm is dropped)."""
        with self.lock:
            self.dropped = self.dropped or self.follower.open_run() is not None
            seats = self.follower.seats  # the players keep their chairs: the seating stays
            self.follower = _following(record)
            if self.seating is None:  # learnt, not said
                self.follower.seats = seats
            self.heads = _heads(record)
            self.owed = (None, False)  # the next still frame is the table as it is now

    def answered(self, record: dict[str, Any]) -> str:
        """A player answered the open question "yes" (as proposed, or corrected): `record` is the
        record with that answer. Its new events settle the question (`Follower.confirm`)."""
        with self.lock:
            self._yes = True
            try:
                return self.sync(record)
            finally:
                self._yes = False

    def _add(self, events: list[dict[str, Any]]) -> None:
        """Events added to the record since: the answer to the open question (said so by
        `answered`, or naming only its new tiles), else plays scored elsewhere (and the open
        question turned down)."""
        follower = self.follower
        if follower.open_run() is not None:  # the answer to "did anyone pass?": else rebuilt
            follower.settle_run(events)
            return
        pending = follower.pending
        named = {Tile.parse(e["tile"]) for e in events if e.get("type") == "play" and e.get("tile")}
        if pending is not None and (self._yes or (named and named <= {t.tile for t in pending.outcome.new_tiles})):
            follower.confirm(events)
            if follower.leftover:  # the question's other new tiles: the next still frame shows them
                self.owed = (None, False)
            return
        follower.decline(said=False)  # left open: the pad went on without an answer
        follower.scored(events)

    # -- what the camera sees -------------------------------------------------------------------

    def frame(
        self, reading: Reading, look: Look | None, seat: int | None = None, image: np.ndarray | None = None
    ) -> Outcome:
        """A read frame: a live one with what the motion test saw when it arrived (`see`), or a
        photo taken on purpose (`look` None), always looked at. `seat`: the seat of the player who
        sent it, who leads where the record does not say who does. `image`: the frame's pixels,
        where known (the reading's size, or reduced as a large photo is decoded): a back gone from
        the boneyard is taken as drawn only where the table shows at its place
        (`Follower.observe`)."""
        with self.lock:
            follower = self.follower
            if seat is not None and not follower.leader_known and not follower.hand.layout.placements:
                follower.leader, follower.leader_known = seat, True
            if look is None:
                outcome = self.follower.observe(reading, None, photo=True, image=image)
                return outcome
            unread = self.without_reading(look)
            if unread is not None:
                return replace(unread, frame=reading.image)
            assert self.owed is not None
            regions, again = self.owed
            self.owed = None
            outcome = self.follower.observe(reading, regions, again=again, arms=self.arms.take(), image=image)
            if outcome.code == "passes_unsure":  # not looked at: read again once it is answered
                self.owed = (regions, again)
            elif outcome.settled:
                self.detector.accept(look.thumb)
            elif self.follower.leftover:  # tiles played up to one whose seat is asked next: read it again
                self.owed = (None, False)
            return outcome

    def without_reading(self, look: Look) -> Outcome | None:
        """What a live frame comes to without being read (`see` said it all): the table moving,
        or not changed since the follower last read it. None: the frame is worth reading."""
        with self.lock:
            if not look.settled:
                return Outcome("nothing", "the table is moving: waiting for it to settle", settled=False, code="moving")
            if self.owed is None:
                return Outcome("nothing", "the table has not changed", settled=False, code="unchanged")
            return None

    def decline(self) -> None:
        """A player answered the open question "no" (the play, if any, is scored on the pad)."""
        with self.lock:
            self.follower.decline()

    def asking(self) -> bool:
        with self.lock:
            return self.follower.pending is not None


def _following(record: dict[str, Any]) -> Follower:
    """The follower of a page's table: plays whose seat is open are kept for one question."""
    follower = Follower.from_record(record, starts_hands=False)
    follower.carry_on = follower.ask_runs = True
    return follower


class Tables:
    """The `Table` of each match a server follows, made from its record on first use."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.of: dict[str, Table] = {}

    def get(self, key: str, record: dict[str, Any]) -> Table:
        with self.lock:
            found = self.of.get(key)
            if found is None:
                found = self.of[key] = Table(record)
            return found

    def find(self, key: str) -> Table | None:
        with self.lock:
            return self.of.get(key)


def reading_of(data: dict[str, Any], width: int = 0, height: int = 0) -> Reading:
    """A reading back from its JSON (`Reading.to_json`), for a reader that answers only that. The
    JSON keeps each half's value and its probability, not the other values': those share what is
    left evenly. A tile without its two halves is left out (the follower weighs halves)."""
    tiles = []
    for t in data.get("tiles") or []:
        halves = t.get("halves") or []
        corners = tuple((float(c[0]), float(c[1])) for c in t.get("corners") or [])
        if len(halves) != 2 or len(corners) != 4:
            continue
        parts = []
        for h in halves:
            value, sure = int(h["value"]), min(1.0, max(0.0, float(h.get("confidence", 1.0))))
            probabilities = [(1.0 - sure) / 6] * 7
            probabilities[value] = sure
            centre = (float(h["center"][0]), float(h["center"][1]))
            parts.append(HalfReading(value, centre, (), tuple(probabilities)))
        tiles.append(
            TileReading(
                Tile.parse(t["tile"]),
                (float(t["center"][0]), float(t["center"][1])),
                corners,
                (parts[0], parts[1]),
                float(t.get("confidence", 0.0)),
                bool(t.get("corrected")),
            )
        )
    return Reading(str(data.get("image") or ""), int(width), int(height), tuple(tiles), data.get("layout"))
