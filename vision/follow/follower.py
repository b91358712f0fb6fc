"""Following a game: from what the camera reads to play events the scorer accepts.

The follower keeps a scorer `Match`. Each time the table has changed (see `vision.follow.motion`) it
gets the new frame's `Reading` and compares it with the last accepted one: the tiles that are new
(and lie where the frame changed) are the move. The photo never decides alone what was played:
the scorer's legal moves for the seat whose turn it is are the candidates, and the photo's
evidence ranks them:

- identity: how likely the new tile's two halves are to show that tile, read the way round
  the end asks (the half against the open end shows its number);
- geometry: whether the new tile lies against that open end's tile (`end_geometry`);
- the photo's layout: the layout reconstructor (`vision.rebuild.reconstruct.reconstruct`, the same one
  `spinner read` uses) rebuilds the layout from the new photo alone, and its contact graph says
  which tile the new one touches. A candidate on an end of another tile keeps only `ELSEWHERE`
  of its geometry; where the distances found no end at all, a candidate on an end of that tile
  gets `ON_CONTACT`. Where the photo's layout is complete and sure, its open ends and count must
  be the ones the record would have after the best candidate, or a person is asked
  (`PhotoLayout`). The follower does not rebuild layouts itself: the record's layout is the
  scorer's, the photo's is the reconstructor's.

The best candidate is played when it is clearly best (`DECIDE` of the evidence). Anything else
becomes an *ask*, with the candidates, for a person to confirm: a move the evidence cannot settle,
a tile that fits no open end, most of the layout gone from where it lay, several new tiles in
an order that the photo cannot tell, or fewer new tiles than the table changed since the last
settled move (a change in which nothing new was read may be a play the reader missed: the next
tile found is then not that seat's). The record is never guessed. The layout's tiles are known by
the places they were last seen: a tile the reader missed in one frame and finds in the next is not
a move, and a layout tile missed in a frame has not left the table. A phone that moved between
photos carries those places with it: they are looked for where the camera's motion, estimated
from the tiles read in both photos (`vision.follow.register`), puts them in the new photo.

Seats: no photo shows a pass, so the turn order alone does not say who laid a tile. The seats
the rules leave (`scorer.moves.who_played`: the turn seat, and each later seat that the seats
before it could have passed to) are the candidates; where only one is left it played. Otherwise
the arm that laid the tile names the seat through the table's seating (`vision.follow.seats`:
given, or learnt from the plays so far), and where no arm does, a person is asked who played it
("who_played", the turn seat first). A player's tap (`tap_pass`) records a pass.

Where players keep the record too (the companion page: `vision.follow.table`), a question may
stay open while the camera goes on, and its answer may be "no" (`decline`) with the play scored
on the pad (`scored`). Each change keeps the new tiles first read in it: a tile read in an
earlier change does not explain a later one, one read once and lost since leaves its change
unexplained, and a play read late spends only the changes up to the one it was first read in.
A tile turned down is asked about when seen as new again, unless as many plays were scored since
as its question took for missed, and the same question is not asked twice on the same record.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import cv2
import numpy as np

from scorer.errors import RecordError
from scorer.hand import Hand
from scorer.layout import CROSS_ENDS, LINE_ENDS, End, Layout
from scorer.match import RECORD_FORMAT, Match
from scorer.moves import Candidate as SeatCandidate
from scorer.moves import Move, WhoPlayed, legal_moves, who_played
from scorer.tiles import FULL_SET, Tile
from vision.follow.boneyard import BoneyardWatch
from vision.follow.motion import Region
from vision.follow.register import (
    REFRAME_AGREEING,
    REFRAME_SCALE,
    REFRAME_SHARE,
    REFRAME_TURN,
    camera_motion,
    is_still,
    moved_reading,
    moved_tile,
)
from vision.follow.seats import SIDES, ArmSighting, SeatKeeper, seat_of_play
from vision.geometry import long_side, share_over
from vision.geometry import short_side as box_short_side
from vision.read.reading import Reading, TileReading
from vision.rebuild.reconstruct import LayoutResult, reconstruct

#: share of the evidence the best candidate must hold to be played without asking
DECIDE = 0.9
#: the best candidate's tile must be at least this likely next to the likeliest tile of the set
#: (otherwise the photo reads a tile that is not a legal move: a person looks)
PLAUSIBLE = 0.2
#: the best candidate must lie at least this well against its end
TOUCHING = 0.3
#: A tile read less sure than this (box and both halves) is too faint to be a play: the reader
#: barely sees it (a tile half out of view, a layout or loose tile it missed before and now
#: misreads). It is not taken for a move; it lies in the frame and is compared with as any tile.
FAINT = 0.3
#: a tile turned down in a question that proposed no play, read under this sure, left where it
#: lay while a player scored the play on the pad, only lies there (a printed picture beside the
#: layout, a faint box on a player's tile): else each photo taken on purpose met it as new again
LIES_THERE = 0.6
#: A new box lying this much (a share of its area) over a layout tile's box, and as much over
#: another box beside it, is the reader's box across a layout tile and its neighbour (its halves
#: read from each: one seen over half of a 2-6 and half of the 2-5 laid on it read 2-2, 0.25 of
#: its area over the 2-6), not a tile. Over the layout tile alone it may be a tile laid against
#: it: seen steeply from the side, boxes take in the tiles' sides and touching tiles overlap by
#: as much as a quarter (a 0-2 laid on a 0-1 filmed at 45 degrees: 0.24).
OVER_LAYOUT = 0.2
#: a new box lying this much over a layout tile's box is across tiles, whatever lies beside it
#: (the reader's box across two tiles lies about half over each)
OVER_SURELY = 0.4
#: A new box lying over a layout tile by more than this many times what the layout's own
#: touching tiles lie over each other (and half OVER_LAYOUT more) is across tiles: seen from
#: above, touching tiles' boxes barely overlap and a box slipped along a line overlaps by a quarter.
VIEW_SLACK = 2.0
#: a tile read in the place of another tile that is read nowhere now is that one taken back and
#: another laid there only where each of its halves is read at least this sure: a half in doubt is
#: the reader's flicker on the tile that lies there (`Follower._in_place_of_another`)
SURE_HALF = 0.9
#: A new tile farther than this many of its short sides from every layout tile and every other
#: new tile touches nothing (a tile laid against another lies 1.5-2 short sides from its centre):
#: beside a new tile that does touch the layout, it is a loose tile the reader had missed.
LOOSE = 3.0
#: centres at most this many short sides apart touch (a tile end to end with another: 2; a
#: double crosswise: 1.5)
TOUCHING_SIDES = 2.5
#: at most this many new tiles at once are put in order; more is always asked about
MAX_AT_ONCE = 3
#: a tile leaving a double in an arm may bend off its short end, square to the line (cos 0, a
#: little less where perspective skews it), but never lie back towards the tile before it
BACKWARDS = -0.35
#: a double is laid crosswise (RULES.md): its box's long axis square to the way it leaves the tile
#: it is laid against; one lying in line (|cos| above this, 45 degrees) is no double laid there
#: (it is the reader's box across the halves of two tiles in a line, read as a double)
IN_LINE = 0.71
#: the geometry a candidate has when the photo's layout lays the new tile against its end's tile
#: and the distances found no end at all (the contact graph saw them touch where they did not)
ON_CONTACT = 0.5
#: two boxes each lying this much (a share of its area) over the other box one tile: touching tiles'
#: boxes overlap by a quarter at most (`OVER_LAYOUT`), a box across two tiles lies about half over each
SAME_BOX = 0.6
#: share of its geometry kept by a candidate whose end tile is not the tile the photo's layout
#: lays the new tile against (the reconstructor ranks candidates; it does not veto them)
ELSEWHERE = 0.2

Kind = Literal["play", "ask", "nothing", "pass", "reveal", "over"]


@dataclass(slots=True)
class Seen:
    """Where a tile of the layout lies in the photo, and which of its halves faces inwards."""

    reading: TileReading
    #: index in `reading.halves` of the half against the parent (the lead: its west half)
    inner: int


@dataclass(frozen=True, slots=True)
class Candidate:
    move: Move
    event: dict[str, Any]
    #: the new tile's index among the new tiles
    tile: int
    identity: float
    geometry: float
    share: float = 0.0
    #: which half of the new tile faces inwards (for the lead: the west half)
    inner: int = 0
    #: in a question: the seats that may have laid it, turn seat first, where a pass was possible
    #: and no evidence (an arm, the rules, the deals left) says which; the event then names the
    #: first as a stand-in, never as known (`Follower._evidenced`). Empty: the event's seat is known
    seats: tuple[int, ...] = ()

    @property
    def seat_open(self) -> bool:
        return len(self.seats) > 1

    def to_json(self) -> dict[str, Any]:
        out = {
            "event": self.event,
            "identity": round(self.identity, 4),
            "geometry": round(self.geometry, 4),
            "share": round(self.share, 4),
        }
        if self.seat_open:
            out["seats"] = list(self.seats)
        return out


class Reason(str):
    """A reason in the command line's words, with a stable `code` and its `params` for a page to
    word for players (names, numbers from 1, its own language)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, **params: Any) -> Reason:
        made = super().__new__(cls, text)
        made.code, made.params = code, params
        return made


def with_pass(
    events: Sequence[dict[str, Any]], play: int, seat: int, next_seat: Callable[[int], int], players: int
) -> list[dict[str, Any]]:
    """`events` (plays kept with their seat open, as followed) with play number `play` (from 0)
    laid by `seat` after a pass, and each play after it by the seat after the one before
    (`next_seat`, the hand's turn order); a draw just before a play is that play's seat's."""
    if not 0 <= seat < players:
        raise ValueError(f"there is no seat {seat} (seats are 0 to {players - 1})")
    out: list[dict[str, Any]] = []
    k = -1
    seat_now: int | None = None
    for event in events:
        if event.get("type") != "play":
            out.append(dict(event))
            continue
        k += 1
        if k == play:
            seat_now = seat
        elif seat_now is not None:
            seat_now = next_seat(seat_now)
        if seat_now is not None:
            for j in range(len(out) - 1, -1, -1):  # the draws just before it
                if out[j].get("type") != "draw":
                    break
                out[j]["seat"] = seat_now
        out.append(dict(event) if seat_now is None else {**event, "seat": seat_now})
    if not 0 <= play <= k:
        raise ValueError(f"the plays kept to confirm are {k + 1}: there is no play {play + 1}")
    return out


def seating_of(record: dict[str, Any]) -> list[int] | None:
    """The record's `"seating"` (each seat's side of the camera's picture, in seat order: "top",
    "right", "bottom", "left") as picture sides, or None where it has none that fits its players
    (a reader ignores what it does not know: GAME_RECORD.md)."""
    names, players = record.get("seating"), record.get("players")
    if not isinstance(names, list) or not isinstance(players, list) or len(names) != len(players):
        return None
    if not all(isinstance(n, str) and n in SIDES for n in names) or len(set(names)) != len(names):
        return None
    return [SIDES.index(n) for n in names]


@dataclass(slots=True)
class Outcome:
    kind: Kind
    reason: str = ""
    #: events applied to the match (play, pass, reveal)
    events: list[dict[str, Any]] = field(default_factory=list)
    #: (hand, event index) of each applied event
    where: list[tuple[int, int]] = field(default_factory=list)
    #: ask: the candidate moves, best first (a sequence of moves for several tiles at once)
    candidates: list[list[Candidate]] = field(default_factory=list)
    new_tiles: list[TileReading] = field(default_factory=list)
    frame: str = ""
    #: False where the frame changed but nothing new was read: the change stays to be explained
    #: (a tile the reader missed is looked for again at the next change, where it lies)
    settled: bool = True
    #: what `reason` says, for a page to word: a stable code and its parameters (seats from 0,
    #: tiles as "4-6", events as GAME_RECORD.md has them)
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.reason, Reason):
            if not self.code:
                self.code, self.params = self.reason.code, dict(self.reason.params)
            self.reason = str(self.reason)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "reason": self.reason,
            "code": self.code,
            "params": self.params,
            "frame": self.frame,
            "events": self.events,
            "where": [list(w) for w in self.where],
            "candidates": [[c.to_json() for c in seq] for seq in self.candidates[:8]],
            "new_tiles": [t.to_json() for t in self.new_tiles],
        }


@dataclass(frozen=True, slots=True)
class Diff:
    new: list[TileReading]
    gone: list[TileReading]


# -- comparing two readings ---------------------------------------------------------------------


def _view_overlap(layout: Sequence[np.ndarray]) -> float | None:
    """How much the boxes of the layout's touching tiles lie over each other in this view (the
    most of any pair whose centres lie within 1.1 long sides; those within half a short side are
    one tile read twice), or None with no pair of touching tiles."""
    most: float | None = None
    for i, a in enumerate(layout):
        for b in layout[i + 1 :]:
            gap = float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)))
            if gap <= 0.5 * min(box_short_side(a), box_short_side(b)) or gap > 1.1 * max(long_side(a), long_side(b)):
                continue  # one tile read twice, or tiles that do not touch
            share = max(share_over(a, b), share_over(b, a))
            most = share if most is None else max(most, share)
    return most


def lies_across(box: Any, under: Sequence[Any], beside: Sequence[Any]) -> bool:
    """Whether a new box is the reader's box across a layout tile and its neighbour, not a tile:
    it lies over one of `under` (the layout tiles' corners) by OVER_SURELY of its area, or by
    OVER_LAYOUT and over another box of `beside` (the photo's other boxes, corners) by OVER_LAYOUT
    too, or by OVER_LAYOUT where no box of `beside` lies on that layout tile (the box took its
    place: in a straight line of tiles the reader's boxes can slip half a tile, and a 4-5 laid on
    a 5-6 is then read as a box over both fives, 5-5), or by OVER_LAYOUT and by more than
    `_view_overlap` allows (tiles do not overlap: boxes of touching tiles do only as much as the
    view makes them, and the layout's own touching tiles show how much that is). Boxes whose
    centres lie within half a short side of the box's own, or of that layout tile's, are that box
    or that tile read again, not another."""
    box = np.asarray(box, np.float32).reshape(-1, 2)
    if len(box) != 4:
        return False
    centre = box.mean(axis=0)
    others = [np.asarray(b, np.float32).reshape(-1, 2) for b in beside]
    others = [b for b in others if len(b) == 4]
    layout = [b for b in (np.asarray(u, np.float32).reshape(-1, 2) for u in under) if len(b) == 4]
    view = _view_overlap(layout)
    for layout_box in layout:
        share = share_over(box, layout_box)
        if share >= OVER_SURELY:
            return True
        if share < OVER_LAYOUT:
            continue
        if view is not None and share > VIEW_SLACK * view + OVER_LAYOUT / 2:
            return True
        reach = 0.5 * min(box_short_side(box), box_short_side(layout_box))
        if not any(np.linalg.norm(o.mean(axis=0) - layout_box.mean(axis=0)) <= reach for o in others):
            return True
        for other in others:
            middle = other.mean(axis=0)
            if min(np.linalg.norm(middle - centre), np.linalg.norm(middle - layout_box.mean(axis=0))) <= reach:
                continue
            if share_over(box, other) >= OVER_LAYOUT:
                return True
    return False


