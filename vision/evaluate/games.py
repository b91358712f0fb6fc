"""How well `spinner watch` follows a game: synthetic game videos against their true records.

Each video is followed frame by frame. Every true play is counted once:
- right: the follower played it by itself, the same as the truth;
- asked: the follower asked a person; the truth answers as the person would, with the plays
  lying in the asked frame since the last settled one, and the follower goes on;
- (dismissed, not a play: an ask where nothing was played, a tile the camera saw that is no
  play; the person answers "nothing", a tap);
- wrong: the follower played something else by itself (on a clean video this must never happen),
  counted apart as *wrong seat* (the tile and end are the truth's, the seat is not: after an
  unseen pass or draw) and *wrong tile*. After a wrong tile the rest of that video is not
  followed (its plays are counted as not reached, *missed*); after a wrong seat it is, as the
  page would go on;
- offered wrong seat (a question, answered with the truth, but one a player could answer wrong
  without noticing): the candidate a player would naturally pick, the first that shows the true
  tile (or tiles) on the true end, names another seat than the truth's as if it were known (the
  question neither asks who played it nor marks that candidate's seat open, `Candidate.seats`).
  A player who confirms the tile seen laid without reading the name records it for that seat.
  Questions within a run of plays kept with their seat open are not counted: the run's own
  question says who laid each of them.
Only plays are compared: the truth's passes and draws (dealt films) show in no photo. A person's
answer to an ask holds the true plays since the last one accounted for, each with the draws
before it (as unseen counts); passes are left to the scorer to infer from the seats.
The score must come out as the truth's: the answers of both records are compared play by play.

Two records name the same play even where they name ends differently, as long as the layouts are
mirror images: the lead `3-1` (3 west) and `1-3` (1 west) give the same game with west and east
swapped, and a lone double's two sides, or the spinner's north and south before either is used,
are interchangeable. `EndMap` keeps the correspondence as it is learnt.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from scorer.match import Match, score_record
from vision.follow.follower import Follower
from vision.follow.watch import ReaderLike, Watcher
from vision.synth.video import OracleReader, VideoFrame, game_video

PAIRS = {"west": "east", "east": "west", "north": "south", "south": "north"}


#: What a follower's report counts in each film, and sums over films.
COUNTED = (
    "plays",
    "right",
    "asked",
    "questions",
    "seat_questions",
    "dismissed",
    "wrong",
    "wrong_seat",
    "wrong_tile",
    "offered_wrong_seat",
    "not_reached",
    "passes",
    "draws",
    "after_pass",
    "after_pass_inferred",
    "after_pass_seat_inferred",
    "wrong_draws",
)


@dataclass
class EndMap:
    """Truth's end name -> the follower's, learnt pair by pair (west/east, north/south)."""

    known: dict[str, str] = field(default_factory=dict)

    def lead(self, truth_tile: str, got_tile: str) -> bool:
        a, b = truth_tile.split("-")
        c, d = got_tile.split("-")
        if {a, b} != {c, d}:
            return False
        if a != b:
            swap = (a, b) != (c, d)
            self.known.update({"west": "east" if swap else "west", "east": "west" if swap else "east"})
        return True

    def same(self, truth_end: str | None, got_end: str | None) -> bool:
        if truth_end is None or got_end is None:
            return truth_end == got_end
        if truth_end in self.known:
            return self.known[truth_end] == got_end
        if got_end not in (truth_end, PAIRS[truth_end]):
            return False
        self.known[truth_end] = got_end
        self.known[PAIRS[truth_end]] = PAIRS[got_end]
        return True

    def to_follower(self, truth_end: str, choices: Sequence[str]) -> str:
        if truth_end in self.known:
            return self.known[truth_end]
        end = truth_end if truth_end in choices else PAIRS[truth_end]
        self.known[truth_end], self.known[PAIRS[truth_end]] = end, PAIRS[end]
        return end


def same_play(truth: dict[str, Any], got: dict[str, Any], ends: EndMap) -> bool:
    if truth.get("type") != got.get("type") or truth.get("seat") != got.get("seat"):
        return False
    if "end" not in truth and "end" not in got:
        return ends.lead(truth["tile"], got["tile"])
    a, b = truth["tile"].split("-")
    c, d = got["tile"].split("-")
    return {a, b} == {c, d} and ends.same(truth.get("end"), got.get("end"))


class Film(Protocol):
    """What `follow_video` follows: a synthetic `GameVideo`, or any film of the same shape (the real
    tiles' films of `real_films`): its true record, seed, seating, frames and each state's truth."""

    record: dict[str, Any]
    seed: int
    truths: dict[int, dict[str, Any]]

    @property
    def sides(self) -> tuple[int, ...] | None: ...

    def frames(self) -> Iterator[VideoFrame]: ...


@dataclass
class VideoReport:
    seed: int
    variant: str
    plays: int
    right: int = 0
    asked: int = 0
    #: questions a person answered: each ask, and each run of plays followed with their seat
    #: open (one question for all of them: did anyone pass?)
    questions: int = 0
    #: of the questions, those about who played (a pass no photo shows): "who played 4-5?" and
    #: the one question of a run of plays kept with their seat open (issue 34: at most one a pass
    #: where no arm is seen); the others are the reader's (which tile, which end)
    seat_questions: int = 0
    #: asks answered "nothing was played" (the camera saw a tile that is no play): a tap each
    dismissed: int = 0
    wrong: int = 0
    #: of the wrong plays: the truth's tile on the truth's end, given to another seat
    wrong_seat: int = 0
    #: of the wrong plays: another tile or end
    wrong_tile: int = 0
    #: questions whose natural pick (the first candidate showing the true tiles on the true ends)
    #: names another seat than the truth's as if known: a wrong play for a player who confirms the
    #: tile without reading the name (`offered_wrong_seat`)
    offered_wrong_seat: int = 0
    #: true plays never recorded (not reached)
    not_reached: int = 0
    #: the truth's passes and draws, which no photo shows (dealt films)
    passes: int = 0
    draws: int = 0
    #: true plays laid after a pass (by a seat after the turn seat), and of them those recorded
    #: right with no question (issue 34: at least 95 % where the hands are in view)
    after_pass: int = 0
    after_pass_inferred: int = 0
    #: of the plays after a pass, those whose seat was known with no question about who played:
    #: recorded right unasked, or asked about only for their tile, the question's natural pick
    #: (`natural_pick`) naming the true seat as known. What a question about the tile asks is the
    #: reader's doubt; the pass itself was inferred.
    after_pass_seat_inferred: int = 0
    #: plays before which the record has a seat draw more tiles than it did (a draw no photo
    #: showed is left out, `unseen_draws`; one recorded that did not happen puts counts off)
    wrong_draws: int = 0
    score_equal: bool = False
    frames: int = 0
    reads: int = 0
    asks: list[str] = field(default_factory=list)
    mistakes: list[str] = field(default_factory=list)
    #: each question and each play recorded wrong, as data: the first true play it concerns
    #: (`play`), how many true plays it settled (`plays`), what it was (`what`: asked, run, dismissed,
    #: wrong_seat, wrong_tile) and the follower's reason code and words for it
    notes: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    #: the follower's record at the end (left out of `to_json`)
    record: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in self.__dict__.items() if k != "record"}


def follow_video(
    video: Film,
    reader: ReaderLike | None = None,
    settle: int = 3,
    misread: float = 0.0,
    jitter: float = 0.0,
    seating: bool = False,
    arms: bool = True,
    each_play: bool = False,
) -> VideoReport:
    """Follow one video, answering asks with the truth; compare the record with the truth.

    `seating`: the follower is told where each seat sits (a dealt film's sides), as a table asked
    once at the start; otherwise it learns the seating from the plays. `arms`: False, the arms
    reaching in are not shown to the follower (a folder of photos: who laid a tile is not seen).
    A play whose seat nothing settles is followed as the turn seat's and the run of such plays is
    asked about once (`Follower.run_question`), as `spinner watch --ask` does; `each_play`: asked
    about at once instead, one question a play.

    Without a reader, the frames are read from their truth (`OracleReader`), with `misread` and
    `jitter` imitating a reader's mistakes."""
    started = time.perf_counter()
    all_events = video.record["hands"][0]["events"]
    # each true play, with the events before it since the last play (passes and draws)
    truth_events: list[dict[str, Any]] = []
    before: list[list[dict[str, Any]]] = []
    waiting: list[dict[str, Any]] = []
    for event in all_events:
        if event["type"] == "play":
            truth_events.append(event)
            before.append(waiting)
            waiting = []
        else:
            waiting.append(event)
    report = VideoReport(video.seed, video.record["variant"], len(truth_events))
    report.passes = sum(e["type"] == "pass" for e in all_events)
    report.after_pass = sum(any(e["type"] == "pass" for e in events) for events in before)
    report.draws = sum(e["type"] == "draw" for e in all_events)
    match = Match.new(video.record["variant"], list(video.record["players"]))
    follower = Follower(
        match, leader=video.record["hands"][0]["leader"], seating=video.sides if seating and video.sides else None
    )
    names: dict[str, int] = {}
    views: dict[str, int] = {}  # each frame's truth (`VideoFrame.truth`: its state's, or a happening's)
    reader = reader or OracleReader(video.truths, lambda name: views[name], misread, jitter, video.seed)
    follower.carry_on = follower.ask_runs = not each_play
    follower.runs_first = False  # as `spinner watch --ask`: other questions are asked within a run
    watcher = Watcher(follower, reader, settle=settle, arms=arms)
    ends = EndMap()
    done = 0  # true plays accounted for
    run_from: int | None = None  # the first true play followed with its seat open, still to confirm
    run_why: tuple[str, str] = ("", "")  # the code and words of the play that opened the run
    stopped = False

    def settle_run() -> None:
        """The person answers the run question: the true seat of each play followed since it began
        (the plays as the follower laid them, their tiles and ends checked already), with the true
        draws before each."""
        nonlocal run_from, stopped
        assert run_from is not None
        followed = [e for e in follower.run_events() if e.get("type") == "play"]
        answer: list[dict[str, Any]] = []
        for k, laid in zip(range(run_from, done), followed, strict=True):
            answer += _unseen(before[k])
            answer.append({**laid, "seat": truth_events[k]["seat"]})
        try:
            watcher.settle_run(answer)
        except Exception as error:  # noqa: BLE001 - a truth the follower cannot take is a mistake
            report.mistakes.append(f"play {run_from}: the truth's seats were refused: {error}")
            stopped = True
        report.questions += 1
        report.seat_questions += 1
        report.asked += done - run_from
        report.notes.append(
            {"play": run_from, "plays": done - run_from, "what": "run", "code": run_why[0], "reason": run_why[1]}
        )
        run_from = None

    unused = False  # the last frame asked the run question before it was looked at

    def frames() -> Any:
        """The film's frames; where the watch ends with plays kept, the question is answered, and
        a last frame not looked at for it is looked at once more."""
        last = None
        for last in video.frames():
            yield last, None
        if run_from is not None and not stopped:
            settle_run()
        if unused and last is not None and not stopped:
            yield last, None
        # the watch ends: a change left unsettled is asked about (`Watcher.end`), as `spinner watch` asks
        ended = watcher.end() if not stopped else None
        while ended is not None and last is not None:
            yield last, ended
            # a play taken up from the last frame's rest, or a question whose answer left some of
            # its tiles (`Follower.leftover`): the rest is looked at in turn, as `spinner watch` does
            more = ended.kind == "play" or (follower.pending is None and bool(follower.leftover))
            ended = watcher.end() if more and not stopped else None

    for frame, ended in frames():
        if ended is None:
            names[frame.name] = frame.state
            views[frame.name] = getattr(frame, "view", None) or frame.state
            outcome = watcher.step(frame.image, frame.name).outcome
        else:
            outcome = ended
        if outcome is None or stopped:
            continue
        unused = outcome.code == "passes_unsure"
        if unused:  # the hand is over as followed: who played the kept plays comes first
            if run_from is not None:
                settle_run()
            continue
        if outcome.kind == "play":
            run = follower.open_run()
            for event, where in zip(outcome.events, outcome.where, strict=True):
                if event.get("type") != "play":
                    continue
                if run is not None and where >= run:  # followed with its seat open: asked later
                    if done < len(truth_events) and same_play(
                        {**truth_events[done], "seat": event["seat"]}, event, ends
                    ):
                        if run_from is None:
                            run_from, run_why = done, (outcome.code, outcome.reason)
                        done += 1
                        continue
                    report.wrong += 1
                    report.wrong_tile += 1
                    report.mistakes.append(
                        f"play {done}: truth {truth_events[done] if done < len(truth_events) else None}, followed {event}"
                    )
                    report.notes.append(_wrong_note(done, "wrong_tile", outcome, truth_events, event))
                    stopped = True
                    break
                if done < len(truth_events) and same_play(truth_events[done], event, ends):
                    report.right += 1
                    passed = any(e["type"] == "pass" for e in before[done])
                    report.after_pass_inferred += passed
                    report.after_pass_seat_inferred += passed
                    done += 1
                    continue
                want = truth_events[done] if done < len(truth_events) else None
                report.wrong += 1
                report.mistakes.append(f"play {done}: truth {want}, followed {event}")
                if want is not None and same_play({**want, "seat": event.get("seat")}, event, ends):
                    report.wrong_seat += 1  # the right tile: the record goes on, with its seat wrong
                    report.notes.append(_wrong_note(done, "wrong_seat", outcome, truth_events, event))
                    done += 1
                    continue
                report.wrong_tile += 1
                report.notes.append(_wrong_note(done, "wrong_tile", outcome, truth_events, event))
                stopped = True
                break
        elif outcome.kind == "ask":
            report.asks.append(f"play {done}: {outcome.reason}")
            # the person at the table says what was played since the last settled move: the
            # plays lying in the asked frame (none where the camera saw a tile that is not a play)
            shown = names.get(outcome.frame, frame.state)
            if run_from is None:
                known = seats_offered(outcome, truth_events[done:shown], ends)
                report.after_pass_seat_inferred += sum(
                    right
                    for k, right in zip(range(done, shown), known, strict=False)
                    if any(e["type"] == "pass" for e in before[k])
                )
            if run_from is None and offered_wrong_seat(outcome, truth_events[done:shown], ends):
                report.offered_wrong_seat += 1
                report.notes.append(
                    {
                        "play": done,
                        "plays": max(0, shown - done),
                        "what": "offered_wrong_seat",
                        "code": outcome.code,
                        "reason": outcome.reason,
                        "offered": [c.event for c in outcome.candidates[0]] if outcome.candidates else [],
                    }
                )
            answer = []
            seat = follower.hand.turn
            for k in range(done, shown):
                said = _in_follower_terms(truth_events[k], follower, ends)
                if run_from is None:
                    answer += _unseen(before[k])
                elif seat is not None:  # within a run: the seats as followed (the run's answer says who)
                    said = {**said, "seat": seat}
                    seat = follower.hand.next_seat(seat)
                answer.append(said)
            try:
                watcher.confirm(answer)
            except Exception as error:  # noqa: BLE001 - a truth the follower cannot take is a mistake
                report.mistakes.append(f"play {done}: the truth's answer was refused: {error}")
                stopped = True
                continue
            report.questions += 1
            report.seat_questions += outcome.code == "who_played"
            if run_from is None:  # within a run they are counted when it is answered
                report.asked += max(0, shown - done)
            report.dismissed += shown <= done
            report.notes.append(
                {
                    "play": done,
                    "plays": max(0, shown - done),
                    "what": "asked" if shown > done else "dismissed",
                    "code": outcome.code,
                    "reason": outcome.reason,
                    **({"within_run": True} if run_from is not None else {}),
                }
            )
            done = max(done, shown)
    if run_from is not None and not stopped:  # the film is over: the watch asks what it kept
        settle_run()
    report.not_reached = len(truth_events) - done
    report.frames, report.reads = watcher.frames, watcher.reads
    got = report.record = follower.record()
    report.wrong_draws = over_drawn(all_events, got["hands"][0]["events"] if got["hands"] else [])
    report.score_equal = not stopped and done == len(truth_events) and _same_scores(video.record, got)
    report.seconds = time.perf_counter() - started
    return report


#: questions that ask who laid the tile: a player answers them by the seat, not by the tile
SEAT_ASKED = ("who_played", "leader_unknown")


def natural_pick(
    outcome: Any, truth: Sequence[dict[str, Any]], ends: EndMap
) -> tuple[int, list[Any], list[dict[str, Any]]] | None:
    """The candidate a player naturally picks: the first whose plays are true plays in a row
    (`truth`: the true plays the answer holds) in tile and end, whatever their seats, as (where
    in `truth` its plays begin, the candidate, its plays); None where none is. A player confirms
    the tile they saw laid."""
    for seq in outcome.candidates:
        plays = [c.event for c in seq]
        for start in range(len(truth) - len(plays) + 1):
            window = truth[start : start + len(plays)]
            learnt = copy.deepcopy(ends)  # trying a candidate teaches nothing
            if all(same_play({**t, "seat": p.get("seat")}, p, learnt) for t, p in zip(window, plays, strict=True)):
                return start, list(seq), plays
    return None


def _seat_open(candidate: Any) -> bool:
    """Whether a candidate says who laid its tile is open (`Candidate.seats`: the seats that may have)."""
    return len(getattr(candidate, "seats", ()) or ()) >= 2


def offered_wrong_seat(outcome: Any, truth: Sequence[dict[str, Any]], ends: EndMap) -> bool:
    """Whether a question offers the true play under another seat as if that seat were known: one
    of the natural pick's plays names another seat than the truth's and neither the question
    (`SEAT_ASKED`) nor that candidate says the seat is open."""
    if outcome.code in SEAT_ASKED:
        return False
    pick = natural_pick(outcome, truth, ends)
    if pick is None:
        return False
    start, seq, plays = pick
    window = truth[start : start + len(plays)]
    return any(p.get("seat") != t["seat"] and not _seat_open(c) for c, p, t in zip(seq, plays, window, strict=True))


def seats_offered(outcome: Any, truth: Sequence[dict[str, Any]], ends: EndMap) -> list[bool]:
    """For each true play a question holds (`truth`), whether its natural pick names the play's
    true seat as known: the question asks about the tile, not who laid it."""
    known = [False] * len(truth)
    pick = None if outcome.code in SEAT_ASKED else natural_pick(outcome, truth, ends)
    if pick is not None:
        start, seq, plays = pick
        for k, (c, p) in enumerate(zip(seq, plays, strict=True)):
            known[start + k] = p.get("seat") == truth[start + k]["seat"] and not _seat_open(c)
    return known


def _wrong_note(
    done: int, what: str, outcome: Any, truth: list[dict[str, Any]], event: dict[str, Any]
) -> dict[str, Any]:
    """A play recorded differently from the truth with no question: the follower's reason for it."""
    return {
        "play": done,
        "plays": 1,
        "what": what,
        "code": outcome.code,
        "reason": outcome.reason,
        "truth": truth[done] if done < len(truth) else None,
        "followed": event,
    }


def over_drawn(truth: list[dict[str, Any]], got: list[dict[str, Any]]) -> int:
    """The plays (in order, as many as both have) before which `got` records a seat drawing more
    tiles since the play before than `truth` does."""

    def draws_before_each_play(events: list[dict[str, Any]]) -> list[dict[int, int]]:
        out: list[dict[int, int]] = []
        drawn: dict[int, int] = {}
        for event in events:
            if event.get("type") == "draw":
                drawn[event["seat"]] = drawn.get(event["seat"], 0) + int(event.get("count", 1))
            elif event.get("type") == "play":
                out.append(drawn)
                drawn = {}
        return out

    return sum(
        any(count > true.get(seat, 0) for seat, count in recorded.items())
        for true, recorded in zip(draws_before_each_play(truth), draws_before_each_play(got))
    )


def _unseen(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The true draws before a play as a person would tell them: how many each seat took (passes
    are inferred by the scorer from the seat that plays)."""
    out: list[dict[str, Any]] = []
    for event in events:
        if event["type"] != "draw":
            continue
        if out and out[-1]["seat"] == event["seat"]:
            out[-1] = {**out[-1], "count": out[-1]["count"] + 1}
        else:
            out.append({"type": "draw", "seat": event["seat"], "count": 1})
    return out


def _in_follower_terms(event: dict[str, Any], follower: Follower, ends: EndMap) -> dict[str, Any]:
    """A true event with its end named as the follower's layout names it."""
    if "end" not in event:
        ends.lead(event["tile"], event["tile"])
        return dict(event)
    from scorer.tiles import Tile

    choices = list(follower.hand.layout.fits(Tile.parse(event["tile"])))
    return {**event, "end": ends.to_follower(event["end"], choices)}


def as_seen(record: dict[str, Any]) -> dict[str, Any]:
    """A dealt film's true record as the table saw it: no deal (so no end-of-hand pips that the
    follower could not know either), each draw an unseen one."""
    hands = [
        {
            **{k: v for k, v in hand.items() if k != "deal"},
            "events": [
                {"type": "draw", "seat": e["seat"], "count": 1} if e["type"] == "draw" else e for e in hand["events"]
            ],
        }
        for hand in record["hands"]
    ]
    return {**record, "hands": hands}


def _same_scores(truth: dict[str, Any], got: dict[str, Any]) -> bool:
    a, b = score_record(as_seen(truth)), score_record({k: v for k, v in got.items() if k != "pending"})
    plays_a = [(p["seat"], p["count"], p["points"]) for p in a["hands"][0]["plays"]]
    plays_b = [(p["seat"], p["count"], p["points"]) for p in b["hands"][0]["plays"]]
    return plays_a == plays_b and a["totals"] == b["totals"]


def evaluate_videos(
    count: int,
    seed: int = 0,
    width: int = 640,
    height: int = 480,
    reader: ReaderLike | None = None,
    log: Callable[[str], None] | None = None,
    misread: float = 0.0,
    jitter: float = 0.0,
    seating: bool = False,
    arms: bool = True,
    each_play: bool = False,
    **video_options: Any,
) -> dict[str, Any]:
    """Follow `count` synthetic videos (seeds seed, seed+1, ...) and total the figures."""
    reports = []
    for k in range(count):
        video = game_video(seed + k, width, height, **video_options)
        report = follow_video(
            video, reader, misread=misread, jitter=jitter, seating=seating, arms=arms, each_play=each_play
        )
        reports.append(report)
        if log:
            log(
                f"video {seed + k}: {report.variant}, {report.plays} plays: {report.right} right, "
                f"{report.asked} asked in {report.questions} question(s) ({report.seat_questions} who played), {report.dismissed} dismissed, {report.wrong_seat} wrong seat, "
                f"{report.wrong_tile} wrong tile, {report.offered_wrong_seat} offered wrong seat, {report.not_reached} missed, {report.wrong_draws} wrong draws; score {'equal' if report.score_equal else 'DIFFERENT'}; "
                f"{report.reads} reads of {report.frames} frames ({report.seconds:.1f} s)"
            )
    total = {key: sum(getattr(r, key) for r in reports) for key in (*COUNTED, "frames", "reads")}
    return {
        "videos": count,
        "misread": misread,
        "jitter": jitter,
        "seating_given": seating,
        "arms": arms,
        "each_play": each_play,
        **{k: (v.to_json() if hasattr(v, "to_json") else v) for k, v in video_options.items()},
        **total,
        "scores_equal": sum(r.score_equal for r in reports),
        "reports": [r.to_json() for r in reports],
    }


def board_sequence(folder: Path, reader: ReaderLike | None = None) -> dict[str, Any]:
    """The real `ddd-board` photos as a sequence, each game's photos in order.

    For each move (a photo after the first of its game): whether the change test sees a change,
    whether the new tile's two cells lie in the changed regions, and how much of the photo those
    regions cover (a small share: the reader's new tile is checked against a tight place). With a
    reader, also the new tile that `follow.compare` finds there, against the truth.
    """
    import cv2
    import numpy as np

    from vision.evaluate import read_truth
    from vision.evaluate.ddd_board import BoardNotFound, cell_centre, find_grid
    from vision.follow.follower import compare
    from vision.follow.motion import MotionDetector, thumbnail
    from vision.read.reader import load_photo

    truth = read_truth(folder / "truth.json")
    names = sorted(truth)
    moves = seen = located = read_right = 0
    shares: list[float] = []
    notes: list[str] = []
    detector: MotionDetector | None = None
    game = None
    before = None
    for name in names:
        image = load_photo(folder / name)
        if name.split("_")[0] != game:  # a new game: a new table, nothing to compare with
            game = name.split("_")[0]
            detector = MotionDetector(settle=1, frame_size=(image.shape[1], image.shape[0]))
            thumb = thumbnail(image)
            detector.update(thumb)
            detector.accept(thumb)
            before = reader.read(image, name) if reader is not None else None
            continue
        assert detector is not None
        moves += 1
        thumb = thumbnail(image)
        motion = detector.update(thumb)
        detector.accept(thumb)
        if motion.state != "change":
            notes.append(f"{name}: no change seen")
            continue
        seen += 1
        shares.append(sum((r.x1 - r.x0) * (r.y1 - r.y0) for r in motion.regions) / (image.shape[0] * image.shape[1]))
        try:
            to_photo = np.linalg.inv(find_grid(image).to_grid)
        except BoardNotFound as error:
            notes.append(f"{name}: {error}")
            continue
        cells = [cell_centre(h["cell"]) for h in truth[name]["new_tile"]]
        points = cv2.perspectiveTransform(np.asarray([cells], dtype=np.float64), to_photo)[0]
        if all(any(r.contains((float(x), float(y))) for r in motion.regions) for x, y in points):
            located += 1
        else:
            notes.append(f"{name}: the new tile lies outside the changed regions")
        if reader is not None:
            after = reader.read(image, name)
            new = compare(before, after, motion.regions).new
            values = sorted(h["value"] for h in truth[name]["new_tile"])
            got = str(new[0].tile) if new else None
            read_right += int(got == f"{values[0]}-{values[1]}")
            before = after
    share = sorted(shares)[len(shares) // 2] if shares else None
    report: dict[str, Any] = {
        "photos": len(names),
        "moves": moves,
        "change_seen": seen,
        "new_tile_in_region": located,
        "region_share_median": round(share, 4) if share is not None else None,
        "notes": notes[:10],
    }
    if reader is not None:
        report["new_tile_read_right"] = read_right
    return report
