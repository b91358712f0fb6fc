"""`spinner read` with the bundled models: the JSON of the reader issue, and bad photos named
while the others are still read. (How well it reads is `spinner eval`'s business.)"""

from __future__ import annotations

import json

import pytest

from spinner.cli import main
from vision.read.reader import DEFAULT_DETECTOR, DEFAULT_HALVES
from vision.synth.dataset import make_sample

pytestmark = pytest.mark.skipif(
    not (DEFAULT_DETECTOR.is_file() and DEFAULT_HALVES.is_file()), reason="the bundled models are not in models/"
)


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "table.jpg"
    path.write_bytes(make_sample(11, 0, 1280, 960).jpeg)
    return path


def test_read_prints_one_json_object_per_photo(cli_runner, photo, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a photo")
    annotated = tmp_path / "annotated"
    result = cli_runner.invoke(main, ["read", str(photo), str(bad), str(photo), "--json", "--annotate", str(annotated)])
    assert result.exit_code == 1  # one photo could not be read...
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(photo), str(bad), str(photo)]  # ...and the others were
    assert "is not a photo this reads" in lines[1]["error"] and "notes.txt" in result.stderr
    reading = lines[0]
    assert reading == lines[2]
    layout = reading["layout"]  # the photo holds a layout; what the bundled models make of it varies
    if layout is not None:
        assert {"open_ends", "count", "spinner", "corrections", "unsure"} <= set(layout)
        assert all(e["end"] in ("west", "east", "north", "south") and 0 <= e["value"] <= 6 for e in layout["open_ends"])
        assert all(0 <= i < len(reading["tiles"]) for i in layout["tiles"])
    for tile in reading["tiles"]:
        a, b = (int(v) for v in tile["tile"].split("-"))
        assert sorted(h["value"] for h in tile["halves"]) == sorted([a, b])
        assert len(tile["corners"]) == 4 and 0 < tile["confidence"] <= 1
        x, y = tile["center"]
        assert 0 <= x <= 1280 and 0 <= y <= 960
    assert (annotated / "table.jpg").is_file()


def test_read_without_json_prints_a_summary(cli_runner, photo):
    result = cli_runner.invoke(main, ["read", str(photo)])
    assert result.exit_code == 0 and result.output.startswith(f"{photo}: ") and " tiles: " in result.output
    assert "\n  layout: " in result.output


def test_the_summary_marks_each_unsure_tile_to_be_checked(cli_runner, photo):
    result = cli_runner.invoke(main, ["read", str(photo), "--json"])
    unsure = [t["tile"] for t in json.loads(result.stdout)["tiles"] if t["unsure"]]
    summary = cli_runner.invoke(main, ["read", str(photo)]).output.splitlines()[0]
    listed = summary.split(" tiles: ", 1)[1]
    assert sum(1 for t in listed.split(", ") if t.split(" ")[0].endswith("?")) == len(unsure)
    assert (f"({len(unsure)} unsure, marked ?: check them)" in summary) == bool(unsure)


def test_a_smaller_reading_size_can_be_chosen_for_speed(cli_runner, photo):
    from vision.read.reader import Reader

    assert Reader(side=640).detector.input_size(960, 1280) == (480, 640)
    result = cli_runner.invoke(main, ["read", str(photo), "--json", "--size", "640"])
    assert result.exit_code == 0 and json.loads(result.stdout)["tiles"]
    bad = cli_runner.invoke(main, ["read", str(photo), "--size", "16"])
    assert bad.exit_code == 2 and "--size" in bad.output


def test_a_photo_held_upright_is_read_as_large_as_one_held_sideways():
    import cv2
    import numpy as np

    from vision.read.reader import Reader

    reader = Reader()
    sideways = cv2.imdecode(np.frombuffer(make_sample(12, 0, 1280, 960).jpeg, np.uint8), cv2.IMREAD_COLOR)
    upright = cv2.rotate(sideways, cv2.ROTATE_90_CLOCKWISE)  # (x, y) -> (959 - y, x)
    # the bundled detector takes each photo's own shape, its long side 896: both shrunk alike
    assert reader.detector.input_size(*sideways.shape[:2]) == (672, 896)
    assert reader.detector.input_size(*upright.shape[:2]) == (896, 672)
    first, second = reader.read(sideways), reader.read(upright)
    assert first.tiles, "nothing read on the synthetic photo: nothing to compare"

    def found_again(tile) -> bool:
        x, y = tile.center
        return any(
            other.tile == tile.tile and np.hypot(other.center[0] - (959 - y), other.center[1] - x) < 10
            for other in second.tiles
        )

    assert sum(found_again(tile) for tile in first.tiles) >= 0.75 * len(first.tiles)


