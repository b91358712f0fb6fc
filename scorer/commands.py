"""`spinner score`, `spinner simulate` and `spinner demo`."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import click

from .errors import RecordError
from .match import Match
from .schema import ShapeError, check_record, loads
from .simulate import observe, simulate_match
from .twelve import score_twelve, simulate_twelve
from .variants import ALL_VARIANTS, VARIANTS


def read_record(path: str) -> Any:
    """The JSON of a record file ('-' for standard input), or a ClickException naming the problem.

    Read as the web app reads a body (`scorer.schema.loads`): no NaN, no integer past 2^53, nothing
    nested deeper than a record, no half of a character; the same words."""
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise click.ClickException(f"{path}: cannot be read ({error.strerror or error})") from None
    try:
        return loads(raw, path)  # UTF-8, with or without a byte order mark, as on the web
    except ShapeError as error:
        raise click.ClickException(error.said_of(path)) from None


def replay(record: Any, live: bool = False) -> tuple[Match | None, RecordError | None]:
    """Replay as far as the record is legal: the match up to the first broken rule, and that error.
    `live`: the record is kept as its last hand is played (`Match.from_record`)."""
    try:
        return Match.from_record(record, live=live), None
    except RecordError as error:
        if error.hand is None:
            return None, error
        # Replay again, stopping before the broken event, so the caller can show what stands.
        partial = dict(record)
        hands = list(record["hands"][: error.hand + 1])
        if error.event is None or not isinstance(hands[-1], dict):
            hands.pop()
        else:
            last = hands[-1] = dict(hands[-1])
            last["events"] = list(last.get("events", []))[: error.event]
        partial["hands"] = hands
        try:
            return Match.from_record(partial, live=live), error
        except RecordError:
            return None, error


@click.command()
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--partial", is_flag=True, help="On a broken record, still print the answer up to the broken event.")
@click.option("--indent", type=int, default=2, show_default=True, help="JSON indentation (0: one line).")
def score(record: str, partial: bool, indent: int) -> None:
    """Score a match record (GAME_RECORD.md) and print the scorer's answer as JSON.

    A record that breaks a rule exits with status 1 and says which hand, which event and
    which rule; nothing after it is scored. A record of the wrong shape is refused first, in
    the words the web import uses (a field that is null is read as left out).
    """
    data = read_record(record)
    try:
        # the web's check (`scorer.schema`): the same records refused, in the same words
        data = check_record(data, record)
    except ShapeError as refused:
        raise click.ClickException(refused.said_of(record)) from None
    if data.get("variant") == "twelve":
        try:
            answer = score_twelve(data)
        except RecordError as broken:
            raise click.ClickException(f"{record}: {broken}") from None
        click.echo(json.dumps(answer, indent=indent or None))
        return
    match, error = replay(data)
    if error is None:
        assert match is not None
        click.echo(json.dumps(match.answer(), indent=indent or None))
        return
    if partial and match is not None:
        click.echo(json.dumps({**match.answer(), "error": error.to_dict()}, indent=indent or None))
    click.echo(f"Error: {record}: {error}", err=True)
    sys.exit(1)


@click.command()
@click.option("--variant", "variant", type=click.Choice(ALL_VARIANTS), required=True)
@click.option("--players", type=int, default=None, help="Players (default: the variant's largest table).")
@click.option("--matches", type=int, default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Match i uses seed SEED+i.")
@click.option(
    "--option", "options", multiple=True, metavar="NAME=VALUE", help="A house rule option (JSON value), repeatable."
)
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Write each record to OUT/match-NNNN.json.")
@click.option("--observed", is_flag=True, help="Write what a table sees (no deal, unseen draws, reveals) instead.")
def simulate(
    variant: str,
    players: int | None,
    matches: int,
    seed: int,
    options: tuple[str, ...],
    out: str | None,
    observed: bool,
) -> None:
    """Play random legal matches (full information, seeded) and print or write their records."""
    opts = _parse_options(options)
    if variant == "twelve":
        players = 1
    elif players is None:
        players = max(VARIANTS[variant].players)
    if matches < 1:
        raise click.BadParameter("at least one match", param_hint="--matches")
    folder = Path(out) if out else None
    if folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise click.ClickException(f"--out {folder}: cannot be made ({error.strerror or error})") from None
    for i in range(matches):
        try:
            if variant == "twelve":
                record = simulate_twelve(seed + i, sets=int(opts.get("sets", 1)))
                answer = score_twelve(record)
                summary = f"attempts {answer['attempts']}, time {answer['time']}s"
            else:
                record = simulate_match(variant, players, seed + i, opts)
                if observed:
                    record = observe(record, random.Random(seed + i))
                answer = Match.from_record(record).answer()
                summary = _summary(answer)
        except RecordError as error:
            raise click.ClickException(str(error)) from None
        if folder:
            path = folder / f"match-{i + 1:04d}.json"
            path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            summary += f" -> {path}"
        click.echo(f"match {i + 1} (seed {seed + i}): {summary}")


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r}: write NAME=VALUE", param_hint="--option")
        try:
            options[name.strip()] = json.loads(value)
        except (ValueError, RecursionError):  # not JSON (a digit string past 4,300 digits too): the text
            options[name.strip()] = value
    return options


def _summary(answer: dict[str, Any]) -> str:
    winner = answer["winner"]
    sides = answer["sides"]
    totals = ", ".join(f"{name} {total}" for name, total in zip(sides, answer["totals"], strict=False))
    who = sides[winner] if winner is not None else "nobody yet"
    return f"{len(answer['hands'])} hands; {totals}; won by {who}"


@click.command()
@click.option("--variant", type=click.Choice(sorted(VARIANTS)), default="partners", show_default=True)
@click.option("--seed", type=int, default=None, help="Seed of the simulated match (default: random).")
def demo(variant: str, seed: int | None) -> None:
    """Play one simulated match and show, play by play, what the scorer counts."""
    seed = random.randrange(10_000) if seed is None else seed
    players = max(VARIANTS[variant].players)
    record = simulate_match(variant, players, seed)
    answer = Match.from_record(record).answer()
    click.echo(f"A simulated match of {variant} (seed {seed}): {', '.join(answer['sides'])}")
    for h, hand_answer in enumerate(answer["hands"]):
        click.echo(f"\nHand {h + 1}, led by {record['players'][hand_answer['leader']]}")
        for play in hand_answer["plays"]:
            name = record["players"][play["seat"]]
            where = f" on the {play['end']}" if "end" in play else ""
            count = f"  count {play['count']:>2}" if play["count"] is not None else ""
            scored = f"  scores {play['points']}" if play["points"] else ""
            click.echo(f"  {name:<5} {play['tile']}{where:<13}{count}{scored}")
        winner = hand_answer["winner"]
        ended = {"out": "went out", "blocked": "blocked", "target": "the target was reached"}[hand_answer["end"]]
        who = answer["sides"][winner] if winner is not None else "no winner"
        click.echo(f"  -> {ended}; hand to {who}; bonus {hand_answer['bonus']}; totals {hand_answer['totals']}")
    click.echo(f"\n{_summary(answer)}")
