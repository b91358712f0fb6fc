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

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorer.tiles import Tile
from vision.evaluate import read_truth
from vision.evaluate.ddd_board import BoardNotFound, BoardTally, find_grid, score_board_photo
from vision.evaluate.tally import Tally, blank_halves
from vision.geometry import short_side
from vision.read import photo as loader
from vision.read.detector import ObbDetection, Voting
from vision.read.reader import Reader, ReadError, load_photo
from vision.read.reading import Reading, TileReading, scaled


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
    # the surest box claims a tile first (as COCO matches): of two boxes on one tile the less sure
    # is the extra one, whatever their order in the photo
    for tile in sorted(reading.tiles, key=lambda t: -t.confidence):
        i, distance = _nearest(tile.center, centres)
        if i < 0 or distance > 0.5 * short_side(tiles[i]["corners"]):
            kind = _not_a_tile(tile.center, truth)
            if kind is not None:
                tally.not_tiles[kind] += 1
                if not tile.unsure:
                    tally.sure_not_tiles[kind] += 1
            elif _across(tile, tiles):
                tally.across += 1
                tally.sure_across += int(not tile.unsure)
            tally.judged.append((tile.confidence, False))
            continue
        tally.on_a_tile += 1
        if i in used:
            tally.judged.append((tile.confidence, False))  # a second box on one tile
            continue
        if not tiles[i].get("labelled"):
            continue  # a tile mostly hidden or cut by the frame: not counted either way
        used.add(i)
        tally.count_found(_blanks(tiles[i]))
        _score_halves(tile, tiles[i], tally)
        tally.judged.append((tile.confidence, tile.tile is Tile.parse(tiles[i]["value"])))
    missed = len(counted) - sum(1 for i in used if tiles[i].get("labelled"))
    if missed:
        tally.failures.append(f"{missed} tile(s) missed")


def _not_a_tile(point: Iterable[float], truth: dict[str, Any]) -> str | None:
    """What a read tile lying on no face-up tile lies on: "face_down", "edge", "printed" or None."""
    x, y = (float(v) for v in point)
    for key, kind, corners in (
        ("face_down", "face_down", "corners"),
        ("on_edge", "edge", "outline"),
        ("printed", "printed", "corners"),
    ):
        for item in truth.get(key, []):
            polygon = np.asarray(item.get(corners) or item["corners"], dtype=np.float32).reshape(-1, 1, 2)
            if cv2.pointPolygonTest(polygon, (x, y), False) >= 0:
                return kind
    return None


def lies_on(tile: TileReading, truth: dict[str, Any]) -> str | None:
    """What a read tile lies on, as `score_synthetic` matches it: "tile" (a labelled face-up
    tile), "unlabelled" (one mostly hidden or cut by the frame), "face_down", "edge", "printed",
    "across" (its halves on two touching tiles), or None (none of them: the table)."""
    tiles = truth["tiles"]
    centres = np.asarray([t["center"] for t in tiles], dtype=np.float32).reshape(-1, 2)
    i, distance = _nearest(tile.center, centres)
    if i >= 0 and distance <= 0.5 * short_side(tiles[i]["corners"]):
        return "tile" if tiles[i].get("labelled") else "unlabelled"
    return _not_a_tile(tile.center, truth) or ("across" if _across(tile, tiles) else None)


def _across(tile: TileReading, tiles: list[dict[str, Any]]) -> bool:
    """Whether the read tile's two halves lie on two different tiles: a box over the joint of two
    touching tiles (in a line of play, a packed row), read as one tile made of a half of each."""
    under = []
    for half in tile.halves:
        x, y = (float(v) for v in half.center)
        for index, true_tile in enumerate(tiles):
            polygon = np.asarray(true_tile["corners"], dtype=np.float32).reshape(-1, 1, 2)
            if cv2.pointPolygonTest(polygon, (x, y), False) >= 0:
                under.append(index)
                break
    return len(under) == 2 and under[0] != under[1]


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
    #: one class, as the tiles-only detector has (`reader.set_aside`)
    names = {0: "tile"}

    def predict(
        self, image: np.ndarray, conf: float = 0.0, iou: float = 0.5, max_det: int = 300, voting: Voting | None = None
    ) -> list[ObbDetection]:
        # The same call as `ObbModel.predict`; the truth's boxes need no threshold, NMS or voting.
        boxes = []
        for tile in self.truth["tiles"]:
            if not tile.get("labelled"):
                continue
            (cx, cy), size, degrees = cv2.minAreaRect(np.asarray(tile["corners"], dtype=np.float32))
            boxes.append(
                ObbDetection(
                    cls=0, confidence=1.0, center=(cx, cy), size=size, angle=float(np.radians(degrees)), scores=(1.0,)
                )
            )
        return boxes


