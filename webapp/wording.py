"""The page's words for players: names for seats, numbers from 1, in the page's language.

The rules engine says what is wrong with a code and its parameters (scorer.errors.RecordError);
this module words each code for the table ("Ben cannot pass: 14 tiles are in the boneyard"),
where the command line keeps the engine's precise sentence. Events, hands and sides are worded
here too. Every sentence goes through Flask-Babel, so the catalogue (webapp/translations) holds
them all; a code with no sentence here falls back to the engine's own message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as L
from flask_babel import ngettext

from scorer.variants import VARIANTS as _RULES

#: Which games are played in teams (their sides are named "Ana & Cruz").
VARIANTS_TEAMS = {name: v.teams for name, v in _RULES.items()}
#: Numbers as said aloud, for a tile's spoken name ("five-five").
NUMBERS = (L("blank"), L("one"), L("two"), L("three"), L("four"), L("five"), L("six"))
ENDS = {"west": L("west"), "north": L("north"), "south": L("south"), "east": L("east"), "lead": L("lead")}

VARIANTS = {
    "partners": L("Partners (fives, spinner; 4 in teams, 250)"),
    "partners-block": L("Partners block (4 in teams, 100)"),
    "all-fives": L("All fives (2–4 alone, boneyard)"),
    "all-fives-bonus": L("All fives, bonus (2–4, over 100)"),
    "block": L("Block (2–4 alone, 100)"),
    "draw": L("Draw (2–4 alone)"),
    "cross": L("Cross (penalties, elimination at 100)"),
    "twelve": L("Twelve (memory game, 1 player: pairs of 12)"),
}
#: The house rules of the new-match form: each option and each of its choices, in words.
OPTIONS = {
    "preset": L("Preset"),
    "end_at_target": L("When a side reaches the target"),
    "spinner_order": L("The spinner's arms"),
    # RULES.md: with sniff the spinner keeps counting while any of its sides is open
    "sniff": L("Sniff (the spinner counts while a side is open)"),
    "round_each_hand": L("Round each hand's points to five"),
    "tie": L("A blocked hand with equal pips"),
    "winners_score": L("The winners of a blocked hand score"),
    "sets": L("Tiles (twelve)"),
}
CHOICES: dict[str, dict[Any, Any]] = {
    "end_at_target": {"at_once": L("the match ends at once"), "end_of_hand": L("the hand is played out first")},
    "spinner_order": {"sides_first": L("west and east first, then north and south"), "any": L("any arm, any time")},
    "sniff": {False: L("no"), True: L("yes")},
    "round_each_hand": {False: L("no"), True: L("yes")},
    "tie": {"no_score": L("nobody scores"), "leading_team_wins": L("the team that led wins")},
    "winners_score": {"losers": L("the losers' pips"), "all": L("every pip left")},
    "sets": {1: L("one set, 28 tiles"), 2: L("two sets, 56 tiles")},
}


def spoken(tile: str) -> str:
    """A tile's name as a screen reader says it: "five-five"."""
    try:
        a, b = (int(v) for v in str(tile).split("-"))
        return f"{NUMBERS[a]}-{NUMBERS[b]}"
    except (ValueError, IndexError):
        return str(tile)


def end(name: object) -> str:
    return str(ENDS.get(name, name)) if isinstance(name, str) else ""


class Table:
    """The names at one table: players by seat, sides (teams) by number."""

    def __init__(self, players: Sequence[str], sides: Sequence[str] | None = None) -> None:
        self.players = list(players)
        self.sides = list(sides) if sides else list(players)

    def seat(self, seat: object) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.players):
            return self.players[seat]
        return _("seat %(n)s", n=seat + 1) if isinstance(seat, int) else str(seat)

    def side(self, side: object) -> str:
        if isinstance(side, int) and not isinstance(side, bool) and 0 <= side < len(self.sides):
            return self.sides[side]
        return str(side)

    def seats(self, seats: Sequence[int]) -> str:
        return ", ".join(self.seat(s) for s in seats)


def where(hand: int | None, event: int | None, kind: object = None) -> str:
    """Where in the match, as players count: "Hand 2, play 6", or for an event that is no play,
    its number in the hand's list and what it is: "Hand 2, no. 7 (a draw)". `kind`: the event's
    type, where known."""
    if hand is None:
        return ""
    if event is None:
        return _("Hand %(hand)s", hand=hand + 1)
    if kind == "play":
        return _("Hand %(hand)s, play %(play)s", hand=hand + 1, play=event + 1)
    what = KINDS.get(kind) if isinstance(kind, str) else None
    if what is None:
        return _("Hand %(hand)s, no. %(n)s", hand=hand + 1, n=event + 1)
    return _("Hand %(hand)s, no. %(n)s (%(what)s)", hand=hand + 1, n=event + 1, what=what)


#: What each kind of event other than a play is, where a message numbers it.
KINDS = {
    "pass": L("a pass"),
    "draw": L("a draw"),
    "reveal": L("tiles shown"),
    "pips": L("pips counted"),
    "adjust": L("an adjustment"),
}


