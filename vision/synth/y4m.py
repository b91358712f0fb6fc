"""YUV4MPEG2 (`.y4m`) files: the one video format Chromium's fake camera plays
(`--use-fake-device-for-media-stream --use-file-for-fake-video-capture=FILE.y4m`), so a synthetic
game can be shown to the companion page as if a phone filmed it. Uncompressed 4:2:0, about 1.8 MB
a frame at 1280x960; Chromium plays it at the header's frame rate and starts again at the end.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np


class Y4mWriter:
    """Write BGR frames of one size to a .y4m file (a context manager)."""

    def __init__(self, path: str | Path, width: int, height: int, fps: float) -> None:
        if width % 2 or height % 2:
            raise ValueError(f"{path}: 4:2:0 video needs an even width and height, not {width}x{height}")
        rate = Fraction(fps).limit_denominator(1001)
        self.path, self.size = Path(path), (width, height)
        self.file: BinaryIO = self.path.open("wb")
        self.file.write(
            f"YUV4MPEG2 W{width} H{height} F{rate.numerator}:{rate.denominator} Ip A1:1 C420jpeg\n".encode()
        )
        self.frames = 0

    def write(self, image: np.ndarray) -> None:
        height, width = image.shape[:2]
        if (width, height) != self.size:
            raise ValueError(
                f"{self.path}: frame {self.frames} is {width}x{height}, the video is {self.size[0]}x{self.size[1]}"
            )
        self.file.write(b"FRAME\n")
        self.file.write(cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes())  # Y, then U, then V planes
        self.frames += 1

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> Y4mWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_y4m(path: str | Path) -> tuple[float, list[np.ndarray]]:
    """The frame rate and the frames (BGR) of a .y4m file written as above."""
    data = Path(path).read_bytes()
    header, _, body = data.partition(b"\n")
    fields = {f[:1]: f[1:] for f in header.split()[1:]}
    width, height = int(fields[b"W"]), int(fields[b"H"])
    num, den = (int(v) for v in fields[b"F"].split(b":"))
    size = width * height * 3 // 2
    frames, at = [], 0
    while at < len(body):
        if not body.startswith(b"FRAME", at):
            raise ValueError(f"{path}: no FRAME marker at byte {len(header) + 1 + at}")
        at = body.index(b"\n", at) + 1
        plane = np.frombuffer(body, np.uint8, size, at).reshape(height * 3 // 2, width)
        frames.append(cv2.cvtColor(plane, cv2.COLOR_YUV2BGR_I420))
        at += size
    return num / den, frames
