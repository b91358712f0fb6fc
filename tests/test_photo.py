"""The one photo loader (`vision.read.photo`): EXIF orientation, reduced decoding, refusals."""

from __future__ import annotations

import io
import struct

import cv2
import numpy as np
import pytest

from vision.read.photo import READ_LEAST, PhotoError, decode, load, read_header, reduction_for
from vision.read.reader import ReadError, load_photo


def exif_block(orientation: int, order: str = "II") -> bytes:
    """An APP1 segment holding an EXIF block whose IFD0 has the orientation tag alone."""
    fmt = "<" if order == "II" else ">"
    tiff = order.encode() + struct.pack(fmt + "HI", 42, 8)
    tiff += (
        struct.pack(fmt + "H", 1) + struct.pack(fmt + "HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(fmt + "I", 0)
    )
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def jpeg(image: np.ndarray, orientation: int | None = None, order: str = "II") -> bytes:
    data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    return data if orientation is None else data[:2] + exif_block(orientation, order) + data[2:]


def marked(height: int = 60, width: int = 100) -> np.ndarray:
    """Grey, with a white block in the stored photo's top-left corner."""
    image = np.full((height, width, 3), 60, np.uint8)
    image[: height // 4, : width // 4] = 255
    return image


def corner_of_mark(image: np.ndarray) -> str:
    h, w = image.shape[:2]
    corners = {
        "TL": image[: h // 8, : w // 8],
        "TR": image[: h // 8, -w // 8 :],
        "BL": image[-h // 8 :, : w // 8],
        "BR": image[-h // 8 :, -w // 8 :],
    }
    return max(corners, key=lambda k: corners[k].mean())


# where the stored top-left corner ends up once turned upright (EXIF 2.3, "Orientation")
WHERE = {1: "TL", 2: "TR", 3: "BR", 4: "BL", 5: "TL", 6: "TR", 7: "BR", 8: "BL"}


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("order", ["II", "MM"])
def test_every_exif_orientation_is_turned_upright(orientation, order):
    photo = decode(jpeg(marked(), orientation, order))
    sideways = orientation >= 5
    assert photo.image.shape[:2] == ((100, 60) if sideways else (60, 100))
    assert (photo.width, photo.height) == ((60, 100) if sideways else (100, 60))
    assert corner_of_mark(photo.image) == WHERE[orientation] and photo.orientation == orientation


@pytest.mark.parametrize("orientation", range(1, 9))
def test_turned_as_pillow_turns_it(orientation):
    image_module = pytest.importorskip("PIL.Image")
    ops = pytest.importorskip("PIL.ImageOps")
    data = jpeg(marked(), orientation)
    theirs = np.asarray(ops.exif_transpose(image_module.open(io.BytesIO(data))))[:, :, ::-1]
    ours = decode(data).image
    assert ours.shape == theirs.shape
    assert np.abs(ours.astype(int) - theirs.astype(int)).mean() < 2


def test_the_header_is_read_without_decoding():
    data = jpeg(marked(300, 500), 6)
    header = read_header(data[:400])  # the frame header comes before the scan
    assert header is not None and (header.width, header.height, header.orientation) == (500, 300, 6)
    png = cv2.imencode(".png", marked())[1].tobytes()
    assert read_header(png) is not None and (read_header(png).width, read_header(png).height) == (100, 60)
    assert read_header(b"not a photo") is None


def test_a_large_jpeg_is_decoded_at_reduced_size_and_keeps_its_own_size():
    assert reduction_for(4080, 3072) == 2 and reduction_for(8160, 6120) == 4 and reduction_for(1280, 960) == 1
    assert reduction_for(4080, 3072, None) == 1 and reduction_for(12000, 9000, 1000) == 8
    photo = decode(jpeg(marked(1950, 2600), 8))
    assert photo.reduction == 2 and photo.image.shape[:2] == (1300, 975)
    assert (photo.width, photo.height) == (1950, 2600) and photo.scale == pytest.approx(2.0)
    assert corner_of_mark(photo.image) == "BL"
    whole = decode(jpeg(marked(1950, 2600)), least=None)
    assert whole.reduction == 1 and whole.image.shape[:2] == (1950, 2600)
    assert READ_LEAST <= 1300


def test_a_photo_over_the_limit_is_refused_from_its_header_alone():
    data = jpeg(marked(2000, 3000))
    with pytest.raises(PhotoError, match="more than 1 megapixels") as refused:
        decode(data[:600], "big.jpg", max_pixels=1_000_000)  # no scan at all: never decoded
    assert refused.value.kind == "too_large"


@pytest.mark.parametrize("data, kind", [(b"", "empty"), (b"not a photo", "not_image")])
def test_bad_bytes_say_why(data, kind):
    with pytest.raises(PhotoError) as refused:
        decode(data, "the upload")
    assert refused.value.kind == kind and str(refused.value).startswith("the upload:")


def test_load_photo_is_the_loader(tmp_path):
    path = tmp_path / "turned.jpg"
    path.write_bytes(jpeg(marked(), 6))
    assert load_photo(path).shape == (100, 60, 3) and load(path).width == 60
    assert ReadError is PhotoError


def test_an_upload_is_read_upright_at_reduced_size_its_points_in_the_photos_own_pixels():
    """The page's photos (`Reader.read_photo`, through `webapp.frames.process` and the reader's
    child process): a phone's photo stored on its side, twice the size the reader needs."""
    from vision.read.reader import Reader
    from vision.synth.dataset import make_sample

    sample = make_sample(6, 0)
    upright = cv2.resize(cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR), (2560, 1920))
    stored = jpeg(cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE), orientation=6)  # "turn clockwise to view"
    reading = Reader().read_photo(stored, "an upload")
    assert (reading.width, reading.height) == (2560, 1920)
    truth = [t for t in sample.truth["tiles"] if t["labelled"]]
    centres = np.asarray([t["center"] for t in truth]) * 2  # the truth of the 1280 x 960 render
    assert len(reading.tiles) >= len(truth) - 2
    for tile in reading.tiles:
        if not tile.unsure:
            assert np.linalg.norm(centres - tile.center, axis=1).min() < 20
    with pytest.raises(ReadError, match="an upload"):
        Reader().read_photo(b"not a photo", "an upload")


def claiming(kind: str, width: int, height: int) -> bytes:
    """The first bytes of a photo of `kind` whose header claims width x height, and no pixels."""
    if kind == "bmp":  # 8 bits a pixel, RLE8: one end-of-bitmap code makes the whole picture
        palette = bytes(4 * 256)
        info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, 2, 2835, 2835, 256, 0)
        return (
            b"BM"
            + struct.pack("<IHHI", 14 + 40 + len(palette) + 2, 0, 0, 14 + 40 + len(palette))
            + info
            + palette
            + b"\x00\x01"
        )
    if kind == "webp":
        bits = (width - 1) | ((height - 1) << 14)
        return (
            b"RIFF" + struct.pack("<I", 30) + b"WEBPVP8L" + struct.pack("<I", 5) + b"\x2f" + bits.to_bytes(4, "little")
        )
    if kind == "gif":
        return b"GIF89a" + struct.pack("<HH", width, height) + b"\x00\x00\x00;"
    if kind == "tiff":
        entries = [(256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 8), (262, 3, 1)]
        ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", t, k, 1, v) for t, k, v in entries)
        return b"II*\x00" + struct.pack("<I", 8) + ifd + b"\x00" * 4
    raise ValueError(kind)


@pytest.mark.parametrize("kind", ["bmp", "webp", "gif", "tiff"])
def test_every_format_is_refused_from_its_header_before_decoding(kind, monkeypatch):
    """A decoder allocates what a header claims: a 1 KB BMP saying 30000 x 30000 took 5 GB of
    memory before the photo was measured, after decoding. Now no format is decoded unmeasured."""

    def never(*args):
        raise AssertionError("decoded")

    monkeypatch.setattr(cv2, "imdecode", never)
    with pytest.raises(PhotoError, match=r"is 16383x16383 pixels, more than 50 megapixels") as refused:
        decode(claiming(kind, 16383, 16383), "bomb")
    assert refused.value.kind == "too_large"


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".webp", ".bmp", ".tiff", ".gif"])
def test_every_format_read_is_measured_by_its_header(suffix):
    data = cv2.imencode(suffix, marked(60, 100))[1].tobytes()
    header = read_header(data)
    assert header is not None and (header.width, header.height) == (100, 60)
    assert decode(data).image.shape == (60, 100, 3)


def test_a_format_whose_size_is_not_told_before_decoding_is_refused(monkeypatch):
    """A PPM's header is text: "P6 30000 30000 255" in 20 bytes, and OpenCV allocates that."""
    monkeypatch.setattr(cv2, "imdecode", lambda *args: pytest.fail("decoded"))
    with pytest.raises(
        PhotoError, match=r"^p.ppm: is not a photo this reads \(JPEG, PNG, WebP, HEIC, BMP, GIF or TIFF\)$"
    ):
        decode(b"P6\n30000 30000\n255\n", "p.ppm")


def test_a_photo_that_cannot_be_opened_is_named(tmp_path, monkeypatch):
    from pathlib import Path

    path = tmp_path / "locked.jpg"
    path.write_bytes(jpeg(marked()))

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(PhotoError, match=r"locked.jpg: cannot be read \(Permission denied\)$"):
        load(path)


# -- across the reader's processes -----------------------------------------------------------------


def test_a_photo_error_survives_pickling_with_its_kind():
    """The server's reader runs in a process pool, which sends an error back pickled: one that
    could not be unpickled (PhotoError's `kind`) broke the pool for every table."""
    import pickle

    from scorer import RecordError

    error = pickle.loads(pickle.dumps(PhotoError("frame 3: is 8192x6145 pixels", "too_large")))
    assert isinstance(error, PhotoError) and str(error) == "frame 3: is 8192x6145 pixels" and error.kind == "too_large"
    rule = pickle.loads(pickle.dumps(RecordError("not your turn", 1, 4, code="turn", seat=2)))
    said = (str(rule), rule.message, rule.hand, rule.event, rule.code, rule.params)
    assert said == ("hand 1, event 4: not your turn", "not your turn", 1, 4, "turn", {"seat": 2})


def test_a_photo_refused_in_a_spawned_process_comes_back_as_itself():
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        with pytest.raises(PhotoError, match="empty file") as refused:
            pool.submit(decode, b"", "frame 1").result()
        assert refused.value.kind == "empty"
        assert pool.submit(reduction_for, 4080, 3072, READ_LEAST).result() == 2  # the pool still works


@pytest.mark.parametrize("mode, words", [("F", "32-bit floating-point"), ("I", "32-bit signed integer")])
def test_a_whole_tiff_of_samples_opencv_cannot_decode_is_said_so_not_called_damaged(mode, words):
    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, (64, 48), 7).save(out, "TIFF")
    with pytest.raises(PhotoError, match=f"photo.tif: the sample format is not supported \\({words} samples\\)"):
        decode(out.getvalue(), "photo.tif")
    eight = io.BytesIO()  # a TIFF of usual samples, cut short, is damaged still
    Image.new("RGB", (64, 48)).save(eight, "TIFF")
    with pytest.raises(PhotoError, match="is cut short or damaged"):
        decode(eight.getvalue()[:200], "photo.tif")


