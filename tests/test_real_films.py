"""Films of real tiles (`vision.evaluate.real_films`): the real crops cut into tiles whose halves are
known, and a tiny film made of them and followed. The real photos are read from ../shared/real at
run time (measuring only); the tests that need them skip where the folder is absent."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from scorer.tiles import Tile
from vision.evaluate.real_films import CROPS, SpriteBank, cut_sprite, follow_film, make_film, models_reader

needs_real = pytest.mark.skipif(
    not CROPS.is_dir(), reason=f"the real photos are not here ({CROPS}): measuring only, never in the repository"
)

#: pip places on a half's 3x3 grid (row, column) for each value
PIPS = {
    0: [],
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (2, 0), (2, 2), (1, 1)],
    6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
}


def drawn_tile(first: int, second: int, degrees: float, side: int = 26) -> np.ndarray:
    """A 100x100 photo of a tile drawn by hand: ivory on dark cloth, `first` on the half that the
    direction `degrees` (picture coordinates) points away from."""
    tile = np.full((side, 2 * side, 3), (185, 220, 230), np.uint8)
    cv2.line(tile, (side, 3), (side, side - 4), (20, 20, 20), 2)
    for k, value in enumerate((first, second)):
        for row, col in PIPS[value]:
            centre = (k * side + int((0.25 + 0.25 * col) * side), int((0.25 + 0.25 * row) * side))
            cv2.circle(tile, centre, max(2, side // 10), (15, 15, 15), -1)
    photo = np.full((100, 100, 3), (60, 64, 70), np.uint8)
    matrix = cv2.getRotationMatrix2D((side, side / 2), -degrees, 1.0)
    matrix[:, 2] += (50 - side, 50 - side / 2)
    mask = cv2.warpAffine(np.full(tile.shape[:2], 255, np.uint8), matrix, (100, 100))
    turned = cv2.warpAffine(tile, matrix, (100, 100))
    photo[mask > 127] = turned[mask > 127]
    return photo


@pytest.mark.parametrize("degrees", [0, 30, 115, 200])
def test_a_drawn_tile_is_cut_with_each_value_on_its_own_half(degrees):
    sprite = cut_sprite(drawn_tile(5, 2, degrees), (5, 2))
    assert not isinstance(sprite, str), sprite
    # the direction from the half showing values[0] to the other: the 5 lies where it was drawn
    first = 0 if sprite.values == (5, 2) else 1
    assert sorted(sprite.values) == [2, 5]
    drawn = math.radians(degrees) + (0 if first == 0 else math.pi)
    assert abs(math.remainder(sprite.angle - drawn, 2 * math.pi)) < math.radians(5)
    assert 48 < sprite.length < 56


def test_a_tile_whose_pips_are_not_the_folders_values_is_skipped():
    assert cut_sprite(drawn_tile(5, 2, 40), (6, 6)) == "pips differ"
    assert cut_sprite(np.full((100, 100, 3), 60, np.uint8), (1, 1)) == "no tile shape"


@needs_real
def test_the_real_crops_are_cut_into_tiles_of_their_folders_values():
    bank = SpriteBank(per_tile=3, seed=7)
    sample = [Tile.of(5, 4), Tile.of(6, 6), Tile.of(0, 0), Tile.of(6, 1), Tile.of(3, 2), Tile.of(4, 0)]
    for tile in sample:
        for sprite in bank.of(tile):
            assert Tile.of(*sprite.values) == tile, sprite.name
            assert sprite.length >= 30
    # what could not be told is counted, never used
    assert bank.cut == 3 * len(sample)
    assert bank.looked == bank.cut + sum(bank.skipped.values())
    assert set(bank.skipped) <= {"no tile shape", "pips differ", "halves differ", "small"}


@needs_real
def test_a_tiny_film_of_real_tiles_is_made_and_followed(tmp_path):
    from spinner.cli import main

    bank = SpriteBank(per_tile=2, seed=1)
    film = make_film(3, bank, "block", max_plays=4)
    assert film.plays == 4 and len(film.photos) == 5  # the bare cloth, then a photo a play
    assert 40 <= film.tile_length <= 64
    report = follow_film(film, models_reader("block"))
    assert report.plays == 4
    assert report.wrong == 0 and report.not_reached == 0
    assert report.score_equal
    # the photos as a phone's folder, followed by `spinner watch` itself
    film.write(tmp_path / "film")
    leader = film.record["hands"][0]["leader"]
    result = CliRunner().invoke(
        main,
        [
            "watch",
            str(tmp_path / "film" / "photos"),
            "--variant",
            "block",
            "--players",
            "4",
            "--leader",
            str(leader),
            "--no-ask",
            "--record",
            str(tmp_path / "record.json"),
        ],
    )
    assert result.exit_code in (0, 2), result.output  # 2: plays kept to confirm (who played them)
    record = json.loads((tmp_path / "record.json").read_text())
    pending = record.get("pending") or {}
    # plays kept to confirm who played them, or, where the reader was unsure of a tile, the
    # question `--no-ask` leaves open with the tiles it holds: kept for the player, never lost
    kept = pending.get("unconfirmed") or pending.get("new_tiles") or []
    played = [e for e in record["hands"][0]["events"] if e["type"] == "play"] if record["hands"] else []
    truth = [e["tile"] for e in film.record["hands"][0]["events"] if e["type"] == "play"]

    def tile(name: str) -> list[str]:
        return sorted(name.split("-"))

    assert [tile(e["tile"]) for e in played] == [tile(t) for t in truth[: len(played)]]
    assert sorted(tile(e["tile"]) for e in kept) == sorted(tile(t) for t in truth[len(played) :])


@needs_real
def test_a_hand_held_phone_that_moves_between_photos_is_followed_not_asked_about():
    """`bench/real_films.py --shake 6 --turn 1.5 --zoom 0.02 --light 0.1`, film 0's first 10 plays:
    the camera's motion between photos is followed (`vision.follow.register`); before, the layout
    "left its places" three times (`layout_moved`, 4 questions). Only the film's one
    question about who played (no arm is in a photo) is left."""
    bank = SpriteBank(per_tile=2, seed=0)
    film = make_film(0, bank, "any", max_plays=10, shake=6, turn_deg=1.5, zoom=0.02, light_drift=0.1)
    report = follow_film(film).to_json()
    assert report["wrong"] == 0 and report["not_reached"] == 0 and report["score_equal"]
    assert [n["code"] for n in report["notes"]] == ["seat_unsure"]
