"""The second, closer look at small tiles (`vision.read.zoom`)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.detector import ObbDetection
from vision.read.zoom import Region, Zoom, from_region, region


def _box(x: float, y: float, length: float, angle: float = 0.0) -> ObbDetection:
    return ObbDetection(cls=0, confidence=0.9, center=(x, y), size=(length, length / 2), angle=angle, scores=(0.9,))


def test_small_tiles_are_looked_at_again_where_they_lie_enlarged_to_the_target_size():
    boxes = [_box(500, 300, 25), _box(540, 300, 25), _box(580, 300, 25)]  # 17.5 px in the input
    where = region(boxes, 960, 1280, first_scale=0.7, side=896, zoom=Zoom())
    assert where is not None
    # round the boxes (x 487.5-592.5, y 293.75-306.25) with half a tile of room
    assert (where.x0, where.y0, where.x1, where.y1) == (475, 281, 605, 318)
    assert where.scale == pytest.approx(55 / 25)  # 25 px tiles enlarged to the 55 px it reads best


def test_the_enlargement_is_bounded_by_the_photos_own_pixels_and_the_detectors_side():
    tiny = [_box(600, 400, 8), _box(620, 400, 8)]
    assert region(tiny, 960, 1280, 0.7, 896, Zoom()).scale == Zoom().most
    spread = [_box(30, 30, 20), _box(1250, 930, 20)]  # tiles in both corners: the whole photo
    assert region(spread, 960, 1280, 0.7, 896, Zoom()) is None  # no closer than the first pass


def test_tiles_seen_large_enough_or_none_at_all_are_not_looked_at_again():
    assert region([], 960, 1280, 0.7, 896, Zoom()) is None
    large = [_box(500, 300, 70), _box(600, 300, 70)]  # 49 px in the detector's input
    assert region(large, 960, 1280, 0.7, 896, Zoom()) is None
    # the same tiles in a photo read at half the scale are small there
    assert region(large, 1920, 2560, 0.35, 896, Zoom()) is not None


def test_a_photo_the_first_pass_did_not_shrink_is_not_looked_at_again():
    tiny = [_box(50, 50, 12)]  # a 100 x 100 crop, read twice as large: 24 px in the input
    assert region(tiny, 100, 100, 2.0, 896, Zoom()) is None
    assert region(tiny, 100, 100, 1.0, 896, Zoom()) is None
    assert region(tiny, 1000, 1000, 0.9, 896, Zoom()) is not None


def test_boxes_found_in_the_region_go_back_to_the_photos_pixels():
    where = Region(100, 50, 300, 150, 2.0)
    (back,) = from_region([_box(40, 20, 60, 0.3)], where, 2.0, 2.0)
    assert back.center == pytest.approx((120, 60))
    assert back.size == pytest.approx((30, 15))
    assert back.angle == 0.3 and back.confidence == 0.9


def _far_away(seed: int, shrink: float = 0.4) -> tuple[np.ndarray, list[str]]:
    """A rendered table photographed from further back: the photo shrunk into the middle of a
    frame of the table's own colour, its tiles 2.5 times smaller."""
    from vision.synth.dataset import make_sample

    sample = make_sample(seed, 0)
    image = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
    height, width = image.shape[:2]
    small = cv2.resize(image, (round(width * shrink), round(height * shrink)), interpolation=cv2.INTER_AREA)
    frame = np.empty_like(image)
    frame[:] = np.median(image.reshape(-1, 3), axis=0)
    top, left = (height - small.shape[0]) // 2, (width - small.shape[1]) // 2
    frame[top : top + small.shape[0], left : left + small.shape[1]] = small
    names = [t["value"] for t in sample.truth["tiles"] if t["labelled"]]
    return frame, names


def _read_right(reading, names: list[str]) -> int:
    read = [str(t.tile) for t in reading.tiles]
    right = 0
    for name in names:
        a, b = sorted(int(v) for v in name.split("-"))
        if f"{a}-{b}" in read:
            read.remove(f"{a}-{b}")
            right += 1
    return right


def test_a_layout_photographed_from_further_back_is_read_with_the_second_look():
    from vision.read.reader import Reader

    photo, names = _far_away(6)
    assert len(names) == 25
    twice, plain = Reader().read(photo), Reader(zoom=None).read(photo)
    assert _read_right(plain, names) < 21  # the photo needs it: one pass misses or misreads a fifth
    assert _read_right(twice, names) >= 24
    # the second look is timed on its own, a part of the detector's time
    assert 0 < twice.timings_ms["zoom"] < twice.timings_ms["detect"] and "zoom" not in plain.timings_ms


def test_a_close_photo_is_read_once():
    from vision.read.reader import Reader
    from vision.synth.dataset import make_sample

    image = cv2.imdecode(np.frombuffer(make_sample(6, 0).jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert "zoom" not in Reader().read(image).timings_ms
