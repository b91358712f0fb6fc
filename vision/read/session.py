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
    # The reader runs two sessions one after the other. By default each session's worker threads
    # spin for a while after a run, waiting for more work: the detector's run then shares the
    # cores with the classifier's spinning threads and is much slower inside the reader than
    # alone. Idle threads sleep instead.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # Each parallel step handed out in blocks that shrink as it goes (the first an eighth of it on
    # two threads), taken as threads come free, in place of a fixed share each: on a machine busy
    # with other work a thread held up no longer holds up the whole step. The same numbers.
    options.add_session_config_entry("session.dynamic_block_base", "4")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
