"""A photo taken at a slant, read again turned to face the camera (`vision.read.slant`)."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.support.readings import read_right
from vision.read.detector import ObbDetection
from vision.read.slant import Slant, _intrinsics, _turns, facing, find_view, outlines, square_on, tile_cost

WIDTH, HEIGHT = 1280, 960


def _seen_at(tilt_deg: float, direction_deg: float, focal: float, length: float = 90.0) -> list[ObbDetection]:
    """Boxes the detector would put on twelve 2:1 tiles of one size, lying every which way on a
    table seen `tilt_deg` from straight down towards `direction_deg`: each tile laid out square
    in the view facing the table, carried into the photo, and boxed as the detector boxes (the
    least rectangle round its outline)."""
    camera = _intrinsics(focal, WIDTH, HEIGHT)
    turn = _turns(np.array([math.radians(tilt_deg)]), np.array([math.radians(direction_deg)]))[0]
    to_facing = camera @ turn @ np.linalg.inv(camera)
    rng = np.random.default_rng(3)
    boxes = []
    for x, y in [(x, y) for x in (400, 640, 880) for y in (420, 560, 700, 840)]:
        # where this photo point lies in the view facing the table: a tile is laid there, square
        (cx, cy), angle = (
            cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), to_facing)[0, 0],
            rng.uniform(0, 180),
        )
        square = cv2.boxPoints(((cx, cy), (length, length / 2), angle)).reshape(-1, 1, 2).astype(np.float64)
        outline = cv2.perspectiveTransform(square, np.linalg.inv(to_facing)).reshape(-1, 2).astype(np.float32)
        (bx, by), (w, h), a = cv2.minAreaRect(outline)
        boxes.append(ObbDetection(0, 0.9, (bx, by), (w, h), math.radians(a), (0.9,)))
    return boxes


@pytest.mark.parametrize(("tilt", "direction"), [(60.0, 270.0), (50.0, 90.0), (65.0, 200.0)])
def test_the_view_is_found_from_the_boxes_of_tiles_seen_at_a_slant(tilt, direction):
    boxes = _seen_at(tilt, direction, 1.0 * WIDTH)
    view = find_view(outlines(boxes, Slant()), WIDTH, HEIGHT, Slant())
    assert view is not None
    assert math.degrees(view.tilt) == pytest.approx(tilt, abs=5)
    assert abs((math.degrees(view.direction) - direction + 180) % 360 - 180) <= 15
    aspect, size = tile_cost(np.stack([b.corners() for b in boxes]).astype(np.float64))
    assert view.cost < (aspect + size) / 3  # as they lie in the photo, far from one 2:1 tile


def test_tiles_seen_from_straight_down_are_not_turned():
    boxes = _seen_at(0.0, 0.0, 1.0 * WIDTH)
    view, turned = square_on(boxes, WIDTH, HEIGHT, Slant())
    assert view is not None and math.degrees(view.tilt) < Slant().least_tilt
    assert turned is None


def test_too_few_sure_boxes_say_nothing_of_the_view():
    boxes = _seen_at(60.0, 270.0, 1.0 * WIDTH)
    assert find_view(outlines(boxes[:2], Slant()), WIDTH, HEIGHT, Slant()) is None
    faint = [ObbDetection(0, 0.2, b.center, b.size, b.angle, (0.2,)) for b in boxes]
    assert find_view(outlines(faint, Slant()), WIDTH, HEIGHT, Slant()) is None


def test_the_turned_photo_holds_every_box_and_its_points_come_back_to_the_photos_pixels():
    boxes = _seen_at(60.0, 270.0, 1.0 * WIDTH)
    view, turned = square_on(boxes, WIDTH, HEIGHT, Slant())
    assert turned is not None
    corners = np.concatenate([b.corners() for b in boxes]).astype(np.float64)
    inside = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), turned.matrix).reshape(-1, 2)
    assert (
        (inside >= -1).all()
        and (inside[:, 0] <= turned.size[0] + 1).all()
        and (inside[:, 1] <= turned.size[1] + 1).all()
    )
    assert turned.back(inside) == pytest.approx(corners, abs=1e-6)
    # turned square, the tiles keep about the median length they had in the photo
    edges = np.linalg.norm(np.roll(inside.reshape(-1, 4, 2), -1, axis=1) - inside.reshape(-1, 4, 2), axis=-1)
    assert float(np.median(edges.max(axis=1))) == pytest.approx(
        float(np.median([max(b.size) for b in boxes])), rel=0.25
    )


def test_tiles_too_small_to_show_their_shape_are_not_turned():
    boxes = _seen_at(60.0, 270.0, 1.0 * WIDTH, length=40.0)
    assert square_on(boxes, WIDTH, HEIGHT, Slant())[1] is not None
    # the same boxes in a photo the detector reads at a third of its size: 13 px long there
    assert square_on(boxes, WIDTH, HEIGHT, Slant(), scale=1 / 3) == (None, None)


def test_a_turn_past_the_pixels_allowed_is_not_made():
    boxes = _seen_at(60.0, 270.0, 1.0 * WIDTH)
    view = find_view(outlines(boxes, Slant()), WIDTH, HEIGHT, Slant())
    assert view is not None
    assert facing(view, outlines(boxes, Slant()), WIDTH, HEIGHT, Slant(most_pixels=0.01)) is None


def test_a_steep_photo_is_read_turned_to_face_the_camera_its_tiles_where_they_lie():
    from vision.read.reader import Reader
    from vision.synth.styles import BY_NAME, make_style_sample

    # a seed of no benchmark's: the camera 60 degrees from straight down
    sample = make_style_sample(BY_NAME["steep"], 3, seed=9100)
    image = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
    truth = [t for t in sample.truth["tiles"] if t["labelled"]]
    names = [t["value"] for t in truth]
    turned, plain = Reader().read(image), Reader(slant=None).read(image)
    assert "slant" in turned.timings_ms and "slant" not in plain.timings_ms
    assert read_right(turned, names) > read_right(plain, names)
    # every sure tile lies where a true tile of its value lies, in the photo's own pixels
    placed = 0
    for tile in (t for t in turned.tiles if not t.unsure):
        # any true tile, those less than 60 % in view (not counted as to be read) too
        same = [t for t in sample.truth["tiles"] if _key(t["value"]) == _key(str(tile.tile))]
        if not same:
            continue
        gaps = [np.linalg.norm(np.subtract(t["center"], tile.center)) for t in same]
        nearest = same[int(np.argmin(gaps))]
        assert min(gaps) < max(12.0, np.linalg.norm(np.subtract(*nearest["corners"][:2])) / 2)
        placed += 1
    assert placed >= read_right(turned, names) - 3  # less the faint ones: unsure


def _key(name: str) -> str:
    return "-".join(sorted(name.split("-")))


class _Stub:
    """A detector that finds what it is given: tiles standing on edge, seen at a slant."""

    names = {0: "tile", 1: "face_down", 2: "edge", 3: "printed"}
    side = 896

    def __init__(self, boxes: list[ObbDetection]) -> None:
        self.boxes = boxes

    def first_scale(self, height: int, width: int) -> float:
        return 0.7

    def predict(self, image, **_: object) -> list[ObbDetection]:
        return self.boxes


def test_tiles_standing_on_edge_are_no_evidence_of_the_view():
    from vision.read.reader import Reader

    slanted = _seen_at(60.0, 270.0, 1.0 * WIDTH)
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    reader = Reader(zoom=None, widen=None, refiner=None)
    reader.detector = _Stub([replace(b, cls=0) for b in slanted])  # type: ignore[assignment]
    assert "slant" in reader.read(image).timings_ms
    reader.detector = _Stub([replace(b, cls=2) for b in slanted])  # type: ignore[assignment]
    assert "slant" not in reader.read(image).timings_ms
