"""A match exported as a ZIP and imported again keeps what a dispute needs: its title, the history
of who changed what, when and why (corrections, disputes open and settled), each kept photo's
status and its link to the play it made. What an archive says of them is checked like the rest of
it: an attacker's archive is refused with a 4xx and nothing of it is kept, and an archive made
before the history travelled still imports.

Everything is real from the upload to the record but the reader (`tests.support.camera`).
"""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from tests.support.camera import Asks, photo, seen, send, who_played
from tests.support.records import play
from tests.support.web import PLAYERS, Table

TITLE = "Friday at Rosa's"


@pytest.fixture
def titled(cam) -> Table:
    """A `partners` match with a title, on the app whose reader is scripted, its hand started."""
    made = cam.client.post("/api/games", json={"variant": "partners", "players": PLAYERS, "title": TITLE})
    assert made.status_code == 201
    t = Table(cam.client, made.get_json())
    assert t.post("/hands", {}).status_code == 201
    return t


def frames_of(t: Table) -> list[dict]:
    return t.get("/frames", headers=t.auth).get_json()["frames"]


def history_of(t: Table) -> list[dict]:
    return t.get("/history", headers=t.auth).get_json()["changes"]


def imported(t: Table, data: bytes) -> Table:
    response = t.client.post("/api/games", data=data, content_type="application/zip", headers={"X-Spinner-Who": "Eve"})
    assert response.status_code == 201, response.get_json()
    return Table(t.client, response.get_json())


def disputed_match(t: Table, script, monkeypatch) -> dict[str, int]:
    """Photos and the pad, a correction, two disputes (one settled), a question the record moved
    past and a play from a photo taken back: the frame ids by what became of them."""
    asks = Asks().install(monkeypatch)  # what the follower makes of a photo, where queued
    script.readings += [seen("6-6"), seen("6-6", "6-3"), seen("6-6", "6-3", "3-4")]
    lead = send(t, photo(), "?seat=0").get_json()
    first, second = send(t, photo()).get_json(), send(t, photo()).get_json()
    assert (lead["status"], first["status"], second["status"]) == ("recorded", "kept", "kept")
    # Ben passed: Cruz laid 6-3, Dee 3-4
    assert t.post(f"/frames/{second['id']}/accept", {"passes": [[0, 2]], "who": "Ana"}).status_code == 200
    fixed = t.client.put(
        f"/api/games/{t.id}/hands/0/events/2",
        json={"event": play(3, "3-5", "west"), "why": "Dee laid 3-5", "who": "Ben"},
        headers=t.auth,
    )
    assert fixed.status_code == 200, fixed.get_json()
    assert t.post("/disputes", {"hand": 0, "event": 1, "why": "Cruz says Ben laid 6-3", "who": "Cruz"}).status_code
    opened = t.post("/disputes", {"hand": 0, "event": 0, "why": "was it the lead?", "who": "Dee"}).get_json()
    assert t.post(f"/disputes/{opened['version']}/settle", {"why": "it stands", "who": "Ana"}).status_code == 200
    asks.outcomes.append(who_played("1-5", [0], "west"))
    asked = send(t, photo()).get_json()
    assert asked["status"] == "confirm"
    assert t.event(play(0, "6-1", "east")).status_code == 201  # scored on the pad: the question is past
    from vision.follow.follower import Outcome

    asks.outcomes.append(Outcome("play", "seen", events=[play(1, "1-1", "east")], where=[(0, 4)]))
    undone = send(t, photo()).get_json()
    assert undone["status"] == "recorded" and undone["event"] == 4
    assert t.post("/undo", {"why": "1-1 was never laid", "who": "Ana"}).status_code == 200
    return {
        "lead": lead["id"],
        "first": first["id"],
        "second": second["id"],
        "asked": asked["id"],
        "undone": undone["id"],
    }


