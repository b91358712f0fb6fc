"""A photo's width and height from its header, before anything decodes it.

A decoder allocates what the header claims: a 50 KB PNG may say it is 60000 x 60000 pixels
(10 GB of pixels once decoded). So the size is read from the first bytes of each format the
companion keeps (JPEG, PNG, GIF, BMP, WebP) and a photo over the limit is refused before the
decoder sees it. A format whose header is not one of these is refused too: the decoder would
have to be trusted with it.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TypeVar

from .errors import ApiError

T = TypeVar("T")

#: As `webapp.camera.MAX_PIXELS`: a phone's photo is 12 to 50 megapixels.
MAX_PIXELS = 60_000_000
#: JPEG start-of-frame markers (baseline, progressive...; not DHT C4, JPG C8, DAC CC).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if marker in _SOF:
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        if length < 2:
            return None
        i += 2 + length
    return None


def _webp(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


#: the least side of a photo: a tile's half is read at 32 px, and a photo smaller than this shows
#: none (a 1x1 image reached the decoder's reductions as nothing and was called damaged)
LEAST_SIDE = 16


def size_of(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the header says, or None where it cannot be read."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data.startswith(b"BM") and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    return None


def check(data: bytes, name: str = "the upload", max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """The header's (width, height), or a 4xx before any decoding when it is too large or unknown."""
    if not data:
        raise ApiError(400, f"{name} is empty: send a photo (JPEG, PNG or WebP)")
    size = size_of(data)
    if size is None:
        raise ApiError(415, f"{name} is not a photo this server can decode: send a JPEG, PNG or WebP image")
    width, height = size
    if width * height > max_pixels:
        raise ApiError(413, f"{name} says it is {width}x{height} pixels: at most {max_pixels // 1_000_000} megapixels")
    if width == 0 or height == 0:
        raise ApiError(415, f"{name} says it has no pixels ({width}x{height})")
    if min(width, height) < LEAST_SIDE:
        raise ApiError(
            422, f"{name} is {width}x{height} pixels: too small to show a tile (at least {LEAST_SIDE} on each side)"
        )
    return width, height


def decodable(decode: Callable[..., T], data: bytes, name: str = "the upload") -> T:
    """`decode(data, name)`, with OpenCV's own refusal of a broken image (a header it cannot
    scale, a stream cut short) as the 415 it is rather than a server error."""
    import cv2

    try:
        return decode(data, name)
    except cv2.error:
        raise ApiError(415, f"{name} is cut short or damaged: it could not be decoded") from None