def test_eval_with_the_truths_boxes_reads_every_labelled_tile(cli_runner, tmp_path):
    """`spinner eval --true-boxes` stands the truth's boxes in for the detector: it must take the
    reader's call as the detector does (it broke when box voting was added), and find every tile."""
    from vision.synth.dataset import write_sample

    dataset = tmp_path / "synth"
    for folder in ("images", "labels", "truth"):
        (dataset / folder / "val").mkdir(parents=True)
    for index in range(2):
        write_sample(dataset, "val", make_sample(11, index, 1280, 960))
    result = cli_runner.invoke(main, ["eval", "--synthetic", str(dataset), "--true-boxes"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)["synthetic"]
    assert figures["boxes"] == "truth" and figures["photos"] == 2
    assert figures["tile_recall"] == 1.0 and figures["tiles_true"] > 0


def test_a_small_photo_is_enlarged_as_far_as_allowed_and_its_tiles_are_placed_in_its_own_pixels(cli_runner, photo):
    """The bundled detector enlarges a small photo (READ_ENLARGE, kept in the model); a reader
    may enlarge less, or not at all, and the tiles still come back in the photo's own pixels."""
    import cv2
    import numpy as np

    from vision.read.detector import READ_ENLARGE
    from vision.read.reader import Reader, load_photo

    full = load_photo(photo)
    small = cv2.resize(full, (640, 480), interpolation=cv2.INTER_AREA)
    enlarged = Reader(enlarge=1.25)
    assert enlarged.detector.input_size(480, 640) == (608, 800)  # 1.25 times: the bound, not the reading size (896)
    assert Reader().detector.input_size(480, 640) == (672, 896)  # the bundled bound, 2: up to the reading size
    assert Reader().detector.enlarge == READ_ENLARGE  # the bundled detector's own, from its metadata
    assert Reader(enlarge=1).detector.input_size(480, 640) == (480, 640)  # only padded
    reading, whole = enlarged.read(small), Reader().read(full)
    assert reading.tiles and whole.tiles, "nothing read on the synthetic photo: nothing to compare"
    # the same tiles where the full-size photo has them, at half its coordinates (not the canvas's).
    # Compared: the boxes on the photo's real tiles (its truth), wholly inside it and read at 0.5 or
    # more; a tile the photo's edge cuts is boxed by what shows of it, which the scale moves, and a
    # printed domino (this table has cards) may be boxed at one size and not the other.
    truth = make_sample(11, 0, 1280, 960).truth
    real = np.asarray([t["center"] for t in truth["tiles"] if t.get("labelled")], dtype=np.float32) / 2

    def compared(tile) -> bool:
        corners = np.asarray(tile.corners)
        on_a_tile = np.linalg.norm(real - np.asarray(tile.center), axis=1).min() < 6
        inside = (corners >= 0).all() and (corners[:, 0] <= 640).all() and (corners[:, 1] <= 480).all()
        return bool(on_a_tile and inside and tile.confidence >= 0.5)

    def offset(tile) -> float:
        same = [np.asarray(t.center) / 2 for t in whole.tiles if t.tile == tile.tile]
        return min((float(np.linalg.norm(np.asarray(tile.center) - c)) for c in same), default=float("inf"))

    offsets = [offset(t) for t in reading.tiles if compared(t)]
    assert len(offsets) >= len(real) // 2 and max(offsets) < 6, offsets
    bad = cli_runner.invoke(main, ["read", str(photo), "--enlarge", "0.5"])
    assert bad.exit_code == 2 and "--enlarge" in bad.output


def test_read_turns_a_phone_photo_upright_and_answers_in_its_own_pixels(cli_runner, tmp_path):
    import cv2
    import numpy as np

    from vision.synth.styles import exif_orientation

    upright = cv2.imdecode(np.frombuffer(make_sample(11, 0, 1280, 960).jpeg, np.uint8), cv2.IMREAD_COLOR)
    large = cv2.resize(upright, (2560, 1920), interpolation=cv2.INTER_CUBIC)  # decoded at half: 1280x960
    plain, phone = tmp_path / "plain.jpg", tmp_path / "phone.jpg"
    cv2.imwrite(str(plain), upright, [cv2.IMWRITE_JPEG_QUALITY, 95])
    stored = cv2.imencode(".jpg", cv2.rotate(large, cv2.ROTATE_90_COUNTERCLOCKWISE), [cv2.IMWRITE_JPEG_QUALITY, 95])[
        1
    ].tobytes()
    phone.write_bytes(stored[:2] + exif_orientation(6) + stored[2:])  # "turn 90 degrees clockwise to view"
    result = cli_runner.invoke(main, ["read", str(plain), str(phone), "--json"])
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["tiles"], "nothing read on the synthetic photo: nothing to compare"
    assert all("unsure" in t for t in second["tiles"])

    def found_again(tile) -> bool:
        x, y = tile["center"]
        return any(
            other["tile"] == tile["tile"] and np.hypot(other["center"][0] - 2 * x, other["center"][1] - 2 * y) < 20
            for other in second["tiles"]
        )

    assert sum(found_again(t) for t in first["tiles"]) >= 0.75 * len(first["tiles"])
    # what is set aside (backs, tiles on edge) is in the phone photo's own pixels too
    assert first["ignored"], "no backs set aside on a photo with hands: nothing to compare"
    centre = lambda thing: np.mean(thing["corners"], axis=0)  # noqa: E731
    set_aside_again = sum(
        any(
            other["kind"] == thing["kind"] and np.hypot(*(centre(other) - 2 * centre(thing))) < 20
            for other in second["ignored"]
        )
        for thing in first["ignored"]
    )
    assert set_aside_again >= 0.75 * len(first["ignored"])


def latin1_named(folder, data: bytes):
    """A file whose name is Latin-1, not UTF-8 ("café.jpg" as one byte é), as Python names it."""
    import os

    try:
        with open(os.path.join(os.fsencode(folder), b"caf\xe9.jpg"), "wb") as out:
            out.write(data)
    except OSError:
        pytest.skip("this file system takes only UTF-8 names")
    return folder / os.fsdecode(b"caf\xe9.jpg")


def test_a_photo_whose_name_is_not_utf8_is_drawn_under_that_name(photo, tmp_path):
    """OpenCV's `imwrite` takes the name as UTF-8 and crashed the process on another (a
    segmentation fault, no message at all): in a child, so that such a crash fails this test only."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    named = latin1_named(tmp_path, photo.read_bytes())
    drawn = tmp_path / "drawn"
    done = subprocess.run(
        [sys.executable, "-m", "spinner.cli", "read", os.fsencode(named), "--annotate", str(drawn)],
        capture_output=True,
        cwd=Path(__file__).resolve().parents[1],
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert [p.name for p in drawn.iterdir()] == [named.name]


def test_a_pixel_thin_photo_is_read_and_the_next_one_too(cli_runner, photo, tmp_path):
    import numpy as np
    from PIL import Image

    thin = tmp_path / "thin.png"
    Image.fromarray(np.zeros((5000, 1, 3), np.uint8)).save(thin)
    result = cli_runner.invoke(main, ["read", "--json", str(thin), str(photo)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(thin), str(photo)] and lines[0]["tiles"] == []


def test_a_photo_that_fails_unexpectedly_is_named_and_the_others_are_still_read(cli_runner, photo, monkeypatch):
    from vision.read.reader import Reader

    read = Reader.read
    calls = []

    def first_fails(self, image, name):
        calls.append(name)
        if len(calls) == 1:
            raise ValueError("something no photo should do\nsecond line")
        return read(self, image, name)

    monkeypatch.setattr(Reader, "read", first_fails)
    result = cli_runner.invoke(main, ["read", "--json", str(photo), str(photo)])
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == {
        "image": str(photo),
        "error": f"{photo}: could not be read (ValueError: something no photo should do second line)",
    }
    assert "tiles" in lines[1]
    assert f"Error: {photo}: could not be read" in result.stderr
    calls.clear()
    plain = cli_runner.invoke(main, ["read", str(photo)])  # without --json: the line on standard error alone
    assert plain.exit_code == 1 and "could not be read (ValueError" in plain.stderr and plain.stdout == ""


def test_an_annotate_folder_that_cannot_be_made_is_one_line(cli_runner, photo, tmp_path):
    result = cli_runner.invoke(main, ["read", str(photo), "--annotate", str(photo / "drawn")])
    assert result.exit_code == 1 and result.exception.__class__ is SystemExit
    assert result.output == f"Error: --annotate {photo / 'drawn'}: cannot be made (Not a directory)\n"


def test_eval_refuses_a_file_to_write_in_no_folder_before_measuring(cli_runner, tmp_path, monkeypatch):
    """`--save-judged` and `--calibrate` were written after the whole measurement: a folder that is
    not there was a traceback then, and the measurement lost."""
    import vision.evaluate.photos as photos

    monkeypatch.setattr(photos, "evaluate", lambda *args, **kwargs: pytest.fail("measured"))
    (tmp_path / "synth").mkdir()
    for option in ("--save-judged", "--calibrate"):
        target = tmp_path / "absent" / "out.json"
        result = cli_runner.invoke(main, ["eval", "--synthetic", str(tmp_path / "synth"), option, str(target)])
        assert result.exit_code == 2 and f"there is no folder {tmp_path / 'absent'} to write it in" in result.output


def test_eval_names_a_truth_file_it_cannot_read(cli_runner, tmp_path):
    """A set without truth, or with a truth file that is not JSON, was a traceback."""
    (tmp_path / "synth" / "truth" / "val").mkdir(parents=True)
    empty = cli_runner.invoke(main, ["eval", "--synthetic", str(tmp_path / "synth"), "--layout"])
    assert empty.exit_code == 1 and empty.output == f"Error: no truth JSON under {tmp_path / 'synth/truth/val'}\n"
    broken = tmp_path / "synth" / "truth" / "val" / "0001.json"
    broken.write_text("{cut short")
    for measure in (["--layout"], ["--true-boxes"]):
        result = cli_runner.invoke(main, ["eval", "--synthetic", str(tmp_path / "synth"), *measure])
        assert result.exit_code == 1 and result.output.startswith(f"Error: {broken}: is not a truth JSON (Expecting")
    broken.write_text("{}")  # read, but its photo is not there
    result = cli_runner.invoke(main, ["eval", "--synthetic", str(tmp_path / "synth"), "--true-boxes"])
    assert result.exit_code == 1 and result.output == f"Error: {tmp_path / 'synth/images/val/0001.jpg'}: no such file\n"


def test_read_reads_an_iphones_heic_upright_and_names_one_cut_short(cli_runner, tmp_path):
    """A HEIC as an iPhone stores it (the pixels on their side, the turn in the HEIF's transform and
    in its EXIF) reads as the same photo taken as a JPEG; one cut short is named, the rest read."""
    import cv2
    import numpy as np

    from tests.support.heic import heic

    upright = cv2.imdecode(np.frombuffer(make_sample(11, 0, 1280, 960).jpeg, np.uint8), cv2.IMREAD_COLOR)
    plain, phone, cut = tmp_path / "plain.jpg", tmp_path / "IMG_0001.HEIC", tmp_path / "IMG_0002.heic"
    cv2.imwrite(str(plain), upright, [cv2.IMWRITE_JPEG_QUALITY, 95])
    phone.write_bytes(heic(cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE), 6, quality=95))
    cut.write_bytes(phone.read_bytes()[: phone.stat().st_size // 2])
    result = cli_runner.invoke(main, ["read", str(plain), str(phone), str(cut), "--json"])
    assert result.exit_code == 1, result.output  # the one cut short...
    first, second, third = (json.loads(line) for line in result.stdout.splitlines())
    assert set(third) == {"image", "error"} and third["error"].startswith(f"{cut}: is cut short or damaged: ")
    assert "Traceback" not in result.output
    assert second["image"] == str(phone) and first["tiles"], "nothing read on the synthetic photo: nothing to compare"

    def found_again(tile) -> bool:  # upright once: the same tiles at the same places
        x, y = tile["center"]
        return any(
            o["tile"] == tile["tile"] and np.hypot(o["center"][0] - x, o["center"][1] - y) < 12 for o in second["tiles"]
        )

    assert sum(found_again(t) for t in first["tiles"]) >= 0.75 * len(first["tiles"])
    assert all(0 <= t["center"][0] <= 1280 and 0 <= t["center"][1] <= 960 for t in second["tiles"])
