"""Dealt game films (passes, draws, each seat's arm from its own side) and the seat evidence read
from them (`vision.follow.seats`)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorer import RecordError, score_record
from scorer.tiles import Tile
from vision.follow.motion import thumbnail
from vision.follow.seats import LEAST_SURE, ArmWatch, Seating, arrangements, laying_arm, seat_of_play, sighting
from vision.synth.game import FILM_VARIANTS, dealt_game, seating_sides
from vision.synth.video import game_video, write_video

BOUNDS = (-12.0, -9.0, 12.0, 9.0)


def test_dealt_games_are_legal_with_the_passes_and_draws_of_their_deal():
    kinds: dict[str, dict[str, int]] = {}
    for variant in FILM_VARIANTS:
        for seed in range(4):
            game = dealt_game(np.random.default_rng(seed), variant, 4, BOUNDS)
            score_record(game.record)  # full information: must-play and every draw checked by the scorer
            tally = kinds.setdefault(variant, {"pass": 0, "draw": 0, "play": 0})
            for event in game.events:
                tally[event["type"]] += 1
            placements = game.laid.layout.placements
            plays = [e for e in game.events if e["type"] == "play"]
            assert len(plays) == len(placements) == len(game.laid.poses)
            for event, k in zip(game.events, game.placement_of, strict=True):
                assert (k is None) == (event["type"] != "play")
                if k is not None:
                    assert placements[k].tile is Tile.parse(event["tile"])
            assert game.boneyard == (8 if variant in ("all-fives", "draw") else 0)
    # as a real deal makes them: passes in the games without a boneyard, draws in those with one
    assert kinds["partners"]["pass"] + kinds["partners-block"]["pass"] + kinds["block"]["pass"] > 0
    assert kinds["all-fives"]["draw"] > 0 and kinds["draw"]["draw"] > 0
    assert kinds["block"]["draw"] == kinds["partners"]["draw"] == 0


def test_seats_sit_around_the_picture_in_play_order():
    assert seating_sides(4, 0) == (0, 3, 2, 1)  # top, left, bottom, right: counter-clockwise seen from above
    assert seating_sides(2, 1) == (1, 3)  # face to face
    assert seating_sides(3, 2) == (2, 1, 0)
    assert all(len(set(sides)) == 4 for sides in arrangements(4)) and len(arrangements(4)) == 8
    assert seating_sides(4, 3) in arrangements(4) and seating_sides(2, 0) in arrangements(2)


def test_the_older_films_stay_as_they_were():
    video = game_video(6, 160, 120, max_plays=3, still_frames=1, arm_frames=1, idle_passes=0.0)
    assert video.game is None and video.sides is None
    events = video.record["hands"][0]["events"]
    assert [e["seat"] for e in events] == [0, 1, 2]  # seats in turn, no pass
    assert all(f.seat is None and f.event is None for f in video.frames())


@pytest.fixture(scope="module")
def film(tmp_path_factory):
    """A small dealt all-fives film for two (the boneyard in view, draws), written to a folder."""
    video = game_video(11, 320, 240, players=2, dealt="all-fives", still_frames=2, arm_frames=2, max_plays=9)
    out = tmp_path_factory.mktemp("dealt")
    frames = []
    for frame in video.frames():
        frames.append((frame.seat, frame.event, frame.arm, thumbnail(frame.image)))
    write_video(video, out)
    return video, frames, out


def test_a_dealt_film_records_its_seating_and_whose_arm_each_frame_shows(film):
    video, frames, out = film
    events = video.record["hands"][0]["events"]
    shown = json.loads((out / "film.json").read_text())
    assert shown["sides"] == list(video.sides) and shown["variant"] == "all-fives"
    listing = json.loads((out / "frames.json").read_text())
    arms = [f for f in listing if f["arm"] and "seat" in f]
    assert arms and all(f["seat"] == events[f["event"]]["seat"] for f in arms)
    # every play and draw is shown by its own seat's arm; a pass shows nothing
    shown_events = {f["event"] for f in arms}
    assert shown_events == {k for k, e in enumerate(events) if e["type"] != "pass"}
    assert any(e["type"] == "draw" for e in events)  # seed 11: someone drew (the test would see no boneyard otherwise)
    assert json.loads((out / "record.json").read_text()) == video.record


def test_the_boneyard_lies_in_view_and_loses_a_tile_at_each_draw(film):
    video, _, _ = film
    lying = [b for b in video.scene.bodies if b.role == "boneyard"]
    assert len(lying) == video.game.boneyard == 10  # two players: 9 each, 10 left
    drawn = sum(e["type"] == "draw" for e in video.record["hands"][0]["events"])
    last = video._dealt_state(video.plays, drawn, lying, video.scene.camera)
    assert sum(b.role == "boneyard" for b in last.bodies) == 10 - drawn
    # in view: the camera frames the boneyard with the layout
    cam = video.scene.camera
    for body in lying:
        x, y = cam.project(np.array([[body.pose.x, body.pose.y, 0.0]]))[0]
        assert 0 <= x < video.width and 0 <= y < video.height


def test_the_arm_that_laid_each_tile_names_its_seats_side(film):
    video, frames, _ = film
    watch = ArmWatch()
    pending = None
    named = right = 0
    for seat, _event, arm, thumb in frames:
        seen = watch.update(thumb)
        if arm:
            pending = seat
        if seen is not None and pending is not None:
            named += seen.sure >= LEAST_SURE
            right += seen.sure >= LEAST_SURE and seen.side == video.sides[pending]
            pending = None
    shown = sum(e["type"] != "pass" for e in video.record["hands"][0]["events"])
    assert named == right  # never a sure side that is not the seat's
    assert right >= 0.8 * shown


# -- seat evidence from masks -------------------------------------------------------------------


def _arm_from_left(h: int = 60, w: int = 80) -> np.ndarray:
    mask = np.zeros((h, w), bool)
    mask[25:35, :50] = True
    return mask


def test_a_sighting_names_the_side_the_changed_pixels_cross():
    seen = sighting([_arm_from_left()])
    assert seen is not None and seen.side_name == "left" and seen.sure == 1.0
    assert seen.reach is not None and seen.reach[0] == pytest.approx(49.5 / 80)
    assert sighting([np.zeros((60, 80), bool)]) is None  # nothing crossed a border
    inner = np.zeros((60, 80), bool)
    inner[20:30, 20:30] = True
    assert sighting([inner]) is None


def test_an_arm_watch_sees_what_came_and_went_not_a_tile_laid_or_the_light():
    table = np.ones((60, 80), np.float32)
    tile = table.copy()
    tile[28:32, 40:48] = 1.6  # the tile laid: in the still frames after the arm
    arm = tile.copy()
    arm[25:35, :46] = 0.5
    watch = ArmWatch(settle=3)
    # the hand rests a moment (arm * 1.02 is still), and the light rises meanwhile
    for frame in (table, table, arm, arm * 1.02, tile * 1.2, tile * 1.2, tile * 1.2):
        watch.update(frame)
    seen = watch.take()
    assert len(seen) == 1 and seen[0].side_name == "left" and seen[0].sure == 1.0
    for _ in range(3):
        watch.update(tile * 1.5)  # only the light: a still picture scaled is no arm
    assert watch.take() == []


def test_the_laying_arm_is_the_one_that_reached_the_new_tile():
    draw, play = sighting([_arm_from_left()]), sighting([np.flipud(np.rot90(_arm_from_left(80, 60)))])
    assert draw is not None and play is not None and play.side != draw.side
    assert laying_arm([draw, play], point=play.reach) is play
    assert laying_arm([play, draw], point=play.reach) is play
    assert laying_arm([draw, play]) is play  # no point: the last
    assert laying_arm([]) is None


def test_a_seating_is_learnt_only_where_the_sightings_tell_it():
    truth = seating_sides(4, 1)
    seen: list = [(0, truth[0]), (1, truth[1])]
    assert Seating.learn(4, seen) is None  # two plays: too few
    seen.append((2, truth[2]))
    learnt = Seating.learn(4, seen)
    assert learnt is not None and learnt.sides == truth and (learnt.agree, learnt.against) == (3, 0)
    assert Seating.learn(4, seen + [(3, (truth[3] + 1) % 4)] * 3) is None  # as many against
    assert Seating.learn(2, [(0, 2)], least=1).sides == (2, 0)
    with pytest.raises(ValueError):
        Seating.given([0, 0, 1, 2])


def test_a_seating_is_learnt_from_plays_whose_seat_is_unsure_where_no_pass_is_likelier():
    truth = seating_sides(4, 2)
    # the lead (sure), then two plays that any seat may have made after passes, each from the turn seat's side
    seen = [((0,), truth[0]), ((1, 2, 3, 0), truth[1]), ((2, 3, 0, 1), truth[2])]
    learnt = Seating.learn(4, seen)
    assert learnt is not None and learnt.sides == truth
    # the same arms, where seat 2 may not have passed to seat 3: either way round explains them as well
    assert Seating.learn(4, [((1, 3), truth[1]), ((1, 3), truth[3]), ((1, 3), truth[1])]) is None


def test_a_seat_comes_from_the_arm_only_where_the_rules_allow_it():
    seating = Seating.given(seating_sides(4, 0))  # seat 0 top, 1 left, 2 bottom, 3 right
    left = sighting([_arm_from_left()])
    assert left is not None
    evidence = seat_of_play(seating, left, candidates=(1, 2))
    assert evidence is not None and evidence.seat == 1 and evidence.sure == 1.0
    assert seat_of_play(seating, left, candidates=(2, 3)) is None  # seat 1 cannot have played: ask
    assert seat_of_play(None, left, candidates=(1,)) is None
    assert seat_of_play(seating, None, candidates=(1,)) is None
    unsure = sighting([_arm_from_left(), np.flipud(np.rot90(_arm_from_left(80, 60)))])
    assert unsure is not None and unsure.sure < LEAST_SURE
    assert seat_of_play(seating, unsure, candidates=(0, 1, 2, 3)) is None


def test_watch_eval_counts_wrong_seats_wrong_tiles_and_missed_plays_apart():
    from vision.evaluate.games import follow_video

    video = game_video(1, 240, 180, dealt="partners-block", max_plays=8, still_frames=3, arm_frames=1, idle_passes=0.0)
    events = video.record["hands"][0]["events"]
    assert [e["type"] for e in events].count("pass") == 3  # passes no photo shows (seat 1's at event 1)
    report = follow_video(video)
    assert report.passes == 3 and report.plays == 8
    assert report.right + report.asked + report.wrong_seat + report.wrong_tile + report.not_reached == report.plays
    assert report.wrong == report.wrong_seat + report.wrong_tile
    assert len(report.mistakes) >= report.wrong
    # the score is the truth's exactly when every play went to its seat
    assert report.score_equal == (report.wrong == 0 and report.not_reached == 0)


# -- the record written for any reader -----------------------------------------------------------


def _without_unseen_draws(record: dict) -> dict:
    """The record as a reader of GAME_RECORD.md reads it: `unseen_draws` is not a field it knows."""
    record = json.loads(json.dumps(record))
    record.pop("pending", None)
    for hand in record["hands"]:
        hand.pop("unseen_draws", None)
    return record


def _scores(answer: dict) -> tuple:
    """The answer but for the events' indexes and what the scorer inferred (written out instead)."""
    hands = [
        {
            **{k: v for k, v in h.items() if k not in ("plays", "inferred_draws", "inferred_passes", "maybe_out")},
            "plays": [{k: v for k, v in p.items() if k != "event"} for p in h["plays"]],
        }
        for h in answer["hands"]
    ]
    return hands, answer["totals"], answer["winner"]


