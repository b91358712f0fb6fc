"""The pages: forms with CSRF, links that grant a role, the board, and the live stream."""

from __future__ import annotations

import io
import json
import queue
import re
import threading

from tests.support.records import SIX_BLOCK_PLAYS, hand, play, record
from tests.support.waiting import PATIENCE_S
from tests.support.web import PLAYERS


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def new_match(client, **fields) -> str:
    token = csrf_of(client.get("/").text)
    data = {"csrf_token": token, "variant": "partners", "player": PLAYERS, **fields}
    response = client.post("/games", data=data)
    assert response.status_code == 302, response.text
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_the_form_starts_a_match_and_its_first_hand(client):
    game_id = new_match(client, title="Friday <b>night</b>", target="150")
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200
    assert "Friday &lt;b&gt;night&lt;/b&gt;" in page.text  # what a player types is escaped
    assert 'id="pad"' in page.text  # the creator scores
    answer = client.get(f"/api/games/{game_id}/score").get_json()
    assert answer["target"] == 150 and len(answer["hands"]) == 1
    assert "Friday &lt;b&gt;night" in client.get("/").text  # listed to resume


def test_forms_need_the_csrf_token(client):
    client.get("/")
    response = client.post("/games", data={"variant": "partners", "player": PLAYERS})
    assert response.status_code == 403
    assert client.get("/api/games").get_json()["games"] == []


def test_a_bad_form_says_why(client):
    token = csrf_of(client.get("/").text)
    response = client.post(
        "/games", data={"csrf_token": token, "variant": "partners", "player": ["Ana", "Ben"]}, follow_redirects=True
    )
    assert "4 players" in response.text


def test_the_page_scores_with_its_session_and_csrf_header(client):
    game_id = new_match(client)
    page = client.get(f"/g/{game_id}").text
    url = f"/api/games/{game_id}/events"
    assert client.post(url, json=play(0, "6-6")).status_code == 403  # the cookie alone is not enough
    response = client.post(url, json=play(0, "6-6"), headers={"X-CSRF-Token": csrf_of(page)})
    assert response.status_code == 201
    board = client.get(f"/api/games/{game_id}/board").get_json()
    assert board["current"]["events"][0]["count"] == 12 and "<section" in board["html"]["bottom"]


def test_the_viewer_link_only_reads(app, client, table):
    viewer = app.test_client()
    response = viewer.get(f"/g/{table.id}/join?key={table.viewer}")
    assert response.status_code == 302 and "key=" not in response.headers["Location"]
    page = viewer.get(f"/g/{table.id}")
    assert page.status_code == 200 and 'id="pad"' not in page.text
    response = viewer.post(
        f"/api/games/{table.id}/events", json=play(0, "6-6"), headers={"X-CSRF-Token": csrf_of(page.text)}
    )
    assert response.status_code == 403 and "viewer" in response.get_json()["error"]


def test_the_scorer_link_lets_a_second_phone_score(app, table):
    phone = app.test_client()
    phone.get(f"/g/{table.id}/join?key={table.token}")
    page = phone.get(f"/g/{table.id}").text
    assert 'id="pad"' in page and "Scorer link" in page
    response = phone.post(f"/api/games/{table.id}/events", json=play(0, "6-6"), headers={"X-CSRF-Token": csrf_of(page)})
    assert response.status_code == 201


def test_a_wrong_link_key_is_refused(client, table):
    response = client.get(f"/g/{table.id}/join?key=guess")
    assert response.status_code == 403 and "not right" in response.text


def test_a_private_match_needs_its_link(app, client):
    game_id = new_match(client, private="1")
    stranger = app.test_client()
    assert stranger.get(f"/g/{game_id}").status_code == 401
    assert game_id not in stranger.get("/").text
    assert game_id in client.get("/").text  # its scorer still sees it


