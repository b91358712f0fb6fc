"""How often a live camera's table changed since the last play, and which changes nothing explains.

The reader sometimes misses a play (a tile small in the picture, or read too faintly). The next
tile it does find then looks like the next play, and would be recorded as the wrong player's:
one seat late. `spinner watch` guards against that in `vision.follow`; this is the same guard
for the page's live camera, whose frames are read one by one as they come.

Each camera frame is looked at when it arrives, before the reader (`TableChanges.see`): the
motion test of `vision.motion` (a thumbnail; no model) says whether the table now differs from
how it was at the last play, and each new difference that settles is a *change*, numbered. A
frame the reader reads on a still table and in which it finds a new tile explains its change
(`explain`), unless that tile was already new in an earlier change (seen, and not played yet).
When the reader then proposes a play, the changes before this frame's own that nothing explained
are counted (`unexplained_before`): any at all, and the play may not be the next one, so it is
asked about, not recorded. Recording a play (the camera's or the pad's) starts the count again
from the table as it is then (`settle`).

The state lives in memory, one per match: a server that restarts simply starts counting again.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from vision.motion import MotionDetector


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

    def unexplained_before(self, look: Look, version: int) -> int:
        """How many changes before this frame's own, since the last play, nothing explained.
        A match changed elsewhere (a play on the pad, an undo) starts the count again here."""
        with self.lock:
            if self.version != version:  # the table as this frame shows it is the starting point
                self._restart(look, version)
            # a change is explained by a tile first seen in it: one still lying there unplayed
            # since an earlier change does not explain a later change too
            earlier: set[str] = set()
            unexplained = 0
            for c in range(self.base, look.change):
                tiles = self.news.get(c, set())
                unexplained += not (tiles - earlier)
                earlier |= tiles
            return unexplained

    def settle(self, look: Look, version: int) -> None:
        """The camera recorded a play from this frame: the table as this frame shows it is the
        new starting point, and this frame's change is spent."""
        with self.lock:
            self._restart(look, version)

    def _restart(self, look: Look, version: int) -> None:
        self.version, self.base = version, look.change + 1
        self.news = {c: tiles for c, tiles in self.news.items() if c >= self.base}
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
