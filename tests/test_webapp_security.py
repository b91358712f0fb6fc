"""Every answer's security headers, pages without inline script, and a session cookie that is
sealed, not just signed (issue 37)."""

from __future__ import annotations

import base64
import re
import ssl
import urllib.request
import zlib

from tests.support.servers import serve, stop
from tests.support.waiting import PATIENCE_S, until
from tests.support.web import PLAYERS

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


def assert_headers(response) -> None:
    csp = response.headers.get("Content-Security-Policy", "")
    assert (
        "frame-ancestors 'none'" in csp
        and "script-src 'self'" in csp
        and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    )
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_every_kind_of_answer_carries_the_headers(client, table):
    answers = [
        client.get("/"),
        client.get(f"/g/{table.id}"),
        table.get("/score"),
        table.get("/board"),
        client.get("/api/games/nope"),
        client.get("/static/app.css"),
        client.get("/nowhere"),
        client.post("/api/games", data="{", content_type="application/json"),
        table.event({"type": []}),
        client.get("/t"),
    ]
    for response in answers:
        assert_headers(response)


def test_no_page_runs_inline_script(app, client, table):
    client.get(f"/g/{table.id}/join?key={table.token}")  # the scorer's page, with the pad and the camera
    pages = [
        client.get("/").text,
        client.get(f"/g/{table.id}").text,
        client.get(f"/g/{table.id}/history").text,
        client.get(f"/g/{table.id}/hands/0/replay").text,
        client.get("/t").text,
    ]
    for page in pages:
        assert not HANDLER.search(page), HANDLER.search(page).group(0)
        for attributes, text in SCRIPT.findall(page):
            assert "src=" in attributes or 'type="application/json"' in attributes, attributes
            assert "src=" not in attributes or not text.strip()


def test_the_tournament_pages_print_without_inline_script():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "webapp"
    for template in [*root.glob("templates/*.html"), *root.glob("tournament/templates/tournament/*.html")]:
        text = template.read_text()
        assert not HANDLER.search(text), template
        for attributes, _ in SCRIPT.findall(text):
            assert "src=" in attributes or 'type="application/json"' in attributes, template


def test_the_session_cookie_is_sealed(app, client, table):
    client.get(f"/g/{table.id}/join?key={table.token}")
    cookie = client.get_cookie("session")
    assert cookie is not None
    value = cookie.value
    assert table.token not in value and table.id not in value
    # Flask's own cookie is base64 (and zlib) of the JSON: nothing of it reads here.
    for part in value.lstrip(".").split("."):
        padded = part + "=" * (-len(part) % 4)
        try:
            raw = base64.urlsafe_b64decode(padded)
        except ValueError:
            continue
        for text in (raw, _inflated(raw)):
            assert table.token.encode() not in text and table.id.encode() not in text
    # ...and the browser is still the scorer: the pad's change goes through with its CSRF token.
    page = client.get(f"/g/{table.id}").text
    token = re.search(r'name="csrf-token" content="([^"]+)"', page) or re.search(
        r'name="csrf_token" value="([^"]+)"', page
    )
    response = client.post(
        f"/api/games/{table.id}/events",
        json={"type": "play", "seat": 0, "tile": "6-6"},
        headers={"X-CSRF-Token": token.group(1)},
    )
    assert response.status_code == 201, response.get_json()


def _inflated(raw: bytes) -> bytes:
    try:
        return zlib.decompress(raw)
    except zlib.error:
        return b""


def test_a_tampered_or_old_style_cookie_is_no_session(app, client, table):
    client.get(f"/g/{table.id}/join?key={table.token}")
    value = client.get_cookie("session").value
    client.set_cookie("session", value[:-4] + ("AAAA" if not value.endswith("AAAA") else "BBBB"))
    assert client.post(f"/api/games/{table.id}/undo", json={}).status_code == 401


def test_a_full_session_still_fits_in_a_cookie(app, client):
    from webapp.pages import KEPT_LINKS

    for _ in range(KEPT_LINKS + 3):
        created = client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()
        client.get(f"/g/{created['id']}/join?key={created['token']}")
        client.get(f"/g/{created['id']}/join?key={created['viewer_token']}")
    assert len(client.get_cookie("session").value) < 4000


def test_https_sets_the_cookie_secure(tmp_path):
    process, port = serve(tmp_path, "--https", "--no-qr")
    cert = tmp_path / "data" / "tls" / "cert.pem"

    def answered() -> tuple[str, ...] | None:
        try:  # the certificate is written as the server starts: read it once it is whole
            context = ssl.create_default_context(cafile=str(cert))
            with urllib.request.urlopen(f"https://127.0.0.1:{port}/", timeout=PATIENCE_S, context=context) as response:
                assert_headers(response)
                return (response.headers["Set-Cookie"],)
        except (OSError, ssl.SSLError):
            return None

    try:
        (cookie,) = until(answered, "the server to answer over HTTPS")
    finally:
        stop(process)
    assert "Secure" in cookie and "HttpOnly" in cookie


def test_the_pad_works_with_the_policy_in_force(live_server, open_page):
    """In headless Chromium with the CSP enforced: start a match and tap a play; nothing is blocked."""
    from tests.support.page import PHONE, start_match

    page = open_page(PHONE, bypass_csp=False)
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    page.on("pageerror", lambda error: said.append(str(error)))
    start_match(page, live_server.url, ["Ana", "Ben", "Cruz", "Dee"])
    page.click('.seat[data-seat="0"]')  # who leads: the pad asks before the first tile
    page.click('[data-tile="6-6"]')
    page.wait_for_selector(".plays li")
    assert page.locator(".plays li").count() == 1
    assert not [s for s in said if "Content Security Policy" in s or "Refused" in s], said
