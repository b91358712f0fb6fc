"""The layout rebuilt from hand-built tile sets: tiles laid out on a grid of half-sides, drawn
into a photo (optionally seen at an angle), and given to `reconstruct` as the reader would."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from scorer.tiles import Tile
from vision.evaluate.layout import evaluate_layouts
from vision.read.reading import HalfReading, TileReading
from vision.rebuild.reconstruct import layout_rules, reconstruct
from vision.synth.dataset import make_sample

PARTNERS = layout_rules("partners")
BLOCK = layout_rules("block")


def lay(
    a: int,
    b: int,
    x: float,
    y: float,
    degrees: float,
    sure: tuple[dict[int, float] | None, dict[int, float] | None] = (None, None),
):
    """A tile a-b with its centre at (x, y) (units: a half's side; y up), half a towards -axis."""
    return (a, b, x, y, math.radians(degrees), sure)


def _probs(value: int, spec: dict[int, float] | None) -> tuple[float, ...]:
    p = np.full(7, 0.01)
    for v, w in (spec or {value: 0.94}).items():
        p[v] = w
    return tuple(float(v) for v in p / p.sum())


def photo(tiles, scale: float = 40.0, tilt: float = 0.0) -> list[TileReading]:
    """Readings in pixels; `tilt` adds perspective (the far side of the table smaller)."""

    def to_pixels(points: np.ndarray) -> np.ndarray:
        px = np.column_stack([400 + scale * points[:, 0], 400 - scale * points[:, 1]])
        if tilt:
            w = 1 + tilt * (400 - px[:, 1]) / 400  # further up the photo, further away
            px = np.column_stack([400 + (px[:, 0] - 400) / w, 400 + (px[:, 1] - 400) / w])
        return px

    out = []
    for a, b, x, y, angle, sure in tiles:
        u = np.array([math.cos(angle), math.sin(angle)])
        v = np.array([-u[1], u[0]])
        halves = []
        for k, value in enumerate((a, b)):
            centre = np.array([x, y]) + (k - 0.5) * u
            quad = to_pixels(
                np.array(
                    [centre - u / 2 - v / 2, centre + u / 2 - v / 2, centre + u / 2 + v / 2, centre - u / 2 + v / 2]
                )
            )
            probs = _probs(value, sure[k])
            read = int(np.argmax(probs))
            halves.append(HalfReading(read, tuple(quad.mean(axis=0)), tuple(map(tuple, quad)), probs))
        corners = np.array([halves[0].corners[0], halves[1].corners[1], halves[1].corners[2], halves[0].corners[3]])
        out.append(
            TileReading(
                Tile.of(halves[0].value, halves[1].value),
                tuple(corners.mean(axis=0)),
                tuple(map(tuple, corners)),
                (halves[0], halves[1]),
                0.9,
            )
        )
    return out


def ends(result) -> dict[str, int]:
    return dict(result.open_ends)


def line_with_double(gap: float = 0.0, sure=(None, None), lead_sure=(None, None), west_sure=(None, None)):
    """1-5 | 5-3 (lead) | 3-2 | 2-2 crosswise | 2-6, west to east, `gap` between tiles."""
    g = gap
    return [
        lay(5, 3, 0, 0, 0, lead_sure),
        lay(3, 2, 2 + g, 0, 0),
        lay(2, 2, 3.5 + 2 * g, 0, 90),
        lay(2, 6, 5 + 3 * g, 0.05 * g, 0, sure),
        lay(1, 5, -2 - g, -0.05 * g, 2 * g, west_sure),
    ]


def test_a_line_with_a_crosswise_double():
    block = reconstruct(photo(line_with_double()), BLOCK)
    assert block is not None and ends(block) == {"west": 1, "east": 6}
    assert block.count is None and block.layout.spinner is None  # block: no fives, no spinner
    assert sorted(block.tiles) == [0, 1, 2, 3, 4] and not block.corrections and not block.unsure
    # In a spinner game the lone double is the spinner; both its sides are covered, so north and
    # south are open and show 2, and it counts nothing: 1 + 6.
    spinner = reconstruct(photo(line_with_double()), PARTNERS)
    assert ends(spinner) == {"west": 1, "east": 6, "north": 2, "south": 2}
    assert spinner.count == 7 and str(spinner.layout.spinner_tile) == "2-2"


def test_bends_at_a_side_and_across_an_end():
    tiles = [
        lay(4, 1, 0, 0, 0),  # the lead
        lay(1, 3, 2, 0, 0),
        lay(3, 6, 2.5, 1.5, 90),  # leaves from the side of the 3 half
        lay(6, 0, 2, 3, 180),  # lies across the end of 3-6
        lay(0, 2, 0, 3, 180),  # and the line goes back west
        lay(5, 4, -2, 0, 0),
    ]
    result = reconstruct(photo(tiles), PARTNERS)
    assert result is not None and len(result.tiles) == 6
    assert ends(result) == {"west": 5, "east": 2} and result.count == 7
    assert sorted(result.bends) == ["0-6", "3-6"]


def spinner_layout():
    """6-4 (lead) then 4-4 crosswise on its east end: the spinner, not the lead, with all arms."""
    return [
        lay(6, 4, 0, 0, 0),
        lay(4, 4, 1.5, 0, 90),
        lay(4, 1, 3, 0, 0),
        lay(4, 2, 1.5, 2, 90),
        lay(4, 3, 1.5, -2, -90),
    ]


@pytest.mark.parametrize("tilt", [0.0, 0.6])
def test_a_spinner_that_is_not_the_lead(tilt):
    result = reconstruct(photo(spinner_layout(), tilt=tilt), PARTNERS)
    assert result is not None and str(result.layout.spinner_tile) == "4-4"
    assert ends(result) == {"west": 6, "east": 1, "north": 2, "south": 3} and result.count == 12
    assert result.to_json()["arms"] == {"west": ["4-6"], "east": ["1-4"], "north": ["2-4"], "south": ["3-4"]}


def test_a_branch_off_a_tile_that_is_not_a_double_is_not_kept():
    tiles = spinner_layout()[:3] + [lay(1, 2, 3.5, 1.5, 90)]  # 1-2 off the side of the 1 half: fine
    tiles.append(lay(4, 5, 0.5, 1.5, 90))  # off the side of the lead's 4 half, which 4-4 already covers
    result = reconstruct(photo(tiles), PARTNERS)
    assert result is not None and len(result.layout) == 4 and 4 not in result.tiles
    assert result.left_out == []  # a half touches one tile: 4-5 never joined the layout
    # Without a spinner nothing branches: the double keeps its two nearest neighbours.
    block = reconstruct(photo(spinner_layout()), BLOCK)
    assert len(block.layout) == 3 and {e["tile"] for e in block.left_out} == {3, 4}
    assert all(e["why"] == "nothing branches in block" for e in block.left_out)


def test_doubles_at_both_ends():
    tiles = [lay(5, 5, -1.5, 0, 90), lay(5, 2, 0, 0, 0), lay(2, 2, 1.5, 0, 90)]
    result = reconstruct(photo(tiles), PARTNERS)
    # whichever double is the spinner, it has one side covered: 10 + 4, north and south closed
    assert ends(result) == {"west": 5, "east": 2} and result.count == 14 and not result.unsure
    assert str(result.layout.spinner_tile) in ("5-5", "2-2")


@pytest.mark.parametrize("gap", [0.15, 0.3])
def test_small_gaps_between_tiles_that_should_touch(gap):
    result = reconstruct(photo(line_with_double(gap)), BLOCK)
    assert result is not None and len(result.tiles) == 5 and ends(result) == {"west": 1, "east": 6}


def test_loose_tiles_and_a_hand_beside_the_layout_are_left_out():
    hand = [lay(6, 6, x, -3.5, 90) for x in (0.0,)] + [lay(0, 4, 1.1, -3.5, 90), lay(1, 3, 2.2, -3.5, 90)]
    loose = [lay(0, 0, 7.5, 1.5, 30), lay(0, 3, -4.3, 0, 0)]  # 0-3's 3 lies near the 1 end: they cannot match
    result = reconstruct(photo(line_with_double() + hand + loose), BLOCK)
    assert result is not None and sorted(result.tiles) == [0, 1, 2, 3, 4]
    assert ends(result) == {"west": 1, "east": 6}
    assert reconstruct(photo(hand + loose), BLOCK) is None  # a hand is no layout


def test_a_misread_half_is_corrected_by_the_half_it_touches():
    misread = line_with_double(sure=({3: 0.55, 2: 0.4}, None))  # 2-6's 2, against the 2-2, read as 3
    tiles = photo(misread)
    assert str(tiles[3].tile) == "3-6"
    result = reconstruct(tiles, PARTNERS)
    assert ends(result) == {"west": 1, "east": 6, "north": 2, "south": 2} and result.count == 7
    assert result.corrections == [{"tile": 3, "read": "3-6", "now": "2-6", "why": "touching halves must match"}]
    assert not result.unsure


def test_two_close_readings_are_reported_unsure():
    # the lead's 3 and 3-2's 3 touch, and each is torn between 3 and 4
    tiles = line_with_double(lead_sure=(None, {3: 0.5, 4: 0.45}))
    tiles[1] = lay(3, 2, 2, 0, 0, ({4: 0.5, 3: 0.45}, None))
    result = reconstruct(photo(tiles), BLOCK)
    assert result.unsure and "could be" in result.unsure[0]


def test_a_tile_appears_once():
    # the west tile 1-5 read as 3-5, which is the lead: its open 1 was second best
    result = reconstruct(photo(line_with_double(west_sure=({3: 0.5, 1: 0.45}, None))), BLOCK)
    assert ends(result) == {"west": 1, "east": 6}
    assert result.corrections == [{"tile": 4, "read": "3-5", "now": "1-5", "why": "a tile appears once"}]


def test_the_json_keeps_the_issue_shape():
    out = reconstruct(photo(spinner_layout()), PARTNERS).to_json()
    assert json.loads(json.dumps(out)) == out
    assert out["open_ends"] == [
        {"end": e, "value": v} for e, v in (("west", 6), ("east", 1), ("north", 2), ("south", 3))
    ]
    assert out["count"] == 12 and out["spinner"] == "4-4" and out["corrections"] == [] and out["unsure"] == []


def test_an_end_at_the_edge_of_the_photo_is_unsure():
    result = reconstruct(photo(line_with_double()), BLOCK, frame=(560, 800))  # the photo stops past the east end
    assert any("east end lies at the edge" in u for u in result.unsure)


def test_the_reconstruction_of_synthetic_layouts(tmp_path):
    folder = tmp_path / "truth" / "val"
    folder.mkdir(parents=True)
    # Tiles packed in a grid (a grid board's game, not a domino line) are left out: touching
    # tiles whose halves happen to match can read as a line, a limit of the reconstructor.
    for i in range(20):
        truth = make_sample(3, i, 640, 480).truth
        if not truth["params"]["packed"]:
            (folder / f"{i:06d}.json").write_text(json.dumps(truth))
    report = evaluate_layouts(tmp_path, jitter=0.02)
    whole = report["whole"]
    assert whole["photos"] >= 3 and whole["all"] >= 0.9, report
    assert report["no_layout"]["none_found"] == report["no_layout"]["photos"]
