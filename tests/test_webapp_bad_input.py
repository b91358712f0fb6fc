"""Bad input, as an attacker or a careless client sends it: a clear 4xx naming the problem, never a
500, and nothing of it recorded (issue 37)."""

from __future__ import annotations

import io
import json
import sqlite3
import struct
import zipfile
import zlib

import pytest

from tests.support.camera import photo, send
from tests.support.records import play, record
from tests.support.web import PLAYERS, Table, app_on_fresh_sqlite


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def games(client) -> list:
    return client.get("/api/games").get_json()["games"]


# -- JSON that Python's parser takes and the server could not ---------------------------------


@pytest.mark.parametrize(
    "raw, words",
    [
        ('{"variant": "partners", "players": ' + nested(5000) + "}", "nests"),
        ('{"variant": "partners", "players": ' + nested(40) + "}", "nests"),
        (
            '{"variant": "partners", "players": ["A","B","C","D"], "options": {"target": ' + "9" * 5000 + "}}",
            "too large",
        ),
        ('{"variant": "partners", "players": ["A","B","C","D"], "options": {"target": NaN}}', "NaN is not JSON"),
        ('{"variant": "partners", "players": ["A","B","C","D"], "options": {"target": 1e999}}', "out of range"),
    ],
)
def test_json_past_any_record_is_refused(client, raw, words):
    response = client.post("/api/games", data=raw, content_type="application/json")
    assert response.status_code == 400 and words in response.get_json()["error"], response.get_json()
    assert games(client) == []


def test_half_a_character_is_refused_and_the_match_still_shows(client, table):
    """JSON may escape half of a UTF-16 pair alone ("\\ud800"); no UTF-8 holds it, and one kept in a
    reason made the match's page, history, record and export answer 500 from then on."""
    raw = '{"type": "adjust", "team": 0, "points": 5, "reason": "agreed \\ud800"}'
    response = table.post("/events", data=raw, content_type="application/json")
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["field"] == "reason" and "half a character" in response.get_json()["error"]
    raw = '{"variant": "partners", "players": ["Ana", "\\udfffBen", "Cruz", "Dee"]}'
    response = client.post("/api/games", data=raw, content_type="application/json")
    assert response.status_code == 400 and "players[1] holds half a character" in response.get_json()["error"]
    assert table.version() == 2 and len(games(client)) == 1
    for url in (f"/api/games/{table.id}/record", f"/api/games/{table.id}/export", f"/g/{table.id}/history"):
        assert client.get(url, headers=table.auth).status_code == 200, url
    whole = table.event({"type": "adjust", "team": 0, "points": 5, "reason": "\U0001f600 agreed"})  # a pair is fine
    assert whole.status_code == 201 and whole.get_json()["change"]["after"]["reason"] == "\U0001f600 agreed"


def test_a_key_given_twice_is_refused_naming_it(client, table):
    """Python keeps the last of two equal keys, other JSON readers the first: a record stored with
    players C and D was, to them, a record of A and B. A key given twice is refused, naming it."""
    raw = '{"variant": "partners", "players": ["A","B","C","D"], "players": ["E","F","G","H"]}'
    response = client.post("/api/games", data=raw, content_type="application/json")
    assert response.status_code == 400, response.get_json()
    assert (
        response.get_json()["error"] == "the body: the key 'players' is given twice in one object: give each key once"
    )
    raw = '{"type": "play", "seat": 0, "tile": "6-6", "tile": "5-5"}'
    response = table.post("/events", data=raw, content_type="application/json")
    assert response.status_code == 400 and "the key 'tile' is given twice" in response.get_json()["error"]
    assert table.version() == 2 and len(games(client)) == 1


