"""`spinner serve`: the companion on cheroot, its addresses, and --https with a certificate that is
made once, kept, and verifies for the addresses it names."""

from __future__ import annotations

import json
import ssl
import urllib.request
from pathlib import Path

import pytest

from tests.support.servers import serve, stop, wait_for
from tests.support.waiting import PATIENCE_S

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def test_serve_answers_on_http_and_says_where(tmp_path):
    process, port = serve(tmp_path, "--no-qr")
    try:
        assert b"Start the match" in wait_for(f"http://127.0.0.1:{port}/", process=process)
        games = json.loads(wait_for(f"http://127.0.0.1:{port}/api/games"))
        assert games == {"games": []}
    finally:
        out = stop(process)
    assert f"open http://127.0.0.1:{port}/" in out
    assert (tmp_path / "data" / "spinner.db").is_file()  # the embedded default database


def test_https_makes_a_certificate_once_and_it_verifies(tmp_path):
    process, port = serve(tmp_path, "--https", "--no-qr")
    cert = tmp_path / "data" / "tls" / "cert.pem"
    try:
        # Listening on HTTPS means the certificate is made and written: then it must verify.
        wait_for(f"https://127.0.0.1:{port}/", ssl._create_unverified_context(), process=process)
        context = ssl.create_default_context(cafile=str(cert))
        assert b"Start the match" in wait_for(f"https://127.0.0.1:{port}/", context)
        with pytest.raises(urllib.error.URLError):  # an ordinary client does not trust it: phones are asked once
            urllib.request.urlopen(f"https://127.0.0.1:{port}/", timeout=PATIENCE_S)
    finally:
        out = stop(process)
    assert "Made the self-signed certificate" in out and "SHA-256 " in out
    first = cert.read_bytes()

    process, port = serve(tmp_path, "--https", "--no-qr")
    try:
        wait_for(f"https://127.0.0.1:{port}/", ssl.create_default_context(cafile=str(cert)), process=process)
    finally:
        out = stop(process)
    assert "Using the self-signed certificate" in out
    assert cert.read_bytes() == first  # kept: phones are not asked again
