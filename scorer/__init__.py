"""Spinner's rules engine: every variant of RULES.md, replaying the match record of GAME_RECORD.md.

    >>> from scorer import score_record
    >>> answer = score_record(record)          # the scorer's JSON answer
    >>> match = Match.new("partners", ["Ana", "Ben", "Cruz", "Dee"])
    >>> hand = match.start_hand()
    >>> match.apply({"type": "play", "seat": 0, "tile": "6-6"})

Nothing else in Spinner computes a score.
"""

from .errors import RecordError
from .hand import Hand, LeadRule
from .layout import ENDS, End, Layout, LayoutRules, Placement
from .match import RECORD_FORMAT, Match, score_record
from .tiles import FULL_SET, SET_PIPS, Tile, pips, round5
from .variants import ALL_VARIANTS, VARIANTS, OptionError, Rules, Variant, get_variant, make_rules

__all__ = [
    "ALL_VARIANTS",
    "ENDS",
    "End",
    "FULL_SET",
    "Hand",
    "Layout",
    "LayoutRules",
    "LeadRule",
    "Match",
    "OptionError",
    "Placement",
    "RECORD_FORMAT",
    "RecordError",
    "Rules",
    "SET_PIPS",
    "Tile",
    "VARIANTS",
    "Variant",
    "get_variant",
    "make_rules",
    "pips",
    "round5",
    "score_record",
]
