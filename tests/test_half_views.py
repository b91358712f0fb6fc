"""The half classifier reads a doubtful half again in its other three turns, and only then."""

from __future__ import annotations

import numpy as np
import pytest

from vision.read.crops import to_batch
from vision.read.halves import HalfClassifier, softmax
from vision.read.reader import DEFAULT_HALVES

pytestmark = pytest.mark.skipif(not DEFAULT_HALVES.is_file(), reason="the bundled half classifier is not in models/")


def crops() -> list[np.ndarray]:
    """A clear three, a half smeared to grey (doubtful) and plain noise."""
    three = np.full((32, 32, 3), 235, np.uint8)
    for x, y in ((9, 9), (16, 16), (23, 23)):
        three[y - 2 : y + 3, x - 2 : x + 3] = 20
    smeared = np.full((32, 32, 3), 150, np.uint8)
    smeared[12:20, 12:20] = 110
    noise = np.random.default_rng(3).integers(0, 256, (32, 32, 3), dtype=np.uint8)
    return [three, smeared, noise]


def plain_logits(classifier: HalfClassifier, batch: np.ndarray) -> np.ndarray:
    (logits,) = classifier.session.run(None, {classifier.input_name: np.ascontiguousarray(batch)})
    return np.asarray(logits)


def test_a_doubtful_half_is_the_average_of_its_four_turns():
    always = HalfClassifier(DEFAULT_HALVES, threads=1, doubt_below=1.01)  # every half doubtful
    batch = to_batch(crops())
    views = np.stack([plain_logits(always, np.rot90(batch, k, axes=(2, 3))) for k in range(4)])
    assert np.allclose(always.probabilities(crops()), softmax(views.mean(axis=0)), atol=1e-5)
    # the turns are not all alike (or the test would not tell a turned read from a plain one)
    assert not np.allclose(softmax(views[0]), softmax(views.mean(axis=0)), atol=1e-3)


def test_a_sure_half_is_read_once():
    never = HalfClassifier(DEFAULT_HALVES, threads=1, doubt_below=0.0)
    batch = to_batch(crops())
    assert np.allclose(never.probabilities(crops()), softmax(plain_logits(never, batch)), atol=1e-6)
    default = HalfClassifier(DEFAULT_HALVES, threads=1)
    plain = softmax(plain_logits(default, batch))
    read = default.probabilities(crops())
    sure = plain.max(axis=1) >= default.doubt_below
    assert np.allclose(read[sure], plain[sure], atol=1e-6)
    assert np.allclose(read.sum(axis=1), 1.0, atol=1e-5)
