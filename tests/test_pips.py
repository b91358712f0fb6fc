"""The pips' second opinion (`vision.read.pips`): counted by where they lie, whatever the colours."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.read.pips import INNER, PipCount, count, opinion

#: pip centres in a unit half, as `vision.synth.tiles.PIP_LAYOUTS` draws them
PLACES = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(x, y) for y in (0.25, 0.75) for x in (0.22, 0.5, 0.78)],
    # a double-nine set's halves beyond six, laid on the same grid
    7: [(x, y) for y in (0.25, 0.75) for x in (0.22, 0.5, 0.78)] + [(0.5, 0.5)],
    8: [(x, y) for y in (0.25, 0.5, 0.75) for x in (0.25, 0.5, 0.75) if (x, y) != (0.5, 0.5)],
    9: [(x, y) for y in (0.25, 0.5, 0.75) for x in (0.25, 0.5, 0.75)],
    # a double-twelve set's, smaller and off the 3x3 grid
    10: [(x, y) for x in (0.25, 0.75) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.3), (0.5, 0.7)],
    11: [(x, y) for x in (0.25, 0.75) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.25), (0.5, 0.5), (0.5, 0.75)],
    12: [(x, y) for x in (0.22, 0.5, 0.78) for y in (0.2, 0.4, 0.6, 0.8)],
}


def half(
    value: int, body=(200, 228, 238), pip=(20, 20, 20), size: int = 48, seed: int = 0, radius: float = 0.09
) -> np.ndarray:
    """A rectified half: its body, its pips (`radius` a share of its side), a painted divider along
    one side, a little noise."""
    image = np.empty((size, size, 3), np.uint8)
    image[:] = body
    for x, y in PLACES[value]:
        cv2.circle(image, (int(x * size), int(y * size)), int(radius * size), pip, -1, cv2.LINE_AA)
    image[:, size - 2 :] = pip  # the divider, at the half's edge
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("value", range(7))
def test_dark_pips_on_ivory_are_counted(value):
    assert count(half(value)) == value


@pytest.mark.parametrize("value", [7, 8, 9])
def test_a_half_no_double_six_set_has_is_counted_as_what_it_shows(value):
    # a double-nine set's 7, 8 and 9 fill the grid further: counted as such, never as a six or a
    # five, so that they disagree with whatever the classifier (which knows 0 to 6) reads
    assert count(half(value)) == value
    assert count(half(value, body=(28, 28, 30), pip=(235, 235, 235))) == value


@pytest.mark.parametrize("value", [10, 11, 12])
def test_a_double_twelve_half_off_the_grid_is_counted_by_its_round_pips(value):
    assert count(half(value, radius=0.065)) == value


@pytest.mark.parametrize("value", [1, 4, 6])
def test_white_pips_on_a_black_tile_are_counted(value):
    assert count(half(value, body=(28, 28, 30), pip=(235, 235, 235))) == value


@pytest.mark.parametrize("pip", [(40, 200, 230), (200, 140, 30), (40, 40, 200)])
def test_coloured_pips_count_by_colour_not_darkness(pip):
    # a yellow pip on cream is hardly darker than the body, only yellower
    assert count(half(5, body=(185, 222, 240), pip=pip)) == 5


def test_a_blurred_half_says_nothing_rather_than_a_wrong_value():
    blurred = cv2.GaussianBlur(half(5), (0, 0), 6)
    assert count(blurred) in (None, 5)


def test_a_half_too_small_in_the_photo_says_nothing():
    photo = cv2.resize(half(4), (10, 10), interpolation=cv2.INTER_AREA)
    quad = np.asarray([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
    assert opinion(photo, quad, PipCount()) is None
    big = half(4, size=96)
    assert opinion(big, quad * 9.6, PipCount()) == 4


def _tile(first: int, pips: tuple[int | None, int | None]):
    from scorer.tiles import Tile
    from vision.read.reading import HalfReading, TileReading

    def reading(value: int) -> HalfReading:
        return HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))

    return TileReading(
        Tile.of(first, 2), (0.0, 0.0), ((0.0, 0.0),) * 4, (reading(first), reading(2)), 0.995, pixels=120, pips=pips
    )


def test_a_sure_tile_whose_pips_say_another_value_is_asked_not_changed():
    from vision.read.reader import Reader

    reader = Reader()
    # four clear pips that the classifier called five
    four = count(half(4))
    assert four == 4
    doubted = reader.judge(_tile(5, (four, 2)))
    assert doubted.unsure and doubted.tile == _tile(5, (None, None)).tile
    assert doubted.to_json()["pips"] == [4, 2]  # why it is asked about
    assert "pips" not in reader.judge(_tile(5, (5, 2))).to_json()
    assert not reader.judge(_tile(5, (5, 2))).unsure  # they agree
    assert not reader.judge(_tile(5, (None, None))).unsure  # they cannot tell


def test_a_sure_tile_with_a_half_of_more_than_six_pips_is_asked():
    # a double-nine set's 8-2 that the classifier is sure is a 6-2: the pips say 8, so it is asked
    from vision.read.reader import Reader

    reader = Reader()
    asked = reader.judge(_tile(6, (count(half(8)), 2)))
    assert asked.unsure and asked.to_json()["pips"] == [8, 2]


def _table(size: int = 64) -> np.ndarray:
    """A photo of eight plain ivory tiles (`size` px a half, at which the classifier is sure of
    them) lying apart on a green table."""
    from dataclasses import replace

    from vision.synth.tiles import draw_face, random_tile_style

    style = replace(
        random_tile_style(np.random.default_rng(3)),
        face=(205, 228, 238),
        pip=(25, 25, 25),
        coloured=False,
        divider=0.05,
        pin=False,
        radius=0.1,
        pip_size=0.09,
        wear=0.0,
        six_across=False,
        two_flip=False,
        painted_divider=False,
    )
    photo = np.full((960, 1280, 3), (70, 110, 60), np.float32)
    photo += np.random.default_rng(1).normal(0, 4, photo.shape)
    for k, (a, b) in enumerate([(5, 2), (6, 1), (3, 4), (5, 5), (0, 6), (2, 3), (1, 4), (4, 6)]):
        face, alpha = draw_face(a, b, style, size, np.random.default_rng(100 + k))
        x, y = 150 + (k % 4) * 260, 250 + (k // 4) * 300
        region = photo[y : y + size, x : x + 2 * size]
        region[:] = region * (1 - alpha[..., None]) + face * alpha[..., None]
    return np.clip(photo, 0, 255).astype(np.uint8)


def test_a_sure_half_whose_pips_say_another_value_makes_its_tile_asked_in_a_photo():
    """The bundled models read the photo; then the classifier is made sure and wrong on every half
    whose pips are four (their probabilities of 4 and 5 swapped: what a set it never learnt can do
    to it). Painting a pip out does not do it: the classifier then reads the new value, and right.
    Those tiles, sure without the pips' opinion, are asked about with it; the others are not."""
    from vision.read.models import DEFAULT_DETECTOR, DEFAULT_HALVES
    from vision.read.reader import Reader

    if not (DEFAULT_DETECTOR.is_file() and DEFAULT_HALVES.is_file()):
        pytest.skip("the bundled models are not in models/")
    photo = _table()
    reader = Reader()
    assert reader.pips is not None  # on by default
    right = {str(t.tile): t for t in reader.read(photo).tiles}
    assert not any(t.unsure for t in right.values()) and "4-6" in right
    assert right["4-6"].pips == (4, 6) and "pips" not in right["4-6"].to_json()
    probabilities = reader.halves.probabilities

    def five_for_four(crops):
        out = probabilities(crops)
        fours = out.argmax(axis=1) == 4
        out[np.ix_(fours, [4, 5])] = out[np.ix_(fours, [5, 4])]
        return out

    reader.halves.probabilities = five_for_four
    for pips in (None, PipCount()):
        reader.pips = pips
        read = {str(t.tile): t for t in reader.read(photo).tiles}
        assert set(read) == {"2-5", "1-6", "3-5", "5-5", "0-6", "2-3", "1-5", "5-6"}  # the fours misread
        misread = [read[tile] for tile in ("3-5", "1-5", "5-6")]
        if pips is None:  # sure of them without the pips' opinion
            assert not any(t.unsure for t in read.values())
        else:  # asked about where the pips were counted (not changed), the others as sure as before
            assert read["5-6"].pips == (4, 6) and read["5-6"].to_json()["pips"] == [4, 6]
            assert all(t.unsure == t.pips_disagree for t in misread)
            assert all(not read[str(t.tile)].unsure for t in right.values() if "4" not in str(t.tile))


