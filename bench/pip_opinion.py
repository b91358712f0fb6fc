"""What the pips' second opinion (`vision.read.pips`) would change: each set read once, its tiles
judged with and without the opinion (the same readings, so tile for tile).

    .venv/bin/python bench/pip_opinion.py [--synthetic DIR] [--styles DIR] [--real DIR] [--limit N]
    .venv/bin/python bench/pip_opinion.py --speed DIR   # the opinion's time per half (10 photos)

Per set: the tiles at a calibrated 0.9 or more and how many of them right, without and with the
opinion; the sure tiles it makes unsure, wrong ones (caught) and right ones (extra questions). The
sets as `spinner eval` reads them (`vision.evaluate.photos`); the real photos measured only.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.evaluate.photos import evaluate_board, evaluate_domibot, evaluate_synthetic  # noqa: E402
from vision.read.calibration import SURE_AT  # noqa: E402
from vision.read.pips import PipCount  # noqa: E402
from vision.read.reader import Reader  # noqa: E402
from vision.read.reading import Reading, TileReading  # noqa: E402


class Both:
    """Wraps a reader: the first pass judges without the opinion and keeps each photo's tiles as
    settled; the second judges those same tiles with it."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.judge = reader.judge
        self.memo: dict[str, tuple[Reading, list[TileReading]]] = {}
        self.settled: list[TileReading] = []
        self.first = True
        #: halves of the tiles read, those the pips said a value for, those that said the read one
        self.halves = {"all": 0, "counted": 0, "agree": 0}
        reader.judge = self._judge  # type: ignore[method-assign]
        self.read = reader.read
        reader.read = self._read  # type: ignore[method-assign]

    def _judge(self, tile: TileReading) -> TileReading:
        self.settled.append(tile)
        if self.first:
            for p, h in zip(tile.pips, tile.halves):
                self.halves["all"] += 1
                self.halves["counted"] += p is not None
                self.halves["agree"] += p == h.value
        return self.judge(replace(tile, pips=(None, None)))

    def _read(self, image: Any, name: str = "") -> Reading:
        if self.first:
            self.settled = []
            reading = self.read(image, name)
            self.memo[name] = (reading, self.settled)
            return reading
        reading, settled = self.memo[name]
        tiles = tuple(sorted((self.judge(t) for t in settled), key=lambda t: (t.center[1], t.center[0])))
        return replace(reading, tiles=tiles)


def measure(both: Both, run: Any) -> dict[str, Any]:
    both.memo.clear()
    both.halves = dict.fromkeys(both.halves, 0)
    without: list[tuple[float, bool]] = []
    with_: list[tuple[float, bool]] = []
    both.first = True
    run(without)
    both.first = False
    run(with_)
    assert len(without) == len(with_) and all(a[1] == b[1] for a, b in zip(without, with_))
    calibration = both.reader.calibration
    assert calibration is not None

    def sure(raw: float) -> bool:
        return calibration.calibrated(raw) >= SURE_AT

    out: dict[str, Any] = {"tiles": len(without)}
    for name, pairs in (("without", without), ("with", with_)):
        chosen = [ok for raw, ok in pairs if sure(raw)]
        out[name] = {
            "sure": len(chosen),
            "right": sum(chosen),
            "rate": round(100 * sum(chosen) / len(chosen), 2) if chosen else None,
        }
    turned = [(ok) for (a, ok), (b, _) in zip(without, with_) if sure(a) and not sure(b)]
    right_sure = out["without"]["right"]
    out["caught"] = f"{turned.count(False)} of {out['without']['sure'] - right_sure}"
    out["extra_questions"] = f"{turned.count(True)} of {right_sure}"
    out["extra_share"] = round(100 * turned.count(True) / right_sure, 2) if right_sure else None
    h = both.halves
    out["halves_counted"] = f"{h['counted']} of {h['all']}, {h['agree']} agreeing with the reading"
    return out


def speed(folder: Path) -> None:
    """Microseconds per half (best of 7 passes over the halves of the detector's boxes in the first
    10 photos of `folder`): the opinion (its warp and count), and the classifier's crop beside it."""
    import time

    from vision.read.crops import rectify
    from vision.read.pips import opinion
    from vision.read.reader import load_photo
    from vision.read.reading import split_halves

    reader, how = Reader(), PipCount()
    halves = []
    for path in sorted(folder.glob("*.jpg"))[:10]:
        image = load_photo(path)
        for box in reader.detector.predict(image, conf=0.25, iou=0.35):
            halves += [(image, quad) for quad in split_halves(box.corners())]
    for name, one in (("opinion", lambda i, q: opinion(i, q, how)), ("classifier's crop", lambda i, q: rectify(i, q))):
        times = []
        for _ in range(7):
            started = time.perf_counter()
            for image, quad in halves:
                one(image, quad)
            times.append(1e6 * (time.perf_counter() - started) / len(halves))
        print(f"{name}: {min(times):.1f} us per half (best of 7, {len(halves)} halves)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--synthetic", type=Path, default=None)
    parser.add_argument("--styles", type=Path, default=None)
    parser.add_argument("--real", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--speed", type=Path, default=None, help="a folder of photos to time the opinion on")
    args = parser.parse_args()
    if args.speed is not None:
        speed(args.speed)
        return
    both = Both(Reader(pips=PipCount()))
    reader = both.reader
    report: dict[str, Any] = {}

    def show(name: str, figures: dict[str, Any]) -> None:
        report[name] = figures
        print(name, json.dumps(figures), flush=True)

    if args.synthetic is not None:
        show(
            "synthetic", measure(both, lambda j: evaluate_synthetic(reader, args.synthetic, limit=args.limit, judged=j))
        )
    if args.styles is not None:
        from vision.synth.styles import CONDITIONS

        for condition in CONDITIONS:
            folder = args.styles / condition.name
            if (folder / "truth" / "val").is_dir():
                show(
                    condition.name,
                    measure(both, lambda j, f=folder: evaluate_synthetic(reader, f, limit=args.limit, judged=j)),
                )
    if args.real is not None:
        if (args.real / "ddd-board").is_dir():
            show("ddd-board", measure(both, lambda j: evaluate_board(reader, args.real / "ddd-board", j)))
        if (args.real / "domibot-crops").is_dir():
            show(
                "domibot-crops",
                measure(both, lambda j: evaluate_domibot(reader, args.real / "domibot-crops", args.limit, j)),
            )
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
