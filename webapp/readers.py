"""The photo reader the companion uses: `vision.reader.Reader`, opened once per variant.

The reader needs its two ONNX models (`models/detector.onnx`, `models/halves.onnx`, or the
folder `SPINNER_MODELS` names). Where one is missing the companion still runs: a photo is kept
and answered with a plain message saying the camera cannot read yet, and the pad scores as ever.
A failed open is retried after a while, so models dropped in later are picked up without a restart.
Tests and other hosts may put their own factory in the app config as `SPINNER_READER`
(a callable taking the variant and returning an object with `read(image, name)`).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable

#: Seconds before a reader that failed to open is tried again.
RETRY_AFTER = 30.0


class Unavailable(Exception):
    """The server cannot read photos; the message says why and what to do."""


def default_factory(models: Path, threads: int | None) -> Callable[[str], Any]:
    def make(variant: str) -> Any:
        from vision.reader import Reader

        detector, halves = models / "detector.onnx", models / "halves.onnx"
        for path, what in ((detector, "tile detector"), (halves, "half classifier")):
            if not path.is_file():
                raise Unavailable(
                    f"this server cannot read photos yet: the {what} model is missing ({path}; "
                    "models/README.md says how to train it). The photo is kept: score this play on the pad")
        return Reader(detector, halves, threads=threads, variant=variant)

    return make


class Readers:
    """One reader per variant (the layout rules differ), opened on first use."""

    def __init__(self, factory: Callable[[str], Any]) -> None:
        self.factory = factory
        self._readers: dict[str, Any] = {}
        self._failed: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def get(self, variant: str) -> Any:
        with self._lock:
            if variant in self._readers:
                return self._readers[variant]
            failed = self._failed.get(variant)
            if failed is not None and time.monotonic() - failed[0] < RETRY_AFTER:
                raise Unavailable(failed[1])
            try:
                reader = self.factory(variant)
            except Unavailable as error:
                self._failed[variant] = (time.monotonic(), str(error))
                raise
            except Exception as error:  # a damaged model file, a runtime that will not load it
                message = (f"this server cannot read photos: the reader would not open ({error}). "
                           "The photo is kept: score this play on the pad")
                self._failed[variant] = (time.monotonic(), message)
                raise Unavailable(message) from None
            self._readers[variant] = reader
            self._failed.pop(variant, None)
            return reader
