"""The page's live camera in a game that draws (the probe's "draw games end early"): a hand started
with POST /hands (no deal) and followed by the camera keeps its tile counts open (`unseen_draws`),
as `spinner watch` does, so no count ends it that a draw could change, and the boneyard in view is
watched for draws. The pad alone scores as before: a scorer who taps Draw records the draws.

The frames are a dealt `draw` film's, read from their truth (`OracleReader`'s readings) by a
stand-in reader; the rest, from the upload to the record, is real.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import zipfile
from typing import Any

import cv2
import numpy as np
import pytest

from scorer.match import score_record
from tests.support.camera import make_app, seen
from tests.support.web import Table
from vision.synth.video import game_video, reading_from_truth

#: seed 1, two players, 15 plays: seat 0 draws one tile, then lays its 7th (4-5) still holding one;
#: seat 1 draws four and plays, seat 0 draws five and plays: nobody goes out
SEED, PLAYS = 1, 15


def _key(image: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(image).tobytes()).hexdigest()


class FilmReader:
    """Reads each frame of the film from its truth (the frame found by its pixels: sent as PNG)."""

    def __init__(self, video: Any) -> None:
        self.video = video
        self.state_of: dict[str, int] = {}

    def __call__(self, variant: str) -> FilmReader:
        return self

    def read(self, image: np.ndarray, name: str = "") -> Any:
        state = self.state_of.get(_key(image))
        return seen() if state is None else reading_from_truth(self.video.truths[state], name)


@pytest.fixture(scope="module")
def film() -> tuple[Any, list[tuple[bytes, int]]]:
    video = game_video(SEED, 320, 240, players=2, dealt="draw", max_plays=PLAYS)
    frames = []
    for frame in video.frames():
        ok, data = cv2.imencode(".png", frame.image)
        assert ok
        frames.append((data.tobytes(), frame.state, _key(frame.image)))
    return video, frames


def _held(events: list[dict[str, Any]], dealt: int = 7) -> list[int]:
    held = [dealt, dealt]
    for e in events:
        held[e["seat"]] += {"draw": 1, "play": -1}.get(e["type"], 0)
    return held


def _tile(name: str) -> str:
    return "-".join(sorted(name.split("-")))


def test_the_page_camera_keeps_a_drawing_hands_counts_open(tmp_path, film):
    video, frames = film
    truth = video.record["hands"][0]["events"]
    true_plays = [(e["seat"], _tile(e["tile"])) for e in truth if e["type"] == "play"]
    assert len(true_plays) == PLAYS and max(_held(truth)) > 0 and min(_held(truth)) > 0  # nobody goes out
    reader = FilmReader(video)
    for _data, state, key in frames:
        reader.state_of[key] = state
    app = make_app(tmp_path, SPINNER_READER=reader)
    client = app.test_client()
    made = client.post("/api/games", json={"variant": "draw", "players": video.record["players"]})
    assert made.status_code == 201, made.get_json()
    t = Table(client, made.get_json())
    assert t.post("/hands", {"leader": 0}).status_code == 201  # the page's hand: no deal

    def plays() -> tuple[list[tuple[int, str]], Any]:
        hand = t.get("/score").get_json()["hands"][0]
        return [(p["seat"], _tile(p["tile"])) for p in hand["plays"]], hand

    for data, _state, _k in frames:
        sent = t.client.post(
            f"/api/games/{t.id}/frames?source=camera",
            data={"photo": (io.BytesIO(data), "table.png")},
            headers=t.auth,
            content_type="multipart/form-data",
        ).get_json()
        if sent.get("status") == "confirm":  # a question: answered with the truth
            done, _ = plays()
            proposed = (sent["proposal"].get("events") or [{}])[0]
            right = (
                len(done) < PLAYS
                and proposed.get("type") == "play"
                and (proposed.get("seat"), _tile(proposed.get("tile", "0-0"))) == true_plays[len(done)]
            )
            verdict = "accept" if right else "reject"
            body = {"event": proposed, "why": "the truth"} if right else {"why": "the truth"}
            assert t.post(f"/frames/{sent['id']}/{verdict}", body).status_code == 200
        done, hand = plays()
        # never a play for a wrong seat, nor one that did not happen
        assert done == true_plays[: len(done)], (sent.get("message"), done)
        # a seat that laid its last counted tile may have drawn unseen: the record holds no end
        # for it, and the next play goes on (the score's "out" is only the record's silence)
        assert "reveal" not in {e["type"] for e in t.record()["hands"][0]["events"]}
    done, hand = plays()
    # seat 0's 7th play (4-5, one tile still in hand) ended nothing: the plays after it are recorded
    seventh = [k for k, (seat, _tile) in enumerate(true_plays) if seat == 0][6]
    assert len(done) > seventh + 1, done
    assert t.record()["hands"][0].get("unseen_draws") is True
    # what is handed out is for any reader (`scorer.explicit`): the draws the camera did not see
    # written out, so that without `unseen_draws` (GAME_RECORD.md does not know it) the record
    # scores as the page does; the photos still point at their plays
    # (the record's own answer: the page's /score shows a seat that laid its last counted tile as
    # perhaps out, where a record that ends there says it went out)
    kept = score_record(t.record())
    for shared in (json.loads(t.get("/record?download=1").data), _exported(t)[0]):
        assert "unseen_draws" not in shared["hands"][0], shared["hands"][0]
        answer = score_record(shared)
        assert _scores(answer) == _scores(kept)
    shared, listing = _exported(t)
    events = shared["hands"][0]["events"]
    for frame in listing:
        if frame["status"] in ("recorded", "accepted") and frame["event"] is not None:
            proposed = [e for e in (frame["proposal"] or {}).get("events") or [] if e.get("type") == "play"]
            assert events[frame["event"]]["type"] == "play"
            assert not proposed or _tile(events[frame["event"]]["tile"]) in {_tile(e["tile"]) for e in proposed}


def _exported(t: Table) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with zipfile.ZipFile(io.BytesIO(t.get("/export").data)) as archive:
        return json.loads(archive.read("record.json")), json.loads(archive.read("frames.json"))["frames"]


def _scores(answer: dict[str, Any]) -> Any:
    """The answer but for the events' indexes and what the scorer inferred (written out instead)."""
    hands = [
        {
            **{k: v for k, v in h.items() if k not in ("plays", "inferred_draws", "inferred_passes", "maybe_out")},
            "plays": [{k: v for k, v in p.items() if k != "event"} for p in h["plays"]],
        }
        for h in answer["hands"]
    ]
    return hands, answer["totals"], answer["winner"]