def short_side(tile: TileReading) -> float:
    """A read tile's width in the photo."""
    return box_short_side(tile.corners)


def _missed(found: int, changes: int) -> str | None:
    """Why `found` new tiles may not be all that was played: the table changed more often since
    the last settled move (changes where nothing new was read, then this one)."""
    if found >= changes:
        return None
    return Reason(
        f"the table changed {changes} times since the last settled move but only {found} new "
        f"tile{'s' if found > 1 else ''} {'were' if found > 1 else 'was'} read: a play may have been missed",
        code="missed",
        changes=changes,
        found=found,
    )


def _in_regions(point: tuple[float, float], regions: Sequence[Region] | None, margin: float) -> bool:
    return regions is None or any(r.contains(point, margin) for r in regions)


def compare(before: Reading | None, after: Reading, regions: Sequence[Region] | None = None) -> Diff:
    """Tiles new in `after` and tiles gone from `before`, counting only those where the frame changed.

    A tile is the same tile when its centre moved less than half its short side. Outside the
    changed regions nothing moved, so a difference there is the reader's flicker, not a move.
    A box read faintly before (under `FAINT`, as another tile) hides no tile read there now: the
    lead laid on a board's printed mark that the reader half took for a tile is new.
    """
    if before is None:
        return Diff(list(after.tiles), [])
    new = [
        t
        for t in after.tiles
        if _alone(t, [b for b in before.tiles if b.confidence >= FAINT or b.tile is t.tile])
        and _in_regions(t.center, regions, short_side(t))
    ]
    gone = [t for t in before.tiles if _alone(t, after.tiles) and _in_regions(t.center, regions, 0.0)]
    return Diff(sorted(new, key=lambda t: -t.confidence), gone)


def _alone(tile: TileReading, others: Sequence[TileReading]) -> bool:
    if not others:
        return True
    centres = np.asarray([o.center for o in others], dtype=np.float32)
    distance = float(np.linalg.norm(centres - np.asarray(tile.center, dtype=np.float32), axis=1).min())
    return distance > 0.5 * short_side(tile)


# -- the photo's own layout -----------------------------------------------------------------------


@dataclass
class PhotoLayout:
    """The layout the reconstructor finds in one photo, asked about the new tiles in it."""

    result: LayoutResult | None
    tiles: Sequence[TileReading]

    @classmethod
    def of(cls, reading: Reading, rules: Any) -> PhotoLayout:
        """The photo's layout under `rules`: the reader's own where it used the same layout rules."""
        if reading.rebuilt is not None:
            used, result = reading.rebuilt
            if used.layout_rules() == rules.layout_rules() and used.variant.fives == rules.variant.fives:
                return cls(result, reading.tiles)
        try:
            result = reconstruct(reading.tiles, rules, frame=(reading.width, reading.height))
        except Exception:  # noqa: BLE001 - the photo's layout is evidence, never a reason to stop
            result = None
        return cls(result, reading.tiles)

    @classmethod
    def none(cls) -> PhotoLayout:
        return cls(None, ())

    def index(self, tile: TileReading) -> int | None:
        """Which of the photo's tiles `tile` is (the same place), if any."""
        if not self.tiles:
            return None
        centres = np.asarray([t.center for t in self.tiles], dtype=np.float32)
        d = np.linalg.norm(centres - np.asarray(tile.center, dtype=np.float32), axis=1)
        k = int(d.argmin())
        return k if d[k] <= 0.5 * short_side(self.tiles[k]) else None

    def at(self, tile: TileReading) -> set[int]:
        """Every photo tile that is `tile` where it lies: its centre within half a short side, or
        its box and `tile`'s each lying `SAME_BOX` over the other. A tile seen in an earlier photo
        may be boxed a few pixels off in this one, or twice (a faint box beside its own), and the
        reconstructor may join the next tile to any of them."""
        if not self.tiles:
            return set()
        centres = np.asarray([t.center for t in self.tiles], dtype=np.float32)
        d = np.linalg.norm(centres - np.asarray(tile.center, dtype=np.float32), axis=1)
        box = np.asarray(tile.corners, np.float32)
        return {
            k
            for k, t in enumerate(self.tiles)
            if d[k] <= 0.5 * short_side(t)
            or (
                share_over(box, np.asarray(t.corners, np.float32)) >= SAME_BOX
                and share_over(np.asarray(t.corners, np.float32), box) >= SAME_BOX
            )
        }

    def neighbours(self, tile: TileReading) -> set[int] | None:
        """The photo's tiles that `tile` touches in the photo's layout; None when it is not in it."""
        r = self.result
        i = self.index(tile)
        if r is None or i is None or i not in r.placed_from:
            return None
        out: set[int] = set()
        for k, p in enumerate(r.layout.placements):
            if p.parent is None:
                continue
            a, b = r.placed_from[k], r.placed_from[p.parent]
            if i in (a, b):
                out.add(b if a == i else a)
        return out

    def ends(self, size: int) -> tuple[list[int], int | None] | None:
        """The photo's open-end values and count, when its layout holds `size` tiles and is sure."""
        r = self.result
        if r is None or len(r.placed_from) != size or r.unsure or r.left_out:
            return None
        return sorted(r.open_ends.values()), r.count


def ends_after(layout: Layout, move: Move, event: dict[str, Any], counted: bool) -> tuple[list[int], int | None]:
    """The record's open-end values and count once `move` is played."""
    after = layout.copy()
    if move.end is None:
        west, east = (int(v) for v in str(event["tile"]).split("-"))
        after.place_lead(west, east)
    else:
        after.place(move.tile, move.end)
    return sorted(after.open_ends().values()), after.count() if counted else None


# -- the photo's evidence -------------------------------------------------------------------------


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else v


def _centre(h: Any) -> np.ndarray:
    return np.asarray(h.center, dtype=np.float64)


def end_tile(layout: Layout, end: End) -> int | None:
    """The placement a tile played on `end` lies against."""
    arm = layout.arms[end]
    return arm[-1] if arm else (0 if end in LINE_ENDS else layout.spinner)


def end_geometry(
    layout: Layout, placed: Sequence[Seen | None], end: End, new: TileReading, double: bool = False
) -> tuple[float, int]:
    """How well `new` lies against `end` (0..1), and which of its halves touches it.

    The touching part of the end's tile: an ordinary tile's outer half; a double's middle (a tile
    leaves a crosswise double from its long side, or from its short end after a bend; the
    spinner's north and south leave from its short ends). Distances are in the new tile's short
    sides; a tile laid straight on lies one short side from the part it touches, after a bend a
    little more. Where a double has two sides an end could use, the side must be the right one.
    A `double` (the tile the move lays) must lie crosswise: across the way from that part to it.
    """
    arm = layout.arms[end]
    parent = end_tile(layout, end)
    seen = placed[parent] if parent is not None and parent < len(placed) else None
    if parent is None or seen is None:
        return 0.0, 0  # a tile the camera never saw where it lies: the photo cannot place a tile on it
    p = layout.placements[parent]
    s = max(short_side(new), 1e-6)
    halves = [_centre(h) for h in new.halves]
    if not p.is_double:
        if parent == 0 and not arm:
            part = _centre(seen.reading.halves[seen.inner if end == "west" else 1 - seen.inner])
        else:
            part = _centre(seen.reading.halves[1 - seen.inner])
        tolerance = 1.35
        side_ok = lambda v: True  # noqa: E731
    else:
        part = _centre(seen.reading)
        axis = _unit(_centre(seen.reading.halves[1]) - _centre(seen.reading.halves[0]))
        tolerance = 1.75
        side_ok = _double_side(layout, placed, parent, end, part, axis)
    distances = [float(np.linalg.norm(h - part)) / s for h in halves]
    near = int(np.argmin(distances))
    if not side_ok(halves[near] - part):
        return 0.0, near
    if double and abs(float(_unit(halves[1] - halves[0]) @ _unit(_centre(new) - part))) > IN_LINE:
        return 0.0, near
    excess = max(0.0, distances[near] - tolerance)
    return math.exp(-0.5 * (excess / 0.25) ** 2), near


def _double_side(
    layout: Layout, placed: Sequence[Seen | None], parent: int, end: End, centre: np.ndarray, axis: np.ndarray
) -> Any:
    """Which way from a double's centre a tile on `end` must lie."""
    across = np.array([-axis[1], axis[0]])

    def away_from(index: int | None) -> np.ndarray | None:
        seen = placed[index] if index is not None and index < len(placed) else None
        return None if seen is None else centre - _centre(seen.reading)

    if end in CROSS_ENDS and not layout.arms[end]:  # the spinner itself (a double further out is below)
        other = layout.arms["south" if end == "north" else "north"]
        against = away_from(other[0]) if other else None

        def ok(v: np.ndarray) -> bool:
            if abs(float(v @ axis)) < abs(float(v @ across)):
                return False  # north and south leave from the spinner's short ends
            return against is None or float(v @ against) > 0

        return ok
    arm = layout.arms[end]
    if parent == 0 and not arm:
        # the lead double: west and east are its long sides; the one not yet covered
        other = layout.arms["east" if end == "west" else "west"]
        against = away_from(other[0]) if other else None

        def ok_lead(v: np.ndarray) -> bool:
            if abs(float(v @ across)) < abs(float(v @ axis)):
                return False
            return against is None or float(v @ against) > 0

        return ok_lead
    # a double inside an arm: a tile goes on away from the tile it is laid against, straight on
    # from the far long side or bending off a short end (square to the line: not back towards it)
    before = layout.placements[parent].parent
    against = away_from(before)
    return lambda v: (
        against is None or float(v @ against) > BACKWARDS * float(np.linalg.norm(v) * np.linalg.norm(against))
    )


def tile_identity(new: TileReading, tile: Tile, inner: int | None, inner_value: int | None) -> tuple[float, int]:
    """How likely the halves read `tile`: with the half `inner` showing `inner_value`, or either
    way round (the lead). Returns the likelihood and which half shows the tile's first number."""
    a, b = (np.asarray(h.probabilities, dtype=np.float64) for h in new.halves)
    if inner is None or inner_value is None:
        first, second = a[tile.low] * b[tile.high], a[tile.high] * b[tile.low]
        return float(max(first, second)), 0 if first >= second else 1
    outer_value = tile.other(inner_value)
    near, far = (a, b) if inner == 0 else (b, a)
    return float(near[inner_value] * far[outer_value]), inner


def best_identity(new: TileReading, unplayed: Sequence[Tile]) -> float:
    """The likeliest reading of the new tile among the tiles not yet played."""
    return max((tile_identity(new, t, None, None)[0] for t in unplayed), default=0.0)


def move_event(move: Move, halves: tuple[int, int] | None = None) -> dict[str, Any]:
    """The play event of GAME_RECORD.md; the lead names its halves west-east."""
    if move.end is None:
        west, east = halves if halves is not None else (move.tile.low, move.tile.high)
        return {"type": "play", "seat": move.seat, "tile": f"{west}-{east}"}
    return {"type": "play", "seat": move.seat, "tile": str(move.tile), "end": move.end}


def rank(
    hand: Hand,
    placed: Sequence[Seen | None],
    new: TileReading,
    index: int,
    leader: int = 0,
    photo: PhotoLayout | None = None,
) -> list[Candidate]:
    """Every legal move, weighed by the photo; best first, with each one's share of the evidence."""
    layout = hand.layout
    touching = photo.neighbours(new) if photo is not None else None
    against: dict[int, bool] = {}
    out: list[Candidate] = []
    for move in legal_moves(hand, leader):
        if move.end is None:
            identity, first = tile_identity(new, move.tile, None, None)
            # the half read as the tile's first number goes west (a convention: west is the
            # lead's first half as the photo shows it, the rest follows from the tree)
            values = (move.tile.low, move.tile.high)
            if first == 1:
                values = (move.tile.high, move.tile.low)
            halves = (values[0], values[1])
            out.append(Candidate(move, move_event(move, halves), index, identity, 1.0, inner=0))
            continue
        geometry, near = end_geometry(layout, placed, move.end, new, double=move.tile.is_double)
        value = layout.open_ends()[move.end]
        identity, _ = tile_identity(new, move.tile, near, value)
        out.append(Candidate(move, move_event(move), index, identity, geometry, inner=near))
    if touching is not None and photo is not None:
        # the distances found no end at all: the photo's contact graph may still have seen it
        fallback = max((c.geometry for c in out if c.move.end is not None), default=1.0) < TOUCHING
        weighed = []
        for c in out:
            parent = end_tile(layout, c.move.end) if c.move.end is not None else None
            if parent is not None:
                if parent not in against:
                    known = placed[parent] if parent < len(placed) else None
                    # the end's tile as the photo boxes it: any box where it lies (the same tile)
                    against[parent] = known is not None and bool(photo.at(known.reading) & touching)
                geometry = (
                    (max(c.geometry, ON_CONTACT) if fallback else c.geometry)
                    if against[parent]
                    else c.geometry * ELSEWHERE
                )
                c = Candidate(c.move, c.event, c.tile, c.identity, geometry, inner=c.inner)
            weighed.append(c)
        out = weighed
    total = sum(c.identity * c.geometry for c in out)
    ranked = [
        Candidate(
            c.move,
            c.event,
            c.tile,
            c.identity,
            c.geometry,
            (c.identity * c.geometry / total) if total > 0 else 0.0,
            c.inner,
        )
        for c in out
    ]
    ranked.sort(key=lambda c: -c.share)
    return ranked


