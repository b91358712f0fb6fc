"""Who laid the tile: the side of the picture the arm reached in from, and where each seat sits.

No photo of the table shows a pass, so the turn order alone cannot say who played after one. A
camera filming the game sees more: between two still stretches the arm that lays the tile
crosses the edge of the picture on its player's side of the table. This module reads that, and
nothing else, from the thumbnails the motion test already makes (`motion.thumbnail`):

- `ArmWatch` is fed every thumbnail. Frames that differ from the last still frame are an arm
  over the table; the changed pixels in a thin band along each border of the picture say which
  border it crossed. One stretch of movement between two still stretches is one `ArmSighting`.
- `Seating` is the side each seat sits at: given (the table says) or learnt from plays whose seat
  the rules leave sure (`Seating.learn`), on the assumption that players sit around the table in
  play order (RULES.md "Seats": play goes counter-clockwise; two players face to face).
- `seat_of_play` names the seat the sighting points at, if the rules allow that seat to have
  played (`scorer.moves.who_played`'s candidates), with how sure it is; or None, and then a
  question is better than a guess.
- `SeatKeeper` is what the follower keeps of all that through a match: the sightings since the
  last play, the seating (given, or learnt from the plays so far), and the choice of a play's
  seat from the rules and the arm (`SeatKeeper.choose`).

Pure and cheap: a few array operations on a 160-pixel-wide thumbnail per frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from scorer.chance import seat_chances
from scorer.hand import Hand
from scorer.moves import Candidate, WhoPlayed

#: picture sides, as `vision.synth` films record them (`HandSpec.edge`): 0 top, 1 right, 2 bottom, 3 left
SIDES = ("top", "right", "bottom", "left")

#: relative brightness step that counts as a changed pixel (as `motion.MotionDetector.pixel`)
PIXEL = 0.08
#: share of thumbnail pixels that makes a frame differ from the one before (as `MotionDetector.moving_share`)
MOVING_SHARE = 0.001
#: share of thumbnail pixels changed between the still frames around an arm that says it laid
#: something: a tile 40 px long in a 1280 px photo is about a dozen thumbnail pixels, under
#: MOVING_SHARE; an arm that only passed over the table leaves none (the pixel step is well
#: above a camera's noise)
LAID_SHARE = 0.0003
#: the border band, in thumbnail pixels, in which an arm crossing the edge is counted
BAND = 3
#: the share of each border, at both ends, that counts for neither side (see `border_touches`)
CORNER = 0.12
#: share of the border evidence that one side must hold for the sighting to name it. An arm
#: reaching in near a corner, along the next border, with its shadow over that border, gives that
#: border up to two thirds of the evidence: on dealt films (`bench/seat_evidence.py`) sightings
#: under 0.7 named a wrong side 2 times in 27, none from 0.7 up; 0.75 leaves a margin, and a
#: play whose arm says less is decided by the rules, the count of deals, or a question
LEAST_SURE = 0.75
#: the farthest the hand of the arm that laid a tile may have reached from the tile (a share of
#: the picture): an arm whose changed pixels reach no nearer is another arm, or the band along
#: the wrong border (an arm from one side laying a tile near another border runs along it)
REACHES = 0.4
#: how much nearer one tile than another an arm must have reached (shares of the picture) to be
#: told as the one that laid it, where the order of the move would give it the other: about a
#: tile's length in a photo of the table
ALIKE = 0.05
#: a laid tile this near a border (a share of the picture) may have the hand that laid it, or its
#: shadow, reach past it over that border: where the arm also crossed the border across the
#: picture, that one is where it came in (`past_the_tile`)
OVERSHOOT = 0.2
#: plays a seating is learnt from, at the least, while a match is followed: the lead (its seat is
#: the leader's) and the play after it fix the way round, where that play's arm comes from a side
#: next to the leader's; from the side across, two seatings explain it as well, and it is asked
LEARN_FROM = 2
#: the most a play's seat may be in doubt and still be recorded without a question, where the
#: rules leave several seats and no arm names one (`likeliest_seat`): the chance, from counting
#: the deals the hand leaves (`scorer.chance`), that a pass came first and another seat laid it.
#: None: only where the count rules every other seat out (no deal leaves it a tile to lay) is a
#: play recorded unasked; a question is always better than a guess. The chances are calibrated
#: (`bench/seat_chance.py`: on 1600 random hands the likeliest seat was wrong at 1832 of 18,279
#: plays where 1906 were expected), but a wrong seat with no arm in view is dear: every later play
#: of the hand follows it one seat off, unnoticed. At 0.002 those hands recorded 2623 plays
#: unasked, 1 wrongly (bench/README.md, "Who played").
PASS_RISK = 0.0


@dataclass(frozen=True, slots=True)
class ArmSighting:
    """One stretch of movement: the side the arm crossed, how sure, and what it reached.

    `touches`: changed pixels in each side's border band, summed over the stretch's frames (the
    evidence); `sure`: the named side's share of it; `reach`: the changed pixel farthest from
    that side, as a share of the picture's width and height (about where the hand was), or None."""

    side: int
    sure: float
    frames: int
    touches: tuple[float, float, float, float]
    reach: tuple[float, float] | None = None
    #: whether the still table after the stretch differs from the one before it (a tile laid,
    #: or taken from the boneyard); an arm that only passed over the table leaves it as it was
    changed: bool = False
    #: the changed pixel farthest from each side (top, right, bottom, left), as `reach`
    reaches: tuple[tuple[float, float] | None, ...] | None = None

    @property
    def side_name(self) -> str:
        return SIDES[self.side]


