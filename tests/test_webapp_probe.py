"""What an adversarial probe of the companion found: each a 500, a lost or wrong record, or a
silent change, now a clear refusal (or the right answer)."""

from __future__ import annotations

import pytest


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
