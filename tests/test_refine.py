"""The box refiner (`vision.read.refine`) and its training examples (`vision.train.refiner`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.refine import (
    CROP_ACROSS,
    CROP_ALONG,
    REACH_ACROSS,
    REACH_ALONG,
    BoxFrame,
    Offsets,
    frame_crop,
    moved,
    offsets_to,
)


def _same_box(a: BoxFrame, b: BoxFrame) -> None:
    assert a.center == pytest.approx(b.center, abs=1e-6)
    assert (a.length, a.width) == pytest.approx((b.length, b.width), rel=1e-6)
    assert abs(float(a.along @ b.along)) == pytest.approx(1.0, abs=1e-9)  # the same axis, either way


def test_a_box_moved_by_its_offsets_to_the_true_box_is_the_true_box():
    rng = np.random.default_rng(3)
    for _ in range(50):
        box = BoxFrame.of(rng.uniform(0, 500, 2), rng.uniform(20, 120, 2), rng.uniform(-4, 4))
        true = BoxFrame.of(
            box.center + rng.normal(0, 5, 2),
            (box.length * rng.uniform(0.8, 1.2), box.width * rng.uniform(0.8, 1.2)),
            box.angle + rng.normal(0, 0.1) + np.pi * rng.integers(2),
        )
        _same_box(moved(box, offsets_to(box, true)), true)


def test_offsets_are_in_the_boxs_own_frame_and_a_tile_turned_end_for_end_is_no_turn():
    box = BoxFrame.of((100, 100), (80, 40), np.pi / 2)  # long axis down the photo
    true = BoxFrame.of((100, 108), (88, 40), -np.pi / 2)  # 8 px further along, 10 % longer, turned end for end
    offsets = offsets_to(box, true)
    assert offsets.along == pytest.approx(0.1)  # 8 of 80 px along the box
    assert offsets.across == pytest.approx(0.0, abs=1e-9)
    assert offsets.length == pytest.approx(np.log(1.1))
    assert offsets.turn == pytest.approx(0.0, abs=1e-9)
    # a width given first is still the width: the long side is the length
    assert BoxFrame.of((0, 0), (40, 80), 0.0).length == 80


def test_the_crop_shows_the_box_in_the_middle_long_axis_left_to_right():
    image = np.zeros((400, 400, 3), np.uint8)
    box = BoxFrame.of((200, 180), (120, 60), np.radians(30))
    corners = cv2.boxPoints(((200, 180), (120, 60), 30.0)).astype(np.int32)
    cv2.fillPoly(image, [corners], (255, 255, 255))
    crop = frame_crop(image, box)
    assert crop.shape == (CROP_ACROSS, CROP_ALONG, 3)
    columns = np.flatnonzero(crop[CROP_ACROSS // 2, :, 0] > 127)
    rows = np.flatnonzero(crop[:, CROP_ALONG // 2, 0] > 127)
    # the box spans 1 / (2 * REACH) of the crop each way, centred
    assert len(columns) == pytest.approx(CROP_ALONG / (2 * REACH_ALONG), abs=2)
    assert len(rows) == pytest.approx(CROP_ACROSS / (2 * REACH_ACROSS), abs=2)
    assert (columns[0] + columns[-1]) / 2 == pytest.approx((CROP_ALONG - 1) / 2, abs=1)
    assert (rows[0] + rows[-1]) / 2 == pytest.approx((CROP_ACROSS - 1) / 2, abs=1)


def test_a_flip_of_the_crop_is_the_mirrored_miss():
    """The training flips crops; a crop flipped both ways is the box's own crop turned end for
    end, and its offsets are those of the box turned: the moves change sign, the turn does not."""
    from vision.train.refiner import flipped

    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    image = rng.integers(0, 255, (300, 300, 3), dtype=np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), 3)
    box = BoxFrame.of((150, 140), (100, 50), 0.4)
    true = BoxFrame.of((156, 143), (110, 52), 0.45)
    turned = BoxFrame.of(box.center, (box.length, box.width), box.angle + np.pi)
    x = torch.from_numpy(frame_crop(image, box).copy()).permute(2, 0, 1)[None].float()
    y = torch.from_numpy(offsets_to(box, true).as_array())[None]
    yes = torch.ones(1, dtype=torch.bool)
    fx, fy = flipped(x, y, yes, yes)
    expected = torch.from_numpy(frame_crop(image, turned).copy()).permute(2, 0, 1)[None].float()
    assert (fx - expected).abs().mean() < 2.0  # the same pixels (resampled a half pixel apart at most)
    assert fy[0].numpy() == pytest.approx(offsets_to(turned, true).as_array(), abs=1e-5)


def test_training_examples_are_the_detectors_boxes_on_tiles_and_jittered_true_boxes():
    from vision.read.detector import ObbDetection
    from vision.synth.dataset import make_sample
    from vision.train.refiner import photo_examples, true_frame

    sample = make_sample(77, 0, 640, 480)
    photo = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
    tiles = [t for t in sample.truth["tiles"] if t["labelled"]]
    frames = [true_frame(t) for t in tiles]
    # a box 10 % long on the first tile, and one far from every tile
    first = frames[0]
    boxes = [
        ObbDetection(0, 0.9, tuple(first.center), (first.length * 1.1, first.width), first.angle, (0.9,)),
        ObbDetection(0, 0.9, (-300.0, -300.0), (60.0, 30.0), 0.0, (0.9,)),
    ]
    crops, offsets = photo_examples(photo, sample.truth, boxes, 2, np.random.default_rng(0))
    assert len(crops) == 1 + 2 * len(tiles)  # the stray box teaches nothing
    assert offsets[0][2] == pytest.approx(np.log(1 / 1.1), abs=1e-4)
    assert offsets[0][[0, 1, 3, 4]] == pytest.approx(0.0, abs=1e-4)
    assert all(c.shape == (CROP_ACROSS, CROP_ALONG, 3) for c in crops)


def _heldout_like(seed: int):
    from vision.synth.dataset import make_sample

    sample = make_sample(seed, 0)
    return cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR), sample.truth


def test_the_bundled_refiner_moves_the_detectors_boxes_toward_the_tiles():
    from vision.read.reader import BOX_VOTING, DEFAULT_REFINER, NMS_OVERLAP, Reader, set_aside
    from vision.read.refine import BoxRefiner
    from vision.train.refiner import MATCH, true_frame

    reader = Reader(refiner=None)
    refiner = BoxRefiner(DEFAULT_REFINER)
    before, after = [], []
    for seed in (1, 2, 3, 4):
        photo, truth = _heldout_like(seed)
        frames = [true_frame(t) for t in truth["tiles"] if t["labelled"]]
        centres = np.asarray([f.center for f in frames])
        boxes = reader.detector.predict(photo, conf=reader.confidence, iou=NMS_OVERLAP, voting=BOX_VOTING)
        boxes, _ = set_aside(boxes, reader.detector.names, NMS_OVERLAP)  # the face-up tiles' boxes
        for box, better in zip(boxes, refiner.refine(photo, boxes), strict=False):
            distance = np.linalg.norm(centres - np.asarray(box.center), axis=1)
            true = frames[int(distance.argmin())]
            if distance.min() > MATCH * true.length:
                continue
            for out, b in ((before, box), (after, better)):
                o = offsets_to(BoxFrame.of(b.center, b.size, b.angle), true)
                out.append(abs(o.along) + abs(o.length))
    assert len(before) > 30
    # the four-class detector's boxes sit better than the one-class one's did (under 0.7 of their
    # error was left then), so there is less to move
    assert np.mean(after) < 0.9 * np.mean(before)


def test_a_refiner_trains_on_a_tiny_set_and_exports_what_the_reader_runs(tmp_path):
    pytest.importorskip("torch")
    from vision.read.reader import Reader
    from vision.synth.dataset import make_sample, write_sample
    from vision.train.refiner import train

    folder = tmp_path / "set"
    for kind in ("images", "labels", "truth"):
        for split in ("train", "val"):
            (folder / kind / split).mkdir(parents=True)
    write_sample(folder, "train", make_sample(5, 0, 640, 480, name="000000"))
    write_sample(folder, "val", make_sample(5, 1, 640, 480, name="000001"))
    out = tmp_path / "refiner.onnx"
    figures = train([folder], out, epochs=1, jitters=2, log=lambda line: None)
    assert out.is_file() and figures["train_examples"] > 10
    photo, truth = _heldout_like(5)
    reading = Reader(refiner=out).read(photo)  # a refiner of one epoch still runs in the reader
    assert reading.tiles


class _Fixed:
    """A refiner that always gives the same offsets (the network stood in for)."""

    def __init__(self, offsets: Offsets) -> None:
        self.row = offsets.as_array()

    def offsets(self, image, frames):
        return np.tile(self.row, (len(frames), 1))


def test_refined_boxes_keep_confidence_and_a_centre_moved_out_of_the_photo_is_not_taken():
    from vision.read.detector import ObbDetection
    from vision.read.refine import BoxRefiner

    image = np.zeros((100, 200, 3), np.uint8)
    inside = ObbDetection(0, 0.8, (100.0, 50.0), (40.0, 20.0), 0.0, (0.8,))
    edge = ObbDetection(0, 0.7, (190.0, 50.0), (40.0, 20.0), 0.0, (0.7,))
    refiner = _Fixed(Offsets(0.5, 0.0, 0.0, 0.0, 0.0))  # half a box length along: 20 px right
    moved_in, kept = BoxRefiner.refine(refiner, image, [inside, edge])  # type: ignore[arg-type]
    assert moved_in.center == pytest.approx((120.0, 50.0)) and moved_in.confidence == 0.8
    assert kept.center == pytest.approx((190.0, 50.0)) and kept.size == pytest.approx((40.0, 20.0))
    twice, _ = BoxRefiner.refine(refiner, image, [inside, edge], passes=2)  # type: ignore[arg-type]
    assert twice.center == pytest.approx((140.0, 50.0))  # the second pass from where the first put it
