"""How long `spinner watch` takes from a frame to an updated score, at 1280x960.

    .venv/bin/python bench/watch_speed.py [--seed 0] [--games 2] [--detector PATH] [--oracle] [--json]

A synthetic game (`vision.synth.video`, 1280x960, arms over the table, light drift, shake) is
rendered first (not timed); then every frame goes through `Watcher.step`, the whole step (thumbnail,
stillness, and on a changed frame: the reader, the follower ranking the legal moves, the scorer
applying the play). Figures, each a median over the game's frames of that kind:

- skipped: a frame that is moving or still and unchanged (no model run);
- changed: a settled frame that changed (a move): the step to the updated score, with the
  ONNX reader (models/detector.onnx and halves.onnx, or --detector);
- follower: the changed step less the reader's own time (what following adds to reading);
- with --oracle, the reader is the frame's truth instead (no model: the pipeline's own cost).

Target (the watch issue): changed step under 150 ms median, skipped frames cheap.
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

from scorer.match import Match  # noqa: E402
from vision.follow.follower import Follower  # noqa: E402
from vision.follow.watch import Watcher  # noqa: E402
from vision.read.reader import DEFAULT_DETECTOR, DEFAULT_HALVES  # noqa: E402
from vision.synth.video import OracleReader, game_video  # noqa: E402


class Timed:
    """Wraps a reader and keeps the time of each read, so the follower's share can be told apart."""

    def __init__(self, reader: object) -> None:
        self.reader = reader
        self.last_ms = 0.0

    def read(self, image, name=""):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        reading = self.reader.read(image, name)  # type: ignore[attr-defined]
        self.last_ms = 1000 * (time.perf_counter() - start)
        return reading


def run(seed: int, games: int, oracle: bool, detector: str, halves: str, threads: int | None) -> dict[str, object]:
    skipped: list[float] = []
    changed: list[float] = []
    follower_ms: list[float] = []
    onnx = None
    if not oracle:
        from vision.read.reader import FOLLOWING_SLANT, Reader

        onnx = Reader(detector, halves, threads=threads, slant=FOLLOWING_SLANT)
    for game in range(games):
        video = game_video(seed + game, 1280, 960)
        frames = list(video.frames())  # rendered before timing
        names = {f.name: f.state for f in frames}
        base = OracleReader(video.truths, names.__getitem__) if oracle else onnx
        reader = Timed(base)
        reader.read(frames[0].image, frames[0].name)  # warm-up
        follower = Follower(Match.new(video.record["variant"], list(video.record["players"])), leader=0)
        watcher = Watcher(follower, reader)
        for frame in frames:
            step = watcher.step(frame.image, frame.name)
            if step.motion.state == "change":
                changed.append(step.ms)
                follower_ms.append(step.ms - reader.last_ms)
            else:
                skipped.append(step.ms)
    return {
        "size": "1280x960",
        "reader": "oracle (truth)" if oracle else f"onnx ({Path(detector).name})",
        "frames": len(skipped) + len(changed),
        "changed_frames": len(changed),
        "changed_median_ms": round(statistics.median(changed), 1),
        "follower_median_ms": round(statistics.median(follower_ms), 2),
        "skipped_median_ms": round(statistics.median(skipped), 2),
        "target_ms": 150,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--oracle", action="store_true", help="Read frames from their truth (no model).")
    parser.add_argument("--detector", default=str(DEFAULT_DETECTOR))
    parser.add_argument("--halves", default=str(DEFAULT_HALVES))
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.seed, args.games, args.oracle, args.detector, args.halves, args.threads)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{figures['frames']} frames of {figures['size']} ({figures['changed_frames']} changed), reader "
            f"{figures['reader']}: changed frame -> score {figures['changed_median_ms']} ms median "
            f"(following itself {figures['follower_median_ms']} ms); skipped frame {figures['skipped_median_ms']} ms "
            f"median; target {figures['target_ms']} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