def test_the_readers_docs_give_the_photo_size_limit_the_code_keeps():
    from pathlib import Path

    from vision.read.photo import MAX_PIXELS

    docs = " ".join((Path(__file__).parents[1] / "docs" / "reader.md").read_text().split())
    assert f"more than {MAX_PIXELS / 1e6:.0f} megapixels, 8192x6144" in docs


# -- HEIC, an iPhone's photos ------------------------------------------------------------------------


@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_heic_is_turned_upright_once_by_its_own_transform(orientation):
    """An iPhone writes the turn twice: as the HEIF's transform, which libheif applies, and as the
    EXIF orientation. Applied both, a photo taken upright came out on its side."""
    from tests.support.heic import exif_orientation, heic

    data = heic(marked(), orientation)
    assert exif_orientation(data) == orientation  # the tag is there, to be left alone
    header = read_header(data)
    photo = decode(data, "IMG_0001.HEIC")
    turned = orientation in (5, 6, 7, 8)
    assert header is not None and header.format == "heif" and header.orientation == 1
    assert (header.width, header.height) == ((60, 100) if turned else (100, 60))
    assert photo.image.shape == ((100, 60, 3) if turned else (60, 100, 3))
    assert (photo.width, photo.height) == (photo.image.shape[1], photo.image.shape[0]) and photo.reduction == 1
    assert corner_of_mark(photo.image) == WHERE[orientation]
    # the same photo as a JPEG with the same tag comes out the same way up
    assert corner_of_mark(decode(jpeg(marked(), orientation)).image) == WHERE[orientation]


