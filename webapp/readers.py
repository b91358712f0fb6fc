"""The photo reader the companion uses: `vision.read.reader.Reader`, opened once per variant.

The reader needs its two ONNX models (`models/detector.onnx`, `models/halves.onnx`, or the
folder `SPINNER_MODELS` names). Where one is missing the companion still runs: a photo is kept
and answered with a plain message saying the camera cannot read yet, and the pad scores as ever.
A failed open is retried after a while, so models dropped in later are picked up without a restart.
Tests and other hosts may put their own factory in the app config as `SPINNER_READER`
(a callable taking the variant and returning an object with `read(image, name)`).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Seconds before a reader that failed to open is tried again.
RETRY_AFTER = 30.0


class Unavailable(Exception):
    """The server cannot read photos; the message says why and what to do."""


# -- the reader in a process of its own ------------------------------------------------------------
#
# A read is a few hundred milliseconds of NumPy and onnxruntime. In the server's process it would
# share the interpreter lock with hundreds of request threads: under load each of its many small
# steps waits its turn, and a read took seconds. In its own process it has its own lock, and the
# photo travels as its compressed bytes (decoded there, not in the server).

_CHILD_READERS: dict[tuple[str, str, int | None], Any] = {}


def _read_in_child(
    models: str, variant: str, threads: int | None, data: bytes, name: str, pixels: bool = False
) -> dict[str, Any]:
    import dataclasses

    from vision.read.reader import FOLLOWING_CONFIDENCE, FOLLOWING_REFINER, FOLLOWING_SLANT, Reader

    key = (models, variant, threads)
    reader = _CHILD_READERS.get(key)
    if reader is None:
        reader = _CHILD_READERS[key] = Reader(
            Path(models) / "detector.onnx",
            Path(models) / "halves.onnx",
            confidence=FOLLOWING_CONFIDENCE,
            threads=threads,
            variant=variant,
            refiner=FOLLOWING_REFINER,
            slant=FOLLOWING_SLANT,
            checker=Path(models) / "refiner.onnx",
        )
    # upright, a phone's large JPEG decoded at reduced size
    reading, image = reader.read_upright(data, name)
    # the reading itself too, for the camera's follower (its halves' every value), less the
    # reader's own layout rebuild, which it would rebuild anyway; and the pixels read where asked
    # (a live camera's frame: the follower looks where a back left the boneyard)
    return {
        "reading": reading.to_json(),
        "width": reading.width,
        "height": reading.height,
        "object": dataclasses.replace(reading, rebuilt=None),
        "pixels": image if pixels else None,
    }


def end_with_parent(parent: int) -> None:
    """In a reader process: end when the server ends, however it ends.

    A server stopped by SIGTERM or killed outright (kill -9, out of memory) cannot stop its
    children, and an orphaned reader holds a couple of hundred megabytes for ever (and with it
    the resource tracker it shares). On Linux the kernel sends this process SIGTERM when its
    parent dies; elsewhere a thread sees the parent change."""
    try:
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the server died before the line above ran
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)  # the one portable way to learn of the parent's end is to look
        os._exit(0)

    threading.Thread(target=watch, name="spinner-parent-watch", daemon=True).start()


class ChildReader:
    """`vision.read.reader.Reader` run in a pool of processes: `read_bytes(data, name)`, with the
    pixels read (`pixels`: as decoded, at reduced size for a large photo) where asked."""

    def __init__(self, pool: Pool, models: Path, variant: str, threads: int | None) -> None:
        self.pool, self.models, self.variant, self.threads = pool, str(models), variant, threads

    def read_bytes(self, data: bytes, name: str = "", pixels: bool = False) -> dict[str, Any]:
        from concurrent.futures.process import BrokenProcessPool

        args = (_read_in_child, self.models, self.variant, self.threads, data, name, pixels)
        try:
            return self.pool.get().submit(*args).result()
        except BrokenProcessPool:  # a reader process died (out of memory...): start anew, try once more
            return self.pool.renew().submit(*args).result()


class Pool:
    """The reader's processes, started on first use (spawned, not forked: the server has threads
    and open database connections that a child must not copy)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.lock = threading.Lock()
        self.executor: Any = None

    def get(self) -> Any:
        with self.lock:
            if self.executor is None:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                self.executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=end_with_parent,
                    initargs=(os.getpid(),),
                )
            return self.executor

    def renew(self) -> Any:
        with self.lock:
            old, self.executor = self.executor, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        return self.get()


def default_factory(models: Path, threads: int | None, processes: int = 1) -> Callable[[str], Any]:
    pool = Pool(processes)

    def make(variant: str) -> Any:
        detector, halves, checker = models / "detector.onnx", models / "halves.onnx", models / "refiner.onnx"
        for path, what in ((detector, "tile detector"), (halves, "half classifier"), (checker, "box refiner")):
            if not path.is_file():
                raise Unavailable(
                    f"this server cannot read photos yet: the {what} model is missing ({path}; "
                    "models/README.md says how to train it). The photo is kept: score this play on the pad"
                )
        if processes <= 0:  # in this process (a host that cannot start processes)
            from vision.read.reader import FOLLOWING_CONFIDENCE, FOLLOWING_REFINER, FOLLOWING_SLANT, Reader

            return Reader(
                detector,
                halves,
                confidence=FOLLOWING_CONFIDENCE,
                threads=threads,
                variant=variant,
                refiner=FOLLOWING_REFINER,
                slant=FOLLOWING_SLANT,
                checker=checker,
            )
        return ChildReader(pool, models, variant, threads)

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
                message = (
                    f"this server cannot read photos: the reader would not open ({error}). "
                    "The photo is kept: score this play on the pad"
                )
                self._failed[variant] = (time.monotonic(), message)
                raise Unavailable(message) from None
            self._readers[variant] = reader
            self._failed.pop(variant, None)
            return reader
