"""One way to open an exported model: onnxruntime on the CPU, a clear error for a missing file."""
from __future__ import annotations

from pathlib import Path
from typing import Any


def open_session(path: str | Path, what: str, threads: int | None = None) -> Any:
    import onnxruntime as ort  # here, so that commands that read no photo never pay for it

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no {what} at {path}")
    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
