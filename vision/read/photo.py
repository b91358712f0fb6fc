"""One way in for every photo: `spinner read`, `spinner watch`, the evaluations and the page's upload.

A phone stores its photo as the sensor saw it and says in the EXIF orientation tag how to turn
it; a photo read without turning it shows the reader a table on its side, or mirrored (a mirrored
tile still reads, but its layout does not). OpenCV applies the tag in some versions and not in
others, so the tag is read here, OpenCV told to ignore it, and the photo turned by us: the same
upright photo whatever OpenCV is installed.

A phone's photo is 12 to 50 megapixels and the detector reads it at 896 pixels long: a JPEG is
decoded at a half, a quarter or an eighth of its size directly (the decoder skips the detail;
several times faster than decoding it whole and shrinking it) as far as the photo keeps at least
`READ_LEAST` pixels along its long side, what the halves are cut from. The header is read
before anything is decoded, so a photo too large is refused without decoding any of it.

An iPhone stores its photos as HEIC (HEIF holding HEVC), which OpenCV does not decode: those go to
libheif (`pillow_heif`). Its container is parsed first, which gives the size without decoding any
pixels, and the budget is kept on that. libheif turns the photo upright itself by the HEIF's own
transforms (`irot`, `imir`: what the phone also writes as its EXIF orientation, which is then not
applied a second time), decodes a 10-bit photo to 8 bits and gives an alpha channel that is
dropped, as OpenCV drops a PNG's. HEVC cannot be decoded at a reduced size: a HEIF is decoded whole
and shrunk to the size a JPEG of it would decode at, so both read alike. An AVIF is not read: the
pillow_heif wheels carry no AV1 decoder.

Pure functions and one dataclass; `load` alone touches the disk.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pillow_heif import HeifFile

#: the largest photo read: a 50-megapixel phone's full size (8192 x 6144); larger ones are refused
#: before decoding (a panorama or a scan is not a photo of a table).
MAX_PIXELS = 8192 * 6144
#: the largest file read at all
MAX_BYTES = 200 * 1024 * 1024
#: the least long side a photo is decoded at: the training photos are 1280 x 960 and the real
#: board's photos 1360 x 1024, read as they are; a phone's 4080 x 3072 photo is decoded at half
#: (2040 x 1536), a 50-megapixel one at a quarter. The halves and the box refiner cut from these
#: pixels, the detector reads at 896 whatever the size.
READ_LEAST = 1280

#: EXIF orientation (1-8) -> how to turn the stored pixels upright, as Pillow's `exif_transpose`
_TURNS = {
    2: lambda a: cv2.flip(a, 1),
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    4: lambda a: cv2.flip(a, 0),
    5: lambda a: cv2.transpose(a),
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    7: lambda a: cv2.flip(cv2.transpose(a), -1),
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}
#: what `decode` reads, in words for its refusals
FORMATS_READ = "JPEG, PNG, WebP, HEIC, BMP, GIF or TIFF"
_REDUCED = {
    1: cv2.IMREAD_COLOR,
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


class PhotoError(ValueError):
    """A photo that cannot be read. `kind` says why, for the page's HTTP status: "empty" (400),
    "not_image" (415), "too_large" (413), "damaged" (415), "missing" (a path only)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[type[PhotoError], tuple[str, str]]:
        # the server's reader runs in a process pool, which pickles an error back; by default it is
        # rebuilt from `args` alone, without `kind`, and the failed rebuild broke the whole pool
        return type(self), (str(self), self.kind)


@dataclass(frozen=True, slots=True)
class Header:
    """What a photo's first bytes say: its stored size and how to turn it."""

    format: str  # "jpeg", "png", "webp", "bmp", "gif", "tiff" or "heif"
    width: int  # as stored, before turning (a HEIF: as libheif gives it, upright already)
    height: int
    orientation: int = 1  # EXIF 1-8; 1 upright

    @property
    def turned(self) -> bool:
        """Whether turning it upright swaps width and height."""
        return self.orientation in (5, 6, 7, 8)


@dataclass(frozen=True, slots=True)
class Photo:
    """A photo decoded upright. `image` may be smaller than the photo by `reduction`."""

    image: np.ndarray  # BGR, upright
    width: int  # the photo's own size, upright
    height: int
    reduction: int = 1  # the image is the photo's size divided by this (1, 2, 4 or 8)
    orientation: int = 1  # the EXIF orientation it was turned by (a HEIF: 1, libheif turns it)

    @property
    def scale(self) -> float:
        """Image pixels to the photo's own pixels."""
        return self.width / self.image.shape[1]


