"""The styles benchmark's photos (`vision.synth.styles`) and their truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer.tiles import Tile
from vision.read.photo import decode
from vision.read.reading import HalfReading, Reading, TileReading, scaled
from vision.synth.styles import (
    BY_NAME,
    CONDITIONS,
    exif_orientation,
    make_style_sample,
    seed_of,
    squash_truth,
    turned_for,
)


def test_every_condition_has_its_own_seed_none_a_training_or_held_out_one():
    seeds = [seed_of(c) for c in CONDITIONS]
    assert len(set(seeds)) == len(CONDITIONS)
    assert not set(seeds) & {*range(0, 12), 9001, 4242}


def test_a_squashed_truth_moves_every_point_with_the_photo():
    truth = {
        "image": {"width": 100, "height": 50, "file": "a.jpg"},
        "tiles": [
            {
                "value": "1-2",
                "corners": [[10, 10], [30, 10], [30, 20], [10, 20]],
                "center": [20, 15],
                "halves": [{"value": 1, "corners": [[10, 10], [20, 10], [20, 20], [10, 20]], "center": [15, 15]}],
            }
        ],
        "face_down": [],
        "on_edge": [{"corners": [[0, 0], [2, 0], [2, 2], [0, 2]], "outline": [[0, 0], [4, 4]]}],
        "printed": [],
    }
    out = squash_truth(truth, 0.5, 1.0, 50, 50)
    assert out["tiles"][0]["center"] == [10, 15] and out["tiles"][0]["halves"][0]["center"] == [7.5, 15]
    assert out["on_edge"][0]["outline"] == [[0, 0], [2, 4]] and out["image"]["width"] == 50
    assert truth["tiles"][0]["center"] == [20, 15]  # the original untouched


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_a_phone_photo_stored_turned_comes_back_upright(orientation):
    upright = np.full((60, 100, 3), 50, np.uint8)
    upright[:15, :25] = 255
    stored = turned_for(upright, orientation)
    data = cv2.imencode(".jpg", stored)[1].tobytes()
    back = decode(data[:2] + exif_orientation(orientation) + data[2:]).image
    assert back.shape == upright.shape and back[:15, :25].mean() > 200


def test_a_squashed_sample_and_its_truth_agree():
    sample = make_style_sample(BY_NAME["squashed"], 0)
    image = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert (image.shape[1], image.shape[0]) == (sample.truth["image"]["width"], sample.truth["image"]["height"])
    assert image.shape[:2] != (960, 1280)
    for tile in sample.truth["tiles"]:
        if tile["labelled"]:
            assert all(0 <= x <= image.shape[1] + 1 and 0 <= y <= image.shape[0] + 1 for x, y in tile["corners"])


def test_a_reading_of_a_reduced_photo_moves_back_to_the_photos_pixels():
    half = HalfReading(1, (10.0, 5.0), ((0.0, 0.0), (10.0, 0.0)), (0.0, 1.0) + (0.0,) * 5)
    tile = TileReading(Tile.of(1, 1), (10.0, 5.0), ((0.0, 0.0), (20.0, 10.0)), (half, half), 0.9, unsure=True)
    reading = scaled(Reading("a", 100, 50, (tile,)), 2.0, 200, 100)
    moved = reading.tiles[0]
    assert (reading.width, reading.height) == (200, 100) and moved.center == (20.0, 10.0)
    assert moved.corners[1] == (40.0, 20.0) and moved.halves[0].corners[1] == (20.0, 0.0)
    assert moved.unsure and moved.to_json()["unsure"] is True


def test_a_styled_training_set_takes_conditions_but_never_the_benchmarks_seeds(tmp_path):
    import json

    from vision.synth.dataset import generate_dataset
    from vision.synth.styles import TRAINING_CONDITIONS, make_styled_sample

    generate_dataset(tmp_path / "styled", 3, 12, 320, 240, 0.0, workers=1, progress=False, styled=True)
    truths = [json.loads(p.read_text()) for p in sorted((tmp_path / "styled" / "truth" / "train").glob("*.json"))]
    assert len(truths) == 3 and all(t["params"]["styles"] in {c.name for c in TRAINING_CONDITIONS} for t in truths)
    assert all(t["params"]["seed"] == 12 for t in truths)
    with pytest.raises(ValueError, match="never train on it"):
        make_styled_sample(seed_of(BY_NAME["steep"]), 0)


def test_a_small_photo_shows_one_whole_tile_and_nothing_of_the_table_beyond_it(tmp_path):
    import json

    import cv2

    from vision.synth.dataset import generate_dataset
    from vision.synth.styles import SMALL_SCALE, Small, shown_small

    generate_dataset(tmp_path / "small", 4, 16, 640, 480, 0.0, workers=1, progress=False, condition="small-photo")
    for truth_file in sorted((tmp_path / "small" / "truth" / "train").glob("*.json")):
        truth = json.loads(truth_file.read_text())
        assert truth["params"]["styles"] == "small-photo"
        assert len(truth["tiles"]) == 1 and not truth["hands"] and not truth["printed"]
        (x0, y0), (x1, y1) = np.min(truth["tiles"][0]["corners"], 0), np.max(truth["tiles"][0]["corners"], 0)
        assert 0 <= x0 and x1 <= 640 and 0 <= y0 and y1 <= 480  # whole, inside the photo
        image = cv2.imread(str(tmp_path / "small" / "images" / "train" / truth_file.with_suffix(".jpg").name))
        assert image.shape == (480, 640, 3)
    # outside the small photo: the letterbox grey, or the photo's own edge pixels drawn on
    picture = np.random.default_rng(0).integers(0, 255, (96, 128, 3)).astype(np.uint8)
    small = Small(40, 20, 48, 40, grey=True, jpeg_quality=90, blur=0.0)
    grey = shown_small(picture, small)
    assert (grey[:20] == 114).all() and (grey[:, :40] == 114).all() and grey.shape == picture.shape
    drawn = shown_small(picture, replace_grey(small))
    assert (drawn[0, 40:88] == drawn[20, 40:88]).all() and (drawn[20:60, 0] == drawn[20:60, 40]).all()
    assert SMALL_SCALE == 4  # the detector learns photos halved and reads a small one enlarged twice


def replace_grey(small):
    from dataclasses import replace

    return replace(small, grey=False)


def test_a_training_condition_that_does_not_exist_is_named_in_the_refusal(tmp_path):
    from click.testing import CliRunner

    from spinner.cli import main

    result = CliRunner().invoke(
        main, ["dataset", "synth", "--out", str(tmp_path / "x"), "--images", "1", "--condition", "tiny"]
    )
    assert result.exit_code == 2 and "no training condition 'tiny'" in result.output and "small-photo" in result.output


def test_a_printed_board_in_a_dim_room_is_drawn_by_name_only():
    from vision.synth.styles import TRAINING_CONDITIONS, make_styled_sample

    assert "dim-printed" not in {c.name for c in TRAINING_CONDITIONS}  # `--styled` draws as before
    board = make_styled_sample(778, 1, 320, 240, condition="printed")
    dark = make_styled_sample(778, 1, 320, 240, condition="dim-printed")
    assert dark.truth["params"]["styles"] == "dim-printed"
    assert dark.truth["printed"] and len(dark.truth["printed"]) == len(board.truth["printed"])
    grey = [cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE) for s in (board, dark)]
    assert grey[1].mean() < 0.6 * grey[0].mean()


def test_a_dim_room_is_the_same_table_darker_and_noisier():
    # one scene (the same seed and index), lit and dim: a third of the light or so, and more noise
    lit = make_style_sample(BY_NAME["plain"], 3, seed=777, size=(320, 240))
    dim = make_style_sample(BY_NAME["dim"], 3, seed=777, size=(320, 240))
    assert [t["value"] for t in lit.truth["tiles"]] == [t["value"] for t in dim.truth["tiles"]]
    lit_image = cv2.imdecode(np.frombuffer(lit.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
    dim_image = cv2.imdecode(np.frombuffer(dim.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
    assert dim_image.mean() < 0.6 * lit_image.mean()

    def noise(image: np.ndarray) -> float:  # what a 3x3 high-pass leaves on the flattest half
        response = np.abs(cv2.filter2D(image, -1, np.asarray([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)))
        return float(np.sort(response[1:-1, 1:-1].ravel())[: response.size // 2].mean())

    assert noise(dim_image) > noise(lit_image)


def test_a_players_own_hand_shows_its_faces_to_the_camera_and_is_labelled_on_edge():
    from vision.synth.dataset import image_rng
    from vision.synth.scene import TRAINING, build_scene
    from vision.synth.styles import TRAINING_CONDITIONS, make_styled_sample, own_hand, standing

    assert "own-hand" not in {c.name for c in TRAINING_CONDITIONS}  # `--styled` draws as before

    def faces_to_camera(change) -> list[bool]:  # each standing tile the condition adds
        looks = []
        for index in range(6):
            scene = build_scene(image_rng(779, index), 640, 480, TRAINING)
            laid = {id(b) for b in scene.bodies}
            shot = change(scene, np.random.default_rng([779, index, 1]))
            camera = shot.scene.camera.centre[:2]
            for body in shot.scene.bodies:
                if body.kind == "edge" and id(body) not in laid:
                    face = np.array([-np.sin(body.pose.angle), np.cos(body.pose.angle)])  # the face side
                    looks.append(float(np.dot(camera - [body.pose.x, body.pose.y], face)) > 0)
        return looks

    own, others = faces_to_camera(own_hand), faces_to_camera(standing)
    assert own and all(own)
    assert others and not any(others)
    sample = make_styled_sample(779, 2, 640, 480, condition="own-hand")
    assert sample.truth["params"]["styles"] == "own-hand" and sample.truth["on_edge"]


def test_new_sets_are_coloured_as_no_training_photo_is():
    # the measuring condition stands for sets the reader never learnt: a body or pips the
    # training palettes draw would make it measure what was learnt
    from vision.synth.dataset import image_rng
    from vision.synth.scene import TRAINING, build_scene
    from vision.synth.styles import PIP_SCHEMES, TRAINING_CONDITIONS, new_sets
    from vision.synth.tiles import _FACES, PIP_COLOURS

    assert "new-sets" not in {c.name for c in TRAINING_CONDITIONS}
    learnt_faces = {face for face, _ in _FACES.values()}
    learnt_schemes = {*(scheme[1:] for scheme in PIP_SCHEMES.values()), tuple(PIP_COLOURS[v] for v in range(1, 7))}
    kinds = set()
    for index in range(40):
        scene = build_scene(image_rng(781, index), 640, 480, TRAINING)
        style = new_sets(scene, np.random.default_rng([781, index, 1])).scene.tile_style
        kinds.add(style.name)
        if style.coloured:
            assert style.pip_colours[1:] not in learnt_schemes
            assert len(set(style.pip_colours[1:])) == 6  # each value its own colour
        else:
            assert style.face not in learnt_faces
    assert len(kinds) >= 6


def test_mixed_photos_take_two_conditions_of_two_kinds_and_say_which():
    """A table is not one condition: each `mixed` photo takes one condition of each of two kinds
    (`MIXABLE`), applied in the kinds' order, and its truth names them; never a training draw."""
    from vision.synth.styles import MIXABLE, TRAINING_CONDITIONS, make_styled_sample

    assert "mixed" not in {c.name for c in TRAINING_CONDITIONS}
    kind_of = {name: k for k, names in enumerate(MIXABLE) for name in names}
    seen, applied = set(), 0
    for index in range(16):
        params = make_styled_sample(783, index, 640, 480, condition="mixed").truth["params"]
        first, second = params["mixed"]
        assert params["styles"] == "mixed" and kind_of[first] < kind_of[second]
        seen.update((first, second))
        # each condition took: the table it names, the set's colours it names
        for name in (first, second):
            if name.endswith("-table"):
                assert params["table"] == name.removesuffix("-table")
                applied += 1
            if name == "dark-tiles":
                assert params["tile_style"] in ("black", "blue", "red", "green")
                applied += 1
    assert len(seen) >= 8 and applied >= 2


def test_the_issue_set_is_its_coloured_pips_on_grey_stone_squashed():
    """The issue's real photos the reader once missed: light blue 1, green 2, red 3, tan 4, dark
    blue 5 on a grey table, the tiles about 1.5:1. Measuring only."""
    from vision.synth.styles import TRAINING_CONDITIONS, make_styled_sample

    assert "issue-set" not in {c.name for c in TRAINING_CONDITIONS}
    for index in range(3):
        truth = make_styled_sample(785, index, 640, 480, condition="issue-set").truth
        assert truth["params"]["tile_style"] == "tan-four-coloured" and truth["params"]["table"] == "stone"
        width, height = truth["image"]["width"], truth["image"]["height"]
        assert min(width / 640, height / 480) <= 0.78  # squashed along one axis