def border_touches(mask: np.ndarray, band: int = BAND, corner: float = CORNER) -> np.ndarray:
    """Changed pixels in the band along each border (top, right, bottom, left) of a boolean mask,
    leaving out the `corner` share at each end of a border: an arm that comes in near a corner
    crosses the band of the other side there too."""
    h, w = mask.shape
    b = max(1, min(band, h // 4, w // 4))
    cx, cy = int(round(corner * w)), int(round(corner * h))
    return np.array(
        [
            mask[:b, cx : w - cx].sum(),
            mask[cy : h - cy, -b:].sum(),
            mask[-b:, cx : w - cx].sum(),
            mask[cy : h - cy, :b].sum(),
        ],
        dtype=np.float64,
    )


def sighting(masks: Iterable[np.ndarray], band: int = BAND) -> ArmSighting | None:
    """The side an arm crossed, from the changed-pixel masks of one stretch of movement; None
    where nothing crossed a border (the hand stayed inside the picture, or nothing moved)."""
    touches = np.zeros(4)
    frames = 0
    union: np.ndarray | None = None
    for mask in masks:
        frames += 1
        touches += border_touches(mask, band)
        union = mask.copy() if union is None else union | mask
    total = float(touches.sum())
    if not total or union is None:
        return None
    side = int(np.argmax(touches))
    reaches = tuple(_reach(union, s) for s in range(4))
    return ArmSighting(
        side,
        float(touches[side]) / total,
        frames,
        tuple(float(t) for t in touches),  # type: ignore[arg-type]
        reaches[side],
        reaches=reaches,
    )


def past_the_tile(arm: ArmSighting, point: tuple[float, float] | None) -> ArmSighting:
    """`arm` as the arm that laid the tile at `point` (shares of the picture's width and height):
    where it crossed two opposite borders and the tile lies within `OVERSHOOT` of one of them,
    the hand (or its shadow) reached past the tile over that one, and the arm came in across the
    picture; that border's touches are left out. A tile laid near a player's own border is laid
    by an arm that reaches no farther, so it never crosses the border across the picture."""
    if point is None:
        return arm
    x, y = point
    near = (y, 1 - x, 1 - y, x)  # the tile's distance from each border
    beyond = min(range(4), key=near.__getitem__)
    across = (beyond + 2) % 4
    if near[beyond] >= OVERSHOOT or not arm.touches[beyond] or not arm.touches[across]:
        return arm
    top, right, bottom, left = (0.0 if s == beyond else t for s, t in enumerate(arm.touches))
    touches = (top, right, bottom, left)
    side = int(np.argmax(touches))
    reach = arm.reaches[side] if arm.reaches is not None else (arm.reach if side == arm.side else None)
    return replace(arm, side=side, sure=touches[side] / sum(touches), touches=touches, reach=reach)


def _reach(mask: np.ndarray, side: int) -> tuple[float, float] | None:
    """The changed pixel farthest from `side` (fractions of width and height)."""
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return None
    h, w = mask.shape
    depth = [ys, w - 1 - xs, h - 1 - ys, xs][side]
    k = int(np.argmax(depth))
    return (float(xs[k]) + 0.5) / w, (float(ys[k]) + 0.5) / h


@dataclass
class ArmWatch:
    """Feed it every frame's thumbnail (`update`); it keeps one `ArmSighting` per stretch of movement.

    A frame that differs from the one before it is moving; the frames from a moving one until
    `settle` frames in a row are the same are a stretch (with `settle` above 2, a hand that rests
    for a frame is still in it; as the camera's `MotionDetector.settle`).
    When the stretch ends, each of its frames is compared with the still
    frames on both sides: a pixel counts as the arm only where it differs from both, so a tile
    laid (in the still frame after), a camera that moved or light that changed at one end of the
    stretch do not count, only what came and went. `take()` hands over the sightings since the
    last take (oldest first). At most `keep` frames of a stretch are kept (evenly spread)."""

    pixel: float = PIXEL
    moving_share: float = MOVING_SHARE
    laid_share: float = LAID_SHARE
    band: int = BAND
    keep: int = 16
    settle: int = 2
    before: np.ndarray | None = None
    previous: np.ndarray | None = None
    frames: list[np.ndarray] = field(default_factory=list)
    moving: int = 0
    still_run: int = 0
    done: list[ArmSighting] = field(default_factory=list)

    def update(self, thumb: np.ndarray, still: bool | None = None) -> ArmSighting | None:
        """One frame; returns the sighting of a stretch that this (still) frame ends, if any.

        `still`: the camera saw the table still just before taking this frame (the page's own
        captures, `MotionDetector.update`). Such a frame ends the stretch even where it differs
        from the frame before it: with frames seldom sent, the one before may be the arm itself,
        and a stretch left open would hand its arm to the next move instead of this one."""
        previous, self.previous = self.previous, thumb
        if previous is None or previous.shape != thumb.shape:
            self.before, self.frames, self.moving = thumb, [], 0
            return None
        if not still and _share(thumb, previous, self.pixel) >= self.moving_share:
            self.moving += 1
            self.still_run = 1  # the first frame of what may be a still run
            self._keep(thumb)
            return None
        self.still_run = max(self.still_run + 1, self.settle if still else 0)
        if self.frames and self.still_run < self.settle:
            self._keep(thumb)  # perhaps a hand at rest for a moment
            return None
        before, self.before = self.before, thumb
        frames, self.frames = self.frames, []
        count, self.moving = self.moving, 0
        if not frames or before is None:
            return None
        masks = (np.minimum(_change(f, before), _change(f, thumb)) > self.pixel for f in frames)
        seen = sighting(masks, self.band)
        if seen is None:
            return None
        changed = float(np.count_nonzero(_change(thumb, before) > self.pixel)) / thumb.size >= self.laid_share
        seen = replace(seen, frames=count, changed=changed)
        self.done.append(seen)
        return seen

    def take(self) -> list[ArmSighting]:
        out, self.done = self.done, []
        return out

    def _keep(self, thumb: np.ndarray) -> None:
        self.frames.append(thumb)
        if len(self.frames) > self.keep:
            del self.frames[1::2]  # a long stretch: every other frame is enough to see the arm


def _change(frame: np.ndarray, still: np.ndarray) -> np.ndarray:
    """How much each pixel of `frame` differs from `still`, their brightness matched on the
    median pixel: thumbnails are scaled to mean 1, and an arm that fills a good part of the
    picture moves the mean of all the rest by more than a pixel's step."""
    # (every third pixel each way is plenty for a median, and nine times cheaper)
    ratio = float(np.median(frame[::3, ::3] / np.maximum(still[::3, ::3], 1e-3)))
    return np.abs(frame - still * ratio)


def _share(a: np.ndarray, b: np.ndarray, pixel: float) -> float:
    return float(np.count_nonzero(np.abs(a - b) > pixel)) / a.size


def laying_arm(sightings: Sequence[ArmSighting], point: tuple[float, float] | None = None) -> ArmSighting | None:
    """Of the stretches since the last play, the one that laid the new tile: of those after which
    the table was not as before (`changed`: an arm that only passed over it left it so), the one
    that reached nearest `point` (the tile's centre, as shares of the picture's width and
    height), else the last. (A draw from the boneyard is a stretch that changed the table too.)"""
    if not sightings:
        return None
    laid = [s for s in sightings if s.changed]
    sightings = laid or sightings
    if point is None:
        return sightings[-1]
    reached = [s for s in sightings if s.reach is not None]
    if not reached:
        return sightings[-1]
    return min(reached, key=lambda s: (s.reach[0] - point[0]) ** 2 + (s.reach[1] - point[1]) ** 2)  # type: ignore[index]


# -- where the seats sit --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seating:
    """The picture side each seat sits at (`sides[seat]`, 0 top, 1 right, 2 bottom, 3 left; None
    where not known). `agree` / `against`: how many sightings it was learnt from fit it or not."""

    sides: tuple[int | None, ...]
    agree: int = 0
    against: int = 0

    def seat_at(self, side: int) -> int | None:
        seats = [s for s, at in enumerate(self.sides) if at == side]
        return seats[0] if len(seats) == 1 else None

    @classmethod
    def given(cls, sides: Sequence[int]) -> Seating:
        if len(set(sides)) != len(sides) or not all(0 <= s < 4 for s in sides):
            raise ValueError(f"each seat sits at its own side of the picture (0..3), not {list(sides)}")
        return cls(tuple(sides))

    @classmethod
    def learn(cls, players: int, seen: Sequence[tuple[int | Sequence[int], int]], least: int = 3) -> Seating | None:
        """The seating that explains `seen` best, among the ways `players` sit around the table in
        play order (either way round; two face to face), or None while the sightings do not tell.

        Each item of `seen` is (seats, side): the seat that laid a tile (an int: sure by the rules,
        or told by a person), or the seats that may have laid it in turn order (`who_played`'s
        candidates, the turn seat first), and the side its arm came from. A seating explains an
        item where the seat at that side is one of its seats; of two seatings that explain as many,
        the one implying fewer passes is likelier (a seat plays far more often than it passes).
        A seating is given once it explains at least `least` items, more than it leaves
        unexplained, and is likelier than every other: so a seating is learnt from the first
        plays without a question where no pass muddles them, and otherwise from the answers."""
        best = cls.likeliest(players, seen, least)
        return best[0] if len(best) == 1 else None  # several: they explain the sightings equally well

    @classmethod
    def likeliest(cls, players: int, seen: Sequence[tuple[int | Sequence[int], int]], least: int = 3) -> list[Seating]:
        """The seatings that explain `seen` best and equally well (`learn`'s terms): one where the
        sightings tell the seating; several where they leave a choice (the leader's arm and the
        arm from across the table fit it either way round); none where too few are explained."""
        if not seen:
            return []
        items = [((s,) if isinstance(s, int) else tuple(s), side) for s, side in seen]
        scored = []
        for sides in arrangements(players):
            at = {side: seat for seat, side in enumerate(sides)}
            explained = passes = 0
            for seats, side in items:
                seat = at.get(side)
                if seat is not None and seat in seats:
                    explained += 1
                    passes += seats.index(seat)
            scored.append((-explained, passes, sides))
        scored.sort()
        explained = -scored[0][0]
        if explained < least or explained <= len(items) - explained:
            return []
        return [cls(sides, -e, len(items) + e) for e, p, sides in scored if (e, p) == scored[0][:2]]


def _reaching(arm: ArmSighting | None, point: tuple[float, float] | None) -> ArmSighting | None:
    """`arm`, unless it left the table as it was (it laid nothing: the arm that did was not seen),
    or its hand reached no nearer the tile at `point` than `REACHES`; taken as laying that tile
    (`past_the_tile`)."""
    if arm is None or not arm.changed:
        return None
    arm = past_the_tile(arm, point)
    if point is None or arm.reach is None:
        return arm
    gap = ((arm.reach[0] - point[0]) ** 2 + (arm.reach[1] - point[1]) ** 2) ** 0.5
    return arm if gap <= REACHES else None


def _nearest_first(
    points: Sequence[tuple[float, float] | None], allowed: Sequence[Sequence[ArmSighting]]
) -> list[ArmSighting | None]:
    """Each arm that left the table changed and whose hand was seen reaching, given to the tile it
    reached nearest, nearest pair first (`allowed[i]`: the arms that may have laid tile i). Taken
    tile by tile in the order laid instead, the first tile would take an arm that reached beside
    the second, and a question's order that puts the other tile first would name a wrong seat.
    Where the arm reached about as near an earlier tile of the order (within `ALIKE`: tiles side
    by side, a hand reaching past both), the reach tells them apart no better than the order."""

    def gap(k: int, arm: ArmSighting) -> float:
        point = points[k]
        if point is None or arm.reach is None or not any(arm is a for a in allowed[k]):
            return math.inf
        return math.dist(arm.reach, point)

    pairs = sorted(
        (gap(i, arm), i, j)
        for i in range(len(points))
        for j, arm in enumerate(allowed[i])
        if arm.changed and gap(i, arm) < math.inf
    )
    chosen: list[ArmSighting | None] = [None] * len(points)
    for nearest, i, j in pairs:
        arm = allowed[i][j]
        if chosen[i] is not None or any(arm is c for c in chosen):
            continue
        alike = [k for k in range(i) if chosen[k] is None and gap(k, arm) <= nearest + ALIKE]
        chosen[alike[0] if alike else i] = arm
    return chosen


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Every way `players` may sit at the four sides in play order: each first side, each way
    round (RULES.md: counter-clockwise, but a picture may be taken from below the table or
    mirrored), two players face to face."""
    out: list[tuple[int, ...]] = []
    steps = (2,) if players == 2 else (-1, 1)
    for first in range(4):
        for step in steps:
            sides = tuple((first + step * s) % 4 for s in range(players))
            if sides not in out:
                out.append(sides)
    return out


@dataclass(frozen=True, slots=True)
class SeatEvidence:
    seat: int
    sure: float
    sighting: ArmSighting


def seat_of_play(
    seating: Seating | None, seen: ArmSighting | None, candidates: Sequence[int], least: float = LEAST_SURE
) -> SeatEvidence | None:
    """The seat that laid the tile, from the arm that laid it, if the rules allow that seat
    (`candidates`: `who_played(...).seats`); None where there is no seating or sighting, the
    sighting is unsure, the side has no seat, or the seat cannot have played (then ask)."""
    if seating is None or seen is None or seen.sure < least:
        return None
    seat = seating.seat_at(seen.side)
    if seat is None or seat not in candidates:
        return None
    return SeatEvidence(seat, seen.sure, seen)


def likeliest_seat(
    hand: Hand, answer: WhoPlayed, arm: ArmSighting | None = None, risk: float | None = None
) -> tuple[Candidate, float] | None:
    """The seat that laid `answer.tile`, and its chance, where counting the deals
    (`scorer.chance.seat_chances`) makes it all but sure, at least 1 - `risk`, and no sure arm
    was seen (`arm`: the arm that laid it; one that names a seat is the evidence, and where it
    names none, a question is better); None otherwise, or where the count is not exact. `hand`:
    the hand before the play; `risk`: PASS_RISK where not given."""
    if answer.sure is not None:
        return answer.sure, 1.0
    if arm is not None and arm.sure >= LEAST_SURE:
        return None
    chances = seat_chances(hand, answer)
    if chances is None:
        return None
    best = max(range(len(chances)), key=chances.__getitem__)
    if chances[best] < 1 - (PASS_RISK if risk is None else risk):
        return None
    return answer.candidates[best], chances[best]


# -- a match's seats, as the follower keeps them ---------------------------------------------------

#: one play as seating evidence: the seat that laid it (sure by the rules, or told by a person) or
#: the seats that may have (turn seat first), and the side its arm came from
SeatItem = tuple[int | tuple[int, ...], int]


@dataclass
class SeatKeeper:
    """Who laid each tile of a match, from the rules and the arms: the follower's seat memory.

    Feed it the arms seen between frames (`saw`); ask it for a play's seat (`choose`) once the
    tile and its end are known; tell it what was recorded (`played`). Players keep their chairs
    through the match, so the seating learnt in the first hand serves every later one.

    A play's seat is sure where the rules leave one seat (`WhoPlayed.sure`). Otherwise the arm that
    laid it names the seat through the seating, where one is given or learnt; before one is
    learnt, the play's own arm counts with the earlier ones (`Seating.learn` takes a seating only
    where it explains enough plays and is likelier than every other, so a pass among the first
    plays, an arm from a side no turn order explains, leaves it unlearnt). Else: None, a question."""

    players: int
    seating: Seating | None = None
    #: the seating was given (asked once at the start), not learnt
    given: bool = False
    sightings: list[ArmSighting] = field(default_factory=list)
    #: how many arms were seen before `sightings` (spent with the moves recorded): with
    #: `len(sightings)`, a count of every arm seen, to say which came after a tile was read
    spent_count: int = 0
    #: `seen_count` at the last look that found no new tile on the table: the arms seen before it
    #: left no tile that a later look finds (`looked`)
    looked_count: int = 0
    known: list[SeatItem] = field(default_factory=list)
    #: the chance of the seat the last `choose` took from counting the deals; None where the
    #: rules or an arm named it, or nothing did
    chance: float | None = None

    @classmethod
    def of(cls, players: int, sides: Sequence[int] | None = None) -> SeatKeeper:
        if sides is None:
            return cls(players)
        if len(sides) != players:
            raise ValueError(f"give a side for each of the {players} seats, not {len(sides)}")
        return cls(players, Seating.given(sides), given=True)

    def saw(self, arms: Iterable[ArmSighting]) -> None:
        self.sightings.extend(arms)

    @property
    def seen_count(self) -> int:
        """How many arms were seen so far, spent ones included."""
        return self.spent_count + len(self.sightings)

    def looked(self) -> None:
        """A look found no new tile: the arms seen until now are no evidence for a tile read later.
        Else an arm that only moved a tile (or drew one) is taken for the one that laid the next,
        which the camera may not see reaching in (frames seldom read): a pass the table never saw."""
        self.looked_count = self.seen_count

    def arms_for(
        self, points: Sequence[tuple[float, float] | None], before: Sequence[int | None] | None = None
    ) -> list[ArmSighting | None]:
        """The arm that laid each of the tiles recorded in one move, in the order they were laid,
        each lying at its point (shares of the picture's width and height; None: the camera did
        not see where). Where as many arms left the table changed as there are tiles, they laid
        them in the same order; otherwise each arm goes to the tile it reached nearest, nearest pair
        first, and a tile left takes what `laying_arm` gives of the arms not taken (a tile not
        seen takes none, unless it is the move's only one: the last arm).
        An arm that left the table as it was, or whose hand reached no nearer the tile than
        `REACHES`, is no evidence (None).

        `before`: for each tile, where it was read already in an earlier look (`seen_count` then),
        the arms seen since cannot have laid it: only those seen before count (after a move
        recorded meanwhile, none: the arm that laid the next tile, reaching beside it, would
        name the next seat). For a tile first read now, an arm seen before the last look that
        found no new tile (`looked`) is no evidence."""
        if not points:  # no tile (a question answered "nothing was played"): no arm laid one
            return []
        limits = list(before) if before is not None else [None] * len(points)
        first = self.spent_count
        laid = [s for s in self.sightings if s.changed]
        if len(points) > 1 and len(laid) == len(points) and all(b is None for b in limits):
            chosen: list[ArmSighting | None] = list(laid)
        else:
            allowed = [
                self.sightings[: len(self.sightings) if limit is None else max(0, limit - first)] for limit in limits
            ]
            chosen = _nearest_first(points, allowed) if len(points) > 1 else [None]
            used: list[ArmSighting] = [a for a in chosen if a is not None]
            for i, (point, arm) in enumerate(zip(points, chosen, strict=True)):
                if arm is not None or (point is None and len(points) > 1):
                    continue
                seen = laying_arm([s for s in allowed[i] if not any(s is u for u in used)], point)
                chosen[i] = seen
                if seen is not None:
                    used.append(seen)
        # A tile first read now whose arm was seen before the last look that found nothing new:
        # it laid no tile (it moved one, or drew), or the reader missed the tile in that look;
        # either way it names nobody, and no other arm stands in for it (the one after the look
        # laid another tile, if any).
        looked = self.sightings[: max(0, self.looked_count - first)]
        chosen = [
            None if arm is not None and limit is None and any(arm is s for s in looked) else arm
            for arm, limit in zip(chosen, limits, strict=True)
        ]
        return [_reaching(arm, point) for arm, point in zip(chosen, points, strict=True)]

    def choose(self, answer: WhoPlayed, arm: ArmSighting | None, hand: Hand | None = None) -> Candidate | None:
        """The seat that laid `answer.tile`, with the passes and draws it implies, from the rules
        and `arm`, the arm that laid it (`arms_for`), and where no arm was seen, from counting the
        deals `hand` (the hand before the play) leaves (`likeliest_seat`); None: ask."""
        self.chance = None
        if answer.sure is not None:
            return answer.sure
        pick = self._by_arm(answer, arm)
        if pick is None and hand is not None:
            likely = likeliest_seat(hand, answer, arm)
            if likely is not None:
                pick, self.chance = likely
        return pick

    def _by_arm(self, answer: WhoPlayed, arm: ArmSighting | None) -> Candidate | None:
        if self.seating is not None or arm is None or arm.sure < LEAST_SURE or self.given:
            evidence = seat_of_play(self.seating, arm, answer.seats)
            return answer.of(evidence.seat) if evidence is not None else None
        # no seating yet: the likeliest ones with this play's arm counted; where several are, the
        # seat is still told if they all seat the same player at the arm's side (the one across
        # the table from the leader is across it either way round)
        likeliest = Seating.likeliest(self.players, [*self.known, (answer.seats, arm.side)], LEARN_FROM)
        named = {e.seat if (e := seat_of_play(s, arm, answer.seats)) is not None else None for s in likeliest}
        seat = named.pop() if len(named) == 1 else None
        return answer.of(seat) if seat is not None else None

    def played(self, seat: int | tuple[int, ...], arm: ArmSighting | None) -> None:
        """A tile was recorded: `seat`, the seat that laid it where the rules or a person said so,
        or the seats that may have (the arm chose), and `arm`, the arm that laid it: evidence for
        the seating."""
        if arm is None or arm.sure < LEAST_SURE or self.given:
            return
        self.known.append((seat, arm.side))
        # relearnt from every play each time: a seating the plays since contradict is dropped,
        # and the next plays are asked about until one is learnt again
        self.seating = Seating.learn(self.players, self.known, LEARN_FROM)

    def spent(self) -> None:
        """The move is recorded: the arms seen before it are spent."""
        self.spent_count += len(self.sightings)
        self.sightings = []
