"""The reader's pure parts: halves of a box, the set settling conflicts, OBB decoding, bad photos."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.crops import HALF_SIZE, rectify
from vision.read.detector import Voting, canvas_shape, decode, fast_nms, letterbox, probiou, to_blob, vote
from vision.read.reader import ReadError, load_photo
from vision.read.reading import Reading, TileCandidate, settle, split_halves

CORNERS = ((0.0, 0.0), (20.0, 0.0), (20.0, 10.0), (0.0, 10.0))


def candidate(first: dict[int, float], second: dict[int, float], box: float = 0.9) -> TileCandidate:
    def probs(spec: dict[int, float]) -> np.ndarray:
        p = np.full(7, 0.001)
        for value, weight in spec.items():
            p[value] = weight
        return p / p.sum()

    return TileCandidate(
        (10.0, 5.0), CORNERS, box, ((5.0, 5.0), (15.0, 5.0)), (CORNERS, CORNERS), (probs(first), probs(second))
    )


def test_each_tile_reads_its_halves_best_values():
    (tile,) = settle([candidate({3: 0.9}, {5: 0.9})])
    assert str(tile.tile) == "3-5" and [h.value for h in tile.halves] == [3, 5] and not tile.corrected


def test_the_order_of_the_halves_is_kept():
    (tile,) = settle([candidate({6: 0.9}, {2: 0.9})])
    assert str(tile.tile) == "2-6" and [h.value for h in tile.halves] == [6, 2]


def test_a_tile_read_twice_is_settled_by_the_second_best_value():
    sure = candidate({3: 0.95}, {5: 0.95})
    unsure = candidate({3: 0.55, 4: 0.4}, {5: 0.95})
    first, second = settle([sure, unsure])
    assert str(first.tile) == "3-5" and not first.corrected
    assert str(second.tile) == "4-5" and second.corrected


def test_of_two_boxes_read_as_one_tile_the_surer_box_keeps_it():
    # a faint box at the photo's edge reads 4-5 a little surer than the tile in the middle does
    edge = candidate({4: 0.9, 5: 0.1}, {5: 0.95}, box=0.13)
    middle = candidate({4: 0.6, 5: 0.4}, {5: 0.95}, box=0.77)
    first, second = settle([edge, middle])
    assert str(second.tile) == "4-5" and not second.corrected
    assert str(first.tile) == "5-5" and first.corrected
    # boxes as sure as each other: the likelier reading wins, as before
    first, second = settle([candidate({4: 0.9, 5: 0.1}, {5: 0.95}), candidate({4: 0.6, 5: 0.4}, {5: 0.95})])
    assert [str(first.tile), str(second.tile)] == ["4-5", "5-5"]


def test_a_box_under_the_sure_line_adds_a_tile_but_never_changes_a_sure_ones_reading():
    # a faint box reads 3-5 surer than the sure box, which leans to 3-5 over 4-5
    faint = candidate({3: 0.99}, {5: 0.9, 6: 0.1}, box=0.27)
    sure = candidate({3: 0.55, 4: 0.45}, {5: 0.95}, box=0.9)
    # weighed together, the sure box gives the 3-5 up: a faint box has changed a sure reading
    first, second = settle([faint, sure])
    assert [str(first.tile), str(second.tile)] == ["3-5", "4-5"]
    # settled after the sure boxes, the faint box takes what the set has left
    first, second = settle([faint, sure], sure=0.3)
    assert str(second.tile) == "3-5" and not second.corrected
    assert str(first.tile) == "3-6" and first.corrected


def test_a_tile_read_clearly_twice_keeps_both_readings_rather_than_make_one_wrong():
    # a printed domino on a board's track (or a second box on one tile) shows 3-5 as plainly as
    # the tile does: no other reading of either is anywhere near as likely, so neither is changed
    real = candidate({3: 0.95}, {5: 0.95}, box=0.8)
    printed = candidate({3: 0.95}, {5: 0.95}, box=0.85)
    first, second = settle([real, printed])
    assert [str(first.tile), str(second.tile)] == ["3-5", "3-5"]
    assert not first.corrected and not second.corrected
    # where one of them leaves its second best in reach, the set still settles it
    first, second = settle([candidate({3: 0.95}, {5: 0.95}, box=0.8), candidate({3: 0.6, 4: 0.4}, {5: 0.95}, box=0.85)])
    assert [str(first.tile), str(second.tile)] == ["3-5", "4-5"] and second.corrected


def test_more_boxes_than_a_set_holds_keep_their_own_readings():
    readings = settle([candidate({3: 0.9}, {5: 0.9}) for _ in range(29)])
    assert all(str(r.tile) == "3-5" for r in readings)


def test_a_box_splits_into_two_square_halves_across_its_long_side():
    for corners in (np.array([[0, 0], [20, 0], [20, 10], [0, 10]]), np.array([[0, 0], [0, 10], [20, 10], [20, 0]])):
        first, second = split_halves(corners)
        for half in (first, second):
            sides = [np.linalg.norm(half[i] - half[(i + 1) % 4]) for i in range(4)]
            assert sides == pytest.approx([10, 10, 10, 10])
        assert {tuple(first.mean(axis=0)), tuple(second.mean(axis=0))} == {(5.0, 5.0), (15.0, 5.0)}


def test_rectify_cuts_the_half_out_of_the_photo():
    photo = np.zeros((100, 100, 3), np.uint8)
    photo[20:40, 20:40] = 255  # a white half on black
    crop = rectify(photo, np.array([[20, 20], [40, 20], [40, 40], [20, 40]]), margin=0.0)
    assert crop.shape == (HALF_SIZE, HALF_SIZE, 3) and crop[4:-4, 4:-4].min() > 200


def test_a_small_photo_is_padded_not_enlarged():
    canvas, scale, pad = letterbox(np.zeros((100, 100, 3), np.uint8), 640)
    assert canvas.shape == (640, 640, 3) and scale == 1.0 and pad == (270, 270)
    _, scale, _ = letterbox(np.zeros((100, 100, 3), np.uint8), 640, enlarge=float("inf"))
    assert scale == 6.4


def test_a_small_photo_is_enlarged_up_to_the_bound_and_padded_the_rest_of_the_way():
    canvas, scale, pad = letterbox(np.full((100, 100, 3), 7, np.uint8), 640, enlarge=2.0)
    assert canvas.shape == (640, 640, 3) and scale == 2.0 and pad == (220, 220)
    assert (canvas[220:420, 220:420] == 7).all() and (canvas[:220] == 114).all()
    canvas, scale, pad = letterbox(np.zeros((480, 640, 3), np.uint8), (768, 1024), enlarge=2.0)
    assert scale == 1.6 and pad == (0, 0)  # a webcam frame fills the reading size
    _, scale, _ = letterbox(np.zeros((960, 1280, 3), np.uint8), (768, 1024), enlarge=2.0)
    assert scale == 0.8  # a large photo is shrunk as ever


def test_a_photo_a_pixel_thin_keeps_a_pixel_a_side_when_shrunk():
    # 1 x 5000 shrunk to 896 long is 0.18 px wide: rounded to 0, cv2.resize refused it
    canvas, scale, pad = letterbox(np.full((5000, 1, 3), 7, np.uint8), canvas_shape(5000, 1, 896))
    assert canvas.shape == (896, 32, 3) and (canvas[:, pad[0]] == 7).all()
    canvas, _, _ = letterbox(np.full((2, 4000, 3), 7, np.uint8), (32, 896))
    assert (canvas == 7).any()


def test_a_photo_fills_a_4_by_3_input_without_padding_and_a_square_one_is_padded_sideways():
    photo = np.full((960, 1280, 3), 7, np.uint8)
    canvas, scale, pad = letterbox(photo, (480, 640))
    assert canvas.shape == (480, 640, 3) and scale == 0.5 and pad == (0, 0) and (canvas == 7).all()
    canvas, scale, pad = letterbox(np.full((960, 960, 3), 7, np.uint8), (480, 640))
    assert scale == 0.5 and pad == (80, 0) and (canvas[:, :80] == 114).all() and (canvas[:, 80:560] == 7).all()


def test_a_free_size_input_takes_each_photos_own_shape_rounded_up_to_the_stride():
    assert canvas_shape(960, 1280) == (480, 640)  # a 4:3 photo: no padding
    assert canvas_shape(1280, 960) == (640, 480)  # held upright
    assert canvas_shape(720, 1280) == (384, 640)  # a 16:9 video frame: 360 rounded up
    assert canvas_shape(1020, 1360) == (480, 640)
    assert canvas_shape(100, 100) == (640, 640)  # small: padded, never enlarged (letterbox)
    assert canvas_shape(300, 200, side=320) == (320, 224)


def test_a_larger_reading_size_shrinks_big_photos_less_and_pads_small_ones_only_to_the_training_size():
    assert canvas_shape(960, 1280, side=800) == (608, 800)  # 600 rounded up to the stride
    assert canvas_shape(1024, 1360, side=800) == (608, 800)  # the real board's photos
    assert canvas_shape(480, 640, side=800) == (480, 640)  # a webcam frame: not padded to 800
    assert canvas_shape(720, 960, side=800) == (608, 800)
    assert canvas_shape(100, 100, side=800) == (640, 640)  # a lone tile's crop: in the training size
    assert canvas_shape(960, 1280, side=700) == (544, 704)  # a side the stride does not divide: rounded up
    assert canvas_shape(650, 700, side=800) == (672, 704)  # a photo a little larger than 640: its own size, rounded up


def test_a_photo_may_be_enlarged_to_the_reading_size_and_a_lone_tile_stays_in_the_training_size():
    assert canvas_shape(480, 640, side=1024, enlarge=2.0) == (768, 1024)  # a webcam frame, 1.6 times
    assert canvas_shape(480, 640, side=1024, enlarge=1.25) == (608, 800)
    assert canvas_shape(960, 1280, side=1024, enlarge=2.0) == (768, 1024)
    assert canvas_shape(100, 100, side=1024, enlarge=2.0) == (640, 640)  # 200 x 200 of it is the crop
    assert canvas_shape(100, 100, side=1024, enlarge=0.5) == (640, 640)  # never shrunk below its size


def test_the_network_input_is_the_canvas_in_rgb_planes_scaled_to_one():
    canvas = np.random.default_rng(3).integers(0, 256, (48, 64, 3), dtype=np.uint8)
    blob = to_blob(canvas)
    assert blob.shape == (1, 3, 48, 64) and blob.dtype == np.float32
    assert np.array_equal(blob, cv2.dnn.blobFromImage(canvas, 1 / 255.0, swapRB=True))
    assert blob[0, 0, 5, 7] == np.float32(canvas[5, 7, 2]) * np.float32(1 / 255.0)  # red first


def test_decode_maps_boxes_back_to_the_photo_and_suppresses_overlaps():
    photo = np.zeros((480, 640, 3), np.uint8)
    _, scale, pad = letterbox(photo, 320)
    assert scale == 0.5 and pad == (0, 40)
    raw = np.zeros((4 + 2 + 1, 3), np.float32)
    # two overlapping boxes of class 0 (the weaker is dropped) and one of class 1
    raw[:, 0] = [100, 50, 0, 0, 0.9, 0, 0.1]
    raw[:, 1] = [101, 50, 0, 0, 0.6, 0, 0.1]
    raw[:, 2] = [200, 160, 20, 10, 0.0, 0.8, 0.0]
    raw[2:4, 0] = raw[2:4, 1] = [40, 20]
    detections = decode(raw, scale, pad, conf=0.25, iou=0.5, max_det=10)
    assert [(d.cls, round(d.confidence, 2)) for d in detections] == [(0, 0.9), (1, 0.8)]
    assert detections[0].center == (200.0, 20.0) and detections[0].size == (80.0, 40.0)
    assert detections[1].center == (400.0, 240.0)


def test_voting_moves_the_kept_box_to_the_weighted_mean_of_the_boxes_round_it():
    photo = np.zeros((480, 640, 3), np.uint8)
    _, scale, pad = letterbox(photo, 320)
    raw = np.zeros((4 + 1 + 1, 3), np.float32)
    # a strong box, a weak one 4 px beside it (under the threshold, over the floor), one far away
    raw[:, 0] = [100, 50, 40, 20, 0.9, 0.0]
    raw[:, 1] = [104, 50, 40, 20, 0.2, 0.0]
    raw[:, 2] = [200, 50, 40, 20, 0.05, 0.0]
    plain = decode(raw, scale, pad, conf=0.25, iou=0.5, max_det=10)
    voted = decode(raw, scale, pad, conf=0.25, iou=0.5, max_det=10, voting=Voting(overlap=0.5, floor=0.1))
    assert [d.center for d in plain] == [(200.0, 20.0)]
    assert len(voted) == 1 and voted[0].confidence == pytest.approx(0.9)
    assert voted[0].center[0] == pytest.approx(2 * (100 * 0.9 + 104 * 0.2) / 1.1)
    assert voted[0].center[1] == pytest.approx(20.0) and voted[0].size == pytest.approx((80.0, 40.0))
    # only boxes under the threshold: nothing is found, however many vote
    raw[4] = [0.2, 0.2, 0.05]
    assert decode(raw, scale, pad, conf=0.25, iou=0.5, max_det=10, voting=Voting()) == []


def test_voting_averages_directions_half_a_turn_apart_as_the_same_box():
    kept = np.array([[50.0, 50.0, 40.0, 20.0, np.radians(1)]])
    pool = np.array([[50.0, 50.0, 40.0, 20.0, np.radians(1)], [50.0, 50.0, 40.0, 20.0, np.radians(179)]])
    (box,) = vote(kept, pool, np.array([1.0, 1.0]), overlap=0.5)
    assert np.cos(box[4]) == pytest.approx(1.0)  # 0 (or a half turn), not a quarter turn
    # a box given short side first is the same box turned a quarter: it comes back long side first
    upright = np.array([[50.0, 50.0, 20.0, 40.0, 0.0]])
    (box,) = vote(upright, upright, np.array([1.0]), overlap=0.5)
    assert box[2:4] == pytest.approx([40.0, 20.0]) and abs(np.sin(box[4])) == pytest.approx(1.0)


def test_voting_leaves_out_boxes_that_overlap_too_little():
    kept = np.array([[50.0, 50.0, 40.0, 20.0, 0.0]])
    beside = np.array([[50.0, 50.0, 40.0, 20.0, 0.0], [70.0, 50.0, 40.0, 20.0, 0.0]])  # half a tile along
    (alone,) = vote(kept, beside, np.array([1.0, 1.0]), overlap=0.9)
    (together,) = vote(kept, beside, np.array([1.0, 1.0]), overlap=0.1)
    assert alone[0] == pytest.approx(50.0) and together[0] == pytest.approx(60.0)


def test_boxes_scored_zero_vote_alike_under_a_confidence_bar_of_zero():
    """`spinner read --confidence 0` keeps boxes scored 0: their weights summed to 0 (ZeroDivisionError)."""
    kept = np.array([[50.0, 50.0, 40.0, 20.0, 0.0]])
    pool = np.array([[50.0, 50.0, 40.0, 20.0, 0.0], [52.0, 50.0, 40.0, 20.0, 0.0]])
    (box,) = vote(kept, pool, np.array([0.0, 0.0]), overlap=0.5)
    assert box[0] == pytest.approx(51.0) and box[2:4] == pytest.approx([40.0, 20.0])


def random_boxes(rng: np.random.Generator, count: int, spread: float = 300.0) -> np.ndarray:
    """`count` boxes (cx, cy, w, h, radians) crowded enough that many overlap."""
    return np.column_stack(
        [rng.uniform(0, spread, (count, 2)), rng.uniform(10, 80, (count, 2)), rng.uniform(-np.pi, np.pi, count)]
    )


def test_voting_gives_each_kept_box_the_weighted_means_of_its_voters_one_by_one():
    """`vote` works on every kept box at once: the same as each box's voters averaged in turn."""
    rng = np.random.default_rng(7)
    pool = random_boxes(rng, 200)
    kept = np.concatenate([pool[:40], random_boxes(rng, 5, spread=3000) + [3000, 0, 0, 0, 0]])  # 5 far away
    overlaps = probiou(kept, pool)
    weights = rng.uniform(0, 1, 200).astype(np.float32)
    weights[overlaps[0] > 0.5] = 0  # the first kept box's voters all scored 0
    assert not (overlaps[-5:] > 0.5).any()  # the far ones have no voters
    voted = vote(kept, pool, weights, 0.5)
    for box, row, got in zip(kept, overlaps, voted):
        voters = row > 0.5
        if not voters.any():
            bw, bh, r = box[2:]
            assert np.allclose(got, [*box[:2], max(bw, bh), min(bw, bh), r if bw >= bh else r + np.pi / 2])
            continue
        w = weights[voters] if weights[voters].sum() > 0 else np.ones(voters.sum())
        long_first = pool[voters, 2] >= pool[voters, 3]
        length = np.where(long_first, pool[voters, 2], pool[voters, 3])
        width = np.where(long_first, pool[voters, 3], pool[voters, 2])
        direction = np.where(long_first, pool[voters, 4], pool[voters, 4] + np.pi / 2)
        means = [np.average(v, weights=w) for v in (pool[voters, 0], pool[voters, 1], length, width)]
        doubled = np.sum(w * np.sin(2 * direction)), np.sum(w * np.cos(2 * direction))
        assert np.allclose(got, [*means, 0.5 * np.arctan2(*doubled)], rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("count", [1, 63, 64, 65, 300])
def test_nms_drops_each_box_a_higher_scoring_one_overlaps(count):
    """`fast_nms` compares a block of boxes at a time: the same as the whole matrix at once."""
    rng = np.random.default_rng(count)
    boxes = random_boxes(rng, count)
    scores = rng.uniform(0, 1, count).astype(np.float32)
    scores[::3] = 0.5  # ties keep their order
    order = np.argsort(-scores, kind="stable")
    beaten = (np.triu(probiou(boxes[order]), k=1) > 0.35).any(axis=0)
    assert np.array_equal(fast_nms(boxes, scores, 0.35), order[~beaten])


def test_a_confidence_bar_of_zero_reads_every_box_but_only_the_best_go_on_to_nms(monkeypatch):
    import vision.read.detector as detector

    monkeypatch.setattr(detector, "MAX_CANDIDATES", 2)
    raw = np.zeros((4 + 1 + 1, 4), np.float32)
    raw[0] = [100, 200, 300, 400]  # four boxes apart
    raw[1] = 50
    raw[2:4] = [[40], [20]]
    raw[4] = [0.0, 0.3, 0.0, 0.2]  # two scored 0: kept by a bar of 0, and left out first
    found = decode(raw, 1.0, (0, 0), conf=0.0, iou=0.5, max_det=10, voting=Voting())
    assert [round(d.confidence, 2) for d in found] == [0.3, 0.2]
    monkeypatch.setattr(detector, "MAX_CANDIDATES", 3000)
    assert len(decode(raw, 1.0, (0, 0), conf=0.0, iou=0.5, max_det=10, voting=Voting())) == 4


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.mkdir(), "is a folder, not a photo"),
        (lambda p: p.write_bytes(b""), "is an empty file"),
        (lambda p: p.write_text("not a photo"), "is not a photo this reads"),
        (lambda p: None, "no such file"),
    ],
)
def test_bad_photos_get_a_clear_error(tmp_path, make, words):
    path = tmp_path / "photo.jpg"
    make(path)
    with pytest.raises(ReadError, match=words):
        load_photo(path)


