"""The page's own routes, given bad input: the language switch, rename and delete. A clear answer
every time, never a 500, and never a redirect off this server."""

from __future__ import annotations

import re


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def new_match(client) -> str:
    token = csrf_of(client.get("/").text)
    made = client.post("/games", data={"csrf_token": token, "variant": "block", "player": ["Eve", "Finn"]})
    assert made.status_code == 302
    return made.headers["Location"].rsplit("/", 1)[-1]


def test_the_language_switch_keeps_the_choice_and_stays_on_this_server(client):
    answer = client.get("/lang/es?next=/t")
    assert answer.status_code == 302 and answer.headers["Location"] == "/t"
    assert "spinner-lang=es" in answer.headers["Set-Cookie"]
    assert 'lang="es"' in client.get("/").text
    for elsewhere in (
        "//evil.example/x",
        "https://evil.example/",
        "/\\evil.example",
        "",
        "x",
        "/\r\nSet-Cookie: a=b",
        "/t\x00",
    ):
        answer = client.get("/lang/en", query_string={"next": elsewhere})
        assert answer.status_code == 302 and answer.headers["Location"] == "/", elsewhere
    assert client.get("/lang/fr").status_code == 404
    assert 'lang="en"' in client.get("/").text


def test_the_browser_language_chooses_until_the_switch_does(client):
    assert 'lang="es"' in client.get("/", headers={"Accept-Language": "es-MX,es;q=0.9"}).text
    assert 'lang="en"' in client.get("/", headers={"Accept-Language": "de, fr;q=0.5"}).text


def test_rename_and_delete_need_the_scorer_and_say_what_is_wrong(client, app):
    game = new_match(client)
    token = csrf_of(client.get("/").text)
    renamed = client.post(f"/g/{game}/rename", data={"csrf_token": token, "title": "x" * 500}, follow_redirects=True)
    assert renamed.status_code == 200 and "title: at most 120 characters; nothing was recorded" in renamed.text
    assert "x" * 120 not in client.get("/").text  # refused whole, never cut to the title's length
    unsure = client.post(f"/g/{game}/delete", data={"csrf_token": token}, follow_redirects=True)
    assert unsure.status_code == 200 and "Tick the box to delete the match for good." in unsure.text
    stranger = app.test_client()  # another browser: no scorer role in its session
    assert stranger.post(f"/g/{game}/delete", data={"sure": "1"}).status_code == 401
    assert stranger.post(f"/g/{game}/rename", data={"title": "mine"}).status_code == 401
    assert client.post(f"/g/{game}/delete", data={"sure": "1"}).status_code == 403  # no CSRF token
    gone = client.post(f"/g/{game}/delete", data={"csrf_token": token, "sure": "1"})
    assert gone.status_code == 302
    assert client.get(f"/g/{game}").status_code == 404
    assert client.post(f"/g/{game}/delete", data={"csrf_token": token, "sure": "1"}).status_code == 404
    assert client.get(f"/api/games/{game}/history").status_code == 404
