"""The tournament's words for players, in the page's language (Flask-Babel, as webapp/wording.py).

The director's page, the standings board and the table cards say the phase, each table's state,
results and corrections here; a table's own match page says its bell and result here (`table`),
drawn in each language at render time while the board's JSON keeps English. The scorer's
tournament refusals carry a code and parameters (`scorer.tournament.TournamentError`) that
`refusal` words with names and numbers from 1; a code with no sentence here falls back to the
scorer's own message, which the command line keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as L
from flask_babel import ngettext

from scorer.tournament import BYE_POINTS, TARGET, BellAction, Ending, TournamentError

from ..bidi import name as _n

#: The history's actions (`TournamentChange.action`), in words.
ACTIONS = {
    "create": L("Tournament created"),
    "import": L("Tournament imported"),
    "register": L("Team registered"),
    "close": L("Registration closed"),
    "round": L("Round started"),
    "result": L("Result recorded"),
    "bell": L("Bell recorded"),
    "correct": L("Result corrected"),
    "withdraw": L("Team withdrawn"),
}
#: Who made a change the history names by a word of its own (`service.BY_MATCH`, the default name).
WHO = {"the companion": L("the companion"), "director": L("director")}


def action(name: str) -> str:
    return str(ACTIONS.get(name, name))


def who(name: str) -> str:
    return str(WHO.get(name, name))


def phase(name: str, n: int) -> str:
    """What the tournament is doing now ("Round 2 in play")."""
    if name == "registration":
        return _("Registration open")
    if name == "ready":
        return _("Registration closed: ready for round 1")
    if name == "round":
        return _("Round %(n)s in play", n=n)
    if name == "break":
        return _("Break after round %(n)s", n=n)
    if name == "between":
        return _("Round %(n)s finished", n=n)
    if name == "finished":
        return _("Tournament finished")
    return name


def ended(value: str) -> str:
    """How a result ended."""
    if value == Ending.TARGET.value:
        return _("reached %(n)s", n=TARGET)
    if value == Ending.BELL.value:
        return _("at the bell")
    if value == Ending.DIRECTOR.value:
        return _("director's decision")
    return value


def _score(r: dict[str, Any]) -> tuple[int, int]:
    """The winner's points and the loser's, from a result's dict."""
    if r["winner"] == r["team_a"]:
        return r["points_a"], r["points_b"]
    return r["points_b"], r["points_a"]


def won(r: dict[str, Any]) -> str:
    """ "Ases won 100–40 (reached 100)" from a result's dict (`MatchResult.to_dict`)."""
    high, low = _score(r)
    return _("%(team)s won %(won)s–%(lost)s (%(how)s)", team=_n(r["winner"]), won=high, lost=low, how=ended(r["ended"]))


def result(r: Any) -> str:
    """A whole result: "Ases 100–40 Reyes: Ases won (reached 100) — a reason"."""
    said = _(
        "%(team_a)s %(points_a)s–%(points_b)s %(team_b)s: %(winner)s won (%(how)s)",
        team_a=_n(r.team_a),
        points_a=r.points_a,
        points_b=r.points_b,
        team_b=_n(r.team_b),
        winner=_n(r.winner),
        how=ended(r.ended.value),
    )
    return f"{said} — {_n(r.reason)}" if r.reason else said


def call(c: Any) -> str:
    """What a table's match says now (`calls.Call`): its result, or what the table does."""
    if c.result is not None:
        if c.result.ended is Ending.BELL:
            return _("%(team)s led at the bell", team=_n(c.result.winner))
        return _("%(team)s reached %(n)s", team=_n(c.result.winner), n=TARGET)
    if c.action is BellAction.FINISH_HAND:
        return _("bell rung: finish the hand in play")
    if c.action is BellAction.EXTRA_HAND:
        return _("equal at the bell: one more hand")
    if c.action is BellAction.PLAY_ON:
        return _("playing")
    return str(c.words)


