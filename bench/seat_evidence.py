"""Who played each tile, on dealt films with passes and draws: the seat from the rules and the arm.

    .venv/bin/python bench/seat_evidence.py [--films 12] [--seed 300] [--size 320x240]
        [--variant any] [--photos] [--given] [--json] [--risk R] [--chances FILE]

This measures the policy that issue 34 asks of the follower, on its own and ahead of it: each
dealt film (`game_video(dealt=...)`: passes and draws as the deal makes them, each seat's arm from
its own side, the boneyard in view) is rendered; its thumbnails go through `seats.ArmWatch`; its
true events go, as a camera would record them, into an observed hand (no deal). For each true play:

1. `scorer.moves.who_played(hand, tile)`: the seats that may have laid it. One seat: recorded, no
   question (the rules leave no choice: the lead, or no pass possible).
2. Otherwise the arm that laid it (`laying_arm`, the last stretch of movement) and the seating give
   a seat with `seat_of_play`, if it is a candidate: recorded, no question.
3. Otherwise, where no sure arm was seen, counting the deals the hand leaves
   (`seats.likeliest_seat`, `scorer.chance`): a seat whose chance is at least 1 - PASS_RISK is
   recorded, no question (`--risk` measures another risk).
4. Otherwise a question (the truth answers it, as a person would).

The tile itself is the truth's (the reader is measured elsewhere). Draws are counted (the boneyard
lies in view) and given to the turn seat, which the rules leave as the only seat that may draw.
The seating is learnt from the plays whose seat is known (steps 1 and 3) with `Seating.learn`, or
given (`--given`: asked once at the start). `--photos`: no arm is seen (a folder of photos).

Figures: plays; pass_possible (plays that the rules leave to more than one seat); after_pass (true plays by a seat after the turn seat: a pass came first);
inferred_after_pass (of those, recorded by the rules or the arm, no question); questions; wrong
(recorded for another seat: must be 0); by_chance (recorded at step 3) and no_chance (plays the
count gives no chance); the likeliest seat's chance where it was wrong (each after a pass) and
where it was right, what each risk would record unasked and how many wrongly, and the count's
time (ms); draws (and draws given to another seat); and the median
time of `ArmWatch.update` per frame (ms; the frame's thumbnail is made anyway by the motion test).
Targets (issue 34): wrong 0; with hands in view at least 95 % of after_pass inferred; with
--photos at most one question per pass.
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

from scorer.chance import seat_chances  # noqa: E402
from scorer.match import Match  # noqa: E402
from scorer.moves import who_played  # noqa: E402
from scorer.tiles import Tile  # noqa: E402
from vision.follow.motion import thumbnail  # noqa: E402
from vision.follow.seats import (  # noqa: E402
    LEAST_SURE,
    PASS_RISK,
    ArmSighting,
    ArmWatch,
    Seating,
    laying_arm,
    likeliest_seat,
    seat_of_play,
)
from vision.synth.video import game_video  # noqa: E402


def follow_seats(
    video: Any, photos: bool, given: bool, verbose: bool = False, risk: float = PASS_RISK
) -> dict[str, Any]:
    record = video.record
    players = len(record["players"])
    truth = record["hands"][0]["events"]
    match = Match.new(record["variant"], list(record["players"]))
    hand = match.start_hand(leader=record["hands"][0]["leader"])
    watch = ArmWatch()
    seating = Seating.given(video.sides) if given else None
    known: list[tuple[Any, int]] = []  # (seat or candidate seats, side) of each play with an arm seen
    out = {
        "plays": 0,
        "after_pass": 0,
        "inferred_after_pass": 0,
        "questions": 0,
        "wrong": 0,
        "passes": 0,
        "draws": 0,
        "draws_wrong": 0,
        "unsure_arms": 0,
        "seatings_learnt": 0,
        "pass_possible": 0,
        "by_chance": 0,
        "no_chance": 0,
    }
    # the chance `scorer.chance` gives the likeliest seat at each play the rules leave to several
    # seats: (chance, whether that seat laid it, whether a pass came first)
    chances: list[tuple[float, bool, bool]] = []
    chance_ms: list[float] = []
    times: list[float] = []
    ends: list[float] = []  # the frames that ended a stretch of movement (the dearest)
    sightings: list[ArmSighting] = []
    current: int | None = None

    deferred: list[tuple[Any, ...]] = []

    def decide(
        k: int,
        event: dict[str, Any],
        answer: Any,
        arm: ArmSighting | None,
        after_pass: bool,
        sure: int | None = None,
        likely: int | None = None,
    ) -> None:
        """Record the play's seat: sure by the rules, from the arm, all but sure by counting the
        deals (`likely`: `likeliest_seat` when the play came), or asked (the truth answers)."""
        seat = sure
        if seat is None:
            evidence = seat_of_play(seating, arm, answer.seats)
            seat = evidence.seat if evidence is not None else None
            if arm is not None and evidence is None:
                out["unsure_arms"] += 1
            if seat is None and likely is not None:
                seat = likely
                out["by_chance"] += 1
                if verbose and seat != event["seat"]:
                    print(f"  event {k} {event}: recorded for seat {seat} by chance, wrongly", file=sys.stderr)
        if seat is None:
            out["questions"] += 1
            if verbose:
                why = (
                    "no arm seen"
                    if arm is None
                    else "no seating yet"
                    if seating is None
                    else (
                        f"arm unsure ({arm.sure:.2f})"
                        if arm.sure < LEAST_SURE
                        else f"the arm's seat {seating.seat_at(arm.side)} is no candidate {answer.seats}"
                    )
                )
                print(f"  event {k} {event}: asked ({why})", file=sys.stderr)
        elif seat != event["seat"]:
            out["wrong"] += 1
        elif after_pass:
            out["inferred_after_pass"] += 1

    def settle(k: int) -> None:
        nonlocal seating, sightings
        event = truth[k]
        if event["type"] == "pass":
            out["passes"] += 1
            return
        if event["type"] == "draw":
            out["draws"] += 1
            out["draws_wrong"] += hand.turn != event["seat"]
            match.apply({"type": "draw", "seat": event["seat"], "count": 1})
            sightings = []
            return
        out["plays"] += 1
        tile = Tile.parse(event["tile"])
        answer = who_played(hand, tile)
        mine = answer.of(event["seat"])
        assert mine is not None, f"the rules rule out the true seat of {event}"
        arm = None if photos else laying_arm(sightings)
        sightings = []
        after_pass = bool(mine.passes)
        out["after_pass"] += after_pass
        out["pass_possible"] += answer.sure is None
        likely = None
        if answer.sure is None:
            started = time.perf_counter()
            odds = seat_chances(hand, answer)
            chance_ms.append(1000 * (time.perf_counter() - started))
            if odds is None:
                out["no_chance"] += 1
            else:
                best = max(range(len(odds)), key=odds.__getitem__)
                chances.append((odds[best], answer.candidates[best].seat == event["seat"], after_pass))
            pick = likeliest_seat(hand, answer, arm, risk)
            likely = pick[0].seat if pick is not None else None
        if answer.sure is not None:
            decide(k, event, answer, arm, after_pass, sure=answer.sure.seat)
        elif seating is None and arm is not None and arm.sure >= LEAST_SURE and not given:
            # no seating yet: the play is kept with its seat unsure, its arm kept as evidence
            deferred.append((k, event, answer, arm, after_pass, None, likely))
        else:
            decide(k, event, answer, arm, after_pass, likely=likely)
        if arm is not None and arm.sure >= LEAST_SURE and not given:
            known.append((answer.sure.seat if answer.sure is not None else answer.seats, arm.side))
            learnt = Seating.learn(players, known)
            if learnt is not None and (seating is None or learnt.sides != seating.sides):
                out["seatings_learnt"] += 1  # the page would show it once to be confirmed
            seating = learnt or seating
            if seating is not None:
                while deferred:
                    decide(*deferred.pop(0))
        for e in mine.events(event):
            match.apply(e)

    settled = 0  # true events settled so far
    stills = 0
    for frame in video.frames():
        thumb = thumbnail(frame.image)
        started = time.perf_counter()
        seen = watch.update(thumb)
        times.append(1000 * (time.perf_counter() - started))
        if seen is not None:
            sightings.append(seen)
            ends.append(times[-1])
        if frame.event is None or frame.event < settled:
            continue  # the empty table, or an arm passing over it after the event was settled
        if frame.event != current:
            current, stills = frame.event, 0
        if frame.arm:
            continue
        stills += 1
        if seen is not None or stills >= min(2, video.still_frames):
            # the event's arm has come and gone: settle it, and the passes before it (no frames)
            while settled <= frame.event:
                settle(settled)
                settled += 1
    while settled < len(truth):
        settle(settled)
        settled += 1
    for item in deferred:  # the film ended before a seating was learnt: each is a question
        decide(*item)
    out["chances"] = chances
    out["chance_ms"] = chance_ms
    out["ms_per_frame"] = statistics.median(times) if times else 0.0
    out["ms_stretch_end"] = statistics.median(ends) if ends else 0.0
    return out


def chance_figures(chances: list[tuple[float, bool, bool]], ms: list[float]) -> dict[str, Any]:
    """What the chances of the likeliest seat were: at the plays where it did not lay the tile
    (each a pass came first), and at those where it did, with and without a pass; what each risk
    would have recorded unasked and how many of those wrongly; and the time one count takes."""
    wrong = sorted(round(c, 4) for c, right, _ in chances if not right)
    right = sorted(c for c, ok, _ in chances if ok)
    right_after_pass = sorted(round(c, 4) for c, ok, after in chances if ok and after)

    def share(q: float) -> float:
        return round(right[min(len(right) - 1, int(q * len(right)))], 4) if right else 0.0

    return {
        "chance_likeliest_wrong": wrong,
        "chance_likeliest_right_after_pass": right_after_pass,
        "chance_likeliest_right_quantiles": {q: share(q) for q in (0.0, 0.05, 0.1, 0.25, 0.5)},
        "unasked_wrong_by_risk": {
            risk: [sum(c >= 1 - risk for c, _, _ in chances), sum(c >= 1 - risk for c, ok, _ in chances if not ok)]
            for risk in (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1)
        },
        "chance_ms_median": round(statistics.median(ms), 3) if ms else 0.0,
        "chance_ms_max": round(max(ms), 3) if ms else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--films", type=int, default=12)
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--size", default="320x240")
    parser.add_argument("--variant", default="any")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--photos", action="store_true", help="no arm seen: a folder of photos")
    parser.add_argument("--given", action="store_true", help="the seating is given at the start")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="why each question was asked (stderr)")
    parser.add_argument("--risk", type=float, default=PASS_RISK, help="PASS_RISK, for measuring others")
    parser.add_argument("--chances", type=Path, help="write each chance (likeliest, it laid it, after a pass) here")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    total: dict[str, Any] = {}
    rows = []
    chances: list[tuple[float, bool, bool]] = []
    chance_ms: list[float] = []
    for k in range(args.films):
        video = game_video(args.seed + k, width, height, players=args.players, dealt=args.variant)
        row = follow_seats(video, args.photos, args.given, args.verbose, args.risk)
        row.update(seed=args.seed + k, variant=video.record["variant"])
        chances += row.pop("chances")
        chance_ms += row.pop("chance_ms")
        rows.append(row)
        for key, value in row.items():
            if isinstance(value, (int, float)) and key not in ("seed", "ms_per_frame", "ms_stretch_end"):
                total[key] = total.get(key, 0) + value
        if not args.json:
            print(json.dumps(row))
    total["ms_per_frame_median"] = round(statistics.median(r["ms_per_frame"] for r in rows), 3)
    total["ms_stretch_end_median"] = round(statistics.median(r["ms_stretch_end"] for r in rows), 3)
    total["films"] = args.films
    total.update(chance_figures(chances, chance_ms))
    if args.chances:
        args.chances.write_text(json.dumps(chances))
    print(json.dumps({"total": total, "films": rows} if args.json else total))


if __name__ == "__main__":
    main()