def test_an_archive_keeps_the_history_the_disputes_the_statuses_and_the_title(titled, script, monkeypatch):
    ids = disputed_match(titled, script, monkeypatch)
    frames = {f["id"]: f for f in frames_of(titled)}
    assert [frames[ids[k]]["status"] for k in ("lead", "first", "second", "asked", "undone")] == [
        "recorded",
        "accepted",
        "accepted",
        "superseded",
        "recorded",
    ]
    assert frames[ids["second"]]["link"]["state"] == "corrected"
    assert frames[ids["undone"]]["link"]["state"] == "taken back"
    exported = titled.get("/export", headers=titled.auth).data
    copy = imported(titled, exported)

    assert copy.record() == titled.record()
    assert copy.get("", headers=copy.auth).get_json()["title"] == TITLE
    before, after = history_of(titled), history_of(copy)
    assert after[:-1] == before  # who changed what, when and why: every change as it was
    assert after[-1]["action"] == "import" and after[-1]["who"] == "Eve"
    assert after[-1]["version"] == before[-1]["version"] + 1 == copy.version()
    keys = ("hand", "event", "link", "status", "message", "who")
    assert [{k: f[k] for k in keys} for f in frames_of(copy)] == [{k: f[k] for k in keys} for f in frames.values()]

    # the dispute left open is open in the copy, and settled there with a correction
    copy.client.get(f"/g/{copy.id}/join?key={copy.token}")  # the scorer's page: it settles disputes
    replay = copy.client.get(f"/g/{copy.id}/hands/0/replay").text
    assert "Disputed: play 2" in replay and "Cruz says Ben laid 6-3" in replay and "Disputed: play 1" not in replay
    still = next(c for c in after if c["action"] == "dispute" and c["event"] == 1)
    settled = copy.post(
        f"/disputes/{still['version']}/settle", {"event": play(1, "3-6", "west"), "why": "Ben laid it", "who": "Eve"}
    )
    assert settled.status_code == 200, settled.get_json()
    assert copy.record()["hands"][0]["events"][1] == play(1, "3-6", "west")
    first = next(f for f in frames_of(copy) if f["message"] == frames[ids["first"]]["message"])
    assert first["event"] == 1 and first["link"]["state"] == "corrected"

    # the history page shows the changes; the record before the import is not kept, said so
    page = copy.client.get(f"/g/{copy.id}/history").text
    assert "Dee laid 3-5" in page and "1-1 was never laid" in page and "Cruz says Ben laid 6-3" in page
    gone = copy.get("/record?version=3", headers=copy.auth)
    assert gone.status_code == 404 and "imported at version" in gone.get_json()["error"]
    assert copy.get(f"/record?version={after[-1]['version']}", headers=copy.auth).status_code == 200


def test_plays_kept_to_confirm_stay_kept_and_are_answered_in_the_copy(titled, script):
    assert titled.event(play(0, "6-6")).status_code == 201
    script.readings += [seen("6-6", "6-3"), seen("6-6", "6-3", "3-4")]
    sent = [send(titled, photo()).get_json(), send(titled, photo()).get_json()]
    assert [f["status"] for f in sent] == ["kept", "kept"]
    copy = imported(titled, titled.get("/export", headers=titled.auth).data)
    kept = frames_of(copy)
    assert [f["status"] for f in kept] == ["kept", "kept"]
    refused = copy.event(play(1, "6-2", "east"))
    assert refused.status_code == 409 and refused.get_json()["code"] == "kept_open"
    assert copy.post(f"/frames/{kept[1]['id']}/accept", {"passes": [[0, 2]]}).status_code == 200
    assert copy.record()["hands"][0]["events"] == [play(0, "6-6"), play(2, "3-6", "west"), play(3, "3-4", "west")]
    assert [f["event"] for f in frames_of(copy)] == [1, 2]


def test_an_archive_without_its_history_still_imports(titled, script, monkeypatch):
    ids = disputed_match(titled, script, monkeypatch)
    members = {}
    with zipfile.ZipFile(io.BytesIO(titled.get("/export", headers=titled.auth).data)) as archive:
        for name in archive.namelist():
            members[name] = archive.read(name)
    listing = json.loads(members.pop("frames.json"))
    for entry in listing["frames"]:  # as Spinner wrote them before links and versions travelled
        entry.pop("link"), entry.pop("version")
    del members["match.json"]
    # the lead's photo tied to the next play, as an undo or a removal used to leave it
    lead = next(entry for entry in listing["frames"] if entry["file"].startswith(f"frames/{ids['lead']}."))
    lead["event"] = 1
    copy = imported(titled, zipped({**members, "frames.json": json.dumps(listing).encode()}))
    assert copy.record() == titled.record()
    assert [c["action"] for c in history_of(copy)] == ["import"] and copy.version() == 1
    statuses = {f["message"]: f["status"] for f in frames_of(copy)}
    assert statuses == {f["message"]: f["status"] for f in frames_of(titled)}
    tied = frames_of(copy)[0]
    assert tied["event"] is None and (tied["link"]["action"], tied["link"]["event"]) == ("import", 1)
    page = copy.client.get(f"/g/{copy.id}/hands/0/replay?at=1").text
    assert "tied it to play 2, another play: the play it made is not known" in page and 'id="frame-made"' not in page


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _changed(members: dict[str, bytes], name: str, change) -> dict[str, bytes]:  # type: ignore[no-untyped-def]
    data = json.loads(members[name])
    change(data)
    return {**members, name: json.dumps(data).encode()}


def _set(path: list, value):  # type: ignore[no-untyped-def]
    def change(data):  # type: ignore[no-untyped-def]
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return change


