"""Waiting for something to happen, never for time to pass: `until` polls a condition, and its
bound is only there to fail a test that would otherwise hang (generous, for a loaded machine)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: The longest a test waits for any one thing before it fails (s).
PATIENCE_S = 60.0


def until(check: Callable[[], T | None], what: str, bound: float = PATIENCE_S, every: float = 0.05) -> T:
    """`check()`'s first truthy answer; AssertionError naming `what` if none comes within `bound` seconds.

    `every` is how often to look, not how long something takes: the answer is taken as soon as it is there.
    """
    give_up = time.monotonic() + bound
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > give_up:
            raise AssertionError(f"{what}: not within {bound:.0f} s")
        time.sleep(every)
