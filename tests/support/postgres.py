"""A throwaway PostgreSQL server for the tests: initdb in a temp folder, pg_ctl on a free port,
removed afterwards. Used where the server binaries are installed (apt-get install postgresql);
`binaries()` says where they are, or None, and the tests skip without them. Run as root (as in a
container), the server runs as the `postgres` user, which PostgreSQL insists on."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def binaries() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="spinner-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.as_user: list[str] = []
        self.user = pwd.getpwuid(os.getuid()).pw_name
        if os.getuid() == 0:
            try:
                postgres = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and there is no postgres user to run the server as") from None
            os.chown(self.folder, postgres.pw_uid, postgres.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
            self.user = "postgres"

    def _run(self, *args: str) -> None:
        result = subprocess.run(self.as_user + list(args), capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {result.stderr.strip() or result.stdout.strip()}")

    def start(self) -> str:
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8", "--no-sync"
        )
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def running() -> Iterator[Server]:
    bin_dir = binaries()
    if bin_dir is None:
        import pytest

        pytest.skip("no PostgreSQL server binaries (apt-get install postgresql)")
    server = Server(bin_dir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
