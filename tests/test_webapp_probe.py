"""What an adversarial probe of the companion found: each a 500, a lost or wrong record, or a
silent change, now a clear refusal (or the right answer)."""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib

import pytest

from tests.support.camera import photo
from tests.support.records import hand, play, record
from tests.support.web import Table, new_table


def csrf_token(client) -> str:
    page = client.get("/").text
    return page.split('name="csrf_token" value="')[1].split('"')[0]


@pytest.mark.parametrize("where", ["form", "header"])
def test_a_non_ascii_security_token_is_forbidden_not_a_500(client, where):
    csrf_token(client)  # the session has its token
    if where == "form":
        response = client.post("/games", data={"csrf_token": "é", "variant": "partners"})
    else:
        response = client.post("/games", data={"variant": "partners"}, headers={"X-CSRF-Token": "é"})
    assert response.status_code == 403
    assert "security token" in response.text


# -- an imported frame's proposal ------------------------------------------------------------------

RUN_RECORD = record("partners", hand(play(2, "6-6"), play(3, "5-6", "west"), leader=2))
A_PLAY = play(0, "5-5", "west")


def archive_asking(proposal: dict) -> bytes:
    """An archive whose one frame asks "did anyone pass?" with `proposal`."""
    entry = {"file": "frames/1.jpg", "status": "confirm", "hand": 0, "proposal": proposal}
    listing = {"format": "spinner-frames/1", "frames": [entry]}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("record.json", json.dumps(RUN_RECORD))
        archive.writestr("frames.json", json.dumps(listing))
        archive.writestr("frames/1.jpg", photo())
    return out.getvalue()


@pytest.mark.parametrize(
    "proposal, field",
    [
        ({"code": "passes_unsure", "params": "x"}, "proposal.params"),
        ({"code": "passes_unsure", "params": [A_PLAY]}, "proposal.params"),
        ({"code": "passes_unsure", "params": {"plays": [1]}}, "proposal.params.plays[0]"),
        ({"code": "passes_unsure", "kept": 5, "params": {"plays": [A_PLAY]}}, "proposal.kept"),
    ],
)
def test_an_imported_proposal_of_a_strange_shape_is_refused_naming_it(client, proposal, field):
    response = client.post("/api/games", data=archive_asking(proposal), content_type="application/zip")
    assert response.status_code == 400, response.get_json()
    assert "frame 0" in response.get_json()["error"] and field in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def strange_frame_kept(app, client, proposal: dict) -> tuple[Table, int]:
    """A match whose frame asks with `proposal`, as an archive imported before proposals were checked left it."""
    from webapp.db import db
    from webapp.models import Frame

    made = client.post("/api/games", data=archive_asking({"code": "passes_unsure"}), content_type="application/zip")
    assert made.status_code == 201, made.get_json()
    t = Table(client, made.get_json())
    frame_id = t.get("/frames").get_json()["frames"][0]["id"]
    with app.app_context():
        db.session.get(Frame, frame_id).proposal = proposal
        db.session.commit()
    return t, frame_id


@pytest.mark.parametrize(
    "proposal",
    [
        {"code": "passes_unsure", "params": "x"},
        {"code": "passes_unsure", "params": {"plays": [1]}},
        {"code": "passes_unsure", "kept": 5, "params": {"plays": [A_PLAY]}},
        {"code": "passes_unsure", "kept": [{"tile": "x"}], "params": {"plays": [A_PLAY]}},
    ],
)
def test_accepting_a_strange_proposal_kept_earlier_records_nothing_or_all(app, client, proposal):
    t, frame_id = strange_frame_kept(app, client, proposal)
    accepted = t.post(f"/frames/{frame_id}/accept", {})
    assert accepted.status_code < 500, accepted.get_json()
    frame = t.get("/frames").get_json()["frames"][0]
    if accepted.status_code >= 400:  # refused: nothing recorded, the frame still asks
        assert t.version() == 1 and frame["status"] == "confirm"
    else:  # recorded: the frame says so, and cannot be turned down after
        assert t.version() == 2 and frame["status"] == "accepted"
        assert t.post(f"/frames/{frame_id}/reject", {}).status_code == 409


# -- a photo's size ----------------------------------------------------------------------------------


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header says `width` x `height` (its pixels are not there: it is refused unread)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    ihdr = struct.pack(">I", 13) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))
    return b"\x89PNG\r\n\x1a\n" + ihdr


