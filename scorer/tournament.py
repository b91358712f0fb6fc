"""The club tournament of RULES.md ("Tournament (seed 001)"), as pure logic.

Eight teams of two register; four rounds of one `partners-block` game each, to 100 points or
30 minutes; round one is paired at random, later rounds winners against winners; a ten-minute
break follows round two; standing is most wins, then most points, equal teams sharing the place.

Everything here is pure: no I/O, no clock. Times are passed in, randomness comes from the seed
the caller passes, and every operation on a `Tournament` returns a new one, so the director's
page can keep the old value for "undo" and the file export is just `to_dict()`.

Where RULES.md is silent, this module decides as a club director would:

- Registration: team names are compared in one Unicode form (NFC: "Capicúa" typed with a
  combining accent is the same name), stripped and case-insensitively; a player (compared the
  same way) may not be in two teams, nor twice in one. Registration closes by itself with the
  eighth team. The director may close it earlier with an even number of at least four teams:
  every team plays every round, and with two teams there is nothing to pair. Fewer than eight
  teams may meet again in later rounds when it cannot be avoided (four teams have only three
  possible opponents).
- Withdrawal: once registration has closed, the director may withdraw a team that leaves (with a
  reason), until the tournament is over, as long as two teams stay in. It keeps its results so
  far and is listed after the teams still in, marked withdrawn (it gave up its remaining games,
  so it places below every team that played them, and cannot be champion). It is paired in no
  later round; a table of the round in play keeps it, and the director records that table's
  result (a forfeit, "director's decision"). With an odd number of teams left, one team has a
  bye each round: it counts as a win by `BYE_POINTS` to 0, the points of a win at the target.
- Pairing after round one: teams are ranked as in the standings (wins, then points, then name)
  and the pairing is the one that, in this order of importance, (1) repeats fewest earlier
  meetings, (2) keeps teams closest in wins (the sum of squared win differences, so an odd team
  floats to the neighbouring group rather than two groups away), (3) lets the higher-ranked team
  meet the next-highest it can (1 v 2, 3 v 4: winners play winners). The search is exhaustive
  (backtracking with pruning; 105 pairings for eight teams), so "never twice where avoidable"
  holds for each round. Table 1 is the pairing with the highest-ranked team.
- Round one with an odd number of teams (a withdrawal before it): the last team drawn has the
  bye. Later rounds: the bye goes, in this order of importance, where it (1) leaves fewest
  repeat meetings, (2) falls to a team that has had no bye, (3) keeps the others closest in wins,
  (4) falls to the lowest-ranked team.
- Only round one uses a seed; passing one for a later round is refused rather than ignored. A
  seed of text made of digits ("42", as a form or a JSON string gives it) is that number, so the
  same draw number gives the same draw however it was sent.
- Results: a result `ended` by `target` has the winner at 100 or more and the loser below (the
  match stops at once); by `bell` both are below 100 and the winner is higher (if the hand that
  finishes after the bell takes a team to 100, the match ended at the target). A result by
  `director` needs a reason and may name either team the winner whatever the points
  (disqualification, a team that did not show up).
- The bell: at 30 minutes the hand in play is finished; if the scores are then equal, one more
  hand is played, and again while a hand leaves them equal (a tied blocked hand scores nothing).
- Corrections: the director may correct any recorded result of any round with a reason and a
  name; each correction keeps the result before and after, and must change the result (its
  points, winner or ending: a new reason alone is no correction). Standings follow the corrected
  results; pairings already made stand (they were right for what was known then).
- Standings count every recorded result, also those of an unfinished round; the champions are
  known once every table of round four has a result. Teams sharing first place share the title.
- The schedule gives the earliest start of each round: the tournament's start, then each round's
  actual end, plus ten minutes after round two. The `Tournament` records a round's start time
  when given but does not enforce the schedule: the director calls the players back.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from .schema import name_key

__all__ = [
    "BREAKS",
    "BYE_POINTS",
    "FORMAT_VERSION",
    "MAX_TEAMS",
    "MIN_TEAMS",
    "ROUNDS",
    "ROUND_LENGTH",
    "TARGET",
    "Bell",
    "BellAction",
    "Correction",
    "Ending",
    "MatchResult",
    "Pairing",
    "Round",
    "Standing",
    "Team",
    "Tournament",
    "TournamentError",
    "Withdrawal",
    "bell",
    "draw_with_bye",
    "pair_at_random",
    "pair_by_wins",
    "pair_with_bye",
    "schedule",
]

MAX_TEAMS = 8
MIN_TEAMS = 4
ROUNDS = 4
#: `partners-block` plays to 100 (RULES.md, variants table), at once.
TARGET = 100
ROUND_LENGTH = timedelta(minutes=30)
#: rest after a round, by round number: "a ten-minute break follows round two".
BREAKS: Mapping[int, timedelta] = {2: timedelta(minutes=10)}
#: A bye counts as a win by these points to none: what a win at the target is worth at least.
BYE_POINTS = TARGET
#: bumped when `to_dict` changes shape, so an old export is refused rather than misread. Version 2
#: adds withdrawals and byes; a tournament without either is still written as version 1, which
#: every reader of this module reads.
FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)


class TournamentError(ValueError):
    """A tournament rule was broken; the message names the team, round, table and rule.

    `code` and `params` say the same for a page to word for players in their language
    (webapp/tournament/words.py); the command line keeps the message. `code` is "tournament"
    where nothing more precise is given (the page then shows the message).
    """

    def __init__(self, message: str, *, code: str = "tournament", **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params


class Ending(StrEnum):
    """How a match ended; a director's decision is the only one that may ignore the points."""

    TARGET = "target"
    BELL = "bell"
    DIRECTOR = "director"


# --------------------------------------------------------------------------- small helpers


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TournamentError(f"{what} must be text, not {type(value).__name__}")
    return value.strip()


