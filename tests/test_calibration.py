"""The reader's sureness (`vision.read.calibration`): the fitted map and the unsure line."""

from __future__ import annotations

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
