"""One set, one look (`vision.read.set_look`): a sure tile unlike every other sure tile is asked about."""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.set_look import SetLook, alone, looks

IVORY, BLACK, WHITE, BLUE = (200, 230, 240), (40, 40, 40), (245, 245, 245), (170, 90, 40)


def half_crop(body: tuple[int, int, int], pip: tuple[int, int, int], shade: float = 1.0) -> np.ndarray:
    """A 32 px half: its body with four pips, the whole of it `shade` times as light."""
    crop = np.full((32, 32, 3), body, np.float32)
    for y, x in ((10, 10), (22, 22), (10, 22), (22, 10)):
        cv2.circle(crop, (x, y), 3, pip, -1)
    return np.clip(crop * shade, 0, 255).astype(np.uint8)


def tile_looks(*halves: np.ndarray) -> np.ndarray:
    return looks(np.stack(halves), np.stack(halves))


def test_a_picture_in_its_printers_colours_is_alone_among_the_sets_tiles():
    """A white picture with black pips among black tiles (by lightness), a blue one among ivory
    tiles (by chroma): alone. An ivory tile in a shadow keeps its company."""
    black_set = [half_crop(BLACK, WHITE) for _ in range(4)] + [half_crop(WHITE, BLACK)]
    assert alone(tile_looks(*black_set), SetLook()).tolist() == [False] * 4 + [True]
    ivory_set = [half_crop(IVORY, BLACK) for _ in range(3)] + [half_crop(IVORY, BLACK, 0.6), half_crop(BLUE, WHITE)]
    assert alone(tile_looks(*ivory_set), SetLook()).tolist() == [False] * 4 + [True]


def test_two_sets_on_one_table_each_have_company_and_a_few_tiles_say_nothing():
    two_sets = [half_crop(IVORY, BLACK) for _ in range(3)] + [half_crop(BLUE, WHITE) for _ in range(2)]
    assert not alone(tile_looks(*two_sets), SetLook()).any()
    few = [half_crop(IVORY, BLACK) for _ in range(2)] + [half_crop(BLUE, WHITE)]
    assert not alone(tile_looks(*few), SetLook()).any()  # under `least`: the set's look not known
    assert alone(tile_looks(*few), SetLook(least=3)).tolist() == [False, False, True]


def test_the_reader_asks_about_a_sure_tile_unlike_the_set_and_never_changes_it():
    from scorer.tiles import Tile
    from vision.read.reader import Reader
    from vision.read.reading import HalfReading, TileReading

    def half(value: int) -> HalfReading:
        return HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))

    def tile(a: int, b: int, confidence: float = 0.995) -> TileReading:
        return TileReading(Tile.of(a, b), (0.0, 0.0), ((0.0, 0.0),) * 4, (half(a), half(b)), confidence, pixels=100)

    tiles = [tile(4, 4), tile(4, 4), tile(4, 4), tile(4, 4), tile(4, 4), tile(4, 4, confidence=0.2)]
    bodies = [BLACK, BLACK, BLACK, BLACK, WHITE, WHITE]
    crops = [half_crop(body, WHITE if body == BLACK else BLACK) for body in bodies for _ in range(2)]
    reader = Reader()
    marked = reader.mark_unlike_set(tiles, crops)
    # the unsure picture is not evidence: the sure one is alone with the set's four tiles
    assert [t.unlike_set for t in marked] == [False, False, False, False, True, False]
    judged = [reader.judge(t) for t in marked]
    assert [t.unsure for t in judged[:5]] == [False, False, False, False, True]
    assert judged[4].tile == Tile.of(4, 4) and judged[4].to_json()["unlike_set"] is True
    assert "unlike_set" not in judged[0].to_json()
