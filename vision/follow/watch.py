"""The pipeline of `spinner watch`: frame -> stillness -> reading -> follower -> record and evidence.

`Watcher.step(image, name)` is the whole step from one frame to an updated score. A frame that is
moving, or still and the same as the last one read, costs one thumbnail and no model run (every
thumbnail also goes to `seats.ArmWatch`: the arms that reach in say who laid a tile); only
a settled frame that changed is read (any object with `read(image, name) -> Reading` will do:
the ONNX `Reader`, or `OracleReader` in tests).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from vision.follow.evidence import EvidenceStore
from vision.follow.follower import Follower, Outcome
from vision.follow.motion import Motion, MotionDetector, thumbnail
from vision.follow.seats import ArmWatch
from vision.read.reading import Reading


class ReaderLike(Protocol):
    def read(self, image: np.ndarray, name: str = "") -> Reading: ...


@dataclass(frozen=True, slots=True)
class Step:
    motion: Motion
    outcome: Outcome | None
    reading: Reading | None
    ms: float


class Watcher:
    def __init__(
        self,
        follower: Follower,
        reader: ReaderLike,
        evidence: EvidenceStore | None = None,
        settle: int = 3,
        arms: bool = True,
    ) -> None:
        self.follower = follower
        self.reader = reader
        self.evidence = evidence
        self.motion = MotionDetector(settle=settle)
        #: the arms reaching over the table between reads: who laid a tile (`seats`)
        self.arms = ArmWatch(settle=settle)
        #: False: the arms are not looked for (a measure of following a folder of photos)
        self.see_arms = arms
        self.frames = 0
        self.reads = 0
        #: an arm's stretch ended with the table changed (`ArmSighting.changed`) since the last read
        self._arm_changed = False
        self._ask_frame: str | None = None
        #: the last frame read, and its reading (`end` keeps it as the evidence of its question)
        self._last: tuple[np.ndarray, Reading] | None = None

    def step(self, image: np.ndarray, name: str = "") -> Step:
        started = time.perf_counter()
        self.frames += 1
        self.motion.frame_size = (int(image.shape[1]), int(image.shape[0]))
        thumb = thumbnail(image)
        motion = self.motion.update(thumb)
        if self.see_arms:
            arm = self.arms.update(thumb)
            self._arm_changed = self._arm_changed or (arm is not None and arm.changed)
        if motion.state != "change" and self._arm_changed and self.motion.settled_now(motion):
            # an arm left the table changed by the arm watch's finer test, where the stillness
            # test saw too few pixels change (a small tile on a busy cloth): the still frame after
            # it is read as a change, so that the tile is played, or the change asked about
            motion = Motion("change", motion.moving, motion.changed, (self.motion.whole(thumb),))
        if motion.state != "change":
            return Step(motion, None, None, 1000 * (time.perf_counter() - started))
        self._arm_changed = False
        reading = self.reader.read(image, name)
        self.reads += 1
        self._last = (image, reading)
        outcome = self.follower.observe(reading, motion.regions, again=motion.again, arms=self.arms.take(), image=image)
        # the picture is the new reference for stillness even after an ask: the same unsettled
        # change is not read again until the table changes once more. A change in which nothing
        # new was read stays a change: after the next movement the frame is read again, and a
        # tile the reader missed is then still inside the changed regions.
        if outcome.settled:
            self.motion.accept(thumb)
        if self.evidence is not None and outcome.kind in ("play", "ask"):
            frame_id = self.evidence.keep(image, reading, outcome, _motion_json(motion), self._hand())
            self._ask_frame = frame_id if outcome.kind == "ask" else None
        return Step(motion, outcome, reading, 1000 * (time.perf_counter() - started))

    def end(self) -> Outcome | None:
        """The frames ended: a change still unsettled is asked about, and tiles of the last frame
        left for a next look are taken up from it (`Follower.ended`), never dropped unsaid. None
        where nothing is left open."""
        outcome = self.follower.ended()
        if (
            outcome is not None
            and self.evidence is not None
            and self._last is not None
            and outcome.kind in ("play", "ask")
        ):
            image, reading = self._last
            frame_id = self.evidence.keep(image, reading, outcome, None, self._hand())
            self._ask_frame = frame_id if outcome.kind == "ask" else None
        return outcome

    def confirm(self, events: list[dict[str, Any]]) -> Outcome:
        """A person settles the pending ask; its events are linked to the frame that asked."""
        outcome = self.follower.confirm(events)
        if self.evidence is not None and self._ask_frame is not None:
            self.evidence.link(self._ask_frame, outcome)
        self._ask_frame = None
        return outcome

    def settle_run(self, events: list[dict[str, Any]]) -> Outcome:
        """A person says who laid the plays followed with their seat open (`Follower.run_question`)."""
        outcome = self.follower.settle_run(events)
        if self.evidence is not None and self._ask_frame is not None:
            self.evidence.link(self._ask_frame, outcome)
        self._ask_frame = None
        self.motion.reported = False  # the frame that asked was not used: the next still one is read
        return outcome

    def reveal(self, seat: int, image: np.ndarray, name: str = "") -> Outcome:
        """End of hand: one player's remaining tiles, photographed; the reader counts them."""
        reading = self.reader.read(image, name)
        outcome = self.follower.reveal(seat, reading)
        if self.evidence is not None:
            self.evidence.keep(image, reading, outcome, hand=self._hand())
        return outcome

    def _hand(self) -> int | None:
        """The hand being followed (from 0), None before the first."""
        hands = len(self.follower.match.hands)
        return hands - 1 if hands else None


def _motion_json(motion: Motion) -> dict[str, Any]:
    return {
        "state": motion.state,
        "moving": round(motion.moving, 5),
        "changed": round(motion.changed, 5),
        "regions": [r.to_json() for r in motion.regions],
    }
