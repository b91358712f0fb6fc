"""Where frames come from: a webcam, a video file, or a folder of photos taken in order.

Each source yields `SourceFrame`s (the BGR image, a name for the evidence, its index and time).
A folder of photos is a series of stills: each photo is taken to be settled (`stills`), where
a camera or a video must first stay still for a few frames. Errors name the file or device.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: what a folder's photos are named (`vision.read.photo` reads them): an iPhone's are .HEIC
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".heic", ".heif", ".hif"}
#: the skipped files named in the note at most; the rest are counted
NAMED_SKIPPED = 5


class SourceError(ValueError):
    """A source that cannot be opened or read; the message names it."""


@dataclass(frozen=True, slots=True)
class SourceFrame:
    image: np.ndarray
    name: str
    index: int
    #: seconds since the source started (video: its own clock; photos: the index)
    time: float


def natural_key(name: str) -> list[object]:
    """`frame2` before `frame10`: digits compare as numbers.

    `isdecimal`, the digits `\\d` splits at: `isdigit` is true of a superscript "²" too, which
    `int` refuses (a photo named `4²5.jpg` stopped the watch)."""
    return [int(part) if part.isdecimal() else part.lower() for part in re.split(r"(\d+)", name)]


class FolderSource:
    stills = True

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceError(f"{self.folder}: no such folder")
        try:
            listing = list(self.folder.iterdir())
        except OSError as error:
            raise SourceError(f"{self.folder}: cannot be listed ({error.strerror or error})") from None
        files = sorted((p for p in listing if p.is_file()), key=lambda p: natural_key(p.name))
        # a hidden file is no photo, whatever its suffix: a Mac's "._IMG_0001.HEIC" beside each photo
        # copied to a drive it does not format holds the photo's metadata, not the photo
        self.paths = [p for p in files if p.suffix.lower() in PHOTO_SUFFIXES and not p.name.startswith(".")]
        #: the files that are not photos it reads: never skipped unsaid (`skipped_note`)
        self.skipped = [p for p in files if p not in self.paths]
        if not self.paths:
            said = f"{self.folder}: holds no photos ({', '.join(sorted(PHOTO_SUFFIXES))})"
            raise SourceError(said + (f"; {self.skipped_note()}" if self.skipped else ""))

    def skipped_note(self) -> str | None:
        """The files of the folder that are not photos it reads, in words; None where there are none."""
        if not self.skipped:
            return None
        names = ", ".join(p.name for p in self.skipped[:NAMED_SKIPPED])
        more = len(self.skipped) - NAMED_SKIPPED
        count = f"{len(self.skipped)} file{'s' if len(self.skipped) != 1 else ''}"
        which = "that are not photos" if len(self.skipped) != 1 else "that is not a photo"
        return f"skipped {count} {which}: {names}" + (f" and {more} more" if more > 0 else "")

    def __iter__(self) -> Iterator[SourceFrame]:
        from vision.read.reader import ReadError, load_photo

        for index, path in enumerate(self.paths):
            try:
                image = load_photo(path)
            except ReadError as error:
                raise SourceError(str(error)) from None
            yield SourceFrame(image, path.name, index, float(index))


class VideoSource:
    """A video file (anything OpenCV's FFmpeg can decode) or a camera index."""

    stills = False

    def __init__(self, source: str | Path | int) -> None:
        self.source = source
        if isinstance(source, int):
            self.capture = cv2.VideoCapture(source)
            self.label = f"camera{source}"
            if not self.capture.isOpened():
                raise SourceError(f"camera {source}: cannot be opened (is it connected, and free?)")
        else:
            path = Path(source)
            if not path.is_file():
                raise SourceError(f"{path}: no such video file")
            if not _utf8(path):  # OpenCV takes the name as UTF-8: another crashed the process
                raise SourceError(f"{path}: its name is not UTF-8, which OpenCV cannot open: rename the file")
            self.capture = cv2.VideoCapture(str(path))
            self.label = path.stem
            if not self.capture.isOpened():
                raise SourceError(f"{path}: is not a video OpenCV can decode")
        fps = self.capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if fps and fps > 0 else 0.0

    def __iter__(self) -> Iterator[SourceFrame]:
        started = time.monotonic()
        index = 0
        try:
            while True:
                ok, image = self.capture.read()
                if not ok or image is None:
                    if index == 0:
                        if isinstance(self.source, int):
                            raise SourceError(f"camera {self.source}: opened, but gives no picture")
                        raise SourceError(f"{self.source}: holds no frame that can be decoded")
                    return
                when = index / self.fps if self.fps and not isinstance(self.source, int) else time.monotonic() - started
                yield SourceFrame(image, f"{self.label}-{index:06d}", index, when)
                index += 1
        finally:
            self.capture.release()


def _utf8(path: Path) -> bool:
    """Whether the file's name is UTF-8 text (a name from another encoding holds lone surrogates)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def open_source(source: str | Path | int) -> FolderSource | VideoSource:
    """A camera index (int), a folder of photos, or a video file."""
    if isinstance(source, int):
        return VideoSource(source)
    path = Path(source)
    if path.is_dir():
        return FolderSource(path)
    if not path.exists():
        raise SourceError(f"{path}: no such file or folder")
    return VideoSource(path)