def test_a_sure_tile_with_a_half_read_blank_that_shows_pale_pips_is_asked():
    """Pale coloured pips (a pastel "colour dot" set: light blue, pink) the classifier may read as
    a blank half, sure: the count cannot tell their value, but marks stand out where pips lie, so
    the tile is asked about (never changed). A bare half, one in a shadow falling across it, one
    with a band of glare, and one with a mark too faint to matter keep the tile sure."""
    from scorer.tiles import Tile
    from vision.read.pips import MARKED, marks
    from vision.read.reader import Reader
    from vision.read.reading import HalfReading, TileReading

    reader = Reader()

    def reading(value: int) -> HalfReading:
        return HalfReading(value, (0.0, 0.0), ((0.0, 0.0),) * 4, tuple(float(v == value) for v in range(7)))

    def tile(first: int) -> TileReading:
        return TileReading(
            Tile.of(first, 4), (0.0, 0.0), ((0.0, 0.0),) * 4, (reading(first), reading(4)), 0.995, pixels=80
        )

    def crop(inner: np.ndarray) -> np.ndarray:  # the classifier's crop: the half with its margin
        c = np.full((32, 32, 3), inner[0, 0], np.uint8)
        c[INNER, INNER] = cv2.resize(inner, (c[INNER, INNER].shape[1], c[INNER, INNER].shape[0]))
        return c

    ivory = (200, 228, 238)

    def bare(seed: int = 0) -> np.ndarray:  # a half's face, no divider, a little noise
        noise = np.random.default_rng(seed).normal(0, 3, (48, 48, 3))
        return np.clip(np.full((48, 48, 3), ivory, np.float32) + noise, 0, 255).astype(np.uint8)

    # two pink pips and two light-blue ones, a 4's places with one pip off them: plainly there,
    # in no value's pattern
    pastel = bare(1)
    for (x, y), colour in zip(
        [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.6, 0.6)], [(190, 170, 250), (230, 200, 150)] * 2
    ):
        cv2.circle(pastel, (int(x * 48), int(y * 48)), 4, colour, -1, cv2.LINE_AA)
    shaded = bare(2).astype(np.float32) * np.linspace(0.7, 1.0, 48)[None, :, None]  # a shadow falling across
    glared = bare(5).astype(np.float32)
    glared += (255 - glared) * 0.9 * np.exp(-(((np.arange(48) - 20) / 10.0) ** 2))[:, None, None]  # a band of glare
    faint_marks = bare(3)
    cv2.circle(faint_marks, (24, 24), 4, (185, 215, 228), -1, cv2.LINE_AA)  # hardly any contrast
    blanks = [
        pastel,
        bare(4),
        np.clip(shaded, 0, 255).astype(np.uint8),
        faint_marks,
        np.clip(glared, 0, 255).astype(np.uint8),
    ]
    assert count(pastel) is None  # the count cannot say a value
    assert marks(pastel[None])[0] >= MARKED
    four = half(4, body=ivory)
    tiles = [tile(0) for _ in blanks]
    crops = [c for b in blanks for c in (crop(b), crop(four))]
    quads = [(np.float32([[0, 0], [40, 0], [40, 40], [0, 40]]), np.float32([[40, 0], [80, 0], [80, 40], [40, 40]]))] * 5
    marked = reader.count_pips(tiles, crops, quads)
    assert [t.blank_marked for t in marked] == [True, False, False, False, False]
    judged = [reader.judge(t) for t in marked]
    assert [t.unsure for t in judged] == [True, False, False, False, False]
    assert judged[0].tile == Tile.of(0, 4) and judged[0].to_json()["blank_marked"] is True
    assert "blank_marked" not in judged[1].to_json()
    off = Reader(blank_marks=False)
    assert not any(off.judge(t).unsure for t in off.count_pips(tiles, crops, quads))