def kind_at(record: dict[str, Any] | None, hand: object, event: object) -> str | None:
    """The type of event `event` of hand `hand` in `record`, if it is there."""
    try:
        found = record["hands"][hand]["events"][event]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        return None
    kind = found.get("type") if isinstance(found, dict) else None
    return kind if isinstance(kind, str) else None


def event_words(event: dict[str, Any], table: Table) -> str:
    """One event of the record in players' words: "Ben passed", "Ana played 4-6 on the west"."""
    try:
        return _event_words(event, table)
    except (TypeError, ValueError):  # an odd field in an old record: still a page, never a 500
        return _("an event the page does not know")


def _event_words(event: dict[str, Any], table: Table) -> str:
    kind = event.get("type")
    who = table.seat(event.get("seat")) if "seat" in event else table.side(event.get("team"))
    if kind == "play":
        if isinstance(event.get("end"), str):
            return _("%(who)s played %(tile)s on the %(end)s", who=who, tile=event.get("tile"), end=end(event["end"]))
        return _("%(who)s played %(tile)s", who=who, tile=event.get("tile"))
    if kind == "pass":
        return _("%(who)s passed", who=who)
    if kind == "draw":
        if event.get("tile"):
            return _("%(who)s drew %(tile)s", who=who, tile=event["tile"])
        count = event.get("count", 1)
        count = count if isinstance(count, int) and not isinstance(count, bool) else 1
        return ngettext("%(who)s drew a tile", "%(who)s drew %(num)s tiles", count, who=who)
    if kind == "reveal":
        tiles = ", ".join(map(str, event.get("tiles") or []))
        return _("%(who)s showed %(tiles)s", who=who, tiles=tiles) if tiles else _("%(who)s showed no tiles", who=who)
    if kind == "pips":
        pips = event.get("pips")
        return ngettext(
            "%(who)s had %(num)s pip left",
            "%(who)s had %(num)s pips left",
            pips if isinstance(pips, int) else 2,
            who=who,
        )
    if kind == "adjust":
        return _(
            "%(points)+d for %(who)s: %(reason)s",
            points=event.get("points") or 0,
            who=who,
            reason=event.get("reason") or "",
        )
    if kind == "flip":
        turned = [str(t) for t in event.get("tiles") or []]
        if len(turned) == 2:
            return _("Turned %(first)s and %(second)s", first=turned[0], second=turned[1])
    return _("an event the page does not know")


def inferred_pass(seat: int, table: Table) -> str:
    return _("%(who)s passed (seen from the next play)", who=table.seat(seat))


# -- the rules engine's refusals -----------------------------------------------------------------


def _why_end(p: dict[str, Any], t: Table) -> str:
    reason = p.get("reason", "")
    words = {
        "no_spinner_yet": _("there is no spinner yet"),
        "no_spinner": _("this game has no spinner"),
        "sides_first": _("the spinner's west and east sides come first"),
        "not_open": _("that end is not open"),
        "shows": _("it shows %(n)s", n=p.get("shows")),
        "cross_sides": _("all four sides of the spinner come first"),
        "cross_double": _("it shows %(n)s, and that double is not down yet", n=p.get("shows")),
    }
    return _(
        "%(tile)s does not fit the %(end)s end: %(why)s",
        tile=p.get("tile"),
        end=end(p.get("end")),
        why=words.get(reason, _("not allowed")),
    )


def _ends(values: dict[str, int]) -> str:
    return ", ".join(_("%(end)s shows %(n)s", end=end(k), n=v) for k, v in values.items())


def _passer(p: dict[str, Any], t: Table) -> str:
    """Who passed: a pass tapped, or one the engine sees from a later seat's play."""
    if p.get("inferred") is not None:
        return _("It is %(who)s's turn: %(who)s cannot have passed", who=t.seat(p.get("seat")))
    return _("%(who)s cannot pass", who=t.seat(p.get("seat")))


