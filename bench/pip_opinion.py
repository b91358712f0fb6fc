"""What the pips' second opinion (`vision.read.pips`) would change: each set read once, its tiles
judged with and without the opinion (the same readings, so tile for tile).

    .venv/bin/python bench/pip_opinion.py [--synthetic DIR] [--styles DIR] [--real DIR] [--limit N]
    .venv/bin/python bench/pip_opinion.py --speed DIR [--photos 30] [--rounds 15]   # ms per photo

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


def speed(folder: Path, photos: int = 30, rounds: int = 15) -> dict[str, Any]:
    """Milliseconds per photo: the whole read of the first `photos` photos of `folder`, without
    and with the opinion, interleaved (each photo read both ways in turn, which first alternating,
    `rounds` times after a warm-up), and the counting's own time within the read with it (wall
    clock and the thread's processor time), per photo and per tile counted."""
    import statistics
    import time

    from vision.read.reader import load_photo

    how = PipCount()
    reader = Reader(pips=how)
    images = [load_photo(path) for path in sorted(folder.glob("*.jpg"))[:photos]]
    own: list[float] = []  # the counting's own time, each read with it
    cpu: list[float] = []  # the same in the thread's processor time (not the time it waited)
    tiles_read: list[int] = []  # the tiles, each read with it
    sure: list[int] = []  # the tiles that would be sure (whose halves are counted)
    count_pips = reader.count_pips
    calibration = reader.calibration
    assert calibration is not None

    def timed(tiles: Any, crops: Any, quads: Any) -> Any:
        started, began = time.perf_counter(), time.thread_time()
        out = count_pips(tiles, crops, quads)
        own.append(1000 * (time.perf_counter() - started))
        cpu.append(1000 * (time.thread_time() - began))
        tiles_read.append(len(tiles))
        sure.append(sum(t.confidence >= calibration.sure_from for t in tiles))
        return out

    reader.count_pips = timed  # type: ignore[method-assign]
    for image in images:  # warm-up
        reader.read(image)
    own.clear()
    cpu.clear()
    tiles_read.clear()
    sure.clear()
    times: dict[bool, list[float]] = {False: [], True: []}
    paired: list[float] = []
    for r in range(rounds):
        for i, image in enumerate(images):
            took = {}
            for on in (False, True) if (r + i) % 2 == 0 else (True, False):
                reader.pips = how if on else None
                started = time.perf_counter()
                reader.read(image)
                took[on] = 1000 * (time.perf_counter() - started)
                times[on].append(took[on])
            paired.append(took[True] - took[False])
    out = {
        "photos": len(images),
        "reads_each_way": len(paired),
        "without_ms": round(statistics.median(times[False]), 2),
        "with_ms": round(statistics.median(times[True]), 2),
        "paired_difference_ms": round(statistics.median(paired), 3),
        "counting_ms": round(statistics.median(own), 3),
        "counting_ms_p90": round(statistics.quantiles(own, n=10)[-1], 3),
        "counting_cpu_ms": round(statistics.median(cpu), 3),
        "tiles": round(statistics.median(tiles_read), 1),
        "sure_tiles": round(statistics.median(sure), 1),
        "counting_ms_per_sure_tile": round(statistics.median(t / max(1, k) for t, k in zip(own, sure)), 4),
        "counting_cpu_ms_per_sure_tile": round(statistics.median(t / max(1, k) for t, k in zip(cpu, sure)), 4),
    }
    print(json.dumps(out))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--synthetic", type=Path, default=None)
    parser.add_argument("--styles", type=Path, default=None)
    parser.add_argument("--real", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--speed", type=Path, default=None, help="a folder of photos to time the opinion on")
    parser.add_argument("--photos", type=int, default=30, help="--speed: how many of the folder's photos")
    parser.add_argument("--rounds", type=int, default=15, help="--speed: how many times each is read each way")
    args = parser.parse_args()
    if args.speed is not None:
        speed(args.speed, args.photos, args.rounds)
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
