"""The reader's sureness (`vision.read.calibration`): the fitted map and the unsure line."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.calibration import SURE_AT, Calibration, at_least, fit, isotonic, reliability, sure_line, wilson_low


def _judged(seed: int = 0, count: int = 4000) -> list[tuple[float, bool]]:
    """Tiles whose chance of being right rises with their raw confidence (right = raw ** 0.25)."""
    rng = np.random.default_rng(seed)
    raw = rng.uniform(0, 1, count)
    return [(float(r), bool(rng.random() < r**0.25)) for r in raw]


def test_isotonic_rates_never_fall_and_follow_the_data():
    knots = isotonic(_judged())
    xs, ys = zip(*knots)
    assert list(xs) == sorted(xs) and all(b >= a for a, b in zip(ys, ys[1:]))
    assert knots[0][0] == 0 and knots[-1][0] == 1
    calibration = Calibration(knots, 0.99)
    assert calibration.rate(0.1) == pytest.approx(0.1**0.25, abs=0.1)


def test_the_sure_line_leaves_above_it_tiles_right_at_the_asked_rate():
    judged = [(0.5 + i / 2000, True) for i in range(1000)] + [(0.3, False)] * 50
    line = sure_line(judged, 0.995)
    assert line <= 0.6  # a thousand right tiles, the wrong ones all below
    assert at_least(judged, line)["rate"] == 1.0
    assert sure_line([(0.9, True)] * 10, 0.995) == 1.0  # ten right tiles prove nothing: all unsure
    assert wilson_low(1000, 1000) > 0.995 > wilson_low(100, 100)


def test_calibrated_confidence_is_at_least_0_9_exactly_from_the_sure_line():
    fitted = fit(_judged(1, 20000))
    tiles = np.linspace(0, 1, 201)
    calibrated = [fitted.calibrated(float(t)) for t in tiles]
    assert all(b >= a - 1e-9 for a, b in zip(calibrated, calibrated[1:]))
    assert all((c >= SURE_AT) == (not fitted.unsure(float(t))) for c, t in zip(calibrated, tiles))
    again = Calibration.from_json(fitted.to_json())
    assert again.calibrated(0.95) == pytest.approx(fitted.calibrated(0.95), abs=1e-4)


def test_the_reliability_table_counts_every_tile_once():
    judged = _judged()
    rows = reliability(judged)
    assert sum(r["tiles"] for r in rows) == len(judged)
    assert all(r["rate"] is None or 0 <= r["rate"] <= 1 for r in rows)


@pytest.mark.parametrize("calibrated", [True, False])
def test_a_tile_too_small_to_read_its_halves_well_is_unsure_however_sure(calibrated):
    from scorer.tiles import Tile
    from vision.read.reader import SMALLEST_SURE, Reader
    from vision.read.reading import HalfReading, TileReading

    reader = Reader() if calibrated else Reader(calibration=None)
    half = HalfReading(3, (0.0, 0.0), ((0.0, 0.0),) * 4, (0.0,) * 3 + (1.0,) + (0.0,) * 3)

    def tile(pixels: float) -> TileReading:
        return TileReading(Tile.of(3, 3), (0.0, 0.0), ((0.0, 0.0),) * 4, (half, half), 0.995, pixels=pixels)

    large, small, unknown = (reader.judge(tile(p)) for p in (SMALLEST_SURE + 20, SMALLEST_SURE - 6, 0.0))
    assert not large.unsure and not unknown.unsure
    assert small.unsure
    if calibrated:
        assert large.calibrated >= SURE_AT > round(small.calibrated, 3)


@pytest.mark.parametrize("calibrated", [True, False])
def test_a_tile_read_as_the_double_blank_is_unsure_however_sure(calibrated):
    """A back, a tile's side seen steeply, the bare end of a tile at the frame all read as 0-0:
    a double blank is asked about (where the rules do not back it), never changed."""
    from scorer.tiles import Tile
    from vision.read.reader import Reader
    from vision.read.reading import HalfReading, TileReading

    reader = Reader() if calibrated else Reader(calibration=None)

    def tile(value: int) -> TileReading:
        half = HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))
        return TileReading(Tile.of(value, value), (0.0, 0.0), ((0.0, 0.0),) * 4, (half, half), 0.995, pixels=100)

    blank, fives = reader.judge(tile(0)), reader.judge(tile(5))
    assert blank.unsure and not fives.unsure
    assert blank.tile == Tile.of(0, 0)
    if calibrated:
        assert fives.calibrated >= SURE_AT > round(blank.calibrated, 3)


def test_a_sure_tile_whose_blank_half_is_not_its_bodys_colour_is_asked_about():
    """A finger on a half, or the table where a box runs off the tile, reads as a blank half as
    surely as the bare face does: a blank half whose colour is not the other half's is asked
    about (never changed). Only the colour counts: a shadow on the bare half keeps it sure."""
    from scorer.tiles import Tile
    from vision.read.reader import Reader
    from vision.read.reading import HalfReading, TileReading

    reader = Reader()

    def half(value: int) -> HalfReading:
        return HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))

    def crop(bgr: tuple[int, int, int], pips: bool = False) -> np.ndarray:
        c = np.full((32, 32, 3), bgr, np.uint8)
        if pips:
            c[8:12, 8:12] = c[20:24, 20:24] = c[8:12, 20:24] = c[20:24, 8:12] = 20
        return c

    ivory, shaded, skin = (200, 230, 240), (110, 128, 135), (120, 160, 220)
    tiles = [
        TileReading(Tile.of(0, 4), (0.0, 0.0), ((0.0, 0.0),) * 4, (half(0), half(4)), 0.995, pixels=100),
        TileReading(Tile.of(0, 4), (0.0, 0.0), ((0.0, 0.0),) * 4, (half(4), half(0)), 0.995, pixels=100),
        TileReading(Tile.of(0, 4), (0.0, 0.0), ((0.0, 0.0),) * 4, (half(0), half(4)), 0.995, pixels=100),
        TileReading(Tile.of(4, 4), (0.0, 0.0), ((0.0, 0.0),) * 4, (half(4), half(4)), 0.995, pixels=100),
    ]
    crops = [crop(skin), crop(ivory, True), crop(ivory, True), crop(shaded), crop(ivory), crop(ivory, True)]
    crops += [crop(skin, True), crop(ivory, True)]
    marked = reader.mark_blank_unlike(tiles, crops)
    judged = [reader.judge(t) for t in marked]
    assert [t.blank_unlike for t in marked] == [True, False, False, False]
    assert [t.unsure for t in judged] == [True, False, False, False]
    assert judged[0].tile == Tile.of(0, 4) and judged[0].to_json()["blank_unlike"] is True
    assert "blank_unlike" not in judged[1].to_json()
    assert not Reader(blank_apart=None).judge(tiles[0]).unsure  # not compared: as sure as read


def _box(cx: float, cy: float, length: float = 100.0, width: float = 50.0) -> tuple[tuple[float, float], ...]:
    """An upright box's corners, in order around it."""
    x0, x1, y0, y1 = cx - length / 2, cx + length / 2, cy - width / 2, cy + width / 2
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def test_boxes_overlapping_by_more_than_a_share_of_the_smaller_are_found():
    from vision.read.reader import overlapping

    # laid end to end, side by side and apart (each a few pixels into the next): none overlaps
    apart = [_box(0, 0), _box(103, 0), _box(0, 48), _box(400, 400)]
    assert overlapping(apart, 0.3) == set()
    # a box across two tiles laid end to end: half of each, both with it
    across = [_box(0, 0), _box(100, 0), _box(50, 0)]
    assert overlapping(across, 0.3) == {0, 1, 2}
    # a box a third of a tile off another: found at 0.3 of the smaller, not at 0.7
    assert overlapping([_box(0, 0), _box(33, 0)], 0.3) == {0, 1}
    assert overlapping([_box(0, 0), _box(33, 0)], 0.7) == set()


