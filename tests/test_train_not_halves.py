"""Crops that show no half: which are cut, and how the classifier is taught to doubt them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.train.halves import NOT_A_HALF, not_half_quads


def _box(x: float, y: float, w: float = 100.0, h: float = 50.0) -> list[list[float]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def _tile(x: float, y: float, visible: tuple[float, float] = (1.0, 1.0), labelled: bool = True) -> dict:
    halves = [
        {"value": 3, "corners": _box(x, y, 50), "center": [x + 25, y + 25], "visible": visible[0]},
        {"value": 5, "corners": _box(x + 50, y, 50), "center": [x + 75, y + 25], "visible": visible[1]},
    ]
    for half in halves:
        half["labelled"] = half["visible"] >= 0.6
    return {"corners": _box(x, y), "center": [x + 50, y + 25], "labelled": labelled, "halves": halves}


def test_a_half_mostly_hidden_is_cut_and_a_half_in_view_is_not():
    truth = {"tiles": [_tile(100, 100, visible=(0.3, 1.0), labelled=False)]}
    quads = not_half_quads(truth, 640, 480, np.random.default_rng(0))
    assert len(quads) == 1
    assert np.allclose(quads[0].mean(axis=0), (125, 125))


def test_a_half_hidden_under_another_tile_is_not_cut():
    # the other tile's face shows there: a crop of it is that tile's, not "no half"
    truth = {"tiles": [_tile(100, 100, visible=(0.3, 1.0), labelled=False), _tile(110, 105)]}
    quads = not_half_quads(truth, 640, 480, np.random.default_rng(0))
    assert all(not np.allclose(q.mean(axis=0), (125, 125)) for q in quads)


def test_a_box_run_off_its_tile_ends_on_the_table_clear_of_every_half():
    truth = {"tiles": [_tile(300, 200)]}
    cut = []
    for seed in range(40):
        cut += not_half_quads(truth, 800, 600, np.random.default_rng(seed))
    assert cut, "some seeds cut the tile's box run off an end"
    for quad in cut:
        centre = quad.mean(axis=0)
        assert abs(centre[1] - 225) < 1  # along the tile
        assert centre[0] < 300 or centre[0] > 400  # beyond one of its ends, on the table


def test_no_box_is_run_off_onto_a_touching_tile():
    # two tiles end to end: beyond the first's right end lies the second's half
    truth = {"tiles": [_tile(300, 200), _tile(400, 200)]}
    for seed in range(40):
        for quad in not_half_quads(truth, 800, 600, np.random.default_rng(seed)):
            assert not 300 <= quad.mean(axis=0)[0] <= 500


def test_the_loss_teaches_an_even_belief_on_crops_with_no_half():
    torch = pytest.importorskip("torch")
    from vision.train.halves import batch_loss

    on_values = torch.nn.CrossEntropyLoss()
    values = torch.tensor([NOT_A_HALF])
    even = batch_loss(torch.zeros(1, 7), values, on_values)
    sure = batch_loss(torch.tensor([[9.0, 0, 0, 0, 0, 0, 0]]), values, on_values)
    assert math.isclose(float(even), math.log(7), rel_tol=1e-6)
    assert float(sure) > float(even)
    # a crop with a value is the cross-entropy as before, each crop weighing the same
    logits = torch.randn(3, 7)
    shown = torch.tensor([2, 5, 0])
    assert torch.allclose(batch_loss(logits, shown, on_values), on_values(logits, shown))
    mixed = batch_loss(torch.cat([logits, torch.zeros(1, 7)]), torch.cat([shown, values]), on_values)
    assert torch.allclose(mixed, (3 * on_values(logits, shown) + math.log(7)) / 4)
