"""The half classifier at run time: rectified half crops -> the probability of each value 0..6."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.read.crops import to_batch
from vision.read.session import open_session

VALUES = 7


class HalfClassifier:
    """An exported half classifier (ONNX, input (N, 3, 32, 32) RGB in [0, 1], output logits (N, 7))."""

    def __init__(self, path: str | Path, threads: int | None = None) -> None:
        self.path = Path(path)
        self.session = open_session(self.path, "half classifier", threads)
        self.input_name = self.session.get_inputs()[0].name

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """(N, 7) probabilities for N BGR crops (softmax of the logits)."""
        if not crops:
            return np.zeros((0, VALUES), dtype=np.float32)
        (logits,) = self.session.run(None, {self.input_name: to_batch(crops)})
        logits = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)
