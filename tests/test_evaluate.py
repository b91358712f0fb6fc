"""The reader's evaluation: matching read tiles to the truth, and the figures it reports."""

from __future__ import annotations

from scorer import Tile
from vision.evaluate.photos import Tally, new_tiles, score_synthetic
from vision.read.reading import HalfReading, Reading, TileReading


def read_tile(value: str, centre: tuple[float, float], halves: tuple[int, int]) -> TileReading:
    x, y = centre
    corners = ((x - 20, y - 10), (x + 20, y - 10), (x + 20, y + 10), (x - 20, y + 10))
    probs = tuple([1 / 7] * 7)
    return TileReading(
        Tile.parse(value),
        centre,
        corners,
        (HalfReading(halves[0], (x - 10, y), corners, probs), HalfReading(halves[1], (x + 10, y), corners, probs)),
        0.9,
    )


def true_tile(value: str, centre: tuple[float, float], labelled: bool = True) -> dict:
    x, y = centre
    a, b = (int(v) for v in value.split("-"))
    return {
        "value": value,
        "center": [x, y],
        "labelled": labelled,
        "corners": [[x - 20, y - 10], [x + 20, y - 10], [x + 20, y + 10], [x - 20, y + 10]],
        "halves": [{"value": a, "center": [x - 10, y]}, {"value": b, "center": [x + 10, y]}],
    }


def test_figures_count_found_missed_misread_and_false_tiles():
    truth = {
        "tiles": [
            true_tile("3-5", (100, 100)),
            true_tile("6-6", (300, 100)),
            true_tile("1-2", (500, 100)),
            true_tile("0-4", (700, 100), labelled=False),
        ]
    }
    reading = Reading(
        "x",
        800,
        200,
        (
            read_tile("3-5", (102, 101), (3, 5)),  # right
            read_tile("5-6", (300, 100), (6, 5)),  # one half misread
            read_tile("0-4", (700, 100), (0, 4)),  # on a tile too hidden to count: neither found nor false
            read_tile("2-2", (400, 180), (2, 2)),  # on no tile at all
        ),
    )
    tally = Tally()
    score_synthetic(reading, truth, tally)
    figures = tally.figures()
    assert figures["tile_recall"] == round(2 / 3, 4)
    assert figures["tile_precision"] == 0.75
    assert figures["exact_tile"] == 0.5
    assert figures["per_half"] == 0.75
    assert figures["confusion"][6][5] == 1 and figures["confusion"][3][3] == 1


def test_of_two_boxes_on_one_tile_the_surer_is_matched_and_the_fainter_is_the_extra():
    """As COCO matches: the surest box claims its tile, whatever the photo's order of the boxes,
    so a sure tile is never charged for a faint duplicate listed before it."""
    from dataclasses import replace

    truth = {"tiles": [true_tile("1-6", (100, 100))]}
    faint = replace(read_tile("1-6", (101, 99), (1, 6)), confidence=0.35)
    sure = replace(read_tile("1-6", (100, 100), (1, 6)), confidence=0.75)
    tally = Tally()
    score_synthetic(Reading("x", 200, 200, (faint, sure)), truth, tally)
    assert sorted(tally.judged) == [(0.35, False), (0.75, True)]
    assert tally.figures()["tile_recall"] == 1.0 and tally.figures()["exact_tile"] == 1.0


def test_a_box_over_the_joint_of_two_touching_tiles_is_counted_across_them():
    """Two tiles end to end (a line of play): a box from the middle of one to the middle of the
    other lies on neither tile and is counted apart from a box on bare table, sure or not."""
    from dataclasses import replace

    from vision.evaluate.photos import lies_on

    truth = {"tiles": [true_tile("3-5", (100, 100)), true_tile("5-6", (140, 100))]}
    across = read_tile("5-5", (120, 100), (5, 5))
    assert lies_on(across, truth) == "across"
    assert lies_on(read_tile("3-5", (101, 100), (3, 5)), truth) == "tile"
    assert lies_on(read_tile("2-2", (300, 100), (2, 2)), truth) is None
    tally = Tally()
    unsure = replace(read_tile("1-1", (120, 101), (1, 1)), unsure=True)
    table = read_tile("2-2", (300, 100), (2, 2))
    score_synthetic(Reading("x", 400, 200, (across, unsure, table)), truth, tally)
    figures = tally.figures()
    assert (figures["read_across_two_tiles"], figures["sure_across_two_tiles"]) == (2, 1)
    assert sum(figures["read_as_tiles"].values()) == 0 and figures["tile_precision"] == 0.0