def test_a_huge_photo_is_refused_before_it_is_decoded(tmp_path, monkeypatch):
    import cv2

    import vision.read.reader as reader

    path = tmp_path / "big.png"
    cv2.imwrite(str(path), np.zeros((2000, 3000, 3), np.uint8))
    monkeypatch.setattr(reader, "MAX_PIXELS", 1_000_000)
    with pytest.raises(ReadError, match="more than 1 megapixels"):
        load_photo(path)
    monkeypatch.setattr(reader, "MAX_PIXELS", 100_000_000)
    assert load_photo(path).shape == (2000, 3000, 3)


def test_with_two_sets_a_tile_may_be_read_twice_but_not_three_times():
    sure = [candidate({3: 0.95}, {5: 0.95}), candidate({3: 0.95}, {5: 0.95})]
    unsure = candidate({3: 0.55, 4: 0.4}, {5: 0.95})
    readings = settle([*sure, unsure], sets=2)
    assert [str(r.tile) for r in readings] == ["3-5", "3-5", "4-5"]
    assert [r.corrected for r in readings] == [False, False, True]


def _box(cls, x, confidence):
    from vision.read.detector import ObbDetection

    return ObbDetection(
        cls=cls, confidence=confidence, center=(x, 50.0), size=(40.0, 20.0), angle=0.0, scores=(confidence,)
    )


