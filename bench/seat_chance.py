"""How well the chance of each seat to have laid a tile (`scorer.chance`) tells passes, and its cost.

    .venv/bin/python bench/seat_chance.py [--hands 300] [--seed 1] [--variants partners,...] [--json]

Random legal matches (`scorer.simulate.simulate_match`: each player plays a random legal tile)
are replayed as a camera with no arm in view sees them: no deal, draws counted but not named,
and no pass (the scorer infers the passes from the seat that plays). At each play that
`scorer.moves.who_played` leaves to more than one seat, `seat_chances` gives the likeliest seat
its chance; the play after a pass is where the turn seat did not lay the tile.

Figures, per variant and in all: plays, the plays the rules leave to several seats
(`pass_possible`), those after a pass; by chance band, the plays, the expected wrong
(the sum of 1 - chance: what a calibrated chance predicts) and the likeliest seat's real
mistakes; for each risk, the plays recorded without a question at 1 - risk and how many of them
wrongly; and the time of one count (ms: median, 99th percentile, most), its cache cleared
before each, so each is a count from nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.chance import _shares, seat_chances  # noqa: E402
from scorer.match import Match  # noqa: E402
from scorer.moves import who_played  # noqa: E402
from scorer.simulate import simulate_match  # noqa: E402
from scorer.tiles import Tile  # noqa: E402
from vision.follow.seats import PASS_RISK  # noqa: E402

VARIANTS = "partners:4,partners-block:4,block:4,block:3,block:2,draw:4,draw:2,all-fives:4"
BANDS = (0.0, 0.5, 0.9, 0.98, 0.99, 0.995, 0.998, 0.999, 1.0)
RISKS = (0.001, 0.002, 0.005, 0.01, 0.02)


def hand_chances(variant: str, players: int, seed: int) -> tuple[list[tuple[float, bool, bool]], list[float]]:
    """(chance of the likeliest seat, it laid the tile, a pass came first) at each play of the
    first hand of one random match that the rules leave to several seats; and each count's ms."""
    record = simulate_match(variant, players, seed, max_hands=1)
    truth = record["hands"][0]
    match = Match.new(variant, list(record["players"]))
    hand = match.start_hand(leader=truth["leader"])
    out: list[tuple[float, bool, bool]] = []
    times: list[float] = []
    passed = False
    for event in truth["events"]:
        if event["type"] == "pass":
            passed = True
            continue
        if event["type"] == "draw":
            match.apply({"type": "draw", "seat": event["seat"], "count": 1})
            continue
        tile = Tile.parse(event["tile"])
        answer = who_played(hand, tile)
        if answer.sure is None and answer.candidates:
            _shares.cache_clear()
            started = time.perf_counter()
            chances = seat_chances(hand, answer)
            times.append(1000 * (time.perf_counter() - started))
            if chances is not None:
                best = max(range(len(chances)), key=chances.__getitem__)
                out.append((chances[best], answer.candidates[best].seat == event["seat"], passed))
        match.apply(event)
        passed = False
    return out, times


def figures(chances: list[tuple[float, bool, bool]], pass_possible: int, plays: int) -> dict[str, Any]:
    bands = {}
    for low, high in zip(BANDS, BANDS[1:], strict=False):
        inside = [(c, ok) for c, ok, _ in chances if low <= c < high or (high == 1.0 and c == 1.0)]
        bands[f"{low}-{high}"] = {
            "plays": len(inside),
            "expected_wrong": round(sum(1 - c for c, _ in inside), 2),
            "wrong": sum(not ok for _, ok in inside),
        }
    return {
        "plays": plays,
        "pass_possible": pass_possible,
        "counted": len(chances),
        "after_pass": sum(after for _, _, after in chances),
        "bands": bands,
        "unasked_wrong_by_risk": {
            risk: [sum(c >= 1 - risk for c, _, _ in chances), sum(c >= 1 - risk and not ok for c, ok, _ in chances)]
            for risk in RISKS
        },
        "expected_wrong_at_pass_risk": round(sum(1 - c for c, _, _ in chances if c >= 1 - PASS_RISK), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default=VARIANTS, help="VARIANT:PLAYERS,...")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    everything: list[tuple[float, bool, bool]] = []
    times: list[float] = []
    report: dict[str, Any] = {}
    total_plays = total_possible = 0
    for item in args.variants.split(","):
        variant, players = item.split(":")
        rows: list[tuple[float, bool, bool]] = []
        plays = possible = 0
        for k in range(args.hands):
            got, ms = hand_chances(variant, int(players), args.seed + k)
            rows += got
            times += ms
            possible += len(ms)
            record = simulate_match(variant, int(players), args.seed + k, max_hands=1)
            plays += sum(e["type"] == "play" for e in record["hands"][0]["events"])
        report[item] = figures(rows, possible, plays)
        everything += rows
        total_plays += plays
        total_possible += possible
        if not args.json:
            print(item, json.dumps(report[item]))
    report["all"] = figures(everything, total_possible, total_plays)
    ordered = sorted(times)
    report["ms"] = {
        "median": round(statistics.median(ordered), 3),
        "p99": round(ordered[int(0.99 * (len(ordered) - 1))], 3),
        "max": round(ordered[-1], 3),
        "counts": len(ordered),
    }
    print(json.dumps(report if args.json else {"all": report["all"], "ms": report["ms"]}))


if __name__ == "__main__":
    main()
