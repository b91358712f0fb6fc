"""The `spinner` command: score, simulate, demo, and clear errors for bad input."""

from __future__ import annotations

import json

from spinner.cli import main
from tests.support.records import SIX_BLOCK_PLAYS, hand, play, record


def test_help_lists_the_subcommands(cli_runner):
    result = cli_runner.invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in ("score", "simulate", "demo"):
        assert name in result.output


def test_score_prints_the_answer_of_game_record(cli_runner, tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record("partners", hand(*SIX_BLOCK_PLAYS))))
    result = cli_runner.invoke(main, ["score", str(path)])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["sides"] == ["Ana & Cruz", "Ben & Dee"] and answer["totals"] == [0, 10]
    assert [p["count"] for p in answer["hands"][0]["plays"]][:2] == [12, 13]


def test_score_refuses_a_broken_record_naming_hand_event_and_rule(cli_runner, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record("partners", hand(play(0, "6-6"), play(1, "1-2")))))
    result = cli_runner.invoke(main, ["score", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""  # nothing is scored
    assert "hand 0, event 1: 1-2 fits no open end (west shows 6, east shows 6)" in result.stderr


def test_score_partial_prints_what_stands_before_the_broken_event(cli_runner, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record("partners", hand(*SIX_BLOCK_PLAYS[:8], play(0, "1-1")))))
    result = cli_runner.invoke(main, ["score", "--partial", str(path)])
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["totals"] == [0, 10] and len(answer["hands"][0]["plays"]) == 8
    assert answer["error"] == {
        "error": "1-1 fits no open end (west shows 6, east shows 4, north shows 6, south shows 6)",
        "hand": 0,
        "event": 8,
    }


def test_score_names_unreadable_files(cli_runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = cli_runner.invoke(main, ["score", str(bad)])
    assert result.exit_code == 1 and "not valid JSON at line 1, column 2" in result.stderr
    result = cli_runner.invoke(main, ["score", str(tmp_path / "missing.json")])
    assert result.exit_code == 1 and "cannot be read" in result.stderr
    binary = tmp_path / "photo.json"
    binary.write_bytes(b"\xff\xd8\xff\xe0")
    result = cli_runner.invoke(main, ["score", str(binary)])
    assert result.exit_code == 1 and "is not text in UTF-8" in result.stderr


def test_score_names_json_python_cannot_hold(cli_runner, tmp_path):
    """Arrays nested 100,000 deep (RecursionError) and a 5,000-digit number (ValueError) were tracebacks;
    they are refused in the web's words (`scorer.schema.loads`)."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    result = cli_runner.invoke(main, ["score", str(deep)])
    assert result.exit_code == 1 and result.stderr == f"Error: {deep} nests lists and objects more than 32 deep\n"
    long = tmp_path / "long.json"
    long.write_text('{"variant": "partners", "options": {"target": ' + "9" * 5000 + "}}")
    result = cli_runner.invoke(main, ["score", str(long)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {long}: the integer {'9' * 20}... is too large (at most {2**53 - 1})\n"
    option = cli_runner.invoke(main, ["simulate", "--variant", "partners", "--option", "target=" + "9" * 5000])
    assert option.exit_code == 1 and "option target must be a positive whole number" in option.output
    watched = cli_runner.invoke(main, ["watch", str(tmp_path), "--option", "target=" + "9" * 5000])
    assert watched.exit_code == 2 and "option target must be a positive whole number" in watched.output


def test_simulate_names_an_out_folder_it_cannot_make(cli_runner, tmp_path):
    (tmp_path / "file").write_text("")
    result = cli_runner.invoke(main, ["simulate", "--variant", "partners", "--out", str(tmp_path / "file" / "out")])
    assert (
        result.exit_code == 1
        and result.output == f"Error: --out {tmp_path / 'file/out'}: cannot be made (Not a directory)\n"
    )


def test_simulate_writes_records_that_score_the_same(cli_runner, tmp_path):
    result = cli_runner.invoke(
        main,
        [
            "simulate",
            "--variant",
            "all-fives",
            "--players",
            "3",
            "--matches",
            "2",
            "--seed",
            "7",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("match-*.json"))
    assert len(files) == 2
    scored = cli_runner.invoke(main, ["score", str(files[0])])
    answer = json.loads(scored.output)
    assert answer["winner"] is not None
    assert "won by " + answer["sides"][answer["winner"]] in result.output.splitlines()[0]
    again = cli_runner.invoke(
        main,
        [
            "simulate",
            "--variant",
            "all-fives",
            "--players",
            "3",
            "--matches",
            "1",
            "--seed",
            "7",
            "--out",
            str(tmp_path / "again"),
        ],
    )
    assert again.exit_code == 0
    assert (tmp_path / "again" / "match-0001.json").read_text() == files[0].read_text()


def test_simulate_observed_and_options(cli_runner, tmp_path):
    result = cli_runner.invoke(
        main,
        ["simulate", "--variant", "partners", "--option", "preset=doscientos", "--observed", "--out", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    rec = json.loads((tmp_path / "match-0001.json").read_text())
    assert rec["options"] == {"preset": "doscientos"}
    assert all("deal" not in h for h in rec["hands"])
    result = cli_runner.invoke(main, ["simulate", "--variant", "partners", "--option", "sniff"])
    assert result.exit_code != 0 and "write NAME=VALUE" in result.output
    result = cli_runner.invoke(main, ["simulate", "--variant", "block", "--players", "7"])
    assert result.exit_code == 1 and "block is played by 2 or 3 or 4 players, not 7" in result.output


def test_demo_shows_a_scored_match(cli_runner):
    result = cli_runner.invoke(main, ["demo", "--seed", "3"])
    assert result.exit_code == 0
    assert "A simulated match of partners (seed 3)" in result.output
    assert "won by" in result.output.splitlines()[-1]


def test_read_and_eval_refuse_a_reading_size_or_enlargement_past_their_bounds(cli_runner, tmp_path):
    """`read --size 30000 --enlarge 30` asked for gigabytes before anything was said."""
    photo = tmp_path / "table.jpg"
    photo.write_bytes(b"")
    for command in (["read", str(photo)], ["eval", "--synthetic", str(tmp_path)]):
        size = cli_runner.invoke(main, [*command, "--size", "30000"])
        assert (
            size.exit_code == 2 and "Invalid value for '--size': 30000 is not in the range 32<=x<=2560" in size.output
        )
        enlarge = cli_runner.invoke(main, [*command, "--enlarge", "30"])
        assert enlarge.exit_code == 2
        assert "Invalid value for '--enlarge': 30.0 is not in the range 1<=x<=4.0" in enlarge.output
    taken = cli_runner.invoke(main, ["read", str(photo), "--size", "2560", "--enlarge", "4"])
    assert taken.exit_code == 1  # the bounds themselves are taken: it is the empty photo that is refused


def test_eval_refuses_a_real_folder_that_holds_none_of_the_real_sets(cli_runner, tmp_path):
    """It said "absent" for each set and exited 0, as if it had measured."""
    (tmp_path / "holiday").mkdir()
    empty = cli_runner.invoke(main, ["eval", "--real", str(tmp_path / "holiday")])
    assert empty.exit_code == 2
    assert (
        f"Invalid value for --real: {tmp_path / 'holiday'}: holds none of the real sets, "
        "the folders ddd-board and domibot-crops" in " ".join(empty.output.split())
    )
    missing = cli_runner.invoke(main, ["eval", "--real", str(tmp_path / "absent")])
    assert missing.exit_code == 2 and "absent: is no folder, so it holds none of the real sets" in missing.output


def test_score_refuses_a_key_given_twice_as_the_web_does(cli_runner, tmp_path):
    """The last of two equal keys won, as on the web; other readers keep the first."""
    path = tmp_path / "twice.json"
    path.write_text('{"variant": "partners", "players": ["A","B","C","D"], "players": ["E","F","G","H"]}')
    result = cli_runner.invoke(main, ["score", str(path)])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {path}: the key 'players' is given twice in one object: give each key once\n"


def test_score_reads_the_encodings_the_web_reads(cli_runner, tmp_path):
    """The web took a byte order mark and UTF-16 and this refused both: now both take UTF-8 with
    or without a byte order mark, and refuse UTF-16 and Latin-1 in the same words."""
    data = json.dumps(
        {**record("partners", hand(*SIX_BLOCK_PLAYS)), "players": ["José", "Ben", "Cruz", "Dee"]}, ensure_ascii=False
    )
    path = tmp_path / "match.json"
    path.write_bytes(data.encode("utf-8-sig"))
    result = cli_runner.invoke(main, ["score", str(path)])
    assert result.exit_code == 0, result.output
    result = cli_runner.invoke(main, ["score", "-"], input=data.encode("utf-8-sig"))
    assert result.exit_code == 0, result.output
    path.write_bytes(data.encode("utf-16"))
    result = cli_runner.invoke(main, ["score", str(path)])
    assert result.exit_code == 1 and result.stderr == f"Error: {path} is in UTF-16: send JSON in UTF-8\n"
    path.write_bytes(data.encode("latin-1"))
    result = cli_runner.invoke(main, ["score", str(path)])
    assert result.exit_code == 1 and f"{path} is not text in UTF-8 (Latin-1" in result.stderr