@pytest.mark.parametrize(
    "variant, players, seed, unseen",
    [
        ("draw", 4, 1, True),  # a seat passes while tiles may be left: it drew the rest unseen
        ("draw", 4, 11, True),
        ("all-fives", 2, 2, False),  # every draw seen leaving the boneyard
    ],
)
def test_a_drawing_film_followed_to_the_end_is_written_so_any_reader_scores_it_alike(variant, players, seed, unseen):
    """The camera counts no draw it did not see (`unseen_draws`); `spinner watch` writes the record
    with those draws written out (`scorer.explicit`), which without the field scores as the
    follower's own record does (the page's camera: tests/test_page_camera_draws.py)."""
    from vision.commands.watch import _shared
    from vision.evaluate.games import follow_video

    video = game_video(seed, 320, 240, players=players, dealt=variant)
    report = follow_video(video)
    assert report.score_equal and report.record is not None and "pending" not in report.record
    followed = report.record
    assert followed["hands"][0]["unseen_draws"] is True
    written, shared = _shared(followed)  # what `spinner watch` writes (--record, --evidence, --export)
    assert shared.kept_open == [] and "unseen_draws" not in written["hands"][0]
    assert _scores(score_record(_without_unseen_draws(written))) == _scores(score_record(followed))
    assert bool(shared.added.get(0)) is unseen
    if unseen:  # the follower's record as it is: such a reader refuses it
        with pytest.raises(RecordError, match="boneyard"):
            score_record(_without_unseen_draws(followed))


def test_an_arm_along_the_next_border_with_its_shadow_names_no_seat():
    # film 513 (block), play 18: seat 3 (the right side) lays 1-6 after seat 2 passed, reaching in
    # near the top right corner along the top border, its shadow over the top: most of the border
    # evidence is the top's, seat 0's side
    video = game_video(513, 320, 240, dealt="any")
    assert video.sides == (0, 3, 2, 1)
    watch = ArmWatch()
    seen = None
    for frame in video.frames():
        if frame.event is not None and frame.event > 18:
            break
        sighted = watch.update(thumbnail(frame.image))
        if frame.event == 18 and sighted is not None:
            seen = sighted
    assert seen is not None and seen.touches[0] > seen.touches[1] > 0  # the top's evidence, then the right's
    evidence = seat_of_play(Seating.given(video.sides), seen, candidates=(2, 3, 0, 1))
    assert evidence is None or evidence.seat == 3  # asked (or counted), never seat 0's