def evaluate_synthetic(
    reader: Reader,
    dataset: Path,
    split: str = "val",
    limit: int | None = None,
    true_boxes: bool = False,
    judged: list[tuple[float, bool]] | None = None,
) -> dict[str, Any]:
    """Tile recall and precision, exact tile and per half on a synthetic set's split. With
    `true_boxes` the detector is replaced by the truth's boxes (recall is then 1 by design).
    `judged`, when given, gets each read tile's (confidence, right) (`Tally.judged`)."""
    truth_files = sorted((dataset / "truth" / split).glob("*.json"))[:limit]
    if not truth_files:
        raise FileNotFoundError(f"no truth JSON under {dataset / 'truth' / split}")
    tally = Tally()
    detector, sets, zoom, widen, slant = reader.detector, reader.sets, reader.zoom, reader.widen, reader.slant
    if true_boxes:
        # the truth's boxes are where the tiles are, at any size and any view
        reader.zoom = reader.widen = reader.slant = None
    try:
        for path in truth_files:
            truth = read_truth(path)
            # upright, and a phone's photo decoded at reduced size, as `spinner read` does: the
            # reading is then moved back to the photo's own pixels, where the truth is
            photo = loader.load(dataset / "images" / split / f"{path.stem}.jpg")
            image = photo.image
            if true_boxes:
                reader.detector = TrueBoxes(truth)  # type: ignore[assignment]
            # How many sets lie on the table is the players' setting (`spinner read --sets`), not
            # something to read: dense synthetic tables use two, and one-set uniqueness would
            # "correct" their repeated tiles into wrong ones.
            reader.sets = int(truth.get("params", {}).get("sets", 1))
            reading = scaled(reader.read(image, path.stem), photo.scale, photo.width, photo.height)
            score_synthetic(reading, truth, tally)
    finally:
        reader.detector, reader.sets, reader.zoom, reader.widen, reader.slant = detector, sets, zoom, widen, slant
    if judged is not None:
        judged.extend(tally.judged)
    return {"photos": len(truth_files), "boxes": "truth" if true_boxes else "detector", **tally.figures()}


def evaluate_domibot(
    reader: Reader, folder: Path, limit: int | None = None, judged: list[tuple[float, bool]] | None = None
) -> dict[str, Any]:
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
        if judged is not None:  # one tile in each photo: any other tile read is wrong
            judged.extend((t.confidence, t is best and str(t.tile) == want) for t in reading.tiles)
        if str(best.tile) == want:
            right += 1
        else:
            key = f"{want}->{best.tile}"
            confusions[key] = confusions.get(key, 0) + 1
    top = dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:10])
    return {
        "photos": len(photos),
        "tile_found": round(found / len(photos), 4) if photos else None,
        "tile_identity": round(right / len(photos), 4) if photos else None,
        "commonest_mistakes": top,
    }


def evaluate_board(reader: Reader, folder: Path, judged: list[tuple[float, bool]] | None = None) -> dict[str, Any]:
    """ddd-board: every tile on the board read (tiles, halves; the printed track must stay
    unread), and the new tile of each photo, found by comparing with the previous photo."""
    truth = read_truth(folder / "truth.json")
    names = sorted(truth)
    tally = BoardTally()
    # Double Double Dominoes is played with two sets: a tile may lie on the board twice.
    sets, reader.sets = reader.sets, 2
    try:
        return _board_figures(reader, folder, truth, names, tally)
    finally:
        reader.sets = sets
        if judged is not None:
            judged.extend(tally.judged)


def _board_figures(
    reader: Reader, folder: Path, truth: dict[str, Any], names: list[str], tally: BoardTally
) -> dict[str, Any]:
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
    return {
        "photos": len(names),
        **tally.figures(),
        "moves": total,
        "new_tile_right": round(right / total, 4) if total else None,
        "mistakes": mistakes[:10],
    }


