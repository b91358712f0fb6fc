"""How well the reader reads: on held-out synthetic photos (against their truth JSON) and on the
real photos of `../shared/real/` (measuring only: they are never trained on, never copied).

Matching a read tile to a true one is by position: the true tile whose centre is nearest, and
within half the tile's short side. The figures:
- tile recall: true face-up tiles (those the labels count: at least 60 % visible) found;
- tile precision: read tiles that lie on a real face-up tile;
- exact tile: of the tiles found, those read as the right tile;
- per half: of the halves of the tiles found, those read with the right value;
- per half seen: the same over the halves the truth marks as seen (a half under a hand is not);
- confusions: true value (row) against read value (column), per half.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import cv2
import numpy as np

from scorer.tiles import Tile
from vision.evaluate.ddd_board import BoardNotFound, BoardTally, find_grid, score_board_photo
from vision.evaluate.tally import Tally, blank_halves
from vision.geometry import short_side
from vision.read.detector import ObbDetection, Voting
from vision.read.reader import Reader, ReadError, load_photo
from vision.read.reading import Reading, TileReading


def _nearest(point: Iterable[float], centres: np.ndarray) -> tuple[int, float]:
    if len(centres) == 0:
        return -1, float("inf")
    d = np.linalg.norm(centres - np.asarray(point, dtype=np.float32), axis=1)
    i = int(d.argmin())
    return i, float(d[i])


def score_synthetic(reading: Reading, truth: dict[str, Any], tally: Tally) -> None:
    """Add one photo's reading, against its truth, to the tally."""
    tiles = truth["tiles"]
    counted = [t for t in tiles if t.get("labelled")]
    for t in counted:
        tally.count_true(_blanks(t))
    tally.read += len(reading.tiles)
    centres = np.asarray([t["center"] for t in tiles], dtype=np.float32).reshape(-1, 2)
    used: set[int] = set()
    for tile in reading.tiles:
        i, distance = _nearest(tile.center, centres)
        if i < 0 or distance > 0.5 * short_side(tiles[i]["corners"]):
            continue
        tally.on_a_tile += 1
        if i in used or not tiles[i].get("labelled"):
            continue
        used.add(i)
        tally.count_found(_blanks(tiles[i]))
        _score_halves(tile, tiles[i], tally)
    missed = len(counted) - sum(1 for i in used if tiles[i].get("labelled"))
    if missed:
        tally.failures.append(f"{missed} tile(s) missed")


def _blanks(true_tile: dict[str, Any]) -> int:
    a, b = (int(v) for v in true_tile["value"].split("-"))
    return blank_halves(a, b)


def _score_halves(tile: TileReading, true_tile: dict[str, Any], tally: Tally) -> None:
    if tile.tile is Tile.parse(true_tile["value"]):
        tally.exact += 1
    half_centres = np.asarray([h.center for h in tile.halves], dtype=np.float32)
    for half in true_tile["halves"]:
        j, _ = _nearest(half["center"], half_centres)
        tally.halves += 1
        read_value = tile.halves[j].value
        tally.confusion[int(half["value"]), read_value] += 1
        tally.halves_right += int(read_value == int(half["value"]))
        if half.get("labelled", True):
            tally.seen_halves += 1
            tally.seen_halves_right += int(read_value == int(half["value"]))


@dataclass(frozen=True)
class TrueBoxes:
    """Stands in for the detector with the truth's own boxes (every labelled tile), so that the
    halves classifier and the settling are measured apart from what the detector misses."""

    truth: dict[str, Any]

    def predict(self, image: np.ndarray, conf: float = 0.0, iou: float = 0.5, max_det: int = 300,
                voting: Voting | None = None) -> list[ObbDetection]:
        # The same call as `ObbModel.predict`; the truth's boxes need no threshold, NMS or voting.
        boxes = []
        for tile in self.truth["tiles"]:
            if not tile.get("labelled"):
                continue
            (cx, cy), size, degrees = cv2.minAreaRect(np.asarray(tile["corners"], dtype=np.float32))
            boxes.append(ObbDetection(cls=0, confidence=1.0, center=(cx, cy), size=size,
                                      angle=float(np.radians(degrees)), scores=(1.0,)))
        return boxes


