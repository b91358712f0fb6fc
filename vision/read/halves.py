"""The half classifier at run time: rectified half crops -> the probability of each value 0..6."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.read.crops import to_batch
from vision.read.session import open_session

VALUES = 7
#: a half whose likeliest value is below this is read again turned a quarter, a half and three
#: quarters round, and the four views' logits averaged. The classifier learnt every half in all
#: four turns, so each view is a fair second opinion; on blurred, far, steep and pinned tiles the
#: views disagree where one view alone is wrong (docs/styles.md, "Doubtful halves"). A sure half is
#: not read again: the three more views cost three times the classifier's time.
DOUBT_BELOW = 0.9


class HalfClassifier:
    """An exported half classifier (ONNX, input (N, 3, 32, 32) RGB in [0, 1], output logits (N, 7))."""

    def __init__(self, path: str | Path, threads: int | None = None, doubt_below: float = DOUBT_BELOW) -> None:
        self.path = Path(path)
        self.session = open_session(self.path, "half classifier", threads)
        self.input_name = self.session.get_inputs()[0].name
        self.doubt_below = doubt_below

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """(N, 7) probabilities for N BGR crops (softmax of the logits; for a doubtful half, of
        the logits averaged over its four turns)."""
        if not crops:
            return np.zeros((0, VALUES), dtype=np.float32)
        batch = to_batch(crops)
        logits = self._logits(batch)
        probabilities = softmax(logits)
        doubtful = np.flatnonzero(probabilities.max(axis=1) < self.doubt_below)
        if len(doubtful):
            turned = np.concatenate([np.rot90(batch[doubtful], k, axes=(2, 3)) for k in (1, 2, 3)])
            views = np.concatenate([logits[doubtful][None], self._logits(turned).reshape(3, len(doubtful), VALUES)])
            probabilities[doubtful] = softmax(views.mean(axis=0))
        return probabilities

    def _logits(self, batch: np.ndarray) -> np.ndarray:
        (logits,) = self.session.run(None, {self.input_name: np.ascontiguousarray(batch)})
        return np.asarray(logits, dtype=np.float32)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of (N, K) logits."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)
