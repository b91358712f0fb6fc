"""HEIC photos as an iPhone stores them, encoded in the test by pillow-heif (libheif's x265): the
pixels stored as the sensor saw them, the turn to view them in the HEIF's own `irot`/`imir`
transform, and the same turn in the EXIF orientation tag, as the phone writes both."""

from __future__ import annotations

import io
import struct

import numpy as np


def heic(image: np.ndarray, orientation: int | None = None, quality: int = 90) -> bytes:
    """`image` (BGR, BGRA or grey, 8-bit; RGB of 16 bits stored as 10) as a HEIC. `orientation`
    (EXIF 1-8): the viewer is to turn the stored pixels so, and pillow-heif writes the turn as
    the HEIF's transform and keeps it in the EXIF too."""
    import pillow_heif
    from PIL import Image

    if image.dtype == np.uint16:  # a 10-bit photo, as an iPhone's HDR one
        heif = pillow_heif.from_bytes("RGB;16", (image.shape[1], image.shape[0]), image[:, :, ::-1].tobytes())
        out = io.BytesIO()
        heif.save(out, quality=quality)
        return out.getvalue()
    pixels = image if image.ndim == 2 else image[:, :, [2, 1, 0, 3][: image.shape[2]]]  # BGR(A) -> RGB(A)
    extra = {}
    if orientation is not None:
        exif = Image.Exif()
        exif[0x0112] = orientation
        extra["exif"] = exif.tobytes()
    out = io.BytesIO()
    pillow_heif.from_pillow(Image.fromarray(np.ascontiguousarray(pixels))).save(out, quality=quality, **extra)
    return out.getvalue()


def exif_orientation(data: bytes) -> int | None:
    """The orientation tag in a HEIF's EXIF, as a reader that applied it would turn by."""
    import pillow_heif
    from PIL import Image

    exif = pillow_heif.open_heif(io.BytesIO(data)).info.get("exif")
    if not exif:
        return None
    tags = Image.Exif()
    tags.load(exif)
    return tags.get(0x0112)


def claiming(data: bytes, width: int, height: int) -> bytes:
    """The HEIF with its primary image's `ispe` and `clap` (the size libheif gives) saying
    `width` x `height`, its pixels left as they are: a bomb's container."""
    at = data.index(b"ispe")
    data = data[: at + 8] + struct.pack(">II", width, height) + data[at + 16 :]
    at = data.index(b"clap")
    return data[: at + 4] + struct.pack(">8i", width, 1, height, 1, 0, 1, 0, 1) + data[at + 36 :]
