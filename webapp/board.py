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

from flask_babel import force_locale

from scorer import FULL_SET, Match, RecordError
from scorer.variants import VARIANTS, OptionError

from . import i18n, picture, store, twelve, wording
from .models import Game
from .store import Snapshot

_lock = threading.Lock()


def _events(record_hand: dict[str, Any], answer_hand: dict[str, Any], table: wording.Table) -> list[dict[str, Any]]:
    plays = {p["event"]: p for p in answer_hand.get("plays", [])}
    inferred: dict[int, list[int]] = {}
    for item in answer_hand.get("inferred_passes", []):
        inferred.setdefault(item["event"], []).append(item["seat"])
    players = table.players
    rows: list[dict[str, Any]] = []
    for index, event in enumerate(record_hand.get("events", [])):
        for seat in inferred.get(index, []):
            rows.append(
                {
                    "event": None,
                    "type": "pass",
                    "seat": seat,
                    "inferred": True,
                    "who": _name(players, seat),
                    "words": wording.inferred_pass(seat, table),
                }
            )
        row: dict[str, Any] = {
            "event": index,
            "raw": event,
            "type": event.get("type"),
            "seat": event.get("seat"),
            "who": _name(players, event.get("seat")),
            "words": wording.event_words(event, table),
        }
        play = plays.get(index)
        if play is not None:
            row.update(tile=play["tile"], end=play.get("end"), count=play["count"], points=play["points"])
        rows.append(row)
    return rows


def _name(players: list[str], seat: object) -> str | None:
    return players[seat] if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players) else None


def table_of(snap: Snapshot) -> wording.Table:
    """The names at the match's table: the scorer's side names where it could score the record."""
    players = list(snap.record["players"])
    sides = snap.answer.get("sides")
    if not sides:
        variant = VARIANTS.get(snap.record.get("variant", ""))
        sides = [" & ".join(players[side::2]) for side in range(2)] if variant and variant.teams else players
    return wording.Table(players, sides)


def hand_events(snap: Snapshot, h: int) -> list[dict[str, Any]]:
    """One hand's events as the board lists them (who, what, the count after it and its points)."""
    hands = snap.answer.get("hands", [])
    if not 0 <= h < len(snap.record["hands"]):
        return []
    return _events(snap.record["hands"][h], hands[h] if h < len(hands) else {}, table_of(snap))


def _pad(snap: Snapshot) -> dict[str, Any]:
    """What the manual pad needs: which tiles are still out and which ends each one fits (scorer's
    layout), what the lead must be, and whether there is a boneyard to draw from."""
    hand = snap.match.current if snap.match is not None else None
    if hand is None:
        return {
            "on_table": [],
            "fits": {},
            "in_play": False,
            "lead": None,
            "can_draw": False,
            "can_undo": _can_undo(snap),
            "boneyard": None,
            "counts_open": False,
            "maybe_out": None,
        }
    layout = hand.layout
    on_table = {str(t) for t in layout.tiles}
    fits: dict[str, list[str]] = {}
    leading = not layout.placements
    for tile in FULL_SET:
        name = str(tile)
        if name in on_table:
            continue
        if leading:
            # Only what the rules let lead (6-6 in partners' first hand; a double in cross).
            fits[name] = ["lead"] if hand._lead_allowed(tile) else []
        else:
            fits[name] = list(layout.distinct_fits(tile))
    rule = hand.lead_rule
    lead = None
    if leading:
        lead = {
            "tile": str(rule.tile) if rule.tile is not None else None,
            "doubles_only": rule.doubles_only,
            # the highest double dealt leads, and which one it is is not known (no deal recorded)
            "highest": rule.highest,
            # cross, a later hand, no deal recorded: the last winner, who leads a double if they
            # hold one (with none, the next seat with one); who does is not known until the lead
            "duty": rule.duty,
            "seat": hand.leader,
        }
    has_boneyard = hand.rules.variant.leftovers == "boneyard"
    in_play = hand.end is None
    return {
        "on_table": sorted(on_table),
        "fits": fits,
        "in_play": in_play,
        "lead": lead,
        "can_draw": in_play and has_boneyard and not leading and hand.boneyard > 0,
        "can_pass": in_play and not leading and not (has_boneyard and hand.boneyard > 0),
        # Undo takes back the last event, or a hand started with none (or a void or ruling just made);
        # the first hand's start was the page's own (a new match starts it), so a match with nothing
        # recorded has nothing to undo.
        "can_undo": _can_undo(snap),
        "boneyard": hand.boneyard if has_boneyard else None,
        "counts": [hand.counts[s] if s in hand.active else None for s in range(len(hand.counts))],
        # a hand a camera follows (`unseen_draws`) while tiles may still be drawn unseen: each count
        # is the least that seat holds, the boneyard's the most it holds
        "counts_open": bool(in_play and hand.unseen_draws and (hand.boneyard > 0 or hand.unseen > 0)),
        # the seat that laid its last counted tile there: out, unless it drew unseen (the next event says)
        "maybe_out": hand.maybe_out[0] if in_play and hand.maybe_out is not None else None,
    }


