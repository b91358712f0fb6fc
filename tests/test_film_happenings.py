"""What else happens at a real table, in the game films (`vision.synth.happen`): the phone moved,
a tile nudged or laid and taken back, a thing set down. Off, a film is frame for frame as before."""

from __future__ import annotations

import itertools

import numpy as np

from vision.synth.happen import FIRST_VIEW, Happenings
from vision.synth.video import game_video

SIZE = (320, 240)


def _frames(video, count=40):  # type: ignore[no-untyped-def]
    return list(itertools.islice(video.frames(), count))


def test_a_film_with_every_happening_off_is_the_same_frame_for_frame():
    for seed, dealt in ((0, None), (400, "draw")):
        plain = _frames(game_video(seed, *SIZE, dealt=dealt))
        off = _frames(game_video(seed, *SIZE, dealt=dealt, happen=Happenings()))
        assert len(plain) == len(off)
        for a, b in zip(plain, off, strict=True):
            assert np.array_equal(a.image, b.image) and (a.state, a.arm, a.seat, a.event) == (
                b.state,
                b.arm,
                b.seat,
                b.event,
            )
            assert a.view is None and b.view is None


def test_a_tile_laid_and_taken_back_lies_in_its_own_truth_and_no_play_counts_it():
    video = game_video(400, *SIZE, dealt="draw", happen=Happenings(takeback=1.0), max_plays=4)
    frames = list(video.frames())
    views = [f for f in frames if f.view is not None and not f.arm]
    assert views, "a tile was laid and taken back"
    # the frames with the wrong tile show one tile more than their state's table, and say the state before the play
    for f in views:
        truth = video.truths[f.view]
        assert f.view >= FIRST_VIEW
        layout = sum(1 for t in truth["tiles"] if t.get("labelled"))
        assert layout in (f.state, f.state + 1)
    assert max(f.state for f in frames) == 4


def test_the_phone_moved_and_a_thing_set_down_change_the_picture_not_the_state():
    video = game_video(3, *SIZE, happen=Happenings(moved=1.0, objects=1.0), max_plays=3)
    frames = list(video.frames())
    kept = [f for f in frames if f.view is not None and not f.arm]
    assert kept
    # between two plays the state stays the plays laid; the pictures differ from the state's own
    for f in kept:
        assert f.state <= 3
    assert any(not np.array_equal(f.image, g.image) for f, g in itertools.pairwise(kept))


def test_a_nudged_tile_stays_nudged():
    video = game_video(400, *SIZE, dealt="draw", happen=Happenings(nudge=1.0), max_plays=5)
    list(video.frames())
    assert video._nudged, "a laid tile was nudged"
    for placement, pose in video._nudged.items():
        body = next(b for b in video.scene.bodies if b.role == "layout" and b.placement == placement)
        shift = np.hypot(pose.x - body.pose.x, pose.y - body.pose.y)  # a tile may be nudged twice
        assert shift >= 0.1 and pose.angle != body.pose.angle


def test_no_tile_is_laid_under_a_thing_set_down():
    """A thing set down may lie over tiles laid already, never where the next tile goes: nobody lays
    a tile under a cup (one lying there is taken away first)."""
    from vision.synth.happen import _covers

    for seed, dealt in ((401, "draw"), (5, None)):
        video = game_video(seed, *SIZE, dealt=dealt, happen=Happenings(objects=1.0), max_plays=8)
        state, set_down = 0, 0
        for frame in video.frames():
            set_down = max(set_down, len(video._props))
            if frame.state > state:
                state = frame.state
                laid = next(b for b in video.scene.bodies if b.role == "layout" and b.placement == state - 1)
                assert not any(_covers(prop, laid.pose) for prop, _ in video._props), (seed, state)
        assert set_down, "a thing was set down"