def clear_winner(
    ranked: Sequence[Candidate], new: TileReading, hand: Hand, photo: PhotoLayout | None = None
) -> str | None:
    """None when the best candidate may be played; otherwise why a person must look."""
    if not ranked:
        return Reason("no legal move fits what the photo shows", code="no_legal_move")
    best = ranked[0]
    if best.geometry < TOUCHING:
        return Reason(f"the new tile ({new.tile}) lies against no open end", code="no_open_end", tile=str(new.tile))
    unplayed = [t for t in FULL_SET if t not in hand.on_table]
    if best.identity < PLAUSIBLE * best_identity(new, unplayed):
        return Reason(f"the photo reads {new.tile}, which is no legal move here", code="not_legal", tile=str(new.tile))
    if best.share < DECIDE:
        if len(ranked) < 2:
            return Reason("unsure", code="unsure")
        return Reason(
            f"the photo cannot tell {_words(ranked[0])} from {_words(ranked[1])}",
            code="cannot_tell",
            event=_said(ranked[0]),
            other=_said(ranked[1]),
        )
    seen = photo.ends(len(hand.layout.placements) + 1) if photo is not None else None
    if seen is not None:
        counted = seen[1] is not None
        after = ends_after(hand.layout, best.move, best.event, counted)
        if after != seen:
            return Reason(
                f"the photo's layout has open ends {seen[0]}"
                + (f" (count {seen[1]})" if counted else "")
                + f", but {_words(best)} would leave {after[0]}"
                + (f" (count {after[1]})" if counted else ""),
                code="layout_differs",
                ends=seen[0],
                count=seen[1],
                event=_said(best),
                after=after[0],
                after_count=after[1],
            )
    return None


def _backs(reading: Reading) -> int:
    """The backs in view: the boneyard, where the reader boxes face-down tiles."""
    return sum(1 for i in reading.ignored if i.kind == "face_down")


def _unsure(chosen: Sequence[tuple[Candidate, TileReading]]) -> str | None:
    """Why playing `chosen` needs a person: the reader marked a tile unsure (under the confidence
    at which its tiles are right 99.5 % of the time: `vision.read.calibration`) and the move
    chosen for it is another tile than it read (the rules, not the photo, named it), or its box
    showed no tile lying face up (`not_lying`: a tile standing in a player's hand, held over the
    table, is not laid whatever its value). An unsure tile read as the one legal move that lies
    there is otherwise not asked about: the rules back it."""
    for c, t in chosen:
        if t.unsure and (c.move.tile is not t.tile or t.not_lying):
            return Reason(
                f"the reader is not sure of the tile: it read {t.tile} ({t.confidence:.0%}), the rules allow {c.move.tile}"
                + (" (too dark to see its pips clearly)" if t.faint else "")
                + (" (it may be standing in a player's hand, not laid)" if t.not_lying else ""),
                code="unsure_tile",
                tile=str(c.move.tile),
                read=str(t.tile),
                confidence=round(t.confidence, 2),
                # its pips hardly stood out of the photo's noise: more light is the player's remedy
                **({"dark": True} if t.faint else {}),
                # standing, not lying: the remedy is the players' own tiles out of the picture
                **({"standing": True} if t.not_lying else {}),
            )
    return None


def _point(tile: TileReading, reading: Reading) -> tuple[float, float] | None:
    """Where `tile` lies, as shares of the picture's width and height (None: no size known)."""
    if not reading.width or not reading.height:
        return None
    return float(tile.center[0]) / reading.width, float(tile.center[1]) / reading.height


def _words(c: Candidate) -> str:
    e = c.event
    where = f" on {e['end']}" if "end" in e else " as the lead"
    if c.seat_open:  # no seat named as if known (the question asks who played it too: `_ask`)
        return f"{e['tile']}{where}"
    return f"seat {e['seat']} {e['tile']}{where}"


def _said(c: Candidate) -> dict[str, Any]:
    """A candidate's play as a reason's params name it: its seat None where it is open."""
    return {**c.event, "seat": None} if c.seat_open else c.event


def _refused(error: RecordError) -> dict[str, Any]:
    """The scorer's refusal as a reason's params: its code, params and words (`rule`, `rule_params`, `error`)."""
    return {"rule": error.code, "rule_params": dict(error.params or {}), "error": error.message}


# -- the follower ---------------------------------------------------------------------------------


@dataclass
class Pending:
    """A change the follower could not settle alone: what a person is asked to confirm."""

    outcome: Outcome
    reading: Reading
    #: how many plays the question took for missed (changes since the last settled move that
    #: no tile read now explains)
    missed: int = 0
    #: asked at the camera's first look beside a record (`Follower.first_look_new`): "no" says
    #: its tiles were lying there, not played
    first_look: bool = False
    #: tiles lying in the layout unrecorded that made the question (`_unexplained`): the play
    #: confirmed, they lie there and are not asked about again
    aside: tuple[TileReading, ...] = ()
    #: how many arms had been seen when it was asked (`SeatKeeper.seen_count`)
    arms_seen: int | None = None


@dataclass(frozen=True, slots=True)
class Doubt:
    """A tile a person turned down as the play the follower asked about (`Follower.decline`)."""

    reading: TileReading
    #: the plays the question took for missed, and the plays on the table when it was asked
    missed: int
    plays: int
    #: the play the question proposed (None: it proposed none)
    event: dict[str, Any] | None
    #: a person answered the question "no"; False: it was left open and the record went on
    #: without it (plays scored on the pad), so nobody turned anything down
    said: bool = True
    #: how many arms had been seen when the tile was read (`SeatKeeper.seen_count`): an arm
    #: seen after it did not lay it
    arms_seen: int | None = None