def test_json_in_utf_8_is_read_with_or_without_its_byte_order_mark_and_nothing_else(client):
    """The web read UTF-16 (and a body or record.json with a byte order mark) where `spinner score`
    refused them: both read UTF-8, with or without the mark, and name any other encoding."""
    spec = json.dumps({"variant": "partners", "players": ["José", "Ben", "Cruz", "Dee"]}, ensure_ascii=False)
    made = client.post("/api/games", data=spec.encode("utf-8-sig"), content_type="application/json")
    assert made.status_code == 201, made.get_json()
    for encoding, words in (("utf-16", "the body is in UTF-16"), ("latin-1", "the body is not text in UTF-8")):
        response = client.post("/api/games", data=spec.encode(encoding), content_type="application/json")
        assert response.status_code == 400 and response.get_json()["error"].startswith(words), response.get_json()
    for encoding, status in (("utf-8-sig", 201), ("utf-16", 400)):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("record.json", spec.encode(encoding))
        response = client.post("/api/games", data=out.getvalue(), content_type="application/zip")
        assert response.status_code == status, response.get_json()
    assert "record.json is in UTF-16" in response.get_json()["error"]
    assert len(games(client)) == 2


def test_a_name_or_reason_too_long_is_refused_not_cut_short(client, table):
    """A name or a reason longer than the match keeps was cut short without a word: the match then
    showed another name than the one sent. Now it is refused, and one as long as allowed is kept whole."""
    long_name = "Ana María de los Ángeles Fernández-Villanueva"  # 46 characters
    response = client.post("/api/games", json={"variant": "partners", "players": ["Ben", long_name, "Cruz", "Dee"]})
    assert response.status_code == 400 and "players[1]" in response.get_json()["error"]
    assert "40" in response.get_json()["error"]
    kept = client.post("/api/games", json={"variant": "partners", "players": ["Ben", long_name[:40], "Cruz", "Dee"]})
    assert kept.status_code == 201
    record = client.get(
        f"/api/games/{kept.get_json()['id']}/record", headers={"Authorization": f"Bearer {kept.get_json()['token']}"}
    )
    assert record.get_json()["players"][1] == long_name[:40]
    reason = "agreed at the table after a long talk " * 20  # 760 characters: kept whole
    whole = table.event({"type": "adjust", "team": 0, "points": 5, "reason": reason})
    assert whole.status_code == 201 and whole.get_json()["change"]["after"]["reason"] == reason.strip()
    too_long = table.event({"type": "adjust", "team": 0, "points": 5, "reason": "x" * 1001})
    assert too_long.status_code == 400 and too_long.get_json()["field"] == "reason"


@pytest.mark.parametrize(
    "spec, field",
    [
        ({"variant": ["partners"], "players": PLAYERS}, "variant"),
        ({"variant": "partners", "players": PLAYERS, "options": "x"}, "options"),
        ({"variant": "partners", "players": PLAYERS, "options": {"target": 10**30}}, "too large"),
        ({"variant": "partners", "players": PLAYERS, "hands": [{"events": [[1]]}]}, "hands[0].events[0]"),
        ({"variant": "partners", "players": PLAYERS, "hands": [{"events": [{"type": []}]}]}, "hands[0].events[0].type"),
        ({"variant": "partners", "players": PLAYERS, "hands": [{"events": [play(0, "６-６")]}]}, "ASCII digits"),
        ({"variant": "partners", "players": PLAYERS, "hands": "x"}, "hands"),
    ],
)
def test_a_record_of_the_wrong_shape_names_its_field(client, spec, field):
    response = (
        client.post("/api/games", json=spec)
        if "too large" not in field
        else client.post("/api/games", data=json.dumps(spec), content_type="application/json")
    )
    assert response.status_code == 400, response.get_json()
    assert field in response.get_json()["error"] or "digits" in response.get_json()["error"], response.get_json()
    assert games(client) == []


@pytest.mark.parametrize(
    "event, words",
    [
        ({"type": []}, "type"),
        ({"type": {}}, "type"),
        ({"type": "play", "seat": 0, "tile": "５-６"}, "ASCII digits"),
        ({"type": "play", "seat": 0, "tile": " 6-6"}, "ASCII digits"),
        ({"type": "adjust", "team": 0, "points": 10**6, "reason": "x"}, "10000 points"),
        ({"type": "play", "seat": "0", "tile": "6-6"}, "seat"),
    ],
)
def test_an_event_of_the_wrong_shape_is_refused(table, event, words):
    response = table.event(event)
    assert response.status_code == 400 and words in response.get_json()["error"], response.get_json()
    assert table.version() == 2 and table.record()["hands"][0]["events"] == []


