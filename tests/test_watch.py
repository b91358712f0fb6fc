"""Following a game (`spinner watch`): stillness, the follower's decisions, evidence, and whole
synthetic games followed to the true record with a reader that knows the truth (the detector's own
quality is measured elsewhere)."""
from __future__ import annotations

import json
import zipfile
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from scorer.match import Match, score_record
from scorer.tiles import Tile
from vision.evidence import EvidenceStore
from vision.follow import Follower, compare, legal_moves
from vision.motion import MotionDetector, thumbnail
from vision.reading import HalfReading, Reading, TileReading
from vision.synth.video import OracleReader, game_video, reading_from_truth
from vision.watch import Watcher
from vision.watch_eval import EndMap, follow_video, same_play

SIZE = (640, 480)


@pytest.fixture(scope="module")
def video_frames():
    """One small game, rendered once for the module: (video, frames)."""
    video = game_video(2, *SIZE, max_plays=7)
    frames = list(video.frames())
    return video, frames


# -- stillness ----------------------------------------------------------------------------------


def test_still_frames_settle_once_and_changes_are_found():
    rng = np.random.default_rng(0)
    table = rng.integers(60, 200, (120, 160, 3), dtype=np.uint8)
    table = np.kron(table, np.ones((4, 4, 1), dtype=np.uint8))  # 640x480, blocky texture
    detector = MotionDetector(settle=3, frame_size=(640, 480))
    states = [detector.update(thumbnail(table)).state for _ in range(5)]
    assert states == ["still", "still", "change", "still", "still"]  # nothing accepted yet: a change
    detector.accept(thumbnail(table))
    moved = table.copy()
    moved[200:240, 300:380] = 255  # a tile appears
    states = [detector.update(thumbnail(moved)) for _ in range(4)]
    assert [m.state for m in states] == ["moving", "still", "change", "still"]
    region = states[2].regions[0]
    assert region.contains((340, 220))


def test_light_drift_and_noise_are_not_changes():
    rng = np.random.default_rng(1)
    table = np.kron(rng.integers(60, 200, (120, 160, 3), dtype=np.uint8), np.ones((4, 4, 1), dtype=np.uint8))
    detector = MotionDetector(settle=2)
    detector.update(thumbnail(table))
    detector.accept(thumbnail(table))
    for gain in (1.05, 1.05, 1.05):
        frame = np.clip(table * gain + rng.normal(0, 2, table.shape), 0, 255).astype(np.uint8)
        motion = detector.update(thumbnail(frame))
    assert motion.state in ("still", "settled")


# -- the follower on hand-made readings -----------------------------------------------------------


def _tile(a: int, b: int, x: float, y: float, sure: float = 0.97, second: dict[int, float] | None = None) -> TileReading:
    """A tile lying west-east (half `a` west) of 60x30 pixels centred at (x, y)."""

    def probs(value: int) -> tuple[float, ...]:
        p = np.full(7, (1 - sure) / 6)
        p[value] = sure
        for v, q in (second or {}).items():
            p[v] = q
        return tuple(float(v) for v in p / p.sum())

    def half(value: int, cx: float) -> HalfReading:
        corners = ((cx - 15, y - 15), (cx + 15, y - 15), (cx + 15, y + 15), (cx - 15, y + 15))
        return HalfReading(value, (cx, y), corners, probs(value))

    corners = ((x - 30, y - 15), (x + 30, y - 15), (x + 30, y + 15), (x - 30, y + 15))
    return TileReading(Tile.of(a, b), (x, y), corners, (half(a, x - 15), half(b, x + 15)), sure * sure)


def _reading(*tiles: TileReading) -> Reading:
    return Reading("frame", 640, 480, tuple(tiles))


def _follower(variant: str = "block") -> Follower:
    return Follower(Match.new(variant, ["A", "B", "C", "D"]), leader=0)


def test_a_clear_move_is_played_on_the_end_it_lies_against():
    follower = _follower()
    follower.observe(_reading())  # the empty table
    lead = _tile(3, 5, 300, 200)
    assert follower.observe(_reading(lead)).events == [{"type": "play", "seat": 0, "tile": "3-5"}]
    # 5-1 against the 5 (east) half
    outcome = follower.observe(_reading(lead, _tile(5, 1, 360, 200)))
    assert outcome.kind == "play"
    assert outcome.events == [{"type": "play", "seat": 1, "tile": "1-5", "end": "east"}]
    # 3-6 against the 3 (west) half, lying east-west
    outcome = follower.observe(_reading(lead, _tile(5, 1, 360, 200), _tile(6, 3, 240, 200)))
    assert outcome.events == [{"type": "play", "seat": 2, "tile": "3-6", "end": "west"}]
    assert follower.match.current.layout.open_ends() == {"west": 6, "east": 1}


