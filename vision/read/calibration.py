"""How sure the reader may say it is: a tile's confidence mapped to how often such tiles are right.

A tile's raw confidence (box confidence times its halves' likelihood, `reading.settle`) orders
tiles well but is not a probability: on real photos of ivory tiles every laid tile was read
right at about 0.8 (issue 35). The map here is fitted on held-out synthetic photos (never the
real ones, which are for measuring only): each read tile judged right (on a true tile, as that
tile) or wrong (another tile, a second box on one tile, or no face-up tile at all), and

- `knots`: the rate of right tiles as a non-decreasing function of the raw confidence
  (isotonic regression, pool-adjacent-violators), interpolated between knots: `calibrated`;
- `sure_from`: the least raw confidence from which the tiles at or above it were right at least
  `SURE_RATE` of the time (the lower end of a 95 % Wilson interval, so a few hundred right tiles
  alone do not make it): below it a tile is `unsure`, and the page and `spinner watch` ask
  about it rather than score it. `calibrated` is scaled so that `sure_from` maps to `SURE_AT`:
  "a tile at 0.9 or more is right at least 99.5 % of the time".

Fitted by `spinner eval --calibrate` into `models/calibration.json`, or from the tiles a
`spinner eval --save-judged` file holds (`python -m vision.read.calibration FILE --fit OUT`;
docs/styles.md, "Sureness"). Pure functions and a dataclass.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: the right rate a tile not marked unsure must reach (issue 35)
SURE_RATE = 0.995
#: the calibrated confidence a tile at `sure_from` gets
SURE_AT = 0.9
#: the bins of the reliability table (raw or calibrated confidence)
BINS = (0.0, 0.3, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 1.0001)


@dataclass(frozen=True, slots=True)
class Calibration:
    """The fitted map: raw confidence -> calibrated, and the raw line under which a tile is unsure."""

    knots: tuple[tuple[float, float], ...]  # (raw, right rate), raw increasing
    sure_from: float
    fitted_on: str = ""

    def rate(self, raw: float) -> float:
        """How often tiles at this raw confidence were right (isotonic, interpolated)."""
        xs, ys = zip(*self.knots)
        return float(np.interp(raw, xs, ys))

    def calibrated(self, raw: float) -> float:
        """The tile's confidence as the player sees it: its right rate, scaled so that every tile
        from `sure_from` up is at least `SURE_AT` and every tile under it less."""
        rate = self.rate(raw)
        edge = self.rate(self.sure_from)
        if raw >= self.sure_from:
            return SURE_AT + (1 - SURE_AT) * (rate - edge) / max(1e-9, 1 - edge) if edge < 1 else SURE_AT
        return min(rate * SURE_AT / max(edge, 1e-9), SURE_AT - 1e-4)

    def unsure(self, raw: float) -> bool:
        return raw < self.sure_from

    def to_json(self) -> dict[str, Any]:
        return {
            "knots": [[round(x, 5), round(y, 5)] for x, y in self.knots],
            "sure_from": round(self.sure_from, 5),
            "sure_rate": SURE_RATE,
            "sure_at": SURE_AT,
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        return cls(
            tuple((float(x), float(y)) for x, y in data["knots"]),
            float(data["sure_from"]),
            str(data.get("fitted_on", "")),
        )

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        return cls.from_json(json.loads(Path(path).read_text()))


def isotonic(judged: Sequence[tuple[float, bool]]) -> tuple[tuple[float, float], ...]:
    """Pool-adjacent-violators: the non-decreasing step function of raw confidence that fits the
    right (1) and wrong (0) tiles best, as (raw, rate) knots at each block's mean confidence."""
    if not judged:
        return ((0.0, 0.0), (1.0, 1.0))
    order = sorted(judged)
    blocks: list[list[float]] = []  # [sum of raw, sum of right, count]
    for raw, right in order:
        blocks.append([raw, float(right), 1.0])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1] = [a + b for a, b in zip(blocks[-1], last)]
    # each block's rate with one right and one wrong tile added (Laplace): a block of 1,400 right
    # tiles and none wrong says 99.9 %, not a certainty; the running maximum keeps it monotone
    knots, top = [], 0.0
    for s, r, n in blocks:
        top = max(top, (r + 1) / (n + 2))
        knots.append((s / n, top))
    # the ends pinned at 0 and 1 so that `rate` is defined everywhere
    if knots[0][0] > 0:
        knots.insert(0, (0.0, knots[0][1]))
    if knots[-1][0] < 1:
        knots.append((1.0, knots[-1][1]))
    return tuple(knots)


