"""docs/deploy.md's nginx configuration, run for real in front of three `spinner serve` processes on
one PostgreSQL: every request of a match reaches one process, matches spread over all three, and a
phone watching through the proxy sees every version. Skipped where nginx or PostgreSQL is not
installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid
from collections import defaultdict
from pathlib import Path

import pytest

from tests.support.cluster import Cluster, Viewer, call
from tests.support.servers import ROOT, free_port
from tests.support.waiting import until
from tests.support.web import PLAYERS

pytestmark = pytest.mark.slow

DEPLOY = ROOT / "docs" / "deploy.md"
HAND = [
    {"type": "play", "seat": 0, "tile": "6-6"},
    {"type": "play", "seat": 1, "tile": "6-5", "end": "east"},
]


def documented() -> str:
    """The nginx block of docs/deploy.md, as a reader copies it."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.S)
    assert len(blocks) == 1, "docs/deploy.md should show one nginx configuration"
    return blocks[0]


def configured(block: str, port: int, servers: list[str], folder: Path) -> str:
    """The documented block with this test's address and processes, in a whole nginx.conf."""
    listen = "    listen 443 ssl;\n"
    assert listen in block, "the documented server block listens on 443"
    block = block.replace(listen, f"    listen 127.0.0.1:{port};\n")
    upstreams = re.findall(r"    server 127\.0\.0\.1:\d+;\n", block)
    assert len(upstreams) == 3, "the documented upstream lists three processes"
    listed = "".join(f"    server {address.removeprefix('http://')};\n" for address in servers)
    block = block.replace("".join(upstreams), listed)
    temp = folder / "temp"
    temp.mkdir(mode=0o777)
    return f"""
pid {folder}/nginx.pid;
error_log {folder}/error.log;
daemon off;
events {{}}
http {{
    log_format routed '$request_uri $upstream_addr';
    access_log {folder}/access.log routed;
    client_body_temp_path {temp};
    proxy_temp_path {temp};
{block}
}}
"""


@pytest.fixture
def nginx() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if found is None:
        pytest.skip("no nginx (apt-get install nginx-light)")
    return found


def test_the_documented_proxy_sends_each_match_to_one_process(nginx, postgres, tmp_path):
    url = postgres.create_database(f"proxy_{uuid.uuid4().hex}")
    cluster = Cluster(url, tmp_path)
    proxy: subprocess.Popen[str] | None = None
    try:
        servers = [cluster.serve() for _ in range(3)]
        port = free_port()
        conf = tmp_path / "nginx.conf"
        conf.write_text(configured(documented(), port, servers, tmp_path))
        checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        proxy = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(conf)], text=True)
        front = f"http://127.0.0.1:{port}"

        def answer() -> object:
            try:
                return call(f"{front}/api/games")
            except OSError:
                return None

        until(answer, "nginx to answer")

        games = []
        for _ in range(12):
            created = call(f"{front}/api/games", "POST", {"variant": "partners", "players": PLAYERS})
            call(f"{front}/api/games/{created['id']}/hands", "POST", {}, created["token"])
            games.append(created)
        watched = games[0]
        last = watched["version"] + 1 + len(HAND)
        viewers = [Viewer(front, watched["id"], last) for _ in range(2)]
        for viewer in viewers:
            viewer.start()
        for event in HAND:
            # at a table's pace: a play is seen before the next is laid (two changes made within a
            # few milliseconds may reach a stream as one board, the newer)
            version = call(f"{front}/api/games/{watched['id']}/events", "POST", event, watched["token"])["version"]
            for viewer in viewers:
                assert viewer.saw(version), f"a viewer through the proxy stopped at {viewer.versions}"
        for viewer in viewers:
            assert viewer.done.wait(60), f"a viewer through the proxy stopped at {viewer.versions}"
            assert viewer.versions == list(range(viewer.versions[0], last + 1)), viewer.versions
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=30)
        cluster.stop()

    served: dict[str, set[str]] = defaultdict(set)
    for line in (tmp_path / "access.log").read_text().splitlines():
        path, upstream = line.split(" ", 1)
        match = re.match(r"/(?:g|api/games)/([^/?]+)", path)
        if match:
            served[match[1]].add(upstream)
    ids = {created["id"] for created in games}
    assert ids <= set(served), "every match's requests are in the proxy's log"
    assert all(len(served[game]) == 1 for game in ids), {game: served[game] for game in ids}
    # twelve random ids on three processes: all on one would be a 1 in 177,147 chance
    assert len({next(iter(served[game])) for game in ids}) > 1, "the matches all went to one process"