#: Each code of scorer.errors.RecordError: its words for players, from its params and the table.
RULES: dict[str, Callable[[dict[str, Any], Table], str]] = {
    "shape": lambda p, t: _("%(field)s is not written as the game record says.", field=p.get("field") or "?"),
    "event_shape": lambda p, t: _("That is not an event the score keeps."),
    "event_type": lambda p, t: _("That is not an event the score keeps."),
    "seat_field": lambda p, t: _("Choose who played."),
    "seat_eliminated": lambda p, t: _("%(who)s is out of the match and does not play.", who=t.seat(p.get("seat"))),
    "tile_text": lambda p, t: _("%(text)s is not a tile.", text=p.get("text")),
    "after_end": lambda p, t: (
        _("The hand is over: %(who)s went out.", who=t.seat(p.get("seat")))
        if p.get("end") == "out"
        else _("The hand is over: it was blocked.")
        if p.get("end") == "blocked"
        else _("The hand is over: the match was won in it.")
    ),
    "on_table": lambda p, t: _(
        "%(tile)s is already on the table (play %(play)s).", tile=p.get("tile"), play=(p.get("at") or 0) + 1
    ),
    "revealed_by": lambda p, t: _("%(who)s showed %(tile)s already.", who=t.seat(p.get("seat")), tile=p.get("tile")),
    "held_by": lambda p, t: _("%(who)s holds %(tile)s.", who=t.seat(p.get("seat")), tile=p.get("tile")),
    "in_boneyard": lambda p, t: _(
        "%(who)s does not hold %(tile)s: it is in the boneyard.", who=t.seat(p.get("seat")), tile=p.get("tile")
    ),
    "not_held": lambda p, t: _("%(who)s does not hold %(tile)s.", who=t.seat(p.get("seat")), tile=p.get("tile")),
    "cannot_play": lambda p, t: _("%(who)s cannot play %(tile)s.", who=t.seat(p.get("seat")), tile=p.get("tile")),
    "already_blocked": lambda p, t: _("Everybody else passed since the last tile: the hand is blocked."),
    "pass_drawn_fits": lambda p, t: _(
        "%(passer)s: %(tile)s was drawn and fits, so it is played at once.", passer=_passer(p, t), tile=p.get("tile")
    ),
    "pass_boneyard": lambda p, t: ngettext(
        "%(passer)s: %(num)s tile is in the boneyard, so a player who cannot play draws.",
        "%(passer)s: %(num)s tiles are in the boneyard, so a player who cannot play draws until a tile fits.",
        p.get("boneyard") or 0,
        passer=_passer(p, t),
    ),
    "pass_can_play": lambda p, t: _(
        "%(passer)s: %(tile)s fits the %(end)s end, and a player who can play must play.",
        passer=_passer(p, t),
        tile=p.get("tile"),
        end=end(p.get("end")),
    ),
    "lead_seat": lambda p, t: _(
        "%(leader)s leads this hand, not %(who)s.", leader=t.seat(p.get("leader")), who=t.seat(p.get("seat"))
    ),
    "lead_tile": lambda p, t: _("The lead must be %(lead)s, not %(tile)s.", lead=p.get("lead"), tile=p.get("tile")),
    "lead_double": lambda p, t: _("The lead must be a double, not %(tile)s.", tile=p.get("tile")),
    "lead_not_highest": lambda p, t: _(
        "%(who)s held %(tile)s from the deal, a higher double than the lead %(lead)s: "
        "the highest double leads. Deal this hand again, or keep it as played.",
        who=t.seat(p.get("seat")),
        tile=p.get("tile"),
        lead=p.get("lead"),
    ),
    "lead_duty": lambda p, t: (
        _(
            "%(who)s won the last hand and held %(tile)s from the deal, so %(who)s leads a double, "
            "not %(leader)s. Deal this hand again, or keep it as played.",
            who=t.seat(p.get("seat")),
            tile=p.get("tile"),
            leader=t.seat(p.get("leader")),
        )
        if p.get("seat") == p.get("duty")
        else _(
            "%(who)s held %(tile)s from the deal, so the lead did not pass on from %(winner)s, "
            "the last hand's winner, to %(leader)s. Deal this hand again, or keep it as played.",
            who=t.seat(p.get("seat")),
            tile=p.get("tile"),
            winner=t.seat(p.get("duty")),
            leader=t.seat(p.get("leader")),
        )
    ),
    "must_play_drawn": lambda p, t: _(
        "%(who)s drew %(tile)s, which fits: it is played at once.", who=t.seat(p.get("seat")), tile=p.get("tile")
    ),
    "no_tiles_left": lambda p, t: _("%(who)s has no tiles left.", who=t.seat(p.get("seat"))),
    "lead_end": lambda p, t: _("The lead goes in the middle: it has no end."),
    "end_name": lambda p, t: _("Choose one of the open ends."),
    "end_no_fit": _why_end,
    "fits_nothing": lambda p, t: _(
        "%(tile)s fits no open end (%(ends)s).", tile=p.get("tile"), ends=_ends(p.get("ends") or {})
    ),
    "name_end": lambda p, t: _("%(tile)s fits more than one end: choose where it goes.", tile=p.get("tile")),
    "pass_before_lead": lambda p, t: _("Nobody passes before the lead: the leader plays any tile."),
    "no_boneyard": lambda p, t: _("This game has no boneyard to draw from."),
    "draw_before_lead": lambda p, t: _("Nobody draws before the lead."),
    "draw_turn": lambda p, t: _(
        "It is %(turn)s's turn, not %(who)s's.", turn=t.seat(p.get("turn")), who=t.seat(p.get("seat"))
    ),
    "draw_count": lambda p, t: _("A draw is of one tile or more."),
    "draw_both": lambda p, t: _("A draw is one tile seen or a number of tiles unseen, not both."),
    "draw_neither": lambda p, t: _("A draw names the tile seen, or how many tiles were drawn unseen."),
    "draw_name": lambda p, t: _("This match names every tile drawn."),
    "boneyard_short": lambda p, t: ngettext(
        "The boneyard holds %(num)s tile.", "The boneyard holds %(num)s tiles.", p.get("boneyard") or 0
    ),
    "draw_can_play": lambda p, t: _(
        "%(who)s holds %(tile)s, which fits: a player who can play must play.",
        who=t.seat(p.get("seat")),
        tile=p.get("tile"),
    ),
    "holds_already": lambda p, t: _("%(who)s holds %(tile)s already.", who=t.seat(p.get("seat")), tile=p.get("tile")),
    "set_aside": lambda p, t: _("%(tile)s is set aside, not in the boneyard.", tile=p.get("tile")),
    "not_in_boneyard": lambda p, t: _("%(tile)s is not in the boneyard.", tile=p.get("tile")),
    "reveal_field": lambda p, t: _("Tap the tiles left, then Show tiles."),
    "reveal_twice": lambda p, t: _("%(tile)s was shown twice.", tile=p.get("tile")),
    "reveal_count": lambda p, t: ngettext(
        "%(who)s holds %(num)s tile, not the number shown (%(shown)s).",
        "%(who)s holds %(num)s tiles, not the number shown (%(shown)s).",
        p.get("holds") or 0,
        who=t.seat(p.get("seat")),
        shown=p.get("shown"),
    ),
    "reveal_not_dealt": lambda p, t: _(
        "%(who)s was not dealt those tiles: %(who)s holds %(tiles)s.", who=t.seat(p.get("seat")), tiles=p.get("holds")
    ),
    "reveal_missing": lambda p, t: _(
        "%(who)s drew %(tile)s in sight: show it too.", who=t.seat(p.get("seat")), tile=p.get("tile")
    ),
    "passed_holding": lambda p, t: _(
        "%(who)s passed (no. %(play)s) while holding %(tile)s, which fitted the %(end)s end.",
        who=t.seat(p.get("seat")),
        play=(p.get("at") or 0) + 1,
        tile=p.get("tile"),
        end=end(p.get("end")),
    ),
    "drew_holding": lambda p, t: _(
        "%(who)s drew (no. %(play)s), but the tiles shown say a tile that fitted was held then: "
        "a player who can play must play.",
        who=t.seat(p.get("seat")),
        play=(p.get("at") or 0) + 1,
    ),
    "reveal_early": lambda p, t: _(
        "The hand is not over yet: tiles are shown when somebody goes out or nobody can play."
    ),
    "reveal_out": lambda p, t: _("%(who)s went out and holds nothing.", who=t.seat(p.get("seat"))),
    "counted_already": lambda p, t: _("%(who)s's tiles are counted already.", who=t.seat(p.get("seat"))),
    "pips_field": lambda p, t: _("Type the pips left as a whole number."),
    "pips_range": lambda p, t: ngettext(
        "%(who)s holds %(num)s tile: its pips are from %(least)s to %(most)s, not %(pips)s.",
        "%(who)s holds %(num)s tiles: together their pips are from %(least)s to %(most)s, not %(pips)s.",
        p.get("holds") or 0,
        who=t.seat(p.get("seat")),
        pips=p.get("pips"),
        least=p.get("least"),
        most=p.get("most"),
    ),
    "pips_deal": lambda p, t: ngettext(
        "%(who)s holds %(num)s pip, not %(pips)s.",
        "%(who)s holds %(num)s pips, not %(pips)s.",
        p.get("known") if isinstance(p.get("known"), int) else 2,
        who=t.seat(p.get("seat")),
        pips=p.get("pips"),
    ),
    "pips_total": lambda p, t: _(
        "The pips add up to %(total)s, but %(off)s are off the table: a count is wrong.",
        total=p.get("total"),
        off=p.get("off"),
    ),
    "adjust_side": lambda p, t: _("Choose who the adjustment is for."),
    "adjust_points": lambda p, t: _("Points are a whole number, such as 10 or -5."),
    "adjust_reason": lambda p, t: _("An adjustment needs its reason."),
    "reshuffle": lambda p, t: _("Nobody was dealt a double: shuffle and deal again."),
    "match_won": lambda p, t: _("The match is over: %(side)s won.", side=t.side(p.get("side"))),
    "hand_open": lambda p, t: _("This hand has not ended yet."),
    "leader_field": lambda p, t: _("Choose who leads."),
    "no_hand": lambda p, t: _("No hand has started."),
    # twelve, the memory game (scorer/twelve.py)
    "twelve_flip_only": lambda p, t: _("Twelve records one thing: the two tiles turned."),
    "twelve_over": lambda p, t: _("Every tile is removed already: the game is over."),
    "twelve_two": lambda p, t: _("Turn exactly two tiles."),
    "twelve_not_tile": lambda p, t: _("%(text)s is not a tile.", text=p.get("text")),
    "twelve_same": lambda p, t: _(
        "%(tile)s was turned twice, but one set has one %(tile)s: turn two different tiles.", tile=p["tile"]
    ),
    "twelve_removed": lambda p, t: _(
        "%(tile)s was removed already: it is no longer face down on the table.", tile=p["tile"]
    ),
    "twelve_time": lambda p, t: _(
        "The time goes back: a flip's time is seconds since the first flip, never less than %(last)s.",
        last=p.get("last"),
    ),
    "twelve_time_max": lambda p, t: _(
        "The time is too large: a flip's time is at most %(most)s seconds since the first flip.", most=p["most"]
    ),
    "twelve_field": lambda p, t: _(
        "Twelve has no %(field)s: an attempt is the two tiles turned (and its time), nothing more.",
        field=p["field"],
    ),
    "twelve_players": lambda p, t: _("Twelve is played by one player: give one name."),
    "twelve_one_hand": lambda p, t: _("A game of twelve is one hand: it has no next hand."),
    "twelve_sets": lambda p, t: _("Twelve is played with one set (28 tiles) or two (56)."),
    "twelve_option": lambda p, t: _("Twelve has one house rule: how many sets of tiles."),
    "pips_needed": lambda p, t: _(
        "The last hand still needs the tiles or pips of %(who)s.", who=t.seats(p.get("seats") or [])
    ),
}


