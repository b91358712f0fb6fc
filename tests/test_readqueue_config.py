"""The settings of reading past one machine: SPINNER_READERS and SPINNER_PHOTO_DIR, and the clear
refusals of a setting a server or a worker cannot run with (no PostgreSQL needed)."""

from __future__ import annotations

import pytest


def test_readers_are_read_by_the_server_unless_told_otherwise(tmp_path):
    from webapp import config

    loaded = config.load({"SPINNER_DATA": tmp_path, "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"})
    assert loaded["READERS"] == "process"
    assert loaded["SPINNER_PHOTOS"] == tmp_path.resolve() / "frames"
    assert config.readers(" Queue ", "postgresql+psycopg://u@h/db") == "queue"


def test_a_shared_photo_folder_is_where_every_process_keeps_photos(tmp_path, monkeypatch):
    from webapp import config

    monkeypatch.setenv("SPINNER_PHOTO_DIR", str(tmp_path / "shared" / "photos"))
    loaded = config.load({"SPINNER_DATA": tmp_path / "mine", "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"})
    assert loaded["SPINNER_PHOTOS"] == (tmp_path / "shared" / "photos").resolve()


@pytest.mark.parametrize(
    ("value", "url", "said"),
    [
        ("workers", "postgresql+psycopg://u@h/db", "'process' (the default) or 'queue'"),
        ("queue", "sqlite:///spinner.db", "keeps its queue in PostgreSQL"),
    ],
)
def test_a_readers_setting_the_server_cannot_run_with_is_refused_clearly(value, url, said):
    from webapp import config

    with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")):
        config.readers(value, url)


def test_serve_refuses_a_queue_without_postgresql_in_words(cli_runner, tmp_path, monkeypatch):
    from spinner.cli import main

    monkeypatch.setenv("SPINNER_DATA", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SPINNER_READERS", "queue")
    result = cli_runner.invoke(main, ["serve", "--no-qr"])
    assert result.exit_code == 1 and "keeps its queue in PostgreSQL" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_reader_worker_on_sqlite_says_what_it_needs(cli_runner, tmp_path, monkeypatch):
    from spinner.cli import main

    monkeypatch.setenv("SPINNER_DATA", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SPINNER_READERS", raising=False)
    result = cli_runner.invoke(main, ["reader-worker"])
    assert result.exit_code == 1 and "the read queue is in PostgreSQL" in result.output