def test_an_unsure_tile_becomes_an_ask_with_its_candidates():
    follower = _follower()
    follower.observe(_reading())
    lead = _tile(3, 5, 300, 200)
    follower.observe(_reading(lead))
    # the far half reads 1 or 2 about equally: 5-1 and 5-2 both fit the east end
    unsure = _tile(5, 1, 360, 200, second={2: 0.9})
    outcome = follower.observe(_reading(lead, unsure))
    assert outcome.kind == "ask"
    tiles = {seq[0].event["tile"] for seq in outcome.candidates[:2]}
    assert tiles == {"1-5", "2-5"}
    assert follower.match.current.events == 1  # nothing guessed
    assert "pending" in follower.record()
    # a person confirms: the record goes on
    confirmed = follower.confirm([{"type": "play", "seat": 1, "tile": "5-2", "end": "east"}])
    assert confirmed.kind == "play" and follower.pending is None
    assert follower.match.current.layout.open_ends() == {"west": 3, "east": 2}


def test_a_tile_far_from_every_open_end_is_asked_about():
    follower = _follower()
    follower.observe(_reading())
    lead = _tile(3, 5, 300, 200)
    follower.observe(_reading(lead))
    outcome = follower.observe(_reading(lead, _tile(5, 1, 100, 420)))
    assert outcome.kind == "ask" and "no open end" in outcome.reason


def test_a_tile_taken_away_is_asked_about_and_nothing_is_a_move():
    follower = _follower()
    follower.observe(_reading())
    lead = _tile(3, 5, 300, 200)
    follower.observe(_reading(lead))
    assert follower.observe(_reading(lead)).kind == "nothing"
    assert follower.observe(_reading()).kind == "ask"


def test_two_tiles_in_a_chain_are_put_in_order_and_two_apart_are_asked_about():
    follower = _follower()
    follower.observe(_reading())
    lead = _tile(3, 5, 300, 200)
    follower.observe(_reading(lead))
    chain = (_tile(5, 1, 360, 200), _tile(1, 4, 420, 200))  # 5-1 then 1-4 on it: one order only
    outcome = follower.observe(_reading(lead, *chain))
    assert outcome.kind == "play"
    assert [e["tile"] for e in outcome.events] == ["1-5", "1-4"]
    apart = (_tile(4, 6, 480, 200), _tile(2, 3, 240, 200))  # one on each end: who played first?
    outcome = follower.observe(_reading(lead, *chain, *apart))
    assert outcome.kind == "ask" and "order" in outcome.reason


def test_a_seat_that_passed_while_the_tile_fitted_cannot_have_played_it():
    follower = _follower()
    follower.observe(_reading())
    follower.observe(_reading(_tile(3, 5, 300, 200)))
    assert follower.tap_pass().kind == "pass"  # seat 1 passes with 3 and 5 open
    follower.tap_pass()  # seat 2 too
    follower.tap_pass()  # seat 3 too: seat 0 plays next
    moves = {(m.seat, str(m.tile)) for m in legal_moves(follower.hand)}
    assert (0, "1-5") in moves
    assert all(seat == 0 for seat, _ in moves)


def test_compare_ignores_differences_outside_the_changed_regions():
    from vision.motion import Region

    before = _reading(_tile(3, 5, 300, 200))
    after = _reading(_tile(3, 5, 300, 200), _tile(5, 1, 360, 200), _tile(2, 2, 50, 50))
    diff = compare(before, after, [Region(320, 170, 400, 230)])
    assert [str(t.tile) for t in diff.new] == ["1-5"]


# -- whole games ---------------------------------------------------------------------------------


def test_a_clean_synthetic_game_is_followed_play_for_play(video_frames):
    video, frames = video_frames
    names = {f.name: f.state for f in frames}
    reader = OracleReader(video.truths, names.__getitem__)
    match = Match.new(video.record["variant"], list(video.record["players"]))
    follower = Follower(match, leader=0)
    watcher = Watcher(follower, reader)
    played = []
    for frame in frames:
        step = watcher.step(frame.image, frame.name)
        if step.outcome is not None:
            assert step.outcome.kind in ("play", "nothing"), step.outcome.reason
            played += step.outcome.events
    truth = video.record["hands"][0]["events"]
    ends = EndMap()
    assert len(played) == len(truth)
    assert all(same_play(t, g, ends) for t, g in zip(truth, played))
    assert score_record(follower.record())["totals"] == score_record(video.record)["totals"]
    # one read per move plus the empty table: stills and arms cost no model run
    assert reader.calls == video.plays + 1
    assert watcher.frames == len(frames)


