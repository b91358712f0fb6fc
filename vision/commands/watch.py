"""`spinner watch` (follow a game from a camera, a video or a folder of photos) and
`spinner watch-eval` (follow synthetic game videos and count moves right, asked and wrong)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from scorer.variants import VARIANTS
from vision.commands.read import LAYOUT_VARIANTS, named_failures, writable
from vision.read.reader import DEFAULT_DETECTOR, DEFAULT_HALVES
from vision.synth.commands import SEED, SHAKE, frame_size

#: the most players any variant seats (`scorer.variants`)
MOST_PLAYERS = max(n for variant in VARIANTS.values() for n in variant.players)


def _players(_ctx: click.Context, _param: click.Parameter, value: str) -> list[str]:
    """--players: the names in seat order, or P1, P2... for a count."""
    if value.isdecimal():
        # counted before any name is made: a billion players were a billion names, then refused
        if len(value.lstrip("0")) > len(str(MOST_PLAYERS)) or int(value) > MOST_PLAYERS:
            many = value if len(value) <= 12 else f"{len(value)}-digit"
            raise click.BadParameter(f"{many} players: no game here seats more than {MOST_PLAYERS}")
        return [f"P{k + 1}" for k in range(int(value))]
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise click.BadParameter("give the players' names in seat order, comma-separated, or how many there are")
    seen: set[str] = set()
    for name in names:
        # one name, one seat: the totals are kept by name, so two of one name were summed as one
        if name.casefold() in seen:
            raise click.BadParameter(f"lists player {name!r} twice: give each seat its own name")
        seen.add(name.casefold())
    return names


def _options(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        try:
            out[name] = json.loads(text)
        except (ValueError, RecursionError):  # not JSON (a digit string past 4,300 digits too): the text
            out[name] = text
    return out


def _describe(event: dict[str, Any], players: list[str]) -> str:
    who = players[event["seat"]] if "seat" in event else ""
    if event["type"] == "play":
        where = f" on {event['end']}" if "end" in event else " (lead)"
        return f"{who} plays {event['tile']}{where}"
    return f"{who} {event['type']}"


def _offered(candidate: Any, players: list[str]) -> str:
    """A question's candidate in words: its seat as "Ana or Ben" where no evidence says which
    (`Candidate.seats`: the play's seat is asked next), never the stand-in alone."""
    if not candidate.seat_open:
        return _describe(candidate.event, players)
    event = candidate.event
    where = f" on {event['end']}" if "end" in event else " (lead)"
    return f"({' or '.join(players[s] for s in candidate.seats)}?) plays {event['tile']}{where}"


def _seating(text: str | None, players: int) -> list[int] | None:
    """`--seating`: side names in seat order, as picture sides (0 top, 1 right, 2 bottom, 3 left)."""
    if text is None:
        return None
    from vision.follow.seats import SIDES

    names = [n.strip().lower() for n in text.split(",")]
    unknown = [n for n in names if n not in SIDES]
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r} is no side: top, right, bottom or left", param_hint="--seating")
    if len(names) != players or len(set(names)) != len(names):
        raise click.BadParameter(
            f"give each of the {players} seats its own side, in seat order (e.g. bottom,right,top,left)",
            param_hint="--seating",
        )
    return [SIDES.index(n) for n in names]


def _reveals(pairs: tuple[str, ...]) -> list[tuple[int, Path]]:
    out = []
    for pair in pairs:
        seat, _, photo = pair.partition("=")
        if not seat.strip().isdigit() or not photo:
            raise click.BadParameter(f"{pair!r}: give SEAT=PHOTO, e.g. 1=hand1.jpg", param_hint="--reveal")
        if not Path(photo).is_file():
            raise click.BadParameter(f"{photo}: no such photo", param_hint="--reveal")
        out.append((int(seat), Path(photo)))
    return out