def test_two_sure_tiles_whose_boxes_overlap_are_both_asked_about():
    """Two boxes that would be sure tiles overlapping by half (one across two tiles, as the
    pin-no-divider photos showed): the reader cannot tell which is the tile, and asks about both,
    never changing what they read. A tile overlapping a box that is unsure anyway stays sure."""
    from scorer.tiles import Tile
    from vision.read.reader import Reader
    from vision.read.reading import HalfReading, TileReading

    reader = Reader()
    half = HalfReading(3, (0.0, 0.0), ((0.0, 0.0),) * 4, (0.0,) * 3 + (1.0,) + (0.0,) * 3)

    def tile(cx: float, confidence: float = 0.995) -> TileReading:
        return TileReading(Tile.of(3, 3), (cx, 0.0), _box(cx, 0), (half, half), confidence, pixels=100)

    sure, across, faint, apart = tile(0), tile(50), tile(150, confidence=0.3), tile(400)
    marked = reader.mark_overlapping([sure, across, faint, apart])
    judged = [reader.judge(t) for t in marked]
    assert [t.overlapped for t in marked] == [True, True, False, False]
    assert [t.unsure for t in judged] == [True, True, True, False]
    assert judged[0].to_json()["overlapped"] and "overlapped" not in judged[3].to_json()
    assert all(t.tile == Tile.of(3, 3) for t in judged)  # asked, not changed
    assert judged[0].calibrated < SURE_AT <= judged[3].calibrated
    # without the unsure one beside it, the one across is alone with `faint`: sure again
    assert not any(t.overlapped for t in reader.mark_overlapping([across, faint, apart]))
    # unmarked (`Reader(overlap=None)` never marks them): as sure as before
    assert not any(reader.judge(t).unsure for t in (sure, across))


