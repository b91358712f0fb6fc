"""The camera path: a photo in, the reader's tiles compared with the layout, a play recorded or proposed.

The reader here is a stand-in that answers what each test tells it (the real one needs its
trained models, which `test_webapp_camera_reader.py` uses where they exist); everything after
the reading (the proposal, the scorer's check, the store, the history, the kept files) is real.
"""

from __future__ import annotations

import io
import threading
from typing import Any

import cv2
import numpy as np
import pytest

from tests.support.camera import make_app, photo, seen, send
from tests.support.records import play
from tests.support.web import PLAYERS, Table

# The readings show no arm: each play is the turn seat's (who laid a tile: tests/test_follow_seats.py).
pytestmark = pytest.mark.usefixtures("seats_in_turn_order")


def test_without_a_reader_the_photo_is_kept_and_the_pad_still_scores(tmp_path):
    app = make_app(tmp_path, SPINNER_MODELS=tmp_path / "no-models")
    client = app.test_client()
    created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()
    t = Table(client, created)
    t.post("/hands", {})
    response = send(t, photo())
    assert response.status_code == 201
    frame = response.get_json()
    assert frame["status"] == "no-reader"
    assert "cannot read photos yet" in frame["message"] and "detector" in frame["message"]
    assert "score this play on the pad" in frame["message"]
    assert client.get(frame["image"]).status_code == 200  # kept for a replay all the same
    assert t.event(play(0, "6-6")).status_code == 201


@pytest.mark.parametrize(
    "data, status, words",
    [
        (b"", 400, "is empty"),
        # its header claims 26740 x 29545 pixels: refused before anything decodes it
        (b"GIF89a this is not really an image", 413, "megapixels"),
        (b"GIF89a\x10\x00\x10\x00 this is not really an image", 415, "not a photo this server can decode"),
        (b"%PDF-1.7 a document", 415, "not a photo"),
    ],
)
def test_bad_uploads_are_refused_and_nothing_is_kept(cam, data, status, words):
    response = send(cam, data)
    assert response.status_code == status and words in response.get_json()["error"]
    assert cam.get("/frames").get_json()["frames"] == []
    folder = cam.app.config["SPINNER_DATA"] / "frames"
    assert not folder.exists() or not any(folder.rglob("*.*"))


def test_a_photo_too_large_is_refused_before_it_is_read(cam):
    big = b"\xff\xd8\xff" + bytes(9 * 1024 * 1024)
    response = send(cam, big, content_type="image/jpeg")
    assert response.status_code == 413 and "at most 8 MB" in response.get_json()["error"]
    assert cam.get("/frames").get_json()["frames"] == []


def test_a_photo_with_too_many_pixels_is_refused(cam):
    image = np.zeros((8000, 8000, 3), np.uint8)
    ok, data = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    response = send(cam, data.tobytes(), content_type="image/png")
    assert response.status_code == 413 and "megapixels" in response.get_json()["error"]