#: the HEIF brands of an HEVC image (ISO/IEC 23008-12): an iPhone's HEIC says "heic"; "mif1" and
#: "msf1" are any HEIF's, read as HEVC unless an AV1 brand says it is an AVIF
_HEVC_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs"}
_AV1_BRANDS = {b"avif", b"avis"}
_ANY_HEIF = {b"mif1", b"msf1"}


def heif_kind(data: bytes) -> str | None:
    """What an ISO media file holds, by the brands of its `ftyp` box: "heif" for a HEIF of HEVC (an
    iPhone's HEIC), "avif" for an AVIF, None for anything else (an MP4 or a MOV has one too)."""
    if len(data) < 12 or data[4:8] != b"ftyp":
        return None
    size = int.from_bytes(data[:4], "big")
    box = data[8 : min(size, len(data), 512)] if size >= 16 else data[8:12]
    brands = {box[:4], *(box[i : i + 4] for i in range(8, len(box) - 3, 4))}
    if brands & _HEVC_BRANDS:
        return "heif"
    if brands & _AV1_BRANDS:
        return "avif"
    return "heif" if brands & _ANY_HEIF else None


def _heif_file(data: bytes) -> HeifFile:
    """libheif's view of a HEIF: its container parsed, no pixel decoded until they are asked for."""
    import pillow_heif

    return pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True, bgr_mode=True)


def _heif_header(data: bytes) -> Header | None:
    """A HEIF's size from its container (the primary image's `ispe`, turned as its transforms
    turn it), without decoding: None where libheif cannot parse it."""
    try:
        width, height = _heif_file(data).size
    except Exception:  # libheif's refusal (a ValueError, in words that vary): cut short or not a HEIF
        return None
    if not width or not height:  # libheif gives 0x0 for a size it cannot hold (0xFFFFFFFF wide): say the claim
        width, height = _ispe_claim(data) or (width, height)
    return Header("heif", int(width), int(height))


def _boxes(data: bytes, start: int, end: int) -> Iterator[tuple[bytes, int, int]]:
    """(type, where its body starts, where it ends) of each ISO media box from `start` to `end`."""
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start : start + 8])
        body = start + 8
        if size == 1 and body + 8 <= end:  # a 64-bit size follows the type
            size, body = struct.unpack(">Q", data[body : body + 8])[0], body + 8
        elif size == 0:  # to the end of its parent
            size = end - start
        if size < body - start or start + size > end:
            return
        yield kind, body, start + size
        start += size


def _ispe_claim(data: bytes) -> tuple[int, int] | None:
    """The largest size a HEIF's `ispe` properties (meta > iprp > ipco) claim, as written; None
    where it has none. It names the size of a container that libheif cannot hold."""
    claims = [
        struct.unpack(">II", data[at + 4 : at + 12])
        for kind, body, end in _boxes(data, 0, len(data))
        if kind == b"meta"
        for kind2, body2, end2 in _boxes(data, body + 4, end)
        if kind2 == b"iprp"
        for kind3, body3, end3 in _boxes(data, body2, end2)
        if kind3 == b"ipco"
        for kind4, at, end4 in _boxes(data, body3, end3)
        if kind4 == b"ispe" and end4 - at >= 12
    ]
    return max(claims, key=lambda c: c[0] * c[1], default=None)


def _heif_decode(data: bytes) -> np.ndarray | None:
    """A HEIF's primary image as 8-bit BGR, upright by its own transforms; None where libheif
    cannot decode it (cut short, damaged)."""
    try:
        pixels = np.asarray(_heif_file(data))
    except Exception:  # libheif's refusal: its messages vary, and the photo is damaged all the same
        return None
    if pixels.dtype != np.uint8:  # a 10- or 12-bit photo that was not brought to 8 bits
        pixels = (pixels >> (8 * pixels.dtype.itemsize - 8)).astype(np.uint8)
    if pixels.ndim == 3 and pixels.shape[2] in (1, 2):  # grey, with or without alpha
        pixels = pixels[:, :, 0]
    if pixels.ndim == 2:
        return cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(pixels[:, :, :3])  # BGRA: the alpha dropped, as OpenCV drops a PNG's


def read_header(data: bytes) -> Header | None:
    """The size (and a JPEG's orientation) of a JPEG, PNG, WebP, BMP, GIF, TIFF or HEIF from its
    header alone; None for any other format or a header cut short. Every format is measured before
    it is decoded: a decoder allocates what the header claims (a 1 KB BMP saying 30000 x 30000 took
    5 GB before it was measured after decoding)."""
    if data[:2] == b"\xff\xd8":
        return _jpeg_header(data)
    if heif_kind(data) == "heif":
        return _heif_header(data)
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return Header("png", width, height)
    size = _other_size(data)
    return Header(size[0], size[1], size[2]) if size is not None else None


