"""The second, closer look at small tiles (`vision.read.zoom`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.support.readings import read_right
from vision.read.detector import ObbDetection
from vision.read.zoom import (
    Region,
    Zoom,
    from_region,
    keep_printed,
    missed_closer,
    read_windows,
    region,
    window_starts,
)


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
    # in one window, no closer than the first pass
    assert region(spread, 960, 1280, 0.7, 896, Zoom(windows=1)) is None
    # in four, closer, and the enlarged photo is covered by four windows sharing 1.5 tiles
    where = region(spread, 960, 1280, 0.7, 896, Zoom())
    assert where is not None and where.scale > 1.2 * 0.7
    shared = 1.5 * 20 * where.scale
    width, height = round((where.x1 - where.x0) * where.scale), round((where.y1 - where.y0) * where.scale)
    assert len(window_starts(width, 896, shared)) * len(window_starts(height, 896, shared)) <= 4


def test_windows_cover_the_region_and_neighbours_share_the_overlap():
    assert window_starts(800, 896, 60) == [0]
    starts = window_starts(2000, 896, 60)
    assert starts[0] == 0 and starts[-1] == 2000 - 896
    assert all(b - a <= 896 - 60 for a, b in zip(starts, starts[1:]))
    assert len(starts) == 3


class _Bright:
    """A detector that boxes each bright rectangle of what it is shown, as a tile."""

    side = 128

    def first_scale(self, height: int, width: int) -> float:
        return 1.0

    def predict(self, image, conf=0.25, iou=0.5, max_det=300, voting=None, enlarge=None):
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        contours, _ = cv2.findContours((grey > 128).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = []
        for contour in contours:
            (x, y), (w, h), degrees = cv2.minAreaRect(contour)
            out.append(ObbDetection(0, 0.9, (x, y), (w, h), float(np.radians(degrees)), (0.9,)))
        return out


def test_a_region_read_in_windows_keeps_each_tile_once_and_whole():
    enlarged = np.zeros((100, 300, 3), np.uint8)
    centres = [(30, 30), (75, 30), (130, 30), (190, 70), (250, 70), (110, 75)]
    for x, y in centres:  # 41 x 21 px tiles; those at x 130 and 190 lie across a window's edge
        cv2.rectangle(enlarged, (x - 20, y - 10), (x + 20, y + 10), (255, 255, 255), -1)
    boxes = read_windows(_Bright(), enlarged, overlap=60, conf=0.25, iou=0.35, voting=None)
    found = sorted((round(b.center[0]), round(b.center[1])) for b in boxes)
    assert found == sorted(centres)
    assert all(max(b.size) == pytest.approx(41, abs=1) for b in boxes)  # none cut short


def test_a_closer_tile_box_on_a_picture_the_first_pass_saw_stays_a_picture():
    names = {0: "tile", 1: "face_down", 2: "edge", 3: "printed"}
    picture = ObbDetection(3, 0.8, (100, 100), (40, 20), 0.0, (0.01, 0.0, 0.0, 0.8))
    on_it = ObbDetection(0, 0.9, (101, 100), (40, 20), 0.0, (0.9, 0.0, 0.0, 0.05))
    elsewhere = ObbDetection(0, 0.9, (300, 100), (40, 20), 0.0, (0.9, 0.0, 0.0, 0.0))
    kept = keep_printed([on_it, elsewhere], [picture], names, 0.3)
    assert kept[0].cls == 3 and kept[0].confidence == 0.8
    assert kept[1] == elsewhere
    assert keep_printed([on_it], [], names, 0.3) == [on_it]
    # a picture the first pass saw smaller than it learnt is no opinion (far tiles are taken for them)
    assert keep_printed([on_it], [picture], names, 0.3, least=50) == [on_it]


def test_a_tile_the_closer_look_did_not_see_at_all_is_kept_from_the_first_pass():
    across = _box(120, 100, 80)  # the first pass's box across two tiles' ends
    alone = _box(400, 100, 40)  # a tile the closer look lost
    closer = [_box(100, 100, 40), _box(140, 100, 40)]
    assert missed_closer([across, alone], closer, 0.1) == [alone]
    assert missed_closer([alone], [], 0.1) == [alone]


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


def test_a_layout_photographed_from_further_back_is_read_with_the_second_look():
    from vision.read.reader import Reader

    photo, names = _far_away(6, shrink=0.31)  # tiles under 35 px long
    assert len(names) == 25
    twice, plain = Reader().read(photo), Reader(zoom=None).read(photo)
    assert read_right(plain, names) < 21  # the photo needs it: one pass misses or misreads a fifth
    assert read_right(twice, names) >= 24
    # the second look is timed on its own, a part of the detector's time
    assert 0 < twice.timings_ms["zoom"] < twice.timings_ms["detect"] and "zoom" not in plain.timings_ms


def test_a_close_photo_is_read_once():
    from vision.read.reader import Reader
    from vision.synth.dataset import make_sample

    image = cv2.imdecode(np.frombuffer(make_sample(6, 0).jpeg, np.uint8), cv2.IMREAD_COLOR)
    height, width = image.shape[:2]
    # the middle of the photo, twice as large: its tiles 100 px and more long
    closer = cv2.resize(image[height // 4 : 3 * height // 4, width // 4 : 3 * width // 4], (width, height))
    assert "zoom" not in Reader().read(closer).timings_ms


# The opposite look: a close-up's tiles shrunk to a size the detector knows (`Widen`).


def test_tiles_too_large_are_read_again_shrunk_to_the_target_size():
    from vision.read.zoom import Widen, widen_scales

    huge = [_box(640, 480, 1000)]  # 700 px in the detector's input
    (scale,) = widen_scales(huge, 960, 1280, 0.7, Widen())
    assert scale == pytest.approx(Widen().target / 1000)
    five = [_box(100 + 200 * i, 480, 200) for i in range(5)]
    assert widen_scales(five, 960, 1280, 0.7, Widen()) == []  # 140 px: known
    # one or a few such boxes may be halves of a close-up's tiles: tried at the target and half of it
    assert widen_scales(five[:1], 960, 1280, 0.7, Widen()) == [pytest.approx(0.5), pytest.approx(0.25)]
    assert widen_scales([_box(640, 480, 100)], 960, 1280, 0.7, Widen()) == []  # 70 px


def test_a_photo_with_nothing_found_is_read_at_each_smaller_size_of_the_ladder():
    from vision.read.zoom import Widen, widen_scales

    assert widen_scales([], 960, 1280, 0.7, Widen()) == [384 / 1280, 192 / 1280, 128 / 1280]
    # a 100 px crop read at twice its size: only the sides well under 200 px are tried
    assert widen_scales([], 100, 100, 2.0, Widen()) == [1.28]


class _Shrunk:
    """A detector that finds one tile only where it reaches it 60-160 px long."""

    side = 896

    def __init__(self, tile: float) -> None:
        self.tile, self.calls = tile, []

    def first_scale(self, height: int, width: int) -> float:
        return min(896 / max(height, width), 2.0)

    def predict(self, image, conf=0.25, iou=0.5, max_det=300, voting=None, enlarge=None):
        scale = image.shape[1] / 1280
        self.calls.append(scale)
        length = self.tile * scale
        if not 60 <= length <= 160:
            return []
        return [
            ObbDetection(
                cls=0,
                confidence=0.8,
                center=(image.shape[1] / 2, image.shape[0] / 2),
                size=(length, length / 2),
                angle=0.0,
                scores=(0.8,),
            )
        ]


def test_look_wider_finds_a_tile_filling_the_frame_and_moves_it_back_to_the_photo():
    from vision.read.zoom import Widen, look_wider

    image = np.zeros((960, 1280, 3), np.uint8)
    detector = _Shrunk(1200)  # one tile filling the frame: found only at 128 px long
    boxes, scale = look_wider(detector, image, [], Widen(), 0.25, 0.35, None)
    assert scale == pytest.approx(128 / 1280) and len(boxes) == 1
    assert boxes[0].center == pytest.approx((640, 480)) and boxes[0].size[0] == pytest.approx(1200)
    untouched, none = look_wider(_Shrunk(100), image, [_box(640, 480, 100)], Widen(), 0.25, 0.35, None)
    assert none is None and len(untouched) == 1
    # a doubtful first pass (one box on a half, 175 px in the input) is kept unless a wider pass is surer
    half = [ObbDetection(cls=0, confidence=0.5, center=(640, 480), size=(250, 240), angle=0.0, scores=(0.5,))]
    boxes, scale = look_wider(_Shrunk(500), image, half, Widen(), 0.25, 0.35, None)  # found at 0.25: 125 px
    assert scale == pytest.approx(Widen().target / 500) and boxes[0].confidence == 0.8
    kept, none = look_wider(_Shrunk(5000), image, half, Widen(), 0.25, 0.35, None)  # never found wider
    assert none is None and kept == half