def _required_text(value: object, what: str) -> str:
    text = _text(value, what)
    if not text:
        raise TournamentError(f"{what} must not be empty")
    return text


def _count(value: object, what: str) -> int:
    # bool is an int to Python but never a score or a table number.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TournamentError(f"{what} must be a whole number, not {value!r}")
    return value


def _key(name: str) -> str:
    """A name as registration compares it (`schema.name_key`, as a match's players are): what
    shows of it in one Unicode form (NFKC), so "Capicu\u0301a" (a combining accent) is
    "Capic\u00faa" and fullwidth "\uff21na" is "Ana", nothing invisible, case-insensitive."""
    return name_key(name)


def _seed(seed: int | str) -> int | str:
    """A draw number in one type: text of ASCII digits is that number ("42" draws as 42 does)."""
    if isinstance(seed, str):
        text = seed.strip()
        if text.isascii() and text.isdigit() and len(text) <= 40:
            return int(text)
    return seed


def _check_times(*times: datetime) -> None:
    for t in times:
        if not isinstance(t, datetime):
            raise TournamentError(f"a time must be a datetime, not {t!r}")
    # Comparing naive and aware datetimes raises TypeError deep inside; say what is wrong instead.
    if len({t.tzinfo is None for t in times}) > 1:
        raise TournamentError("times must all carry a time zone or all not carry one")


# --------------------------------------------------------------------------- teams and matches