@click.command()
@click.argument("source", required=False, type=click.Path())
@click.option("--camera", type=int, default=None, help="Follow a webcam (its index) instead of a video or folder.")
@click.option("--variant", default="partners", show_default=True, help="The game played (RULES.md).")
@click.option(
    "--players",
    default="4",
    show_default=True,
    callback=_players,
    help="Names in seat order (comma-separated), or how many.",
)
@click.option("--option", "options", multiple=True, help="A house rule option, NAME=VALUE (repeatable).")
@click.option(
    "--leader",
    type=int,
    default=None,
    help="The seat that leads the first hand (0: the first of --players). Left out, where the rules "
    "do not name the seat (the holder of 6-6, a seat the table picks), the lead is asked about.",
)
@click.option(
    "--reveal",
    "reveals",
    multiple=True,
    metavar="SEAT=PHOTO",
    help="End of hand: a photo of this seat's remaining tiles; the reader counts their pips (repeatable).",
)
@click.option(
    "--record", "record_path", type=click.Path(dir_okay=False), default=None, help="Write the match record here (JSON)."
)
@click.option(
    "--evidence", type=click.Path(file_okay=False), default=None, help="Keep each frame that produced an event here."
)
@click.option(
    "--export", "export_path", type=click.Path(dir_okay=False), default=None, help="Zip the record with its evidence."
)
@click.option(
    "--settle",
    type=click.IntRange(min=1),
    default=None,
    help="Still frames before a frame counts as settled [camera and video: 3; a folder of photos: 1, each photo is a still].",
)
@click.option("--detector", type=click.Path(dir_okay=False), default=str(DEFAULT_DETECTOR), show_default=True)
@click.option("--halves", type=click.Path(dir_okay=False), default=str(DEFAULT_HALVES), show_default=True)
@click.option(
    "--truth",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="A `spinner dataset video` folder: read frames from its truth instead of the models (testing).",
)
@click.option(
    "--seating",
    default=None,
    metavar="SIDES",
    help="The side of the picture each seat sits at, in seat order (top, right, bottom, left), e.g. "
    "bottom,right,top,left: the arm that lays a tile then says who played it from the first play "
    "[default: learnt from the first plays].",
)
@click.option(
    "--ask/--no-ask",
    default=None,
    help="Answer each question at the terminal (who played it, which tile) as it comes "
    "[default: when the input is a terminal].",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per outcome, one per line.")
def watch(
    source: str | None,
    camera: int | None,
    variant: str,
    players: list[str],
    options: tuple[str, ...],
    leader: int | None,
    reveals: tuple[str, ...],
    record_path: str | None,
    evidence: str | None,
    export_path: str | None,
    settle: int | None,
    detector: str,
    halves: str,
    truth: str | None,
    seating: str | None,
    ask: bool | None,
    as_json: bool,
) -> None:
    """Follow a game: each settled change of the table becomes a play, checked by the scorer.

    SOURCE is a video file or a folder of photos taken in order; --camera N follows a webcam.
    A move the photo cannot settle is printed as a question ("ask"): at a terminal (--ask) it is
    answered there by number; otherwise it is left out of the record (under "pending") for a
    person to confirm. A play whose seat nothing settles (a pass shows in no photo) is followed on
    as the turn seat's so the layout goes on, and it and every play after it are kept to confirm:
    one question for all of them, "did anyone pass from 4-5 on?", printed once ("ask", then each
    later play "kept"); at a terminal it is asked when the hand is over as followed and when the
    source ends (Enter: no one passed; or the first play laid after a pass, and who laid it);
    otherwise the record stops before the first of them and they are under "pending"
    ("unconfirmed", each open one with its candidate seats). When the hand is over, each --reveal
    photo gives that seat's remaining tiles. The record and the evidence are written even when the source
    fails part way (exit status 1), and with a move still to confirm (exit status 2).
    """
    from scorer.errors import RecordError
    from scorer.match import Match, score_record
    from vision.follow.evidence import EvidenceStore
    from vision.follow.follower import Follower, Outcome
    from vision.follow.sources import FolderSource, SourceError, open_source
    from vision.follow.watch import Watcher
    from vision.read.reader import ReadError, load_photo

    if ask is None:
        ask = sys.stdin.isatty()
    if (source is None) == (camera is None):
        raise click.UsageError("give a video file or folder of photos, or --camera N (one of them)")
    names = players
    shows = _reveals(reveals)
    writable(record_path, "--record")
    writable(export_path, "--export")
    if export_path and Path(export_path).with_suffix("") == Path(export_path):
        raise click.BadParameter(
            f"{export_path}: give the zip a suffix (e.g. {export_path}.zip): its frames are kept in a folder "
            "of the name without it",
            param_hint="--export",
        )
    try:
        match = Match.new(variant, names, _options(options))
    except RecordError as error:
        raise click.UsageError(str(error)) from None
    # checked here, not by its type: the seats are known once --players is read and the variant takes their count
    if leader is not None and not 0 <= leader < len(names):
        raise click.BadParameter(
            f"{leader} is no seat: the {len(names)} seats are 0 to {len(names) - 1}, in the order of --players",
            param_hint="--leader",
        )
    try:
        frames = open_source(camera if camera is not None else source)  # type: ignore[arg-type]
    except SourceError as error:
        raise click.ClickException(str(error)) from None
    if isinstance(frames, FolderSource) and (skipped := frames.skipped_note()):
        click.echo(f"{frames.folder}: NOTE {skipped}", err=True)  # never passed over unsaid
    reader: Any
    if truth is not None:
        from vision.synth.video import OracleReader

        reader = OracleReader.from_folder(truth)
    else:
        from vision.read.reader import FOLLOWING_CONFIDENCE, FOLLOWING_REFINER, FOLLOWING_SLANT, Reader

        try:
            reader = Reader(
                detector,
                halves,
                confidence=FOLLOWING_CONFIDENCE,
                refiner=FOLLOWING_REFINER,
                slant=FOLLOWING_SLANT,
                variant=variant if variant in LAYOUT_VARIANTS else "partners",
            )
        except FileNotFoundError as error:
            raise click.ClickException(f"{error}: train and export the models first (models/README.md)") from None
    follower = Follower(match, leader=leader or 0, seating=_seating(seating, len(names)))
    # the rules may name the first hand's leader; where they name only the tile (6-6) or leave it
    # to the table, the lead is asked about rather than given to seat 0
    follower.leader_known = leader is not None or follower.hand.leader is not None
    # a play whose seat nothing settles is followed on, and the run of them asked about once (at
    # a terminal) or kept to confirm
    follower.carry_on, follower.ask_runs, follower.runs_first = True, ask, False
    store = None
    kept_in = Path(evidence) if evidence else Path(export_path).with_suffix("") if export_path else None
    if kept_in is not None:  # --export alone: the frames are kept beside the zip, in a folder named after it
        try:
            store = EvidenceStore(kept_in)
        except OSError as error:
            raise click.ClickException(
                f"{kept_in}: the evidence cannot be kept there ({error.strerror or error})"
            ) from None
    if settle is None:
        settle = 1 if frames.stills else 3
    watcher = Watcher(follower, reader, store, settle=settle)

    def show(outcome: Outcome, where: str) -> None:
        run = follower.open_run()
        opens = run is not None and outcome.kind == "play" and bool(outcome.where) and outcome.where[0] <= run
        if outcome.kind == "play" and run is not None and not opens:  # one more play of the run
            if as_json:
                click.echo(json.dumps({**outcome.to_json(), "kind": "kept", "followed": True}))
            else:
                for event in outcome.events:
                    click.echo(f"{where}: KEPT {_describe(event, names)} (to confirm with the play asked about)")
        elif as_json and opens:
            click.echo(json.dumps(_kept_to_confirm(outcome)))
        elif as_json:
            click.echo(json.dumps({**outcome.to_json(), "totals": match.totals}))
        elif opens:
            click.echo(f"{where}: ASK {outcome.reason}")  # followed on, not recorded: no totals
        elif outcome.kind == "play":
            for event in outcome.events:
                click.echo(f"{where}: {_describe(event, names)}  -> totals {match.totals}")
        elif outcome.kind == "ask":
            options_text = "; ".join(
                " then ".join(_offered(c, names) for c in seq) + f" ({seq[0].share:.0%})"
                for seq in outcome.candidates[:4]
            )
            click.echo(f"{where}: ASK {outcome.reason}" + (f" - candidates: {options_text}" if options_text else ""))
        else:
            click.echo(f"{where}: {outcome.reason}")

    def answer_here(outcome: Outcome) -> None:
        """A question answered at the terminal: a number picks a candidate, 0 leaves it open."""
        options = [seq for seq in outcome.candidates[:9] if seq]
        for k, seq in enumerate(options, 1):
            click.echo(f"  {k}: " + " then ".join(_offered(c, names) for c in seq), err=as_json)
        pick = click.prompt(
            "  which happened? (0: none of these, it stays to confirm)",
            type=click.IntRange(0, len(options)),
            default=0,
            err=as_json,
        )
        if not pick:
            return
        events = [c.event for c in options[pick - 1]]
        for k, c in enumerate(options[pick - 1]):
            if c.seat_open and outcome.code != "who_played":  # no evidence says who: asked, no seat assumed
                listed = ", ".join(f"{s + 1}: {names[s]}" for s in c.seats)
                said = click.prompt(
                    f"  who played {c.event['tile']}? ({listed}; a pass shows in no photo)",
                    type=click.Choice([str(s + 1) for s in c.seats]),
                    err=as_json,
                )
                events[k] = {**events[k], "seat": int(said) - 1}
        if outcome.code == "leader_unknown":  # the candidates name the tile; the seat is asked
            seat = click.prompt(
                f"  who led? seat number (1 to {len(names)})", type=click.IntRange(1, len(names)), err=as_json
            )
            events = [{**e, "seat": seat - 1} if e.get("type") == "play" and "end" not in e else e for e in events]
        try:
            show(watcher.confirm(events), "answered")
        except (RecordError, ValueError) as error:
            click.echo(f"  not recorded: {error}", err=True)

    def answer_run() -> None:
        """The run question answered at the terminal: the first play laid after a pass and who laid
        it, then the next such play after it, and so on; 0 when there is no other pass."""
        if not follower.unsure_seats:
            return
        events = follower.run_events()
        after = 0  # the plays up to this one are told
        while True:
            plays = [e for e in events if e.get("type") == "play"]
            click.echo(f"did anyone pass from {plays[0]['tile']} on? the plays as followed:", err=as_json)
            for k, event in enumerate(plays, 1):
                click.echo(f"  {k}: {_describe(event, names)}", err=as_json)
            first = click.prompt(
                "  the first play laid after a pass" + (f" after play {after}" if after else "") + " (0: none)",
                type=click.IntRange(0, len(plays)),
                default=0,
                err=as_json,
            )
            if not first:
                break
            if first <= after:
                click.echo(f"  name a play after play {after}", err=as_json)
                continue
            seat = click.prompt(
                f"  who laid {plays[first - 1]['tile']}? seat number (1 to {len(names)})",
                type=click.IntRange(1, len(names)),
                err=as_json,
            )
            if plays[first - 1].get("seat") == seat - 1:  # as the page refuses it: that is no pass
                click.echo(
                    f"  seat {seat} laid {plays[first - 1]['tile']} in turn: no one passed before it", err=as_json
                )
                continue
            events, after = follower.run_with_pass(first - 1, seat - 1, events), first
        try:
            show(watcher.settle_run(events), "answered")
        except (RecordError, ValueError) as error:
            click.echo(f"  not recorded: {error}", err=True)

    def reveal_all() -> None:
        while shows and follower.hand.over:
            seat, photo = shows.pop(0)
            try:
                image = load_photo(photo)
            except ReadError as error:
                raise click.ClickException(str(error)) from None
            show(watcher.reveal(seat, image, photo.name), photo.name)

    def take(image: Any, name: str) -> None:
        outcome = watcher.step(image, name).outcome
        if outcome is not None and outcome.code == "table_start" and outcome.params.get("laid"):
            # a film begun mid-hand: nothing is asked, but the record misses what was laid before
            click.echo(json.dumps(outcome.to_json()) if as_json else f"{name}: NOTE {outcome.reason}")
        if outcome is not None and outcome.kind != "nothing":
            show(outcome, name)
            if outcome.code == "passes_unsure" and ask:
                answer_run()
            elif outcome.kind == "ask" and ask:
                answer_here(outcome)
        reveal_all()

    failed: str | None = None
    last = None
    at = "its first frame"
    try:
        for last in frames:
            at = last.name
            take(last.image, last.name)
            at = f"the frame after {last.name}"
    except SourceError as error:
        failed = str(error)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    except Exception as error:  # unforeseen: what was followed up to it is still written
        why = " ".join(str(error).split())  # OpenCV's messages run over several lines
        failed = f"{at}: could not be followed ({type(error).__name__}: {why})"
    if ask and follower.unsure_seats:
        answer_run()
        if last is not None and failed is None:  # it may have asked before it was looked at
            take(last.image, last.name)
            answer_run()
    ended = watcher.end() if failed is None else None
    while ended is not None:
        # the frames ended with a change unsettled (asked), or with tiles of the last frame left
        # for a next look (taken up from it): never dropped unsaid
        show(ended, last.name if last is not None else "the end")
        if ended.kind == "ask" and ask:
            answer_here(ended)
        more = ended.kind == "play" or (follower.pending is None and bool(follower.leftover))
        ended = watcher.end() if more else None
    if ask and follower.unsure_seats:  # plays kept from the last frame's rest
        answer_run()
    reveal_all()
    if shows:
        click.echo(f"the hand is not over: {len(shows)} --reveal photo(s) not used", err=True)
    followed = follower.record()
    # what is written is for any reader of GAME_RECORD.md: the draws the camera did not see written
    # out (`scorer.explicit`), the evidence's links moved with the events
    record, shared = _shared(followed)
    if store is not None:
        store.relink(shared.where)
    unwritten = _write_all(record, record_path, store, export_path)
    answer = score_record({k: v for k, v in followed.items() if k != "pending"})  # what is recorded, not what is kept
    for h in shared.kept_open:
        click.echo(
            f"hand {h}: its unseen draws cannot be written out as draws that score the same, so it keeps "
            '"unseen_draws": true (a reader that ignores it scores that hand otherwise)',
            err=True,
        )
    click.echo(
        f"{watcher.frames} frames, {watcher.reads} read; totals {dict(zip(answer['sides'], answer['totals']))}",
        err=as_json,
    )
    if failed is not None:
        click.echo(f"Error: {failed} (the record so far is written)", err=True)
        sys.exit(1)
    if unwritten:
        sys.exit(1)
    kept = len(record.get("pending", {}).get("unconfirmed", []))
    if kept:
        click.echo(
            f"{kept} play(s) kept to confirm from the first whose seat is not known (see 'pending' in the record)",
            err=True,
        )
    if follower.pending is not None or kept:
        click.echo("a move is still waiting to be confirmed (see 'pending' in the record)", err=True)
        sys.exit(2)


def _shared(followed: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """The follower's record with its unseen draws written out (`scorer.explicit.explicit_record`),
    and the `Explicit` that says where each event went; what is still to confirm ("pending") points
    at the events as they are there."""
    from scorer.explicit import explicit_record

    shared = explicit_record({k: v for k, v in followed.items() if k != "pending"})
    record = shared.record
    if "pending" in followed:
        pending = json.loads(json.dumps(followed["pending"]))
        if isinstance(pending.get("where"), list):
            pending["where"] = [[h, shared.where(h, e)] for h, e in pending["where"]]
        for kept in pending.get("unconfirmed", []):
            kept["event"] = shared.where(kept["hand"], kept["event"])
        record["pending"] = pending
    return record, shared


def _write_all(record: dict[str, Any], record_path: str | None, store: Any, export_path: str | None) -> int:
    """Write the record, the evidence's record and the zip, each whatever became of the others;
    one line on standard error for each that could not be written, and how many."""
    from vision.follow.evidence import write_atomically

    writes: list[tuple[str, Any]] = []
    if record_path:
        writes.append((f"--record {record_path}", lambda: write_atomically(record_path, json.dumps(record, indent=1))))
    if store is not None:
        writes.append((f"the evidence in {store.folder}", lambda: store.save_record(record)))
        if export_path:
            writes.append((f"--export {export_path}", lambda: store.export(export_path, record)))
    unwritten = 0
    for what, write in writes:
        try:
            write()
        except OSError as error:
            unwritten += 1
            click.echo(f"Error: {what}: the record cannot be written ({error.strerror or error})", err=True)
    return unwritten


def _kept_to_confirm(outcome: Any) -> dict[str, Any]:
    """A play followed on with its seat open (`Follower.carry_on`), as the question it is: kind
    "ask", one candidate per seat the rules leave, no events, and `"followed": true` (nothing of it
    is recorded; the watch went on as if the first candidate, `params.seat`, played it)."""
    out = outcome.to_json()
    tile, seats = outcome.params["tile"], outcome.params["seats"]
    event = next(
        e for e in outcome.events if e.get("type") == "play" and sorted(e["tile"].split("-")) == sorted(tile.split("-"))
    )
    out["kind"], out["followed"] = "ask", True
    out["events"], out["where"] = [], []  # nothing of it is recorded
    out["candidates"] = [[{"event": {**event, "seat": seat}}] for seat in seats]
    return out


@click.command("watch-eval")
@click.option("--videos", type=click.IntRange(min=1), default=10, show_default=True, help="How many synthetic games.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--size", default="640x480", show_default=True, callback=frame_size, help="Frame size, WIDTHxHEIGHT.")
@click.option("--models", is_flag=True, help="Read with the ONNX models instead of the frames' truth.")
@click.option("--detector", type=click.Path(dir_okay=False), default=str(DEFAULT_DETECTOR), show_default=True)
@click.option("--halves", type=click.Path(dir_okay=False), default=str(DEFAULT_HALVES), show_default=True)
@SHAKE
@click.option(
    "--noise",
    type=click.FloatRange(min=0),
    default=1.5,
    show_default=True,
    help="Sensor noise (grey levels, standard deviation).",
)
@click.option(
    "--light",
    type=click.FloatRange(0, 1),
    default=0.06,
    show_default=True,
    help="Light drift between moves (share of brightness).",
)
@click.option(
    "--idle",
    type=click.FloatRange(0, 1),
    default=0.15,
    show_default=True,
    help="Chance of an arm passing over the table between moves.",
)
@click.option("--clean", is_flag=True, help="No sensor noise, shake or light drift (arms still come and go).")
@click.option(
    "--misread",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Truth reader only: misread this share of halves (a wrong value first, the true one second).",
)
@click.option(
    "--jitter",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Truth reader only: move each corner by this much (in half-sides).",
)
@click.option(
    "--board",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Instead: the real ddd-board photos as a sequence (../shared/real/ddd-board).",
)
@click.option(
    "--dealt",
    default=None,
    metavar="VARIANT",
    type=click.Choice(["partners", "partners-block", "all-fives", "block", "draw", "any"]),
    help="Dealt films: VARIANT (partners, partners-block, all-fives, block, draw, or any) dealt and played "
    "with passes and draws, each seat's arm from its own side (default: the older films, no passes).",
)
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True, help="Players (partnerships: 4).")
@click.option(
    "--seating-given",
    is_flag=True,
    help="Dealt films: the follower is told where each seat sits, as a table asked once at the start "
    "(default: it learns it from the plays).",
)
@click.option(
    "--no-arms",
    is_flag=True,
    help="The follower sees no arm reach in (as with a folder of photos): who laid a tile comes from "
    "the rules and the deals left, or a question.",
)
@click.option(
    "--each-play",
    is_flag=True,
    help="A play whose seat nothing settles is asked about at once, one question a play (default: "
    "followed as the turn seat's, and the run of such plays asked about once, as `spinner watch --ask`).",
)
@click.option(
    "--moved",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Chance between two moves that the phone is re-framed (shifted, turned 10-30 degrees, zoomed 0.8-1.25).",
)
@click.option(
    "--nudge",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Chance between two moves that a laid tile is nudged (moved a little and turned a few degrees).",
)
@click.option(
    "--takeback",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Chance before a play that another tile is laid there first and taken back (a misplay corrected).",
)
@click.option(
    "--objects",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Chance between two moves that a thing (a cup, a phone, a score sheet) is set down for a few moves.",
)
@click.option("--json", "as_json", is_flag=True, help="The whole report as JSON.")
def watch_eval(
    videos: int,
    seed: int,
    size: tuple[int, int],
    models: bool,
    detector: str,
    halves: str,
    shake: float,
    noise: float,
    light: float,
    idle: float,
    clean: bool,
    misread: float,
    jitter: float,
    board: str | None,
    dealt: str | None,
    players: int,
    seating_given: bool,
    no_arms: bool,
    each_play: bool,
    moved: float,
    nudge: float,
    takeback: float,
    objects: float,
    as_json: bool,
) -> None:
    """Follow synthetic game videos; count moves right, asked and wrong against their true records."""
    from vision.evaluate.games import board_sequence, evaluate_videos
    from vision.synth.happen import Happenings

    happen = Happenings(moved, nudge, takeback, objects)

    width, height = size
    reader = None
    if models:
        from vision.read.reader import FOLLOWING_CONFIDENCE, FOLLOWING_REFINER, FOLLOWING_SLANT, Reader

        reader = Reader(
            detector,
            halves,
            confidence=FOLLOWING_CONFIDENCE,
            refiner=FOLLOWING_REFINER,
            slant=FOLLOWING_SLANT,
            sets=2 if board else 1,
        )
    if board:
        with named_failures():
            click.echo(json.dumps(board_sequence(Path(board), reader), indent=1))
        return
    if clean:
        shake = noise = light = 0.0
    if models and (misread or jitter):
        raise click.UsageError(
            "--misread and --jitter imitate a reader's mistakes: they go with the truth reader, not --models"
        )
    report = evaluate_videos(
        videos,
        seed,
        width,
        height,
        reader,
        log=None if as_json else click.echo,
        misread=misread,
        jitter=jitter,
        shake=shake,
        noise=noise,
        light_drift=light,
        idle_passes=idle,
        seating=seating_given,
        arms=not no_arms,
        each_play=each_play,
        **({"dealt": dealt, "players": players} if dealt else {}),
        **({"happen": happen} if happen.any() else {}),
    )
    if as_json:
        click.echo(json.dumps(report, indent=1))
    else:
        figures = {k: v for k, v in report.items() if k != "reports"}
        click.echo(json.dumps(figures))