def test_the_pad_alone_keeps_a_drawing_hands_counts_closed(tmp_path):
    app = make_app(tmp_path, SPINNER_READER=FilmReader(None))
    client = app.test_client()
    t = Table(client, client.post("/api/games", json={"variant": "draw", "players": ["Ana", "Ben"]}).get_json())
    assert t.post("/hands", {"leader": 0}).status_code == 201
    assert t.event({"type": "play", "seat": 0, "tile": "6-6"}).status_code == 201
    assert t.event({"type": "draw", "seat": 1, "count": 1}).status_code == 201  # the scorer taps Draw
    assert "unseen_draws" not in t.record()["hands"][0]
    # a photo taken on purpose is no live camera: the counts stay as the pad keeps them
    ok, data = cv2.imencode(".png", np.full((240, 320, 3), 90, np.uint8))
    t.client.post(
        f"/api/games/{t.id}/frames",
        data={"photo": (io.BytesIO(data.tobytes()), "table.png")},
        headers=t.auth,
        content_type="multipart/form-data",
    )
    assert "unseen_draws" not in t.record()["hands"][0]


class UnseenDraws(FilmReader):
    """The film read with its boneyard out of view (its backs not read): every draw is unseen."""

    def read(self, image: np.ndarray, name: str = "") -> Any:
        return dataclasses.replace(super().read(image, name), ignored=())