def test_import_and_history_pages(client):
    token = csrf_of(client.get("/").text)
    whole = record("partners", hand(*SIX_BLOCK_PLAYS))
    response = client.post(
        "/import",
        data={"csrf_token": token, "record": (io.BytesIO(json.dumps(whole).encode()), "m.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/api/games/{game_id}/record").get_json() == whole
    history = client.get(f"/g/{game_id}/history")
    assert history.status_code == 200 and "import" in history.text
    broken = client.post(
        "/import",
        data={"csrf_token": token, "record": (io.BytesIO(b"{nope"), "m.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "not a JSON record" in broken.text


def test_the_stream_sends_the_board_then_every_change(app, table, monkeypatch):
    """The board at once, then a change as soon as it is made: a waiting stream is woken by the
    change, not by its next heartbeat (made too rare here to come first)."""
    from webapp.live import hub

    app.config.update(SSE_HEARTBEAT=60.0, SSE_LIFETIME=120.0)
    waiting = threading.Event()
    wait = hub.wait

    def spy(*args, **kwargs):
        waiting.set()
        return wait(*args, **kwargs)

    monkeypatch.setattr(hub, "wait", spy)
    response = app.test_client().get(f"/api/games/{table.id}/stream")
    assert response.mimetype == "text/event-stream"
    said: queue.Queue = queue.Queue()

    def follow(boards: int) -> None:
        """Hand on what the stream says (a board, or None for a heartbeat) until `boards` boards came,
        then close it (here: the iterating thread holds the request's context)."""
        for chunk in response.response:
            chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
            if chunk.startswith("id: "):
                said.put(json.loads(chunk.split("data: ", 1)[1]))
                boards -= 1
                if not boards:
                    response.close()
                    return
            elif chunk.startswith(":"):
                said.put(None)

    follower = threading.Thread(target=follow, args=(2,), daemon=True)
    follower.start()
    assert said.get(timeout=PATIENCE_S)["version"] == 2
    assert waiting.wait(PATIENCE_S)  # the stream waits for a change
    table.event(play(0, "6-6"))
    board = said.get(timeout=PATIENCE_S)
    assert board is not None, "a heartbeat came before the change"
    assert board["version"] == 3 and board["current"]["events"][0]["tile"] == "6-6"
    follower.join(PATIENCE_S)
    assert not follower.is_alive()


def test_a_stream_waits_for_the_next_change_without_asking_the_database(app, table, monkeypatch):
    """A board sent, the stream waits on its process's hub: it looked the match up in the database
    again after every board it sent, one query per viewer per change for nothing."""
    from sqlalchemy import event

    from webapp.db import db
    from webapp.live import hub

    app.config.update(SSE_HEARTBEAT=60.0, SSE_LIFETIME=120.0)
    statements: list[int] = []  # the thread of each statement run
    waits: queue.Queue = queue.Queue()  # the statements run before each wait of the stream
    wait = hub.wait

    def spy(*args, **kwargs):
        waits.put(len(statements))
        return wait(*args, **kwargs)

    monkeypatch.setattr(hub, "wait", spy)
    with app.app_context():
        engine = db.engine

    def ran(*args) -> None:
        statements.append(threading.get_ident())

    event.listen(engine, "before_cursor_execute", ran)
    try:
        response = app.test_client().get(f"/api/games/{table.id}/stream")
        boards: queue.Queue = queue.Queue()  # the statements run before each board reached the page

        def follow(count: int) -> None:
            for chunk in response.response:
                chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
                if chunk.startswith("id: "):
                    boards.put((len(statements), threading.get_ident()))
                    count -= 1
                    if not count:
                        response.close()
                        return

        follower = threading.Thread(target=follow, args=(3,), daemon=True)
        follower.start()
        boards.get(timeout=PATIENCE_S)
        waits.get(timeout=PATIENCE_S)
        table.event(play(0, "6-6"))
        sent, thread = boards.get(timeout=PATIENCE_S)
        waited = waits.get(timeout=PATIENCE_S)
        assert thread == follower.ident
        assert [t for t in statements[sent:waited] if t == thread] == []
        table.event(play(1, "6-1", "east"))
        boards.get(timeout=PATIENCE_S)
        follower.join(PATIENCE_S)
        assert not follower.is_alive()
    finally:
        event.remove(engine, "before_cursor_execute", ran)


def test_a_stream_outlives_a_database_too_busy_to_draw_its_board(app, table, monkeypatch):
    """Every pooled connection taken (a server past its load): the stream's look at the match
    raised, and the stream died with a traceback in the log. It now waits, and the next change
    brings the board."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    from webapp import store

    app.config.update(SSE_HEARTBEAT=60.0, SSE_LIFETIME=120.0)
    snapshot = store.snapshot
    busy, refused = threading.Event(), threading.Event()
    boards: queue.Queue = queue.Queue()

    def busy_for_the_stream(game):
        if busy.is_set() and threading.current_thread() is follower:
            busy.clear()
            refused.set()
            raise PoolTimeout("QueuePool limit reached")
        return snapshot(game)

    monkeypatch.setattr(store, "snapshot", busy_for_the_stream)
    response = app.test_client().get(f"/api/games/{table.id}/stream")

    def follow() -> None:
        for chunk in response.response:
            chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
            if chunk.startswith("id: "):
                boards.put(json.loads(chunk.split("data: ", 1)[1])["version"])
                if chunk.startswith("id: 4\n"):
                    response.close()
                    return

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    assert boards.get(timeout=PATIENCE_S) == 2
    busy.set()
    table.event(play(0, "6-6"))  # version 3: its board cannot be drawn
    assert refused.wait(PATIENCE_S)
    table.event(play(1, "6-1", "east"))  # version 4
    assert boards.get(timeout=PATIENCE_S) == 4
    follower.join(PATIENCE_S)
    assert not follower.is_alive()


def test_a_stream_asked_from_a_version_the_match_never_had_sends_the_board(app, table):
    """A Last-Event-ID past the match's version (a database put back from a backup, a made-up id)
    was taken as seen: the stream sent heartbeats and no board until the match got that far."""
    for last in ("999999999999", "-4"):
        response = app.test_client().get(f"/api/games/{table.id}/stream", headers={"Last-Event-ID": last})
        try:
            first = next(c for c in map(bytes.decode, response.response) if not c.startswith(("retry", ":")))
        finally:
            response.close()
        assert first.startswith("id: 2\nevent: board\n"), (last, first)


def test_too_many_streams_answers_503_so_the_page_polls(app, table):
    app.config["SSE_MAX_STREAMS"] = 0
    response = app.test_client().get(f"/api/games/{table.id}/stream")
    assert response.status_code == 503 and "poll" in response.get_json()["error"]


def test_a_stream_never_read_gives_its_place_back(app, table):
    """A HEAD, or any response the server closes before reading its body: the stream's place under
    the cap came back only at that body's end, so as many HEADs as the cap had every live page
    polling from then on."""
    from webapp.live import hub

    url = f"/api/games/{table.id}/stream"
    before = hub.streams
    app.config["SSE_MAX_STREAMS"] = before + 1
    client = app.test_client()
    for method in ("HEAD", "GET", "GET"):
        response = client.open(url, method=method)
        assert response.status_code == 200, (method, response.get_json())
        response.close()  # as the server does after a HEAD, which Werkzeug answers without the body
        assert hub.streams == before, method


def test_every_page_404_is_the_friendly_page(client, table):
    """A match that is not there, a hand or a path that is not: the same page, with the way back."""
    friendly = client.get("/g/doesnotexist")
    assert friendly.status_code == 404 and "All matches" in friendly.text
    for path in (f"/g/{table.id}/hands/99/replay", f"/g/{table.id}/replay/99", f"/g/{table.id}/nope", "/nope"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "All matches" in response.text and "Sorry" in response.text, path
        assert "Not Found" not in response.text, path
    # The API still answers in JSON.
    api = client.get("/api/nope")
    assert api.status_code == 404 and api.json["status"] == 404