def rule(code: str | None, params: dict[str, Any] | None, message: str, table: Table) -> str:
    """The engine's refusal in players' words; its own message where the code has none here."""
    say = RULES.get(code or "")
    if say is None:
        return message
    try:
        return say(dict(params or {}), table)
    except (KeyError, TypeError, ValueError):  # odd params from an old record: the engine's words still say it
        return message


def refusal(error: dict[str, Any], table: Table, record: dict[str, Any] | None = None) -> str:
    """A whole refusal: where it happened, then why ("Hand 2, no. 6 (a pass): Ben cannot pass: ...");
    `record`: the record refused, which says what kind of event it names."""
    said = rule(error.get("code"), error.get("params"), str(error.get("error", "")), table)
    place = where(error.get("hand"), error.get("event"), kind_at(record, error.get("hand"), error.get("event")))
    return _("%(where)s: %(why)s", where=place, why=said) if place else said


def say_refusal(error: dict[str, Any], record: dict[str, Any]) -> str:
    """`refusal` for a record (the names at its table), in the request's language; the engine's
    own words outside a request (a command, a background task)."""
    from flask import has_request_context

    if not has_request_context():
        return str(error.get("error", ""))
    if record.get("variant") == "twelve":  # one hand of attempts: an attempt's number, never a hand's
        said = rule(error.get("code"), error.get("params"), str(error.get("error", "")), _table_of(record))
        if not isinstance(error.get("event"), int):
            return said
        return _("Attempt %(n)s: %(why)s", n=error["event"] + 1, why=said)
    return refusal(error, _table_of(record), record)