def test_only_the_scorer_sends_photos(cam):
    viewer = send(cam, photo(), headers={"Authorization": f"Bearer {cam.viewer}"})
    assert viewer.status_code == 403 and "viewer link" in viewer.get_json()["error"]
    wrong = send(cam, photo(), headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and "wrong token" in wrong.get_json()["error"]
    text = cam.client.post(f"/api/games/{cam.id}/frames", data="hello", headers=cam.auth, content_type="text/plain")
    assert text.status_code == 415 and "send a photo" in text.get_json()["error"]


def test_a_raw_image_body_and_other_formats_are_taken(cam, script):
    response = send(cam, photo(fmt=".png"), content_type="image/png")
    assert response.status_code == 201
    image = cam.client.get(response.get_json()["image"])
    assert image.mimetype == "image/png" and image.data.startswith(b"\x89PNG")


def test_a_private_match_s_photo_is_for_the_phone_s_own_cache_only(cam, script):
    """The photo went out "public, max-age=3600": a shared cache (a proxy's) may then keep a
    private match's photo, read with its link, and hand it to anyone asking without one."""
    created = cam.client.post("/api/games", json={"variant": "partners", "players": PLAYERS, "private": True})
    private = Table(cam.client, created.get_json())
    assert private.post("/hands", {}).status_code == 201
    frame = send(private, photo()).get_json()
    image = cam.client.get(frame["image"], headers=private.auth)
    assert image.status_code == 200 and image.data == photo()
    assert image.cache_control.private and not image.cache_control.public
    assert image.cache_control.max_age == 3600  # the phone itself still keeps it
    assert cam.client.get(frame["image"]).status_code == 401  # no link: none of it


def test_an_iphones_heic_is_taken_and_kept_upright_as_a_jpeg_the_page_can_show(cam, script):
    """Take photo on a laptop, of a photo copied off an iPhone: a HEIC, which browsers other than
    Safari do not show. It is read and kept as a JPEG, turned upright once (its transform)."""
    from tests.support.heic import heic

    stored = np.full((48, 64, 3), 90, np.uint8)
    stored[:12, :16] = 250  # the stored top-left corner: the top-right once turned (EXIF 6)
    data = heic(stored, 6)
    for response in (
        send(cam, data),  # the page's form, whose file keeps the name it had
        send(cam, data, content_type="image/heic"),  # a raw body
    ):
        assert response.status_code == 201, response.get_json()
        frame = response.get_json()
        assert (frame["width"], frame["height"]) == (48, 64)
        kept = cam.client.get(frame["image"])
        assert kept.mimetype == "image/jpeg" and kept.data[:3] == b"\xff\xd8\xff"
        image = cv2.imdecode(np.frombuffer(kept.data, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape == (64, 48, 3)
        assert image[:16, -12:].mean() > 200 and image[:16, :12].mean() < 150 and image[-16:, :].mean() < 150
    assert len(cam.get("/frames").get_json()["frames"]) == 2


def test_a_heic_cut_short_or_too_large_is_refused_and_nothing_is_kept(cam, monkeypatch):
    from tests.support.heic import claiming, heic
    from vision.read import photo as loader

    data = heic(np.random.default_rng(0).integers(0, 255, (48, 64, 3), np.uint8))
    for cut in (data[:40], data[: len(data) // 2], data[:-8]):
        response = send(cam, cut)
        assert response.status_code == 415, response.get_json()
        assert response.get_json()["error"].startswith("the upload is cut short or damaged")
    monkeypatch.setattr(loader, "_heif_decode", lambda data: pytest.fail("decoded"))
    bomb = send(cam, claiming(heic(np.zeros((48, 64, 3), np.uint8)), 16383, 16383))
    assert bomb.status_code == 413 and "16383x16383 pixels" in bomb.get_json()["error"]
    assert cam.get("/frames").get_json()["frames"] == []
    folder = cam.app.config["SPINNER_DATA"] / "frames"
    assert not folder.exists() or not any(folder.rglob("*.*"))


def test_a_camera_faster_than_the_reader_never_builds_a_backlog(cam, script):
    """The newest frame of a table wins: one waiting when a newer one comes is skipped, never read
    nor kept; a photo someone took is kept all the same."""
    script.gate = threading.Event()
    still = small(photo())  # the page saw the table still: each frame is worth reading

    def live() -> Any:
        return send_captured(cam, photo(), still, still, "&wait=0")

    first = live()
    assert first.status_code == 202
    assert script.started.wait(5)  # the reader is busy with the first
    second = live()
    assert second.status_code == 202 and second.get_json()["id"] is None  # not kept while it waits
    shot = send(cam, photo(), "?wait=0").get_json()  # a photo: kept at once
    third = live().get_json()
    assert third["status"] == "queued"
    script.gate.set()
    from webapp.db import db
    from webapp.models import Frame

    for _ in range(200):  # until the reader has done with the first and the third
        with cam.app.app_context():
            rows = {f.id: (f.source, f.status) for f in db.session.query(Frame).order_by(Frame.id)}
            db.session.remove()
        if len(rows) == 3 and all(status != "queued" for _, status in rows.values()):
            break
        threading.Event().wait(0.05)
    assert rows[shot["id"]] == ("photo", "skipped")  # the third came before it was read
    assert sorted(status for source, status in rows.values() if source == "camera") == ["nothing", "nothing"]
    assert len(rows) == 3  # the second camera frame was never written


def test_without_a_reader_a_live_frame_is_answered_and_not_kept(tmp_path):
    app = make_app(tmp_path, SPINNER_MODELS=tmp_path / "no-models")
    client = app.test_client()
    t = Table(client, client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json())
    t.post("/hands", {})
    response = send(t, photo(), "?source=camera")
    assert response.status_code == 201
    frame = response.get_json()
    assert frame["status"] == "no-reader" and frame["id"] is None and "cannot read photos yet" in frame["message"]
    assert t.get("/frames").get_json()["frames"] == []


# -- what the follower answers, as the page stores and shows it ----------------------------------
#
# The decisions themselves are the follower's (`vision.follow`), tested without a web server in
# test_watch.py and test_follow_table.py; these check that the page maps them: a play recorded
# through the store, a question with its candidates, the player's answer back to the follower.


def test_a_sure_lead_is_recorded_at_once_from_the_photo(cam, script):
    script.readings.append(seen("6-6"))
    response = send(cam, photo(), "?seat=0")  # partners, no deal: the sender says they lead
    assert response.status_code == 201, response.get_json()
    frame = response.get_json()
    assert frame["status"] == "recorded" and frame["event"] == 0 and frame["hand"] == 0
    assert frame["message"] == "the camera saw seat 0 playing 6-6"
    assert cam.get("/score").get_json()["hands"][0]["plays"][0]["count"] == 12
    last = cam.get("/history").get_json()["changes"][-1]
    assert last["source"] == "camera" and last["who"] == "camera" and last["after"]["tile"] == "6-6"
    assert cam.client.get(frame["image"]).status_code == 200
    assert script.variants == ["partners"]


@pytest.mark.parametrize("seat", ["4", "7"])
def test_a_photo_for_a_seat_past_the_players_is_refused_naming_it(cam, script, seat):
    """`?seat=7` at a table of four was taken: the follower then failed on it, and the photo was kept
    as one "the reader failed on", a reason naming neither the seat nor the photo."""
    script.readings.append(seen("6-6"))
    response = send(cam, photo(), f"?seat={seat}")
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"] == f"there is no seat {seat}: this match has 4 players (seats 0 to 3)"
    assert cam.get("/frames").get_json()["frames"] == [] and script.readings  # nothing kept, nothing read
    assert send(cam, photo(), "?seat=3").get_json()["status"] == "recorded"  # the last seat is one


def test_a_photo_in_which_no_new_tile_is_read_tells_the_player_so(cam, script):
    """A photo of a change the camera cannot settle (nothing new read in it: a play it missed)
    answers the player in words, never silently: take it again, or score the play on the pad."""
    script.readings.append(seen("6-6"))
    assert send(cam, photo(), "?seat=0").get_json()["status"] == "recorded"
    script.readings.append(seen("6-6"))
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "nothing" and frame["proposal"]["code"] == "no_new_tile_photo"
    assert frame["message"].startswith("no new tile was read in this photo (if a tile was played, take the photo")
    assert "score the play on the pad" in frame["message"] and "nothing to record" not in frame["message"]


def test_a_lead_whose_player_is_not_known_asks_who_led(cam, script):
    script.readings.append(seen("6-6"))
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "confirm" and "who leads this hand is not known" in frame["message"]
    assert frame["proposal"]["events"] == [{"type": "play", "seat": None, "tile": "6-6"}]
    refused = cam.post(f"/frames/{frame['id']}/accept", {})
    assert refused.status_code == 400 and "needs its seat" in refused.get_json()["error"]
    adjust = {"type": "adjust", "team": 0, "points": 50, "reason": "x"}  # it has no seat: that is not why
    refused = cam.post(f"/frames/{frame['id']}/accept", {"event": adjust})
    assert refused.status_code == 400
    assert refused.get_json()["error"].startswith(
        "a photo records a play, a pass or a draw, not an event of type 'adjust'"
    )
    assert cam.post(f"/frames/{frame['id']}/accept", {"event": play(2, "6-6")}).status_code == 200
    assert cam.record()["hands"][0]["events"] == [play(2, "6-6")]


def test_an_unsure_play_asks_one_tap_and_the_follower_goes_on_from_the_answer(cam, script):
    assert cam.event(play(0, "6-6")).status_code == 201
    script.readings.append(seen("6-6", ("6-4", 0.5)))
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "confirm" and frame["message"].startswith("the camera thinks: seat 1 playing 4-6 on the ")
    (event,) = frame["proposal"]["events"]
    assert (event["seat"], event["tile"]) == (1, "4-6")
    assert frame["proposal"]["candidates"][0][0]["event"] == event
    assert len(cam.record()["hands"][0]["events"]) == 1  # nothing recorded before the tap
    assert cam.post(f"/frames/{frame['id']}/accept", {}).status_code == 200
    assert cam.record()["hands"][0]["events"][-1] == event
    # the follower took the answer: the next tile is seat 2's, on the 4
    script.readings.append(seen("6-6", "6-4", "4-1"))
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "recorded", frame["message"]
    assert cam.record()["hands"][0]["events"][-1] == {"type": "play", "seat": 2, "tile": "1-4", "end": event["end"]}


def test_a_question_turned_down_leaves_its_tile_to_the_play_scored_on_the_pad(cam, script):
    assert cam.event(play(0, "6-6")).status_code == 201
    script.readings.append(seen("6-6", ("6-4", 0.5)))
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "confirm"
    assert cam.post(f"/frames/{frame['id']}/reject", {}).status_code == 200
    event = frame["proposal"]["events"][0]
    assert cam.event({**event, "tile": "6-3"}).status_code == 201  # the real play, a 6-3 misread
    # the same tile turned down, seen again: asked about, not recorded (a scored play took its change)
    script.readings.append(seen("6-6", "6-4"))
    again = send(cam, photo()).get_json()
    assert again["status"] == "confirm" and "turned down as a play before" in again["message"]
    assert [e["tile"] for e in cam.record()["hands"][0]["events"]] == ["6-6", "6-3"]


def table_image(tiles: int) -> bytes:
    """A 640x480 table with `tiles` light tiles in a row: each state of the table its own picture,
    for the motion test."""
    image = np.full((480, 640, 3), 90, np.uint8)
    for k in range(tiles):
        cv2.rectangle(image, (100 + 70 * k, 180), (160 + 70 * k, 220), (250, 250, 250), -1)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


def test_a_live_camera_is_decided_once_the_table_settles_after_a_change(cam, script):
    assert cam.event(play(0, "6-6")).status_code == 201

    def look(picture: bytes, reading: dict[str, Any] | None = None) -> dict[str, Any]:
        """A live frame; `reading`: what the reader reads, for a frame worth reading."""
        if reading is not None:
            script.readings.append(reading)
        return send(cam, picture, "?source=camera").get_json()

    # the first frame is a look, the next one (the same table) the table settled: read
    assert [look(table_image(1))["status"], look(table_image(1), seen("6-6"))["status"]] == ["nothing", "nothing"]
    played = seen("6-6", "6-1")
    first = look(table_image(2))
    second, third = look(table_image(2), played), look(table_image(2))
    assert first["status"] == "nothing" and "moving" in first["message"]  # an arm: not even read
    assert second["status"] == "recorded", second["message"]
    assert third["status"] == "nothing"  # the same table: decided already
    assert [e["tile"] for e in cam.record()["hands"][0]["events"]] == ["6-6", "1-6"]
    # an undo: the follower starts again from the record, the table as the camera sees it now
    assert cam.post("/undo", {"why": "not yet"}).status_code == 200
    assert look(table_image(2), played)["status"] == "nothing"
    assert [e["tile"] for e in cam.record()["hands"][0]["events"]] == ["6-6"]


def small(picture: bytes) -> bytes:
    """The page's own small capture of a frame (`camera.js`: 320 pixels wide, JPEG)."""
    image = cv2.imdecode(np.frombuffer(picture, np.uint8), cv2.IMREAD_COLOR)
    ok, data = cv2.imencode(".jpg", cv2.resize(image, (320, 240), interpolation=cv2.INTER_AREA))
    assert ok
    return data.tobytes()


def send_captured(cam, picture: bytes, before: bytes, now: bytes | None = None, query: str = ""):
    """A live frame with the page's two captures: `before` a second earlier, `now` with the frame."""
    return cam.client.post(
        f"/api/games/{cam.id}/frames?source=camera{query}",
        data={
            "photo": (io.BytesIO(picture), "table.jpg"),
            "before": (io.BytesIO(before), "before.jpg"),
            "now": (io.BytesIO(now if now is not None else small(picture)), "now.jpg"),
        },
        headers=cam.auth,
        content_type="multipart/form-data",
    )


def test_a_live_camera_whose_frames_come_seconds_apart_is_decided_by_its_own_captures(cam, script):
    """A slow reader: the page sends its next frame only once the last is read, so two frames sent
    in a row can show different tables. The page's two captures a second apart say the table was
    still, so each frame is decided on one look; captures that differ are an arm: not read."""
    assert cam.event(play(0, "6-6")).status_code == 201

    def look(picture: bytes, reading: dict[str, Any] | None, before: bytes) -> dict[str, Any]:
        if reading is not None:
            script.readings.append(reading)
        return send_captured(cam, picture, small(before)).get_json()

    assert look(table_image(1), seen("6-6"), table_image(1))["status"] == "nothing"
    # an arm over the table as the frame was taken: its capture a second before differs, and the
    # frame is not even read
    arm = look(table_image(2), None, table_image(3))
    assert arm["status"] == "nothing" and "moving" in arm["message"]
    # the next frame sent (seconds later), the table still: decided at once
    recorded = look(table_image(2), seen("6-6", "6-1"), table_image(2))
    assert recorded["status"] == "recorded", recorded["message"]
    # a still table again, changed since the last frame sent: another play, decided at once
    again = look(table_image(3), seen("6-6", "6-1", "1-2"), table_image(3))
    assert again["status"] in ("recorded", "confirm"), again["message"]
    assert [e["tile"] for e in cam.record()["hands"][0]["events"]][:2] == ["6-6", "1-6"]


@pytest.mark.parametrize(
    ("before", "now", "status", "words"),
    [
        (b"not a photo", None, 415, "the capture 'before'"),
        (None, b"", 400, "the capture 'now' is empty"),
        (None, "other size", 400, "differ in size"),
    ],
)
def test_bad_captures_with_a_live_frame_are_refused_by_name(cam, before, now, status, words):
    picture = table_image(1)
    if now == "other size":
        image = cv2.imdecode(np.frombuffer(picture, np.uint8), cv2.IMREAD_COLOR)
        now = cv2.imencode(".jpg", cv2.resize(image, (160, 120)))[1].tobytes()
    answer = send_captured(cam, picture, before if before is not None else small(picture), now)
    assert answer.status_code == status and words in answer.get_json()["error"]
    assert cam.client.get(f"/api/games/{cam.id}/frames", headers=cam.auth).get_json()["frames"] == []


def test_a_turn_down_never_lands_on_a_frame_answered_meanwhile_elsewhere(cam, script, monkeypatch):
    """Another process accepts the frame between this request's read and its write: the turn-down
    is refused and the frame stays accepted, as its recorded play says."""
    from sqlalchemy import update

    from webapp import frames
    from webapp.models import Frame, db

    assert cam.event(play(0, "6-6")).status_code == 201
    script.readings.append(seen("6-6", ("6-4", 0.5)))
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "confirm"
    read = frames.get

    def read_then_answered_elsewhere(game_id, frame_id, fresh=False):
        got = read(game_id, frame_id, fresh)
        with db.engine.begin() as other:  # another process's connection
            other.execute(update(Frame).where(Frame.id == frame_id).values(status="accepted"))
        return got

    monkeypatch.setattr(frames, "get", read_then_answered_elsewhere)
    refused = cam.post(f"/frames/{frame['id']}/reject", {})
    monkeypatch.setattr(frames, "get", read)
    assert refused.status_code == 409 and "it is accepted" in refused.get_json()["error"]
    with cam.app.app_context():
        assert db.session.get(Frame, frame["id"]).status == "accepted"


def unsure_six_four(cam, script) -> dict:
    """Ana leads 6-6 on the pad; a photo shows 6-4 read unsure: the camera asks."""
    assert cam.event(play(0, "6-6")).status_code == 201
    script.readings.append(seen("6-6", ("6-4", 0.5)))
    frame = send(cam, photo()).get_json()
    assert frame["status"] == "confirm" and frame["proposal"]["events"][0]["tile"] == "4-6"
    return frame


def test_a_question_whose_play_is_scored_on_the_pad_asks_no_more(cam, script):
    frame = unsure_six_four(cam, script)
    event = frame["proposal"]["events"][0]
    assert cam.event(event).status_code == 201  # scored on the pad instead of tapping Yes
    now = cam.get(f"/frames/{frame['id']}", headers={**cam.auth, "Accept-Language": "en"}).get_json()
    assert now["status"] == "recorded" and now["event"] == 1
    assert now["say"].startswith("Already recorded: ")
    # the next photo's answer no longer carries the old question
    script.readings.append(seen("6-6", "6-4"))
    after = send(cam, photo()).get_json()
    assert after["asks"] is None, after["asks"]
    late = cam.post(f"/frames/{frame['id']}/accept", {})
    assert late.status_code == 409
    assert late.get_json()["error"].startswith(f"frame {frame['id']}'s play is already recorded (")
    assert "reload" not in late.get_json()["error"]
    assert len(cam.record()["hands"][0]["events"]) == 2


def test_a_question_answered_on_a_newer_frame_is_settled_on_the_older_one(cam, script):
    first = unsure_six_four(cam, script)
    script.readings.append(seen("6-6", ("6-4", 0.5)))
    second = send(cam, photo()).get_json()
    assert second["status"] == "confirm", second["message"]
    assert cam.post(f"/frames/{second['id']}/accept", {}).status_code == 200
    listed = {f["id"]: f["status"] for f in cam.get("/frames", headers=cam.auth).get_json()["frames"]}
    assert listed[first["id"]] == "recorded" and listed[second["id"]] == "accepted"
    again = cam.post(f"/frames/{first['id']}/accept", {})
    assert again.status_code == 409 and "already recorded" in again.get_json()["error"]
    assert [e["tile"] for e in cam.record()["hands"][0]["events"]] == ["6-6", "4-6"]


def test_a_question_the_record_moved_past_otherwise_is_superseded(cam, script):
    frame = unsure_six_four(cam, script)
    assert cam.event(play(1, "6-3", "west")).status_code == 201  # another play scored meanwhile
    now = cam.get(f"/frames/{frame['id']}", headers=cam.auth).get_json()
    assert now["status"] == "superseded"
    late = cam.post(f"/frames/{frame['id']}/accept", {})
    assert late.status_code == 409 and "the match changed since its question" in late.get_json()["error"]
    assert cam.post(f"/frames/{frame['id']}/reject", {}).status_code == 409


def test_a_live_question_superseded_with_its_tile_unrecorded_is_asked_again(cam, script):
    """A live camera's question the record moved past (here: another play scored meanwhile) whose
    tile is still not recorded: the next still frame is read, though the table looks as it did
    when it asked, and asks again; the tile is never dropped silently."""
    assert cam.event(play(0, "6-6")).status_code == 201

    def look(picture: bytes, reading: dict[str, Any] | None = None) -> dict[str, Any]:
        if reading is not None:
            script.readings.append(reading)
        return send(cam, picture, "?source=camera").get_json()

    look(table_image(1))
    look(table_image(1), seen("6-6"))
    look(table_image(2))
    asked = look(table_image(2), seen("6-6", ("6-4", 0.5)))
    assert asked["status"] == "confirm" and asked["proposal"]["events"][0]["tile"] == "4-6", asked
    assert cam.event(play(1, "6-3", "west")).status_code == 201  # scored on the pad meanwhile
    assert cam.get(f"/frames/{asked['id']}", headers=cam.auth).get_json()["status"] == "superseded"
    again = look(table_image(2), seen("3-6", "6-6", ("6-4", 0.5)))
    assert again["status"] in ("confirm", "recorded"), again["message"]
    assert again["proposal"]["events"][0]["tile"] == "4-6"


def test_a_live_frames_answered_question_takes_up_the_rest_of_its_tiles(cam, script):
    """Two new tiles in a live frame, in either order: once the first is answered, the same frame
    is looked at again for the other (as a photo's is), not left to a later frame that may be
    "unchanged" or ask about something else first."""
    assert cam.event(play(0, "6-6")).status_code == 201

    def look(picture: bytes, reading: dict[str, Any] | None = None) -> dict[str, Any]:
        if reading is not None:
            script.readings.append(reading)
        return send(cam, picture, "?source=camera").get_json()

    look(table_image(1))
    look(table_image(1), seen("6-6"))
    look(table_image(2))
    asked = look(table_image(2), seen("3-6", "6-6", "6-4"))
    assert asked["status"] == "confirm" and asked["proposal"]["code"] == "order_unknown", asked
    first = next(e for e in asked["proposal"]["plays"] if e["tile"] == "4-6")
    answered = cam.post(f"/frames/{asked['id']}/accept", {"event": {**first, "seat": 1}})
    assert answered.status_code == 200, answered.get_json()
    rest = answered.get_json()
    assert rest["status"] in ("recorded", "kept", "confirm"), rest
    taken = [e["tile"] for e in cam.record()["hands"][0]["events"]] + [
        e["tile"] for e in (rest["proposal"].get("kept") or rest["proposal"].get("events") or [])
    ]
    assert taken[:2] == ["6-6", "4-6"] and "3-6" in taken[2:], (taken, rest["message"])