def test_a_photo_larger_than_the_reader_reads_is_refused_at_the_door(table):
    """The server took up to 60 MP and the reader refuses past 50: one limit now, the reader's."""
    from vision.read.photo import MAX_PIXELS

    response = table.post("/frames", data=png_claiming(8192, 6145), content_type="image/png")
    assert response.status_code == 413
    assert "8192x6145" in response.get_json()["error"] and "at most 50 megapixels" in response.get_json()["error"]
    assert table.get("/frames").get_json()["frames"] == []
    assert 8192 * 6145 > MAX_PIXELS


# -- a dispute keeps what it disputed ------------------------------------------------------------------


def disputed_then_taken_back(client) -> tuple[Table, int]:
    """All-fives: 5-5, then 5-0 disputed and undone."""
    t = new_table(client, "all-fives", ["A", "B", "C"])
    assert t.event(play(0, "5-5")).status_code == 201
    assert t.event(play(1, "5-0", "west")).status_code == 201
    opened = t.post("/disputes", {"hand": 0, "event": 1, "why": "was it 5-0?"})
    assert opened.status_code == 201
    assert t.post("/undo", {}).status_code == 200
    return t, opened.get_json()["version"]


def test_a_dispute_shows_the_play_it_disputed_after_the_play_is_gone(client):
    t, _ = disputed_then_taken_back(client)
    [dispute] = t.get("/board").get_json()["disputes"]
    assert "5-0" in dispute["what"]
    assert t.event(play(1, "5-3", "east")).status_code == 201  # another play takes its place
    [dispute] = t.get("/board").get_json()["disputes"]
    assert "5-0" in dispute["what"] and "5-3" not in dispute["what"]


def test_settling_with_a_correction_refuses_a_play_that_was_never_disputed(client):
    t, version = disputed_then_taken_back(client)
    assert t.event(play(1, "5-3", "east")).status_code == 201
    at = t.version()
    corrected = t.post(f"/disputes/{version}/settle", {"why": "agreed", "event": play(1, "5-1", "east")})
    assert corrected.status_code == 409
    said = corrected.get_json()["error"]
    assert "5-0" in said and "5-3" in said and "nothing was corrected" in said
    assert t.version() == at and t.record()["hands"][0]["events"][1] == play(1, "5-3", "east")
    assert t.post(f"/disputes/{version}/settle", {"why": "it stands"}).status_code == 200
    assert t.get("/board").get_json()["disputes"] == []


def test_a_dispute_of_a_play_taken_back_can_still_be_settled_as_it_stands(client):
    t, version = disputed_then_taken_back(client)
    corrected = t.post(f"/disputes/{version}/settle", {"why": "agreed", "event": play(1, "5-1", "east")})
    assert corrected.status_code == 409 and "nothing was corrected" in corrected.get_json()["error"]
    assert t.post(f"/disputes/{version}/settle", {"why": "taken back"}).status_code == 200
    assert t.get("/board").get_json()["disputes"] == []


def test_settling_the_disputed_play_still_there_corrects_it(client):
    t = new_table(client, "all-fives", ["A", "B", "C"])
    t.event(play(0, "5-5"))
    t.event(play(1, "5-0", "west"))
    version = t.post("/disputes", {"hand": 0, "event": 1, "why": "was it 5-0?"}).get_json()["version"]
    settled = t.post(f"/disputes/{version}/settle", {"why": "it was 5-1", "event": play(1, "5-1", "west")})
    assert settled.status_code == 200, settled.get_json()
    assert t.record()["hands"][0]["events"][1] == play(1, "5-1", "west")


# -- cut short, or taken as something else ---------------------------------------------------------


def test_a_why_or_title_too_long_is_refused_naming_the_limit(client, table):
    long_why = table.post("/hands", {"why": "w" * 301})
    assert long_why.status_code == 400 and "why" in long_why.get_json()["error"]
    assert "at most 300 characters" in long_why.get_json()["error"]
    spec = {"variant": "partners", "players": ["A", "B", "C", "D"], "title": "t" * 121}
    long_title = client.post("/api/games", json=spec)
    assert long_title.status_code == 400 and "title" in long_title.get_json()["error"]
    assert "at most 120 characters" in long_title.get_json()["error"]
    tournament = client.post("/api/tournaments", json={"title": "t" * 121})
    assert tournament.status_code == 400 and "at most 120 characters" in tournament.get_json()["error"]
    spec["title"] = "t" * 120
    assert client.post("/api/games", json=spec).status_code == 201


def scorer_page(client, table: Table) -> str:
    client.get(f"/g/{table.id}/join?key={table.token}")
    return client.get(f"/g/{table.id}/hands/0/replay").text.split('name="csrf_token" value="')[1].split('"')[0]