def test_a_heic_keeps_its_colours_and_drops_alpha_ten_bits_and_grey_to_8_bit_bgr():
    from tests.support.heic import heic

    image = marked()
    image[-10:, -10:] = (255, 0, 0)  # blue, in OpenCV's order
    photo = decode(heic(image))
    assert photo.image.dtype == np.uint8 and photo.image.shape == (60, 100, 3)
    assert photo.image[-3, -3].tolist() == pytest.approx([255, 0, 0], abs=8)
    alpha = decode(heic(np.dstack([image, np.full((60, 100), 40, np.uint8)]))).image
    assert alpha.shape == (60, 100, 3) and alpha[-3, -3].tolist() == pytest.approx([255, 0, 0], abs=8)
    ten = heic(image.astype(np.uint16) * 257)
    import pillow_heif

    assert pillow_heif.open_heif(io.BytesIO(ten)).info["bit_depth"] == 10
    deep = decode(ten).image
    assert deep.dtype == np.uint8 and deep[-3, -3].tolist() == pytest.approx([255, 0, 0], abs=8)
    grey = decode(heic(image[:, :, 1])).image
    assert grey.shape == (60, 100, 3) and corner_of_mark(grey) == "TL"


def test_a_heic_over_the_limit_is_refused_from_its_container_alone(monkeypatch):
    from tests.support.heic import claiming, heic
    from vision.read import photo

    monkeypatch.setattr(photo, "_heif_decode", lambda data: pytest.fail("decoded"))
    bomb = claiming(heic(marked(48, 64)), 16383, 16383)
    with pytest.raises(PhotoError, match=r"^bomb.heic: is 16383x16383 pixels, more than 50 megapixels$") as refused:
        decode(bomb, "bomb.heic")
    assert refused.value.kind == "too_large"