def _can_undo(snap: Snapshot) -> bool:
    """Whether Undo takes anything back (store.undo: the last event, or a hand started with none;
    a void or a ruling just made). The first hand's start is the page's own (a new match starts
    it): alone, it is nothing to undo, unless it deals a voided hand again."""
    hands = snap.record.get("hands") or []
    return len(hands) > 1 or bool(hands and hands[-1].get("events")) or store.undo_reverses(snap)


def _scored(hands: list[dict[str, Any]], h: int, side: object) -> dict[str, int] | None:
    """What `side` scored in hand `h`, all told (`total`) and in parts: its plays' points (`plays`),
    the end-of-hand score (`bonus`, the table's "(+20)") and adjustments (`adjusted`). Read off the
    scorer's totals before and after the hand: nothing is counted here."""
    if not isinstance(side, int) or isinstance(side, bool) or not 0 <= h < len(hands):
        return None
    after = hands[h].get("totals") or []
    before = (hands[h - 1].get("totals") or []) if h else [0] * len(after)
    if side >= len(after) or side >= len(before):
        return None
    total = after[side] - before[side]
    bonus = (hands[h].get("bonus") or [0] * (side + 1))[side] or 0
    adjusted = sum(a["points"] for a in hands[h].get("adjustments") or [] if a.get("side") == side)
    return {"total": total, "plays": total - bonus - adjusted, "bonus": bonus, "adjusted": adjusted}