@dataclass(frozen=True, slots=True)
class Team:
    """Two fixed partners under one name ("no changing of partners")."""

    name: str
    players: tuple[str, str]

    def __post_init__(self) -> None:
        name = _required_text(self.name, "a team's name")
        if not isinstance(self.players, (tuple, list)):
            raise TournamentError(f"team {name!r}: players must be a pair of names")
        if len(self.players) != 2:
            raise TournamentError(f"team {name!r} must have exactly two players, not {len(self.players)}")
        players = tuple(_required_text(p, f"a player's name in team {name!r}") for p in self.players)
        if _key(players[0]) == _key(players[1]):
            raise TournamentError(
                f"team {name!r} lists player {players[0]!r} twice", code="player_twice", team=name, player=players[0]
            )
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "players", players)

    @property
    def key(self) -> str:
        """The name as registration compares it: stripped, case-insensitive."""
        return _key(self.name)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Team:
        return cls(name=data["name"], players=data["players"])


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two teams at one table for one round."""

    table: int
    team_a: str
    team_b: str

    def __post_init__(self) -> None:
        table = _count(self.table, "a table number")
        if table < 1:
            raise TournamentError(f"table numbers start at 1, not {table}")
        a = _required_text(self.team_a, f"table {table}: a team name")
        b = _required_text(self.team_b, f"table {table}: a team name")
        if _key(a) == _key(b):
            raise TournamentError(f"table {table}: team {a!r} cannot play itself")
        object.__setattr__(self, "team_a", a)
        object.__setattr__(self, "team_b", b)

    @property
    def teams(self) -> tuple[str, str]:
        return (self.team_a, self.team_b)

    def __str__(self) -> str:
        return f"table {self.table}: {self.team_a} v {self.team_b}"

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "team_a": self.team_a, "team_b": self.team_b}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pairing:
        return cls(table=data["table"], team_a=data["team_a"], team_b=data["team_b"])


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One table's game, checked against the way it ended.

    The checks live here so that a result that cannot have happened (a bell result at 100, a
    target result below it) never reaches the standings; only the director may overrule points.
    """

    table: int
    team_a: str
    team_b: str
    points_a: int
    points_b: int
    winner: str
    ended: Ending
    reason: str | None = None

    def __post_init__(self) -> None:
        table = _count(self.table, "a result's table number")
        if table < 1:
            raise TournamentError(f"table numbers start at 1, not {table}")
        a = _required_text(self.team_a, f"table {table}: a team name")
        b = _required_text(self.team_b, f"table {table}: a team name")
        where = f"table {table} ({a} v {b})"
        at = {"table": table, "team_a": a, "team_b": b}
        if _key(a) == _key(b):
            raise TournamentError(f"table {table}: team {a!r} cannot play itself")
        pa = _count(self.points_a, f"{where}: points of {a!r}")
        pb = _count(self.points_b, f"{where}: points of {b!r}")
        for team, points in ((a, pa), (b, pb)):
            if points < 0:
                raise TournamentError(
                    f"{where}: {team!r} cannot have negative points ({points})",
                    code="negative_points",
                    team=team,
                    points=points,
                    **at,
                )
        try:
            ended = Ending(self.ended)
        except ValueError:
            raise TournamentError(
                f"{where}: a match ends by 'target', 'bell' or 'director', not {self.ended!r}"
            ) from None
        winner_text = _required_text(self.winner, f"{where}: the winner")
        if _key(winner_text) == _key(a):
            winner, winner_points, loser, loser_points = a, pa, b, pb
        elif _key(winner_text) == _key(b):
            winner, winner_points, loser, loser_points = b, pb, a, pa
        else:
            raise TournamentError(
                f"{where}: the winner {winner_text!r} did not play at this table",
                code="winner_elsewhere",
                winner=winner_text,
                **at,
            )
        reason = None if self.reason is None else _text(self.reason, f"{where}: the reason")
        reason = reason or None
        if ended is Ending.TARGET:
            if winner_points < TARGET:
                raise TournamentError(
                    f"{where}: {winner!r} won at the target with {winner_points} points; the target is {TARGET}",
                    code="target_short",
                    winner=winner,
                    points=winner_points,
                    target=TARGET,
                    **at,
                )
            if loser_points >= TARGET:
                raise TournamentError(
                    f"{where}: {loser!r} has {loser_points} points, so the match stopped when they "
                    f"reached {TARGET}; both teams cannot reach the target",
                    code="both_at_target",
                    loser=loser,
                    points=loser_points,
                    target=TARGET,
                    **at,
                )
        elif ended is Ending.BELL:
            if winner_points >= TARGET:
                raise TournamentError(
                    f"{where}: {winner!r} reached {TARGET} ({winner_points} points), so the match "
                    "ended at the target, not at the bell",
                    code="bell_at_target",
                    winner=winner,
                    points=winner_points,
                    target=TARGET,
                    **at,
                )
            if winner_points == loser_points:
                raise TournamentError(
                    f"{where}: the scores are equal at the bell ({winner_points}); one more hand "
                    "is played until they differ",
                    code="bell_equal",
                    points=winner_points,
                    **at,
                )
            if winner_points < loser_points:
                raise TournamentError(
                    f"{where}: at the bell the higher score wins, and {loser!r} has "
                    f"{loser_points} to {winner!r}'s {winner_points}",
                    code="bell_lower",
                    winner=winner,
                    loser=loser,
                    winner_points=winner_points,
                    loser_points=loser_points,
                    **at,
                )
        elif reason is None:
            raise TournamentError(
                f"{where}: a result decided by the director needs a reason", code="needs_reason", **at
            )
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "team_a", a)
        object.__setattr__(self, "team_b", b)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "ended", ended)
        object.__setattr__(self, "reason", reason)

    @property
    def teams(self) -> tuple[str, str]:
        return (self.team_a, self.team_b)

    @property
    def loser(self) -> str:
        return self.team_b if self.winner == self.team_a else self.team_a

    def points_of(self, team: str) -> int:
        if _key(team) == _key(self.team_a):
            return self.points_a
        if _key(team) == _key(self.team_b):
            return self.points_b
        raise TournamentError(f"table {self.table}: team {team!r} did not play at this table")

    def __str__(self) -> str:
        text = f"table {self.table}: {self.team_a} {self.points_a} - {self.points_b} {self.team_b}"
        text += f", {self.winner} won ({self.ended.value})"
        return text + (f": {self.reason}" if self.reason else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "team_a": self.team_a,
            "team_b": self.team_b,
            "points_a": self.points_a,
            "points_b": self.points_b,
            "winner": self.winner,
            "ended": self.ended.value,
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchResult:
        return cls(
            table=data["table"],
            team_a=data["team_a"],
            team_b=data["team_b"],
            points_a=data["points_a"],
            points_b=data["points_b"],
            winner=data["winner"],
            ended=data["ended"],
            reason=data.get("reason"),
        )


@dataclass(frozen=True, slots=True)
class Correction:
    """A result the director changed by hand: both versions are kept, with who and why."""

    round_number: int
    table: int
    before: MatchResult
    after: MatchResult
    reason: str
    by: str

    def __post_init__(self) -> None:
        where = f"round {self.round_number}, table {self.table}"
        object.__setattr__(self, "reason", _required_text(self.reason, f"{where}: a correction's reason"))
        object.__setattr__(self, "by", _required_text(self.by, f"{where}: who made the correction"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round_number,
            "table": self.table,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "reason": self.reason,
            "by": self.by,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Correction:
        return cls(
            round_number=_count(data["round"], "a correction's round"),
            table=_count(data["table"], "a correction's table"),
            before=MatchResult.from_dict(data["before"]),
            after=MatchResult.from_dict(data["after"]),
            reason=data["reason"],
            by=data["by"],
        )


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A team that left: it plays no round after `round_number` (0: it left before round one)."""

    team: str
    round_number: int
    reason: str
    by: str

    def __post_init__(self) -> None:
        team = _required_text(self.team, "a withdrawn team's name")
        number = _count(self.round_number, f"the round team {team!r} withdrew in")
        if number < 0:
            raise TournamentError(f"team {team!r} cannot withdraw in round {number}")
        object.__setattr__(self, "team", team)
        object.__setattr__(self, "reason", _required_text(self.reason, f"team {team!r}: a withdrawal's reason"))
        object.__setattr__(self, "by", _required_text(self.by, f"team {team!r}: who withdrew it"))

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "round": self.round_number, "reason": self.reason, "by": self.by}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Withdrawal:
        return cls(team=data["team"], round_number=data["round"], reason=data["reason"], by=data["by"])


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its pairings and the results recorded so far (in table order)."""

    number: int
    pairings: tuple[Pairing, ...]
    results: tuple[MatchResult, ...] = ()
    #: the seed round one was drawn from, kept so the draw can be shown to be fair.
    seed: int | str | None = None
    started_at: datetime | None = None
    #: the team left without a table when an odd number of teams play (after a withdrawal).
    bye: str | None = None

    def __post_init__(self) -> None:
        # Lists from a caller would make equal rounds compare unequal and the round mutable.
        object.__setattr__(self, "pairings", tuple(self.pairings))
        object.__setattr__(self, "results", tuple(self.results))

    def pairing(self, table: int) -> Pairing:
        for pairing in self.pairings:
            if pairing.table == table:
                return pairing
        raise TournamentError(
            f"round {self.number} has no table {table} (tables 1 to {len(self.pairings)})",
            code="no_table",
            round=self.number,
            table=table,
            tables=len(self.pairings),
        )

    def result(self, table: int) -> MatchResult | None:
        self.pairing(table)
        for result in self.results:
            if result.table == table:
                return result
        return None

    @property
    def missing(self) -> tuple[int, ...]:
        """Tables still without a result: what the director is waiting for."""
        done = {r.table for r in self.results}
        return tuple(p.table for p in self.pairings if p.table not in done)

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def teams(self) -> tuple[str, ...]:
        """Every team in the round: at its tables, then the bye."""
        playing = tuple(n for p in self.pairings for n in p.teams)
        return playing + ((self.bye,) if self.bye is not None else ())

    def to_dict(self) -> dict[str, Any]:
        data = {
            "number": self.number,
            "seed": self.seed,
            "started_at": None if self.started_at is None else self.started_at.isoformat(),
            "pairings": [p.to_dict() for p in self.pairings],
            "results": [r.to_dict() for r in self.results],
        }
        if self.bye is not None:  # version 2; a round without a bye is written as version 1 wrote it
            data["bye"] = self.bye
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        started = data.get("started_at")
        bye = data.get("bye")
        return cls(
            number=_count(data["number"], "a round number"),
            pairings=tuple(Pairing.from_dict(p) for p in data["pairings"]),
            results=tuple(MatchResult.from_dict(r) for r in data["results"]),
            seed=data.get("seed"),
            started_at=None if started is None else datetime.fromisoformat(started),
            bye=None if bye is None else _required_text(bye, f"round {data['number']}: the team with the bye"),
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; `place` is shared by teams equal on wins and points.

    `wins` and `points` count the team's byes (each a win by `BYE_POINTS`); a withdrawn team is
    listed after the teams still in.
    """

    place: int
    team: str
    wins: int
    losses: int
    points: int
    byes: int = 0
    withdrawn: bool = False

    @property
    def played(self) -> int:
        return self.wins + self.losses


# --------------------------------------------------------------------------- pairing


def pair_at_random(teams: Sequence[str], seed: int | str) -> tuple[Pairing, ...]:
    """Round one: a shuffle from the caller's seed, so the draw can be replayed and checked."""
    names = list(teams)
    _check_pairable(names)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TournamentError(f"round 1 needs a seed that is a whole number or text, not {seed!r}")
    random.Random(seed).shuffle(names)
    return tuple(Pairing(table=i // 2 + 1, team_a=names[i], team_b=names[i + 1]) for i in range(0, len(names), 2))


def pair_by_wins(
    ranking: Sequence[str],
    wins: Mapping[str, int],
    met: Collection[frozenset[str]],
) -> tuple[Pairing, ...]:
    """Winners against winners, never the same opponents twice where avoidable.

    `ranking` is the standings order (best first), `wins` each team's wins so far and `met`
    the pairs of teams that have already played. Every pairing is tried (backtracking, pruned
    once it cannot beat the best so far) and the best is kept by: fewest repeat meetings, then
    the smallest sum of squared win differences, then the first in ranking order.
    """
    names = list(ranking)
    _check_pairable(names)
    for name in names:
        if name not in wins:
            raise TournamentError(f"team {name!r} has no win count to be paired by")
    w = [_count(wins[name], f"wins of {name!r}") for name in names]
    n = len(names)
    seen = [[frozenset((names[i], names[j])) in met for j in range(n)] for i in range(n)]

    best: list[tuple[int, int]] = []
    best_key: tuple[int, int] | None = None

    def search(unpaired: list[int], pairs: list[tuple[int, int]], rematches: int, cost: int) -> None:
        nonlocal best, best_key
        # Keys only grow as pairs are added, so a partial pairing already no better than the best
        # cannot become better; keeping only strict improvements keeps the first in ranking order.
        if best_key is not None and (rematches, cost) >= best_key:
            return
        if not unpaired:
            best, best_key = list(pairs), (rematches, cost)
            return
        first, rest = unpaired[0], unpaired[1:]
        for k, other in enumerate(rest):
            pairs.append((first, other))
            search(
                rest[:k] + rest[k + 1 :],
                pairs,
                rematches + seen[first][other],
                cost + (w[first] - w[other]) ** 2,
            )
            pairs.pop()

    search(list(range(n)), [], 0, 0)
    return tuple(Pairing(table=t, team_a=names[i], team_b=names[j]) for t, (i, j) in enumerate(best, 1))


def draw_with_bye(teams: Sequence[str], seed: int | str) -> tuple[tuple[Pairing, ...], str | None]:
    """Round one: `pair_at_random`'s draw; with an odd number of teams the last one drawn has the bye."""
    names = list(teams)
    if len(names) % 2 == 0:
        return pair_at_random(names, seed), None
    if len(names) < 3:
        raise TournamentError(f"pairing needs at least two teams, not {len(names)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TournamentError(f"round 1 needs a seed that is a whole number or text, not {seed!r}")
    random.Random(seed).shuffle(names)
    bye = names.pop()
    pairs = tuple(Pairing(table=i // 2 + 1, team_a=names[i], team_b=names[i + 1]) for i in range(0, len(names), 2))
    return pairs, bye


def pair_with_bye(
    ranking: Sequence[str],
    wins: Mapping[str, int],
    met: Collection[frozenset[str]],
    had_bye: Collection[str] = (),
) -> tuple[tuple[Pairing, ...], str | None]:
    """`pair_by_wins`, and with an odd number of teams the team left out this round (the bye).

    Every team is tried as the bye, and the one kept, in this order of importance, leaves the
    fewest repeat meetings among the others, has had no bye yet (`had_bye`), leaves the others
    closest in wins, and is the lowest-ranked.
    """
    names = list(ranking)
    if len(names) % 2 == 0:
        return pair_by_wins(names, wins, met), None
    if len(names) < 3:
        raise TournamentError(f"pairing needs at least two teams, not {len(names)}")
    best: tuple[tuple[int, bool, int], tuple[Pairing, ...], str] | None = None
    for bye in reversed(names):  # the lowest-ranked first: a tie keeps it
        pairings = pair_by_wins([n for n in names if n != bye], wins, met)
        rematches = sum(frozenset(p.teams) in met for p in pairings)
        cost = sum((wins[p.team_a] - wins[p.team_b]) ** 2 for p in pairings)
        key = (rematches, bye in had_bye, cost)
        if best is None or key < best[0]:
            best = (key, pairings, bye)
    assert best is not None  # three teams or more
    return best[1], best[2]


def _check_pairable(names: list[str]) -> None:
    if len(names) < 2 or len(names) % 2:
        raise TournamentError(f"pairing needs an even number of teams (at least two), not {len(names)}")
    if len({_key(n) for n in names}) != len(names):
        raise TournamentError("pairing lists a team twice")


# --------------------------------------------------------------------------- bell and schedule


class BellAction(StrEnum):
    """What the table does now, as the director would call it."""

    PLAY_ON = "play_on"  # before the bell: hands go on
    FINISH_HAND = "finish_hand"  # bell rung with a hand in play: finish it, then ask again
    DECIDE = "decide"  # bell rung, no hand in play, scores differ: the higher score wins
    EXTRA_HAND = "extra_hand"  # bell rung, no hand in play, scores equal: one more hand


@dataclass(frozen=True, slots=True)
class Bell:
    """The 30-minute rule at one moment; `winner` is 0 or 1 (a side of `points`) on DECIDE."""

    rung: bool
    rings_at: datetime
    remaining: timedelta
    action: BellAction
    winner: int | None = None


def bell(
    round_start: datetime,
    now: datetime,
    *,
    hand_in_play: bool,
    points: tuple[int, int] = (0, 0),
) -> Bell:
    """Whether the 30 minutes are up at `now`, and what the table does about it.

    `points` are the two teams' scores now (before the hand in play, if any). A match where a
    team has reached the target is over already and is refused here.
    """
    _check_times(round_start, now)
    if now < round_start:
        raise TournamentError(f"the time {now} is before the round started ({round_start})")
    if len(points) != 2:
        raise TournamentError(f"the bell needs the points of two teams, not {points!r}")
    pa, pb = (_count(p, "a team's points") for p in points)
    if pa < 0 or pb < 0:
        raise TournamentError(f"points cannot be negative ({pa}, {pb})")
    if max(pa, pb) >= TARGET:
        raise TournamentError(f"a team has {max(pa, pb)} points: the match ended at the target of {TARGET}")
    rings_at = round_start + ROUND_LENGTH
    if now < rings_at:
        return Bell(False, rings_at, rings_at - now, BellAction.PLAY_ON)
    zero = timedelta(0)
    if hand_in_play:
        return Bell(True, rings_at, zero, BellAction.FINISH_HAND)
    if pa == pb:
        return Bell(True, rings_at, zero, BellAction.EXTRA_HAND)
    return Bell(True, rings_at, zero, BellAction.DECIDE, 0 if pa > pb else 1)


def schedule(start: datetime, round_ends: Sequence[datetime]) -> tuple[datetime, ...]:
    """Earliest start of each round known so far; the last entry is the next round's.

    Rounds end when their last table does (a game may stop at 100 long before the bell), so
    the timetable moves with the actual ends; only the break after round two is fixed.
    """
    ends = list(round_ends)
    if len(ends) > ROUNDS:
        raise TournamentError(f"the tournament has {ROUNDS} rounds, not {len(ends)}")
    _check_times(start, *ends)
    starts = [start]
    for number, end in enumerate(ends, 1):
        if end < starts[-1]:
            raise TournamentError(f"round {number} cannot end at {end}: it may not start before {starts[-1]}")
        if number < ROUNDS:
            starts.append(end + BREAKS.get(number, timedelta(0)))
    return tuple(starts)


# --------------------------------------------------------------------------- the tournament


@dataclass(frozen=True, slots=True)
class Tournament:
    """The whole tournament; always valid, since construction checks every rule below."""

    teams: tuple[Team, ...] = ()
    registration_closed: bool = False
    rounds: tuple[Round, ...] = ()
    corrections: tuple[Correction, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()

    def __post_init__(self) -> None:
        for name in ("teams", "rounds", "corrections", "withdrawals"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        self._check()

    # -- registration

    @property
    def registration_open(self) -> bool:
        return not self.registration_closed

    def team(self, name: str) -> Team:
        key = _key(_text(name, "a team name"))
        for team in self.teams:
            if team.key == key:
                return team
        raise TournamentError(f"no team called {name!r} is registered")

    def register(self, team: Team) -> Tournament:
        if not isinstance(team, Team):
            raise TournamentError(f"only a Team can register, not {team!r}")
        if self.registration_closed:
            raise TournamentError(
                f"registration is closed ({len(self.teams)} teams); team {team.name!r} cannot register",
                code="registration_closed",
                teams=len(self.teams),
                team=team.name,
            )
        _check_new_team(self.teams, team)
        teams = self.teams + (team,)
        # "once 8 teams are registered the registration will close"
        return replace(self, teams=teams, registration_closed=len(teams) == MAX_TEAMS)

    def close_registration(self) -> Tournament:
        if self.registration_closed:
            raise TournamentError("registration is already closed", code="already_closed")
        _check_closable(len(self.teams))
        return replace(self, registration_closed=True)

    # -- withdrawal

    def withdrawal(self, name: str) -> Withdrawal | None:
        """The team's withdrawal, or None while it is still in."""
        key = _key(_text(name, "a team name"))
        return next((w for w in self.withdrawals if _key(w.team) == key), None)

    def in_play(self, number: int | None = None) -> tuple[str, ...]:
        """The teams round `number` pairs (default: the next round), in registration order."""
        number = len(self.rounds) + 1 if number is None else number
        gone = {w.team for w in self.withdrawals if w.round_number < number}
        return tuple(t.name for t in self.teams if t.name not in gone)

    def withdraw(self, name: str, *, reason: str, by: str) -> Tournament:
        """A team leaves: it keeps its results and plays no later round (see the module's rules)."""
        team = self.team(name)
        if not self.registration_closed:
            raise TournamentError(
                f"registration is still open: team {team.name!r} can withdraw once it has closed",
                code="withdraw_open",
                team=team.name,
            )
        if self.withdrawal(team.name) is not None:
            raise TournamentError(f"team {team.name!r} has withdrawn already", code="withdrawn_already", team=team.name)
        if self.finished:
            raise TournamentError(
                f"the tournament is over; team {team.name!r} cannot withdraw", code="withdraw_over", team=team.name
            )
        staying = [n for n in self.in_play() if n != team.name]
        if len(staying) < 2:
            raise TournamentError(
                f"team {team.name!r} cannot withdraw: two teams at least must stay in to play",
                code="withdraw_last",
                team=team.name,
            )
        withdrawal = Withdrawal(team.name, self.round_number, reason, by)
        return replace(self, withdrawals=self.withdrawals + (withdrawal,))

    # -- rounds

    @property
    def round_number(self) -> int:
        """The round in play or last played; 0 before round one."""
        return len(self.rounds)

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def finished(self) -> bool:
        return len(self.rounds) == ROUNDS and self.rounds[-1].complete

    def start_round(self, seed: int | str | None = None, *, at: datetime | None = None) -> Tournament:
        number = len(self.rounds) + 1
        if not self.registration_closed:
            raise TournamentError(
                f"registration is still open ({len(self.teams)} teams); close it before round 1",
                code="registration_open",
                teams=len(self.teams),
            )
        if number > ROUNDS:
            raise TournamentError(
                f"the tournament has {ROUNDS} rounds; round {ROUNDS} was the last", code="last_round", rounds=ROUNDS
            )
        previous = self.current_round
        if previous is not None and not previous.complete:
            tables = ", ".join(str(t) for t in previous.missing)
            raise TournamentError(
                f"round {previous.number} is not finished: table(s) {tables} have no result",
                code="round_unfinished",
                round=previous.number,
                tables=list(previous.missing),
            )
        if at is not None:
            _check_times(at)
            earlier = [r.started_at for r in self.rounds if r.started_at is not None]
            if earlier:
                _check_times(at, *earlier)
                if at < max(earlier):
                    raise TournamentError(
                        f"round {number} cannot start at {at}, before an earlier round started ({max(earlier)})"
                    )
        names = list(self.in_play(number))
        if number == 1:
            if seed is None:
                raise TournamentError("round 1 is paired at random and needs a seed")
            seed = _seed(seed)
            pairings, bye = draw_with_bye(names, seed)
        else:
            if seed is not None:
                raise TournamentError(f"round {number} is paired by wins, not at random; it takes no seed")
            table = [line for line in self.standings() if line.team in names]
            ranking = [line.team for line in table]
            wins = {line.team: line.wins for line in table}
            had_bye = {r.bye for r in self.rounds if r.bye is not None}
            pairings, bye = pair_with_bye(ranking, wins, self.met(), had_bye)
        new_round = Round(number=number, pairings=pairings, seed=seed, started_at=at, bye=bye)
        return replace(self, rounds=self.rounds + (new_round,))

    def met(self) -> frozenset[frozenset[str]]:
        """Every pair of teams that has been paired so far (whether or not the result is in)."""
        return frozenset(frozenset(p.teams) for r in self.rounds for p in r.pairings)

    # -- results

    def record_result(self, result: MatchResult) -> Tournament:
        current = self.current_round
        if current is None:
            raise TournamentError("no round has started; there is nothing to record")
        if not isinstance(result, MatchResult):
            raise TournamentError(f"a result must be a MatchResult, not {result!r}")
        pairing = current.pairing(result.table)
        result = _as_paired(current.number, pairing, result)
        existing = current.result(result.table)
        if existing is not None:
            raise TournamentError(
                f"round {current.number}, table {result.table} already has a result ({existing}); "
                "to change it, correct it with a reason",
                code="has_result",
                round=current.number,
                table=result.table,
            )
        return replace(self, rounds=self._rounds_with(current, result))

    def correct_result(
        self,
        table: int,
        result: MatchResult,
        *,
        reason: str,
        by: str,
        round_number: int | None = None,
    ) -> Tournament:
        """The director's hand correction; the old result is kept in `corrections`."""
        if not self.rounds:
            raise TournamentError("no round has started; there is nothing to correct")
        number = len(self.rounds) if round_number is None else _count(round_number, "a round number")
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(f"there is no round {number} to correct (rounds 1 to {len(self.rounds)} exist)")
        target_round = self.rounds[number - 1]
        if not isinstance(result, MatchResult):
            raise TournamentError(f"a correction must be a MatchResult, not {result!r}")
        if result.table != table:
            raise TournamentError(
                f"round {number}: the correction for table {table} is a result for table {result.table}"
            )
        pairing = target_round.pairing(table)
        result = _as_paired(number, pairing, result)
        existing = target_round.result(table)
        if existing is None:
            raise TournamentError(
                f"round {number}, table {table} has no result to correct; record it first",
                code="no_result",
                round=number,
                table=table,
            )
        if _standing_part(existing) == _standing_part(result):
            # A new reason alone changes no standing: the correction's own reason says why it was made.
            raise TournamentError(
                f"round {number}, table {table}: the correction is the result already recorded "
                "(the same points, winner and ending; a new reason alone is no correction)",
                code="same_result",
                round=number,
                table=table,
            )
        correction = Correction(number, table, existing, result, reason, by)
        # One step: a tournament whose result and correction history disagree is never built.
        return replace(
            self,
            rounds=self._rounds_with(target_round, result),
            corrections=self.corrections + (correction,),
        )

    def _rounds_with(self, target_round: Round, result: MatchResult) -> tuple[Round, ...]:
        others = tuple(r for r in target_round.results if r.table != result.table)
        results = tuple(sorted(others + (result,), key=lambda r: r.table))
        rounds = list(self.rounds)
        rounds[target_round.number - 1] = replace(target_round, results=results)
        return tuple(rounds)

    # -- standings

    def standings(self) -> tuple[Standing, ...]:
        """Most wins, then most points; equal on both shares the place (1, 2, 2, 4).

        A bye is a win by `BYE_POINTS`; withdrawn teams follow the teams still in, ranked alike.
        """
        tally = {t.name: [0, 0, 0, 0] for t in self.teams}  # wins, losses, points, byes
        for r in self.rounds:
            for result in r.results:
                tally[result.winner][0] += 1
                tally[result.loser][1] += 1
                tally[result.team_a][2] += result.points_a
                tally[result.team_b][2] += result.points_b
            if r.bye is not None:
                tally[r.bye][0] += 1
                tally[r.bye][2] += BYE_POINTS
                tally[r.bye][3] += 1
        gone = {w.team for w in self.withdrawals}
        order = sorted(tally, key=lambda n: (n in gone, -tally[n][0], -tally[n][2], n.casefold(), n))
        lines: list[Standing] = []
        for i, name in enumerate(order):
            wins, losses, points, byes = tally[name]
            place = i + 1
            last = lines[-1] if lines else None
            if last is not None and (last.withdrawn, last.wins, last.points) == (name in gone, wins, points):
                place = last.place
            lines.append(Standing(place, name, wins, losses, points, byes, name in gone))
        return tuple(lines)

    def champions(self) -> tuple[str, ...]:
        """The team(s) in first place after round four; equal teams split the prize."""
        if not self.finished:
            if len(self.rounds) < ROUNDS:
                raise TournamentError(f"no champion yet: {len(self.rounds)} of {ROUNDS} rounds have started")
            tables = ", ".join(str(t) for t in self.rounds[-1].missing)
            raise TournamentError(f"no champion yet: round {ROUNDS}, table(s) {tables} have no result")
        return tuple(s.team for s in self.standings() if s.place == 1 and not s.withdrawn)

    # -- serialisation

    def to_dict(self) -> dict[str, Any]:
        # Version 1's shape while no team has withdrawn: a reader of version 1 still reads the night.
        later = bool(self.withdrawals) or any(r.bye is not None for r in self.rounds)
        data = {
            "format": "spinner-tournament",
            "version": FORMAT_VERSION if later else 1,
            "teams": [t.to_dict() for t in self.teams],
            "registration_closed": self.registration_closed,
            "rounds": [r.to_dict() for r in self.rounds],
            "corrections": [c.to_dict() for c in self.corrections],
        }
        if later:
            data["withdrawals"] = [w.to_dict() for w in self.withdrawals]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        """Rebuild and re-check everything: a hand-edited file must obey the same rules."""
        try:
            if not isinstance(data, Mapping):
                raise TournamentError("a tournament file must hold a mapping")
            if data.get("format") != "spinner-tournament":
                raise TournamentError("this is not a tournament file (format is not 'spinner-tournament')")
            version = data.get("version")
            if isinstance(version, bool) or version not in READ_VERSIONS:
                raise TournamentError(
                    f"tournament file version {version!r} is not supported "
                    f"(this program reads versions {', '.join(map(str, READ_VERSIONS))})"
                )
            withdrawals = data.get("withdrawals", []) if version >= 2 else []
            if version < 2 and any("bye" in r for r in data["rounds"] if isinstance(r, Mapping)):
                raise TournamentError("a version 1 tournament file has no byes")
            closed = data["registration_closed"]
            if not isinstance(closed, bool):
                raise TournamentError("'registration_closed' must be true or false")
            return cls(
                teams=tuple(Team.from_dict(t) for t in data["teams"]),
                registration_closed=closed,
                rounds=tuple(Round.from_dict(r) for r in data["rounds"]),
                corrections=tuple(Correction.from_dict(c) for c in data["corrections"]),
                withdrawals=tuple(Withdrawal.from_dict(w) for w in withdrawals),
            )
        except TournamentError:
            raise
        except KeyError as exc:
            raise TournamentError(f"the tournament file lacks the field {exc.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise TournamentError(f"the tournament file is malformed: {exc}") from None

    # -- invariants

    def _check(self) -> None:
        registered: tuple[Team, ...] = ()
        for team in self.teams:
            if not isinstance(team, Team):
                raise TournamentError(f"only a Team can register, not {team!r}")
            _check_new_team(registered, team)
            registered += (team,)
        if not isinstance(self.registration_closed, bool):
            raise TournamentError("registration_closed must be True or False")
        if len(self.teams) == MAX_TEAMS and not self.registration_closed:
            raise TournamentError(f"registration closes at {MAX_TEAMS} teams")
        if self.registration_closed:
            _check_closable(len(self.teams))
        if self.rounds and not self.registration_closed:
            raise TournamentError("rounds cannot be played while registration is open")
        if len(self.rounds) > ROUNDS:
            raise TournamentError(f"the tournament has {ROUNDS} rounds, not {len(self.rounds)}")
        self._check_withdrawals()
        for index, r in enumerate(self.rounds):
            _check_round(r, index + 1, set(self.in_play(index + 1)))
            if index + 1 < len(self.rounds) and not r.complete:
                raise TournamentError(
                    f"round {r.number} lacks results at table(s) "
                    f"{', '.join(map(str, r.missing))} but round {r.number + 1} has started"
                )
        self._check_corrections()

    def _check_withdrawals(self) -> None:
        names = {t.name for t in self.teams}
        seen: set[str] = set()
        for w in self.withdrawals:
            if not isinstance(w, Withdrawal):
                raise TournamentError(f"a withdrawal must be a Withdrawal, not {w!r}")
            if w.team not in names:
                raise TournamentError(f"team {w.team!r} withdrew but is not registered")
            if w.team in seen:
                raise TournamentError(f"team {w.team!r} withdrew twice")
            seen.add(w.team)
            if not self.registration_closed:
                raise TournamentError(f"team {w.team!r} withdrew while registration was open")
            if w.round_number > len(self.rounds):
                raise TournamentError(f"team {w.team!r} withdrew in round {w.round_number}, which has not started")
        for number in range(1, min(len(self.rounds) + 1, ROUNDS) + 1) if self.withdrawals else ():
            if len(self.in_play(number)) < 2:
                raise TournamentError(f"round {number} would have fewer than two teams to play")

    def _check_corrections(self) -> None:
        last: dict[tuple[int, int], MatchResult] = {}
        for c in self.corrections:
            if not isinstance(c, Correction):
                raise TournamentError(f"a correction must be a Correction, not {c!r}")
            if not 1 <= c.round_number <= len(self.rounds):
                raise TournamentError(f"a correction names round {c.round_number}, which was not played")
            r = self.rounds[c.round_number - 1]
            pairing = r.pairing(c.table)
            for version in (c.before, c.after):
                if not isinstance(version, MatchResult):
                    raise TournamentError(
                        f"round {r.number}, table {c.table}: a correction holds {version!r}, not a result"
                    )
                if version.table != c.table or version.teams != pairing.teams:
                    raise TournamentError(
                        f"round {r.number}, table {c.table}: a correction's result is not for "
                        f"{pairing.team_a} v {pairing.team_b}"
                    )
            previous = last.get((c.round_number, c.table))
            if previous is not None and previous != c.before:
                raise TournamentError(f"round {r.number}, table {c.table}: the corrections do not follow one another")
            last[(c.round_number, c.table)] = c.after
        for (number, table), result in last.items():
            if self.rounds[number - 1].result(table) != result:
                raise TournamentError(f"round {number}, table {table}: the result differs from its last correction")


def _check_new_team(registered: Iterable[Team], team: Team) -> None:
    registered = tuple(registered)
    if len(registered) >= MAX_TEAMS:
        raise TournamentError(
            f"at most {MAX_TEAMS} teams; team {team.name!r} cannot register",
            code="too_many",
            most=MAX_TEAMS,
            team=team.name,
        )
    teams_of = {_key(p): t.name for t in registered for p in t.players}
    for t in registered:
        if t.key == team.key:
            raise TournamentError(f"a team called {t.name!r} is already registered", code="team_taken", team=t.name)
    for player in team.players:
        other = teams_of.get(_key(player))
        if other is not None:
            raise TournamentError(
                f"player {player!r} of team {team.name!r} already plays for team {other!r}",
                code="player_taken",
                player=player,
                team=team.name,
                other=other,
            )


def _check_closable(count: int) -> None:
    if count < MIN_TEAMS or count % 2:
        raise TournamentError(
            f"registration can close with an even number of teams from {MIN_TEAMS} to {MAX_TEAMS} "
            f"(every team plays every round, there are no byes), not with {count}",
            code="cannot_close",
            least=MIN_TEAMS,
            most=MAX_TEAMS,
            teams=count,
        )


def _check_round(r: Round, number: int, names: set[str]) -> None:
    if not isinstance(r, Round):
        raise TournamentError(f"round {number} must be a Round, not {r!r}")
    if r.number != number:
        raise TournamentError(f"round {number} is numbered {r.number}")
    tables = [p.table for p in r.pairings]
    if tables != list(range(1, len(names) // 2 + 1)):
        raise TournamentError(f"round {number} must have tables 1 to {len(names) // 2} in order, not {tables}")
    if (r.bye is not None) != (len(names) % 2 == 1):
        raise TournamentError(
            f"round {number} has {len(names)} teams to play: "
            + ("one of them has a bye" if len(names) % 2 else "none has a bye")
        )
    playing = list(r.teams)
    for name in playing:
        if name not in names:
            raise TournamentError(f"round {number}: team {name!r} is not registered, or withdrew before it")
    if len(set(playing)) != len(playing):
        twice = sorted({n for n in playing if playing.count(n) > 1})
        raise TournamentError(f"round {number}: team(s) {', '.join(twice)} play at two tables")
    if set(playing) != names:
        idle = sorted(names - set(playing))
        raise TournamentError(f"round {number}: team(s) {', '.join(idle)} have no table")
    if r.seed is not None and (isinstance(r.seed, bool) or not isinstance(r.seed, (int, str))):
        raise TournamentError(f"round {number}: the seed must be a whole number or text")
    if r.started_at is not None:
        _check_times(r.started_at)
    seen: set[int] = set()
    for result in r.results:
        pairing = r.pairing(result.table)
        if result.table in seen:
            raise TournamentError(f"round {number}, table {result.table} has two results")
        seen.add(result.table)
        if result.teams != pairing.teams:
            raise TournamentError(
                f"round {number}, table {result.table}: the result is for {result.team_a} v "
                f"{result.team_b}, but the table is {pairing.team_a} v {pairing.team_b}"
            )


def _standing_part(result: MatchResult) -> tuple[object, ...]:
    """What a result says for the standings: all of it but its reason."""
    return (result.table, result.teams, result.points_a, result.points_b, result.winner, result.ended)


def _as_paired(number: int, pairing: Pairing, result: MatchResult) -> MatchResult:
    """The result in the pairing's spelling and order, so equal results compare equal."""
    keys = (_key(result.team_a), _key(result.team_b))
    paired = (_key(pairing.team_a), _key(pairing.team_b))
    if keys == paired:
        points_a, points_b = result.points_a, result.points_b
    elif keys == paired[::-1]:
        points_a, points_b = result.points_b, result.points_a
    else:
        raise TournamentError(
            f"round {number}, table {pairing.table} is {pairing.team_a} v {pairing.team_b}, "
            f"not {result.team_a} v {result.team_b}"
        )
    winner = pairing.team_a if _key(result.winner) == paired[0] else pairing.team_b
    return MatchResult(
        table=pairing.table,
        team_a=pairing.team_a,
        team_b=pairing.team_b,
        points_a=points_a,
        points_b=points_b,
        winner=winner,
        ended=result.ended,
        reason=result.reason,
    )