@pytest.mark.parametrize(
    "name, change, status, words",
    [
        ("match.json", _set(["format"], "spinner-match/9"), 400, "is not a spinner-match/1 title and history"),
        ("match.json", _set(["title"], "x" * 121), 400, "title is text of at most 120 characters"),
        ("match.json", _set(["history"], {"a": 1}), 400, "history is a list of changes"),
        ("match.json", _set(["history", 1, "version"], 1), 400, "history[1]: version 1 after version 1"),
        ("match.json", _set(["history", 1, "version"], 2**40), 400, "history[1]: version"),
        ("match.json", _set(["history", 2, "action"], "launch"), 400, "'launch' is no change of a match"),
        ("match.json", _set(["history", 2, "who"], "w" * 61), 400, "history[2]: who"),
        ("match.json", _set(["history", 2, "hand"], "0"), 400, "history[2]: hand"),
        ("match.json", _set(["history", 2, "after"], {"type": "play", "tile": "six"}), 400, "history[2].after"),
        ("match.json", _set(["history", 2, "after"], {"seat": 0}), 400, "history[2].after"),
        ("match.json", _set(["history", 2, "before"], [1, 2]), 400, "history[2]: before"),
        ("match.json", _set(["history", 2, "at"], "2026-11-27T10:00:00"), 400, "is not a time with its time zone"),
        ("match.json", _set(["history", 2, "at"], "0001-01-01T00:00:00+00:00"), 400, "between 1970 and 9000"),
        ("match.json", _set(["history", 2, "source"], "moon"), 400, "history[2]: source"),
        ("frames.json", _set(["frames", 0, "status"], "hacked"), 400, "'hacked' is no status of a frame"),
        ("frames.json", _set(["frames", 0, "link"], {"state": "gone"}), 400, "frame 0 in frames.json: link"),
        (
            "frames.json",
            _set(["frames", 0, "link"], {"state": "taken back", "action": "undo", "version": 2, "event": 0}),
            400,
            "its play was taken back, and it names event 0",
        ),
    ],
)
def test_a_bad_history_or_frame_status_is_refused_and_nothing_is_kept(titled, script, name, change, status, words):
    script.readings += [seen("6-6"), seen("6-6", "6-3")]
    send(titled, photo(), "?seat=0")
    assert titled.event(play(1, "6-2", "east")).status_code == 201
    with zipfile.ZipFile(io.BytesIO(titled.get("/export", headers=titled.auth).data)) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    assert json.loads(members["match.json"])["history"][2]["action"] == "event"
    listed = len(titled.client.get("/api/games").get_json()["games"])
    response = titled.client.post(
        "/api/games", data=zipped(_changed(members, name, change)), content_type="application/zip"
    )
    assert response.status_code == status, response.get_json()
    assert words in response.get_json()["error"]
    assert len(titled.client.get("/api/games").get_json()["games"]) == listed


def test_a_settle_must_name_an_earlier_dispute(titled):
    assert titled.event(play(0, "6-6")).status_code == 201
    opened = titled.post("/disputes", {"hand": 0, "event": 0, "why": "check"}).get_json()
    assert titled.post(f"/disputes/{opened['version']}/settle", {"why": "fine"}).status_code == 200
    with zipfile.ZipFile(io.BytesIO(titled.get("/export", headers=titled.auth).data)) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    history = json.loads(members["match.json"])["history"]
    at = next(i for i, c in enumerate(history) if c["action"] == "settle")
    for settles in ({}, {"settles": 99}, {"settles": "3"}):
        bad = _changed(members, "match.json", _set(["history", at, "after"], settles))
        response = titled.client.post("/api/games", data=zipped(bad), content_type="application/zip")
        assert response.status_code == 400 and "after.settles" in response.get_json()["error"]


def test_the_history_page_of_an_import_says_the_record_before_it_is_not_kept(titled):
    assert titled.event(play(0, "6-6")).status_code == 201
    copy = imported(titled, titled.get("/export", headers=titled.auth).data)
    page = copy.client.get(f"/g/{copy.id}/history").text
    links = re.findall(r'class="then" href="[^"]*version=(\d+)"', page)
    assert links == [str(copy.version())]  # the import's own: the versions before it are not kept
    assert "before the import: its record is not kept" in page


def test_an_older_watch_archive_is_refused_saying_what_it_is(titled):
    record = json.dumps({"variant": "partners", "players": PLAYERS, "hands": []}).encode()
    old = zipped({"match-1/record.json": record, "match-1/index.json": b"[]", "match-1/frames/0000.jpg": photo()})
    response = titled.client.post("/api/games", data=old, content_type="application/zip")
    assert response.status_code == 400
    assert "older `spinner watch --export`" in response.get_json()["error"]
    assert "import its record.json by itself" in response.get_json()["error"]


