"""docs/deploy.md run for real on this machine: PostgreSQL, three `spinner serve` processes that queue
their photos (SPINNER_READERS=queue) and two `spinner reader-worker`s reading them with the bundled
models. Matches are played through different processes, with camera frames and photos sent through
others; every viewer on every process sees every version, and every frame is answered or skipped,
none lost, one worker killed outright on the way. Skipped where PostgreSQL is not installed."""

from __future__ import annotations

import signal
import uuid
from typing import Any

import psycopg
import pytest

from tests.support.camera import bare_table
from tests.support.cluster import Cluster, Viewer, call, post_photo
from tests.support.waiting import until
from tests.support.web import PLAYERS

pytestmark = pytest.mark.slow

HAND = [
    {"type": "play", "seat": 0, "tile": "6-6"},
    {"type": "play", "seat": 1, "tile": "6-5", "end": "east"},
    {"type": "play", "seat": 2, "tile": "5-5", "end": "east"},
    {"type": "play", "seat": 3, "tile": "6-4", "end": "west"},
]
#: what a frame's request may be answered: read (nothing on a bare table), skipped, or still waiting
#: for a worker (a live frame waits two seconds at most; the queue then answers it later)
ANSWERED = {"nothing", "skipped", "queued"}


def ledger(url: str) -> dict[str, int]:
    with psycopg.connect(url) as connection:
        return dict(connection.execute("SELECT state, count(*) FROM read_jobs GROUP BY state").fetchall())


def frames_left_queued(url: str) -> list[Any]:
    with psycopg.connect(url) as connection:
        return connection.execute("SELECT id, status FROM frames WHERE status = 'queued'").fetchall()


def settled(url: str) -> dict[str, int] | None:
    found = ledger(url)
    return found if not found.get("waiting") and not found.get("reading") else None


def test_matches_through_three_web_processes_and_two_reader_workers(postgres, tmp_path):
    from vision.read.models import models_dir

    url = postgres.create_database(f"workers_{uuid.uuid4().hex}")  # a port number may come twice
    cluster = Cluster(url, tmp_path, models=models_dir())
    table = bare_table(640, 480)  # read: nothing new in it
    answers: list[dict[str, Any]] = []
    try:
        servers = [cluster.serve()]  # the first migrates the schema; then the others
        servers += [cluster.serve(), cluster.serve()]
        matches = []
        for m in range(2):
            created = call(f"{servers[m]}/api/games", "POST", {"variant": "partners", "players": PLAYERS})
            call(f"{servers[m + 1]}/api/games/{created['id']}/hands", "POST", {}, created["token"])
            matches.append(created)

        # No worker yet: each table's frames wait in the queue, each newer one skipping the one before.
        for k in range(4):
            for m, match in enumerate(matches):
                frames = f"{servers[(m + k) % 3]}/api/games/{match['id']}/frames"
                answers.append(post_photo(frames, table, match["token"], "?source=camera&wait=0"))
        assert {a["status"] for a in answers} == {"queued"}
        assert ledger(url) == {"waiting": 2, "skipped": 6}
        workers = [cluster.worker(), cluster.worker()]
        assert until(lambda: settled(url), "the workers to read the newest frame of each table") == {
            "done": 2,
            "skipped": 6,
        }

        for m, match in enumerate(matches):
            game, token = match["id"], match["token"]
            version = call(f"{servers[0]}/api/games/{game}")["version"]
            viewers = [Viewer(address, game) for address in servers for _ in range(2)]
            for viewer in viewers:
                viewer.start()
            frames = [f"{address}/api/games/{game}/frames" for address in servers]
            for k, event in enumerate(HAND):
                for viewer in viewers:  # each has the board of the version before this change
                    until(
                        lambda v=viewer, at=version: v.versions and v.versions[-1] >= at,
                        f"a viewer on {viewer.url} to see version {version} (it saw {viewer.versions})",
                    )
                version = call(f"{servers[(m + k) % 3]}/api/games/{game}/events", "POST", event, token)["version"]
                # the table's live camera, through another process than the change
                answers.append(post_photo(frames[(m + k + 1) % 3], table, token, "?source=camera"))
            # a photo someone took, through the third process: answered once read
            shot = post_photo(frames[(m + 2) % 3], table, token)
            assert shot["status"] == "nothing", shot
            answers.append(shot)
            # a burst from the camera, and the first worker killed outright while frames are read
            for k in range(3):
                answers.append(post_photo(frames[k], table, token, "?source=camera&wait=0"))
            if m == 0:
                workers[0].send_signal(signal.SIGKILL)
            for viewer in viewers:
                viewer.until_version(version)
            for viewer in viewers:
                assert viewer.done.wait(60), f"a viewer on {viewer.url} stopped at {viewer.versions}"
                assert viewer.versions == list(range(viewer.versions[0], version + 1)), viewer.versions
                assert viewer.versions[0] <= version - len(HAND)

        assert {a["status"] for a in answers} <= ANSWERED, answers
        # every frame posted is one job, and every job is settled: read or skipped, none lost
        final = until(lambda: settled(url), "the living worker to settle every frame (the dead one's too)")
        assert set(final) <= {"done", "skipped"}, final
        assert sum(final.values()) == len(answers)
        assert frames_left_queued(url) == []
        assert workers[1].poll() is None, "the living worker died"
    finally:
        cluster.stop()