#: What each change of the history did, for the history page.
ACTIONS = {
    "create": L("Match started"),
    "import": L("Match imported"),
    "hand": L("New hand"),
    "event": L("Recorded"),
    "correct": L("Corrected"),
    "remove": L("Removed"),
    "undo": L("Undone"),
    "dispute": L("Disputed"),
    "settle": L("Settled"),
    "rename": L("Renamed"),
    "seating": L("Seats set"),
    "counts_open": L("Draws unseen: tile counts kept open"),
    "void": L("Hand voided, to be dealt again"),
    "lead_stands": L("Lead let stand as played"),
}


def change_words(change: Any, table: Table) -> dict[str, str]:
    """A change of the history in players' words: what was done, where, what it was and is now."""

    def said(value: Any) -> str:
        if isinstance(value, dict) and "type" in value:
            return event_words(value, table)
        if isinstance(value, dict) and "title" in value:
            return str(value["title"])
        return ""

    shown = change.after if isinstance(change.after, dict) else change.before
    return {
        "action": str(ACTIONS.get(change.action, change.action)),
        "where": where(change.hand, change.event, shown.get("type") if isinstance(shown, dict) else None),
        "before": said(change.before),
        "after": said(change.after),
    }


def say_stale(changes: Sequence[Any], record: dict[str, Any]) -> str:
    """A change refused because others were made since the version it was made on (409, `changed`):
    what they did, in players' words: "Another phone recorded Cruz played 5-6 on the west first:
    nothing was recorded for this tap. Check the board and tap again." The English of
    `errors.Stale` outside a request."""
    from flask import has_request_context

    if not has_request_context():
        return ""
    table = _table_of(record)
    memory = record.get("variant") == "twelve"
    events = [c for c in changes if c.action == "event" and isinstance(c.after, dict)]
    if changes and len(events) == len(changes) and memory:  # attempts, not a sentence each
        return ngettext(
            "Another phone recorded an attempt first (%(what)s): nothing was recorded for this tap. "
            "Check the board and tap again.",
            "Another phone recorded %(num)s attempts first (%(what)s): nothing was recorded for this tap. "
            "Check the board and tap again.",
            len(events),
            what="; ".join(_pair_words(c.after) for c in events),
        )
    if changes and len(events) == len(changes):
        what = "; ".join(event_words(c.after, table) for c in events)
        if all(c.source == "camera" for c in events):
            return _(
                "The camera recorded %(what)s first: nothing was recorded for this tap. Check the board and tap again.",
                what=what,
            )
        return _(
            "Another phone recorded %(what)s first: nothing was recorded for this tap. Check the board and tap again.",
            what=what,
        )
    said = [_stale_line(change, table, memory) for change in changes]
    if not said:
        return _("Another phone changed the match first: check the board and tap again.")
    return _(
        "Another phone changed the match first (%(what)s): nothing was recorded for this tap. "
        "Check the board and tap again.",
        what="; ".join(said),
    )