class Follower:
    """Keeps the match as the table plays it. Feed it each changed frame's reading (`observe`)."""

    def __init__(
        self, match: Match, leader: int = 0, starts_hands: bool = True, seating: Sequence[int] | None = None
    ) -> None:
        self.match = match
        #: who laid each tile: the arms seen, and the seating given (`seating`: the picture side
        #: each seat sits at, 0 top, 1 right, 2 bottom, 3 left) or learnt
        self.seats = SeatKeeper.of(len(match.players), seating)
        self.leader = leader
        #: whether a cleared table starts the next hand (`spinner watch`, which owns its record);
        #: where players keep the record too (the page), they start it
        self.starts_hands = starts_hands
        #: whether `leader` is who leads the hand, not a stand-in for ranking the lead's
        #: candidates (a record part played whose hand does not say): a lead is then asked about
        self.leader_known = True
        self.reference: Reading | None = None
        #: whether the camera's first frame may show plays: beside a record with plays in this
        #: hand, or where the photo shows a game under way (the page's camera started mid-hand),
        #: every tile the record does not place is new, as in a photo, and asked about; else
        #: what lies there is the table's start, as for `spinner watch` (which films from before
        #: the lead), but a play laid against it is asked about, never played against it
        self.first_look_new = False
        #: the frame being observed is that first look: whatever it finds is asked about, never
        #: played at once (the tiles may have been played, or only lie there)
        self.looking_first = False
        #: the tiles `_unexplained` last found lying in the layout unrecorded
        self.aside: list[TileReading] = []
        #: faint new tiles of the frame being observed that fit no order with its sure ones
        #: (`_several`): they only lie there, and are not named as lying in the layout
        self.passed_over: list[TileReading] = []
        #: the last look followed the phone re-framed (`_follow_camera`: more than a hand moves it
        #: between two photos): a change with no new tile in it is the camera, not a play missed
        self.reframed = False
        #: where the photo before saw, in this photo's pixels, after the phone moved between the two
        #: (`_follow_camera`); None where it held still or the motion is not known
        self.seen_before: np.ndarray | None = None
        #: tiles a person confirmed a play past once (`Pending.aside`): the question asked which
        #: was played first, so they may have been laid after it, and are named again
        self.named: list[TileReading] = []
        #: tiles first read over a layout tile that are no phantom box (`_reads_as_covered`):
        #: never played unasked, but met, and named at the next play (`_unexplained`)
        self.crossing: list[TileReading] = []
        #: tiles a person confirmed plays past twice, or past once where they fit no open end:
        #: they lie there (read there as the same tile), never new nor asked about again
        self.vouched: list[TileReading] = []
        #: where each placement of the hand's layout was last seen (same order as the scorer's
        #: placements); None for a tile a person confirmed that the camera has not found yet
        self.placed: list[Seen | None] = []
        #: the seat of each placement scored on the pad before the camera saw it laid (by its
        #: index in `placed`): found later, the arm that laid it is evidence for the seating
        self.padded: dict[int, int] = {}
        #: placements (by index in `placed`) a person confirmed in answer to a question about a
        #: look that had not read them: they lay there at that look, so found later they are the
        #: reader reading better, not what changed since (`_find_unseen`)
        self.answered_unread: set[int] = set()
        #: the padded plays `_find_unseen` found arrived in the frame it last looked at: (seat, tile)
        self.padded_found: list[tuple[int, TileReading]] = []
        self.pending: Pending | None = None
        #: the last frame observed (`ended` asks about it)
        self.last_look: Reading | None = None
        #: the changes of the table since the last settled move, each with the new tiles first
        #: read in it (none: nothing new was read, and it may be a play the reader missed, a tile
        #: too small or faint). A later play is not taken on trust while fewer new tiles are
        #: found than the table changed; a tile read in an earlier change does not explain a
        #: later one, and one read once and lost since leaves its change unexplained.
        self.changes: list[list[TileReading]] = []
        #: face-up tiles on the table as the camera first saw it (`spinner watch`): not plays
        self.furniture: list[TileReading] = []
        #: new tiles of a question a person answered with fewer plays than it had new tiles (two
        #: tiles laid between two looks, the first confirmed): still new in the next frame, though
        #: the frame they were read in is now the reference
        self.leftover: list[TileReading] = []
        #: tiles a person turned down as plays since the camera's last settled play (`decline`)
        self.doubts: list[Doubt] = []
        #: boxes read too faint to be new in a look that found no new tile, each with the count of
        #: arms seen then (`SeatKeeper.seen_count`): a tile read there later lay there then,
        #: missed, and an arm seen before that look may have laid it (`_arms_for`)
        self.faint_looks: list[tuple[TileReading, int]] = []
        #: the boneyard's backs in view after the last play (a drawing game whose boneyard the
        #: camera counts: `_count_boneyard`); None where it is not counted
        self.backs: int | None = None
        #: the backs counted in the last frame observed
        self.backs_last: int | None = None
        #: the backs counted in the frame observed before the last one
        self.backs_before: int | None = None
        #: the count has been exact this hand: draws are counted from it, and a boneyard that
        #: holds tiles says nobody passed. Once it miscounts (`_drew`, `_play`), a change with
        #: fewer backs is still a draw, not a missed play, but says no more
        self.backs_exact = True
        #: the last frame showed as many backs as the record's boneyard may hold (not counted yet)
        self.backs_at_most = False
        #: the backs the last frame's change took from where they lay, each place seen to show the
        #: table (`BoneyardWatch.look`), where no back appeared or was hidden in it: as many
        #: fewer backs counted in that frame were drawn, not missed by the reader
        self.backs_taken = 0
        #: where the boneyard's backs lie: a change that took one is a draw, however the count
        #: went (a back missed in one frame, a shadow boxed as one in another)
        self.boneyard = BoneyardWatch()
        #: the pixels of the frame being observed, where the caller gave them (`observe`)
        self.last_image: np.ndarray | None = None
        #: with nobody to answer (`spinner watch` away from a terminal): a play whose seat
        #: nothing settles is followed as the first candidate's (the turn seat: no pass) so that
        #: the layout goes on, and kept to confirm with its candidate seats (`unsure_seats`); the
        #: record holds the plays before the first such one, the rest under `pending`
        self.carry_on = False
        #: with `carry_on` and someone to answer (`spinner watch --ask`, the benches): the run of
        #: plays followed with their seat open is asked about once (`run_question`: did anyone
        #: pass from its first play on?) when the hand is over as followed, or when the watch
        #: ends; the hand is held until `settle_run` takes the answer
        self.ask_runs = False
        #: whether an arm reaching over the table was ever seen (a camera watching, not photos)
        self.arms_seen = False
        #: with `ask_runs`: any other question waits for the run's (a page, whose record takes
        #: an answer only in order); False: it is asked within the run, its answer followed on
        #: with the rest (`spinner watch`, whose candidates carry the seats as followed)
        self.runs_first = True
        #: the chosen tiles (by index) `_seated` followed with their seat open, and its candidates
        self.open_seats: dict[int, tuple[int, ...]] = {}
        #: the chosen tiles (by index) `_seated` gave a seat by counting the deals (no arm seen, a
        #: pass before it all but ruled out: `seats.likeliest_seat`), with its candidates and chance
        self.likely_seats: dict[int, tuple[tuple[int, ...], float]] = {}
        #: (hand, event index, candidate seats) of each play followed with its seat open
        self.unsure_seats: list[tuple[int, int, tuple[int, ...]]] = []
        #: the events of each hand as the follower applied them (the record it writes)
        self.events: list[list[dict[str, Any]]] = [[] for _ in match.hands]
        self.leaders: list[int | None] = [h.leader for h in match.hands]
        if match.current is None:
            self.start_hand()

    @classmethod
    def from_record(cls, record: dict[str, Any], starts_hands: bool = True) -> Follower:
        """A follower that takes up a match record part played: the record's tiles are looked for
        in the next frames by what they are and what they lie against (`_find_unseen`)."""
        match = Match.from_record({k: v for k, v in record.items() if k != "pending"})
        hand = match.current
        follower = cls(
            match,
            leader=hand.leader if hand is not None and hand.leader is not None else 0,
            starts_hands=starts_hands,
            seating=seating_of(record),
        )
        follower.events = [list(h.get("events") or []) for h in record.get("hands") or []]
        follower.leaders = [h.leader for h in match.hands]
        follower.leader_known = hand is None or hand.leader is not None
        if match.current is not None:
            follower.placed = [None] * len(match.current.layout.placements)
        return follower

    @property
    def open_changes(self) -> int:
        """The changes since the last settled move in which no new tile was first read."""
        return sum(not tiles for tiles in self.changes)

    def ended(self) -> Outcome | None:
        """The source of frames ended (the watch's last photo, a film's end). A change left
        unsettled (the table changed since the last settled move and nothing new was read: a
        play the reader missed, or took for a box across layout tiles) is asked about then, as a
        question kept under `pending`, never dropped unsaid. None where nothing is left open.

        The last photo's tiles left for the next look (`leftover`: several new tiles, a later one's
        seat open) get no next look: they are taken up from that photo now, as the page takes up
        a photo's rest (`webapp.frames`), and played, kept or asked about like a new photo's."""
        if (
            self.leftover
            and self.pending is None
            and self.last_look is not None
            and self.match.current is not None
            and not self.hand.over
        ):
            outcome = self.observe(self.last_look, None, image=self.last_image)
            if outcome.kind != "nothing":
                return outcome
        changes = self.open_changes
        if self.pending is not None or self.match.current is None or self.hand.over or not changes:
            return None
        look = self.last_look if self.last_look is not None else self.reference
        if look is None:
            return None
        why = Reason(
            f"the photos ended with the table changed {changes} time{'s' if changes > 1 else ''} since the "
            "last settled move and no new tile read there: was a tile played?",
            code="unsettled_end",
            changes=changes,
        )
        return self._ask(look, why, [])

    # -- the record --------------------------------------------------------------------------

    @property
    def hand(self) -> Hand:
        hand = self.match.current
        assert hand is not None
        return hand

    def start_hand(self, leader: int | None = None) -> None:
        """A new hand: the table is cleared and dealt (the next changed frame is its start). In
        the games that draw, the camera does not count the draws: the hand's tile counts stay
        open (`unseen_draws`), so no count ends it that an unseen draw could change."""
        self.match.start_hand(leader=leader, unseen_draws=self.match.rules.variant.leftovers == "boneyard")
        self.changes = []
        self.doubts = []
        self.faint_looks = []
        self.events.append([])
        self.leaders.append(leader)
        self.placed = []
        self.padded = {}
        self.answered_unread = set()
        self.pending = None
        self.leftover = []
        self.named = []
        self.crossing = []
        self.vouched = []
        self.reference = None

    def open_counts(self) -> None:
        """The current hand's draws are not all seen after all (the page's camera starts following
        a hand a player started): its tile counts stay open (`unseen_draws`) from here on, and the
        boneyard in view is watched for draws, as in a hand this follower started."""
        hand = self.hand
        if not hand.full and hand.rules.variant.leftovers == "boneyard":
            hand.unseen_draws = True

    def record(self) -> dict[str, Any]:
        """The match record of GAME_RECORD.md, with what is still to confirm under `pending`."""
        record = self._followed()
        hands = record["hands"]
        unconfirmed: list[dict[str, Any]] = []
        run = self.open_run()
        if run is not None:
            # nothing from the first play of an open seat on is recorded: a pass before it moves
            # the turn of every play after it
            first_hand, first_event = run
            seats = {(h, i): list(c) for h, i, c in self.unsure_seats}
            for h in range(first_hand, len(hands)):
                events = hands[h]["events"]
                start = first_event if h == first_hand else 0
                for i, event in enumerate(events[start:], start):
                    unconfirmed.append(
                        {"hand": h, "event": i, **event, **({"seats": seats[h, i]} if (h, i) in seats else {})}
                    )
                hands[h]["events"] = events[:start]
            del hands[first_hand + 1 :]
        if self.pending is not None:
            record["pending"] = self.pending.outcome.to_json()
        if unconfirmed:
            first = next(e for e in unconfirmed if "seats" in e)
            why = f"who played {first['tile']}: " + " or ".join(f"seat {s}" for s in first["seats"]) + "?"
            record.setdefault(
                "pending",
                {
                    "kind": "ask",
                    "reason": why,
                    "code": "who_played",
                    "params": {"tile": first["tile"], "seats": first["seats"]},
                },
            )
            record["pending"]["unconfirmed"] = unconfirmed
        return record

    def _followed(self) -> dict[str, Any]:
        """The record of every event as the follower applied it, open seats included."""
        rules = self.match.rules
        hands = []
        for h, events in enumerate(self.events):
            row: dict[str, Any] = {"events": list(events)}
            leader = self.match.hands[h].leader if h < len(self.match.hands) else None
            if leader is not None:
                row["leader"] = leader
            if h < len(self.match.hands) and self.match.hands[h].unseen_draws:
                row["unseen_draws"] = True
            hands.append(row)
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "variant": rules.name,
            "players": list(self.match.players),
            "hands": hands,
        }
        options = rules.options_dict()
        if options:
            record["options"] = options
        seating = self.seats.seating
        if self.seats.given and seating is not None and None not in seating.sides:
            record["seating"] = [SIDES[side] for side in seating.sides if side is not None]
        return record

    # -- plays followed with their seat open ----------------------------------------------------

    def open_run(self) -> tuple[int, int] | None:
        """Where the plays followed with their seat open (`carry_on`) begin: the hand, and the
        index of the first open play's first event (the draws its seat was given before it)."""
        if not self.unsure_seats:
            return None
        h, i, _ = self.unsure_seats[0]
        events = self.events[h]
        while i > 0 and events[i - 1].get("type") == "draw":
            i -= 1
        return h, i

    def run_question(self) -> Outcome | None:
        """The one question for the plays followed with their seat open: did anyone pass from the
        first of them on? `params["plays"]` holds them as followed (each the turn seat's, as if no
        one passed); `settle_run` takes the answer. None where no play is open."""
        if self.open_run() is None:
            return None
        plays = [e for e in self.run_events() if e.get("type") == "play"]
        first = plays[0]
        listed = ", ".join(f"seat {e['seat']} {e['tile']}" for e in plays)
        why = Reason(
            f"did anyone pass from {first['tile']} on? (a pass shows in no photo) {len(plays)} play(s) "
            f"followed as if no one did: {listed}",
            code="passes_unsure",
            tile=first["tile"],
            seats=list(self.unsure_seats[0][2]),
            plays=[dict(e) for e in plays],
        )
        return Outcome("ask", why, settled=False)

    def run_events(self) -> list[dict[str, Any]]:
        """The events from `open_run` on, as followed (the answer "no one passed")."""
        run = self.open_run()
        if run is None:
            return []
        h, start = run
        return self.events[h][start:] + [e for hand in self.events[h + 1 :] for e in hand]

    def run_with_pass(
        self, play: int, seat: int, events: Sequence[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """The open run's events (or `events`, an answer being made) with its play number `play`
        (from 0) laid by `seat` after a pass, and each play after it by the seat after the one
        before (`with_pass`). A person names the first play after a pass and who laid it, then the
        next such play after it, and so on."""
        return with_pass(
            self.run_events() if events is None else events, play, seat, self.hand.next_seat, len(self.match.players)
        )

    def settle_run(self, events: Sequence[dict[str, Any]]) -> Outcome:
        """A person's answer to `run_question`: what happened from the run's first play on, the
        same plays (tile and end) in order, each with its seat, and the draws told; the scorer
        infers the passes from the seats. Nothing changes where the plays differ (ValueError) or
        the scorer refuses them (RecordError)."""
        run = self.open_run()
        if run is None:
            raise ValueError("no play is kept to confirm")
        h, start = run
        if h != len(self.events) - 1:
            raise ValueError(
                f"the plays kept to confirm began in hand {h + 1}, before this one: confirm them in the record"
            )
        said = list(events)
        for k, event in enumerate(said):
            if not isinstance(event, dict) or event.get("type") not in ("play", "pass", "draw"):
                raise ValueError(f"answer event {k}: only plays, passes and draws settle who played")

        def plays(of: Sequence[dict[str, Any]]) -> list[tuple[Tile, Any]]:
            return [(Tile.parse(e["tile"]), e.get("end")) for e in of if e.get("type") == "play"]

        kept = self.events[h][start:]
        if plays(said) != plays(kept):
            laid = ", ".join(f"{e['tile']} ({e.get('end') or 'lead'})" for e in kept if e.get("type") == "play")
            raise ValueError(f"the answer must hold the plays kept to confirm, in order: {laid}")
        record = self._followed()
        record["hands"][h]["events"] = self.events[h][:start] + said
        rebuilt = Match.from_record(record, open_last=True)  # refused: RecordError, nothing changed
        # the same object: whoever made this follower with the match sees the answer
        self.match.__dict__.update(rebuilt.__dict__)
        self.events[h] = record["hands"][h]["events"]
        self.unsure_seats = []
        where = [(h, i) for i in range(start, len(self.events[h]))]
        return Outcome("play", "who played: confirmed by a person", said, where, code="seats_confirmed")

    def _apply(self, event: dict[str, Any]) -> tuple[int, int]:
        self.match.apply(event)  # checked completely before anything changes
        h = len(self.match.hands) - 1
        self.events[h].append(event)
        return h, len(self.events[h]) - 1

    # -- what players say ---------------------------------------------------------------------

    def tap_pass(self, seat: int | None = None) -> Outcome:
        """A player taps "pass" (the turn seat when not said)."""
        seat = self.hand.turn if seat is None else seat
        event = {"type": "pass", "seat": seat}
        try:
            where = self._apply(event)
        except RecordError as error:
            return Outcome(
                "ask",
                f"a pass by seat {seat} is refused: {error.message}",
                code="pass_refused",
                params={"seat": seat, **_refused(error)},
            )
        return Outcome("pass", f"seat {seat} passed", [event], [where], code="passed", params={"seat": seat})

    def reveal(self, seat: int, reading: Reading) -> Outcome:
        """End of hand: a photo of one player's remaining tiles; every tile in it is theirs."""
        tiles = [str(t.tile) for t in reading.tiles]
        event = {"type": "reveal", "seat": seat, "tiles": tiles}
        try:
            where = self._apply(event)
        except RecordError as error:
            return Outcome(
                "ask",
                f"seat {seat} shows {', '.join(tiles) or 'nothing'}, refused: {error.message}",
                frame=reading.image,
                code="reveal_refused",
                params={"seat": seat, "tiles": tiles, **_refused(error)},
            )
        pips = sum(t.tile.pips for t in reading.tiles)
        return Outcome(
            "reveal",
            f"seat {seat} holds {pips} pips",
            [event],
            [where],
            frame=reading.image,
            code="revealed",
            params={"seat": seat, "pips": pips},
        )

    def confirm(self, events: Sequence[dict[str, Any]]) -> Outcome:
        """A person settles the pending ask with the events that really happened (in order).

        Answered, a question about a layout that left its places says the layout is as recorded:
        its places are carried into the asked photo by the camera's motion however far the phone
        turned or zoomed, else found there by their tiles (`_reseat`); one found nowhere is not
        looked for where it was."""
        pending = self.pending
        if pending is None:
            raise ValueError("nothing is waiting to be confirmed")
        reframed = pending.outcome.code == "layout_moved"
        if reframed:
            self.pending = None  # the asked photo is where the places go, not a photo to carry
            self._follow_camera(pending.reading, REFRAME_TURN, REFRAME_SCALE)
            self.pending = pending
        new = list(pending.outcome.new_tiles)
        applied, where, found = [], [], []
        seated: list[tuple[int, TileReading | None]] = []  # each play's seat and the tile it was read as
        for event in events:
            tile = Tile.parse(event["tile"]) if event.get("type") == "play" else None
            end = event.get("end")
            reading = self._confirmed_tile(new, tile, end) if tile is not None else None
            if reading is not None:
                new.remove(reading)
            inner = self._inner_for(reading, end, event) if reading is not None else 0
            where.append(self._apply(event))  # a refused event raises RecordError: nothing changed
            applied.append(event)
            if tile is not None:
                if reading is None:  # it lay in the asked look, unread there
                    self.answered_unread.add(len(self.placed))
                self.placed.append(Seen(reading, inner) if reading is not None else None)
                seated.append((int(event["seat"]), reading))
            if reading is not None:
                found.append(reading)
        self.pending = None
        # a person said who laid each play: evidence for the seating through the arm that laid it,
        # where every new tile of the look is answered here (else the one arm seen may have laid
        # another of them, and a seating learnt from it names the seats of later plays wrongly,
        # unasked), of the arms seen before each tile was first read (`_arms_for`)
        whole = len(found) >= len(pending.outcome.new_tiles)
        tiles = [t for _, t in seated]
        arms = self._arms_for(pending.reading, tiles) if whole else [None] * len(tiles)
        for (seat, _), arm in zip(seated, arms, strict=True):
            self.seats.played(seat, arm)
        self.seats.spent()
        self._spend(applied, found, answered=True)
        self.doubts = []
        # the tiles asked about or named beside this play that it is not may have been laid after
        # it: the next play names them again (and a new one is played next); confirmed past a
        # second time, they only lie there (a tile in a hand, a box on nothing) and are not
        # asked about again
        rest = [t for t in new if t.confidence >= FAINT]
        layout = self.hand.layout
        # several new tiles the rules allow in more than one order, one of them answered: the
        # others are the plays after it, taken up next from the same photo (`leftover`), not
        # tiles a play was confirmed past (twice confirmed past, a tile only lies there)
        ordered = pending.outcome.code == "order_unknown"
        for lying in list(pending.aside) + ([] if ordered else rest):
            if _alone(lying, self.named) and layout.fits(lying.tile) and lying.tile not in self.hand.on_table:
                self.named.append(lying)
            else:  # named before, or no play after this one as it reads: it only lies there
                self.vouched.append(lying)
        self.leftover = [t for t in rest if not self._vouched(t)]
        self._accept(pending.reading)
        if reframed:
            self._reseat(pending.reading)
        if self.backs is not None and applied:  # the draws answered are spent: count on from this photo's boneyard
            self.backs = self.backs_last = _backs(pending.reading)
        return Outcome("play", "confirmed by a person", applied, where, frame=pending.reading.image, code="confirmed")

    def decline(self, said: bool = True) -> None:
        """A person says the pending question's play is not what happened (and may score the
        play on the pad: `scored`). Its new tiles stay new: turned down for a seat or an end,
        one may still be the play, or the next one after a play the camera missed. Seen as new
        again, such a tile is asked about, not played, unless as many plays were scored since as
        the question took for missed; a question like it on the same record is not asked again.
        `said` False: nobody answered it, the record went on without it (a play scored on the
        pad): its tiles are doubted as much, but a later question says so, not "turned down"."""
        pending = self.pending
        if pending is None:
            return
        self.pending = None
        if pending.first_look:  # they only lie there: the table as it starts, as for `spinner watch`
            self.furniture += list(pending.outcome.new_tiles)
            self._accept(pending.reading)
            self.changes = []  # the first look changed nothing
            return
        best = (
            pending.outcome.candidates[0][0].event
            if pending.outcome.candidates and pending.outcome.candidates[0]
            else None
        )
        plays = len(self.hand.layout.placements)
        self.doubts += [
            Doubt(t, pending.missed, plays, best, said, pending.arms_seen) for t in pending.outcome.new_tiles
        ]

    def scored(self, events: Sequence[dict[str, Any]]) -> list[tuple[int, int]]:
        """Events scored elsewhere (the pad), with no question open about them: applied, their
        tiles looked for in the next frames (`_find_unseen`). They spend the table's changes up to
        the one in which the camera first read one of their tiles (all of them where it read
        none: a play it never saw settles what it could not explain)."""
        where = []
        for event in events:
            where.append(self._apply(event))  # a refused event raises RecordError
            if event.get("type") == "play":
                self.padded[len(self.placed)] = int(event["seat"])
                self.placed.append(None)
                # no evidence for the seating: which of the arms seen laid a play scored on the pad
                # is not known (the last one may have laid a tile since, still unrecorded)
                self.seats.spent()
        self._spend(events)
        laid = {Tile.parse(e["tile"]) for e in events if e.get("type") == "play" and e.get("tile")}
        for doubt in self.doubts:
            # turned down in a question that proposed no play (too many new tiles, in no order),
            # faint, and not the play scored: it only lies there. One a question proposed as the
            # play may be the scored play misread, and is asked about again.
            lying = doubt.reading
            if (
                doubt.event is None
                and lying.tile not in laid
                and lying.confidence < LIES_THERE
                and _alone(lying, self.vouched)
            ):
                self.vouched.append(lying)
        return where

    def _spend(
        self, events: Sequence[dict[str, Any]], readings: Sequence[TileReading] = (), answered: bool = False
    ) -> None:
        """The changes that `events` (just recorded) explain: those up to the latest one in which
        one of their tiles (or one of `readings`, the tiles they were found to be) was first read.
        Where none was, each play the camera never saw explains one change in which nothing new
        was read, the earliest first: a change in which another tile was read is that tile's, and
        stays open until it is played or a later play settles it. (Spent with the rest, a tile
        turned down and still lying there, outside the next change's regions, would let the play
        after it be taken as the next one, by the wrong seat.) `answered`: the events are a
        person's answer to the question about the changes so far, which they settle all."""
        plays = [e for e in events if e.get("type") == "play" and e.get("tile")]
        tiles = {Tile.parse(e["tile"]) for e in plays}
        seen = [
            k
            for k, news in enumerate(self.changes)
            if any(t.tile in tiles or any(t is r for r in readings) for t in news)
        ]
        if seen or answered:
            self.changes = self.changes[max(seen) + 1 :] if seen else []
            return
        unseen, kept = len(plays), []
        for news in self.changes:
            if not news and unseen:
                unseen -= 1
                continue
            kept.append(news)
        self.changes = kept

    def _confirmed_tile(self, new: list[TileReading], tile: Tile, end: str | None) -> TileReading | None:
        """Which new tile a person's confirmed play is: the one read as it, else (one not read as
        any tile a person confirmed) the one lying against its end, or the lead when it is the only
        one. None when the camera did not see it: it is looked for in the next frames."""
        named = [t for t in new if t.tile is tile]
        if named:
            return named[0]
        if end is None:
            return new[0] if len(new) == 1 else None
        lying = [(end_geometry(self.hand.layout, self.placed, end, t)[0], k) for k, t in enumerate(new)]  # type: ignore[arg-type]
        best = max(lying, default=(0.0, -1))
        return new[best[1]] if best[0] >= TOUCHING else None

    def _inner_for(self, reading: TileReading, end: str | None, event: dict[str, Any]) -> int:
        if end is None:  # the lead: its west half is the one showing the first number written
            west = int(str(event["tile"]).split("-")[0])
            return 0 if reading.halves[0].value == west or reading.halves[1].value != west else 1
        _, near = end_geometry(self.hand.layout, self.placed, end, reading)  # type: ignore[arg-type]
        return near

    # -- what the camera sees -----------------------------------------------------------------

    def observe(
        self,
        reading: Reading,
        regions: Sequence[Region] | None = None,
        again: bool = False,
        photo: bool = False,
        arms: Sequence[ArmSighting] = (),
        image: np.ndarray | None = None,
    ) -> Outcome:
        """A frame that differs from the last accepted one: what happened on the table.

        `again`: the table is as it was at the last frame observed (the same change, read once more
        after something moved over it), not another change. `photo`: a photo taken on purpose, not
        a camera watching: with nothing to compare it with, every tile the record does not place
        there is new (a camera's first frame is the table as it starts). `arms`: the arms seen
        reaching over the table since the last frame observed (`seats.ArmWatch`), oldest first.
        `image`: the frame's pixels, where known: a back gone from its place is taken only where
        the table shows there (`boneyard.bare`), not something standing over it."""
        self.seats.saw(arms)
        self.last_image = image
        self.arms_seen = self.arms_seen or bool(arms)
        self.last_look = reading
        self.passed_over = []
        first_look = self.reference is None
        self.looking_first = first_look and self.first_look_new and not photo
        if self.reference is None:
            if not photo and not (self.first_look_new and (self.hand.layout.placements or self._in_play(reading))):
                self.furniture = list(reading.tiles)
                self._accept(reading)
                self._count_boneyard(reading)
                if self._in_play(reading):  # said, not scored: the plays before the first frame were not seen
                    laid = sum(t.confidence >= FAINT for t in reading.tiles)
                    return Outcome(
                        "nothing",
                        f"the table as it starts already shows {laid} tiles, some joined as a layout (a game "
                        "under way?): they are taken as lying there, not scored; start watching before the "
                        "lead to score them",
                        frame=reading.image,
                        code="table_start",
                        params={"laid": laid},
                    )
                return Outcome("nothing", "the table as it starts", frame=reading.image, code="table_start")
            self.reference = Reading(reading.image, reading.width, reading.height, ())
            self._count_boneyard(reading)
        hand = self.hand
        question = self.run_question() if hand.over and self.ask_runs else None
        if question is not None:  # over as followed: a pass in the run may have changed who went out
            question.frame = reading.image
            return question
        if hand.over:
            if self.match.over:  # no next hand to start: the match is won
                return Outcome(
                    "over",
                    "the match is over: it is won (start a new match for another game)",
                    frame=reading.image,
                    code="match_over",
                )
            if not self.starts_hands:
                return Outcome(
                    "over", "the hand is over: start the next one on the pad", frame=reading.image, code="over_pad"
                )
            if not reading.tiles:  # the table is cleared: the next hand
                try:
                    self.start_hand()
                    # who leads it is the rules' (the next seat, the winner...) or, where they
                    # leave it to the table (after a blocked hand: random), asked at its lead
                    self.leader_known = self.hand.leader is not None
                    self.leader = self.hand.leader if self.hand.leader is not None else self.leader
                except RecordError as error:
                    return Outcome(
                        "ask",
                        f"the table is cleared, but the next hand cannot start: {error.message}",
                        frame=reading.image,
                        code="next_hand_refused",
                        params=_refused(error),
                    )
                self._accept(reading)
                return Outcome(
                    "nothing",
                    f"the table is cleared: hand {len(self.match.hands)} starts",
                    frame=reading.image,
                    code="next_hand",
                    params={"hand": len(self.match.hands) - 1},
                )
            return Outcome(
                "over",
                "the hand is over: show each player's tiles, then clear the table",
                frame=reading.image,
                code="over_show",
            )
        # the phone moved since the layout was last seen: its tiles are looked for where they
        # lie in this photo's pixels (where the motion cannot be told, they are looked for where
        # they were, and a layout that left its places is asked about)
        self._follow_camera(reading)
        diff = compare(self.reference, reading, regions)
        # The layout's tiles are where they were last seen (`placed`), whatever the last frame
        # read: one the reader missed there and finds again is not a move, and one it misses
        # now has not left (tiles are not taken back). Only most of the layout gone at once
        # (the camera moved, the table swept) is asked about.
        # A tile a person confirmed, found now where it was played, can explain this change (an
        # arm or a glare left it), but no earlier one: those were read before it was found. And
        # where a new tile is read, the new tile is this change, and a confirmed tile read better
        # now explains nothing.
        unseen_found = self._find_unseen(reading)
        current = 0 if again else 1
        new = []
        for t in diff.new:
            if self._placed_at(t) is not None or t.confidence < FAINT or self._vouched(t):
                continue
            if not self._over_layout(t, reading):
                new.append(t)
            elif not self._reads_as_covered(t, reading) and _alone(t, self.crossing):
                self.crossing.append(t)
        for left in self.leftover:  # still unrecorded, though not new against the reference
            here = [t for t in reading.tiles if not _alone(t, [left]) and self._placed_at(t) is None]
            if (
                here
                and all(_alone(here[0], [n]) for n in new)
                and not self._over_layout(here[0], reading)
                and not self._loose(here[0], new)  # a tile put aside is no play
            ):
                new.append(here[0])
        self.leftover = []
        # a tile read where another lay, that other read nowhere now: the one was taken back and
        # this one laid in its place (a misplay corrected). Where the one was a recorded play it
        # is asked about below; else (a tile turned down, never a play) this one is new
        replaced: list[tuple[Seen, TileReading]] = []
        for t in self._in_place_of_another(reading, regions) if not again else []:
            there = self._placed_at(t)
            if there is not None:
                replaced.append((there, t))
            elif _alone(t, new) and not self._over_layout(t, reading):
                new.append(t)
        if len(new) > 1:
            touching = [t for t in new if not self._loose(t, new)]
            new = touching or new
        if unseen_found and not new:
            # a play scored on the pad before the camera saw it laid: the arms seen until its tile
            # came laid it, and are no evidence for the next play. Where it is the one tile that
            # came, the arm that laid it (`arms_for`: it left the table changed and reached the
            # tile) is evidence for the seating, its seat being the one a person scored
            if len(self.padded_found) == 1:
                seat, found = self.padded_found[0]
                self.seats.played(seat, self.seats.arms_for([_point(found, reading)])[0])
            self.seats.spent()
        seen = [s for s in self.placed if s is not None]
        missing = [
            s.reading for s in seen if _alone(s.reading, reading.tiles) and _in_regions(s.reading.center, regions, 0.0)
        ]
        if missing and 2 * len(missing) > len(seen):
            gone = ", ".join(str(t.tile) for t in missing)
            return self._ask(
                reading,
                Reason(
                    f"the layout's tiles left their places ({gone}): the camera moved, or tiles were moved or taken back",
                    code="layout_moved",
                    tiles=[str(t.tile) for t in missing],
                ),
                new,
            )
        if replaced:
            took = ", ".join(str(there.reading.tile) for there, _ in replaced)
            put = ", ".join(str(t.tile) for _, t in replaced)
            return self._ask(
                reading,
                Reason(
                    f"{took}, recorded, lies there no more and {put} lies in its place: taken back and "
                    "another tile played instead? (put the record right on the pad)",
                    code="replaced",
                    tiles=[str(there.reading.tile) for there, _ in replaced],
                    laid=[str(t.tile) for _, t in replaced],
                ),
                [t for _, t in replaced],
            )
        # the phone moved and shows table the photo before did not: a tile lying there came into
        # view (a tile lying about, a player's own), or was played there: a person says. Only
        # where nothing ties it to the layout: as the lead, or lying loose. A tile against the
        # layout is a play the next photo framed, as a line grows past the last photo's edge
        laid = any(s is not None for s in self.placed)
        came = [t for t in new if not self._seen_before(t) and (not laid or self._loose(t, new))]
        if came:
            names = ", ".join(str(t.tile) for t in came)
            return self._ask(
                reading,
                Reason(
                    f"{names} came into view as the camera moved: was it played?",
                    code="into_view",
                    tiles=[str(t.tile) for t in came],
                ),
                new,
            )
        changes = len(self.changes) + current
        # a back gone from where the frame changed was drawn, whatever the count says
        appeared, hidden = self.boneyard.appeared, self.boneyard.hidden
        taken = self.boneyard.look(reading, regions, self.last_image) if self.hand.unseen_draws else 0
        # (a back taken where nothing could tell whether the table shows may be one the reader
        # boxed as something else: it is a draw, but the count says no more)
        self.backs_taken = taken if self.boneyard.seen_gone == taken else 0
        if self.boneyard.appeared > appeared or self.boneyard.hidden > hidden:
            # a back where none lay (a drawn tile laid face down in view, a back moved): the backs
            # in view are no longer the boneyard alone, and a draw leaves their count unchanged;
            # or a back hidden where something stands over it: their count is short of the boneyard
            self.backs_exact = False
            self.backs_taken = 0
        # a faint tile apart from the layout, where a back lay until it was drawn, is what the back
        # hid or shaded (a board's printed picture): it was not laid
        new = [
            t
            for t in new
            if t.confidence >= LIES_THERE or not (self.boneyard.uncovered(t.center) and self._loose(t, []))
        ]
        self._count_boneyard_late(reading)
        recounted = self.backs_last
        drew = self._drew(reading)
        if not new:
            self._accept(reading)
            self.seats.looked()
            self.faint_looks = [(t, k) for t, k in self.faint_looks if k > self.seats.spent_count] + [
                (t, self.seats.seen_count) for t in diff.new if t.confidence < FAINT and self._placed_at(t) is None
            ]
            # a first look at a bare table changed nothing; a draw from a counted boneyard is no
            # play, nor is a back more or less where nothing else is new (a miscount, `_drew`),
            # nor a change that took a back from where it lay
            recounted = recounted is not None and self.backs_last is not None and recounted != self.backs_last
            counted = bool(
                current
                and not unseen_found
                and not first_look
                and not drew
                and not recounted
                and not taken
                and not self.reframed
            )
            if counted:
                self.changes.append([])
            if drew or taken:
                return Outcome("nothing", "a tile drawn from the boneyard", frame=reading.image, code="drawn")
            if photo and counted:  # a player took it to show a play: say that none was read
                return Outcome(
                    "nothing",
                    "no new tile was read in this photo (if a tile was played, take the photo again over the "
                    "whole layout, or score the play on the pad)",
                    frame=reading.image,
                    settled=False,
                    code="no_new_tile_photo",
                )
            return Outcome("nothing", "no new tile", frame=reading.image, settled=False, code="no_new_tile")
        # The new tiles first read in this change: the others were new in an earlier one, which
        # they explain (a question left open, or turned down), and do not explain this one too.
        # A tile read earlier that now lies elsewhere, its old place empty, was moved: that is
        # this change (a tile put down apart, then slid into place).
        fresh = [t for t in new if not any(not _alone(t, news) for news in self.changes)]
        moved = [
            t
            for t in fresh
            if any(n.tile is t.tile and _alone(n, reading.tiles) for news in self.changes for n in news)
        ]
        first = [t for t in fresh if t not in moved]
        if current and photo and not first and not moved:
            # a photo that shows no tile an earlier one did not (the same table taken again, its
            # question still open): the same change looked at once more, not another one
            current, changes = 0, changes - 1
        if current and unseen_found and not first:
            # nothing first read here, and a play scored elsewhere found where it lies: that
            # play is this change (as where no tile is new at all)
            current, changes = 0, changes - 1
        if current:
            self.changes.append(first)
        layout = PhotoLayout.of(reading, self.match.rules) if self.hand.layout.placements else PhotoLayout.none()
        changes -= len(moved)
        return (
            self._one(reading, new[0], layout, changes)
            if len(new) == 1
            else self._several(reading, new, layout, changes)
        )

    def _seen_before(self, tile: TileReading) -> bool:
        """Whether the photo before saw where `tile` lies (its whole box), the phone having moved
        between the two (`seen_before`); True where it did not move."""
        if self.seen_before is None:
            return True
        outline = np.asarray(self.seen_before, np.float32)
        return all(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in tile.corners)

    def _reseat(self, reading: Reading) -> None:
        """The layout's tiles not found where they were carried, found in `reading` by their tiles
        (each read once there); one read nowhere is left unseen (`_find_unseen` looks for it
        again), not looked for where it lay before the phone moved."""
        placements = self.hand.layout.placements if self.match.current is not None else []
        for k, seen in enumerate(self.placed):
            if seen is None or k >= len(placements) or not _alone(seen.reading, reading.tiles):
                continue
            tile = placements[k].tile
            found = [t for t in reading.tiles if t.tile is tile and t.confidence >= FAINT]
            if len(found) != 1:
                self.placed[k] = None
                continue
            inner = placements[k].inner
            self.placed[k] = Seen(found[0], seen.inner if tile.is_double else int(found[0].halves[0].value != inner))

    def _follow_camera(self, reading: Reading, most_turn: float | None = None, most_scale: float | None = None) -> bool:
        """Carry every place the follower knows (the layout as last seen, the reference photo's
        tiles, the tiles met and not played) into `reading`'s pixels, where the camera moved since
        (`register.camera_motion`, from the tiles read in both). False where the motion cannot be
        told: everything stays where it was."""
        self.reframed = False
        self.seen_before = None
        before = [s.reading for s in self.placed if s is not None]
        known = {t.tile for t in before}
        if self.reference is not None:
            before += [t for t in self.reference.tiles if t.tile not in known]
        if not before:
            return True
        matrix = (
            camera_motion(before, reading.tiles)
            if most_turn is None or most_scale is None
            else camera_motion(before, reading.tiles, most_turn, most_scale)
        )
        if matrix is None and most_turn is None:
            # more than a hand moves the phone between two photos: a re-frame (put down, picked up
            # again), followed where most of the tiles, and at least three, agree on it
            matrix = camera_motion(before, reading.tiles, REFRAME_TURN, REFRAME_SCALE, REFRAME_AGREEING, REFRAME_SHARE)
            self.reframed = matrix is not None and not is_still(matrix)
        if matrix is None:
            return False
        if is_still(matrix):
            return True

        def moved(tiles: Sequence[TileReading]) -> list[TileReading]:
            return [moved_tile(t, matrix) for t in tiles]

        w, h = float(reading.width), float(reading.height)
        self.seen_before = np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]) @ matrix[:, :2].T + matrix[:, 2]
        for seen in self.placed:
            if seen is not None:
                seen.reading = moved_tile(seen.reading, matrix)
        if self.reference is not None:
            self.reference = moved_reading(self.reference, matrix)
        self.changes = [moved(news) for news in self.changes]
        self.doubts = [replace(d, reading=moved_tile(d.reading, matrix)) for d in self.doubts]
        self.aside, self.named, self.crossing = moved(self.aside), moved(self.named), moved(self.crossing)
        self.vouched, self.furniture, self.leftover = moved(self.vouched), moved(self.furniture), moved(self.leftover)
        if self.pending is not None:
            pending = self.pending
            pending.reading = moved_reading(pending.reading, matrix)
            pending.outcome = replace(pending.outcome, new_tiles=moved(pending.outcome.new_tiles))
            pending.aside = tuple(moved(pending.aside))
        return True

    def _in_place_of_another(self, reading: Reading, regions: Sequence[Region] | None) -> list[TileReading]:
        """Tiles read sure where the frame changed, where the last settled frame (or the layout as
        last seen) had another tile that is read nowhere now, and not read anywhere then: one tile
        taken back and another laid in its place (`compare` knows tiles by their places alone)."""
        if self.reference is None:
            return []
        placements = self.hand.layout.placements if self.match.current is not None else []
        # what lay there: each tile as read, and each layout tile as recorded too
        before = [(t, {t.tile}) for t in self.reference.tiles]
        before += [
            (s.reading, {s.reading.tile, placements[k].tile} if k < len(placements) else {s.reading.tile})
            for k, s in enumerate(self.placed)
            if s is not None
        ]
        now = {t.tile for t in reading.tiles}
        known = {tile for _, tiles in before for tile in tiles}
        out = []
        for t in reading.tiles:
            if (
                t.confidence < LIES_THERE
                or t.unsure
                or min(max(h.probabilities) for h in t.halves) < SURE_HALF
                or t.tile in known
                or not _in_regions(t.center, regions, short_side(t))
            ):
                continue
            under = [tiles for b, tiles in before if not _alone(t, [b]) and b.confidence >= FAINT]
            if under and all(not (tiles & now) for tiles in under):
                out.append(t)
        return out

    def _over_layout(self, tile: TileReading, reading: Reading) -> bool:
        """Whether `tile`'s box is the reader's box across a layout tile and its neighbour (`lies_across`)."""
        return lies_across(
            tile.corners,
            [s.reading.corners for s in self.placed if s is not None],
            [t.corners for t in reading.tiles if t is not tile],
        )

    def _vouched(self, tile: TileReading) -> bool:
        """Whether `tile` is read where a vouched tile lies, as that tile: read as another tile
        there, it may be a play the reader misread before, and is met afresh."""
        return any(v.tile is tile.tile and not _alone(tile, [v]) for v in self.vouched)

    def _straddles(self, tile: TileReading, reading: Reading) -> bool:
        """Whether `tile` is the reader's box across layout tiles: over one (`_over_layout`), and
        reading as the tiles it covers do (`_reads_as_covered`)."""
        return self._over_layout(tile, reading) and self._reads_as_covered(tile, reading)

    def _reads_as_covered(self, tile: TileReading, reading: Reading) -> bool:
        """Whether each of `tile`'s values is a value of a tile its box lies over. A box over a
        layout tile that shows a value none of them has is a tile of its own, laid against that
        one (its box slipped onto it, or the reader lost the tile beneath): not played unasked,
        but named as lying in the layout unrecorded (`_unexplained`)."""
        box = np.asarray(tile.corners, np.float32)
        covered = [s.reading for s in self.placed if s is not None] + [t for t in reading.tiles if t is not tile]
        values = {
            v
            for t in covered
            if share_over(box, np.asarray(t.corners, np.float32)) > 0
            for v in (t.tile.low, t.tile.high)
        }
        return tile.tile.low in values and tile.tile.high in values

    def _loose(self, tile: TileReading, new: Sequence[TileReading]) -> bool:
        """Whether `tile` lies far from every layout tile and every other new tile (`LOOSE`)."""
        others = [s.reading.center for s in self.placed if s is not None] + [t.center for t in new if t is not tile]
        if not others or not self.placed:
            return False  # the lead: nothing to lie against yet
        gaps = np.linalg.norm(np.asarray(others, np.float32) - np.asarray(tile.center, np.float32), axis=1)
        return float(gaps.min()) > LOOSE * short_side(tile)

    def _placed_at(self, tile: TileReading) -> Seen | None:
        """The layout tile last seen where `tile` lies (centres within half a short side), if any."""
        for seen in self.placed:
            if seen is None:
                continue
            gap = np.linalg.norm(np.asarray(seen.reading.center, np.float32) - np.asarray(tile.center, np.float32))
            if gap <= 0.5 * short_side(seen.reading):
                return seen
        return None

    def _one(self, reading: Reading, new: TileReading, photo: PhotoLayout, changes: int = 1) -> Outcome:
        ranked = rank(self.hand, self.placed, new, 0, self.leader, photo)
        # a tile turned down before says so first (it would be asked about as played anyway)
        unclear = clear_winner(ranked, new, self.hand, photo)
        missed = _missed(1, changes)
        why = unclear or self._doubted([new]) or missed
        if why is not None:
            if getattr(why, "code", None) == "no_open_end":
                # the photo shows the tile at no open end: a play of another tile, at an end where
                # nothing was seen, is no question to put ("Was it 1-5?" with 1-5 on no table); the
                # tile read is, where it may be played, or no play at all (the pad scores it)
                ranked = [c for c in ranked if c.move.tile is new.tile]
            options = self._evidenced(reading, [[(c, new)] for c in ranked[:8]], after_missed=missed is not None)
            if unclear is not None and options:  # worded again with the seats the evidence gives
                why = clear_winner([o[0] for o in options], new, self.hand, photo) or unclear
            return self._ask(reading, why, [new], options, changes)
        return self._play(reading, [(ranked[0], new)])

    def _several(self, reading: Reading, new: list[TileReading], photo: PhotoLayout, changes: int = 1) -> Outcome:
        """Several new tiles at once (a move missed under a hand): played only in an order that
        the photo forces (each tile against an end only once the one before it is down)."""
        if len(new) > MAX_AT_ONCE:
            return self._ask(reading, Reason(f"{len(new)} new tiles at once", code="too_many", count=len(new)), new)
        orders = self._orders(new, photo)
        sure = [t for t in new if t.confidence >= LIES_THERE]
        if not orders and 0 < len(sure) < len(new):
            # a faint box beside a sure one (a printed picture the camera's shake or an arm's
            # shadow showed as changed, a second box on the laid tile) that fits no order with
            # it is no play: the sure tiles are, where they fit one order alone
            alone = self._orders(sure, photo)
            if len(alone) == 1:
                self.passed_over = [t for t in new if t.confidence < LIES_THERE]
                new, orders = sure, alone
        if not orders:
            if self._rules_allow(new):
                # the rules allow the tiles as read in some order: the photo does not show which
                # end each lies against (a layout bent where the follower looks for no end)
                why = Reason(
                    f"{len(new)} new tiles at once, and the photo does not show which end each lies against",
                    code="order_unseen",
                    count=len(new),
                )
            else:
                why = Reason(f"{len(new)} new tiles at once, in no legal order", code="no_order", count=len(new))
            return self._ask(reading, why, new, [], changes)
        if len(orders) > 1:
            # no order is proposed as if known: the plays that may have come first are the
            # choices (the likeliest order's first), each with the seat the evidence gives, and
            # once one is answered the rest of the photo is taken up (`leftover`). Where who laid
            # a first play is open too (a pass was possible, no arm seen), that play names no
            # seat and `open_seats` lists who may have laid it: asked with the play (a play whose
            # seat the evidence gives keeps it: one tap records it)
            orders.sort(key=lambda o: -math.prod(c.share for c in o))
            options = self._evidenced(reading, [[(c, new[c.tile]) for c in o] for o in orders])
            first = {_words(o[0]): o[0] for o in options}
            open_seats = next((list(c.seats) for c in first.values() if c.seat_open), [])
            plays = [{**c.event, "seat": None} if c.seat_open else c.event for c in first.values()]
            why = Reason(
                f"{len(new)} new tiles at once, and the order cannot be told: which came first, "
                + " or ".join(first)
                + "?",
                code="order_unknown",
                count=len(new),
                plays=plays,
                **({"open_seats": open_seats} if open_seats else {}),
            )
            return self._ask(reading, why, new, options, changes)
        missed = _missed(len(new), changes)
        if missed is not None:
            options = self._evidenced(reading, [[(c, new[c.tile]) for c in o] for o in orders], after_missed=True)
            return self._ask(reading, self._doubted(new) or missed, new, options, changes)
        return self._play(reading, [(c, new[c.tile]) for c in orders[0]])

    def _orders(self, new: list[TileReading], photo: PhotoLayout) -> list[list[Candidate]]:
        """Every order in which `new` may have been played, each tile against an open end."""
        orders = []
        for order in itertools.permutations(range(len(new))):
            sequence = self._try_order(new, order, photo)
            if sequence is not None:
                orders.append(sequence)
        return orders

    def _lead_by_arm(
        self, reading: Reading, chosen: list[tuple[Candidate, TileReading]]
    ) -> list[tuple[Candidate, TileReading]] | None:
        """The lead given to the seat whose arm laid it, where the seating is given (asked once at
        the start: no play has taught one yet) and the rules let that seat lead; None: ask."""
        if not self.seats.given:
            return None
        arms = self._arms_for(reading, [t for _, t in chosen])
        hand = self.hand
        out = []
        for (candidate, tile), arm in zip(chosen, arms, strict=True):
            if candidate.move.end is None:
                evidence = seat_of_play(self.seats.seating, arm, hand.active)
                if evidence is None:
                    return None
                seat = evidence.seat
                candidate = replace(
                    candidate, move=replace(candidate.move, seat=seat), event={**candidate.event, "seat": seat}
                )
                self.leader, self.leader_known = seat, True
            out.append((candidate, tile))
        return out

    def _rules_allow(self, new: Sequence[TileReading]) -> bool:
        """Whether the tiles as read may be played in some order at some open ends, whatever the
        photo shows of where they lie (the scorer's rules alone)."""

        def fits(match: Match, left: list[Tile]) -> bool:
            if not left:
                return True
            hand = match.current
            assert hand is not None
            for move in legal_moves(hand, self.leader):
                if move.tile in left:
                    after = copy.deepcopy(match)
                    try:
                        after.apply(move_event(move))
                    except RecordError:
                        continue
                    if fits(after, [t for t in left if t is not move.tile]):
                        return True
            return False

        return fits(self.match, [t.tile for t in new])

    def _try_order(self, new: list[TileReading], order: Sequence[int], photo: PhotoLayout) -> list[Candidate] | None:
        match = copy.deepcopy(self.match)
        placed = list(self.placed)
        sequence = []
        for i in order:
            hand = match.current
            assert hand is not None
            ranked = rank(hand, placed, new[i], i, self.leader, photo)
            if clear_winner(ranked, new[i], hand, photo) is not None:
                return None
            best = ranked[0]
            try:
                match.apply(best.event)
            except RecordError:
                return None
            placed.append(Seen(new[i], best.inner))
            sequence.append(best)
        return sequence

    def _play(self, reading: Reading, chosen: list[tuple[Candidate, TileReading]]) -> Outcome:
        self.aside = []
        doubted = self._doubted([t for _, t in chosen])
        if doubted is None and self.looking_first:
            doubted = Reason(
                "these tiles were on the table when the camera started: were they played?", code="first_look"
            )
        if doubted is None:
            doubted = self._unexplained(reading, [t for _, t in chosen])
        if doubted is None:
            doubted = _unsure(chosen)
        if doubted is None and not self.leader_known and any(c.move.end is None for c, _ in chosen):
            led = self._lead_by_arm(reading, chosen)
            if led is None:
                doubted = Reason("who leads this hand is not known: choose the player", code="leader_unknown")
            else:
                chosen = led
        if doubted is not None:
            return self._ask(reading, doubted, [t for _, t in chosen], self._evidenced(reading, [chosen]))
        seated = self._seated(reading, chosen)
        if isinstance(seated, Outcome):
            return seated
        # a later tile whose seat is not settled: the tiles before it are played, and it is new
        # again at the next look, where it is asked about alone
        later = [t for _, t in chosen[len(seated) :]]
        chosen = chosen[: len(seated)]
        events, where = [], []
        for k, ((candidate, tile), (before, sure, arm)) in enumerate(zip(chosen, seated, strict=True)):
            try:
                for event in before:  # draws the seat's play implies, that no photo showed
                    where.append(self._apply(event))
                    events.append(event)
                where.append(self._apply(candidate.event))
            except RecordError as error:  # the scorer has the last word
                return self._ask(
                    reading,
                    Reason(
                        f"the scorer refuses {_words(candidate)}: {error.message}",
                        code="refused",
                        event=candidate.event,
                        **_refused(error),
                    ),
                    [t for _, t in chosen],
                    [[c for c, _ in chosen]],
                )
            events.append(candidate.event)
            self.placed.append(Seen(tile, candidate.inner))
            self.seats.played(sure, arm)
            if k in self.open_seats:
                self.unsure_seats.append((*where[-1], self.open_seats[k]))
        self.pending = None  # what was asked about before is settled by this photo
        # a play read late (first in an earlier change, asked about since) leaves the changes
        # after that one open: plays may have been laid meanwhile that the reader did not see
        self._spend(events, [t for _, t in chosen])
        self.doubts = []
        self._accept(reading)
        self.seats.spent()
        self.leftover = later
        if self.backs is not None:
            self.backs = _backs(reading)
            # (the draws seen taken in this frame keep the count exact where the record took them)
            seen = self._seen_drawn(self.backs) and self.backs == self.hand.boneyard
            self.backs_exact = self.backs_exact and (self._counted_before(self.backs) or seen)
        share = min(c.share for c, _ in chosen)
        why = Reason(f"evidence share {share:.2f}", code="evidence", share=round(share, 2))
        if self.likely_seats:
            k, (seats, chance) = next(iter(self.likely_seats.items()))
            played, seat = str(chosen[k][0].move.tile), chosen[k][0].move.seat
            why = Reason(
                f"evidence share {share:.2f}; {played} recorded as seat {seat}'s, no arm seen: of the seats "
                + " or ".join(f"seat {s}" for s in seats)
                + f", the deals left make it {chance:.4f} sure (a pass shows in no photo)",
                code="evidence",
                share=round(share, 2),
                tile=played,
                seat=seat,
                seats=list(seats),
                chance=round(chance, 4),
            )
        if self.open_seats:
            k, seats = next(iter(self.open_seats.items()))
            played, seat = str(chosen[k][0].move.tile), chosen[k][0].move.seat
            why = Reason(
                f"who played {played}: "
                + " or ".join(f"seat {s}" for s in seats)
                + f"? (a pass shows in no photo) followed as seat {seat}'s, kept to confirm",
                code="seat_unsure",
                tile=played,
                seats=list(seats),
                seat=seat,
            )
        return Outcome(
            "play",
            why,
            events,
            where,
            [[c for c, _ in chosen]],
            [t for _, t in chosen],
            reading.image,
            settled=not later,
        )

    def _seated(
        self, reading: Reading, chosen: list[tuple[Candidate, TileReading]]
    ) -> list[tuple[list[dict[str, Any]], int | tuple[int, ...], ArmSighting | None]] | Outcome:
        """Who laid each chosen tile (`SeatKeeper.choose`): each candidate's event gets its seat,
        and with it come the draws that seat's play implies and the seat or seats that were the
        evidence for it. Where nothing settles a tile's seat: the question "who played it?" for
        the first tile; for a later one, the plan stops before it (it is asked about alone)."""
        match = self.match if len(chosen) == 1 else copy.deepcopy(self.match)
        out: list[tuple[list[dict[str, Any]], int | tuple[int, ...], ArmSighting | None]] = []
        unsure = self.open_seats = {}
        likely = self.likely_seats = {}
        arms = self._arms_for(reading, [t for _, t in chosen])  # each arm lays one tile
        for k, (candidate, tile) in enumerate(chosen):
            hand = match.current
            assert hand is not None
            answer = who_played(hand, candidate.move.tile)
            if candidate.move.end is None or not answer.candidates:
                # the lead's seat is the leader's (asked where not known); a tile no seat can
                # hold here goes on to the scorer, which says why
                out.append(([], candidate.move.seat, arms[k]))
            else:
                answer, pick = self._pick_seat(hand, answer, arms[k], reading)
                hidden = self._ends_out_of_sight(hand, reading) if pick is None or pick.seat != hand.turn else []
                if hidden:
                    # the seats skipped passed, or played where the camera does not see: a pass
                    # is inferred only with every open end in sight; and a play whose seat is open
                    # is not followed on as the turn seat's (the question kept asks who laid the
                    # plays followed, and cannot bring back one laid out of sight)
                    return out if k else self._who_played(reading, chosen, answer, hidden)
                if pick is not None and self.seats.chance is not None:
                    likely[k] = (answer.seats, self.seats.chance)
                # with a person to answer: where arms are seen, a play no arm settled is asked about
                # at once (the arms settle the plays after it), and a later tile of several is asked
                # about alone at the next look; else it is followed on, kept to confirm
                follow_on = self.carry_on and not (self.ask_runs and (k or self.arms_seen))
                if pick is None and not follow_on:
                    return out if k else self._who_played(reading, chosen, answer)
                if pick is None:  # nobody to ask: followed as the turn seat's, kept to confirm
                    pick, unsure[k] = answer.candidates[0], answer.seats
                if (
                    self.backs
                    and self.backs_exact
                    and not _backs(reading)
                    and self._counted_before(0)
                    and pick.seat == hand.turn
                    and not pick.draws
                ):
                    pick = replace(pick, draws=((pick.seat, self.backs),))  # it drew the boneyard dry and played
                seated = replace(candidate, move=replace(candidate.move, seat=pick.seat))
                seated = replace(seated, event={**candidate.event, "seat": pick.seat})
                chosen[k] = (seated, tile)
                before = [e for e in pick.events(seated.event) if e["type"] != "play"]
                out.append((before, answer.sure.seat if answer.sure is not None else answer.seats, arms[k]))
            if match is not self.match:
                for event in out[-1][0] + [chosen[k][0].event]:
                    match.apply(event)
        return out

    def _pick_seat(
        self, hand: Hand, answer: WhoPlayed, arm: ArmSighting | None, reading: Reading
    ) -> tuple[WhoPlayed, SeatCandidate | None]:
        """Who laid `answer.tile` (`who_played`'s answer, not empty) on `hand`, from the evidence:
        the boneyard counted in view, the rules, the arm that laid it, the deals left
        (`SeatKeeper.choose`). The answer as the count leaves it, and the seat chosen with the
        draws it implies, or None: nothing settles it."""
        drawn = self._drawn(hand, reading)
        counted = who_played(hand, answer.tile, unseen_draws=False) if drawn is not None else None
        sure = counted.sure if counted is not None else None
        seen_draws = counted is not None and sure is not None
        if counted is not None and sure is not None:
            # the boneyard still holds tiles: nobody passed; the turn seat drew `drawn`
            # (one at a time until one could be played: RULES.md, Draw games) and played
            draws = ((sure.seat, drawn),) if drawn else ()
            answer = replace(counted, candidates=(replace(sure, draws=draws),))
        pick = self.seats.choose(answer, arm, hand)
        if pick is not None and pick.draws and hand.unseen_draws and not seen_draws:
            # a pass with the boneyard uncounted: the passer took what was left, at
            # most the record's count (others may have drawn unseen before). The scorer
            # infers that from the pass itself; a draw event would claim the count
            pick = replace(pick, draws=())
        return answer, pick

    def _arms_for(self, reading: Reading, tiles: Sequence[TileReading | None]) -> list[ArmSighting | None]:
        """The arm that laid each of `tiles` (`SeatKeeper.arms_for`; None: a tile not seen), of
        those seen before each tile was first read where it was read already (a tile asked about
        and turned down, or left open, before, or read too faint in a look that found nothing new)."""
        before = [
            None
            if t is None
            else min(
                [d.arms_seen for d in self.doubts if d.arms_seen is not None and not _alone(t, [d.reading])]
                + [k for faint, k in self.faint_looks if k > self.seats.spent_count and not _alone(t, [faint])],
                default=None,
            )
            for t in tiles
        ]
        return self.seats.arms_for([_point(t, reading) if t is not None else None for t in tiles], before)

    def _seat_after_missed(
        self, hand: Hand, answer: WhoPlayed, arm: ArmSighting | None
    ) -> tuple[WhoPlayed, SeatCandidate | None]:
        """Who laid `answer.tile` where a play may have been missed before it: any seat in the
        hand, from the turn on (the missed play's seat, or a later one), unless the arm that laid
        it names one by a seating already known (`seat_of_play`: not the rules, not the count of
        deals, not a seating guessed with this arm, which all assume no play between); the seat
        named implies no pass or draw, which the person's answer says."""
        first = answer.seats[0]
        order = [hand.turn if hand.turn is not None else first]
        while (following := hand.next_seat(order[-1])) not in order:
            order.append(following)
        order = [first, *(s for s in order if s != first)]
        anyone = replace(answer, candidates=tuple(SeatCandidate(s) for s in order))
        evidence = seat_of_play(self.seats.seating, arm, order)
        return anyone, SeatCandidate(evidence.seat) if evidence is not None else None

    def _evidenced(
        self,
        reading: Reading,
        options: Sequence[Sequence[tuple[Candidate, TileReading]]],
        after_missed: bool = False,
    ) -> list[list[Candidate]]:
        """A question's candidates (each a sequence of plays, with the tile each was read as), each
        play with the seat the evidence gives, as a play followed without a question gets it
        (`_pick_seat`: the rules, the arm that laid it, the deals left), not the turn order's
        (`legal_moves`: after a pass, the seat that passed). Where nothing settles it and a pass
        was possible, the play keeps the turn seat as a stand-in with the seats that may have laid
        it (`Candidate.seats`): the question says the seat is open (`_ask`). A lead keeps its seat
        (the leader's, or asked: "leader_unknown").

        `after_missed`: a play may have been missed before these (`_missed`). The rules and the
        boneyard's count judge who laid a tile as if it came next, which it may not have (the
        seat whose turn it was laid the missed one); only the arm that laid it says who did
        (`_seat_after_missed`)."""
        out: list[list[Candidate]] = []
        for option in options:
            arms = self._arms_for(reading, [t for _, t in option])
            match = self.match if len(option) == 1 else copy.deepcopy(self.match)
            seated: list[Candidate] = []
            for (candidate, _), arm in zip(option, arms, strict=True):
                hand = match.current
                draws: list[dict[str, Any]] = []
                answer = who_played(hand, candidate.move.tile) if hand is not None else None
                if hand is not None and answer is not None and answer.candidates and candidate.move.end is not None:
                    if after_missed:
                        answer, pick = self._seat_after_missed(hand, answer, arm)
                    else:
                        answer, pick = self._pick_seat(hand, answer, arm, reading)
                    seat, seats = (pick.seat, ()) if pick is not None else (answer.seats[0], answer.seats)
                    candidate = replace(
                        candidate,
                        move=replace(candidate.move, seat=seat),
                        event={**candidate.event, "seat": seat},
                        seats=tuple(seats),
                    )
                    if pick is not None:
                        draws = [e for e in pick.events(candidate.event) if e["type"] != "play"]
                seated.append(candidate)
                if match is not self.match and len(seated) < len(option):
                    try:  # the next play's evidence is weighed after this one
                        for event in [*draws, candidate.event]:
                            match.apply(event)
                    except RecordError:  # the rest as ranked: the scorer will say why, if confirmed
                        seated += [c for c, _ in option[len(seated) :]]
                        break
            out.append(seated)
        return out

    def _count_boneyard(self, reading: Reading) -> None:
        """At the start of a drawing hand: the boneyard is counted from here on if the camera sees
        as many backs as the deal left in it (a detector that boxes backs, the boneyard in view)."""
        hand = self.hand
        seen = _backs(reading)
        self.backs = seen if hand.unseen_draws and seen and seen == hand.boneyard else None
        self.backs_last = self.backs
        self.backs_exact = True
        self.boneyard.start(reading, self.last_image)

    def _count_boneyard_late(self, reading: Reading) -> None:
        """A boneyard not counted from the start (a back hidden in the first look) is counted from
        the second frame in a row that shows as many backs as the record says it may hold at most:
        no draw can have gone unseen, or it would show fewer."""
        hand = self.hand
        if self.backs is not None or not hand.unseen_draws or not hand.boneyard or self.boneyard.taken:
            # (a back seen taken was a draw the record does not hold: the boneyard holds fewer
            # than the record's most, and as many backs read then is a miscount)
            self.backs_at_most = False
            return
        seen = _backs(reading) == hand.boneyard
        if seen and self.backs_at_most:
            self.backs = self.backs_last = hand.boneyard
            self.backs_before, self.backs_exact = None, True
        self.backs_at_most = seen

    def _drew(self, reading: Reading) -> bool:
        """Whether the counted boneyard lost tiles since the last frame observed (a draw).

        Players draw one tile at a time: a boneyard that grew, or lost several tiles in one look,
        was miscounted (a back missed or hidden in one frame), and says no more than that tiles
        were drawn this hand (`backs_exact`): draws it implied would be recorded wrong, and every
        later count be off by as many. So are several fewer between two photos, each seen taken
        from where it lay: the seat that played in between may have drawn some of them, and the
        seat after it the rest (a photo taken late), which the count cannot tell apart."""
        if self.backs is None:
            return False
        now = _backs(reading)
        before = self.backs_before = self.backs_last
        self.backs_last = now
        if before is not None and not before - 1 <= now <= before:
            self.backs_exact = False
        return before is not None and now < before

    def _drawn(self, hand: Hand, reading: Reading) -> int | None:
        """How many tiles were drawn since the last play, where the boneyard is counted and still
        holds tiles after them (so nobody may have passed); None otherwise."""
        if self.backs is None or not self.backs_exact or not hand.unseen_draws:
            return None
        now = _backs(reading)
        if now == 0 or now > self.backs:
            return None  # emptied (the seats after may have passed), or miscounted: not evidence
        # a back fewer only in the play's own frame is a draw in the play's reach or a back missed
        # there: the boneyard holds tiles either way (nobody passed), but only the draws seen in
        # the still frames before, or seen taken from their places in this one, are recorded
        # (and `_play` counts exactly no more). The latter only where the count has been the
        # record's boneyard: a back read where none lay (a gap in a row of backs boxed as one)
        # that goes in this frame would otherwise be a draw that never happened
        seen = self._counted_before(now) or (self._seen_drawn(now) and self.backs == hand.boneyard)
        return self.backs - (now if seen else self.backs_before or now)

    def _counted_before(self, now: int) -> bool:
        """Whether the boneyard's count in the frame of a play was seen in the still frame before
        it: one back fewer only in the play's own frame is a draw in the same reach as the play,
        or a back the reader missed there (an arm's shadow, a tile laid beside it), and a draw
        recorded that did not happen puts every later count off."""
        return self.backs_before is None or self.backs_before == now

    def _seen_drawn(self, now: int) -> bool:
        """Whether the back fewer in the frame of a play than in the frame before it was seen
        taken from where it lay (`backs_taken`), and the boneyard still holds tiles: the last
        draw of the seat that played, between two photos (it plays the tile it drew at once:
        RULES.md, Draw games), not a back the reader missed. An emptied boneyard says less: the
        seat that emptied it may have passed, and a later one played."""
        return self.backs_before is not None and now > 0 and self.backs_before - now == self.backs_taken == 1

    def _ends_out_of_sight(self, hand: Hand, reading: Reading) -> list[str]:
        """The open ends of `hand`'s layout whose tile `reading` does not show where it was last
        seen (out of the picture, under a thing set down, or never seen): a play there is not seen."""
        layout = hand.layout
        hidden = []
        for end in layout.open_ends():
            k = end_tile(layout, end)
            if k is None or k >= len(self.placed):
                continue  # a tile of this look, before the one being seated: it is in sight
            seen = self.placed[k]
            if seen is None or _alone(seen.reading, list(reading.tiles)):
                hidden.append(str(end))
        return hidden

    def _who_played(
        self,
        reading: Reading,
        chosen: list[tuple[Candidate, TileReading]],
        answer: Any,
        hidden: Sequence[str] = (),
    ) -> Outcome:
        """Ask who laid the first chosen tile: one candidate per seat the rules leave, the turn seat
        first (the one implying no pass). `hidden`: the open ends out of sight, where a seat
        skipped may have played (said in the question)."""
        candidate, _ = chosen[0]
        tile = str(candidate.move.tile)
        seats = list(answer.seats)
        options = [
            [replace(candidate, move=replace(candidate.move, seat=s), event={**candidate.event, "seat": s})]
            for s in seats
        ]
        draws = {str(c.seat): [list(d) for d in c.draws] for c in answer.candidates if c.draws}
        unseen = (
            f"; the {' and '.join(hidden)} end{'s are' if len(hidden) > 1 else ' is'} out of sight: a seat "
            "skipped may have played there"
            if hidden
            else ""
        )
        why = Reason(
            f"who played {tile}: " + " or ".join(f"seat {s}" for s in seats) + "? (a pass shows in no photo)" + unseen,
            code="who_played",
            tile=tile,
            seats=seats,
            **({"draws": draws} if draws else {}),
            **({"unseen_ends": list(hidden)} if hidden else {}),
        )
        return self._ask(reading, why, [t for _, t in chosen], options)

    def _in_play(self, reading: Reading) -> bool:
        """Whether the photo shows a game under way: two or more of its tiles joined end to end as
        the rules allow (tiles lying apart are not; a lone tile may be either, and a play laid
        against it is asked about: `_unexplained`)."""
        tiles = [t for t in reading.tiles if t.confidence >= FAINT]
        for k, a in enumerate(tiles):
            for b in tiles[k + 1 :]:
                gap = float(np.linalg.norm(np.asarray(a.center, np.float32) - np.asarray(b.center, np.float32)))
                if gap <= TOUCHING_SIDES * min(short_side(a), short_side(b)) and (
                    a.tile.has(b.tile.low) or a.tile.has(b.tile.high)
                ):
                    return True
        result = PhotoLayout.of(reading, self.match.rules).result
        return result is not None and len(result.layout.placements) >= 2

    def _unexplained(self, reading: Reading, tiles: Sequence[TileReading]) -> str | None:
        """Why playing `tiles` needs a person after all: another tile lies in the layout that
        neither the record places nor this play is (turned down when asked about, or read too
        late to be new): it was laid too, and whether before or after these is not known."""
        # for `spinner watch`, which saw every tile arrive, only tiles it has met as new (turned
        # down, or left over from a change): one the reader only now finds beside the layout,
        # where the table did not change, is its flicker. Beside a record (the page), whose
        # camera may have started late or looked seldom, every unrecorded tile there counts
        # A box read under LIES_THERE is named only where a person was asked about it already:
        # printed pictures beside a board's layout are read so, photo after photo; a faint tile
        # that was laid is asked about where a play is laid against it (no open end takes it)
        asked = [d.reading for d in self.doubts] + self.named + self.crossing
        met = asked + [t for news in self.changes for t in news]
        others = [
            t
            for t in reading.tiles
            if t.confidence >= FAINT
            and (t.confidence >= LIES_THERE or not _alone(t, asked))
            and (self.first_look_new or not _alone(t, met))
            and not self._vouched(t)
            and self._placed_at(t) is None
            and all(_alone(t, [c]) for c in tiles)
            and all(_alone(t, [c]) for c in self.passed_over)
            and not self._straddles(t, reading)
            # beside a record (the page), a tile that lay there when the camera started and
            # touches this play may be an unrecorded lead: asked about, never played against
            and (self.first_look_new or _alone(t, self.furniture))
        ]
        layout = [s.reading.center for s in self.placed if s is not None] + [t.center for t in tiles]

        def near(t: TileReading, anchors: list[tuple[float, float]], sides: float) -> bool:
            gaps = np.linalg.norm(np.asarray(anchors, np.float32) - np.asarray(t.center, np.float32), axis=1)
            return float(gaps.min()) <= sides * short_side(t)

        lying = [t for t in others if near(t, layout, TOUCHING_SIDES)]
        self.aside = lying
        if not lying:
            return None
        names = ", ".join(str(t.tile) for t in lying)
        return Reason(
            f"{names} also lies in the layout but is not recorded: which was played first?",
            code="also_lies",
            tiles=[str(t.tile) for t in lying],
        )

    def _doubted(self, tiles: Sequence[TileReading]) -> str | None:
        """Why playing `tiles` needs a person after all: one was turned down as a play before
        (`decline`) and the plays scored since are not the ones that question took for missed
        (fewer: a play is still missing before it; more: a scored play took the change it came
        with, and nothing shows it was laid since)."""
        plays = len(self.hand.layout.placements)
        for doubt in self.doubts:
            if any(not _alone(t, [doubt.reading]) for t in tiles) and doubt.missed != plays - doubt.plays:
                if not doubt.said:  # nobody said no: the question was left open and the record went on
                    return Reason(
                        f"{doubt.reading.tile} was asked about before, and the record went on without an "
                        "answer: was it laid since, or a play missed before it?",
                        code="unanswered",
                        tile=str(doubt.reading.tile),
                    )
                return Reason(
                    f"{doubt.reading.tile} was turned down as a play before: was it laid since, or a play missed before it?",
                    code="turned_down",
                    tile=str(doubt.reading.tile),
                )
        return None

    def _ask(
        self,
        reading: Reading,
        why: str,
        new: list[TileReading],
        candidates: list[list[Candidate]] | None = None,
        changes: int | None = None,
    ) -> Outcome:
        question = self.run_question() if self.ask_runs and self.runs_first else None
        if question is not None:
            # the plays kept to confirm come before this one: who laid them is settled first (the
            # frame is read again after, when the table is looked at next)
            question.frame = reading.image
            return question
        outcome = Outcome("ask", why, candidates=candidates or [], new_tiles=list(new), frame=reading.image)
        best_plays = outcome.candidates[0] if outcome.candidates else []
        unseated = next((c for c in best_plays if c.seat_open), None)
        if unseated is not None and outcome.code != "who_played":
            # the play proposed names no seat as known: who laid it is asked too (a pass no photo shows)
            tile = str(unseated.move.tile)
            outcome.reason += (
                f"; who played {tile} is not known either: "
                + " or ".join(f"seat {s}" for s in unseated.seats)
                + " (a pass shows in no photo)"
            )
            outcome.params = {**outcome.params, "open_tile": tile, "open_seats": list(unseated.seats)}
        code, params = outcome.code, outcome.params
        best = outcome.candidates[0][0].event if outcome.candidates and outcome.candidates[0] else None
        plays = len(self.hand.layout.placements)
        if new and all(
            any(d.said and d.plays == plays and d.event == best and not _alone(t, [d.reading]) for d in self.doubts)
            for t in new
        ):
            # "no" means: stop asking about this one until the record changes; the pad takes it
            return Outcome(
                "nothing",
                f"{why}: turned down already, not asked again",
                new_tiles=list(new),
                frame=reading.image,
                code="asked_already",
                params={"why": code, "why_params": params},
            )
        missed = max(0, (changes if changes is not None else len(self.changes)) - len(new))
        aside, self.aside = tuple(self.aside), []
        self.pending = Pending(outcome, reading, missed, self.looking_first, aside, self.seats.seen_count)
        return outcome

    def _accept(self, reading: Reading) -> None:
        """`reading` is the table now: later changes are found against it. The layout's tiles are
        looked up in it, so a camera that shook a little keeps finding them."""
        before, self.reference = self.reference, reading
        if not reading.tiles:
            return
        centres = np.asarray([t.center for t in reading.tiles], dtype=np.float32)
        for seen in self.placed:
            if seen is None:
                continue
            d = np.linalg.norm(centres - np.asarray(seen.reading.center, dtype=np.float32), axis=1)
            k = int(d.argmin())
            found = reading.tiles[k]
            if d[k] > 0.5 * short_side(found) or found.tile is not seen.reading.tile:
                continue  # hidden or misread this time: keep where it was last seen
            old_inner = _centre(seen.reading.halves[seen.inner])
            near = int(np.argmin([np.linalg.norm(_centre(h) - old_inner) for h in found.halves]))
            seen.reading, seen.inner = found, near
        self._find_unseen(reading, before)

    def _find_unseen(self, reading: Reading, before: Reading | None = None) -> int:
        """A confirmed tile the camera had not seen: the tile read as it, lying against the tile it
        was played on (or, for the lead, anywhere), is where it lies. Where several tiles are read
        as it, the one that arrived since `before` (the table last settled, by default) is; else,
        the nearest to the tile it lies against (a lead is left unfound: a tile beside the table
        misread as it, say, would take its place). Returns how many of those found arrived since
        `before` and were not read in an earlier change: the ones that explain this change."""
        before = self.reference if before is None else before
        found_now = 0
        self.padded_found = []
        placements = self.hand.layout.placements if self.match.current is not None else []
        for k, seen in enumerate(self.placed):
            if seen is not None or k >= len(placements):
                continue
            tile = placements[k].tile
            parent = placements[k].parent
            anchor = self.placed[parent] if parent is not None and parent < len(self.placed) else None
            if parent is not None and anchor is None:
                continue  # the tile it lies against is not seen either: no way to tell its halves
            candidates = [f for f in reading.tiles if f.tile is tile and self._placed_at(f) is None]
            if anchor is not None:
                gaps = {
                    id(f): float(
                        np.linalg.norm(np.asarray(f.center, np.float32) - np.asarray(anchor.reading.center, np.float32))
                    )
                    for f in candidates
                }
                candidates = sorted(
                    (f for f in candidates if gaps[id(f)] <= 3.0 * short_side(f)), key=lambda f: gaps[id(f)]
                )
            if len(candidates) > 1 and before is not None:
                arrived = [f for f in candidates if _alone(f, before.tiles)]
                candidates = arrived if len(arrived) == 1 else candidates
            if not candidates or (parent is None and len(candidates) > 1):
                continue
            found = candidates[0]
            if parent is None:
                west = placements[k].inner  # the lead's west half
                self.placed[k] = Seen(found, 0 if found.halves[0].value == west else 1)
            else:
                assert anchor is not None
                self.placed[k] = Seen(
                    found, int(np.argmin([np.linalg.norm(_centre(h) - _centre(anchor.reading)) for h in found.halves]))
                )
            # a tile read before, asked about and turned down, then scored on the pad, was laid
            # at that earlier change: found now, it does not explain this one; nor does one a
            # person confirmed in answer to a question about a look that did not read it: it lay
            # in that look already (the change since may be a play the reader missed, asked about)
            met = [d.reading for d in self.doubts] + [t for news in self.changes for t in news]
            answered = k in self.answered_unread
            self.answered_unread.discard(k)
            if _alone(found, met) and (before is None or _alone(found, before.tiles)) and not answered:
                found_now += 1
                if k in self.padded:
                    self.padded_found.append((self.padded.pop(k), found))
        return found_now