DETECTOR_CLASSES = {0: "tile", 1: "face_down", 2: "edge", 3: "printed"}


def test_boxes_of_what_is_not_a_tile_are_set_aside_and_take_a_weaker_tile_box_with_them():
    from vision.read.reader import set_aside

    back, tile_on_back, tile, standing = _box(1, 100, 0.8), _box(0, 101, 0.3), _box(0, 300, 0.9), _box(2, 500, 0.6)
    tiles, ignored = set_aside([back, tile_on_back, tile, standing], DETECTOR_CLASSES, 0.35)
    assert tiles == [tile]
    assert [i.kind for i in ignored] == ["face_down", "edge"] and len(ignored[0].corners) == 4
    assert set_aside([tile], {0: "tile"}, 0.35) == ([tile], ())  # a tiles-only detector: nothing set aside
    assert "ignored" in Reading("a", 10, 10, ()).to_json()


def test_printed_pictures_together_apart_from_the_tiles_are_set_aside():
    from vision.read.reader import PRINTED_TOGETHER, set_aside

    tile = _box(0, 100, 0.9)
    track = [_box(3, 400 + 60 * k, 0.8) for k in range(PRINTED_TOGETHER)]
    tiles, ignored = set_aside([tile, *track], DETECTOR_CLASSES, 0.35)
    assert tiles == [tile] and [i.kind for i in ignored] == ["printed"] * PRINTED_TOGETHER


