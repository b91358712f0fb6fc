"""A synthetic game on video, with its true match record: what `spinner watch` is measured on.

One table (camera, set, table top, the tiles lying about that are not in play) sees a hand
played tile by tile: before each move an arm reaches in from the player's side of the table,
lays the tile and leaves; between moves the table is still (a few frames, each with its own
sensor noise); now and then an arm passes over the table and lays nothing; the light drifts and
the camera shakes a little from move to move.

The layout is a legal random layout (`layouts.legal_layout`); its placements in play order become
the true record: seats in turn order from the leader, no passes (the layout generator plays every
tile as the next seat's), the variant chosen by the layout's kind (`spinner`: all-fives, whose lead
may be any tile; `line`: block), stopped when a seat plays its last tile. The scorer replays it,
so the true record is checked by the rules engine like any other.

A *dealt* film (`game_video(..., dealt=VARIANT)`) is played as a real deal makes it instead
(`game.dealt_game`): the rules engine deals, each seat plays a tile of its own, draws or passes,
so the true record holds passes and draws (with the deal: full information). Each seat sits at
one side of the picture (`GameVideo.sides`, random per film, in play order around the table);
the arm that lays a seat's tile, or takes its draw from the boneyard, reaches in from that side;
a pass shows nothing. In the variants that draw, the boneyard lies face down in view and loses a
tile at each draw. Tiles that take no part in the game (loose tiles, other rows) are left out.
Without `dealt` the film is the older kind, frame for frame as before.

`OracleReader` reads a frame from its truth (every labelled face-up tile, sure of each half),
so the follower can be tested without the detector's mistakes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from scorer.match import RECORD_FORMAT, Match
from scorer.tiles import Tile
from vision.read.reading import HalfReading, Ignored, Reading, TileReading

from .dataset import GENERATOR
from .game import DealtGame, dealt_game, film_variant
from .geometry import Footprints, Pose, transform_pose
from .happen import Happenings
from .labels import build_truth
from .layouts import layout_prefix
from .render import render_scene
from .scene import Body, HandSpec, Prop, Scene, with_layout_prefix
from .sequence import _frame_layout, _scene_with_layout

#: the variant a layout's kind is played as (both let any tile lead, so seat 0 may lead anything)
VARIANT_OF_KIND = {"spinner": "all-fives", "line": "block"}


@dataclass(frozen=True, slots=True)
class VideoFrame:
    image: np.ndarray
    name: str
    #: how many plays lie on the table
    state: int
    #: an arm is over the table
    arm: bool
    #: dealt films: the seat whose arm it is (None on still frames and in the older films)
    seat: int | None = None
    #: dealt films: the true event the frame belongs to (None before the first, and in the older films)
    event: int | None = None
    #: films with happenings: the key of the frame's truth in `GameVideo.truths` where it is not
    #: `state`'s (a tile laid and taken back, a tile nudged, the phone moved, a thing set down)
    view: int | None = None

    @property
    def truth(self) -> int:
        """The key of this frame's truth in `GameVideo.truths`."""
        return self.state if self.view is None else self.view


