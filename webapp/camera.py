"""A photo's image checks: what an upload is, how large, and its motion-test thumbnail.

What the reader's tiles mean for the match is the follower's business (`vision.follow.table`,
the same follower as `spinner watch`); this module only looks at the image.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.follow.motion import THUMB_WIDTH, alike, thumbnail
from vision.read import photo

from . import imagesize
from .errors import ApiError

#: Larger photos are refused before decoding: the reader's own limit (`imagesize.MAX_PIXELS`).
MAX_PIXELS = imagesize.MAX_PIXELS
#: the HTTP status of each of the loader's refusals (`vision.read.photo.PhotoError.kind`)
STATUS = {"empty": 400, "too_large": 413, "not_image": 415, "damaged": 415, "missing": 415}
#: a HEIF kept as a JPEG the page can show (browsers but Safari show no HEIC): the quality that
#: keeps what the phone's own lossy HEVC kept
HEIF_JPEG_QUALITY = 95


def heif(data: bytes, name: str = "the upload") -> np.ndarray:
    """A HEIF (an iPhone's HEIC), which OpenCV does not decode, decoded whole and upright by the
    reader's own loader (measured from its container first), or the 4xx of its refusal."""
    try:
        return photo.decode(data, name, least=None, max_pixels=MAX_PIXELS).image
    except photo.PhotoError as error:
        said = str(error).removeprefix(f"{name}: ")
        raise ApiError(STATUS.get(error.kind, 415), f"{name} {said}") from None


def web_copy(data: bytes, name: str = "the upload") -> tuple[bytes, str]:
    """A photo of a format the page cannot show, as one it can: (bytes, extension). A HEIF becomes
    a JPEG (upright: its turn is in the pixels), anything else OpenCV decodes (a TIFF) a PNG."""
    image = decode(data, name)
    if photo.heif_kind(data) == "heif":
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, HEIF_JPEG_QUALITY])
        return encoded.tobytes(), "jpg"
    ok, encoded = cv2.imencode(".png", image)
    return encoded.tobytes(), "png"


def check(data: bytes, name: str = "the upload") -> tuple[int, int]:
    """The photo's width and height, or a 4xx that says what is wrong with it.

    It is decoded at an eighth of its size (JPEG decodes that directly, several times faster):
    enough to know it is an image and how large, without paying for the whole of a frame that
    the reader may skip for a newer one. The reader decodes it in full (`decode`).
    """
    if not data:
        raise ApiError(400, f"{name} is empty: send a photo (JPEG, PNG, WebP or HEIC)")
    if photo.heif_kind(data) == "heif":  # decoded whole: HEVC has no reduced decoding
        image = heif(data, name)
        return image.shape[1], image.shape[0]
    small = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_REDUCED_COLOR_8)
    if small is None:
        raise ApiError(415, f"{name} is not a photo this server can decode: send a JPEG, PNG, WebP or HEIC image")
    width, height = small.shape[1] * 8, small.shape[0] * 8
    # each side is known to 7 pixels: refused only when surely over (the header said how large,
    # `imagesize.check`), so a photo just under the reader's limit is not refused for rounding
    if (width - 7) * (height - 7) > MAX_PIXELS:
        raise ApiError(413, f"{name} is about {width}x{height} pixels: at most {MAX_PIXELS // 1_000_000} megapixels")
    return width, height


def thumbnail_of(data: bytes, width: int) -> np.ndarray:
    """The motion test's thumbnail of an upload (`vision.follow.motion.thumbnail`), decoded small: JPEG
    decodes at a half, a quarter or an eighth of its size directly, as long as that is wide enough."""
    if photo.heif_kind(data) == "heif":
        return thumbnail(heif(data))
    flag = next(
        (
            f
            for f, scale in (
                (cv2.IMREAD_REDUCED_COLOR_8, 8),
                (cv2.IMREAD_REDUCED_COLOR_4, 4),
                (cv2.IMREAD_REDUCED_COLOR_2, 2),
            )
            if width // scale >= THUMB_WIDTH
        ),
        cv2.IMREAD_COLOR,
    )
    small = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flag)
    if small is None:
        raise ApiError(415, "the upload is cut short or damaged: it could not be decoded")
    return thumbnail(small)


def decode(data: bytes, name: str = "the upload") -> np.ndarray:
    """The photo in full as a BGR array (after `check`), or a 415 when it is cut short or damaged."""
    if photo.heif_kind(data) == "heif":
        return heif(data, name)
    check(data, name)
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ApiError(415, f"{name} is cut short or damaged: it could not be decoded")
    return image


#: the live camera's two small captures a moment apart (`still_between`) are at most this large
MAX_CAPTURE_PIXELS = 1_000_000


def still_between(before: bytes, now: bytes) -> bool:
    """Whether the live camera's two small captures, the one just before a frame and the frame's
    own, show a still table (`vision.follow.motion.alike`): how the page says that a frame is
    not a hand caught over the table, however long the frames before it took to be read. Both
    captures come from the page's own scaling, so they are compared with each other only."""
    thumbs, sizes = [], []
    for name, data in (("before", before), ("now", now)):
        said = f"the capture '{name}'"
        # The header's size first, as for a photo: a small PNG may claim gigapixels to its decoder.
        imagesize.check(data, said, MAX_CAPTURE_PIXELS)
        width, height = imagesize.decodable(check, data, said)
        if width * height > MAX_CAPTURE_PIXELS:
            raise ApiError(
                413, f"the capture '{name}' is {width}x{height} pixels: a small capture, 1 megapixel at most"
            )
        try:
            thumbs.append(thumbnail_of(data, width))
        except cv2.error:  # OpenCV's refusal of an image too small to scale, as for a photo
            raise ApiError(415, f"{said} is cut short or damaged: it could not be decoded") from None
        sizes.append((width, height))
    if sizes[0] != sizes[1]:
        raise ApiError(400, "the captures 'before' and 'now' differ in size: send two captures of the same size")
    return alike(thumbs[0], thumbs[1])