def test_a_seat_that_laid_its_last_counted_tile_is_not_shown_out(tmp_path, film):
    # seat 0 (Ana) draws 1-5 unseen and lays her 7th tile, 4-5, still holding one: the record is
    # right to end nothing there, and the page must not show her out ("0", "Hand over") meanwhile
    video, frames = film
    truth = video.record["hands"][0]["events"]
    true_plays = [(e["seat"], _tile(e["tile"])) for e in truth if e["type"] == "play"]
    reader = UnseenDraws(video)
    for _data, state, key in frames:
        reader.state_of[key] = state
    client = make_app(tmp_path, SPINNER_READER=reader).test_client()
    t = Table(client, client.post("/api/games", json={"variant": "draw", "players": ["Ana", "Ben"]}).get_json())
    assert t.post("/hands", {"leader": 0}).status_code == 201

    def plays() -> list[tuple[int, str]]:
        return [(p["seat"], _tile(p["tile"])) for p in t.get("/score").get_json()["hands"][0]["plays"]]

    perhaps_out = []  # (seat, plays recorded) where the board showed a seat perhaps out
    for data, _state, _k in frames:
        sent = t.client.post(
            f"/api/games/{t.id}/frames?source=camera",
            data={"photo": (io.BytesIO(data), "table.png")},
            headers=t.auth,
            content_type="multipart/form-data",
        ).get_json()
        if sent.get("status") == "confirm":  # a question: answered with the truth
            done = plays()
            proposed = (sent["proposal"].get("events") or [{}])[0]
            right = (
                len(done) < PLAYS
                and (proposed.get("seat"), _tile(proposed.get("tile", "0-0"))) == true_plays[len(done)]
            )
            body = {"event": proposed, "why": "the truth"} if right else {"why": "the truth"}
            assert t.post(f"/frames/{sent['id']}/{'accept' if right else 'reject'}", body).status_code == 200
        done = plays()
        assert done == true_plays[: len(done)]
        board = t.get("/board").get_json()
        cur = board["current"]
        assert cur["end"] is None and not board["next_hand"] and board["pad"]["in_play"], cur  # no domino announced
        assert "Hand over" not in board["html"]["top"]
        for s, row in enumerate(cur["tiles_left"]):
            assert row["tiles"] != 0, cur["tiles_left"]  # nobody is shown holding nothing
            if row.get("maybe_out"):
                assert row["tiles"] is None
                assert f'<li class="maybe-out"><bdi>{row["name"]}</bdi> <b>?</b></li>' in board["html"]["top"]
                assert (
                    f"<bdi>{row['name']}</bdi> has laid every tile counted: out, unless they drew"
                    in board["html"]["top"]
                )
                perhaps_out.append((s, len(done)))
            else:  # the least it holds, once the camera keeps the counts open
                shown = f"{row['tiles']}+" if row.get("at_least") else str(row["tiles"])
                assert f"<li><bdi>{row['name']}</bdi> <b>{shown}</b></li>" in board["html"]["top"]
    seventh = [k for k, (seat, _tile) in enumerate(true_plays) if seat == 0][6]
    assert (0, seventh + 1) in perhaps_out, perhaps_out  # Ana, after her 4-5
    assert len(plays()) == PLAYS  # the next play re-opened her count: the hand went on
    assert t.record()["hands"][0].get("unseen_draws") is True


def spanish_top(app: Any, game_id: str) -> str:
    """The top of the match's board as a page in Spanish draws it."""
    from flask import render_template
    from flask_babel import force_locale

    from webapp import board, store

    with app.test_request_context(), force_locale("es"):
        game = store.get_game(game_id)
        return render_template("_board_top.html", b=board.build(game, store.snapshot(game)))


def test_a_seat_perhaps_out_goes_out_once_the_pips_are_counted(tmp_path):
    # a followed hand (draws not all seen) where Ana lays her 7th tile: perhaps out, shown so; the
    # scorer says the hand is over by counting Ben's pips on the pad, and only then is she out
    line = ["6-6", "6-5", "5-5", "5-4", "4-4", "4-3", "3-3", "3-2", "2-2", "2-1", "1-1", "1-0", "0-0"]
    events = [
        {"type": "play", "seat": k % 2, "tile": tile, **({"end": "east"} if k else {})} for k, tile in enumerate(line)
    ]
    record = {
        "variant": "draw",
        "players": ["Ana", "Ben"],
        "hands": [{"leader": 0, "unseen_draws": True, "events": events}],
    }
    app = make_app(tmp_path, SPINNER_READER=FilmReader(None))
    client = app.test_client()
    made = client.post("/api/games", json=record)
    assert made.status_code == 201, made.get_json()
    t = Table(client, made.get_json())
    board = t.get("/board").get_json()
    assert board["current"]["end"] is None and board["current"]["turn"] == 1 and not board["next_hand"]
    assert board["current"]["tiles_left"] == [
        {"name": "Ana", "tiles": None, "at_least": False, "maybe_out": True},
        {"name": "Ben", "tiles": 1, "at_least": True, "maybe_out": False},
    ]
    top = board["html"]["top"]
    assert '<li class="maybe-out"><bdi>Ana</bdi> <b>?</b></li>' in top and "<li><bdi>Ben</bdi> <b>1+</b></li>" in top
    assert '<li class="boneyard">Boneyard <b>≤14</b></li>' in top
    assert "Ben</bdi></strong> to play" in top and "Hand over" not in top
    assert (
        "<bdi>Ana</bdi> ya jugó todas las fichas contadas: dominó, salvo que robara fichas sin que nadie lo viera"
        in (spanish_top(app, t.id))
    )
    counted = t.event({"type": "pips", "seat": 1, "pips": 5})
    assert counted.status_code == 201, counted.get_json()
    hand = t.get("/score").get_json()["hands"][0]
    assert hand["end"] == "out" and hand["winner"] == 0 and hand["pips"] == [0, 5]
    assert "Hand over" in t.get("/board").get_json()["html"]["top"]


