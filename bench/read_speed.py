"""How long the whole read of a 1280x960 photo takes: decode, detect, cut and read the halves, settle.

    .venv/bin/python bench/read_speed.py [--photos DIR] [--runs 30] [--threads N] [--detector F] [--json]

Photos: the validation photos of a `spinner dataset synth` folder (default datasets/synth-v1),
or any folder of JPEGs. Each of the first 30 is read once after a warm-up; the figure is the
median, with the detector and half-classifier shares. Target (the reader issue): 60 ms or less
on this 2-core machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.reader import DEFAULT_DETECTOR, Reader, load_photo  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=Path, default=ROOT / "datasets" / "synth-v1" / "images" / "val")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads (default: all cores)")
    parser.add_argument("--detector", type=Path, default=DEFAULT_DETECTOR, help="an exported detector (default: the bundled one)")
    parser.add_argument("--size", type=int, default=None, help="the long side photos are read at (default: the detector's own)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    photos = sorted(args.photos.glob("*.jpg"))[: args.runs]
    if not photos:
        parser.error(f"no JPEG photos in {args.photos}")
    reader = Reader(args.detector, threads=args.threads, side=args.size)
    reader.read_path(photos[0])  # warm-up
    total, detect, halves, tiles = [], [], [], []
    for photo in photos:
        start = time.perf_counter()
        reading = reader.read(load_photo(photo), str(photo))
        total.append(1000 * (time.perf_counter() - start))
        detect.append(reading.timings_ms["detect"])
        halves.append(reading.timings_ms["halves"])
        tiles.append(len(reading.tiles))
    figures = {
        "photos": len(photos),
        "size": f"{reading.width}x{reading.height}",
        "read_at": "x".join(str(v) for v in reversed(reader.detector.input_size(reading.height, reading.width))),
        "median_ms": round(statistics.median(total), 1),
        "detect_median_ms": round(statistics.median(detect), 1),
        "halves_median_ms": round(statistics.median(halves), 1),
        "tiles_median": statistics.median(tiles),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{figures['photos']} photos of {figures['size']} read at {figures['read_at']}: whole read {figures['median_ms']} ms median "
              f"(detector {figures['detect_median_ms']} ms, halves {figures['halves_median_ms']} ms; "
              f"{figures['tiles_median']} tiles per photo)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
