"""What else happens at a real table between two plays, for the game films (`video.game_video`).

Each is off by default (a film without them is frame for frame as before) and drawn from the
film's own generator (seeded apart from the film's other choices), so that turning one on changes
nothing else of the film:

- *moved*: the phone is re-framed between two plays: the picture shifts by up to about a third
  of the table it shows, turns 10-30 degrees and zooms 0.8-1.25 (from the film's own framing, so
  the phone does not wander off), in a jump or over a frame or two; the table is still after it.
  The line may then run out of the frame at one end;
- *nudge*: a laid tile is nudged (a sleeve) or straightened by a player: moved by 0.06-0.2 of a
  tile's length and turned 2-8 degrees, by an arm of its own between plays or unseen with the
  next move (the arm that plays lays its tile elsewhere);
- *takeback*: a tile laid and taken back before the right one is played: a tile not on the
  table, half the time one with the number the end asks (the player changed their mind), laid
  where the play goes, left for one to a few still frames, taken back by the same arm, then the
  play as usual;
- *objects*: a thing set down on the table (a cup, a phone, a score sheet: a flat ellipse or
  rectangle with a shadow), a third of the time over part of the layout, left for two to five
  moves and taken away again.

Each `Happenings` field is the chance of its happening at each chance it has (between two moves,
or before a play for `takeback`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from scorer.tiles import FULL_SET

from .dataset import GENERATOR
from .geometry import Pose
from .labels import build_truth
from .render import render_scene
from .scene import Body, Prop, Scene

#: the first key of a frame's truth that is not a state's (`VideoFrame.view`)
FIRST_VIEW = 1000

#: things set down: (shape, length, width, colours), world units (a tile is 2 long)
PROPS = (
    ("ellipse", (1.4, 2.0), None, ((40, 40, 160), (200, 200, 200), (30, 90, 30), (20, 20, 20))),  # a cup
    ("rect", (2.6, 3.0), 0.5, ((20, 20, 20), (60, 50, 40))),  # a phone
    ("rect", (4.5, 6.0), 0.7, ((235, 240, 240), (200, 230, 240))),  # a score sheet
)


@dataclass(frozen=True, slots=True)
class Happenings:
    """The chance of each happening where it may happen (see the module)."""

    moved: float = 0.0
    nudge: float = 0.0
    takeback: float = 0.0
    objects: float = 0.0

    def any(self) -> bool:
        return bool(self.moved or self.nudge or self.takeback or self.objects)

    def to_json(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in ("moved", "nudge", "takeback", "objects") if getattr(self, k)}


Frames = Iterator[tuple[np.ndarray, bool, int | None]]


class Happening:
    """The happenings of one film as its frames are made: `taken_back` before a play, `on_move`
    at each move, `between` after a move's still frames. Each yields (image, arm, view): the
    picture, whether an arm is in it, and the key of its truth (stored in the video's `truths`)."""

    def __init__(self, options: Happenings, rng: np.random.Generator) -> None:
        self.options = options
        self.rng = rng
        self.view = FIRST_VIEW
        self.pending: tuple[int, Pose] | None = None  # a nudge that comes with the next move
        #: what happened, in order (for a film's notes and a test)
        self.log: list[dict[str, Any]] = []

    # -- pictures ---------------------------------------------------------------------------

    def _still(self, video: Any, scene: Scene, cam: Any, gain: float) -> tuple[np.ndarray, int]:
        rendered = render_scene(scene, cam, light_gain=gain)
        self.view += 1
        video.truths[self.view] = build_truth(
            scene,
            rendered,
            {"generator": GENERATOR, "seed": video.seed, "view": self.view, "light_gain": round(gain, 4)},
        )
        return rendered.image, self.view

    def _stills(self, video: Any, scene: Scene, cam: Any, gain: float, count: int) -> Frames:
        image, view = self._still(video, scene, cam, gain)
        for _ in range(count):
            yield image, False, view

    def _arms(
        self, video: Any, scene: Scene, cam: Any, gain: float, side: float, target: tuple[float, float], out: bool
    ) -> Frames:
        """The arm frames over `scene`: reaching in to `target` (`out`: on its way back)."""
        for j in range(video.arm_frames):
            t = 1.0 - 0.35 * j / max(1, video.arm_frames - 1) if video.arm_frames > 1 else 1.0
            if not out:
                t = 0.65 + 0.35 * j / max(1, video.arm_frames - 1) if video.arm_frames > 1 else 1.0
            yield video._render(scene, cam, gain, video._arm(self.rng, side, target, t)), True, None

    def _side(self, video: Any, seat: int | None) -> float:
        sides = video.sides
        if seat is None:
            seat = int(self.rng.integers(len(sides) if sides else len(video.record["players"])))
        side = sides[seat] if sides else seat
        return (side + float(self.rng.uniform(0.3, 0.7))) % 4

    @staticmethod
    def _pixel(cam: Any, x: float, y: float) -> tuple[float, float]:
        px = cam.project(np.array([[x, y, 0.0]]))[0]
        return float(px[0]), float(px[1])

    # -- before a play ----------------------------------------------------------------------

    def taken_back(self, video: Any, before: Scene, cam: Any, gain: float, placement: int, seat: int | None) -> Frames:
        """Maybe a tile laid where play `placement` goes and taken back, before that play."""
        if not self.options.takeback or self.rng.random() >= self.options.takeback:
            return
        true = next(b for b in video.scene.bodies if b.role == "layout" and b.placement == placement)
        assert true.values is not None
        lying = {tuple(sorted(b.values)) for b in before.bodies if b.values is not None}
        lying.add(tuple(sorted(true.values)))
        inner = true.values[0]
        free = [t for t in FULL_SET if (t.low, t.high) not in lying]
        asks = [t for t in free if inner in (t.low, t.high)]
        pool = asks if asks and self.rng.random() < 0.5 else free
        tile = pool[int(self.rng.integers(len(pool)))]
        values = (inner, tile.other(inner)) if inner in (tile.low, tile.high) else (tile.low, tile.high)
        if self.rng.random() < 0.5 and values[0] != values[1] and inner not in values:
            values = (values[1], values[0])
        pose = true.pose
        if (values[0] == values[1]) != (true.values[0] == true.values[1]):
            pose = replace(pose, angle=pose.angle + math.pi / 2)  # a double lies crosswise, a tile in line
        d = self.rng.normal(0, 0.1, 2)
        pose = replace(pose, x=pose.x + float(d[0]), y=pose.y + float(d[1]))
        wrong = Body("up", pose, true.height, values, "loose", None, int(self.rng.integers(2**31)))
        laid = replace(before, bodies=[*before.bodies, wrong])
        target = self._pixel(cam, pose.x, pose.y)
        side = self._side(video, seat)
        lies = int(self.rng.integers(1, video.still_frames + 4))
        back = bool(self.rng.random() < 0.5)
        self.log.append(
            {"what": "takeback", "placement": placement, "tile": f"{values[0]}-{values[1]}", "frames": lies}
        )
        yield from self._arms(video, laid, cam, gain, side, target, out=False)
        yield from self._stills(video, laid, cam, gain, lies)
        yield from self._arms(video, before, cam, gain, side, target, out=True)
        if back:  # a moment's thought before the right tile comes
            yield from self._stills(video, before, cam, gain, video.still_frames)

    # -- at each move ---------------------------------------------------------------------------

    def on_move(self, video: Any) -> None:
        """A move is made: a nudge that comes with it is done, the things set down stay a move less."""
        if self.pending is not None:
            video._nudged[self.pending[0]] = self.pending[1]
            self.pending = None
        video._props = [(p, left - 1) for p, left in video._props]

    # -- between moves --------------------------------------------------------------------------

    def between(
        self,
        video: Any,
        scene_of: Callable[[Any], Scene],
        cam: Any,
        gain: float,
        players: int,
        sides: Any = None,
        upcoming: int | None = None,
    ) -> Frames:
        """Between two moves, after the still frames: a thing taken away or set down, a tile
        nudged, the phone moved (each maybe). `upcoming`: the placement played next (if any): no
        thing lies where it goes (one there is taken away first: nobody lays a tile under a cup)."""
        o = self.options
        next_pose = next((b.pose for b in video.scene.bodies if b.role == "layout" and b.placement == upcoming), None)
        if video._props and (video._props[0][1] <= 0 or _covers(video._props[0][0], next_pose)):
            prop = video._props[0][0]
            scene = scene_of(cam)
            target = self._pixel(cam, prop.x, prop.y)
            side = self._side(video, None)
            frames = list(self._arms(video, scene, cam, gain, side, target, out=False))
            yield frames[0]
            video._props = video._props[1:]
            self.log.append({"what": "object_gone"})
            scene = scene_of(cam)
            yield from self._arms(video, scene, cam, gain, side, target, out=True)
            yield from self._stills(video, scene, cam, gain, video.still_frames)
        elif o.objects and not video._props and self.rng.random() < o.objects:
            prop = self._prop(scene_of(cam), cam)
            for _ in range(20):  # not where the next tile goes
                if not _covers(prop, next_pose):
                    break
                prop = self._prop(scene_of(cam), cam)
            video._props = [(prop, int(self.rng.integers(2, 6)))]
            scene = scene_of(cam)
            self.log.append({"what": "object", "shape": prop.shape, "at": [round(prop.x, 2), round(prop.y, 2)]})
            target = self._pixel(cam, prop.x, prop.y)
            side = self._side(video, None)
            yield from self._arms(video, scene, cam, gain, side, target, out=True)
            yield from self._stills(video, scene, cam, gain, video.still_frames)
        if o.nudge and self.rng.random() < o.nudge:
            laid = [b for b in scene_of(cam).bodies if b.role == "layout" and b.placement is not None]
            if laid:
                body = laid[int(self.rng.integers(len(laid)))]
                angle = float(self.rng.uniform(0, 2 * math.pi))
                shift = float(self.rng.uniform(0.06, 0.2)) * body.pose.length
                turn = math.radians(float(self.rng.uniform(2, 8))) * (1 if self.rng.random() < 0.5 else -1)
                pose = replace(
                    body.pose,
                    x=body.pose.x + shift * math.cos(angle),
                    y=body.pose.y + shift * math.sin(angle),
                    angle=body.pose.angle + turn,
                )
                assert body.placement is not None
                alone = bool(self.rng.random() < 0.5)
                self.log.append({"what": "nudge", "placement": body.placement, "alone": alone})
                if alone:  # an arm of its own straightens it
                    video._nudged[body.placement] = pose
                    scene = scene_of(cam)
                    target = self._pixel(cam, pose.x, pose.y)
                    side = self._side(video, None)
                    yield from self._arms(video, scene, cam, gain, side, target, out=True)
                    yield from self._stills(video, scene, cam, gain, video.still_frames)
                else:  # a sleeve moves it as the next move is made
                    self.pending = (body.placement, pose)
        if o.moved and self.rng.random() < o.moved:
            new = self._reframe(video.scene.camera)
            steps = int(self.rng.integers(0, 3))
            self.log.append({"what": "moved", "steps": steps})
            old = cam
            for j in range(1, steps + 1):
                f = j / (steps + 1)
                between = replace(
                    new,
                    target=(
                        old.target[0] + f * (new.target[0] - old.target[0]),
                        old.target[1] + f * (new.target[1] - old.target[1]),
                    ),
                    roll=old.roll + f * (new.roll - old.roll),
                    distance=old.distance + f * (new.distance - old.distance),
                )
                image, view = self._still(video, scene_of(between), between, gain)
                yield image, False, view
            video._cam = new
            yield from self._stills(video, scene_of(new), new, gain, video.still_frames)

    def _reframe(self, cam: Any) -> Any:
        """The film's framing shifted, turned and zoomed (a phone put down and picked up again)."""
        view = cam.footprint()
        a, b = view[1] - view[0], view[3] - view[0]
        size = float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0])))
        angle = float(self.rng.uniform(0, 2 * math.pi))
        shift = float(self.rng.uniform(0.1, 0.3)) * size
        turn = math.radians(float(self.rng.uniform(10, 30))) * (1 if self.rng.random() < 0.5 else -1)
        zoom = float(self.rng.uniform(0.8, 1.25))
        return replace(
            cam,
            target=(cam.target[0] + shift * math.cos(angle), cam.target[1] + shift * math.sin(angle)),
            roll=cam.roll + turn,
            distance=cam.distance / zoom,
        )

    def _prop(self, scene: Scene, cam: Any) -> Prop:
        shape, (lo, hi), aspect, colours = PROPS[int(self.rng.integers(len(PROPS)))]
        length = float(self.rng.uniform(lo, hi))
        width = length if aspect is None else length * aspect
        laid = [b for b in scene.bodies if b.role == "layout"]
        if laid and self.rng.random() < 1 / 3:  # over part of the layout
            body = laid[int(self.rng.integers(len(laid)))]
            d = self.rng.normal(0, 0.8, 2)
            x, y = body.pose.x + float(d[0]), body.pose.y + float(d[1])
        else:  # somewhere in view
            view = cam.footprint()
            u, v = self.rng.uniform(0.15, 0.85, 2)
            top = view[0] + u * (view[1] - view[0])
            bottom = view[3] + u * (view[2] - view[3])
            x, y = (float(c) for c in top + v * (bottom - top))
        colour = colours[int(self.rng.integers(len(colours)))]
        return Prop(shape, x, y, length, width, float(self.rng.uniform(0, math.pi)), colour)


def _covers(prop: Prop, pose: Pose | None) -> bool:
    """Whether `prop` lies over (or against) a tile lying at `pose`."""
    if pose is None:
        return False
    reach = max(prop.length, prop.width) / 2 + pose.length / 2 + 0.3
    return bool(math.hypot(prop.x - pose.x, prop.y - pose.y) < reach)
