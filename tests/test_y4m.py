"""The .y4m files that Chromium's fake camera plays: header, frames, and a round trip."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth.y4m import Y4mWriter, read_y4m


def test_frames_come_back_as_written_within_chroma_rounding(tmp_path):
    rng = np.random.default_rng(0)
    frames = [np.full((48, 64, 3), colour, np.uint8) for colour in ((40, 120, 200), (200, 60, 10))]
    frames.append(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    with Y4mWriter(tmp_path / "v.y4m", 64, 48, fps=2.5) as writer:
        for frame in frames:
            writer.write(frame)
    data = (tmp_path / "v.y4m").read_bytes()
    assert data.startswith(b"YUV4MPEG2 W64 H48 F5:2 Ip A1:1 C420jpeg\n")
    assert data.count(b"FRAME\n") == 3 and len(data) == len(data.split(b"\n")[0]) + 1 + 3 * (6 + 64 * 48 * 3 // 2)
    fps, back = read_y4m(tmp_path / "v.y4m")
    assert fps == 2.5 and len(back) == 3
    for written, read in zip(frames[:2], back[:2], strict=True):  # flat colours survive 4:2:0 but for rounding
        assert np.abs(read.astype(int) - written.astype(int)).max() <= 3
    assert np.abs(back[2].astype(int) - frames[2].astype(int)).mean() < 60  # noise loses its chroma detail only


def test_a_frame_of_another_size_or_an_odd_size_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="even width and height"):
        Y4mWriter(tmp_path / "odd.y4m", 63, 48, fps=1)
    with Y4mWriter(tmp_path / "v.y4m", 64, 48, fps=1) as writer:
        with pytest.raises(ValueError, match=r"v.y4m: frame 0 is 32x48, the video is 64x48"):
            writer.write(np.zeros((48, 32, 3), np.uint8))


def test_the_dataset_command_writes_a_game_video_for_the_fake_camera(tmp_path):
    from click.testing import CliRunner

    from spinner.cli import main

    result = CliRunner().invoke(
        main,
        [
            "dataset",
            "video",
            "--out",
            str(tmp_path / "game"),
            "--seed",
            "4",
            "--size",
            "320x240",
            "--y4m",
            "--fps",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    fps, frames = read_y4m(tmp_path / "game" / "video.y4m")
    listed = (tmp_path / "game" / "frames.json").read_text()
    assert fps == 1.0 and len(frames) == listed.count('"frame"') and frames[0].shape == (240, 320, 3)
