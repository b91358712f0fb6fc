"""The companion with the real reader (vision.read.reader.Reader on the bundled ONNX models, or those in
SPINNER_MODELS): a synthetic table photo goes in, a reading and a proposal come out. How well it
reads is `spinner eval`'s business; this checks that the page and the reader fit together.
Skipped where the models are not there (the detector is trained apart: models/README.md)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from tests.support.records import play
from tests.support.web import PLAYERS, Table

MODELS = Path(os.environ.get("SPINNER_MODELS") or Path(__file__).resolve().parent.parent / "models")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not ((MODELS / "detector.onnx").is_file() and (MODELS / "halves.onnx").is_file()),
        reason=f"the reader's models are not in {MODELS}",
    ),
]


def test_a_synthetic_table_photo_is_read_and_proposed(tmp_path):
    from vision.synth.dataset import make_sample
    from webapp import create_app
    from webapp.store import cache

    cache.clear()
    app = create_app(
        {
            "SPINNER_DATA": tmp_path / "data",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
            "SPINNER_MODELS": MODELS,
            "READ_WAIT": 120.0,
        }
    )
    client = app.test_client()
    t = Table(client, client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json())
    t.post("/hands", {})
    assert t.event(play(0, "6-6")).status_code == 201
    sample = make_sample(11, 0, 1280, 960)
    response = client.post(
        f"/api/games/{t.id}/frames?seat=1",
        data={"photo": (io.BytesIO(sample.jpeg), "t.jpg")},
        headers=t.auth,
        content_type="multipart/form-data",
    )
    assert response.status_code == 201, response.get_json()
    frame = response.get_json()
    assert frame["status"] in ("recorded", "confirm", "nothing"), frame["message"]
    assert frame["width"] == 1280 and frame["height"] == 960
    tiles = frame["reading"]["tiles"]
    assert all({"tile", "corners", "confidence"} <= set(tile) for tile in tiles)
    if not tiles:  # a detector still in training may find nothing: the answer says so plainly
        assert frame["status"] == "nothing" and "found no tile" in frame["message"]
    truth = {f"{min(a, b)}-{max(a, b)}" for a, b in (map(int, t["value"].split("-")) for t in sample.truth["tiles"])}
    read = {f"{min(a, b)}-{max(a, b)}" for a, b in (map(int, t["tile"].split("-")) for t in tiles)}
    assert len(read & truth) >= len(read) // 2  # most of what it read is on the table
    page = client.get(f"/g/{t.id}/hands/0/replay")
    assert page.status_code == 200 and page.text.count("<polygon") == len(tiles)