def _other_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) of a WebP, BMP, GIF or TIFF as its header says."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        size = _webp_size(data)
        return ("webp", *size) if size is not None else None
    if data[:2] == b"BM" and len(data) >= 26:
        if struct.unpack("<I", data[14:18])[0] == 12:  # the old OS/2 header: 16-bit sides
            width, height = struct.unpack("<HH", data[18:22])
        else:
            width, height = struct.unpack("<ii", data[18:26])
        return "bmp", abs(width), abs(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return "gif", width, height
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        size = _tiff_size(data)
        return ("tiff", *size) if size is not None else None
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
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


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """Tags 256 (width) and 257 (height) of a TIFF's first directory, the page OpenCV decodes."""
    order = "<" if data[:2] == b"II" else ">"
    (ifd,) = struct.unpack(order + "I", data[4:8])
    if ifd + 2 > len(data):
        return None
    (count,) = struct.unpack(order + "H", data[ifd : ifd + 2])
    sides: dict[int, int] = {}
    for i in range(count):
        entry = ifd + 2 + 12 * i
        if entry + 12 > len(data):
            return None
        tag, kind = struct.unpack(order + "HH", data[entry : entry + 4])
        if tag in (256, 257) and kind in (3, 4):  # SHORT or LONG
            sides[tag] = struct.unpack(
                order + ("H" if kind == 3 else "I"), data[entry + 8 : entry + (10 if kind == 3 else 12)]
            )[0]
    return (sides[256], sides[257]) if len(sides) == 2 else None


def _tiff_samples(data: bytes) -> str | None:
    """A TIFF's samples in words where they are of a kind OpenCV does not decode (more than 16
    bits, or signed or floating-point: tags 258 and 339 of its first directory); None otherwise."""
    order = "<" if data[:2] == b"II" else ">"
    first: dict[int, int] = {}
    try:
        (ifd,) = struct.unpack(order + "I", data[4:8])
        (count,) = struct.unpack(order + "H", data[ifd : ifd + 2])
        for i in range(count):
            entry = ifd + 2 + 12 * i
            tag, kind, values = struct.unpack(order + "HHI", data[entry : entry + 8])
            if tag in (258, 339) and kind == 3:  # SHORT, one per channel: the first is the rest's
                at = entry + 8 if values <= 2 else struct.unpack(order + "I", data[entry + 8 : entry + 12])[0]
                first[tag] = struct.unpack(order + "H", data[at : at + 2])[0]
    except struct.error:  # a directory cut short: it is damaged, as said
        return None
    bits, sample_format = first.get(258, 8), first.get(339, 1)
    if bits <= 16 and sample_format == 1:
        return None
    kind = {2: "signed integer", 3: "floating-point"}.get(sample_format, "unsigned integer")
    return f"{bits}-bit {kind}"


def _jpeg_header(data: bytes) -> Header | None:
    orientation, at = 1, 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD9)):  # markers without a length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        segment = data[at + 4 : at + 2 + length]
        if marker == 0xE1 and segment[:6] == b"Exif\x00\x00":
            orientation = _exif_orientation(segment[6:]) or orientation
        elif 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame
            if len(segment) < 5:
                return None
            height, width = struct.unpack(">HH", segment[1:5])
            return Header("jpeg", width, height, orientation)
        elif marker == 0xDA:  # the scan began before any frame header: not a JPEG we know
            return None
        at += 2 + length
    return None