def new_tiles(before: Reading, after: Reading) -> list[TileReading]:
    """Tiles in `after` with no tile of `before` near them, surest first."""
    centres = np.asarray([t.center for t in before.tiles], dtype=np.float32).reshape(-1, 2)
    out = []
    for tile in after.tiles:
        _, distance = _nearest(tile.center, centres)
        if distance > 0.5 * short_side(tile.corners):
            out.append(tile)
    return sorted(out, key=lambda t: -t.confidence)


#: the real sets `spinner eval --real DIR` measures, each a folder of that name in DIR
REAL_SETS = ("ddd-board", "domibot-crops")


def evaluate(
    reader: Reader,
    synthetic: Path | None,
    real: Path | None,
    limit: int | None = None,
    true_boxes: bool = False,
    judged: dict[str, list[tuple[float, bool]]] | None = None,
) -> dict[str, Any]:
    """The figures of each set; `judged`, when given, gets each set's read tiles' (confidence, right)."""
    report: dict[str, Any] = {}
    pairs: dict[str, list[tuple[float, bool]]] = {"synthetic": [], "ddd-board": [], "domibot-crops": []}
    if synthetic is not None:
        report["synthetic"] = evaluate_synthetic(
            reader, synthetic, limit=limit, true_boxes=true_boxes, judged=pairs["synthetic"]
        )
    if real is not None:
        board, crops = real / "ddd-board", real / "domibot-crops"
        report["ddd-board"] = evaluate_board(reader, board, pairs["ddd-board"]) if board.is_dir() else "absent"
        report["domibot-crops"] = (
            evaluate_domibot(reader, crops, limit, pairs["domibot-crops"]) if crops.is_dir() else "absent"
        )
    if judged is not None:
        judged.update({k: v for k, v in pairs.items() if v})
    return report


def evaluate_styles(
    reader: Reader, root: Path, limit: int | None = None, judged: dict[str, list[tuple[float, bool]]] | None = None
) -> dict[str, Any]:
    """The styles benchmark (`vision.synth.styles`): the synthetic figures of each condition's
    set under `root`, and printed pictures, backs and tiles on edge read as tiles per 100 photos."""
    from vision.synth.styles import CONDITIONS

    report: dict[str, Any] = {}
    for condition in CONDITIONS:
        folder = root / condition.name
        if not (folder / "truth" / "val").is_dir():
            continue
        pairs: list[tuple[float, bool]] = []
        figures = evaluate_synthetic(reader, folder, limit=limit, judged=pairs)
        for key, count in (("not_tiles", "read_as_tiles"), ("sure_not_tiles", "read_as_sure_tiles")):
            wrong_things = sum(figures[count].values())
            figures[f"{key}_per_100_photos"] = (
                round(100 * wrong_things / figures["photos"], 2) if figures["photos"] else None
            )
        figures["sure_across_per_100_photos"] = (
            round(100 * figures["sure_across_two_tiles"] / figures["photos"], 2) if figures["photos"] else None
        )
        report[condition.name] = figures
        if judged is not None:
            judged[condition.name] = pairs
    return report


def styles_table(report: dict[str, Any]) -> str:
    """The styles benchmark as a Markdown table (docs/styles.md)."""
    lines = [
        "| condition | photos | tiles | recall | precision | per half | exact tile | not tiles read /100 photos "
        "| of them sure | sure across two tiles /100 photos |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f} %"

    for name, f in report.items():
        lines.append(
            f"| {name} | {f['photos']} | {f['tiles_true']} | {pct(f['tile_recall'])} | {pct(f['tile_precision'])} | "
            f"{pct(f['per_half'])} | {pct(f['exact_tile'])} | {f['not_tiles_per_100_photos']} | "
            f"{f['sure_not_tiles_per_100_photos']} | {f['sure_across_per_100_photos']} |"
        )
    return "\n".join(lines)


__all__ = [
    "evaluate_styles",
    "styles_table",
    "evaluate",
    "REAL_SETS",
    "evaluate_synthetic",
    "evaluate_domibot",
    "evaluate_board",
    "TrueBoxes",
    "new_tiles",
    "score_synthetic",
    "ReadError",
]