class Looks:
    """Reads each picture sent as the reading it was drawn from (found by its pixels: sent as PNG)."""

    def __init__(self) -> None:
        self.of: dict[str, Any] = {}

    def __call__(self, variant: str) -> Looks:
        return self

    def read(self, image: np.ndarray, name: str = "") -> Any:
        return self.of.get(_key(image)) or seen()


def test_a_back_under_a_cup_is_no_draw_for_the_page_camera(tmp_path, seats_in_turn_order):
    # the page's live camera follows a drawing hand with the boneyard in view; a cup stood over
    # one back of the heap hides it from the reader. Its place does not show the table: no tile
    # was drawn, and none is recorded for the seat that plays next (before, the frame's pixels
    # never reached the page's follower, and the back was taken for a draw)
    from tests.support.readings import tile
    from vision.read.reading import Ignored, Reading

    def back_at(x: float, y: float) -> Ignored:  # a face-down tile, 10 px wide, 20 px long
        return Ignored("face_down", ((x - 5, y - 10), (x + 5, y - 10), (x + 5, y + 10), (x - 5, y + 10)), 0.9)

    heap = [back_at(30.0 + 14 * k, 400.0) for k in range(14)]  # two players: 14 left to draw
    cup = (30 + 14 * 13, 400)

    def picture(tiles: list[Any], backs: list[Any], covered: bool = False) -> tuple[bytes, Reading]:
        image = np.full((480, 640, 3), (60, 120, 60), np.uint8)
        for b in backs:
            (x0, y0), _, (x1, y1), _ = b.corners
            cv2.rectangle(image, (int(x0), int(y0)), (int(x1), int(y1)), (30, 40, 50), -1)
        for t in tiles:
            x, y = t.center
            cv2.rectangle(image, (int(x - 30), int(y - 15)), (int(x + 30), int(y + 15)), (245, 245, 245), -1)
        if covered:
            cv2.circle(image, cup, 16, (40, 30, 20), -1)
        ok, data = cv2.imencode(".png", image)
        assert ok
        return data.tobytes(), Reading("frame", 640, 480, tuple(tiles), ignored=tuple(backs))

    lead, answer = tile(5, 5, 300, 200), tile(5, 0, 360, 200)
    looks = Looks()
    app = make_app(tmp_path, SPINNER_READER=looks)
    client = app.test_client()
    t = Table(client, client.post("/api/games", json={"variant": "draw", "players": ["Ana", "Ben"]}).get_json())
    assert t.post("/hands", {"leader": 0}).status_code == 201

    def show(tiles: list[Any], backs: list[Any], covered: bool = False) -> list[dict[str, Any]]:
        """The table as the camera sees it until it has settled: what each frame came to."""
        data, reading = picture(tiles, backs, covered)
        looks.of[_key(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))] = reading
        return [
            t.client.post(
                f"/api/games/{t.id}/frames?source=camera",
                data={"photo": (io.BytesIO(data), "table.png")},
                headers=t.auth,
                content_type="multipart/form-data",
            ).get_json()
            for _ in range(3)
        ]

    def events() -> list[dict[str, Any]]:
        return t.record()["hands"][0]["events"]

    show([], heap)
    show([lead], heap)
    assert [(e["type"], e["seat"]) for e in events()] == [("play", 0)]
    # the cup over the heap's last back: the reader boxes one back fewer
    show([lead], heap[:-1], covered=True)
    sent = show([lead, answer], heap[:-1], covered=True)
    proposed = [e for s in sent for e in (s.get("proposal") or {}).get("events") or []]
    assert not any(e["type"] == "draw" for e in [*events(), *proposed]), (events(), sent)
    assert [(e["type"], e["seat"], _tile(e["tile"])) for e in events()] == [("play", 0, "5-5"), ("play", 1, "0-5")]
    # the back is remembered as hidden, not taken (`BoneyardWatch.hidden`)
    from webapp import frames

    watch = frames.tables(app).find(t.id).follower.boneyard
    assert (watch.hidden, watch.taken) == (1, 0)
