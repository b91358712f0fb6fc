"""What the page shows of a match, built once per version from the scorer's answer.

Every number here is read off `Match.answer()` (or the scorer's own layout): the web app never
counts a point itself. The board is cached on the snapshot, so a hundred viewers of one table
cost one build per change.

A tournament table's board also says what the tournament says of it (`tournament`, made by
`webapp.tournament.table`; None for an ordinary match): its clock and bell change without the
match changing, so the live board is cached per match version *and* tournament state, and its
ETag names both.
"""
from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

from scorer import FULL_SET

from . import picture
from .models import Game
from .store import Snapshot, words

_lock = threading.Lock()


def _events(record_hand: dict[str, Any], answer_hand: dict[str, Any], players: list[str]) -> list[dict[str, Any]]:
    plays = {p["event"]: p for p in answer_hand.get("plays", [])}
    inferred: dict[int, list[int]] = {}
    for item in answer_hand.get("inferred_passes", []):
        inferred.setdefault(item["event"], []).append(item["seat"])
    rows: list[dict[str, Any]] = []
    for index, event in enumerate(record_hand.get("events", [])):
        for seat in inferred.get(index, []):
            rows.append({"event": None, "type": "pass", "seat": seat, "inferred": True,
                         "who": _name(players, seat), "words": "passed (seen from the next play)"})
        row: dict[str, Any] = {"event": index, "raw": event, "type": event.get("type"), "seat": event.get("seat"),
                               "who": _name(players, event.get("seat")), "words": words(event)}
        play = plays.get(index)
        if play is not None:
            row.update(tile=play["tile"], end=play.get("end"), count=play["count"], points=play["points"])
        rows.append(row)
    return rows


def _name(players: list[str], seat: object) -> str | None:
    return players[seat] if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players) else None


def hand_events(snap: Snapshot, h: int) -> list[dict[str, Any]]:
    """One hand's events as the board lists them (who, what, the count after it and its points)."""
    hands = snap.answer.get("hands", [])
    if not 0 <= h < len(snap.record["hands"]):
        return []
    return _events(snap.record["hands"][h], hands[h] if h < len(hands) else {}, list(snap.record["players"]))


def _pad(snap: Snapshot) -> dict[str, Any]:
    """What the manual pad needs: which tiles are still out and which ends each one fits (scorer's layout)."""
    hand = snap.match.current if snap.match is not None else None
    if hand is None:
        return {"on_table": [], "fits": {}, "in_play": False}
    layout = hand.layout
    on_table = {str(t) for t in layout.tiles}
    fits: dict[str, list[str]] = {}
    for tile in FULL_SET:
        name = str(tile)
        if name in on_table:
            continue
        fits[name] = ["lead"] if not layout.placements else list(layout.distinct_fits(tile))
    return {"on_table": sorted(on_table), "fits": fits, "in_play": hand.end is None}


def build(game: Game, snap: Snapshot, tournament: dict[str, Any] | None = None) -> dict[str, Any]:
    """The board as JSON (what /api/games/ID/board answers and the live stream sends)."""
    return {**_match_board(game, snap), "tournament": tournament}


def _match_board(game: Game, snap: Snapshot) -> dict[str, Any]:
    cached = snap.views.get("board")
    if cached is not None:
        return cached
    answer = snap.answer
    hands = answer.get("hands", [])
    players = list(snap.record["players"])
    current: dict[str, Any] | None = None
    layout_svg = picture.layout_svg(None, None)
    if hands:
        h = len(hands) - 1
        last = hands[h]
        current = {
            "number": h,
            "leader": last.get("leader"),
            "turn": last.get("turn"),
            "turn_name": _name(players, last.get("turn")),
            "open_ends": last.get("open_ends", {}),
            "end": last.get("end"),
            "winner": last.get("winner"),
            "bonus": last.get("bonus"),
            "awaiting_pips": last.get("awaiting_pips", []),
            "pips": last.get("pips"),
            "events": _events(snap.record["hands"][h], last, players),
        }
        hand = snap.match.current if snap.match is not None else None
        layout_svg = picture.layout_svg(hand.layout if hand is not None else None, last.get("open_ends"))
    sides = answer.get("sides", players)
    winner = answer.get("winner")
    next_hand = (answer.get("winner") is None and (not hands or (hands[-1].get("end") in ("out", "blocked")
                 and not hands[-1].get("awaiting_pips"))))
    board = {
        "id": game.id,
        "title": game.title,
        "version": snap.version,
        "variant": answer.get("variant", game.variant),
        "players": players,
        "sides": sides,
        "teams": len(sides) != len(players),
        "totals": answer.get("totals", []),
        "target": answer.get("target"),
        "scoring": answer.get("scoring", "points"),
        "winner": winner,
        "winner_name": sides[winner] if isinstance(winner, int) and winner < len(sides) else None,
        "hands": [
            {"number": i, "winner": hh.get("winner"), "bonus": hh.get("bonus"), "totals": hh.get("totals"), "end": hh.get("end")}
            for i, hh in enumerate(hands)
        ],
        "current": current,
        "next_hand": bool(next_hand),
        "pad": _pad(snap),
        "error": snap.error,
        "svg": {
            "layout": layout_svg,
            "chart": picture.chart_svg(sides, [hh.get("totals") or [0] * len(sides) for hh in hands], answer.get("target")),
        },
    }
    with _lock:
        snap.views.setdefault("board", board)
    return snap.views["board"]


def etag(version: int, tournament: dict[str, Any] | None = None) -> str:
    """The board's ETag: the match's version, and for a tournament table what the tournament says."""
    if tournament is None:
        return f'"{version}"'
    said = hashlib.sha256(json.dumps(tournament, sort_keys=True).encode()).hexdigest()[:12]
    return f'"{version}.{said}"'


def live(game: Game, snap: Snapshot, tournament: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    """The board with its HTML (what the live page swaps in), and the same as JSON text, made once
    per match version and tournament state."""
    from flask import render_template

    tag = etag(snap.version, tournament)
    cached = snap.views.get(("live", tag))
    if cached is None:
        built = build(game, snap, tournament)
        payload = {**built, "etag": tag, "html": {"top": render_template("_board_top.html", b=built),
                                                  "bottom": render_template("_board_bottom.html", b=built)}}
        text = json.dumps(payload, separators=(",", ":"))
        with _lock:
            cached = snap.views.setdefault(("live", tag), (payload, text))
    with _lock:
        # The newest drawn, which the live stream sends its viewers without asking the database again.
        snap.views["live"] = cached
    return cached
