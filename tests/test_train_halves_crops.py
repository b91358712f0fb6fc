"""The half classifier's training crops: cut as the reader cuts them, labelled with the half they show."""

from __future__ import annotations

import numpy as np

from vision.synth.dataset import make_sample
from vision.train import halves as train_halves
from vision.train.halves import _as_detected


def _truth():
    import json

    sample = make_sample(77, 0, 640, 480)
    truth = sample.truth if isinstance(sample.truth, dict) else json.loads(sample.truth)
    return [t for t in truth["tiles"] if all(h.get("labelled") for h in t["halves"])]


def test_an_exact_box_splits_into_the_true_halves_with_their_values(monkeypatch):
    monkeypatch.setattr(train_halves, "BOX_ERROR", {"along": 0.0, "across": 0.0, "length": 0.0, "turn": 0.0})
    rng = np.random.default_rng(0)
    tiles = _truth()
    assert tiles
    for tile in tiles:
        cut = _as_detected(tile, tile["halves"], rng)
        assert len(cut) == 2
        for quad, half in cut:
            # the cut half lies on the true half it is labelled with: within a quarter of its side of
            # the true centre (the other half's centre is a whole side away). A rectangle fitted to a
            # tile seen in steep perspective puts its halves' centres a little off the true ones
            # (4.3 px on a 30 px half in sample 77/0 of generator spinner-synth/2).
            assert np.linalg.norm(quad.mean(axis=0) - np.asarray(half["center"])) < 0.25 * np.linalg.norm(
                quad[1] - quad[0]
            )
        assert {id(h) for _, h in cut} == {id(h) for h in tile["halves"]}


def test_a_missed_box_is_labelled_with_the_half_it_mostly_shows():
    rng = np.random.default_rng(1)
    for tile in _truth():
        for _ in range(20):
            for quad, half in _as_detected(tile, tile["halves"], rng):
                centres = np.asarray([h["center"] for h in tile["halves"]], dtype=np.float32)
                nearest = int(np.linalg.norm(centres - quad.mean(axis=0), axis=1).argmin())
                assert half is tile["halves"][nearest]


class _BoxesAt:
    """A detector that finds the given tiles' boxes, plus one box on no tile."""

    def __init__(self, tiles, stray):
        import cv2

        from vision.read.detector import ObbDetection

        self.boxes = []
        for tile in tiles:
            (cx, cy), size, degrees = cv2.minAreaRect(np.asarray(tile["corners"], dtype=np.float32))
            self.boxes.append(ObbDetection(0, 0.9, (cx, cy), size, float(np.radians(degrees)), (0.9,)))
        self.boxes.append(ObbDetection(0, 0.9, stray, (60.0, 30.0), 0.0, (0.9,)))
        self.calls = []

    def predict(self, image, conf=0.25, iou=0.5, max_det=300, voting=None):
        self.calls.append((conf, iou, voting))
        return self.boxes


def test_the_detectors_own_boxes_are_cut_with_the_values_of_the_halves_they_show():
    from vision.read.reader import BOX_CONFIDENCE, NMS_OVERLAP
    from vision.train.halves import detected_cuts

    tiles = _truth()
    truth = {"tiles": tiles}
    detector = _BoxesAt(tiles, stray=(-500.0, -500.0))
    cuts = detected_cuts(np.zeros((480, 640, 3), np.uint8), truth, detector)
    assert detector.calls[0][:2] == (BOX_CONFIDENCE, NMS_OVERLAP)  # boxes found as the reader finds them
    assert len(cuts) == 2 * len(tiles)  # both halves of every tile's box; nothing for the stray box
    for quad, half in cuts:
        tile = next(t for t in tiles if any(h is half for h in t["halves"]))
        centres = np.asarray([h["center"] for h in tile["halves"]], dtype=np.float32)
        assert half is tile["halves"][int(np.linalg.norm(centres - quad.mean(axis=0), axis=1).argmin())]


def test_crops_of_several_datasets_are_each_datasets_crops_in_turn(tmp_path):
    from vision.synth.dataset import write_sample

    folders = []
    for seed in (5, 6):
        folder = tmp_path / f"set{seed}"
        for kind in ("images", "labels", "truth"):
            (folder / kind / "train").mkdir(parents=True)
        write_sample(folder, "train", make_sample(seed, 0, 320, 240, name="000000"))
        folders.append(folder)
    one = [train_halves.collect(folder, "train", 2, 10 + 7 * i) for i, folder in enumerate(folders)]
    both = train_halves.collect_all(folders, "train", 2, 10)
    assert len(one[0].values) and len(one[1].values)
    assert np.array_equal(both.values, np.concatenate([one[0].values, one[1].values]))
    assert np.array_equal(both.images, np.concatenate([one[0].images, one[1].images]))
