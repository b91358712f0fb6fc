"""Random full-information hands scored per second: ours against `dominoes`, same games, same run.

    .venv/bin/python bench/score_speed.py [--games N] [--repeat R] [--seed S] [--json]

N random games of the Puerto Rican block game (4 players, partners, no boneyard, winners take
every pip left) are played by the `dominoes` package (PyPI, 6.1.0) with random players and
converted to our match records (`partners-block`, option `winners_score: all`); neither step is
timed. Then, R times over, each side scores all N games from their deals:

  (a) `dominoes`: a new `Game` with the same four hands, `make_move` for every move; the game's
      `result` (who won, how many points) is its score.
  (b) ours: `scorer.score_record(record)` on each record, the deal parsed and every event checked.

Within each run the two sides alternate every 100 games (the side that goes first swapping), so
that a busy moment of the machine hits both. The figure for each side is the median of its R
runs, in hands per second; the ratio is ours / dominoes of those medians. Both sides must
agree on every game (checked once, untimed) or the benchmark stops. Ours must be at least as
fast: `--check` makes the exit status 1 when it is not.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dominoes  # noqa: E402

from scorer import score_record  # noqa: E402

SIX_SIX = dominoes.Domino(6, 6)
CHUNK = 100  # games timed at a time, alternating between the two sides


def play_games(count: int, seed: int) -> list[tuple[list[list[Any]], int, Any]]:
    """`count` random dominoes games started with 6-6: (initial hands, leader, finished game)."""
    saved = random.getstate()
    random.seed(seed)  # dominoes deals and its random player chooses with the module `random`
    try:
        games = []
        for _ in range(count):
            game = dominoes.Game.new(starting_domino=SIX_SIX)
            dealt = [list(hand) for hand in game.hands]
            dealt[game.starting_player].append(SIX_SIX)
            while game.result is None:
                dominoes.players.random(game)
                game.make_move(*game.valid_moves[0])
            games.append((dealt, game.starting_player, game))
        return games
    finally:
        random.setstate(saved)


def to_record(dealt: list[list[Any]], leader: int, game: Any) -> dict[str, Any]:
    """Our record of one dominoes game (the mapping is explained in tests/test_oracle.py)."""

    def name(d: Any) -> str:
        return f"{d.first}-{d.second}"

    events: list[dict[str, Any]] = []
    seat = leader
    for move in game.moves:
        if move is None:
            events.append({"type": "pass", "seat": seat})
        else:
            event: dict[str, Any] = {"type": "play", "seat": seat, "tile": name(move[0])}
            if events:
                event["end"] = "west" if move[1] else "east"
            events.append(event)
        seat = (seat + 1) % 4
    if not game.result.won:  # dominoes does not write the four passes that block a game
        events += [{"type": "pass", "seat": (seat + k) % 4} for k in range(4)]
    return {
        "format": "domino-record/1",
        "variant": "partners-block",
        "options": {"winners_score": "all"},
        "players": ["Ana", "Ben", "Cruz", "Dee"],
        "hands": [{"leader": leader, "deal": [[name(d) for d in hand] for hand in dealt], "events": events}],
    }


def replay_dominoes(jobs: list[tuple[list[list[Any]], int, list[Any]]]) -> list[Any]:
    """(a): dominoes scores each game by replaying it from the deal."""
    Game, Hand, Board = dominoes.Game, dominoes.Hand, dominoes.Board
    results = []
    for dealt, leader, moves in jobs:
        hands = [Hand(hand) for hand in dealt]
        game = Game(Board(), hands, [], leader, ((SIX_SIX, True),), leader, None)
        for move in moves:
            game.make_move(*move)
        results.append(game.result)
    return results


def score_ours(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """(b): our scorer replays each record."""
    return [score_record(record) for record in records]


def agree(results: list[Any], answers: list[dict[str, Any]]) -> None:
    for i, (result, answer) in enumerate(zip(results, answers)):
        if result.won:
            team = result.player % 2
        else:
            team = None if result.points == 0 else (0 if result.points > 0 else 1)
        bonus = [0, 0]
        if team is not None:
            bonus[team] = abs(result.points)
        hand = answer["hands"][0]
        if (hand["winner"], hand["bonus"]) != (team, bonus):
            raise SystemExit(f"game {i}: dominoes says {result}, ours {hand['winner']} {hand['bonus']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games (one hand each), default 2000")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each side, default 5")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games, default 1")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 if ours is slower than dominoes")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")

    games = play_games(args.games, args.seed)
    records = [to_record(dealt, leader, game) for dealt, leader, game in games]
    jobs = [(dealt, leader, [m for m in game.moves if m is not None]) for dealt, leader, game in games]
    agree(replay_dominoes(jobs), score_ours(records))  # also warms both up

    theirs: list[float] = []
    ours: list[float] = []
    for _ in range(args.repeat):
        # Interleaved in chunks of CHUNK games, the side that goes first swapping each time, so
        # that a busy moment of the machine (a background job) hits both sides alike.
        spent = {"dominoes": 0.0, "ours": 0.0}
        for k, first in enumerate(range(0, args.games, CHUNK)):
            chunk = slice(first, first + CHUNK)
            sides = [("dominoes", replay_dominoes, jobs[chunk]), ("ours", score_ours, records[chunk])]
            for side, score, work in sides if k % 2 == 0 else reversed(sides):
                start = time.perf_counter()
                score(work)
                spent[side] += time.perf_counter() - start
        theirs.append(args.games / spent["dominoes"])
        ours.append(args.games / spent["ours"])
    ratios = sorted(o / t for o, t in zip(ours, theirs, strict=True))

    figures = {
        "games": args.games,
        "repeat": args.repeat,
        "seed": args.seed,
        "blocked": sum(not game.result.won for _, _, game in games),
        "events": sum(len(r["hands"][0]["events"]) for r in records),
        "dominoes_hands_per_s": round(statistics.median(theirs), 1),
        "ours_hands_per_s": round(statistics.median(ours), 1),
        "ratio": round(statistics.median(ours) / statistics.median(theirs), 3),
        "ratio_per_run": [round(r, 3) for r in ratios],
        "python": platform.python_version(),
        "dominoes": metadata.version("dominoes"),
    }
    figures["ours_at_least_as_fast"] = figures["ratio"] >= 1.0
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{args.games} random Puerto Rican block games ({figures['blocked']} blocked), "
            f"median of {args.repeat} runs, full-information hands scored per second:"
        )
        print(f"  dominoes {figures['dominoes_hands_per_s']:>10,.0f} hands/s  (new Game from the deal + make_move)")
        print(f"  ours     {figures['ours_hands_per_s']:>10,.0f} hands/s  (score_record)")
        verdict = "at least as fast" if figures["ours_at_least_as_fast"] else "SLOWER"
        print(f"  ours / dominoes = {figures['ratio']:.2f}: ours is {verdict}")
        print(f"  (each run's ratio: {', '.join(f'{r:.2f}' for r in ratios)})")
    return 1 if args.check and not figures["ours_at_least_as_fast"] else 0


if __name__ == "__main__":
    sys.exit(main())