def test_an_adjustment_of_ten_to_the_400_is_refused(table):
    raw = '{"type": "adjust", "team": 0, "points": 1' + "0" * 400 + ', "reason": "x"}'
    response = table.post("/events", data=raw, content_type="application/json")
    assert response.status_code == 400 and "too large" in response.get_json()["error"]
    assert table.version() == 2


def test_a_new_hand_of_the_wrong_shape_is_refused(table):
    for body in ({"leader": "0"}, {"deal": "x"}, {"deal": [["６-６"]]}):
        response = table.post("/hands", body)
        assert response.status_code == 400, response.get_json()
    assert table.version() == 2


# -- numbers in headers, queries and paths ---------------------------------------------------------


def test_unicode_digits_and_huge_numbers_are_refused(table):
    assert table.event(play(0, "6-6"), headers={"If-Match": '"²"'}).status_code == 400
    assert table.event(play(0, "6-6"), headers={"If-Match": '"' + "9" * 30 + '"'}).status_code == 400
    big = str(2**64)
    assert table.get(f"/frames/{big}").status_code == 404
    assert table.get(f"/frames/{big}/image").status_code == 404
    assert table.get(f"/frames?hand={big}").status_code == 400
    assert table.get("/frames?hand=²").status_code == 400
    assert table.get(f"/record?version={big}").status_code == 400
    assert (
        table.client.delete(
            f"/api/games/{table.id}/hands/{big}/events/0", headers=table.auth, json={"why": "x"}
        ).status_code
        == 404
    )
    response = send(table, photo(), "?seat=²")
    assert response.status_code == 400 and "seat" in response.get_json()["error"]
    assert table.version() == 2


def test_a_wrong_key_is_forbidden_and_no_key_asks_for_one(client):
    created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS, "private": True}).get_json()
    url = f"/api/games/{created['id']}/score"
    assert client.get(url).status_code == 401
    assert client.get(f"{url}?key=wrong").status_code == 403


# -- photos ----------------------------------------------------------------------------------------


def png_claiming(width: int, height: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    ihdr = struct.pack(">I", 13) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))
    idat_data = zlib.compress(b"\x00" * 64)
    idat = struct.pack(">I", len(idat_data)) + b"IDAT" + idat_data + struct.pack(">I", zlib.crc32(b"IDAT" + idat_data))
    return b"\x89PNG\r\n\x1a\n" + ihdr + idat + struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))


def frame_count(table: Table) -> int:
    return len(table.get("/frames").get_json()["frames"])


def test_a_photo_whose_header_claims_60000_by_60000_is_refused_unread(table):
    response = send(table, png_claiming(60000, 60000))
    assert response.status_code == 413 and "60000x60000" in response.get_json()["error"]
    assert frame_count(table) == 0


def test_a_live_capture_is_held_to_its_size_before_it_is_decoded(cam):
    """The live camera's two small captures (`before`, `now`): a header claiming more than a
    megapixel is refused unread (a 400 KB PNG may inflate to 400 MB), and a 1x1 capture as too small."""

    def live(capture: bytes):
        files = {"photo": (io.BytesIO(photo()), "frame.jpg")}
        files |= {name: (io.BytesIO(capture), f"{name}.png") for name in ("before", "now")}
        return cam.post("/frames?source=camera&wait=0", data=files, content_type="multipart/form-data")

    response = live(png_claiming(2000, 2000))
    assert response.status_code == 413 and "'before' says it is 2000x2000" in response.get_json()["error"]
    response = live(photo(1, 1, ".png"))
    assert (
        response.status_code == 422 and "the capture 'before' is 1x1 pixels: too small" in response.get_json()["error"]
    )
    assert frame_count(cam) == 0 and cam.version() == 2


