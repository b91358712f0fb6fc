"""The training recipe end to end on a tiny set, so that it never breaks: render, train both
models for an epoch, export, and read a photo with what was exported. (Accuracy is `spinner eval`'s
business, not this test's: a one-epoch model reads badly, but it must read.)"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from spinner.cli import main

pytestmark = pytest.mark.slow


def test_render_train_export_read(tmp_path):
    runner = CliRunner()
    data = tmp_path / "data"
    result = runner.invoke(
        main,
        [
            "dataset",
            "synth",
            "--out",
            str(data),
            "--images",
            "8",
            "--seed",
            "3",
            "--size",
            "320x240",
            "--val-fraction",
            "0.25",
            "--quiet",
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output

    halves = tmp_path / "halves.onnx"
    result = runner.invoke(
        main, ["train", "halves", "--data", str(data), "--out", str(halves), "--epochs", "1", "--copies", "1"]
    )
    assert result.exit_code == 0, result.output
    assert halves.is_file()

    runs = tmp_path / "runs"
    result = runner.invoke(
        main,
        [
            "train",
            "detector",
            "--data",
            str(data),
            "--project",
            str(runs),
            "--epochs",
            "1",
            "--imgsz",
            "160",
            "--batch",
            "4",
            "--device",
            "cpu",
        ],
    )
    assert result.exit_code == 0, result.output
    weights = runs / "detector" / "weights" / "last.pt"
    assert weights.is_file()
    detector = tmp_path / "detector.onnx"
    result = runner.invoke(main, ["export", "--weights", str(weights), "--out", str(detector), "--imgsz", "160"])
    assert result.exit_code == 0, result.output

    photo = next((data / "images" / "val").glob("*.jpg"))
    result = runner.invoke(
        main,
        ["read", str(photo), "--json", "--detector", str(detector), "--halves", str(halves), "--confidence", "0.0001"],
    )
    assert result.exit_code == 0, result.output
    reading = json.loads(result.output.splitlines()[-1])
    assert reading["image"] == str(photo) and (reading["layout"] is None or "open_ends" in reading["layout"])
    for tile in reading["tiles"]:
        assert len(tile["corners"]) == 4 and len(tile["halves"]) == 2
        assert {h["value"] for h in tile["halves"]} <= set(range(7))

    # The smaller detector: cut from the trained one, trained on as it is, exported, read with.
    pruned = tmp_path / "pruned.pt"
    result = runner.invoke(
        main, ["train", "prune", "--weights", str(weights), "--out", str(pruned), "--ratio", "0.5", "--imgsz", "160"]
    )
    assert result.exit_code == 0, result.output
    cut = json.loads(result.output.splitlines()[-1])
    assert cut["gmacs_after"] < 0.6 * cut["gmacs_before"]
    result = runner.invoke(
        main,
        [
            "train",
            "detector",
            "--data",
            str(data),
            "--project",
            str(runs),
            "--name",
            "pruned",
            "--epochs",
            "1",
            "--imgsz",
            "160",
            "--batch",
            "4",
            "--device",
            "cpu",
            "--model",
            str(pruned),
            # going on with more classes than the network has: its class branches are widened
            "--ignored",
            # the backbone kept as it is, at a learning rate that would move it by far more
            # than a half-precision checkpoint's rounding
            "--freeze",
            "10",
            "--lr",
            "0.01",
        ],
    )
    assert result.exit_code == 0, result.output
    trained = runs / "pruned" / "weights" / "last.pt"
    import yaml
    from ultralytics import YOLO

    used = yaml.safe_load((runs / "pruned" / "args.yaml").read_text())
    # going on, the biases' warm-up starts at zero, not at ultralytics' 0.1 for a new network
    assert (used["freeze"], used["warmup_bias_lr"]) == (10, 0.0)
    before, after = (YOLO(str(w)).model.state_dict() for w in (pruned, trained))
    first = "model.0.conv.weight"
    assert after[first].float().allclose(before[first].float(), atol=1e-3, rtol=1e-2)
    small = tmp_path / "small.onnx"
    result = runner.invoke(
        main, ["export", "--weights", str(trained), "--out", str(small), "--imgsz", "192", "--enlarge", "1.5"]
    )
    assert result.exit_code == 0, result.output
    # it trained as the pruned network (ultralytics' own trainer would rebuild the full one)
    assert small.stat().st_size < 0.6 * detector.stat().st_size
    # the reading size and the enlargement are kept in the model: a 128 x 96 photo is read at 192 x 160
    from vision.read.detector import READ_ENLARGE, ObbModel

    kept = ObbModel(small)
    assert kept.names == {0: "tile", 1: "face_down", 2: "edge", 3: "printed"}
    assert (kept.side, kept.enlarge, kept.input_size(96, 128)) == (192, 1.5, (160, 192))
    assert ObbModel(detector).enlarge == READ_ENLARGE  # export's default
    result = runner.invoke(
        main,
        ["read", str(photo), "--json", "--detector", str(small), "--halves", str(halves), "--confidence", "0.0001"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[-1])["image"] == str(photo)