def wilson_low(right: int, count: int, z: float = 1.96) -> float:
    """The lower end of the Wilson score interval of a rate `right / count`."""
    if count == 0:
        return 0.0
    p = right / count
    centre = p + z * z / (2 * count)
    spread = z * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count))
    return (centre - spread) / (1 + z * z / count)


def sure_line(judged: Sequence[tuple[float, bool]], rate: float = SURE_RATE) -> float:
    """The least raw confidence from which the tiles at or above it are right at least `rate`
    of the time (Wilson's lower end); 1.0 (every tile unsure) where no line reaches it."""
    order = sorted(judged, key=lambda item: -item[0])
    best = 1.0
    right = 0
    for count, (raw, ok) in enumerate(order, start=1):
        right += int(ok)
        if wilson_low(right, count) >= rate:
            best = raw
    return best


def fit(judged: Sequence[tuple[float, bool]], fitted_on: str = "") -> Calibration:
    return Calibration(isotonic(judged), sure_line(judged), fitted_on)


def reliability(
    judged: Sequence[tuple[float, bool]], value=lambda raw: raw, bins: Sequence[float] = BINS
) -> list[dict[str, Any]]:
    """The reliability table: for each bin of (calibrated, by `value`) confidence, how many tiles
    and how many of them right."""
    rows = []
    values = np.asarray([value(raw) for raw, _ in judged], dtype=np.float64)
    right = np.asarray([ok for _, ok in judged], dtype=bool)
    for lo, hi in zip(bins[:-1], bins[1:]):
        inside = (values >= lo) & (values < hi)
        count = int(inside.sum())
        rows.append(
            {
                "from": lo,
                "to": min(hi, 1.0),
                "tiles": count,
                "right": int(right[inside].sum()),
                "rate": round(float(right[inside].mean()), 4) if count else None,
            }
        )
    return rows


def at_least(judged: Sequence[tuple[float, bool]], line: float, value=lambda raw: raw) -> dict[str, Any]:
    """How the tiles at or above `line` (by `value`) fared: the figure the issue's target names."""
    chosen = [ok for raw, ok in judged if value(raw) >= line]
    return {
        "line": line,
        "tiles": len(chosen),
        "right": int(sum(chosen)),
        "rate": round(sum(chosen) / len(chosen), 5) if chosen else None,
        "share_of_tiles": round(len(chosen) / len(judged), 4) if judged else None,
    }


def main(argv: list[str] | None = None) -> int:
    """`python -m vision.read.calibration JUDGED.json [--calibration F]`: the reliability table of
    each set in a `spinner eval --save-judged` file, by calibrated confidence, and the tiles at 0.9
    or more."""
    import argparse

    from vision.read.models import DEFAULT_CALIBRATION

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("judged", type=Path)
    parser.add_argument("--calibration", type=Path, default=DEFAULT_CALIBRATION)
    parser.add_argument(
        "--fit", type=Path, default=None, help="first fit a calibration on the file's --set and write it here"
    )
    parser.add_argument("--set", default="synthetic", help="the set --fit fits on")
    parser.add_argument("--fitted-on", default="", help="what --fit says it was fitted on")
    args = parser.parse_args(argv)
    sets = json.loads(args.judged.read_text())
    if args.fit is not None:
        fitted = fit([(float(c), bool(r)) for c, r in sets[args.set]], args.fitted_on)
        args.fit.write_text(json.dumps(fitted.to_json(), indent=1) + "\n")
        args.calibration = args.fit
    calibration = Calibration.load(args.calibration)
    sets["all"] = [pair for pairs in sets.values() for pair in pairs]
    print(
        "| set | tiles | at 0.9 or more | right there | "
        + " | ".join(f"{lo:g}-{min(hi, 1):g}" for lo, hi in zip(BINS[:-1], BINS[1:]))
        + " |"
    )
    print("|---|---:|---:|---:|" + "---:|" * (len(BINS) - 1))
    for name, pairs in sets.items():
        judged = [(float(c), bool(r)) for c, r in pairs]
        top = at_least(judged, SURE_AT, calibration.calibrated)
        cells = [
            f"{r['right']}/{r['tiles']}" if r["tiles"] else "-" for r in reliability(judged, calibration.calibrated)
        ]
        rate = "-" if top["rate"] is None else f"{100 * top['rate']:.2f} %"
        print(f"| {name} | {len(judged)} | {top['tiles']} | {rate} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