def _pair_words(event: object) -> str:
    """A flip of twelve as its two tiles: "6-6 and 0-0" (inside a sentence, where "Turned 6-6 and 0-0" is one)."""
    turned = [str(t) for t in event.get("tiles") or []] if isinstance(event, dict) else []
    if len(turned) != 2:
        return _("an event the page does not know")
    return _("%(first)s and %(second)s", first=turned[0], second=turned[1])


def _stale_line(change: Any, table: Table, memory: bool) -> str:
    """One change of a stale refusal's list: "Hand 2 started", "Undone, Hand 2, play 3: Ana played
    6-6"; in twelve, "Undone, attempt 2: 6-6 and 0-0"."""
    if change.action == "hand":
        if memory:
            return _("The game started")
        if isinstance(change.hand, int):
            return _("Hand %(hand)s started", hand=change.hand + 1)
    words = change_words(change, table)
    place = words["where"]
    if memory:
        place = _("attempt %(n)s", n=change.event + 1) if isinstance(change.event, int) else ""
        shown = change.after if isinstance(change.after, dict) and "type" in change.after else change.before
        detail = _pair_words(shown) if isinstance(shown, dict) and shown.get("type") == "flip" else ""
    else:
        detail = words["after"] or words["before"]
    line = _("%(action)s, %(where)s", action=words["action"], where=place) if place else words["action"]
    return _("%(what)s: %(detail)s", what=line, detail=detail) if detail else line


def later_unfit(error: dict[str, Any], record: dict[str, Any], index: int, event: Any, last: int) -> str:
    """A correction of play `index` (events from 0) to `event` refused because a later play of the
    hand (`error`'s event) no longer fits it: what no longer fits and why, then what to do (take it
    back with the later ones, then tap again those really played). Empty outside a request."""
    from flask import has_request_context

    if not has_request_context():
        return ""
    table = _table_of(record)
    h, later = error["hand"], error["event"]
    events = record["hands"][h]["events"]
    was = events[later] if 0 <= later < len(events) else {}
    p = error.get("params") or {}
    if p.get("inferred") is not None and isinstance(was, dict) and was.get("seat") is not None:
        # the later play makes the seat on turn have passed: say whose turn it is there instead
        why = _(
            "it is %(who)s's turn there, not %(other)s's.", who=table.seat(p.get("seat")), other=table.seat(was["seat"])
        )
    else:
        why = rule(error.get("code"), p, str(error.get("error", "")), table)
    said = _(
        "Hand %(hand)s: with play %(play)s corrected to %(now)s, play %(later)s (%(was)s) no longer fits: %(why)s",
        hand=h + 1,
        play=index + 1,
        now=event_words(event, table) if isinstance(event, dict) else "?",
        later=later + 1,
        was=event_words(was, table) if isinstance(was, dict) else "?",
        why=why,
    )
    todo = ngettext(
        "Take it back with the correction, then tap it again if it was played.",
        "Take back plays %(first)s to %(last)s with the correction, then tap again those that were played.",
        last - later + 1,
        first=later + 1,
        last=last + 1,
    )
    return f"{said}{'' if said.endswith(('.', '!', '?')) else '.'} {todo}"


def _table_of(record: dict[str, Any]) -> Table:
    players = [str(p) for p in record.get("players") or []] if isinstance(record.get("players"), list) else []
    variant = VARIANTS_TEAMS.get(record.get("variant", ""), False)
    sides = [" & ".join(players[side::2]) for side in range(2)] if variant else players
    return Table(players, sides)


def chart_words() -> dict[str, str]:
    return {"hand": _("Hand"), "points": _("Points"), "label": _("Score after each hand")}


def _form(singular: str, plural: str, n: int) -> str:
    """The catalogue's plural form for `n`, its {who} and {num} left for a script to fill in
    (flask_babel's ngettext fills in the number itself)."""
    from flask_babel import get_translations

    return str(get_translations().ngettext(singular, plural, n) % {"who": "{who}", "num": "{num}"})


