"""How long the whole read of a 1280x960 photo takes: decode, detect, cut and read the halves, settle.

    .venv/bin/python bench/read_speed.py [--photos DIR] [--runs 30] [--threads N] [--detector F]
        [--refiner F | --no-refine] [--no-zoom] [--json]

Photos: any folder of JPEGs, by default the held-out photos (datasets/synth-heldout/images/val,
`datasets/README.md`); where that set is not rendered (a fresh clone), 30 photos are rendered first
with its seed (9001) into a temporary folder. Each of the first 30 is read once after a warm-up; the
figure is the median, with the detector (the second look and the box refiner included) and
half-classifier shares, and how many photos were looked at again. Target (the reader issue): 60 ms or less
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

from vision.read.reader import DEFAULT_DETECTOR, DEFAULT_REFINER, ZOOM, Reader, load_photo  # noqa: E402

HELDOUT = ROOT / "datasets" / "synth-heldout" / "images" / "val"
HELDOUT_SEED = 9001


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=Path, default=None, help="a folder of JPEGs (default: the held-out set)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads (default: all cores)")
    parser.add_argument("--detector", type=Path, default=DEFAULT_DETECTOR, help="an exported detector (default: the bundled one)")
    parser.add_argument("--size", type=int, default=None, help="the long side photos are read at (default: the detector's own)")
    parser.add_argument("--no-zoom", action="store_true", help="never read a photo again closer (`vision.read.zoom`)")
    parser.add_argument("--refiner", type=Path, default=DEFAULT_REFINER, help="a box refiner (default: the bundled one)")
    parser.add_argument("--no-refine", action="store_true", help="read the boxes as found (`vision.read.refine`)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
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


def measure(args: argparse.Namespace, photos: list[Path]) -> int:
    reader = Reader(args.detector, threads=args.threads, side=args.size, zoom=None if args.no_zoom else ZOOM,
                    refiner=None if args.no_refine else args.refiner)
    reader.read_path(photos[0])  # warm-up
    total, detect, halves, tiles, zoomed = [], [], [], [], 0
    for photo in photos:
        start = time.perf_counter()
        reading = reader.read(load_photo(photo), str(photo))
        total.append(1000 * (time.perf_counter() - start))
        detect.append(reading.timings_ms["detect"])
        halves.append(reading.timings_ms["halves"])
        tiles.append(len(reading.tiles))
        zoomed += "zoom" in reading.timings_ms
    figures = {
        "photos": len(photos),
        "size": f"{reading.width}x{reading.height}",
        "read_at": "x".join(str(v) for v in reversed(reader.detector.input_size(reading.height, reading.width))),
        "median_ms": round(statistics.median(total), 1),
        "detect_median_ms": round(statistics.median(detect), 1),
        "halves_median_ms": round(statistics.median(halves), 1),
        "tiles_median": statistics.median(tiles),
        "looked_again": zoomed,
        "slowest_ms": round(max(total), 1),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{figures['photos']} photos of {figures['size']} read at {figures['read_at']}: whole read {figures['median_ms']} ms median "
              f"(detector {figures['detect_median_ms']} ms, halves {figures['halves_median_ms']} ms; "
              f"{figures['tiles_median']} tiles per photo; {zoomed} looked at again; slowest {figures['slowest_ms']} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