def test_a_hand_over_the_table_is_not_a_move(video_frames):
    video, frames = video_frames
    names = {f.name: f.state for f in frames}
    reader = OracleReader(video.truths, names.__getitem__)
    follower = Follower(Match.new(video.record["variant"], list(video.record["players"])), leader=0)
    watcher = Watcher(follower, reader)
    first_state = [f for f in frames if f.state == 1]
    stills = [f for f in first_state if not f.arm]
    # table with the lead, then an arm sweeping over it (frames of a later move's arm), then the table again
    arm = [f for f in frames if f.arm][-2:]
    for frame in [*frames[:3], *first_state, *[replace(f, state=1) for f in arm], *stills]:
        watcher.step(frame.image, frame.name if not frame.arm else stills[0].name)
    assert follower.match.current.events == 1  # the lead only
    assert reader.calls == 2


def test_the_follower_keeps_evidence_linked_to_events(tmp_path, video_frames):
    video, frames = video_frames
    names = {f.name: f.state for f in frames}
    store = EvidenceStore(tmp_path, "m1")
    follower = Follower(Match.new(video.record["variant"], list(video.record["players"])), leader=0)
    watcher = Watcher(follower, OracleReader(video.truths, names.__getitem__), store)
    for frame in frames[:12]:
        watcher.step(frame.image, frame.name)
    events = follower.match.current.events
    assert events >= 1
    frame_id = store.frame_of(0, events - 1)
    assert frame_id is not None
    detail = json.loads((tmp_path / "m1" / "frames" / f"{frame_id}.json").read_text())
    assert detail["outcome"]["kind"] == "play" and detail["reading"]["tiles"]
    archive = store.export(tmp_path / "m1.zip", follower.record())
    with zipfile.ZipFile(archive) as z:
        names_in = set(z.namelist())
    assert {"m1/record.json", "m1/index.json", f"m1/frames/{frame_id}.jpg"} <= names_in


def test_follow_video_counts_right_asked_and_wrong(video_frames):
    video, _ = video_frames
    report = follow_video(video)
    assert (report.right + report.asked, report.wrong, report.not_reached) == (video.plays, 0, 0)
    assert report.score_equal


def test_the_oracle_reads_every_labelled_tile(video_frames):
    video, _ = video_frames
    truth = video.truths[video.plays]
    reading = reading_from_truth(truth)
    assert len(reading.tiles) == sum(1 for t in truth["tiles"] if t["labelled"])


def test_watch_command_on_a_written_game(tmp_path):
    from spinner.cli import main
    from vision.synth.video import write_video

    video = game_video(6, 320, 240, max_plays=3, still_frames=2, arm_frames=1, idle_passes=0.0)
    write_video(video, tmp_path / "game")
    runner = CliRunner()
    result = runner.invoke(main, ["watch", str(tmp_path / "game" / "frames"), "--truth", str(tmp_path / "game"),
                                  "--variant", video.record["variant"], "--players", "4",
                                  "--record", str(tmp_path / "got.json")])
    assert result.exit_code in (0, 2), result.output
    got = json.loads((tmp_path / "got.json").read_text())
    assert got["variant"] == video.record["variant"]
    # a folder of photos: every photo is a still, the arm photos included, so an arm may cause asks;
    # whatever was played must agree with the truth
    ends = EndMap()
    truth = video.record["hands"][0]["events"]
    played = got["hands"][0]["events"]
    assert all(same_play(t, g, ends) for t, g in zip(truth, played))


def test_frame_sources_name_what_is_wrong(tmp_path):
    from vision.frames import SourceError, open_source

    with pytest.raises(SourceError, match="no such file"):
        open_source(tmp_path / "absent.mp4")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="holds no photos"):
        open_source(tmp_path / "empty")
    (tmp_path / "bad.mp4").write_bytes(b"not a video")
    with pytest.raises(SourceError, match="bad.mp4"):
        list(open_source(tmp_path / "bad.mp4"))


def test_the_real_board_photos_as_a_sequence():
    from pathlib import Path

    from vision.watch_eval import board_sequence

    folder = Path(__file__).resolve().parent.parent.parent / "shared" / "real" / "ddd-board"
    if not (folder / "truth.json").exists():
        pytest.skip("the real photos are not here")
    report = board_sequence(folder)
    # every move is seen as a change, and the new tile lies where the photo changed
    assert report["change_seen"] == report["moves"] == 57
    assert report["new_tile_in_region"] == report["moves"]
    assert report["region_share_median"] < 0.1
