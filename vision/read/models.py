"""Where the reader's bundled models are: the `SPINNER_MODELS` setting, else the package's own.

`SPINNER_MODELS` names a folder holding `detector.onnx`, `halves.onnx` and `refiner.onnx`. The
bundled ones are package data of `spinner` (`spinner/models`, a link to the repository's
`models/` that a wheel carries as files), so an installed wheel finds them as a checkout does.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

#: the repository's own folder: where training writes and resumes from
REPOSITORY_MODELS = Path(__file__).resolve().parents[2] / "models"


def models_dir() -> Path:
    """The folder the reader loads its models from."""
    setting = os.environ.get("SPINNER_MODELS")
    if setting:
        return Path(setting)
    return Path(str(resources.files("spinner"))) / "models"


MODELS = models_dir()
DEFAULT_DETECTOR = MODELS / "detector.onnx"
DEFAULT_HALVES = MODELS / "halves.onnx"
DEFAULT_REFINER = MODELS / "refiner.onnx"
#: the fitted map from a tile's confidence to how often such tiles are right, for the three models
#: beside it (`vision.read.calibration`; `spinner eval --calibrate` writes it)
DEFAULT_CALIBRATION = MODELS / "calibration.json"
#: the one training checkpoint kept in the tree: `spinner train detector --resume` starts from it
CHECKPOINT = REPOSITORY_MODELS / "checkpoints" / "detector.pt"
