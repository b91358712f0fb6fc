"""Replaying a hand from its kept frames, disputes settled by a correction, and a match exported
and imported with its photos."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from tests.support.camera import photo, seen, send
from tests.support.records import play
from tests.support.web import PLAYERS, Table

# The photos show no arm: each play is the turn seat's (who laid a tile: tests/test_follow_seats.py).
pytestmark = pytest.mark.usefixtures("seats_in_turn_order")


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def scored_by_camera(cam, script) -> list[dict]:
    """Three plays, each from a photo: the lead, then two the camera was sure of."""
    script.readings += [
        seen("6-6"),
        seen("6-6", "6-1", centre="6-6", arms={"west": ["6-1"]}),
        seen("6-6", "6-1", ("1-2", 0.6), centre="6-6", arms={"west": ["6-1", "1-2"]}),
    ]
    sent = [send(cam, photo(), "?seat=0").get_json()]
    sent.append(send(cam, photo()).get_json())
    sent.append(send(cam, photo()).get_json())
    assert [f["status"] for f in sent] == ["recorded", "recorded", "confirm"]
    assert cam.post(f"/frames/{sent[2]['id']}/accept", {}).status_code == 200
    return sent


def scorer_session(cam) -> str:
    """Open the scorer link in the test client's browser session; the page's CSRF token."""
    cam.client.get(f"/g/{cam.id}/join?key={cam.token}")
    return csrf_of(cam.client.get(f"/g/{cam.id}").text)


def test_the_replay_steps_through_the_frames_with_the_reading_and_the_points(cam, script):
    scored_by_camera(cam, script)
    page = cam.client.get(f"/g/{cam.id}/hands/0/replay")
    assert page.status_code == 200
    assert "Photo 3 of 3" in page.text  # the newest first
    assert "It made play 3" in page.text and "played 1-2" in page.text and "count 14" in page.text
    assert page.text.count("<polygon") == 3 and '<polygon class="new"' in page.text
    first = cam.client.get(f"/g/{cam.id}/hands/0/replay?at=1").text
    assert "Photo 1 of 3" in first and "It made play 1" in first and "count 12" in first
    assert 'id="prev"' not in first and 'id="next"' in first
    frame_image = re.search(r'<img src="([^"]+)"', first).group(1)
    assert cam.client.get(frame_image).status_code == 200


def test_a_hand_without_frames_says_so_and_an_unknown_hand_is_refused(cam):
    assert "No photo was kept for this hand" in cam.client.get(f"/g/{cam.id}/hands/0/replay").text
    missing = cam.client.get(f"/g/{cam.id}/hands/5/replay")
    assert missing.status_code == 404 and "no hand 6" in missing.text


def test_a_dispute_marked_on_the_replay_is_settled_with_a_correction(cam, script):
    scored_by_camera(cam, script)
    token = scorer_session(cam)
    marked = cam.client.post(
        f"/g/{cam.id}/hands/0/dispute",
        data={"csrf_token": token, "event": "2", "why": "Ben says it was the 1-3", "at": "3"},
    )
    assert marked.status_code == 302 and marked.headers["Location"].endswith("/hands/0/replay?at=3")
    page = cam.client.get(f"/g/{cam.id}/hands/0/replay?at=3").text
    assert "Disputed: play 3" in page and "Ben says it was the 1-3" in page
    version = int(re.search(r"/disputes/(\d+)/settle", page).group(1))
    settled = cam.client.post(
        f"/g/{cam.id}/disputes/{version}/settle",
        data={
            "csrf_token": token,
            "hand": "0",
            "at": "3",
            "why": "the photo shows 1-3",
            "event": json.dumps(play(2, "1-3", "west")),
        },
    )
    assert settled.status_code == 302
    assert cam.record()["hands"][0]["events"][2] == play(2, "1-3", "west")
    actions = [c["action"] for c in cam.get("/history").get_json()["changes"]]
    assert actions[-3:] == ["dispute", "correct", "settle"]
    page = cam.client.get(f"/g/{cam.id}/hands/0/replay?at=3").text
    assert "None open." in page and "played 1-3" in page  # the frame now shows the corrected event
    again = cam.post(f"/disputes/{version}/settle", {"why": "twice"})
    assert again.status_code == 409 and "settled already" in again.get_json()["error"]


def test_a_dispute_needs_the_scorer_and_its_csrf_token(cam, script):
    scored_by_camera(cam, script)
    assert cam.client.post(f"/g/{cam.id}/hands/0/dispute", data={"event": "0", "why": "x"}).status_code == 401
    cam.client.get(f"/g/{cam.id}/join?key={cam.token}")
    assert cam.client.post(f"/g/{cam.id}/hands/0/dispute", data={"event": "0", "why": "x"}).status_code == 403
    assert "dispute" not in [c["action"] for c in cam.get("/history").get_json()["changes"]]


def test_a_bad_correction_is_refused_with_the_rule_and_the_dispute_stays_open(cam, script):
    scored_by_camera(cam, script)
    token = scorer_session(cam)
    cam.client.post(f"/g/{cam.id}/hands/0/dispute", data={"csrf_token": token, "event": "2", "why": "check it"})
    version = cam.get("/history").get_json()["changes"][-1]["version"]
    answer = cam.client.post(
        f"/g/{cam.id}/disputes/{version}/settle",
        follow_redirects=True,
        data={"csrf_token": token, "hand": "0", "why": "agreed", "event": json.dumps(play(2, "4-4", "west"))},
    )
    assert "4-4 does not fit the west end" in answer.text
    broken = cam.client.post(
        f"/g/{cam.id}/disputes/{version}/settle",
        follow_redirects=True,
        data={"csrf_token": token, "hand": "0", "why": "agreed", "event": "{broken"},
    )
    assert "not valid JSON" in broken.text
    assert "Disputed: play 3" in cam.client.get(f"/g/{cam.id}/hands/0/replay").text


def test_export_and_import_carry_the_frames_and_their_readings(cam, script):
    sent = scored_by_camera(cam, script)
    exported = cam.client.get(f"/api/games/{cam.id}/export")
    assert exported.status_code == 200 and exported.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(exported.data)) as archive:
        names = sorted(archive.namelist())
        listing = json.loads(archive.read("frames.json"))
    assert names == sorted(["record.json", "match.json", "frames.json"] + [f"frames/{f['id']}.jpg" for f in sent])
    assert [f["event"] for f in listing["frames"]] == [0, 1, 2]

    imported = cam.client.post("/api/games", data=exported.data, content_type="application/zip")
    assert imported.status_code == 201, imported.get_json()
    copy = Table(cam.client, imported.get_json())
    assert copy.record()["hands"] == cam.record()["hands"]
    frames = copy.get("/frames").get_json()["frames"]
    assert [(f["event"], f["status"], f["source"]) for f in frames] == [
        (0, "recorded", "import"),
        (1, "recorded", "import"),
        (2, "accepted", "import"),
    ]
    assert cam.client.get(frames[0]["image"]).data == cam.client.get(sent[0]["image"]).data
    page = cam.client.get(f"/g/{copy.id}/hands/0/replay?at=2").text
    assert "It made play 2" in page and page.count("<polygon") == 2


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_a_bad_archive_is_refused_and_nothing_is_kept(cam):
    record = json.dumps({"variant": "partners", "players": PLAYERS, "hands": []}).encode()
    frames_json = json.dumps({"format": "spinner-frames/1", "frames": [{"file": "frames/1.jpg", "hand": 0}]}).encode()
    cases = [
        (b"PK\x03\x04 not really", 400, "not a ZIP archive"),
        (zipped({"notes.txt": b"hi"}), 400, "has no record.json"),
        (
            zipped({"record.json": record, "../evil.sh": b"rm -rf /"}),
            400,
            "holds files a Spinner archive does not: ../evil.sh",
        ),
        (zipped({"record.json": b"{", "frames.json": b"{}"}), 400, "not valid JSON"),
        (
            zipped({"record.json": record, "frames.json": frames_json, "frames/1.jpg": b"not a photo"}),
            415,
            "frames/1.jpg is not a photo",
        ),
        (
            zipped({"record.json": json.dumps({"variant": "partners", "players": ["A"]}).encode()}),
            422,
            "cannot be scored",
        ),
    ]
    before = len(cam.client.get("/api/games").get_json()["games"])
    for data, status, words in cases:
        response = cam.client.post("/api/games", data=data, content_type="application/zip")
        assert response.status_code == status, (words, response.get_json())
        assert words in response.get_json()["error"]
    assert len(cam.client.get("/api/games").get_json()["games"]) == before


def test_the_import_form_takes_a_zip(cam, script):
    scored_by_camera(cam, script)
    data = cam.client.get(f"/api/games/{cam.id}/export").data
    token = csrf_of(cam.client.get("/").text)
    response = cam.client.post(
        "/import",
        data={"csrf_token": token, "record": (io.BytesIO(data), "match.zip")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.text
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert len(cam.client.get(f"/api/games/{game_id}/frames").get_json()["frames"]) == 3