def evaluate_synthetic(reader: Reader, dataset: Path, split: str = "val", limit: int | None = None,
                       true_boxes: bool = False) -> dict[str, Any]:
    """Tile recall and precision, exact tile and per half on a synthetic set's split. With
    `true_boxes` the detector is replaced by the truth's boxes (recall is then 1 by design)."""
    truth_files = sorted((dataset / "truth" / split).glob("*.json"))[:limit]
    if not truth_files:
        raise FileNotFoundError(f"no truth JSON under {dataset / 'truth' / split}")
    tally = Tally()
    detector, sets, zoom = reader.detector, reader.sets, reader.zoom
    if true_boxes:
        reader.zoom = None  # the truth's boxes are where the tiles are, at any size
    try:
        for path in truth_files:
            truth = json.loads(path.read_text())
            image = load_photo(dataset / "images" / split / f"{path.stem}.jpg")
            if true_boxes:
                reader.detector = TrueBoxes(truth)  # type: ignore[assignment]
            # How many sets lie on the table is the players' setting (`spinner read --sets`), not
            # something to read: dense synthetic tables use two, and one-set uniqueness would
            # "correct" their repeated tiles into wrong ones.
            reader.sets = int(truth.get("params", {}).get("sets", 1))
            score_synthetic(reader.read(image, path.stem), truth, tally)
    finally:
        reader.detector, reader.sets, reader.zoom = detector, sets, zoom
    return {"photos": len(truth_files), "boxes": "truth" if true_boxes else "detector", **tally.figures()}


def evaluate_domibot(reader: Reader, folder: Path, limit: int | None = None) -> dict[str, Any]:
    """Tile identity on single-tile crops: the folder `5x4` holds 4-5."""
    photos = sorted(folder.glob("*/*.jpg"))
    if limit:
        photos = photos[:: max(1, len(photos) // limit)]
    right = found = 0
    confusions: dict[str, int] = {}
    for photo in photos:
        a, b = (int(v) for v in photo.parent.name.split("x"))
        want = str(Tile.of(a, b))
        reading = reader.read(load_photo(photo), str(photo))
        if not reading.tiles:
            continue
        found += 1
        best = max(reading.tiles, key=lambda t: t.confidence)
        if str(best.tile) == want:
            right += 1
        else:
            key = f"{want}->{best.tile}"
            confusions[key] = confusions.get(key, 0) + 1
    top = dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:10])
    return {"photos": len(photos), "tile_found": round(found / len(photos), 4) if photos else None,
            "tile_identity": round(right / len(photos), 4) if photos else None, "commonest_mistakes": top}


def evaluate_board(reader: Reader, folder: Path) -> dict[str, Any]:
    """ddd-board: every tile on the board read (tiles, halves; the printed track must stay
    unread), and the new tile of each photo, found by comparing with the previous photo."""
    truth = json.loads((folder / "truth.json").read_text())
    names = sorted(truth)
    tally = BoardTally()
    # Double Double Dominoes is played with two sets: a tile may lie on the board twice.
    sets, reader.sets = reader.sets, 2
    try:
        return _board_figures(reader, folder, truth, names, tally)
    finally:
        reader.sets = sets


def _board_figures(reader: Reader, folder: Path, truth: dict[str, Any], names: list[str], tally: BoardTally) -> dict[str, Any]:
    right = total = 0
    previous: dict[str, Reading] = {}
    mistakes: list[str] = []
    for name in names:
        game = name.split("_")[0]
        image = load_photo(folder / name)
        reading = reader.read(image, name)
        try:
            score_board_photo(reading, find_grid(image), truth[name]["board"], tally)
        except BoardNotFound as error:
            mistakes.append(f"{name}: {error}")
        before = previous.get(game)
        previous[game] = reading
        if before is None:
            continue  # the first photo of a game has nothing to compare with
        total += 1
        new = new_tiles(before, reading)
        halves = [h["value"] for h in truth[name]["new_tile"]]
        want = str(Tile.of(*halves))
        got = str(new[0].tile) if new else None
        right += int(got == want)
        if got != want:
            mistakes.append(f"{name}: new tile {want} read as {got}")
    return {"photos": len(names), **tally.figures(), "moves": total,
            "new_tile_right": round(right / total, 4) if total else None, "mistakes": mistakes[:10]}


def new_tiles(before: Reading, after: Reading) -> list[TileReading]:
    """Tiles in `after` with no tile of `before` near them, surest first."""
    centres = np.asarray([t.center for t in before.tiles], dtype=np.float32).reshape(-1, 2)
    out = []
    for tile in after.tiles:
        _, distance = _nearest(tile.center, centres)
        if distance > 0.5 * short_side(tile.corners):
            out.append(tile)
    return sorted(out, key=lambda t: -t.confidence)


def evaluate(reader: Reader, synthetic: Path | None, real: Path | None, limit: int | None = None,
             true_boxes: bool = False) -> dict[str, Any]:
    report: dict[str, Any] = {}
    if synthetic is not None:
        report["synthetic"] = evaluate_synthetic(reader, synthetic, limit=limit, true_boxes=true_boxes)
    if real is not None:
        board, crops = real / "ddd-board", real / "domibot-crops"
        report["ddd-board"] = evaluate_board(reader, board) if board.is_dir() else "absent"
        report["domibot-crops"] = evaluate_domibot(reader, crops, limit) if crops.is_dir() else "absent"
    return report


__all__ = ["evaluate", "evaluate_synthetic", "evaluate_domibot", "evaluate_board", "TrueBoxes", "new_tiles", "score_synthetic", "ReadError"]
