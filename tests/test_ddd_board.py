"""Scoring readings of the real board photos: the grid found by colour, cells, and the tallies."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer import Tile
from vision.evaluate.ddd_board import BoardNotFound, BoardTally, cell_centre, find_grid, score_board_photo
from vision.read.reading import HalfReading, Reading, TileReading

#: a board drawn at a slight angle: the playing area's corners, top-left first, clockwise.
CORNERS = np.float32([[210, 105], [710, 95], [720, 600], [200, 590]])


def board_photo() -> np.ndarray:
    image = np.full((700, 900, 3), (40, 70, 110), np.uint8)  # brown wood
    cv2.fillConvexPoly(image, CORNERS.astype(np.int32), (140, 140, 20))  # teal (BGR)
    return image


def to_photo(grid_point: tuple[float, float]) -> tuple[float, float]:
    square = np.float32([[0, 0], [15, 0], [15, 15], [0, 15]])
    h = cv2.getPerspectiveTransform(square, CORNERS)
    x, y = cv2.perspectiveTransform(np.float64([[grid_point]]), h)[0, 0]
    return float(x), float(y)


def tile_on(a: str, b: str, values: tuple[int, int]) -> TileReading:
    ca, cb = to_photo(cell_centre(a)), to_photo(cell_centre(b))
    centre = ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2)
    probs = tuple([1 / 7] * 7)
    halves = (HalfReading(values[0], ca, (), probs), HalfReading(values[1], cb, (), probs))
    return TileReading(Tile.of(*values), centre, (), halves, 0.9)


def test_cells_follow_the_photos_turn_numbers_left_to_right_letters_bottom_to_top():
    grid = find_grid(board_photo())
    assert grid.cell(to_photo((0.5, 14.5))) == "1A"
    assert grid.cell(to_photo((14.5, 0.5))) == "15O"
    assert grid.cell(to_photo(cell_centre("8H"))) == "8H"
    assert grid.cell((100, 100)) is None


def test_a_photo_without_the_board_is_refused():
    with pytest.raises(BoardNotFound):
        find_grid(np.full((300, 300, 3), (40, 70, 110), np.uint8))


def test_tiles_halves_and_off_board_reads_are_tallied():
    board = [
        {"cell": "8H", "value": 6},
        {"cell": "8I", "value": 1},
        {"cell": "8F", "value": 5},
        {"cell": "8G", "value": 6},
    ]
    reading = Reading(
        "x",
        900,
        700,
        (
            tile_on("8H", "8I", (6, 1)),  # right
            tile_on("8F", "8G", (4, 6)),  # one half misread
            TileReading(
                Tile.of(2, 2),
                (60.0, 60.0),
                (),
                (HalfReading(2, (55, 60), (), ()), HalfReading(2, (65, 60), (), ())),
                0.5,
            ),
        ),
    )
    tally = BoardTally()
    score_board_photo(reading, find_grid(board_photo()), board, tally)
    figures = tally.figures()
    assert figures["tile_recall"] == 1.0 and figures["tile_precision"] == round(2 / 3, 4)
    assert figures["exact_tile"] == 0.5 and figures["per_half"] == 0.75
    assert figures["read_off_the_board"] == 1 and figures["confusion"][5][4] == 1


def test_recall_is_also_counted_by_the_blank_halves_of_the_true_tiles():
    board = [
        {"cell": "8H", "value": 0},
        {"cell": "8I", "value": 0},
        {"cell": "8F", "value": 5},
        {"cell": "8G", "value": 0},
        {"cell": "3C", "value": 2},
        {"cell": "3D", "value": 4},
    ]
    reading = Reading("x", 900, 700, (tile_on("8F", "8G", (5, 0)), tile_on("3C", "3D", (2, 4))))
    tally = BoardTally()
    score_board_photo(reading, find_grid(board_photo()), board, tally)
    assert tally.figures()["recall_by_blank_halves"] == {"0": 1.0, "1": 1.0, "2": 0.0}