def _exif_orientation(tiff: bytes) -> int | None:
    """Tag 0x0112 of IFD0 in an EXIF block (a TIFF header and its first directory)."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return None
    order = "<" if tiff[:2] == b"II" else ">"
    (ifd,) = struct.unpack(order + "I", tiff[4:8])
    if ifd + 2 > len(tiff):
        return None
    (count,) = struct.unpack(order + "H", tiff[ifd : ifd + 2])
    for i in range(count):
        entry = ifd + 2 + 12 * i
        if entry + 12 > len(tiff):
            return None
        tag, kind = struct.unpack(order + "HH", tiff[entry : entry + 4])
        if tag == 0x0112 and kind == 3:  # SHORT
            (value,) = struct.unpack(order + "H", tiff[entry + 8 : entry + 10])
            return int(value) if 1 <= value <= 8 else None
    return None


def reduction_for(width: int, height: int, least: int | None = READ_LEAST) -> int:
    """The most a JPEG (or a HEIF, decoded whole and shrunk) may be shrunk in decoding (1, 2, 4 or 8) and keep `least` pixels along
    its long side (None: decoded whole)."""
    if least is None:
        return 1
    long = max(width, height)
    return next((r for r in (8, 4, 2) if long // r >= least), 1)


def upright(image: np.ndarray, orientation: int) -> np.ndarray:
    """The stored pixels turned as the EXIF orientation says."""
    turn = _TURNS.get(orientation)
    return image if turn is None else turn(image)


def decode(data: bytes, name: str = "the photo", least: int | None = READ_LEAST, max_pixels: int = MAX_PIXELS) -> Photo:
    """The photo in `data` (a file's bytes, an upload) decoded upright, a JPEG at reduced size
    where `least` allows (a HEIF shrunk to that size); a PhotoError saying what is wrong otherwise."""
    if not data:
        raise PhotoError(f"{name}: is an empty file: send a photo (JPEG, PNG, WebP or HEIC)", "empty")
    if len(data) > MAX_BYTES:
        raise PhotoError(
            f"{name}: is {len(data) / 2**20:.0f} MiB, more than the {MAX_BYTES // 2**20} MiB a photo may be",
            "too_large",
        )
    header = read_header(data)
    if header is None and heif_kind(data) == "heif":  # a HEIF whose container libheif cannot parse
        raise PhotoError(f"{name}: is cut short or damaged: its HEIF container could not be read", "damaged")
    if header is None and heif_kind(data) == "avif":
        raise PhotoError(f"{name}: is an AVIF image, which this does not read: save it as a JPEG or HEIC", "not_image")
    if header is None:  # its size cannot be told before decoding, and a decoder trusts the header
        raise PhotoError(f"{name}: is not a photo this reads ({FORMATS_READ})", "not_image")
    if header.width * header.height > max_pixels:
        raise PhotoError(
            f"{name}: is {header.width}x{header.height} pixels, more than {max_pixels / 1e6:.0f} megapixels",
            "too_large",
        )
    reduction = reduction_for(header.width, header.height, least) if header.format in ("jpeg", "heif") else 1
    if header.format == "heif":
        image = _heif_decode(data)
    else:
        buffer = np.frombuffer(data, dtype=np.uint8)
        try:
            image = cv2.imdecode(buffer, _REDUCED[reduction] | cv2.IMREAD_IGNORE_ORIENTATION)
        except cv2.error:  # OpenCV's own refusal of a header it cannot follow
            image = None
    if image is None and header.format == "tiff" and (samples := _tiff_samples(data)) is not None:
        # a whole, valid image all the same: "damaged" sent people looking for a fault in the file
        raise PhotoError(
            f"{name}: the sample format is not supported ({samples} samples): "
            "save it with 8- or 16-bit samples, or as a JPEG or PNG",
            "not_image",
        )
    if image is None or image.shape[0] * image.shape[1] > max_pixels:  # a header that said less
        raise PhotoError(f"{name}: is cut short or damaged: it could not be decoded", "damaged")
    if header.format == "heif" and reduction > 1:  # decoded whole: shrunk as a JPEG decodes reduced
        size = (-(-image.shape[1] // reduction), -(-image.shape[0] // reduction))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    image = upright(image, header.orientation)
    width, height = (header.height, header.width) if header.turned else (header.width, header.height)
    return Photo(image=image, width=width, height=height, reduction=reduction, orientation=header.orientation)


def load(path: str | Path, least: int | None = READ_LEAST, max_pixels: int = MAX_PIXELS) -> Photo:
    """The photo at `path` decoded upright (`decode`), or a PhotoError naming the file."""
    path = Path(path)
    if path.is_dir():
        raise PhotoError(f"{path}: is a folder, not a photo", "not_image")
    if not path.exists():
        raise PhotoError(f"{path}: no such file", "missing")
    size = path.stat().st_size
    if size == 0:
        raise PhotoError(f"{path}: is an empty file", "empty")
    if size > MAX_BYTES:
        raise PhotoError(
            f"{path}: is {size / 2**20:.0f} MiB, more than the {MAX_BYTES // 2**20} MiB a photo may be", "too_large"
        )
    try:
        data = path.read_bytes()
    except OSError as error:  # not allowed, or gone since it was listed
        raise PhotoError(f"{path}: cannot be read ({error.strerror or error})", "missing") from None
    return decode(data, str(path), least, max_pixels)