@dataclass
class GameVideo:
    """A game's frames (rendered as they are iterated) and its true record."""

    scene: Scene
    record: dict[str, Any]
    plays: int
    width: int
    height: int
    still_frames: int
    arm_frames: int
    idle_passes: float
    light_drift: float
    shake: float
    noise: float
    seed: int
    #: the truth of each state rendered so far (state -> truth JSON)
    truths: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: a dealt film's game (passes, draws, seating); None for the older films
    game: DealtGame | None = None
    #: what else happens at the table (`Happenings`); None: nothing, frame for frame as before
    happen: Happenings | None = None

    @property
    def sides(self) -> tuple[int, ...] | None:
        """The picture side each seat sits at (0 top, 1 right, 2 bottom, 3 left), dealt films only."""
        return self.game.sides if self.game is not None else None

    def frames(self) -> Iterator[VideoFrame]:
        if self.game is not None:
            yield from self._dealt_frames(self.game)
            return
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, 11]))
        noises = [rng.normal(0, self.noise, (self.height, self.width, 1)).astype(np.float32) for _ in range(3)]
        phase = float(rng.uniform(0, 2 * math.pi))
        index = 0

        def noisy(image: np.ndarray) -> np.ndarray:
            nonlocal index
            if not self.noise:
                return image
            return np.clip(image.astype(np.float32) + noises[index % len(noises)], 0, 255).astype(np.uint8)

        cam = self.scene.camera
        players = len(self.record["players"])
        happen = self._begin()
        for state in range(self.plays + 1):
            gain = 1.0 + self.light_drift * math.sin(phase + 0.7 * state)
            if self.shake and state:
                d = rng.normal(0, self.shake, 3)
                cam = self._cam.shaken(float(d[0]), float(d[1]), float(d[2]) * 0.01)
            elif self._cam is not self.scene.camera:
                cam = self._cam
            if happen is not None and state:
                seat = (state - 1) % players
                before = self._state(state - 1, cam)
                for image, arm, view in happen.taken_back(self, before, cam, gain, state - 1, seat):
                    yield VideoFrame(noisy(image), f"{index:06d}", state - 1, arm, view=view)
                    index += 1
                happen.on_move(self)
            scene = self._state(state, cam)
            if state:
                seat = (state - 1) % players
                target = self._tile_pixel(scene, cam, state - 1)
                edge = (seat + float(rng.uniform(0.3, 0.7))) % 4
                for k in range(self.arm_frames):
                    t = 1.0 - 0.35 * k / max(1, self.arm_frames - 1) if self.arm_frames > 1 else 1.0
                    image = self._render(scene, cam, gain, self._arm(rng, edge, target, t))
                    yield VideoFrame(noisy(image), f"{index:06d}", state, True)
                    index += 1
            rendered = render_scene(scene, cam, light_gain=gain)
            self.truths[state] = build_truth(
                scene,
                rendered,
                {"generator": GENERATOR, "seed": self.seed, "plays": state, "light_gain": round(gain, 4)},
            )
            still = rendered.image
            for _ in range(self.still_frames):
                yield VideoFrame(noisy(still), f"{index:06d}", state, False)
                index += 1
            if state < self.plays and rng.random() < self.idle_passes:
                # an arm passes over the table and lays nothing: the table after is as before
                edge = float(rng.uniform(0, 4))
                spot = (float(rng.uniform(0.2, 0.8)) * self.width, float(rng.uniform(0.2, 0.8)) * self.height)
                for k in range(self.arm_frames):
                    image = self._render(scene, cam, gain, self._arm(rng, edge, spot, 0.6 + 0.4 * k))
                    yield VideoFrame(noisy(image), f"{index:06d}", state, True)
                    index += 1
                for _ in range(self.still_frames):
                    yield VideoFrame(noisy(still), f"{index:06d}", state, False)
                    index += 1
            if happen is not None and state < self.plays:
                for image, arm, view in happen.between(
                    self, lambda c, s=state: self._state(s, c), cam, gain, players, upcoming=state
                ):
                    yield VideoFrame(noisy(image), f"{index:06d}", state, arm, view=view)
                    index += 1

    def _dealt_frames(self, game: DealtGame) -> Iterator[VideoFrame]:
        """The frames of a dealt film: event by event, an arm from the seat's own side for each play
        and draw, nothing for a pass; the boneyard loses the drawn tile."""
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, 13]))
        noises = [rng.normal(0, self.noise, (self.height, self.width, 1)).astype(np.float32) for _ in range(3)]
        phase = float(rng.uniform(0, 2 * math.pi))
        index = 0

        def noisy(image: np.ndarray) -> np.ndarray:
            if not self.noise:
                return image
            return np.clip(image.astype(np.float32) + noises[index % len(noises)], 0, 255).astype(np.uint8)

        boneyard = [b for b in self.scene.bodies if b.role == "boneyard"]
        cam = self.scene.camera
        state = drawn = 0
        moves = 0  # plays and draws shown: the light drifts from one to the next
        steps: list[tuple[int | None, dict[str, Any] | None]] = [(None, None)]
        steps += list(enumerate(game.events))
        happen = self._begin()
        for k, event in steps:
            if event is not None and event["type"] == "pass":
                continue  # a pass shows nothing
            seat = event["seat"] if event is not None else None
            if event is not None:
                moves += 1
                if self.shake:
                    d = rng.normal(0, self.shake, 3)
                    cam = self._cam.shaken(float(d[0]), float(d[1]), float(d[2]) * 0.01)
                elif self._cam is not self.scene.camera:
                    cam = self._cam
                if happen is not None:
                    if event["type"] == "play" and state:
                        before = self._dealt_state(state, drawn, boneyard, cam)
                        gain = 1.0 + self.light_drift * math.sin(phase + 0.7 * moves)
                        for image, arm, view in happen.taken_back(self, before, cam, gain, state, event["seat"]):
                            yield VideoFrame(
                                noisy(image), f"{index:06d}", state, arm, event["seat"] if arm else None, k, view
                            )
                            index += 1
                    happen.on_move(self)
                if event["type"] == "play":
                    state += 1
                else:
                    drawn += 1
            gain = 1.0 + self.light_drift * math.sin(phase + 0.7 * moves)
            scene = self._dealt_state(state, drawn, boneyard, cam)
            if event is not None:
                if event["type"] == "play":
                    target = self._tile_pixel(scene, cam, state - 1)
                else:  # the tile taken from the boneyard, where it lay
                    taken = boneyard[len(boneyard) - drawn]
                    x, y = cam.project(np.array([[taken.pose.x, taken.pose.y, 0.0]]))[0]
                    target = (float(x), float(y))
                assert seat is not None
                edge = (game.sides[seat] + float(rng.uniform(0.3, 0.7))) % 4
                for j in range(self.arm_frames):
                    t = 1.0 - 0.35 * j / max(1, self.arm_frames - 1) if self.arm_frames > 1 else 1.0
                    image = self._render(scene, cam, gain, self._arm(rng, edge, target, t))
                    yield VideoFrame(noisy(image), f"{index:06d}", state, True, seat, k)
                    index += 1
            rendered = render_scene(scene, cam, light_gain=gain)
            self.truths[state] = build_truth(
                scene,
                rendered,
                {
                    "generator": GENERATOR,
                    "seed": self.seed,
                    "plays": state,
                    "drawn": drawn,
                    "light_gain": round(gain, 4),
                },
            )
            still = rendered.image
            for _ in range(self.still_frames):
                yield VideoFrame(noisy(still), f"{index:06d}", state, False, None, k)
                index += 1
            if k is not None and k + 1 < len(game.events) and rng.random() < self.idle_passes:
                # a player's arm passes over the table and lays nothing, from that player's side
                edge = (game.sides[int(rng.integers(len(game.sides)))] + float(rng.uniform(0.2, 0.8))) % 4
                spot = (float(rng.uniform(0.2, 0.8)) * self.width, float(rng.uniform(0.2, 0.8)) * self.height)
                for j in range(self.arm_frames):
                    image = self._render(scene, cam, gain, self._arm(rng, edge, spot, 0.6 + 0.4 * j))
                    yield VideoFrame(noisy(image), f"{index:06d}", state, True, None, k)
                    index += 1
                for _ in range(self.still_frames):
                    yield VideoFrame(noisy(still), f"{index:06d}", state, False, None, k)
                    index += 1
            if happen is not None and k is not None and k + 1 < len(game.events):
                now = self._dealt_scene_of(state, drawn, boneyard)
                for image, arm, view in happen.between(
                    self, now, cam, gain, len(game.sides), game.sides, upcoming=state
                ):
                    yield VideoFrame(noisy(image), f"{index:06d}", state, arm, None, k, view)
                    index += 1

    def _dealt_scene_of(self, plays: int, drawn: int, boneyard: list[Body]) -> Any:
        return lambda cam: self._dealt_state(plays, drawn, boneyard, cam)

    def _begin(self) -> Any:
        """Start the frames: the phone where the film frames the table, nothing nudged or set down;
        the happenings' own play (None where the film has none)."""
        self._cam = self.scene.camera
        self._nudged: dict[int, Pose] = {}
        self._props: list[tuple[Prop, int]] = []
        #: what happened so far (`Happening.log`: each happening, in order)
        self.happened: list[dict[str, Any]] = []
        if self.happen is None or not self.happen.any():
            return None
        from .happen import Happening

        happening = Happening(self.happen, np.random.default_rng(np.random.SeedSequence([self.seed, 41])))
        happening.log = self.happened
        return happening

    def _dealt_state(self, plays: int, drawn: int, boneyard: list[Body], cam: Any) -> Scene:
        taken = {id(b) for b in boneyard[len(boneyard) - drawn :]} if drawn else set()
        scene = self._state(plays, cam)
        scene.bodies = [b for b in scene.bodies if id(b) not in taken]
        return scene

    def _state(self, state: int, cam: Any) -> Scene:
        assert self.scene.laid is not None
        scene = with_layout_prefix(self.scene, state)
        scene.laid = layout_prefix(self.scene.laid, state)
        scene.camera = cam
        scene.hands = []
        nudged = getattr(self, "_nudged", None)
        if nudged:
            scene.bodies = [
                replace(b, pose=nudged[b.placement]) if b.role == "layout" and b.placement in nudged else b
                for b in scene.bodies
            ]
        props = getattr(self, "_props", None)
        if props:
            scene.props = [p for p, _ in props]
        return scene

    def _tile_pixel(self, scene: Scene, cam: Any, placement: int) -> tuple[float, float]:
        body = next(b for b in scene.bodies if b.role == "layout" and b.placement == placement)
        x, y = cam.project(np.array([[body.pose.x, body.pose.y, 0.0]]))[0]
        return float(x), float(y)

    def _arm(self, rng: np.random.Generator, edge: float, target: tuple[float, float], t: float) -> HandSpec:
        reach = (min(0.95, max(0.05, target[0] / self.width)), min(0.95, max(0.05, target[1] / self.height)))
        # t < 1: the fingertip on its way out, back towards the edge it came from
        side = _edge_point(edge)
        reach = (side[0] + t * (reach[0] - side[0]), side[1] + t * (reach[1] - side[1]))
        return HandSpec(edge, reach, float(rng.uniform(1.0, 1.3)), (120, 160, 210), None, 4, int(rng.integers(2**31)))

    def _render(self, scene: Scene, cam: Any, gain: float, hand: HandSpec) -> np.ndarray:
        return render_scene(replace(scene, hands=[hand]), cam, light_gain=gain).image