def test_a_form_of_too_many_parts_is_refused_for_its_parts_not_its_size(table):
    """Werkzeug refuses a form past 1,000 parts with the 413 of a body too large: a 60 KB upload
    was told "the upload is too large: at most 8 MB"."""
    files = {f"x{n}": (io.BytesIO(b"x"), "x.jpg") for n in range(1200)}
    response = table.post("/frames", data={"photo": (io.BytesIO(photo()), "a.jpg"), **files})
    error = response.get_json()["error"]
    assert response.status_code == 413 and error.startswith("the form has too many parts or too long a field")
    assert "at most 1000 parts" in error and "8 MB" not in error
    assert frame_count(table) == 0


@pytest.mark.parametrize("size", [(1, 1), (4, 300), (15, 15)])
def test_a_photo_too_small_to_show_a_tile_says_so(table, size):
    response = send(table, photo(*size, ".png"))
    assert response.status_code == 422, response.get_json()
    assert f"is {size[0]}x{size[1]} pixels: too small to show a tile" in response.get_json()["error"]
    assert frame_count(table) == 0


def test_a_chunked_photo_over_the_limit_is_refused_and_not_kept(tmp_path):
    import http.client
    from urllib.parse import urlsplit

    from tests.support.servers import start

    server, running = start(tmp_path, threads=8, SPINNER_READER=lambda variant: None)
    try:
        client = running.app.test_client()
        t = Table(client, client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json())
        assert t.post("/hands", {}).status_code == 201
        running.app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
        # Far past the limit: the client is still sending when the server refuses it.
        big = photo(900, 700, ".png") + b"\0" * (2 * 1024 * 1024)
        address = urlsplit(running.url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        # No Content-Length: the body arrives chunked, its length known only once read.
        connection.request(
            "POST",
            f"/api/games/{t.id}/frames?wait=0",
            body=iter([big[i : i + 8192] for i in range(0, len(big), 8192)]),
            headers={**t.auth, "Content-Type": "image/png"},
            encode_chunked=True,
        )
        response = connection.getresponse()
        assert response.status == 413, response.read()
        connection.close()
        assert frame_count(t) == 0
    finally:
        server.stop()


# -- archives --------------------------------------------------------------------------------------

RECORD = json.dumps(record("partners", {"events": [play(0, "6-6")]})).encode()


def zipped(members: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    import warnings

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of a duplicate name it was told to write
        for name, data in members:
            archive.writestr(name, data)
    return out.getvalue()


def patched(data: bytes, find: bytes, replace: bytes, count: int = -1) -> bytes:
    assert find in data
    return data.replace(find, replace, count)


def local_and_central(data: bytes, offset_in_header: int, value: bytes) -> bytes:
    """Set a field in every local header (PK\\3\\4) and the same field of the central directory (PK\\1\\2)."""
    out = bytearray(data)
    i = out.find(b"PK\x03\x04")
    while i >= 0:
        out[i + offset_in_header : i + offset_in_header + len(value)] = value
        i = out.find(b"PK\x03\x04", i + 4)
    i = out.find(b"PK\x01\x02")
    while i >= 0:
        out[i + offset_in_header + 2 : i + offset_in_header + 2 + len(value)] = value
        i = out.find(b"PK\x01\x02", i + 4)
    return bytes(out)


def bad_crc() -> bytes:
    data = bytearray(zipped([("record.json", RECORD)]))
    # the CRC in the local header (offset 14) and in the central directory (offset 16)
    crc = struct.pack("<I", zlib.crc32(RECORD))
    assert data.count(crc) == 2
    return bytes(data).replace(crc, struct.pack("<I", zlib.crc32(RECORD) ^ 1))


def corrupt_stream() -> bytes:
    data = zipped([("record.json", RECORD * 20)])
    start = data.find(b"record.json") + len("record.json")
    middle = start + 20
    return data[:middle] + bytes(b ^ 0x55 for b in data[middle : middle + 30]) + data[middle + 30 :]


def lying_size(size: int) -> bytes:
    data = zipped([("record.json", RECORD)])
    # uncompressed size: offset 22 in a local header, 24 in a central one
    return local_and_central(data, 22, struct.pack("<I", size))


def bomb(size: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("record.json", "w", force_zip64=True) as member:
            member.write(b'{"variant": "partners", "players": ["A", "B", "C", "D"], "title": "')
            block = b" " * (1024 * 1024)
            for _ in range(size // len(block)):
                member.write(block)
            member.write(b'"}')
    return out.getvalue()


def frames_json(*names: str) -> bytes:
    return json.dumps({"format": "spinner-frames/1", "frames": [{"file": n, "hand": 0} for n in names]}).encode()


ARCHIVES = {
    "bad CRC": (bad_crc(), 400, "damaged"),
    "encrypted": (local_and_central(zipped([("record.json", RECORD)]), 6, b"\x01\x00"), 400, "encrypted"),
    "deflate64": (local_and_central(zipped([("record.json", RECORD)]), 8, b"\x09\x00"), 400, "method 9"),
    "bzip2": (zipped([("record.json", RECORD)], zipfile.ZIP_BZIP2), 400, "method 12"),
    "corrupt stream": (corrupt_stream(), 400, "damaged"),
    "size too small": (lying_size(10), 400, "damaged"),
    "size too large": (lying_size(len(RECORD) + 1000), 400, "damaged"),
    "bomb": (bomb(40 * 1024 * 1024), 413, "record.json unpacks to"),
    "NaN": (zipped([("record.json", RECORD.replace(b'"options": {}', b'"options": {"target": NaN}'))]), 400, "NaN"),
    "deep": (
        zipped([("record.json", RECORD.replace(b'"options": {}', b'"options": ' + nested(3000).encode()))]),
        400,
        "nests",
    ),
    "huge integer": (
        zipped([("record.json", RECORD.replace(b'"options": {}', b'"options": {"target": ' + b"7" * 5000 + b"}"))]),
        400,
        "too large",
    ),
    "a list as an event": (
        zipped([("record.json", RECORD.replace(b'"events": [', b'"events": [[1], '))]),
        400,
        "hands[0].events[0]",
    ),
    "twice the same member": (zipped([("record.json", RECORD), ("record.json", RECORD)]), 400, "twice"),
    "one photo named twice": (
        zipped(
            [
                ("record.json", RECORD),
                ("frames.json", frames_json("frames/1.jpg", "frames/1.jpg")),
                ("frames/1.jpg", photo()),
            ]
        ),
        400,
        "which an earlier frame names",
    ),
    "a photo claiming 60000x60000": (
        zipped(
            [
                ("record.json", RECORD),
                ("frames.json", frames_json("frames/1.png")),
                ("frames/1.png", png_claiming(60000, 60000)),
            ]
        ),
        413,
        "60000x60000",
    ),
}


@pytest.mark.parametrize("case", list(ARCHIVES))
def test_a_bad_archive_is_refused_and_nothing_is_kept(app, client, case):
    data, status, words = ARCHIVES[case]
    response = client.post("/api/games", data=data, content_type="application/zip")
    assert response.status_code == status and words in response.get_json()["error"], response.get_json()
    assert games(client) == []
    frames = app.config["SPINNER_DATA"] / "frames"
    assert not frames.exists() or not any(frames.rglob("*.*"))


def directory_only(names: int) -> bytes:
    """A ZIP that is only a central directory of `names` empty members: 62 bytes a name, no data."""
    entries = b"".join(
        struct.pack("<4s4H2H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(n), 0, 0, 0, 0, 0, 0) + n
        for n in (b"frames/%d.jpg" % i for i in range(names))
    )
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, len(entries), 0, 0)
    return entries + end


def test_a_directory_of_names_past_the_count_is_refused_unread(app, client, monkeypatch):
    """zipfile holds each entry of the directory as an object before anything counts them: a 63 MB
    directory of a million names took 500 MB and 14 s to refuse. Its size is measured first now."""
    import webapp.safezip

    class Unread:
        def __init__(self, *args):
            raise AssertionError("zipfile read the directory")

    monkeypatch.setattr(webapp.safezip.zipfile, "ZipFile", Unread)
    data = directory_only(50_000)
    response = client.post("/api/games", data=data, content_type="application/zip")
    assert response.status_code == 413
    listing = len(data) - 22  # all but the end record
    assert response.get_json()["error"] == f"the archive's list of files is {listing} bytes: at most 5003 files"
    assert games(client) == []


def test_a_good_archive_still_comes_in_with_its_photo(client):
    data = zipped([("record.json", RECORD), ("frames.json", frames_json("frames/1.jpg")), ("frames/1.jpg", photo())])
    response = client.post("/api/games", data=data, content_type="application/zip")
    assert response.status_code == 201, response.get_json()
    t = Table(client, response.get_json())
    assert [f["hand"] for f in t.get("/frames").get_json()["frames"]] == [0]
    assert t.client.get(t.get("/frames").get_json()["frames"][0]["image"]).data == photo()


def test_an_export_is_sent_from_disk_not_held_in_memory(client, tmp_path):
    """Each request for a match's archive built the whole of it in memory: a match
    imported with 256 MB of photos held as much per request, any number of requests at once."""
    import tracemalloc

    import cv2
    import numpy as np

    noise = np.random.default_rng(5).integers(0, 256, (1200, 1600, 3), dtype=np.uint8)
    big = cv2.imencode(".jpg", noise, [cv2.IMWRITE_JPEG_QUALITY, 100])[1].tobytes()  # 3-4 MB
    names = [f"frames/{k}.jpg" for k in range(1, 4)]
    data = zipped([("record.json", RECORD), ("frames.json", frames_json(*names)), *[(n, big) for n in names]])
    created = client.post("/api/games", data=data, content_type="application/zip").get_json()
    sent = tmp_path / "sent.zip"
    tracemalloc.start()
    try:
        response = client.get(f"/api/games/{created['id']}/export")
        with sent.open("wb") as out:  # a piece at a time, as a server sends it
            for piece in response.response:
                out.write(piece)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        response.close()
    assert response.content_length == sent.stat().st_size > 3 * len(big)
    assert peak < len(big), f"{peak} bytes held to send {sent.stat().st_size}"
    with zipfile.ZipFile(sent) as archive:
        assert [archive.read(n) for n in sorted(archive.namelist()) if n.startswith("frames/")] == [big] * 3


def test_an_archive_whose_readings_are_strange_still_replays(client):
    """frames.json keeps each frame's reading and proposal as the archive says: the replay draws
    what is a tile outline and leaves the rest out, and a proposal with no list of plays records nothing."""
    strange = [
        {"reading": {"tiles": [{"tile": "6-6", "corners": []}]}},
        {"reading": {"tiles": 5}},
        {"reading": {"tiles": [{"tile": "6-6", "corners": [[1, 1], [9, 1], [9, 5]]}]}, "proposal": {"new": [1, "x"]}},
        {"reading": {"tiles": []}, "proposal": {"new": [{"tile": [1]}]}},
        {"status": "confirm", "proposal": {"events": {"0": play(0, "6-6")}}},
    ]
    entries = [{"file": f"frames/{i}.jpg", "hand": 0, "width": 64, "height": 48, **e} for i, e in enumerate(strange)]
    listing = json.dumps({"format": "spinner-frames/1", "frames": entries}).encode()
    data = zipped([("record.json", RECORD), ("frames.json", listing), *[(e["file"], photo()) for e in entries]])
    response = client.post("/api/games", data=data, content_type="application/zip")
    assert response.status_code == 201, response.get_json()
    t = Table(client, response.get_json())
    for at in range(1, len(strange) + 1):
        page = client.get(f"/g/{t.id}/hands/0/replay?at={at}", headers=t.auth)
        assert page.status_code == 200, strange[at - 1]
    assert page.text.count("<polygon") == 0
    drawn = client.get(f"/g/{t.id}/hands/0/replay?at=3", headers=t.auth).text
    assert drawn.count("<polygon") == 1
    asking = t.get("/frames").get_json()["frames"][-1]
    accepted = t.post(f"/frames/{asking['id']}/accept", {})
    assert accepted.status_code == 400 and "no play to record" in accepted.get_json()["error"]
    assert t.version() == 1


def test_the_page_form_refuses_a_bad_archive_without_a_500(client):
    page = client.get("/").text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    for name, (data, _, words) in ARCHIVES.items():
        if name == "twice the same member":
            continue
        response = client.post(
            "/import",
            data={"csrf_token": token, "record": (io.BytesIO(data), "match.zip")},
            content_type="multipart/form-data",
            follow_redirects=True,
        )
        assert response.status_code == 200 and words in response.text, name
    assert games(client) == []


@pytest.mark.parametrize("target", ["²", "9" * 5000, "-5", "１００"])
def test_the_new_match_form_refuses_a_strange_target(client, target):
    page = client.get("/").text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    form = {"csrf_token": token, "variant": "partners", "player": PLAYERS, "target": target}
    response = client.post("/games", data=form, follow_redirects=True)
    assert response.status_code == 200 and "the target is a whole number" in response.text
    assert games(client) == []


# -- the database busy elsewhere ------------------------------------------------------------------


@pytest.fixture
def busy_app(tmp_path):
    yield from app_on_fresh_sqlite(tmp_path, SQLITE_BUSY_TIMEOUT=0.05)


def test_a_database_locked_by_another_process_answers_503_and_nothing_is_lost(busy_app, tmp_path):
    client = busy_app.test_client()
    created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()
    t = Table(client, created)
    assert t.post("/hands", {}).status_code == 201
    other = sqlite3.connect(tmp_path / "test.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another server process writing
    try:
        response = t.event(play(0, "6-6"))
        assert response.status_code == 503 and response.headers["Retry-After"].isdigit(), response.get_json()
        assert "nothing was recorded" in response.get_json()["error"]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert t.event(play(0, "6-6")).status_code == 201
    assert t.record()["hands"][0]["events"] == [play(0, "6-6")]


def test_every_pooled_connection_taken_answers_503_not_a_500_after_30_s(tmp_path):
    held = app_on_fresh_sqlite(
        tmp_path, SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.05}
    )
    app = next(held)
    client = app.test_client()
    created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()
    from webapp.db import db

    with app.app_context():
        connection = db.engine.connect()  # the pool's only connection, taken by another request
        try:
            response = client.get(f"/api/games/{created['id']}/score")
        finally:
            connection.close()
    assert response.status_code == 503 and "Retry-After" in response.headers
    assert client.get(f"/api/games/{created['id']}/score").status_code == 200
    next(held, None)


# -- tournament files ------------------------------------------------------------------------------


def test_a_tournament_file_with_strange_json_is_refused(tmp_path):
    from tests.support.tournament import Clock, Director, started

    app = next(app_on_fresh_sqlite(tmp_path, TOURNAMENT_CLOCK=Clock()))
    client = app.test_client()
    from tests.support.tournament import TEAMS

    director = Director(client, client.post("/api/tournaments", json={"title": "Night"}).get_json())
    started(director, TEAMS[:4])
    exported = client.get(director.url("/export"), headers=director.auth).get_json()
    text = json.dumps(exported)
    first_events = '"events": ['
    cases = {
        "NaN": text.replace('"version": 1', '"version": NaN', 1),
        "deep": text.replace('"title": ', '"deep": ' + nested(3000) + ', "title": ', 1),
        "huge": text.replace('"version": 1', '"version": ' + "1" * 5000, 1),
        "list as event": json.dumps(_with_list_event(exported)),
    }
    assert first_events in text
    for name, body in cases.items():
        response = client.post("/api/tournaments/import", data=body, content_type="application/json")
        assert 400 <= response.status_code < 500, (name, response.status_code)
    token = client.get("/t").text.split('name="csrf_token" value="')[1].split('"')[0]
    for name, body in cases.items():
        response = client.post(
            "/t/import",
            data={"csrf_token": token, "file": (io.BytesIO(body.encode()), "night.json")},
            content_type="multipart/form-data",
        )
        assert response.status_code == 302, name


def _with_list_event(exported: dict) -> dict:
    copy = json.loads(json.dumps(exported))
    copy["tables"][0]["record"]["hands"] = [{"events": [[1]]}]
    return copy
