"""A restart loses nothing it answered: photos answered "queued" are read by the next run, and the
reader's processes end with the server however it ends (issue 37)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.camera import Script, make_app, photo, seen
from tests.support.waiting import until
from tests.support.web import PLAYERS, Table

ROOT = Path(__file__).resolve().parent.parent


def test_photos_left_queued_by_a_killed_server_are_read_after_a_restart(tmp_path):
    from webapp import frames
    from webapp.db import db
    from webapp.models import Frame

    before = make_app(tmp_path, SPINNER_READER=Script())
    client = before.test_client()
    t = Table(client, client.post("/api/games", json={"variant": "partners", "players": PLAYERS}).get_json())
    assert t.post("/hands", {}).status_code == 201
    # What a killed server leaves: photos kept and answered "queued", their reads never done.
    with before.test_request_context():
        left = [frames.intake(t.id, photo(), source="photo", who="Ana", seat=0).frame_id for _ in range(2)]
    assert [f["status"] for f in t.get("/frames").get_json()["frames"]] == ["queued", "queued"]

    script = Script()
    script.readings.append(seen("6-6"))
    after = make_app(tmp_path, SPINNER_READER=script)  # the next run, on the same database and files
    jobs = frames.requeue(after)
    assert [job.frame_id for job in jobs] == left
    for job in jobs:
        assert job.done.wait(30)
    with after.app_context():
        statuses = {f.id: f.status for f in db.session.query(Frame)}
    assert "queued" not in statuses.values()
    assert statuses[left[-1]] not in ("skipped", "unreadable")  # the newest was read
    assert frames.requeue(after) == []  # and nothing is read twice


CHILD = """
import os, sys, time
sys.path.insert(0, {root!r})
from webapp.readers import Pool
pool = Pool(1)
print(pool.get().submit(os.getpid).result(), flush=True)
time.sleep(600)
"""


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _gone(pid: int) -> bool:
    """Whether process `pid` has ended (a zombie whose exit status only waits to be collected counts)."""
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_reader_processes_end_with_the_server(how):
    server = subprocess.Popen([sys.executable, "-c", CHILD.format(root=str(ROOT))], stdout=subprocess.PIPE, text=True)
    try:
        reader = int(server.stdout.readline())
        children = _children(server.pid)
        assert reader in children and len(children) >= 2  # the reader and multiprocessing's resource tracker
        os.kill(server.pid, how)
        server.wait(30)
        for child in children:
            # polling the process table: nothing signals another process's end here
            until(lambda child=child: _gone(child), f"process {child} to end with the server")
    finally:
        if server.poll() is None:
            server.kill()
