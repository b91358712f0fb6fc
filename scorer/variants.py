"""Every variant of RULES.md as data plus a few small rule functions.

A `Variant` says who plays, how the tiles are dealt, what the layout looks like and how a
hand and a match are scored; `Rules` is a variant with a table's house rule options applied
(the defaults of RULES.md unless the record's `options` say otherwise).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

from .layout import LayoutRules
from .tiles import round5

Leftovers = Literal["none", "boneyard", "aside"]
Scoring = Literal["points", "penalty"]
FirstLead = Literal["six_six", "chosen", "highest_double"]
NextLead = Literal["next_seat", "first_out", "winner", "mexican", "cross"]


class OptionError(ValueError):
    """A variant, preset or house rule option the record asks for does not exist or is out of range."""


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    players: tuple[int, ...]
    teams: bool
    #: tiles dealt to each player, by number of players.
    hand_size: Mapping[int, int]
    leftovers: Leftovers
    spinner: bool
    fives: bool
    target: Mapping[int, int]
    end_at_target: Literal["at_once", "end_of_hand"]
    first_lead: FirstLead
    next_lead: NextLead
    #: end-of-hand scoring: (hand outcome, rules) -> points per side.
    bonus: Callable[[HandOutcome, Rules], list[int]]
    scoring: Scoring = "points"
    #: all-fives-bonus wins only *over* its target; the others at or above it.
    target_strict: bool = False
    #: options a table may set for this variant (besides `target`).
    options: frozenset[str] = frozenset()
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    cross_rules: bool = False  # `cross`: sides before arms, doubles open arms, elimination


@dataclass(frozen=True, slots=True)
class Rules:
    """A variant at one table: its options resolved."""

    variant: Variant
    players: int
    target: int
    end_at_target: Literal["at_once", "end_of_hand"]
    spinner_order: Literal["sides_first", "any"] = "sides_first"
    sniff: bool = False
    round_each_hand: bool = False
    tie: Literal["no_score", "leading_team_wins"] = "no_score"
    winners_score: Literal["losers", "all"] = "losers"
    first_lead: FirstLead = "chosen"
    next_lead: NextLead = "next_seat"
    preset: str | None = None

    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def sides(self) -> int:
        return 2 if self.variant.teams else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.variant.teams else seat

    def seats_of(self, side: int) -> list[int]:
        if self.variant.teams:
            return [s for s in range(self.players) if s % 2 == side]
        return [side]

    @property
    def hand_size(self) -> int:
        return self.variant.hand_size[self.players]

    def layout_rules(self) -> LayoutRules:
        cross = self.variant.cross_rules
        return _layout_rules(self.variant.spinner, "any" if cross else self.spinner_order, cross, self.sniff)

    def rounded(self, pip_totals: list[int]) -> int:
        """round5 of a pip total, or of each player's pips first with `round_each_hand`."""
        if self.round_each_hand:
            return sum(round5(p) for p in pip_totals)
        return round5(sum(pip_totals))

    def options_dict(self) -> dict[str, Any]:
        """The options that differ from the variant's defaults (what a record's `options` holds)."""
        default = make_rules(self.variant.name, self.players, {})
        out: dict[str, Any] = {}
        if self.preset:
            out["preset"] = self.preset
            default = make_rules(self.variant.name, self.players, {"preset": self.preset})
        for name in ("target", "end_at_target", *sorted(self.variant.options)):
            if name != "preset" and getattr(self, name) != getattr(default, name):
                out[name] = getattr(self, name)
        return out


