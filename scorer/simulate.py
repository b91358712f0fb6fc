"""Random legal matches, played through the engine itself, for tests, benchmarks and training data.

Every match is full information (the record has each hand's deal) and seeded: the same
arguments give the same record. `observe` turns such a record into what a table would have
written down without seeing the hands, so the two kinds of record can be checked against
each other.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .hand import Hand
from .match import RECORD_FORMAT, Match
from .tiles import FULL_SET, Tile

NAMES = ("Ana", "Ben", "Cruz", "Dee")


def deal_tiles(match: Match, rng: random.Random) -> list[list[Tile]]:
    """Shuffle and deal for the seats still in the match; `cross` reshuffles a bad deal."""
    rules = match.rules
    while True:
        tiles = list(FULL_SET)
        rng.shuffle(tiles)
        hands: list[list[Tile]] = [[] for _ in range(rules.players)]
        # Every seat takes its share; an eliminated seat's share is the tiles set aside (`cross`).
        for seat in range(rules.players):
            hands[seat] = [tiles.pop() for _ in range(rules.hand_size)]
        if not rules.variant.cross_rules:
            return hands
        doubles = [sum(t.is_double for t in hands[s]) for s in match.active]
        if max(doubles) < 5 and sum(doubles) > 0:
            return hands


def choose_event(hand: Hand, rng: random.Random) -> dict[str, Any]:
    """A random legal event for the seat whose turn it is (full information)."""
    seat = hand.turn
    assert seat is not None
    moves = hand.playable(seat)
    if moves:
        tile, end = rng.choice(moves)
        if end is None:  # the lead: either half may face west
            a, b = (tile.low, tile.high) if rng.random() < 0.5 else (tile.high, tile.low)
            return {"type": "play", "seat": seat, "tile": f"{a}-{b}"}
        return {"type": "play", "seat": seat, "tile": str(tile), "end": end}
    if hand.boneyard > 0:
        assert hand.boneyard_tiles is not None
        return {"type": "draw", "seat": seat, "tile": str(rng.choice(sorted(hand.boneyard_tiles)))}
    return {"type": "pass", "seat": seat}


def simulate_match(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_hands: int = 500,
) -> dict[str, Any]:
    """Play one random legal match and return its full-information record."""
    rng = random.Random(seed)
    names = [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(players)]
    match = Match.new(variant, names, options)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "variant": variant,
        "options": dict(options or {}),
        "players": names,
        "hands": [],
    }
    while not match.over and len(match.hands) < max_hands:
        deal = deal_tiles(match, rng)
        hand = (
            match.start_hand(deal=[[str(t) for t in h] for h in deal], leader=None)
            if _leader_known(match, deal)
            else match.start_hand(deal=[[str(t) for t in h] for h in deal], leader=rng.choice(match.active))
        )
        events: list[dict[str, Any]] = []
        while not hand.over:
            event = choose_event(hand, rng)
            match.apply(event)
            events.append(event)
        record["hands"].append({"leader": hand.leader, "deal": [[str(t) for t in h] for h in deal], "events": events})
    return record


def _leader_known(match: Match, deal: list[list[Tile]]) -> bool:
    from .hand import lead_rule

    return lead_rule(match.rules, match.current, deal, match.active).seat is not None


def observe(record: Mapping[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """What a table would have recorded of a full-information match, without seeing the hands.

    The deal goes; draws become unseen counts; passes that a later play implies are dropped
    (the scorer infers them), the rest stay; at the end each player reveals what is left,
    as tiles or (at random) as a pip total.
    """
    rng = rng or random.Random(0)
    observed = {k: v for k, v in record.items() if k != "hands"}
    observed["hands"] = []
    replay = Match.new(record["variant"], list(record["players"]), record.get("options"))
    for hand_record in record["hands"]:
        hand = replay.start_hand(leader=hand_record.get("leader"), deal=hand_record.get("deal"))
        events: list[dict[str, Any]] = []
        pending_passes: list[dict[str, Any]] = []
        for event in hand_record["events"]:
            replay.apply(event)
            kind = event["type"]
            if kind == "pass":
                pending_passes.append(event)
                continue
            if kind == "play" and pending_passes:
                # A later seat's play implies these passes; keep some anyway.
                events.extend(p for p in pending_passes if rng.random() < 0.3)
                pending_passes = []
            elif pending_passes:
                events.extend(pending_passes)
                pending_passes = []
            if kind == "draw":
                if events and events[-1]["type"] == "draw" and events[-1]["seat"] == event["seat"]:
                    events[-1] = {**events[-1], "count": events[-1]["count"] + 1}
                else:
                    events.append({"type": "draw", "seat": event["seat"], "count": 1})
            else:
                events.append(event)
        events.extend(pending_passes)
        replay.close_hand()
        if hand.end in ("out", "blocked"):
            for seat in hand.active:
                if seat == hand.out_seat:
                    continue
                tiles = sorted(hand.held[seat])
                if rng.random() < 0.5:
                    events.append({"type": "reveal", "seat": seat, "tiles": [str(t) for t in tiles]})
                else:
                    events.append({"type": "pips", "seat": seat, "pips": sum(t.pips for t in tiles)})
        observed["hands"].append({"leader": hand.leader, "events": events})
    return observed