def bye(team: str) -> str:
    """A round's bye: "Ases: bye (a win, 100–0)"."""
    return _("%(team)s: bye (a win, %(points)s–0)", team=_n(team), points=BYE_POINTS)


def withdrawn(team: str, number: int) -> str:
    """ "Ases withdrew in round 2" (round 0: before round 1)."""
    if number == 0:
        return _("%(team)s withdrew before round 1", team=_n(team))
    return _("%(team)s withdrew in round %(n)s", team=_n(team), n=number)


def no_match() -> str:
    return _("no match")


def match_says(r: Any) -> str:
    return _("the table's match says %(result)s: correct the result if that is right", result=result(r))


def table(t: dict[str, Any]) -> dict[str, str | None]:
    """A table's banner (None: no banner) and the line under it, from the dict `table.of_match`
    makes: its result, state, bell and the hands that count."""
    r = t.get("result")
    if r is not None:
        banner = _("Match decided: %(won)s", won=won(r))
        return {"banner": banner, "note": _decided_note(r, t.get("deciding_hand"), t.get("hands_not_counting") or [])}
    if t.get("rung") and t.get("state") == BellAction.FINISH_HAND.value:
        return {
            "banner": _("Bell: finish the hand in play"),
            "note": _("Then the higher score wins; equal scores play one more hand."),
        }
    if t.get("rung") and t.get("state") == BellAction.EXTRA_HAND.value:
        return {
            "banner": _("Bell: the scores are equal, play one more hand"),
            "note": _("The first hand to leave the scores unequal decides the match."),
        }
    return {"banner": None, "note": _("To 100, or the bell at 30 minutes: then finish the hand in play.")}


def _decided_note(r: dict[str, Any], counting: int | None, later: list[int]) -> str | None:
    if r["ended"] == Ending.DIRECTOR.value:
        return (
            _("The director's decision: %(why)s", why=_n(r["reason"]))
            if r.get("reason")
            else _("The director's decision.")
        )
    if counting is None:
        return None
    if later:
        return ngettext(
            "Hand %(hand)s decided it: hand %(later)s, started after it, does not count.",
            "Hand %(hand)s decided it: hands %(later)s, started after it, do not count.",
            len(later),
            hand=counting,
            later=", ".join(str(h) for h in later),
        )
    if r["ended"] == Ending.BELL.value:
        return _("Hand %(hand)s decided it: a hand started after it does not count.", hand=counting)
    return None


