"""The pips' second opinion (`vision.read.pips`): counted by where they lie, whatever the colours."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.pips import PipCount, count, opinion

#: pip centres in a unit half, as `vision.synth.tiles.PIP_LAYOUTS` draws them
PLACES = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(x, y) for y in (0.25, 0.75) for x in (0.22, 0.5, 0.78)],
}


def half(value: int, body=(200, 228, 238), pip=(20, 20, 20), size: int = 48, seed: int = 0) -> np.ndarray:
    """A rectified half: its body, its pips, a painted divider along one side, a little noise."""
    image = np.empty((size, size, 3), np.uint8)
    image[:] = body
    for x, y in PLACES[value]:
        cv2.circle(image, (int(x * size), int(y * size)), int(0.09 * size), pip, -1, cv2.LINE_AA)
    image[:, size - 2 :] = pip  # the divider, at the half's edge
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("value", range(7))
def test_dark_pips_on_ivory_are_counted(value):
    assert count(half(value)) == value


@pytest.mark.parametrize("value", [1, 4, 6])
def test_white_pips_on_a_black_tile_are_counted(value):
    assert count(half(value, body=(28, 28, 30), pip=(235, 235, 235))) == value


@pytest.mark.parametrize("pip", [(40, 200, 230), (200, 140, 30), (40, 40, 200)])
def test_coloured_pips_count_by_colour_not_darkness(pip):
    # a yellow pip on cream is hardly darker than the body, only yellower
    assert count(half(5, body=(185, 222, 240), pip=pip)) == 5


def test_a_blurred_half_says_nothing_rather_than_a_wrong_value():
    blurred = cv2.GaussianBlur(half(5), (0, 0), 6)
    assert count(blurred) in (None, 5)


def test_a_half_too_small_in_the_photo_says_nothing():
    photo = cv2.resize(half(4), (10, 10), interpolation=cv2.INTER_AREA)
    quad = np.asarray([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
    assert opinion(photo, quad, PipCount()) is None
    big = half(4, size=96)
    assert opinion(big, quad * 9.6, PipCount()) == 4


def _tile(first: int, pips: tuple[int | None, int | None]):
    from scorer.tiles import Tile
    from vision.read.reading import HalfReading, TileReading

    def reading(value: int) -> HalfReading:
        return HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))

    return TileReading(
        Tile.of(first, 2), (0.0, 0.0), ((0.0, 0.0),) * 4, (reading(first), reading(2)), 0.995, pixels=120, pips=pips
    )


def test_a_sure_tile_whose_pips_say_another_value_is_asked_not_changed():
    from vision.read.reader import Reader

    reader = Reader()
    # four clear pips that the classifier called five
    four = count(half(4))
    assert four == 4
    doubted = reader.judge(_tile(5, (four, 2)))
    assert doubted.unsure and doubted.tile == _tile(5, (None, None)).tile
    assert not reader.judge(_tile(5, (5, 2))).unsure  # they agree
    assert not reader.judge(_tile(5, (None, None))).unsure  # they cannot tell