def _edge_point(edge: float) -> tuple[float, float]:
    """Where on the border (fractions) the position 0..4 around the frame lies."""
    side, t = int(edge) % 4, edge - int(edge)
    return [(t, 0.0), (1.0, t), (1.0 - t, 1.0), (0.0, 1.0 - t)][side]


def true_record(
    placements: list[dict[str, Any]], kind: str, players: int = 4, leader: int = 0
) -> tuple[dict[str, Any], int]:
    """The match record of a layout's plays: seats in turn order from `leader`, stopped where a
    seat plays its last tile. Returns the record and how many plays it holds."""
    variant = VARIANT_OF_KIND[kind]
    names = [f"P{s + 1}" for s in range(players)]
    match = Match.new(variant, names)
    match.start_hand(leader=leader)
    events: list[dict[str, Any]] = []
    for k, p in enumerate(placements):
        seat = (leader + k) % players
        event: dict[str, Any] = {"type": "play", "seat": seat, "tile": p["tile"]}
        if p["end"] is not None:
            event["end"] = p["end"]
        match.apply(event)  # a legal layout is a legal record: the scorer checks it anyway
        events.append(event)
        if match.current is not None and match.current.over:
            break
    record = {
        "format": RECORD_FORMAT,
        "variant": variant,
        "players": names,
        "hands": [{"leader": leader, "events": events}],
    }
    return record, len(events)


