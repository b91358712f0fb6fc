"""The refiner's check that a box holds a tile lying face up (`vision.read.refine`, `vision.train.lying`)."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scorer.tiles import Tile
from vision.read.calibration import SURE_AT
from vision.read.reading import HalfReading, TileReading
from vision.read.refine import CROP_ACROSS, CROP_ALONG, BoxFrame


def _tile(cx: float, value: int = 4) -> TileReading:
    half = HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))
    corners = ((cx - 50, 75.0), (cx + 50, 75.0), (cx + 50, 125.0), (cx - 50, 125.0))
    return TileReading(Tile.of(value, value), (cx, 100.0), corners, (half, half), 0.995, pixels=100)


class _Check:
    """A refiner whose check gives fixed scores (the network stood in for), and records the boxes."""

    lying_least = 0.5

    def __init__(self, scores: list[float]) -> None:
        self.scores = np.asarray(scores, np.float32)
        self.frames: list[BoxFrame] = []

    def lying(self, image, frames):
        self.frames = list(frames)
        return self.scores[: len(frames)]


def test_a_tile_whose_box_shows_no_tile_lying_face_up_is_asked_about_never_changed():
    from vision.read.reader import Reader

    reader = Reader()
    check = _Check([0.9, 0.1])
    reader.checker = check  # type: ignore[assignment]
    image = np.zeros((200, 600, 3), np.uint8)
    flat, standing, faint = _tile(100), _tile(300), replace(_tile(500), confidence=0.3)
    marked = reader.mark_not_lying([flat, standing, faint], image)
    assert [t.not_lying for t in marked] == [False, True, False]
    assert len(check.frames) == 2  # only the tiles that would be sure are looked at
    assert check.frames[1].center == pytest.approx((300, 100)) and check.frames[1].length == pytest.approx(100)
    judged = [reader.judge(t) for t in marked]
    assert [t.unsure for t in judged] == [False, True, True]
    assert judged[1].tile == Tile.of(4, 4)  # asked about, not changed
    assert judged[1].calibrated < SURE_AT <= judged[0].calibrated
    assert judged[1].to_json()["not_lying"] is True and "not_lying" not in judged[0].to_json()


def test_the_reader_checks_with_the_refiners_check_also_where_it_does_not_refine():
    from vision.read.reader import Reader

    image = np.full((480, 640, 3), 90, np.uint8)
    with_check = Reader()
    assert with_check.checker is with_check.refiner  # the refiner checks: one session, not two
    assert with_check.checker is not None and with_check.checker.lying_least is not None  # the bundled one has it
    following = Reader(refiner=None)  # the followers read unrefined, and still check
    assert following.checker is not None and following.checker.lying_least is not None
    assert following.read(image).tiles == ()
    assert Reader(checker=None).checker is None


def _plain_refiner(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import torch

    from vision.train.refiner import build_model, export

    torch.manual_seed(0)
    return export(build_model(), tmp_path / "plain.onnx")


def test_the_check_is_added_beside_the_offsets_and_leaves_them_to_the_bit(tmp_path):
    from vision.read.refine import BoxRefiner
    from vision.train.lying import attach, features

    plain = _plain_refiner(tmp_path)
    rng = np.random.default_rng(1)
    crops = rng.integers(0, 256, (6, CROP_ACROSS, CROP_ALONG, 3), dtype=np.uint8)
    x = features(plain, crops)
    assert x.shape == (6, 96 * (CROP_ACROSS // 8) * (CROP_ALONG // 8))
    weight, bias = rng.normal(0, 0.01, x.shape[1]).astype(np.float32), 0.3
    checked = attach(plain, tmp_path / "checked.onnx", weight, bias, least=0.25)
    again = attach(checked, tmp_path / "again.onnx", weight, bias + 1.0, least=0.4)  # replaces, never adds
    before, after, twice = BoxRefiner(plain), BoxRefiner(checked), BoxRefiner(again)
    assert before.lying_least is None and after.lying_least == pytest.approx(0.25) and twice.lying_least == 0.4
    assert [o.name for o in twice.session.get_outputs()] == ["offsets", "lying"]
    image = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    frames = [BoxFrame.of((200, 150), (80, 40), 0.3), BoxFrame.of((100, 100), (60, 30), -1.0)]
    assert np.array_equal(before.offsets(image, frames), after.offsets(image, frames))
    scores = after.lying(image, frames)
    assert scores.shape == (2,) and np.all((scores > 0) & (scores < 1))
    assert np.all(twice.lying(image, frames) > scores)  # the second unit, not both
    with pytest.raises(ValueError, match="spinner train lying"):
        before.lying(image, frames)


def test_the_unit_tells_apart_what_its_features_tell_apart():
    pytest.importorskip("torch")
    from vision.train.lying import fit, scores

    rng = np.random.default_rng(2)
    lying = rng.normal(0, 1, (300, 20)) + np.r_[2.0, np.zeros(19)]
    standing = rng.normal(0, 1, (60, 20)) - np.r_[2.0, np.zeros(19)]
    x = np.concatenate([lying, standing]).astype(np.float32)
    y = np.r_[np.ones(300), np.zeros(60)]
    weight, bias = fit(x, y, strength=0.01)
    s = scores(x, weight, bias)
    assert s[:300].mean() > 0.8 and s[300:].mean() < 0.2
    assert abs(weight[0]) > 5 * np.abs(weight[1:]).mean()  # the telling feature carries it


def test_another_look_keeps_the_crop_a_crop():
    from vision.train.lying import other_look

    rng = np.random.default_rng(3)
    crop = rng.integers(0, 256, (CROP_ACROSS, CROP_ALONG, 3), dtype=np.uint8)
    looks = [other_look(crop, rng) for _ in range(10)]
    assert all(c.shape == crop.shape and c.dtype == np.uint8 for c in looks)
    assert all(not np.array_equal(c, crop) for c in looks)


def test_the_bundled_reader_asks_about_a_players_own_standing_tiles_and_not_about_flat_ones():
    """Photos of a player's own hand seen from behind (`--condition own-hand`): the detector boxes
    the faces of the standing tiles as tiles, many of them sure; the refiner's check holds most of
    those, and hardly any of the flat tiles lying on the table."""
    from vision.evaluate.photos import lies_on
    from vision.read.reader import Reader
    from vision.synth.styles import make_styled_sample

    checked, unchecked = Reader(), Reader(checker=None)
    sure: dict[tuple[bool, str], int] = {}
    for index in range(6):
        sample = make_styled_sample(23, index, condition="own-hand")
        for reader, on in ((checked, True), (unchecked, False)):
            photo = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
            for tile in reader.read(photo).tiles:
                kind = lies_on(tile, sample.truth)
                if not tile.unsure and kind in ("tile", "edge"):
                    sure[on, kind] = sure.get((on, kind), 0) + 1
    assert sure.get((False, "edge"), 0) >= 5  # what there is to hold
    assert sure.get((True, "edge"), 0) <= sure[False, "edge"] // 2
    assert sure[True, "tile"] >= sure[False, "tile"] - 2


def test_the_pages_reader_needs_the_refiner_that_checks(tmp_path):
    """The page's reader checks with the models folder's refiner: without it the page says which
    model is missing, as it does for the other two, rather than read unchecked."""
    import shutil

    from vision.read.models import DEFAULT_DETECTOR, DEFAULT_HALVES
    from webapp.readers import Unavailable, default_factory

    shutil.copy(DEFAULT_DETECTOR, tmp_path / "detector.onnx")
    shutil.copy(DEFAULT_HALVES, tmp_path / "halves.onnx")
    with pytest.raises(Unavailable, match="box refiner"):
        default_factory(tmp_path, threads=1, processes=0)("partners")


def test_spinner_train_lying_adds_the_check_from_a_tiny_set(tmp_path):
    """`spinner train lying` end to end: photos of a player's own hand rendered, the reader's tiles
    on them cut and labelled, the unit fitted and added to a copy of the bundled refiner, which
    the reader then runs."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from click.testing import CliRunner

    from spinner.cli import main
    from vision.read.reader import Reader
    from vision.read.refine import BoxRefiner

    runner = CliRunner()
    data = tmp_path / "own-hand"
    result = runner.invoke(
        main,
        ["dataset", "synth", "--out", str(data), "--images", "6", "--seed", "5", "--condition", "own-hand"]
        + ["--val-fraction", "0.34", "--quiet", "--workers", "1"],
    )
    assert result.exit_code == 0, result.output
    out = tmp_path / "refiner.onnx"
    result = runner.invoke(main, ["train", "lying", "--data", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["train_tiles"] > 10 and figures["train_not_lying"] > 0 and 0 < figures["lying_least"] < 1
    assert set(figures["val_held"]) <= {"tile", "edge", "printed"}
    refiner = BoxRefiner(out)
    assert refiner.lying_least == pytest.approx(figures["lying_least"], abs=1e-6)
    reader = Reader(refiner=out, checker=out)
    assert reader.checker is reader.refiner and reader.checker is not None and reader.checker.lying_least is not None