def test_a_tile_whose_pips_are_lost_in_the_noise_is_asked_about():
    """In a dim room (the gain turned up) the pips hardly stand out of the noise: a tile read
    there is asked about however sure its reading (`vision.read.noise`); a lit tile, also with
    pips a grey image would hide (light blue on ivory), stays sure."""
    from scorer.tiles import Tile
    from vision.read.noise import CLEAR, pips_over_noise
    from vision.read.reader import Reader
    from vision.read.reading import HalfReading, TileReading

    rng = np.random.default_rng(7)

    def half(value: int) -> HalfReading:
        return HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))

    def crop(face: tuple[int, int, int], pip: tuple[int, int, int], noise: float) -> np.ndarray:
        c = np.full((32, 32, 3), face, np.float32)
        for y, x in ((10, 10), (22, 22), (10, 22), (22, 10)):
            cv2.circle(c, (x, y), 3, pip, -1)
        return np.clip(c + rng.normal(0, noise, c.shape), 0, 255).astype(np.uint8)

    lit = crop((200, 230, 240), (20, 20, 20), 2.0)
    light_blue = crop((200, 230, 240), (250, 240, 205), 2.0)  # BGR: about as light as the face
    dim = crop((60, 70, 72), (8, 8, 8), 12.0)
    grey = cv2.cvtColor(light_blue, cv2.COLOR_BGR2GRAY).astype(np.float32)
    assert np.percentile(grey, 99) - np.percentile(grey, 1) < 15  # a grey image hides its pips
    clear = pips_over_noise(np.stack([lit, light_blue, dim]))
    assert clear[0] >= CLEAR and clear[1] >= CLEAR and clear[2] < CLEAR
    tiles = [
        TileReading(Tile.of(4, 4), (0.0, 0.0), ((0.0, 0.0),) * 4, (half(4), half(4)), 0.995, pixels=100)
        for _ in range(3)
    ]
    reader = Reader()
    marked = reader.mark_faint(tiles, [lit, lit, light_blue, light_blue, dim, dim])
    assert [t.faint for t in marked] == [False, False, True]
    judged = [reader.judge(t) for t in marked]
    assert [t.unsure for t in judged] == [False, False, True]
    assert judged[2].tile == Tile.of(4, 4) and judged[2].to_json()["faint"] is True
    assert "faint" not in judged[0].to_json()
    assert not Reader(clear=None).judge(tiles[2]).unsure  # not measured: as sure as read