def game_video(
    seed: int,
    width: int = 1280,
    height: int = 960,
    players: int = 4,
    still_frames: int = 3,
    arm_frames: int = 2,
    idle_passes: float = 0.15,
    light_drift: float = 0.06,
    shake: float = 0.01,
    noise: float = 1.5,
    min_tiles: int = 4,
    max_plays: int | None = None,
    dealt: str | None = None,
    happen: Happenings | None = None,
) -> GameVideo:
    """One synthetic game (rendered lazily as its frames are iterated) and its true record.

    `dealt`: a variant of `game.FILM_VARIANTS` (or "any": one drawn from the seed) to deal and play
    as a real table does, with passes, draws and each seat's arm from its own side; None: the older
    films (the same frames as before for a seed). `happen`: what else happens at the table
    (`happen.Happenings`: the phone moved, a tile nudged or laid and taken back, a thing set
    down); None or all off: the same frames as without it."""
    scene = _scene_with_layout(seed, 0, width, height, min_tiles)
    assert scene.laid is not None
    # The game videos keep a neutral tone curve and unruled boards (as they were rendered before
    # the photos had them), so the follower's benchmarks stay comparable from one generator to the next.
    board = replace(scene.board, cells=None, ink=None) if scene.board is not None else None
    scene = replace(scene, finish=replace(scene.finish, contrast=1.0), board=board)
    if dealt is not None:
        film = _dealt_video(
            scene,
            seed,
            dealt,
            width,
            height,
            players,
            still_frames,
            arm_frames,
            idle_passes,
            light_drift,
            shake,
            noise,
            max_plays,
        )
        film.happen = happen
        return film
    scene = replace(scene, hands=[], camera=_frame_layout(scene))
    laid = scene.laid
    assert laid is not None
    placements = [{"tile": f"{p.inner}-{p.outer}", "end": p.end} for p in laid.layout.placements]
    if max_plays is not None:
        placements = placements[:max_plays]
    record, plays = true_record(placements, laid.variant, players)
    return GameVideo(
        scene,
        record,
        plays,
        width,
        height,
        still_frames,
        arm_frames,
        idle_passes,
        light_drift,
        shake,
        noise,
        seed,
        happen=happen,
    )


