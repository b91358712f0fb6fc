"""How long the whole read of a 1280x960 photo takes: decode, detect, cut and read the halves, settle.

    .venv/bin/python bench/read_speed.py [--photos DIR] [--runs 30] [--threads N] [--detector F]
        [--refiner F | --no-refine] [--no-zoom] [--no-slant] [--phone [N]] [--json]

`--phone N` (10 if no N) reads a phone's photo instead: N held-out scenes rendered at 4080x3072
(12.5 megapixels) and stored as a phone stores a portrait photo, the pixels turned on their side
with EXIF orientation 6, JPEG quality 92; the figure includes decoding them upright at reduced size
(`vision.read.photo`). Target (issue 35): 150 ms or less.

Photos: any folder of JPEGs, by default the held-out photos (datasets/synth-heldout/images/val,
`datasets/README.md`); where that set is not rendered (a fresh clone), 30 photos are rendered first
with its seed (9001) into a temporary folder. Each of the first 30 is read once after a warm-up; the
figure is the median, with the detector (the second look and the box refiner included) and
half-classifier shares, how many photos were looked at again closer, and how many read again
turned to face the camera (`vision.read.slant`). Target (the reader issue): 60 ms or less
on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.read import photo as loader  # noqa: E402
from vision.read.reader import DEFAULT_DETECTOR, DEFAULT_REFINER, SLANT, ZOOM, Reader  # noqa: E402

HELDOUT = ROOT / "datasets" / "synth-heldout" / "images" / "val"
HELDOUT_SEED = 9001


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=Path, default=None, help="a folder of JPEGs (default: the held-out set)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads (default: all cores)")
    parser.add_argument(
        "--detector", type=Path, default=DEFAULT_DETECTOR, help="an exported detector (default: the bundled one)"
    )
    parser.add_argument(
        "--size", type=int, default=None, help="the long side photos are read at (default: the detector's own)"
    )
    parser.add_argument("--no-zoom", action="store_true", help="never read a photo again closer (`vision.read.zoom`)")
    parser.add_argument(
        "--no-slant",
        action="store_true",
        help="never read a photo again turned to face the camera (`vision.read.slant`)",
    )
    parser.add_argument(
        "--refiner", type=Path, default=DEFAULT_REFINER, help="a box refiner (default: the bundled one)"
    )
    parser.add_argument("--no-refine", action="store_true", help="read the boxes as found (`vision.read.refine`)")
    parser.add_argument(
        "--phone",
        type=int,
        nargs="?",
        const=10,
        default=None,
        help="read N rendered 12-megapixel JPEGs with EXIF orientation instead (default 10)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.phone:
        with tempfile.TemporaryDirectory() as rendered:
            return measure(args, render_phone(Path(rendered), args.phone))
    if args.photos is None and not any(HELDOUT.glob("*.jpg")):
        with tempfile.TemporaryDirectory() as rendered:
            return measure(args, render_heldout(Path(rendered), args.runs))
    photos = sorted((args.photos or HELDOUT).glob("*.jpg"))[: args.runs]
    if not photos:
        parser.error(f"no JPEG photos in {args.photos}")
    return measure(args, photos)


def render_heldout(folder: Path, count: int) -> list[Path]:
    """`count` photos rendered with the held-out set's seed (the generator keeps one as a training photo)."""
    from vision.synth.dataset import generate_dataset

    print(f"{HELDOUT} is not rendered: rendering {count} photos with its seed into a temporary folder", file=sys.stderr)
    generate_dataset(folder, count, seed=HELDOUT_SEED, val_fraction=1.0, progress=False)
    return sorted((folder / "images").glob("*/*.jpg"))


PHONE_SIZE = (4080, 3072)


def render_phone(folder: Path, count: int) -> list[Path]:
    """`count` held-out scenes as a phone's 12-megapixel JPEGs, stored sideways with EXIF orientation 6."""
    import cv2
    import numpy as np

    from vision.synth import make_sample

    print(f"rendering {count} photos at {PHONE_SIZE[0]}x{PHONE_SIZE[1]} (a few seconds each)", file=sys.stderr)
    paths = []
    for index in range(count):
        upright = cv2.imdecode(
            np.frombuffer(make_sample(HELDOUT_SEED, index, *PHONE_SIZE).jpeg, np.uint8), cv2.IMREAD_COLOR
        )
        # the sensor's pixels: orientation 6 says "turn 90 degrees clockwise to view"
        stored = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)
        data = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
        path = folder / f"phone-{index:03d}.jpg"
        path.write_bytes(data[:2] + exif_orientation(6) + data[2:])
        paths.append(path)
    return paths


def exif_orientation(value: int) -> bytes:
    """A JPEG APP1 segment whose EXIF block holds the orientation tag alone."""
    import struct

    tiff = (
        b"II"
        + struct.pack("<HI", 42, 8)
        + struct.pack("<H", 1)
        + struct.pack("<HHIHH", 0x0112, 3, 1, value, 0)
        + struct.pack("<I", 0)
    )
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def measure(args: argparse.Namespace, photos: list[Path]) -> int:
    reader = Reader(
        args.detector,
        threads=args.threads,
        side=args.size,
        zoom=None if args.no_zoom else ZOOM,
        slant=None if args.no_slant else SLANT,
        refiner=None if args.no_refine else args.refiner,
    )
    reader.read_path(photos[0])  # warm-up
    total, detect, halves, tiles, zoomed, turned = [], [], [], [], 0, 0
    for photo in photos:
        start = time.perf_counter()
        loaded = loader.load(photo)  # upright, a large JPEG decoded at reduced size
        reading = reader.read(loaded.image, str(photo))
        total.append(1000 * (time.perf_counter() - start))
        detect.append(reading.timings_ms["detect"])
        halves.append(reading.timings_ms["halves"])
        tiles.append(len(reading.tiles))
        zoomed += "zoom" in reading.timings_ms
        turned += "slant" in reading.timings_ms
    figures = {
        "photos": len(photos),
        "size": f"{loaded.width}x{loaded.height}",
        "decoded_at": f"{reading.width}x{reading.height}",
        "read_at": "x".join(str(v) for v in reversed(reader.detector.input_size(reading.height, reading.width))),
        "median_ms": round(statistics.median(total), 1),
        "detect_median_ms": round(statistics.median(detect), 1),
        "halves_median_ms": round(statistics.median(halves), 1),
        "tiles_median": statistics.median(tiles),
        "looked_again": zoomed,
        "turned": turned,
        "slowest_ms": round(max(total), 1),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{figures['photos']} photos of {figures['size']} decoded at {figures['decoded_at']}, read at {figures['read_at']}: whole read {figures['median_ms']} ms median "
            f"(detector {figures['detect_median_ms']} ms, halves {figures['halves_median_ms']} ms; "
            f"{figures['tiles_median']} tiles per photo; {zoomed} looked at again closer, {turned} turned; slowest {figures['slowest_ms']} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
