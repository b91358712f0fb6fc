"""An outside oracle: the `dominoes` package (PyPI, 6.1.0) plays the partnership block game of
Puerto Rico, which is our `partners-block` with the option `winners_score: all`.

What `dominoes` plays (dominoes/game.py), and how it maps onto RULES.md:

- 4 players, partners across (0+2, 1+3), 7 tiles each, no boneyard; play goes 0, 1, 2, 3: the
  same seats and teams as ours.
- `Game.new(starting_domino=Domino(6, 6))` deals at random (module `random`), and the holder of
  6-6 plays it at once: our first-hand rule "the holder of 6-6 leads it".
- Its board is a line with a left and a right end. The first tile `[a|b]` shows a on the left:
  left is our west, right our east, and a lead written `a-b` puts a on the west for both.
- A player who can play must; one who cannot passes (`None` in `game.moves`). The passes that end
  a stuck game are not written in `game.moves`: the game is stuck when all four, the last player
  included, have no move. That is our block: every seat passed in succession.
- Out: the player's team scores every pip left in the three other hands, partner's included
  (`winners_score: all`). Stuck: the team with the lower pip total scores both teams' pips
  (again `winners_score: all`, unrounded as partners-block is); equal totals: a tie, 0 points for
  nobody, which is our default `tie: no_score`, so no `tie` option is needed.
- `game.result` is `Result(player, won, points)`: `won` says out (True) or stuck (False); the
  sign of `points` names the team (+ for seats 0+2, - for 1+3, 0 for a tie); `player` is the
  last player to move (the one out, when `won`).

Nothing of its game was left unmapped: `dominoes` knows nothing of targets (one game is one hand),
so the match-level check is only that a hand worth 100 or more wins our match at once.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

dominoes = pytest.importorskip("dominoes")  # the test extra pins dominoes==6.1.0

from scorer import Match  # noqa: E402
from scorer.simulate import simulate_match  # noqa: E402

SIX_SIX = dominoes.Domino(6, 6)
OPTIONS = {"winners_score": "all"}
TARGET = 100  # partners-block's default target


# -- dominoes' games and our records -----------------------------------------------------------


def dominoes_game() -> tuple[list[list[Any]], int, Any]:
    """One random game of `dominoes` (random players), started with 6-6: (initial hands, leader, game)."""
    game = dominoes.Game.new(starting_domino=SIX_SIX)
    dealt = [list(hand) for hand in game.hands]
    dealt[game.starting_player].append(SIX_SIX)  # `new` has already played it
    while game.result is None:
        dominoes.players.random(game)
        game.make_move(*game.valid_moves[0])
    return dealt, game.starting_player, game


def dominoes_games(count: int, seed: int) -> list[tuple[list[list[Any]], int, Any]]:
    """`count` seeded games; `dominoes` shuffles with the module `random`, whose state is restored."""
    saved = random.getstate()
    random.seed(seed)
    try:
        return [dominoes_game() for _ in range(count)]
    finally:
        random.setstate(saved)


def tile(d: Any) -> str:
    return f"{d.first}-{d.second}"


def to_record(dealt: list[list[Any]], leader: int, game: Any, final_passes: bool = True) -> dict[str, Any]:
    """Our record of a `dominoes` game: its deal, the 6-6 holder leading, its plays and passes.

    `final_passes`: write the four passes that end a stuck game (dominoes leaves them out); without
    them our scorer must see by itself, from the deal, that nobody can move.
    """
    events: list[dict[str, Any]] = []
    seat = leader
    for move in game.moves:
        if move is None:
            events.append({"type": "pass", "seat": seat})
        else:
            d, left = move
            event: dict[str, Any] = {"type": "play", "seat": seat, "tile": tile(d)}
            if events:  # the lead has no end
                event["end"] = "west" if left else "east"
            events.append(event)
        seat = (seat + 1) % 4
    if not game.result.won and final_passes:
        events += [{"type": "pass", "seat": (seat + k) % 4} for k in range(4)]
    return {
        "format": "domino-record/1",
        "variant": "partners-block",
        "options": dict(OPTIONS),
        "players": ["Ana", "Ben", "Cruz", "Dee"],
        "hands": [{"leader": leader, "deal": [[tile(d) for d in hand] for hand in dealt], "events": events}],
    }


def expected(result: Any) -> tuple[int | None, int]:
    """(winning team or None for a tie, points it scores) from a `dominoes` Result."""
    if result.won:
        team = result.player % 2
        assert result.points == 0 or (result.points > 0) == (team == 0), result
        return team, abs(result.points)
    if result.points == 0:
        return None, 0
    return (0 if result.points > 0 else 1), abs(result.points)


def differences(record: dict[str, Any], game: Any) -> list[str]:
    """Where our replay of `record` and the `dominoes` game disagree (empty: they agree)."""
    match = Match.from_record(record)
    answer = match.answer()
    row = answer["hands"][0]
    hand = match.hands[0]
    result = game.result
    team, points = expected(result)
    bonus = [0, 0]
    if team is not None:
        bonus[team] = points
    out: list[str] = []
    want_end = "out" if result.won else "blocked"
    if row["end"] != want_end:
        out.append(f"end {row['end']} != {want_end}")
    if row["winner"] != team:
        out.append(f"winner {row['winner']} != {team}")
    if row["bonus"] != bonus:
        out.append(f"bonus {row['bonus']} != {bonus}")
    if answer["totals"] != bonus or row["totals"] != bonus:
        out.append(f"totals {answer['totals']} != {bonus}")
    match_winner = team if team is not None and points >= TARGET else None
    if answer["winner"] != match_winner:
        out.append(f"match winner {answer['winner']} != {match_winner}")
    if result.won and hand.out_seat != result.player:
        out.append(f"out seat {hand.out_seat} != {result.player}")
    if row["plays"][-1]["seat"] != result.player:  # the last player to move, out or not
        out.append(f"last play by seat {row['plays'][-1]['seat']}, dominoes says {result.player}")
    left_pips = [sum(d.first + d.second for d in h) for h in game.hands]
    if row["pips"] != left_pips:
        out.append(f"pips {row['pips']} != {left_pips}")
    ends = hand.layout.open_ends()
    board = (game.board.left_end(), game.board.right_end())
    if (ends.get("west"), ends.get("east")) != board:
        out.append(f"ends {ends} != {board}")
    if len(hand.layout) != len(game.board):
        out.append(f"{len(hand.layout)} tiles on our table, {len(game.board)} on its board")
    return out


# -- the oracle ------------------------------------------------------------------------------------

GAMES = 10_000
SEED = 20240601


def test_dominoes_games_score_the_same_as_ours():
    games = dominoes_games(GAMES, SEED)
    kinds: Counter[str] = Counter()
    failures: list[str] = []
    for i, (dealt, leader, game) in enumerate(games):
        team, _ = expected(game.result)
        kind = "out" if game.result.won else ("tie" if team is None else "blocked")
        kinds[kind] += 1
        # Half the stuck games say their last four passes; the other half leave them to the scorer.
        record = to_record(dealt, leader, game, final_passes=i % 2 == 0)
        try:
            problems = differences(record, game)
        except Exception as error:  # a refused record is a difference too
            problems = [f"{type(error).__name__}: {error}"]
        if problems:
            failures.append(f"game {i}: {'; '.join(problems)}\n  record: {record}\n  result: {game.result}")
    assert not failures, f"{len(failures)} of {GAMES} games differ; first:\n" + "\n".join(failures[:3])
    # The sample covers every way a block game ends: out, blocked with a winner, blocked and tied.
    assert sum(kinds.values()) == GAMES
    assert kinds["blocked"] >= GAMES // 20, kinds
    assert kinds["tie"] >= GAMES // 200, kinds
    assert kinds["out"] >= GAMES // 2, kinds


def test_the_oracle_tells_a_wrong_mapping_apart():
    """The comparison can fail: a scoring or tie option other than dominoes' rules is caught.

    (West and east swapped throughout would not be: after a 6-6 lead that is the mirror image of
    the same game, which is why the ends are compared as a pair, in order.)
    """
    games = dominoes_games(1000, SEED + 1)
    wrong_option = ties = ties_caught = 0
    for dealt, leader, game in games:
        record = to_record(dealt, leader, game)
        assert differences(record, game) == []
        record["options"] = {}  # winners score the losers' pips only
        wrong_option += bool(differences(record, game))
        if not game.result.won and game.result.points == 0:
            ties += 1
            record["options"] = {"winners_score": "all", "tie": "leading_team_wins"}
            ties_caught += bool(differences(record, game))
    assert wrong_option >= 750, wrong_option
    assert ties >= 3 and ties_caught == ties, (ties, ties_caught)


# -- our simulator's games, played through dominoes --------------------------------------------


def replay_through_dominoes(hand_record: dict[str, Any]) -> Any:
    """Set `dominoes` up with the hand's deal and leader, make its plays; return the game.

    `Game.new` always deals at random, but the `Game(board, hands, moves, turn, valid_moves,
    starting_player, result)` constructor takes given hands: set up as `Game.new` does for a
    starting player, it plays any hand of ours, the later hands of a match (any lead) included.
    """
    hands = [dominoes.Hand([dominoes.Domino(*map(int, t.split("-"))) for t in tiles]) for tiles in hand_record["deal"]]
    leader = hand_record["leader"]
    game = dominoes.Game(dominoes.Board(), hands, [], leader, tuple((d, True) for d in hands[leader]), leader, None)
    moves: list[Any] = []  # what dominoes' `moves` must say: plays, passes between them
    for event in hand_record["events"]:
        if event["type"] == "pass":
            moves.append(None)
            continue
        assert event["type"] == "play", event
        assert game.result is None, f"dominoes ended the game before {event}"
        assert game.turn == event["seat"], f"dominoes says it is seat {game.turn}'s turn, not {event}"
        d = dominoes.Domino(*map(int, event["tile"].split("-")))
        left = event.get("end", "west") == "west"
        # dominoes lists a tile once when both ends show the same value (on the left).
        equal_ends = len(game.board) and game.board.left_end() == game.board.right_end()
        assert (d, left) in game.valid_moves or (equal_ends and (d, True) in game.valid_moves), (
            event,
            game.valid_moves,
        )
        game.make_move(d, left)
        moves.append((d, left))
    assert game.result is not None, "dominoes has not ended the game where our hand ended"
    if not game.result.won:  # dominoes does not write the passes that block the game
        assert moves[-4:] == [None] * 4
        moves = moves[:-4]
    assert game.moves == moves
    return game


@pytest.mark.parametrize("seed", range(150))
def test_our_simulated_block_games_replay_the_same_in_dominoes(seed):
    record = simulate_match("partners-block", 4, seed, OPTIONS)
    match = Match.from_record(record)
    answer = match.answer()
    totals = [0, 0]
    for h, (hand_record, row) in enumerate(zip(record["hands"], answer["hands"], strict=False)):
        game = replay_through_dominoes(hand_record)
        team, points = expected(game.result)
        assert row["end"] == ("out" if game.result.won else "blocked"), (h, row, game.result)
        assert row["winner"] == team, (h, row, game.result)
        bonus = [0, 0]
        if team is not None:
            bonus[team] = points
            totals[team] += points
        assert row["bonus"] == bonus, (h, row, game.result)
        assert row["totals"] == totals, (h, row)
        assert row["pips"] == [sum(d.first + d.second for d in hand) for hand in game.hands]
    assert answer["totals"] == totals
    reached = [side for side in (0, 1) if totals[side] >= TARGET]
    assert answer["winner"] == (reached[0] if reached else None)
    assert answer["winner"] is not None  # simulate_match plays to the end