def test_the_page_refuses_a_dispute_why_too_long_or_a_play_not_a_number(client, table):
    table.event(play(0, "6-6"))
    token = scorer_page(client, table)
    at = table.version()
    for form, words in (
        ({"event": "0", "why": "w" * 301}, "at most 300 characters"),
        ({"event": "x", "why": "wrong tile"}, "the play disputed must be a whole number"),
    ):
        page = client.post(f"/g/{table.id}/hands/0/dispute", data={"csrf_token": token, **form}, follow_redirects=True)
        assert page.status_code == 200 and words in page.text, form
    assert table.version() == at and table.get("/board").get_json()["disputes"] == []
    page = client.post(f"/g/{table.id}/hands/0/dispute", data={"csrf_token": token, "event": "0", "why": "w" * 300})
    assert page.status_code == 302 and len(table.get("/board").get_json()["disputes"]) == 1


def test_renaming_a_match_past_the_title_limit_is_refused_not_cut_short(client, table):
    """The list's rename form cut a title past 120 characters to 120 without a word (the form's
    maxlength stops a browser, not a script); a title sent whole or refused, as everywhere."""
    token = scorer_page(client, table)
    page = client.post(f"/g/{table.id}/rename", data={"csrf_token": token, "title": "t" * 121}, follow_redirects=True)
    assert page.status_code == 200 and "title: at most 120 characters; nothing was recorded" in page.text
    assert client.get(f"/api/games/{table.id}").get_json()["title"] == ""
    client.post(f"/g/{table.id}/rename", data={"csrf_token": token, "title": "t" * 120})
    assert client.get(f"/api/games/{table.id}").get_json()["title"] == "t" * 120


@pytest.mark.parametrize(
    "said, status", [("bytes=abc", 200), ("bytes=0-1,4-5", 200), ("pages=1", 200), ("bytes=0-9", 206)]
)
def test_a_range_it_cannot_follow_gets_the_whole_image(client, said, status):
    made = client.post("/api/games", data=archive_asking({}), content_type="application/zip")
    t = Table(client, made.get_json())
    frame = t.get("/frames").get_json()["frames"][0]["id"]
    whole = t.get(f"/frames/{frame}/image")
    response = t.get(f"/frames/{frame}/image", headers={"Range": said})
    assert response.status_code == status
    assert response.data == (whole.data if status == 200 else whole.data[:10])


# -- names and seats a table cannot tell apart ------------------------------------------------------


@pytest.mark.parametrize("names", [["Ana", "Ben", "ana", "Dee"], ["Ana", " Ana ", "Cruz", "Dee"]])
def test_two_players_of_one_name_are_refused(client, names):
    """Four "Ana"s were accepted: the page's "who played?" buttons and the totals by name could not
    tell them apart."""
    response = client.post("/api/games", json={"variant": "partners", "players": names})
    assert response.status_code == 400
    said = response.get_json()
    assert said["error"].startswith("two players are called 'Ana' (seats 1 and ") and "tell apart" in said["error"]
    assert said["field"] in ("players[1]", "players[2]")


@pytest.mark.parametrize("seating", [["top", "top", "top", "top"], "garbage", ["top", "left", "bottom"]])
def test_an_imported_seating_is_checked_as_a_seating_change_is(client, seating):
    """PUT /seating refused these; an imported record kept them, and the camera trusted them."""
    whole = {**record("partners", hand(play(2, "6-6"), leader=2)), "seating": seating}
    response = client.post("/api/games", json=whole)
    assert response.status_code == 400
    assert "seating" in response.get_json()["error"]


def test_an_imported_seating_that_makes_sense_is_kept(client):
    sides = ["bottom", "right", "top", "left"]
    whole = {**record("partners", hand(play(2, "6-6"), leader=2)), "seating": sides}
    created = client.post("/api/games", json=whole).get_json()
    assert client.get(f"/api/games/{created['id']}/record").get_json()["seating"] == sides


# -- a match deleted as its photo arrives ------------------------------------------------------------


def test_a_photo_of_a_match_deleted_as_it_arrives_is_a_404_and_leaves_no_file(app, table, monkeypatch):
    """The match deleted between the photo's checks and its row: the row's foreign key failed, a 500,
    and the photo's file stayed on disk with no row to find it by."""
    from webapp import frames, matches

    keep = frames.keep

    def deleted_first(job, *args, **kwargs):
        matches.delete(job.game_id)
        return keep(job, *args, **kwargs)

    monkeypatch.setattr(frames, "keep", deleted_first)
    response = table.post("/frames", data=photo(640, 480), content_type="image/jpeg")
    assert response.status_code == 404, response.get_json()
    assert "deleted as the photo arrived" in response.get_json()["error"]
    photos = frames.folder(app)
    assert not (photos / table.id).exists() or not any((photos / table.id).iterdir())