@cache
def _layout_rules(spinner: bool, spinner_order: Any, cross: bool, sniff: bool) -> LayoutRules:
    # A handful of shapes, made once each (positional arguments: the cache's key is cheaper).
    return LayoutRules(
        spinner=spinner,
        spinner_order=spinner_order,
        sides_before_arms=cross,
        arm_needs_double=cross,
        sniff=sniff,
    )


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a hand ended, as the end-of-hand scoring needs it."""

    rules: Rules
    #: the side that won the hand, or None (a tied blocked hand).
    winner: int | None
    #: the seat that went out, or None when the hand was blocked.
    out_seat: int | None
    #: whether the last tile played (by `out_seat`) was a double.
    out_with_double: bool
    #: each seat's pips left in hand (None where the table has not said yet).
    pips: tuple[int | None, ...]
    #: seats still in the match (all but the eliminated, in `cross`).
    active: tuple[int, ...]

    def pips_of(self, seats: list[int]) -> list[int]:
        missing = [s for s in seats if self.pips[s] is None]
        if missing:
            raise PipsMissing(missing)
        return [self.pips[s] for s in seats]  # type: ignore[misc]


class PipsMissing(Exception):
    """The end-of-hand score needs the pips of these seats, which were not revealed."""

    def __init__(self, seats: list[int]) -> None:
        super().__init__(seats)
        self.seats = seats


# -- end-of-hand scoring ---------------------------------------------------------------------


def _partnership_bonus(rounded: bool) -> Callable[[HandOutcome, Rules], list[int]]:
    def bonus(outcome: HandOutcome, rules: Rules) -> list[int]:
        points = [0, 0]
        if outcome.winner is None:
            return points
        counted = list(outcome.active) if rules.winners_score == "all" else rules.seats_of(1 - outcome.winner)
        pips = outcome.pips_of(counted)
        points[outcome.winner] = rules.rounded(pips) if rounded else sum(pips)
        return points

    return bonus


def _all_fives_bonus(outcome: HandOutcome, rules: Rules) -> list[int]:
    # Every player loses their own pips, rounded to five; the player out loses nothing. A blocked
    # hand with equal lowest totals has no winner and no end-of-hand score (RULES.md, Who wins a
    # hand): only `cross` says otherwise for itself.
    points = [0] * rules.sides
    if outcome.winner is None and outcome.out_seat is None:
        return points
    for seat in outcome.active:
        (own,) = outcome.pips_of([seat])
        points[seat] = -rules.rounded([own])
    return points


def _hundred_bonus(outcome: HandOutcome, rules: Rules) -> list[int]:
    points = [0] * rules.sides
    if outcome.winner is not None:
        points[outcome.winner] = rules.rounded(outcome.pips_of(list(outcome.active))) // 5
    return points


def _others_minus_own(outcome: HandOutcome, rules: Rules) -> list[int]:
    points = [0] * rules.sides
    if outcome.winner is not None:
        others = [s for s in outcome.active if s != outcome.winner]
        (own,) = outcome.pips_of([outcome.winner])
        points[outcome.winner] = sum(outcome.pips_of(others)) - own
    return points


def _cross_penalties(outcome: HandOutcome, rules: Rules) -> list[int]:
    # Penalty points: lower is better. Doubled when the winner went out with a double.
    points = [0] * rules.sides
    factor = 2 if outcome.out_with_double else 1
    for seat in outcome.active:
        if seat != outcome.winner:
            (own,) = outcome.pips_of([seat])
            points[seat] = own * factor
    return points


# -- the variants ----------------------------------------------------------------------------

_PARTNER_OPTIONS = frozenset({"tie", "winners_score", "round_each_hand"})
_FIVES_OPTIONS = frozenset({"spinner_order", "sniff", "round_each_hand", "tie", "end_at_target"})
_SOLO_OPTIONS = frozenset({"tie", "end_at_target"})

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            name="partners",
            players=(4,),
            teams=True,
            hand_size={4: 7},
            leftovers="none",
            spinner=True,
            fives=True,
            target={4: 250},
            end_at_target="at_once",
            first_lead="six_six",
            next_lead="next_seat",
            bonus=_partnership_bonus(rounded=True),
            options=_PARTNER_OPTIONS | {"spinner_order", "sniff", "end_at_target"},
            presets={
                "doscientos": {"target": 200, "winners_score": "all"},
                "federation": {"target": 200, "first_lead": "chosen"},
                "mexican": {"next_lead": "mexican", "tie": "leading_team_wins"},
            },
        ),
        Variant(
            name="partners-block",
            players=(4,),
            teams=True,
            hand_size={4: 7},
            leftovers="none",
            spinner=False,
            fives=False,
            target={4: 100},
            end_at_target="at_once",
            first_lead="six_six",
            next_lead="next_seat",
            bonus=_partnership_bonus(rounded=False),
            options=_PARTNER_OPTIONS - {"round_each_hand"},
        ),
        Variant(
            name="all-fives",
            players=(2, 3, 4),
            teams=False,
            hand_size={2: 9, 3: 7, 4: 5},
            leftovers="boneyard",
            spinner=True,
            fives=True,
            target={2: 250, 3: 200, 4: 200},
            end_at_target="at_once",
            first_lead="chosen",
            next_lead="first_out",
            bonus=_all_fives_bonus,
            options=_FIVES_OPTIONS,
        ),
        Variant(
            name="all-fives-bonus",
            players=(2, 3, 4),
            teams=False,
            hand_size={2: 7, 3: 7, 4: 7},
            leftovers="boneyard",
            spinner=True,
            fives=True,
            target={2: 100, 3: 100, 4: 100},
            end_at_target="end_of_hand",
            target_strict=True,
            first_lead="chosen",
            next_lead="winner",
            bonus=_hundred_bonus,
            options=_FIVES_OPTIONS - {"end_at_target"},
        ),
        Variant(
            name="block",
            players=(2, 3, 4),
            teams=False,
            hand_size={2: 7, 3: 7, 4: 7},
            leftovers="aside",
            spinner=False,
            fives=False,
            target={2: 100, 3: 100, 4: 100},
            end_at_target="at_once",
            first_lead="chosen",
            next_lead="winner",
            bonus=_others_minus_own,
            options=_SOLO_OPTIONS,
        ),
        Variant(
            name="draw",
            players=(2, 3, 4),
            teams=False,
            hand_size={2: 7, 3: 5, 4: 5},
            leftovers="boneyard",
            spinner=False,
            fives=False,
            target={2: 50, 3: 100, 4: 100},
            end_at_target="at_once",
            first_lead="chosen",
            next_lead="winner",
            bonus=_others_minus_own,
            options=_SOLO_OPTIONS,
        ),
        Variant(
            name="cross",
            players=(2, 3, 4),
            teams=False,
            hand_size={2: 7, 3: 7, 4: 7},
            leftovers="boneyard",
            spinner=True,
            fives=False,
            target={2: 100, 3: 100, 4: 100},
            end_at_target="end_of_hand",
            first_lead="highest_double",
            next_lead="cross",
            bonus=_cross_penalties,
            scoring="penalty",
            cross_rules=True,
            options=frozenset(),
        ),
    )
}

#: The one-player memory game lives in `scorer.twelve`; it has no layout and no sides.
ALL_VARIANTS = (*VARIANTS, "twelve")

_CHOICES: dict[str, tuple[Any, ...]] = {
    "end_at_target": ("at_once", "end_of_hand"),
    "spinner_order": ("sides_first", "any"),
    "sniff": (False, True),
    "round_each_hand": (False, True),
    "tie": ("no_score", "leading_team_wins"),
    "winners_score": ("losers", "all"),
}


def get_variant(name: object) -> Variant:
    if type(name) is not str or name not in VARIANTS:
        known = ", ".join(ALL_VARIANTS)
        raise OptionError(f"unknown variant {name!r}: RULES.md knows {known}")
    return VARIANTS[name]  # type: ignore[index]


_RULES_CACHE: dict[tuple[Any, ...], Rules] = {}


def make_rules(variant_name: object, players: int, options: Mapping[str, Any] | None) -> Rules:
    """Resolve a variant, a player count and a record's `options` into `Rules`.

    Rules are immutable, and a replay resolves the same few again and again: keep them.
    """
    try:
        # The values' types are part of the key: 0 == False, but only False is a valid `sniff`.
        # The items are kept in the order given (no sorting: this runs once per record); the
        # same options in another order are just another key for the same rules.
        items = (tuple(options.items()), tuple(map(type, options.values()))) if isinstance(options, dict) else options
        key = (variant_name, type(players), players, items)
        cached = _RULES_CACHE.get(key)
    except TypeError:  # an unhashable value in the options: resolve it (and say what is wrong)
        return _make_rules(variant_name, players, options)
    if cached is None:
        cached = _make_rules(variant_name, players, options)
        if len(_RULES_CACHE) < 1024:
            _RULES_CACHE[key] = cached
    return cached


def _make_rules(variant_name: object, players: int, options: Mapping[str, Any] | None) -> Rules:
    variant = get_variant(variant_name)
    if players not in variant.players:
        allowed = " or ".join(str(n) for n in variant.players)
        raise OptionError(f"{variant.name} is played by {allowed} players, not {players}")
    if options is not None and not isinstance(options, Mapping):
        raise OptionError(f"options must be a JSON object of house rule options, not {options!r:.40}")
    options = dict(options or {})
    values: dict[str, Any] = {
        "target": variant.target[players],
        "end_at_target": variant.end_at_target,
        "first_lead": variant.first_lead,
        "next_lead": variant.next_lead,
    }
    preset = options.pop("preset", None)
    if preset is not None:
        if preset not in variant.presets:
            known = ", ".join(variant.presets) or "none"
            raise OptionError(f"{variant.name} has no preset {preset!r} (presets: {known})")
        values.update(variant.presets[preset])
    for name, value in options.items():
        if name == "target":
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise OptionError(f"option target must be a positive whole number, not {value!r}")
        elif name in _CHOICES:
            if name not in variant.options:
                raise OptionError(f"option {name} does not apply to {variant.name}")
            if value not in _CHOICES[name] or type(value) is not type(_CHOICES[name][0]):
                allowed = " or ".join(json_text(c) for c in _CHOICES[name])
                raise OptionError(f"option {name} must be {allowed}, not {json_text(value)}")
        else:
            raise OptionError(f"unknown option {name!r} (RULES.md names: target, preset, {', '.join(_CHOICES)})")
        values[name] = value
    return Rules(variant=variant, players=players, preset=preset, **values)


def json_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def with_options(rules: Rules, **changes: Any) -> Rules:
    return replace(rules, **changes)