def _png_header(width: int, height: int) -> bytes:
    """A PNG's signature and header chunk only: what the size is read from, no pixels after it."""
    import struct
    import zlib

    body = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + body + struct.pack(">I", zlib.crc32(body))


def test_an_archive_of_more_pixels_than_an_import_takes_is_refused_before_any_photo_decodes(titled, monkeypatch):
    """A 50-megapixel PNG of one colour zips to 741 bytes and takes the server half a second to
    decode: 3,500 of them in a 2.6 MB ZIP were 30-45 minutes of CPU. The headers are summed first."""
    from webapp import archive, camera

    decoded: list[str] = []
    monkeypatch.setattr(camera, "check", lambda data, name: decoded.append(name))
    many = 1 + archive.MAX_IMPORT_PIXELS // (8192 * 6144)  # one more than the budget holds at 50 MP
    assert many >= 200  # hundreds of phone photos at the most a photo may have still import
    big = _png_header(8192, 6144)
    members = {"record.json": json.dumps({"variant": "all-fives", "players": ["A", "B"], "hands": []}).encode()}
    members |= {f"frames/{i}.png": big for i in range(many)}
    listing = {"format": "spinner-frames/1", "frames": [{"file": f"frames/{i}.png"} for i in range(many)]}
    members["frames.json"] = json.dumps(listing).encode()
    listed = len(titled.client.get("/api/games").get_json()["games"])
    response = titled.client.post("/api/games", data=zipped(members), content_type="application/zip")
    assert response.status_code == 413, response.get_json()
    assert "at most 10 gigapixels per import" in response.get_json()["error"]
    assert decoded == []
    assert len(titled.client.get("/api/games").get_json()["games"]) == listed
    # one fewer fits the budget: then each photo is decoded (this one is no photo: refused there)
    del members[f"frames/{many - 1}.png"]
    listing["frames"].pop()
    members["frames.json"] = json.dumps(listing).encode()
    response = titled.client.post("/api/games", data=zipped(members), content_type="application/zip")
    assert response.status_code == 201, response.get_json()
    assert len(decoded) == many - 1


def test_an_archive_of_heic_photos_imports_them_as_jpegs_and_refuses_one_cut_short(titled):
    import numpy as np

    from tests.support.heic import heic

    stored = np.full((48, 64, 3), 90, np.uint8)
    stored[:12, :16] = 250
    photo_data = heic(stored, 6)
    record = json.dumps({"variant": "all-fives", "players": ["A", "B"], "hands": []}).encode()
    listing = {"format": "spinner-frames/1", "frames": [{"file": "frames/1.heic", "width": 48, "height": 64}]}
    members = {"record.json": record, "frames.json": json.dumps(listing).encode(), "frames/1.heic": photo_data}
    copy = imported(titled, zipped(members))
    (frame,) = frames_of(copy)
    kept = copy.client.get(frame["image"])
    assert kept.mimetype == "image/jpeg" and kept.data[:3] == b"\xff\xd8\xff"
    import cv2

    image = cv2.imdecode(np.frombuffer(kept.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (64, 48, 3) and image[:16, -12:].mean() > 200  # upright, turned once
    listed = len(titled.client.get("/api/games").get_json()["games"])
    members["frames/1.heic"] = photo_data[: len(photo_data) // 2]
    response = titled.client.post("/api/games", data=zipped(members), content_type="application/zip")
    assert response.status_code == 415 and "frames/1.heic is cut short or damaged" in response.get_json()["error"]
    assert len(titled.client.get("/api/games").get_json()["games"]) == listed


def test_an_archive_photo_is_kept_and_served_as_what_its_content_is_not_its_name(titled):
    import cv2
    import numpy as np

    pixels = np.full((48, 64, 3), 90, np.uint8)
    jpeg = cv2.imencode(".jpg", pixels)[1].tobytes()
    png = cv2.imencode(".png", pixels)[1].tobytes()
    record = json.dumps({"variant": "all-fives", "players": ["A", "B"], "hands": []}).encode()
    misnamed = {"frames/1.heic": jpeg, "frames/2.heif": png, "frames/3.jpg": png, "frames/4.png": jpeg}
    listing = {"format": "spinner-frames/1", "frames": [{"file": n} for n in misnamed]}
    copy = imported(titled, zipped({"record.json": record, "frames.json": json.dumps(listing).encode(), **misnamed}))
    served = [copy.client.get(frame["image"]) for frame in frames_of(copy)]
    assert [(r.mimetype, r.data) for r in served] == [
        ("image/jpeg", jpeg),
        ("image/png", png),
        ("image/png", png),
        ("image/jpeg", jpeg),
    ]
