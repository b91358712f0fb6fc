"""Scoring a reading of a `ddd-board` photo against its truth, which names grid cells, not pixels.

The real photos in `../shared/real/ddd-board/` show a 15x15 board whose playing area is one teal
square; the truth gives each half on the board as a cell (`8H`: row 8, column H). The photos show the
board turned a quarter to the left of the README's description: in the photo, the numbers run
left to right and the letters bottom to top (checked by drawing the truth onto the photos; the
first tile, 6 on 8H and 1 on 8I, stands upright with its 1 on top).
To compare a reading with it we find that square (colour, then the four corners of its hull),
map the photo onto the grid with the homography of those corners, and put every read half in a
cell. Everything read outside the square lies on the printed score track (pictures of dominoes,
not tiles) or the table: each such tile is a false tile.

Measuring only: this knows one board's look and is never used by the reader itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.evaluate.tally import Tally, blank_halves
from vision.read.reading import Reading

CELLS = 15
#: hue, saturation, value bounds of the board's teal playing area (OpenCV's 0-180 hue).
TEAL_LOW, TEAL_HIGH = (75, 60, 60), (105, 255, 255)


class BoardNotFound(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Grid:
    #: photo pixels -> grid units (0..15 on both axes, x to the right, y down, as in the photo).
    to_grid: np.ndarray

    def locate(self, point: Sequence[float]) -> tuple[float, float]:
        x, y = cv2.perspectiveTransform(np.asarray([[point]], dtype=np.float64), self.to_grid)[0, 0]
        return float(x), float(y)

    def cell(self, point: Sequence[float]) -> str | None:
        """The cell name under a photo point, or None outside the playing area."""
        x, y = self.locate(point)
        if not (0 <= x < CELLS and 0 <= y < CELLS):
            return None
        return f"{int(x) + 1}{chr(ord('A') + CELLS - 1 - int(y))}"


def cell_centre(name: str) -> tuple[float, float]:
    """Grid coordinates (x right, y down the photo) of a cell's centre: `8H` -> (7.5, 7.5),
    `1A` -> (0.5, 14.5), the bottom-left cell."""
    return int(name[:-1]) - 0.5, CELLS - 0.5 - (ord(name[-1]) - ord("A"))


def find_grid(image: np.ndarray) -> Grid:
    """The board's playing area in a photo (BGR), as a homography onto the 15x15 grid."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    mask = cv2.inRange(hsv, TEAL_LOW, TEAL_HIGH)
    # Opening detaches small teal-ish things (a green player token); closing fills the grid lines
    # and the stars printed on the square.
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((25, 25), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise BoardNotFound("no teal playing area in the photo")
    # The hull: tiles lying on the square cut notches into the teal, never its corners.
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(quad) != 4 or cv2.contourArea(hull) < 0.05 * image.shape[0] * image.shape[1]:
        raise BoardNotFound(f"the teal area is not a square board ({len(quad)} corners)")
    # Corners in the order top-left, top-right, bottom-right, bottom-left.
    by_sum, by_diff = quad.sum(axis=1), np.diff(quad, axis=1).ravel()
    ordered = np.array(
        [quad[by_sum.argmin()], quad[by_diff.argmin()], quad[by_sum.argmax()], quad[by_diff.argmax()]], dtype=np.float32
    )
    target = np.array([[0, 0], [CELLS, 0], [CELLS, CELLS], [0, CELLS]], dtype=np.float32)
    return Grid(cv2.getPerspectiveTransform(ordered, target))


@dataclass
class BoardTally(Tally):
    """Tiles and halves of the ddd-board photos, counted like the synthetic figures, and the
    printed pictures off the board read as tiles."""

    printed_read: int = 0

    def figures(self) -> dict[str, Any]:
        return {**super().figures(), "read_off_the_board": self.printed_read}


def true_tiles(board: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The truth lists a tile's two halves one after the other."""
    return [(board[i], board[i + 1]) for i in range(0, len(board) - 1, 2)]


def score_board_photo(reading: Reading, grid: Grid, board: list[dict[str, Any]], tally: BoardTally) -> None:
    """Add one photo: a read tile is on a true tile when its centre lies within 0.6 cell of the
    true tile's centre; its halves are then compared with the true halves they lie nearest."""
    tiles = true_tiles(board)
    centres = np.asarray([np.mean([cell_centre(a["cell"]), cell_centre(b["cell"])], axis=0) for a, b in tiles]).reshape(
        -1, 2
    )
    blanks = [blank_halves(a["value"], b["value"]) for a, b in tiles]
    for n in blanks:
        tally.count_true(n)
    tally.read += len(reading.tiles)
    used: set[int] = set()
    # the surest box claims a tile first (as COCO matches): of two boxes on one tile the less sure
    # is the extra one, whatever their order in the photo
    for tile in sorted(reading.tiles, key=lambda t: -t.confidence):
        x, y = grid.locate(tile.center)
        if not (0 <= x < CELLS and 0 <= y < CELLS):
            tally.printed_read += 1
            tally.judged.append((tile.confidence, False))
            continue
        if not len(centres):
            tally.judged.append((tile.confidence, False))
            continue
        distances = np.linalg.norm(centres - (x, y), axis=1)
        i = int(distances.argmin())
        if distances[i] > 0.6:
            tally.judged.append((tile.confidence, False))
            continue
        tally.on_a_tile += 1
        if i in used:
            tally.judged.append((tile.confidence, False))
            continue
        used.add(i)
        tally.count_found(blanks[i])
        true_halves = tiles[i]
        for half in tile.halves:
            hx, hy = grid.locate(half.center)
            nearest = min(
                true_halves, key=lambda h: np.hypot(cell_centre(h["cell"])[0] - hx, cell_centre(h["cell"])[1] - hy)
            )
            tally.halves += 1
            tally.confusion[nearest["value"], half.value] += 1
            if nearest["value"] == half.value:
                tally.halves_right += 1
        values = sorted(h["value"] for h in true_halves)
        tally.exact += int([tile.tile.low, tile.tile.high] == values)
        tally.judged.append((tile.confidence, [tile.tile.low, tile.tile.high] == values))


__all__ = ["BoardNotFound", "BoardTally", "Grid", "cell_centre", "find_grid", "score_board_photo", "true_tiles"]