def _dealt_video(
    scene: Scene,
    seed: int,
    variant: str,
    width: int,
    height: int,
    players: int,
    still_frames: int,
    arm_frames: int,
    idle_passes: float,
    light_drift: float,
    shake: float,
    noise: float,
    max_plays: int | None,
) -> GameVideo:
    """A dealt film on the scene's table: its layout replaced by the dealt game's, its other tiles by
    the boneyard (in the variants that draw)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 23]))
    variant, players = film_variant(rng, variant, players)
    # the table area around the lead: about what the camera sees, as `build_scene` gives a bare table
    view = scene.camera.footprint()
    a, b = view[1] - view[0], view[3] - view[0]
    size = float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0])))
    bw, bh = size * rng.uniform(0.8, 1.3, 2)
    bounds = (-bw / 2, -bh / 2, bw / 2, bh / 2)
    game = dealt_game(
        rng,
        variant,
        players,
        bounds,
        max_gap=float(rng.uniform(0.01, 0.08)),
        jitter_deg=float(rng.uniform(0, 3)),
        max_plays=max_plays,
    )
    lead = next(b for b in scene.bodies if b.role == "layout" and b.placement == 0)
    ox, oy = lead.pose.x, lead.pose.y
    rot = float(rng.uniform(0, 2 * math.pi))
    thickness = scene.tile_style.thickness
    bodies = [
        Body(
            "up",
            transform_pose(pose, ox, oy, rot),
            thickness,
            (p.inner, p.outer),
            "layout",
            i,
            int(rng.integers(2**31)),
        )
        for i, (pose, p) in enumerate(zip(game.laid.poses, game.laid.layout.placements, strict=True))
    ]
    for pose in _boneyard_poses(rng, game.laid.poses, game.boneyard):
        bodies.append(
            Body("down", transform_pose(pose, ox, oy, rot), thickness, None, "boneyard", None, int(rng.integers(2**31)))
        )
    scene = replace(scene, bodies=bodies, laid=game.laid, hands=[])
    scene = replace(scene, camera=_frame_layout(scene, ("layout", "boneyard")))
    plays = sum(e["type"] == "play" for e in game.events)
    return GameVideo(
        scene,
        game.record,
        plays,
        width,
        height,
        still_frames,
        arm_frames,
        idle_passes,
        light_drift,
        shake,
        noise,
        seed,
        game=game,
    )


def _boneyard_poses(rng: np.random.Generator, layout: list[Pose], count: int) -> list[Pose]:
    """`count` face-down tiles in a loose heap beside the layout (layout units), clear of it."""
    if not count:
        return []
    corners = np.concatenate([p.corners() for p in layout])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    side = int(rng.integers(4))
    centre = (lo + hi) / 2
    axis, sign = side % 2, (1 if side < 2 else -1)
    centre[axis] = (hi if sign > 0 else lo)[axis] + sign * 3.5
    feet = Footprints([c.corners() for c in layout])
    poses: list[Pose] = []
    spread = 1.2
    while len(poses) < count:
        for _try in range(30):
            o = centre + rng.normal(0, spread, 2)
            pose = Pose(float(o[0]), float(o[1]), float(rng.uniform(0, 2 * math.pi)))
            if (feet.gaps(pose.corners()) >= 0.15).all():
                poses.append(pose)
                feet.add(pose.corners())
                break
        else:
            spread *= 1.3  # a crowded heap spreads out
    return poses


# -- reading frames from their truth ------------------------------------------------------------

#: how sure the oracle is of each half (the rest spread over the other six values)
ORACLE_SURE = 0.97


def _half(
    value: int, centre: list[float], corners: list[list[float]], sure: float, wrong: int | None = None
) -> HalfReading:
    """A half read as `value`, this sure; or misread: `wrong` first (0.55) and the truth second (0.4)."""
    if wrong is None:
        rest = (1.0 - sure) / 6
        probabilities = tuple(sure if v == value else rest for v in range(7))
        shown = value
    else:
        probabilities = tuple(0.55 if v == wrong else 0.4 if v == value else 0.01 for v in range(7))
        shown = wrong
    return HalfReading(
        shown, (float(centre[0]), float(centre[1])), tuple((float(x), float(y)) for x, y in corners), probabilities
    )


def reading_from_truth(
    truth: dict[str, Any],
    name: str = "",
    sure: float = ORACLE_SURE,
    rng: np.random.Generator | None = None,
    misread: float = 0.0,
    jitter: float = 0.0,
) -> Reading:
    """Every labelled face-up tile of a truth JSON, read as the truth says, and its backs in view
    (`face_down`) set aside as `ignored`.

    With `rng`, a reader's mistakes can be imitated: each half misread with share `misread` (a
    wrong value best, the true one second, as a classifier that hesitates), and each corner moved
    by `jitter` half-sides (a detector's box that does not sit exactly).
    """
    tiles = []
    for t in truth["tiles"]:
        if not t.get("labelled"):
            continue
        halves = []
        for h in t["halves"]:
            value = int(h["value"])
            corners = np.asarray(h["corners"], dtype=np.float64)
            wrong = None
            if rng is not None and misread and rng.random() < misread:
                wrong = int(rng.choice([v for v in range(7) if v != value]))
            if rng is not None and jitter:
                size = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
                corners = corners + rng.normal(0, jitter * size / 2, corners.shape)
            centre = corners.mean(axis=0)
            halves.append(_half(value, list(centre), corners.tolist(), sure, wrong))
        a, b = halves[0].value, halves[1].value
        centre = (np.asarray(halves[0].center) + np.asarray(halves[1].center)) / 2 if jitter else t["center"]
        corners = t["corners"]
        tiles.append(
            TileReading(
                Tile.of(a, b),
                (float(centre[0]), float(centre[1])),
                tuple((float(x), float(y)) for x, y in corners),
                tuple(halves),  # type: ignore[arg-type]
                sure * sure,
            )
        )
    # the backs in view, as a detector with a face-down class boxes them (the boneyard, counted)
    backs = tuple(
        Ignored("face_down", tuple((float(x), float(y)) for x, y in b["corners"]), sure * sure)
        for b in truth.get("face_down") or []
        if b.get("visible", 1.0) >= 0.5
    )
    return Reading(name, int(truth["image"]["width"]), int(truth["image"]["height"]), tuple(tiles), ignored=backs)


class OracleReader:
    """A reader that knows the answer: `read(image, name)` gives the truth of the frame's state.

    `state_of(name)` says which state a frame shows; `truths` maps state -> truth JSON (a
    `GameVideo` fills it as it renders). `calls` counts reads, so a test can see stills skipped.
    `misread` and `jitter` (see `reading_from_truth`) imitate a reader's mistakes, drawn afresh
    at each read from `seed`.
    """

    def __init__(
        self, truths: dict[int, dict[str, Any]], state_of: Any, misread: float = 0.0, jitter: float = 0.0, seed: int = 0
    ) -> None:
        self.truths = truths
        self.state_of = state_of
        self.calls = 0
        self.misread = misread
        self.jitter = jitter
        self.rng = np.random.default_rng(seed) if misread or jitter else None

    def read(self, image: np.ndarray, name: str = "") -> Reading:
        self.calls += 1
        return reading_from_truth(
            self.truths[self.state_of(name)], name, rng=self.rng, misread=self.misread, jitter=self.jitter
        )

    @classmethod
    def from_folder(cls, folder: str | Path) -> OracleReader:
        """For a folder written by `write_video`: frames by file name, or by index in a video."""
        folder = Path(folder)
        frames = json.loads((folder / "frames.json").read_text())
        by_name = {f["frame"]: f.get("view", f["state"]) for f in frames}
        truths = {int(p.stem.split("-")[1]): json.loads(p.read_text()) for p in (folder / "truth").glob("state-*.json")}

        def state_of(name: str) -> int:
            if name in by_name:
                return by_name[name]
            digits = name.rsplit("-", 1)[-1]
            return frames[int(digits)].get("view", frames[int(digits)]["state"])

        return cls(truths, state_of)


def write_video(
    video: GameVideo, out: str | Path, mp4: bool = False, fps: float = 10.0, y4m: bool = False
) -> dict[str, Any]:
    """Write the frames (JPEG), each state's truth, the frame list and the true record and answer;
    with `mp4` also video.mp4, with `y4m` also video.y4m (for Chromium's fake camera), at `fps`."""
    import cv2

    from scorer.match import score_record

    from .y4m import Y4mWriter

    out = Path(out)
    (out / "frames").mkdir(parents=True, exist_ok=True)
    (out / "truth").mkdir(exist_ok=True)
    writer = None
    y4m_writer: Y4mWriter | None = None
    listing = []
    for frame in video.frames():
        name = f"{frame.name}.jpg"
        cv2.imwrite(str(out / "frames" / name), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        entry: dict[str, Any] = {"frame": name, "state": frame.state, "arm": frame.arm}
        if frame.seat is not None:
            entry["seat"] = frame.seat  # whose arm (dealt films: the truth of who played or drew)
        if frame.event is not None:
            entry["event"] = frame.event
        if frame.view is not None:
            entry["view"] = frame.view  # its truth is truth/state-VIEW.json (a happening's table)
        listing.append(entry)
        if y4m:
            if y4m_writer is None:
                y4m_writer = Y4mWriter(out / "video.y4m", video.width, video.height, fps)
            y4m_writer.write(frame.image)
        if mp4:
            if writer is None:
                writer = cv2.VideoWriter(
                    str(out / "video.mp4"), cv2.VideoWriter.fourcc(*"mp4v"), fps, (video.width, video.height)
                )
            writer.write(frame.image)
    if writer is not None:
        writer.release()
    if y4m_writer is not None:
        y4m_writer.close()
    for state, truth in video.truths.items():
        (out / "truth" / f"state-{state:03d}.json").write_text(json.dumps(truth))
    (out / "frames.json").write_text(json.dumps(listing))
    (out / "record.json").write_text(json.dumps(video.record, indent=1))
    if video.game is not None:
        # the seating: which side of the picture each seat's arm reaches in from
        (out / "film.json").write_text(
            json.dumps(
                {
                    "variant": video.record["variant"],
                    "sides": list(video.game.sides),
                    "sides_named": "0 top, 1 right, 2 bottom, 3 left",
                    "boneyard": video.game.boneyard,
                },
                indent=1,
            )
        )
    answer = score_record(video.record)
    (out / "answer.json").write_text(json.dumps(answer, indent=1))
    return {
        "frames": len(listing),
        "plays": video.plays,
        "variant": video.record["variant"],
        "totals": answer["totals"],
    }
