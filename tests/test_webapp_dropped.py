"""A connection dropped mid-upload, on the real server (cheroot): nothing half-made is kept,
nothing recorded before is lost, and the server goes on answering."""

from __future__ import annotations

import json
import socket
import urllib.request
from urllib.parse import urlsplit

from tests.support.camera import photo
from tests.support.records import play
from tests.support.waiting import PATIENCE_S
from tests.support.web import PLAYERS


def call(url: str, method: str = "GET", body: dict | None = None, token: str | None = None) -> dict:
    request = urllib.request.Request(
        url,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def cut_short(url: str, path: str, token: str, content_type: str, body: bytes, claimed: int) -> None:
    """Send headers that promise `claimed` bytes, then only `body`, then hang up; return once the
    server is done with the request: it has read to the end of what came and closed the connection
    (whatever it answered before). The socket's timeout only fails a server that never lets go."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=PATIENCE_S) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {claimed}\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        sock.shutdown(socket.SHUT_WR)  # the phone is gone: nothing more comes
        try:
            while sock.recv(65536):
                pass
        except ConnectionResetError:
            pass  # closed without an answer: as done as a closed connection


def test_a_dropped_upload_keeps_nothing_and_loses_nothing(live_server):
    url = live_server.url
    created = call(f"{url}/api/games", "POST", {"variant": "partners", "players": PLAYERS})
    game, token = created["id"], created["token"]
    call(f"{url}/api/games/{game}/hands", "POST", {}, token)
    call(f"{url}/api/games/{game}/events", "POST", play(0, "6-6"), token)

    image = photo(640, 480)
    cut_short(url, f"/api/games/{game}/frames?wait=0", token, "image/jpeg", image[: len(image) // 2], len(image))
    event = json.dumps(play(1, "6-1")).encode()
    cut_short(url, f"/api/games/{game}/events", token, "application/json", event[:10], len(event))
    boundary = "XyZ"
    form = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="t.jpg"\r\n'
        f"Content-Type: image/jpeg\r\n\r\n"
    ).encode() + image[:1000]
    cut_short(
        url, f"/api/games/{game}/frames", token, f"multipart/form-data; boundary={boundary}", form, len(form) + 5000
    )

    # Each cut_short returned when the server had let go of its request: whatever it kept is there now.
    assert call(f"{url}/api/games/{game}/frames")["frames"] == []
    folder = live_server.app.config["SPINNER_DATA"] / "frames"
    assert not folder.exists() or not any(folder.rglob("*.*"))
    record = call(f"{url}/api/games/{game}/record")
    assert record["hands"][0]["events"] == [play(0, "6-6")]
    assert call(f"{url}/api/games/{game}")["version"] == 3
    # ...and the server still scores.
    assert call(f"{url}/api/games/{game}/events", "POST", play(1, "6-1"), token)["version"] == 4