def test_a_large_heic_is_shrunk_as_a_jpeg_decodes_and_keeps_its_own_size():
    """HEVC has no reduced decoding: decoded whole, then shrunk to the size a JPEG decodes at."""
    from tests.support.heic import heic

    image = cv2.resize(marked(), (400, 240), interpolation=cv2.INTER_NEAREST)
    as_heic, as_jpeg = decode(heic(image, 6), least=150), decode(jpeg(image, 6), least=150)
    assert as_heic.reduction == as_jpeg.reduction == 2
    assert as_heic.image.shape == as_jpeg.image.shape == (200, 120, 3)
    assert (as_heic.width, as_heic.height, as_heic.scale) == (240, 400, 2.0)
    assert corner_of_mark(as_heic.image) == corner_of_mark(as_jpeg.image) == "TR"


def test_a_heic_cut_short_is_named_damaged_wherever_it_was_cut(tmp_path):
    from tests.support.heic import heic

    noise = np.random.default_rng(0).integers(0, 255, (96, 128, 3), np.uint8)
    data = heic(noise)
    for cut in (12, 100, len(data) // 2, len(data) - 10):
        path = tmp_path / f"IMG_{cut}.HEIC"
        path.write_bytes(data[:cut])
        with pytest.raises(PhotoError, match=rf"^{path}: is cut short or damaged") as refused:
            load(path)
        assert refused.value.kind == "damaged"


def test_an_avif_or_a_video_of_the_same_box_is_refused_by_name():
    avif = struct.pack(">I", 24) + b"ftypavif" + b"\x00" * 4 + b"avifmif1" + b"\x00" * 40
    with pytest.raises(PhotoError, match=r"^p.avif: is an AVIF image, which this does not read") as refused:
        decode(avif, "p.avif")
    assert refused.value.kind == "not_image"
    movie = struct.pack(">I", 24) + b"ftypqt  " + b"\x00" * 4 + b"qt  " + b"\x00" * 40  # a Live Photo's .MOV
    with pytest.raises(PhotoError, match=r"^IMG_0001.MOV: is not a photo this reads"):
        decode(movie, "IMG_0001.MOV")


def test_a_heic_claiming_more_than_libheif_holds_is_refused_naming_its_claim(monkeypatch):
    """libheif gives 0x0 for an `ispe` of 0xFFFFFFFF x 0xFFFFFFFF: the refusal names what it claims."""
    from tests.support.heic import heic
    from vision.read import photo

    monkeypatch.setattr(photo, "_heif_decode", lambda data: pytest.fail("decoded"))
    data = heic(marked(480, 640))  # no `clap`: its `ispe` alone gives the size (a `clap` as large libheif refuses)
    at = data.index(b"ispe")
    bomb = data[: at + 8] + struct.pack(">II", 0xFFFFFFFF, 0xFFFFFFFF) + data[at + 16 :]
    with pytest.raises(PhotoError, match=r"^b.heic: is 4294967295x4294967295 pixels, more than 50 megapixels$") as no:
        decode(bomb, "b.heic")
    assert no.value.kind == "too_large"