def script_words() -> dict[str, str]:
    """What pad.js and board.js say, in the page's language (handed over as JSON data)."""
    return {
        "where": _("Where does %(tile)s go?", tile="{tile}"),
        "tap_tile_who": _("%(who)s: tap the tile played", who="{who}"),
        "tap_lead_who": _("%(who)s leads: tap the tile", who="{who}"),
        "tap_leader": _("Tap who leads, then the tile"),
        # the lead as the rules have it (board.pad.lead): the status line says who leads with what
        "tap_holder": _("Tap who holds %(tile)s, then %(tile)s", tile="{tile}"),
        "tap_holder_highest": _("Tap who holds the highest double, then that double"),
        "tap_leader_double": _("Tap who leads, then their double"),
        # cross, a later hand: the last winner leads a double if they hold one (RULES.md, cross)
        "tap_duty_double": _(
            "%(who)s won the last hand: if %(who)s holds a double, %(who)s leads it; if not, the next "
            "player with one. Tap who leads, then their double",
            who="{who}",
        ),
        "tap_lead_tile_who": _("%(who)s leads: tap %(tile)s", who="{who}", tile="{tile}"),
        "tap_lead_double_who": _("%(who)s leads: tap a double", who="{who}"),
        "tap_leader_first": _("Who led %(tile)s? Tap them first, then %(tile)s again.", tile="{tile}"),
        # what this phone just recorded (the msgids of event_words: one sentence in the catalogue)
        "did_pass": _("%(who)s passed", who="{who}"),
        "did_draw": ngettext("%(who)s drew a tile", "%(who)s drew %(num)s tiles", 1, who="{who}"),
        "did_play": _("%(who)s played %(tile)s", who="{who}", tile="{tile}"),
        "did_play_end": _("%(who)s played %(tile)s on the %(end)s", who="{who}", tile="{tile}", end="{end}"),
        "did_reveal": _("%(who)s showed %(tiles)s", who="{who}", tiles="{tiles}"),
        "did_reveal_none": _("%(who)s showed no tiles", who="{who}"),
        # the msgids of event_words ("Dee had 12 pips left"), each form with its {num} for the script
        "did_pips_one": _form("%(who)s had %(num)s pip left", "%(who)s had %(num)s pips left", 1),
        "did_pips": _form("%(who)s had %(num)s pip left", "%(who)s had %(num)s pips left", 2),
        # what this phone just recorded, then what to tap next: "Cruz passed. Dee: tap the tile played"
        "done_then": _("%(done)s. %(next)s", done="{done}", next="{next}"),
        # a second tap on Pass/Draw just after the first moved the turn on: held back once
        "again_pass": _("%(done)s. Tap Pass again to pass for %(who)s", done="{done}", who="{who}"),
        "again_draw": _("%(done)s. Tap Draw again to draw for %(who)s", done="{done}", who="{who}"),
        # a tap the scorer refused: what was tried, then the rule ("Ana playing 4-4 was not recorded: ...")
        "refused_play": _(
            "%(who)s playing %(tile)s was not recorded: %(why)s", who="{who}", tile="{tile}", why="{why}"
        ),
        "refused_pass": _("%(who)s passing was not recorded: %(why)s", who="{who}", why="{why}"),
        "refused_draw": _("%(who)s drawing a tile was not recorded: %(why)s", who="{who}", why="{why}"),
        # ... for a seat the scorer tapped out of turn: the pad goes back to the seat on turn
        "back_on_turn": _("The pad is back on %(who)s's turn.", who="{who}"),
        "record_for": _("Record it for %(who)s", who="{who}"),
        # the reasons kept in the history for the two ways after a cross lead proved wrong
        "why_deal_again": _("The wrong player led: the hand is dealt again"),
        "why_lead_stands": _("The wrong player led: the table keeps the hand as played"),
        "start_hand": _("Start the hand"),
        "tap_left": _("Tap the tiles left, then Show tiles"),
        "tap_left_who": _("%(who)s: tap the tiles left, then Show tiles", who="{who}"),
        "hand_over": _("Hand over"),
        "on_table": _("%(tile)s is already on the table.", tile="{tile}"),
        "lead_tile": _("The lead must be %(lead)s.", lead="{lead}"),
        "lead_double": _("The lead must be a double."),
        "fits_nothing": _("%(tile)s fits no open end (%(ends)s).", tile="{tile}", ends="{ends}"),
        "end_shows": _("%(end)s shows %(n)s", end="{end}", n="{n}"),
        "not_now": _("No tile is played now."),
        "changed": _("Another phone changed the match first: check the board and tap again."),
        "offline_tap": _("No connection: nothing was recorded. Tap again when the network is back."),
        "pips_number": _("Type the pips left as a whole number."),
        "points_number": _("Points are a whole number, such as 10 or -5."),
        "reason_needed": _("An adjustment needs its reason."),
        "why_needed": _("Say why (it is kept in the history)."),
        "live": _("live"),
        "connecting": _("connecting…"),
        "reconnecting": _("reconnecting…"),
        "polling": _("updating every 2 s"),
        "offline": _("offline: the board may be behind"),
        "gone": _("this match was deleted: the board is as it last was"),
        "server_said": _("the server answered %(status)s", status="{status}"),
        # new.js: the chosen game's own target, and what each house rule is when left alone
        "target_default": _("(blank: the game's own, %(target)s)", target="{target}"),
        "option_default": _("%(choice)s (the game's default)", choice="{choice}"),
        # new.js: how many players the chosen game takes
        "players_n": _("%(n)s players.", n="{n}"),
        "players_one": _("One player."),
        "players_range": _(
            "%(least)s to %(most)s players: leave the last seats empty for fewer.", least="{least}", most="{most}"
        ),
        # twelve.js: the memory game's taps (what each attempt did comes from the server's board)
        "twelve_first": _("Tap the two tiles turned"),
        "twelve_second": _("%(tile)s turned: tap the second tile", tile="{tile}"),
        "twelve_gone": _("%(tile)s was removed already.", tile="{tile}"),
        "twelve_removed": _(
            "%(first)s and %(second)s make 12: removed. Turn two more", first="{first}", second="{second}"
        ),
        "twelve_back": _(
            "%(first)s and %(second)s do not make 12: turned back. Turn two more", first="{first}", second="{second}"
        ),
        "twelve_done": _("Every tile is removed: the game is over."),
        # taps made while an attempt is being sent wait their turn, said so; a refusal drops those after it
        "twelve_pair": _("%(first)s and %(second)s", first="{first}", second="{second}"),
        "twelve_sending": _("Recording %(pairs)s…", pairs="{pairs}"),
        "twelve_not_sent": _("Not recorded: %(pairs)s. Check the board and tap them again.", pairs="{pairs}"),
        # another phone's change lets go of the tile chosen here
        "twelve_let_go": _("%(tile)s was let go: another phone recorded a flip; tap %(tile)s again", tile="{tile}"),
        "twelve_let_go_changed": _(
            "%(tile)s was let go: another phone changed the game; tap %(tile)s again", tile="{tile}"
        ),
        "twelve_let_go_gone": _("%(tile)s was let go: another phone recorded it removed.", tile="{tile}"),
        # camera.js: the camera box's own words (the server's answers carry theirs: `say`)
        "cam_reading": _("Reading the photo…"),
        "cam_turned_down": _("Turned down: score this play on the pad."),
        "cam_seat_turn": _("%(who)s (their turn)", who="{who}"),
        # several new tiles in more than one order: a button for each play that may have come first
        "cam_play_on": _("%(tile)s on the %(end)s", tile="{tile}", end="{end}"),
        "cam_play_who": _("%(who)s, %(tile)s on the %(end)s", who="{who}", tile="{tile}", end="{end}"),
        "seating_each": _("Put each player at one side of the picture, or nobody anywhere."),
        "seating_learnt": _(
            "The camera thinks they sit so (from the arms that laid the first tiles): save it to confirm, or change it."
        ),
        "seating_saved": _("Saved: the camera names the player by the side their arm comes from."),
        "seating_forgotten": _("Forgotten: the camera learns where they sit from the first plays."),
        "cam_no_pass": _("No one passed"),
        "cam_no_other_pass": _("No other pass: record them"),
        "cam_some_pass": _("Someone passed…"),
        "cam_which_play": _("Which play was laid right after the pass?"),
        "cam_who_laid": _("Who laid %(tile)s?", tile="{tile}"),
        "cam_pass_marked": _("%(who)s laid %(tile)s after a pass.", who="{who}", tile="{tile}"),
        "cam_offline": _("No connection: the photo was not sent. Try again, or score on the pad."),
        # the live camera did not open: why, then what to do instead
        "cam_none": _("No camera found on this device."),
        "cam_denied": _("The camera is not allowed: allow it for this page in the browser’s settings."),
        "cam_busy": _("The camera is in use by another app: close it and try again."),
        "cam_failed": _("The camera did not open."),
        "cam_instead": _("The score pad below does the same job."),
        "cam_instead_photo": _("The score pad below does the same job, and so does “Take photo”."),
        "cam_live": _("Live camera"),
        "cam_stop": _("Stop camera"),
        # the live camera's picture is too small for the reader (a camera that gives 640x480)
        "cam_small": _(
            "The camera gives a small picture (%(size)s): hold the phone closer, or take photos instead",
            size="{size}",
        ),
        "hand_n": _("Hand %(hand)s", hand="{n}"),
        "hand_play": _("Hand %(hand)s, play %(play)s", hand="{hand}", play="{play}"),
        # an event that is no play: its number in the hand's list and what it is (`where`)
        "hand_no": _("Hand %(hand)s, no. %(n)s (%(what)s)", hand="{hand}", n="{n}", what="{what}"),
        **{f"kind_{kind}": str(words) for kind, words in KINDS.items()},
        "correct_title": _("Correct: %(where)s", where="{where}"),
        "settle_title": _("Settle the dispute: %(where)s", where="{where}"),
        "now_recorded": _("Recorded now: %(what)s", what="{what}"),
        # a correction that a later play no longer fits: made with that play (and those after it) taken back
        "fix_take_back_one": _("Correct play %(play)s and take back play %(first)s", play="{play}", first="{first}"),
        "fix_take_back_many": _(
            "Correct play %(play)s and take back plays %(first)s to %(last)s",
            play="{play}",
            first="{first}",
            last="{last}",
        ),
        # what the play made (a disputed one: board.py _made): the count, and the ends that made it
        "made_count": _("The count after it: %(n)s = %(terms)s", n="{n}", terms="{terms}"),
        "made_ends": _("The open ends after it: %(ends)s", ends="{ends}"),
        "term_end": _("%(end)s %(n)s", end="{end}", n="{n}"),
        "term_double": _("%(end)s %(tile)s (%(n)s)", end="{end}", tile="{tile}", n="{n}"),
        "term_lead": _("the lead %(tile)s (%(n)s)", tile="{tile}", n="{n}"),
        "term_spinner": _("the spinner %(tile)s (%(n)s, sniff)", tile="{tile}", n="{n}"),
        # tournament.js: the round clock of the director's page and the standings board
        "clock_bell": _("bell"),
        "clock_rung": _("Bell rung: each table finishes the hand in play; the higher score wins."),
        "break_over": _("The break is over: call the players back."),
        **{f"end_{k}": str(v) for k, v in ENDS.items()},
    }