def test_a_picture_alone_or_touching_a_tile_is_read_as_a_doubted_tile_never_dropped():
    from vision.read.reader import DOUBTED, PRINTED_TOGETHER, set_aside

    # alone in its photo (a lone tile seen flat looks printed to the detector)
    tiles, ignored = set_aside([_box(3, 100, 0.9)], DETECTOR_CLASSES, 0.35)
    assert ignored == () and [(t.cls, t.confidence, t.center) for t in tiles] == [(0, DOUBTED, (100.0, 50.0))]
    assert set_aside([_box(3, 100, 0.4)], DETECTOR_CLASSES, 0.35)[0][0].confidence == 0.4
    # laid end to end with a tile, beside a printed track
    tile, laid = _box(0, 100, 0.9), _box(3, 139, 0.9)
    track = [_box(3, 400 + 60 * k, 0.8) for k in range(PRINTED_TOGETHER)]
    tiles, ignored = set_aside([tile, laid, *track], DETECTOR_CLASSES, 0.35)
    assert [(t.center[0], t.cls, t.confidence) for t in tiles] == [(100.0, 0, 0.9), (139.0, 0, DOUBTED)]
    assert len(ignored) == PRINTED_TOGETHER
    # where the detector boxed it as a tile too, that box alone reads it
    also_a_tile = _box(0, 102, 0.4)
    assert set_aside([_box(3, 100, 0.9), also_a_tile], DETECTOR_CLASSES, 0.35) == ([also_a_tile], ())


def test_a_doubted_tile_is_unsure_and_still_settled_with_the_sure_ones():
    from vision.read.calibration import Calibration
    from vision.read.reader import DEFAULT_CALIBRATION, DOUBTED, SURE_BOX

    calibration = Calibration.load(DEFAULT_CALIBRATION)
    assert calibration.unsure(DOUBTED) and DOUBTED >= SURE_BOX