def _tiles_left(players: list[str], pad: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's tiles in hand, as far as they are known: with counts open (`counts_open`) a count
    is the least the seat holds (`at_least`), and a seat that laid its last counted tile there
    (`maybe_out`) holds a number nobody knows (`tiles` None): out, unless it drew unseen. The page
    never shows it holding nothing before the hand says it went out."""
    rows = []
    for s, n in enumerate(pad.get("counts") or []):
        if n is None:
            continue
        if s == pad.get("maybe_out"):
            rows.append({"name": players[s], "tiles": None, "at_least": False, "maybe_out": True})
        else:
            rows.append({"name": players[s], "tiles": n, "at_least": bool(pad.get("counts_open")), "maybe_out": False})
    return rows


def build(game: Game, snap: Snapshot, tournament: dict[str, Any] | None = None) -> dict[str, Any]:
    """The board as JSON (what /api/games/ID/board answers and the live stream sends)."""
    return {**_match_board(game, snap), "tournament": tournament}


def _match_board(game: Game, snap: Snapshot) -> dict[str, Any]:
    # Words are in the page's language: one board per language and version.
    key = ("board", i18n.lang())
    cached = snap.views.get(key)
    if cached is not None:
        return cached
    answer = snap.answer
    hands = answer.get("hands", [])
    players = list(snap.record["players"])
    table = table_of(snap)
    current: dict[str, Any] | None = None
    layout_svg = picture.layout_svg(None, None)
    pad = _pad(snap)
    if hands:
        h = len(hands) - 1
        last = hands[h]
        plays = last.get("plays") or []
        current = {
            "number": h,
            "leader": last.get("leader"),
            "turn": last.get("turn"),
            "turn_name": _name(players, last.get("turn")),
            "open_ends": last.get("open_ends", {}),
            "end": last.get("end"),
            "winner": last.get("winner"),
            "bonus": last.get("bonus"),
            "scored": _scored(hands, h, last.get("winner")),
            "awaiting_pips": last.get("awaiting_pips", []),
            "awaiting_names": [table.seat(s) for s in last.get("awaiting_pips", [])],
            "pips": last.get("pips"),
            "events": _events(snap.record["hands"][h], last, table),
            # The count after the last play (fives games), shown big: what the table argues about.
            "count": plays[-1].get("count") if plays else None,
            "lead": pad.get("lead"),
            "tiles_left": _tiles_left(players, pad),
            "boneyard": pad.get("boneyard"),
            # the counts are lower bounds (draws not all seen), the boneyard an upper one
            "counts_open": pad.get("counts_open", False),
            "maybe_out_name": _name(players, pad.get("maybe_out")),
        }
        hand = snap.match.current if snap.match is not None else None
        layout_svg = picture.layout_svg(hand.layout if hand is not None else None, last.get("open_ends"))
    sides = table.sides
    winner = answer.get("winner")
    next_hand = answer.get("winner") is None and (
        not hands or (hands[-1].get("end") in ("out", "blocked") and not hands[-1].get("awaiting_pips"))
    )
    error = dict(snap.error) if snap.error else None
    if error:
        error["say"] = wording.refusal(error, table, snap.record)
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
        # a target that is won only by going past it ("a single highest score over 100 wins"):
        # the board says "over 100", as the rules and the new-match form do, not "to 100"
        "target_over": bool(getattr(VARIANTS.get(str(answer.get("variant", game.variant))), "target_strict", False)),
        "scoring": answer.get("scoring", "points"),
        "winner": winner,
        "winner_name": sides[winner] if isinstance(winner, int) and winner < len(sides) else None,
        "hands": [
            {
                "number": i,
                "winner": hh.get("winner"),
                "bonus": hh.get("bonus"),
                "totals": hh.get("totals"),
                "end": hh.get("end"),
            }
            for i, hh in enumerate(hands)
        ],
        "current": current,
        "next_hand": bool(next_hand),
        "pad": pad,
        # the memory game's own board (webapp.twelve): None for every other game
        "twelve": twelve.board(game.id, snap.record, answer) if twelve.of(snap.record) else None,
        "error": error,
        "disputes": _disputes(game, snap, table),
        "svg": {
            "layout": layout_svg,
            "chart": picture.chart_svg(
                sides,
                [hh.get("totals") or [0] * len(sides) for hh in hands],
                answer.get("target"),
                wording.chart_words(),
            ),
        },
    }
    with _lock:
        snap.views.setdefault(key, board)
    return snap.views[key]


def _disputes(game: Game, snap: Snapshot, table: wording.Table) -> list[dict[str, Any]]:
    """Disputes not settled yet, for the match page (a dispute is a change: it has its own version)."""
    from .store import open_disputes

    opened = snap.views.get("disputes")
    if opened is None:  # a dispute is a change of its own: one look per version, for every language
        with _lock:
            opened = snap.views.setdefault("disputes", open_disputes(game.id))
    out = []
    for change in opened:
        # the event as it was disputed (kept with the dispute): the place may hold another one now
        event = change.before if isinstance(change.before, dict) else None
        if (
            event is None
            and change.hand is not None
            and change.event is not None
            and change.hand < len(snap.record["hands"])
        ):
            events = snap.record["hands"][change.hand]["events"]
            event = events[change.event] if change.event < len(events) else None
        out.append(
            {
                "version": change.version,
                "hand": change.hand,
                "event": change.event,
                "why": change.why,
                "who": change.who,
                "where": wording.where(
                    change.hand, change.event, event.get("type") if isinstance(event, dict) else None
                ),
                "what": wording.event_words(event, table) if isinstance(event, dict) else "",
                # the event itself, for the Settle dialog to start from (fix.js): the board lists
                # the current hand's events only, and a dispute may be of an earlier hand
                "raw": event if isinstance(event, dict) else None,
                "made": _made(snap, change.hand, change.event),
            }
        )
    return out


def _made(snap: Snapshot, h: int | None, e: int | None) -> dict[str, Any] | None:
    """What the play now recorded at hand `h`, event `e` made, which is what a table disputing it
    argues about: the count after it and the ends that made it (`Layout.count_terms`: [where, tile,
    what it adds]), and its open ends. The scorer's own layout, replayed up to that play: once per
    version (disputes are few); None where the event there is not a play or the record stops before it."""
    if h is None or e is None:
        return None
    key = ("made", h, e)
    if key in snap.views:
        return snap.views[key]  # type: ignore[no-any-return]
    made = None
    hands = snap.record["hands"]
    events = (hands[h].get("events") or []) if 0 <= h < len(hands) else []
    if 0 <= e < len(events) and isinstance(events[e], dict) and events[e].get("type") == "play":
        cut = {**snap.record, "hands": [*hands[:h], {**hands[h], "events": events[: e + 1]}]}
        try:
            match = Match.from_record(cut, open_last=True, live=True)
        except (RecordError, OptionError):
            match = None
        hand = match.current if match is not None else None
        if hand is not None and hand.plays and hand.plays[-1]["event"] == e:
            layout = hand.layout
            made = {
                "count": hand.plays[-1]["count"],
                "terms": [[where, str(tile), value] for where, tile, value in layout.count_terms()],
                "ends": dict(layout.open_ends()),
            }
    with _lock:
        snap.views.setdefault(key, made)
    return made


def etag(version: int, tournament: dict[str, Any] | None = None) -> str:
    """The board's ETag: the match's version, and for a tournament table what the tournament says."""
    if tournament is None:
        return f'"{version}"'
    said = hashlib.sha256(json.dumps(tournament, sort_keys=True).encode()).hexdigest()[:12]
    return f'"{version}.{said}"'


def live(game: Game, snap: Snapshot, tournament: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    """The board with its HTML (what the live page swaps in), and the same as JSON text, made once
    per match version and tournament state.

    The live stream sends one drawing to every viewer, whatever their language, so the HTML is
    drawn in each language pages were asked in (i18n.in_use): `html` in English, `html_in[lang]` in
    the others; the JSON fields are in English."""
    from flask import render_template

    tag = etag(snap.version, tournament)
    languages = i18n.in_use()
    cached = snap.views.get(("live", tag, languages))
    if cached is None:
        html = {}
        for code in languages:
            with force_locale(code):
                built = build(game, snap, tournament)
                html[code] = {
                    "top": render_template("_board_top.html", b=built),
                    "bottom": render_template("_board_bottom.html", b=built),
                }
        with force_locale("en"):
            payload = {**build(game, snap, tournament), "etag": tag, "html": html.pop("en"), "html_in": html}
        text = json.dumps(payload, separators=(",", ":"))
        with _lock:
            cached = snap.views.setdefault(("live", tag, languages), (payload, text))
    with _lock:
        # The newest drawn, which the live stream sends its viewers without asking the database again.
        snap.views["live"] = cached
    return cached