def test_the_new_tile_is_the_one_with_nothing_near_it_before():
    before = Reading("a", 800, 200, (read_tile("3-5", (100, 100), (3, 5)),))
    after = Reading("b", 800, 200, (read_tile("3-5", (101, 100), (3, 5)), read_tile("5-6", (140, 100), (5, 6))))
    assert [str(t.tile) for t in new_tiles(before, after)] == ["5-6"]


def test_true_boxes_stand_in_for_the_detector_with_every_labelled_tile():
    import numpy as np

    from vision.evaluate.photos import TrueBoxes

    slanted = true_tile("2-6", (400, 300))
    slanted["corners"] = [[380, 270], [420, 300], [408, 316], [368, 286]]  # turned, as a camera sees it
    truth = {"tiles": [true_tile("3-5", (100, 100)), slanted, true_tile("0-4", (700, 100), labelled=False)]}
    boxes = TrueBoxes(truth).predict(np.zeros((400, 800, 3), np.uint8))
    assert len(boxes) == 2  # the unlabelled (too hidden) tile is not boxed
    for box, tile in zip(boxes, truth["tiles"], strict=False):
        want = np.asarray(tile["corners"], dtype=np.float32)
        got = box.corners()
        # the same four corners, in whatever order the box lists them
        assert max(np.linalg.norm(got - corner, axis=1).min() for corner in want) < 1.0
        assert box.confidence == 1.0


def test_recall_is_also_counted_by_the_blank_halves_of_the_labelled_tiles():
    truth = {
        "tiles": [
            true_tile("0-0", (100, 100)),
            true_tile("0-5", (300, 100)),
            true_tile("0-3", (500, 100)),
            true_tile("2-4", (700, 100)),
            true_tile("0-1", (900, 100), labelled=False),
        ]
    }
    reading = Reading(
        "x",
        1000,
        200,
        (
            read_tile("0-5", (300, 100), (0, 5)),
            read_tile("2-4", (700, 100), (2, 4)),
            read_tile("0-1", (900, 100), (0, 1)),  # too hidden to count: not in any share
        ),
    )
    tally = Tally()
    score_synthetic(reading, truth, tally)
    assert tally.figures()["recall_by_blank_halves"] == {"0": 1.0, "1": 0.5, "2": 0.0}


def test_per_half_seen_leaves_out_the_halves_too_hidden_to_read():
    hidden = true_tile("3-5", (100, 100))
    hidden["halves"][1]["labelled"] = False  # the 5 lies under a hand
    truth = {"tiles": [hidden, true_tile("6-6", (300, 100))]}
    reading = Reading(
        "x",
        800,
        200,
        (
            read_tile("3-4", (100, 100), (3, 4)),  # the hidden half read wrong
            read_tile("5-6", (300, 100), (6, 5)),  # a seen half read wrong
        ),
    )
    tally = Tally()
    score_synthetic(reading, truth, tally)
    figures = tally.figures()
    assert figures["per_half"] == 0.5
    assert figures["per_half_seen"] == round(2 / 3, 4)
    assert "per_half_seen" not in Tally().figures()  # no synthetic truth, no such figure


def test_the_styles_table_shows_the_sure_boxes_across_two_tiles_beside_the_sure_non_tiles():
    from vision.evaluate.photos import styles_table

    row = {
        "photos": 100,
        "tiles_true": 1200,
        "tile_recall": 0.962,
        "tile_precision": 0.913,
        "per_half": 0.987,
        "exact_tile": 0.979,
        "not_tiles_per_100_photos": 73.0,
        "sure_not_tiles_per_100_photos": 1.0,
        "sure_across_per_100_photos": 4.0,
    }
    header, _, line = styles_table({"pin-no-divider": row}).splitlines()
    assert header.split("|")[-2].strip() == "sure across two tiles /100 photos"
    assert [cell.strip() for cell in line.split("|")[-4:-1]] == ["73.0", "1.0", "4.0"]
