"""The detector's training folder: photos linked from a synthetic set, tile labels from its truth."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.train.detector import prepare


def _fake_set(root: Path, photos: dict[str, bytes], corner: float) -> Path:
    """A synthetic set's layout with one labelled tile per photo at `corner` (fractions of 100 px)."""
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "truth" / split).mkdir(parents=True, exist_ok=True)
        for name, data in photos.items():
            (root / "images" / split / f"{name}.jpg").write_bytes(data)
            x = corner * 100
            tile = {"labelled": True, "corners": [[x, x], [x + 20, x], [x + 20, x + 10], [x, x + 10]]}
            truth = {"image": {"width": 100, "height": 100}, "tiles": [tile]}
            (root / "truth" / split / f"{name}.json").write_text(json.dumps(truth))
    return root


def test_labels_come_from_the_truth_beside_the_linked_photo(tmp_path):
    synth = _fake_set(tmp_path / "synth-a", {"000000": b"first"}, 0.1)
    data = prepare(synth, tmp_path / "runs")
    assert "0: tile" in data.read_text()
    label = (tmp_path / "runs" / "synth-a" / "labels" / "train" / "000000.txt").read_text().split()
    assert label[0] == "0" and [float(v) for v in label[1:3]] == [0.1, 0.1]


def test_a_set_rendered_again_in_the_same_folder_is_linked_afresh(tmp_path):
    synth = tmp_path / "synth-a"
    _fake_set(synth, {"000000": b"old photo", "000001": b"old photo 2"}, 0.1)
    prepare(synth, tmp_path / "runs")
    # rendered again: new files under the old names (new inodes), one photo fewer
    for split in ("train", "val"):
        for folder in ("images", "truth"):
            for path in (synth / folder / split).iterdir():
                path.unlink()
    _fake_set(synth, {"000000": b"new photo"}, 0.3)
    prepare(synth, tmp_path / "runs")
    linked = tmp_path / "runs" / "synth-a" / "images" / "train"
    # the photo and its label are the new render's, together
    assert (linked / "000000.jpg").read_bytes() == b"new photo"
    label = (tmp_path / "runs" / "synth-a" / "labels" / "train" / "000000.txt").read_text().split()
    assert [float(v) for v in label[1:3]] == [0.3, 0.3]
    assert sorted(p.name for p in linked.iterdir()) == ["000000.jpg"]


def test_with_ignored_backs_tiles_on_edge_and_printed_pictures_get_classes_of_their_own(tmp_path):
    synth = _fake_set(tmp_path / "synth-a", {"000000": b"photo"}, 0.1)
    for split in ("train", "val"):
        path = synth / "truth" / split / "000000.json"
        truth = json.loads(path.read_text())
        quad = [[50, 50], [70, 50], [70, 60], [50, 60]]
        truth["face_down"] = [
            {"corners": quad, "visible": 1.0},
            {"corners": quad, "visible": 0.3},
        ]  # the second mostly hidden
        truth["on_edge"] = [{"corners": quad, "outline": quad, "visible": 0.9}]
        truth["printed"] = [
            {"corners": quad, "value": "1-2"},
            {"corners": [[90, 90], [120, 90], [120, 99], [90, 99]], "value": "3-4"},
        ]
        path.write_text(json.dumps(truth))
    data = prepare(synth, tmp_path / "runs", ignored=True)
    assert "1: face_down" in data.read_text() and "3: printed" in data.read_text()
    classes = [
        line.split()[0]
        for line in (tmp_path / "runs" / "synth-a" / "labels" / "train" / "000000.txt").read_text().splitlines()
    ]
    assert classes == ["0", "1", "2", "3"]  # the hidden back and the picture leaving the photo have none
    plain = prepare(synth, tmp_path / "plain")
    assert "1:" not in plain.read_text()


def test_a_tile_on_edge_is_labelled_by_all_of_it_that_is_seen_not_its_top_strip():
    from vision.train.detector import edge_box, ignored_labels

    top = [[50, 50], [90, 50], [90, 54], [50, 54]]  # the strip along its top
    outline = [[50, 50], [90, 50], [90, 54], [90, 74], [50, 74], [50, 54]]  # the face below it too
    box = np.asarray(edge_box({"corners": top, "outline": outline}))
    assert box[:, 0].min() == 50 and box[:, 0].max() == 90
    assert box[:, 1].min() == 50 and box[:, 1].max() == 74
    assert edge_box({"corners": top}) == top  # truth from before outlines were written
    truth = {"image": {"width": 200, "height": 100}, "on_edge": [{"corners": top, "outline": outline, "visible": 0.9}]}
    ((cls, corners),) = ignored_labels(truth)
    assert cls == 2 and np.asarray(corners)[:, 1].max() == 74
