"""The API fuzzed against its own OpenAPI document on a live server: no answer is ever a 5xx (issue 37).

Schemathesis draws requests from /api/openapi.json, valid and invalid ones (wrong types, values
out of range, bodies of other kinds), for a bounded number of examples per operation. The path
names a real match and tournament and carries their tokens, so the requests reach the store and
the scorer rather than stopping at a 404 or 401.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed (pip install schemathesis)")
from hypothesis import HealthCheck, settings  # noqa: E402

from tests.support.web import PLAYERS  # noqa: E402
from webapp import openapi  # noqa: E402

#: Examples per operation: bounded by count, never by time (bench/fuzz_api.py runs more).
EXAMPLES = int(os.environ.get("SPINNER_FUZZ_EXAMPLES") or 10)
LOG = os.environ.get("SPINNER_FUZZ_LOG")
ROOT = Path(__file__).resolve().parent.parent

# The examples and fuzzing phases, bounded by EXAMPLES; the coverage phase (boundary values of
# every field) alone sends thousands of requests, past what a test run affords: the bench runs it.
COVERAGE = os.environ.get("SPINNER_FUZZ_COVERAGE") == "1"
CONFIG = schemathesis.config.SchemathesisConfig.from_dict(
    {"phases": {"coverage": {"enabled": COVERAGE}, "stateful": {"enabled": False}}}
)
schema = schemathesis.openapi.from_dict(openapi.document(), config=CONFIG)


@schemathesis.serializer("application/zip")
def _zip(ctx, value):  # a ZIP is bytes like any binary body (the import reads it as an archive)
    return {"data": value if isinstance(value, bytes) else str(value).encode()}


class NoReader:
    def __call__(self, variant: str):
        from webapp.readers import Unavailable

        raise Unavailable("no reader in the fuzz test: the photo is kept")


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    from tests.support.servers import start

    server, running = start(
        tmp_path_factory.mktemp("fuzz"), threads=16, SPINNER_READER=NoReader(), SSE_HEARTBEAT=0.05, SSE_LIFETIME=0.2
    )
    client = running.app.test_client()
    game = client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json()
    assert (
        client.post(
            f"/api/games/{game['id']}/hands", json={}, headers={"Authorization": f"Bearer {game['token']}"}
        ).status_code
        == 201
    )
    tournament = client.post("/api/tournaments", json={"title": "Fuzz night"}).get_json()
    running.ids = {"game_id": (game["id"], game["token"]), "tournament_id": (tournament["id"], tournament["token"])}
    yield running
    server.stop()


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
def test_no_request_is_answered_with_a_server_error(case, live):
    headers = {}
    for name, (value, token) in live.ids.items():
        if name in (case.path_parameters or {}):
            case.path_parameters[name] = value
            headers["Authorization"] = f"Bearer {token}"
    response = case.call(base_url=live.url, headers=headers, timeout=30)
    if LOG:  # bench/fuzz_api.py counts the examples per operation from here
        with open(LOG, "a") as log:
            log.write(f"{case.method} {case.path} {response.status_code}\n")
    assert response.status_code < 500, (
        case.method,
        case.formatted_path,
        case.query,
        str(case.body)[:300],
        response.status_code,
        response.text[:300],
    )


def test_every_api_route_is_in_the_document(live):
    assert openapi._uncovered(live.app) == []


def test_the_document_is_served_and_written_to_docs(live):
    import urllib.request

    with urllib.request.urlopen(f"{live.url}/api/openapi.json", timeout=10) as response:
        served = json.load(response)
    assert served["openapi"].startswith("3.1") and served == openapi.document()
    written = json.loads((ROOT / "docs" / "openapi.json").read_text())
    assert written == served, "docs/openapi.json is stale: python -m webapp.openapi > docs/openapi.json"
