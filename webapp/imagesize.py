"""A photo's width and height from its header, before anything decodes it.

A decoder allocates what the header claims: a 50 KB PNG may say it is 60000 x 60000 pixels
(10 GB of pixels once decoded). So the size is read from the first bytes of each format the
companion keeps (JPEG, PNG, GIF, BMP, WebP; a phone's HEIC from its container, parsed by libheif
without decoding, and kept as a JPEG) and a photo over the limit is refused before the
decoder sees it. A format whose header is not one of these is refused too: the decoder would
have to be trusted with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from vision.read.photo import MAX_PIXELS as READER_MAX_PIXELS
from vision.read.photo import heif_kind, read_header

from .errors import ApiError

T = TypeVar("T")

#: The reader's own limit (a 50-megapixel phone's 8192 x 6144): the server took up to 60 MP, and
#: a photo between the two was kept and then refused in the reader's process.
MAX_PIXELS = READER_MAX_PIXELS
#: the formats the server takes (a TIFF is a scan, not a phone's photo: refused as unknown; a HEIF
#: is kept as a JPEG, `camera.web_copy`)
FORMATS = ("jpeg", "png", "gif", "bmp", "webp", "heif")
#: the least side of a photo: a tile's half is read at 32 px, and a photo smaller than this shows
#: none (a 1x1 image reached the decoder's reductions as nothing and was called damaged)
LEAST_SIDE = 16


def size_of(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the header says (as stored, before any EXIF turn), or None where it
    cannot be read or the format is not one the server keeps. The headers are read by the reader's
    own loader (`vision.read.photo.read_header`), which `spinner read` measures photos with too."""
    header = read_header(data)
    if header is None or header.format not in FORMATS:
        return None
    return header.width, header.height


def check(data: bytes, name: str = "the upload", max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """The header's (width, height), or a 4xx before any decoding when it is too large or unknown."""
    if not data:
        raise ApiError(400, f"{name} is empty: send a photo (JPEG, PNG, WebP or HEIC)")
    size = size_of(data)
    if size is None and heif_kind(data) == "heif":
        raise ApiError(415, f"{name} is cut short or damaged: its HEIF container could not be read")
    if size is None and heif_kind(data) == "avif":
        raise ApiError(415, f"{name} is an AVIF image, which this server does not decode: send a JPEG or HEIC")
    if size is None:
        raise ApiError(415, f"{name} is not a photo this server can decode: send a JPEG, PNG, WebP or HEIC image")
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
