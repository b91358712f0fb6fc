"""How often a live camera's table changed since the last play, and which changes nothing explains.

The reader sometimes misses a play (a tile small in the picture, or read too faintly). The next
tile it does find then looks like the next play, and would be recorded as the wrong player's:
one seat late. `spinner watch` guards against that in `vision.follow.follower`; this is the same guard
for the page's live camera, whose frames are read one by one as they come.

Each camera frame is looked at when it arrives, before the reader (`TableChanges.see`): the
motion test of `vision.follow.motion` (a thumbnail; no model) says whether the table now differs from
how it was at the last play, and each new difference that settles is a *change*, numbered. A
frame the reader reads on a still table and in which it finds a new tile explains its change
(`explain`), unless that tile was already new in an earlier change (seen, and not played yet).
When the reader then proposes a play, the changes before this frame's own that nothing explained
are counted (`unexplained_before`): any at all, and the play may not be the next one, so it is
asked about, not recorded. A change is explained only by a tile this frame still reads as new: a
tile seen once and lost since (read faintly, then hidden by the arm laying the next one) is a play
the camera has not recorded, and the tile it proposes now cannot be the next play. The camera's own play starts the count again from the table as its
frame shows it (`settle`), but spends only the changes up to the one in which it first saw the
tile: one recorded late, after questions, leaves later changes open. A play scored on the pad settles only the changes up to the one in
which the camera first saw its tile: a change after that (a tile laid while the question about
the padded one was open, and not read) is still unexplained.

The state lives in memory, one per match: a server that restarts simply starts counting again.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from vision.follow.motion import MotionDetector


@dataclass(frozen=True, slots=True)
class Look:
    """What the motion test saw in one live frame."""

    #: the number of the table change this frame shows: the last one that settled (0 before any),
    #: or for a frame caught moving, the one under way
    change: int
    #: the frame was still (not an arm moving over the table): its reading may explain its change
    still: bool
    thumb: np.ndarray = field(repr=False)


class TableChanges:
    """One match's live camera: its changes since the last play, and which were explained."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        # a table is still after two still frames in a row: the page sends a frame a second
        self.detector = MotionDetector(settle=2)
        self.count = 0
        #: change -> the new tiles read on its still frames
        self.news: dict[int, set[str]] = {}
        #: the first change that counts (the ones before were settled by a play)
        self.base = 1
        #: the version of the match the count refers to (None: none seen yet)
        self.version: int | None = None
        #: the tiles played in the hand at that version
        self.played: frozenset[str] = frozenset()
        #: tile -> the change it was first read as new in (kept until it is played)
        self.first_seen: dict[str, int] = {}

    def see(self, thumb: np.ndarray) -> Look:
        """A frame as it arrives, in the order the camera sent them."""
        with self.lock:
            motion = self.detector.update(thumb)
            if motion.state == "change" and not motion.again:  # a change seen again is the same one
                self.count += 1
            if motion.state == "moving":  # a change under way: the number it gets when it settles
                return Look(self.count + 1, False, thumb)
            return Look(self.count, True, thumb)

    def explain(self, look: Look, tiles: set[str]) -> None:
        """The reader found these new tiles in this frame (tiles the match does not have yet)."""
        if look.still and tiles:
            with self.lock:
                self.news.setdefault(look.change, set()).update(tiles)
                for tile in tiles:
                    self.first_seen.setdefault(tile, look.change)

    def unexplained_before(
        self, look: Look, version: int, played: frozenset[str] = frozenset(), new: frozenset[str] | None = None
    ) -> int:
        """How many changes before this frame's own, since the last play, nothing explained.
        `played`: the tiles of the hand's plays at `version` ("a-b", smaller half first); `new`:
        the tiles this frame reads as new, the only ones that explain a change (None: any).

        A match changed elsewhere starts the count again: after the change in which the camera
        first saw the tiles played since (a play on the pad), else (an undo, a tile the camera
        never saw) here."""
        with self.lock:
            if self.version != version:
                base = look.change + 1
                if played >= self.played:  # plays added (not an undo, not a new hand)
                    seen = [self.first_seen[t] for t in played - self.played if t in self.first_seen]
                    if seen:
                        base = min(base, max(self.base, max(seen) + 1))
                else:
                    self.first_seen.clear()
                self._restart(look, version, played, base)
            # a change is explained by a tile first seen in it: one still lying there unplayed
            # since an earlier change does not explain a later change too; nor does one this
            # frame no longer reads as new (a play seen once, lost since, and never recorded)
            return sum(
                not any(self.first_seen.get(t) == c and (new is None or t in new) for t in self.news.get(c, ()))
                for c in range(self.base, look.change)
            )

    def settle(self, look: Look, version: int, played: frozenset[str] = frozenset(), tile: str | None = None) -> None:
        """The camera recorded a play (`tile`) from this frame: the table as this frame shows it is
        the new starting point, and the changes up to the one in which the tile was first seen are
        spent. One recorded late (after questions) leaves the changes after that one open: plays
        laid meanwhile that the reader did not see."""
        with self.lock:
            base = look.change + 1
            first = self.first_seen.get(tile) if tile is not None else None
            if first is not None and first < look.change:
                base = max(self.base, first + 1)
            self._restart(look, version, played, base)

    def _restart(self, look: Look, version: int, played: frozenset[str], base: int) -> None:
        self.version, self.base, self.played = version, base, played
        for tile in played:
            self.first_seen.pop(tile, None)
        # a tile played is no longer new: it explains no change left open
        self.news = {c: tiles - played for c, tiles in self.news.items() if c >= self.base}
        self.detector.accept(look.thumb)


class Tables:
    """The `TableChanges` of each match this server has seen a live camera of."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.of: dict[str, TableChanges] = {}

    def get(self, game_id: str) -> TableChanges:
        with self.lock:
            found = self.of.get(game_id)
            if found is None:
                found = self.of[game_id] = TableChanges()
            return found