def _numbers(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def _at(p: dict[str, Any]) -> str:
    return _(
        "Table %(table)s (%(team_a)s v %(team_b)s)", table=p["table"], team_a=_n(p["team_a"]), team_b=_n(p["team_b"])
    )


def _at_target(p: dict[str, Any], team: str) -> dict[str, Any]:
    """The names a refusal about the target fills in: the table, its `team` ("winner" or "loser"),
    that team's points and the target."""
    return {"at": _at(p), team: _n(p[team]), "points": p["points"], "target": p["target"]}


#: The scorer's tournament refusals (`TournamentError.code`), worded for the director.
RULES: dict[str, Callable[[dict[str, Any]], str]] = {
    "player_twice": lambda p: _("Team %(team)s lists %(player)s twice.", team=_n(p["team"]), player=_n(p["player"])),
    "no_table": lambda p: _(
        "Round %(round)s has no table %(table)s (tables 1 to %(tables)s).",
        round=p["round"],
        table=p["table"],
        tables=p["tables"],
    ),
    "negative_points": lambda p: _("%(at)s: %(team)s cannot have fewer than 0 points.", at=_at(p), team=_n(p["team"])),
    "winner_elsewhere": lambda p: _(
        "%(at)s: %(winner)s did not play at this table.", at=_at(p), winner=_n(p["winner"])
    ),
    "target_short": lambda p: _(
        "%(at)s: %(winner)s has %(points)s points; a match won at the target needs %(target)s.",
        **_at_target(p, "winner"),
    ),
    "both_at_target": lambda p: _(
        "%(at)s: %(loser)s has %(points)s points too; the match stops when the first team reaches %(target)s.",
        **_at_target(p, "loser"),
    ),
    "bell_at_target": lambda p: _(
        "%(at)s: %(winner)s reached %(target)s (%(points)s points), so the match ended at the target, not at the bell.",
        **_at_target(p, "winner"),
    ),
    "bell_equal": lambda p: _(
        "%(at)s: the scores are equal at the bell (%(points)s); one more hand is played until they differ.",
        at=_at(p),
        points=p["points"],
    ),
    "bell_lower": lambda p: _(
        "%(at)s: at the bell the higher score wins, and %(loser)s has %(loser_points)s to %(winner_points)s "
        "for %(winner)s.",
        at=_at(p),
        loser=_n(p["loser"]),
        loser_points=p["loser_points"],
        winner_points=p["winner_points"],
        winner=_n(p["winner"]),
    ),
    "needs_reason": lambda p: _("%(at)s: a result decided by the director needs its reason.", at=_at(p)),
    "registration_closed": lambda p: _(
        "Registration is closed (%(teams)s teams): %(team)s cannot register.", teams=p["teams"], team=_n(p["team"])
    ),
    "already_closed": lambda p: _("Registration is already closed."),
    "registration_open": lambda p: _(
        "Registration is still open (%(teams)s teams): close it before round 1.", teams=p["teams"]
    ),
    "last_round": lambda p: _(
        "The tournament has %(rounds)s rounds: round %(rounds)s was the last.", rounds=p["rounds"]
    ),
    "round_unfinished": lambda p: ngettext(
        "Round %(round)s is not finished: table %(tables)s has no result yet.",
        "Round %(round)s is not finished: tables %(tables)s have no result yet.",
        len(p["tables"]),
        round=p["round"],
        tables=_numbers(p["tables"]),
    ),
    "has_result": lambda p: _(
        "Round %(round)s, table %(table)s already has a result: to change it, correct it with a reason.",
        round=p["round"],
        table=p["table"],
    ),
    "no_result": lambda p: _(
        "Round %(round)s, table %(table)s has no result to correct: record it first.",
        round=p["round"],
        table=p["table"],
    ),
    "same_result": lambda p: _(
        "Round %(round)s, table %(table)s: the correction is the result already recorded (the same points, "
        "winner and ending; a new reason alone is no correction).",
        round=p["round"],
        table=p["table"],
    ),
    "too_many": lambda p: _("At most %(most)s teams: %(team)s cannot register.", most=p["most"], team=_n(p["team"])),
    "team_taken": lambda p: _("A team called %(team)s is already registered.", team=_n(p["team"])),
    "player_taken": lambda p: _(
        "%(player)s of %(team)s already plays for %(other)s.",
        player=_n(p["player"]),
        team=_n(p["team"]),
        other=_n(p["other"]),
    ),
    "withdraw_open": lambda p: _(
        "Registration is still open: %(team)s can withdraw once it has closed.", team=_n(p["team"])
    ),
    "withdrawn_already": lambda p: _("%(team)s has withdrawn already.", team=_n(p["team"])),
    "withdraw_over": lambda p: _("The tournament is over: %(team)s cannot withdraw.", team=_n(p["team"])),
    "withdraw_last": lambda p: _(
        "%(team)s cannot withdraw: at least two teams must stay in to play.", team=_n(p["team"])
    ),
    "cannot_close": lambda p: _(
        "Registration closes with an even number of teams from %(least)s to %(most)s (every team plays every "
        "round, there are no byes), not with %(teams)s.",
        least=p["least"],
        most=p["most"],
        teams=p["teams"],
    ),
}


def refusal(error: TournamentError) -> str:
    """The scorer's refusal in the director's words and language; its own message where no code fits."""
    say = RULES.get(error.code)
    if say is None:
        return error.message
    try:
        return say(dict(error.params))
    except (KeyError, TypeError, ValueError):
        return error.message
