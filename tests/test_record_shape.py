"""One verdict for one record: `spinner score` and the web import hold a record to the same check
(`scorer.schema`), refuse the same records in the same words, and read a null field as left out
(GAME_RECORD.md: optional fields "may be left out"). The probe found the command line accepting
what the web refused (`"end": null`, `"options": null`, a play's `"reason": null`, players "A" and
"a", the tile " 6-3") and a traceback on `"hands": [null]`."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scorer.schema import ShapeError, check_record
from spinner.cli import main
from tests.support.records import SIX_BLOCK_PLAYS, draw, hand, play, record


def _base() -> dict[str, Any]:
    return record("partners", hand(*SIX_BLOCK_PLAYS))


def _observed() -> dict[str, Any]:
    """all-fives for four, observed: seat 1 draws a tile in sight and one unseen, then plays."""
    return record("all-fives", hand(play(0, "6-6"), draw(1, "1-2"), draw(1, count=1), play(1, "6-5"), leader=0))


def _cli(cli_runner, tmp_path, data: Any) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    result = cli_runner.invoke(main, ["score", str(path)])
    return result.exit_code, result.stdout, result.stderr.replace(f"{path}: ", "FILE: ")


def _web(client, data: Any) -> tuple[int, dict[str, Any]]:
    made = client.post("/api/games", json=data)
    if made.status_code != 201:
        return made.status_code, made.get_json()
    return 201, client.get(f"/api/games/{made.get_json()['id']}/score").get_json()


def _with(change: Any, base: Any = _base) -> dict[str, Any]:
    data = copy.deepcopy(base())
    change(data)
    return data


REFUSED = [
    (
        _with(lambda r: r.update(hands=[None])),
        "hands[0]",
        "hands[0]: a hand is a JSON object with its events (and its leader and deal, if given) "
        "(None is not of type 'object')",
    ),
    (
        _with(lambda r: r.update(hands=[5])),
        "hands[0]",
        "hands[0]: a hand is a JSON object with its events (and its leader and deal, if given) "
        "(5 is not of type 'object')",
    ),
    (
        _with(lambda r: r["hands"][0]["events"][1].update(tile=" 6-3")),
        "hands[0].events[1].tile",
        'hands[0].events[1].tile: a tile is two pip values in ASCII digits, like "3-5" '
        "(' 6-3' does not match '^[0-9]{1,2}-[0-9]{1,2}$')",
    ),
    (
        _with(lambda r: r.update(players=["A", "B", "a", "D"])),
        "players[2]",
        "two players are called 'A' (seats 1 and 3): give each a name the table can tell apart (an initial will do)",
    ),
    *(
        (
            _with(lambda r, twin=twin: r.update(players=["Ana", "Ben", "Cruz", twin])),
            "players[3]",
            "two players are called 'Ana' (seats 1 and 4): give each a name the table can tell apart "
            "(an initial will do)",
        )
        # invisible characters and fullwidth letters made a second "Ana" the table could not tell apart
        for twin in (
            "Ana\u2060",
            "\ufeffAna",
            "A\u00adna",
            "Ana\u034f",
            "Ana\u061c",
            "Ana\U000e0041",
            "Ana\u180e",
            "Ana\u3164",
            "\uff21\uff4e\uff41",
            "ana\ufe0f",
            "\u0410na",  # a Cyrillic A
            "\u0391n\u03b1",  # Greek alphas
        )
    ),
    *(
        (
            _with(lambda r, blank=blank: r.update(players=["Ana", blank, "Cruz", "Dee"])),
            "players",
            "every player needs a name (the list runs over the seats in play order)",
        )
        for blank in ("\u3164", "\u2800", "\u200b\ufeff", "\uffa0")
    ),
    (  # 1.0 passed JSON Schema's "integer" and the scorer refused it: 422, not 400
        _with(lambda r: r["hands"][0].update(leader=1.0)),
        "hands[0].leader",
        "hands[0].leader: a seat number (0 for the first player) (1.0 is not of type 'integer', 'null')",
    ),
    (
        _with(lambda r: r["hands"][0]["events"][0].update(seat=0.0)),
        "hands[0].events[0].seat",
        "hands[0].events[0].seat: a seat number (0 for the first player) (0.0 is not of type 'integer', 'null')",
    ),
    (
        _with(lambda r: r["hands"][0].update(unseen_draws="yes")),
        "hands[0].unseen_draws",
        "hands[0].unseen_draws: 'yes' is not of type 'boolean', 'null'",
    ),
]


@pytest.mark.parametrize("data, field, words", REFUSED)
def test_the_command_line_and_the_web_refuse_the_same_records_in_the_same_words(
    cli_runner, tmp_path, client, data, field, words
):
    status, said = _web(client, data)
    assert status == 400 and said["error"] in (f"the body: {words}", words), said
    assert said["field"] == field
    code, out, err = _cli(cli_runner, tmp_path, data)
    assert code == 1 and out == "" and "Traceback" not in err
    assert err == f"Error: FILE: {words}\n"


def test_a_record_of_the_wrong_shape_is_one_error_naming_its_hand_and_event():
    with pytest.raises(ShapeError) as refused:
        check_record(_with(lambda r: r["hands"][0]["events"][1].update(tile=" 6-3")), "it")
    assert (refused.value.hand, refused.value.event, refused.value.field) == (0, 1, "hands[0].events[1].tile")
    assert str(refused.value).startswith("it: hands[0].events[1].tile: a tile is")


def _every_optional_null(data: dict[str, Any]) -> None:
    data["options"] = None
    for h in data["hands"]:
        h.setdefault("leader", None)
        h["deal"] = None
        h["unseen_draws"] = None
        for event in h["events"]:
            for name in ("seat", "team", "tile", "end", "count", "tiles", "pips", "points", "reason"):
                event.setdefault(name, None)


NULLS = [
    ("the lead's end", _base, lambda r: r["hands"][0]["events"][0].update(end=None)),
    ("the options", _base, lambda r: r.update(options=None)),
    ("a play's reason", _base, lambda r: r["hands"][0]["events"][1].update(reason=None)),
    ("a seen draw's count", _observed, lambda r: r["hands"][0]["events"][1].update(count=None)),
    ("an unseen draw's tile", _observed, lambda r: r["hands"][0]["events"][2].update(tile=None)),
    ("every optional field", _base, _every_optional_null),
    ("every optional field of an observed hand", _observed, _every_optional_null),
]


@pytest.mark.parametrize("what, base, change", NULLS, ids=[n[0] for n in NULLS])
def test_a_null_field_reads_as_left_out_on_the_command_line_and_the_web(
    cli_runner, tmp_path, client, what, base, change
):
    plain = base()
    nulls = _with(change, base)
    code, out, err = _cli(cli_runner, tmp_path, plain)
    assert code == 0, err
    expected = json.loads(out)
    code, out, err = _cli(cli_runner, tmp_path, nulls)
    assert code == 0, err
    assert json.loads(out) == expected
    status, answer = _web(client, nulls)
    assert status == 201, answer
    assert answer["totals"] == expected["totals"] and answer["hands"] == expected["hands"]
    # what is kept and scored is the record with the nulls left out
    assert check_record(nulls)["hands"] == check_record(plain)["hands"]


def test_an_appended_event_reads_a_null_field_as_left_out(table):
    assert table.event({"type": "play", "seat": 0, "tile": "6-6", "end": None, "reason": None}).status_code == 201
    assert table.record()["hands"][0]["events"] == [{"type": "play", "seat": 0, "tile": "6-6"}]


def test_every_format_character_is_taken_out_of_a_name():
    """`FORMAT_CHARACTERS` is Unicode's category Cf as this Python knows it: a newer Unicode adding
    one fails here rather than letting it into names unseen."""
    import re
    import unicodedata

    from scorer.schema import FORMAT_CHARACTERS, clean_text, name_key

    listed = re.compile(f"[{FORMAT_CHARACTERS}]")
    missing = [hex(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf" and not listed.match(chr(c))]
    assert missing == []
    assert clean_text("A\u00adna \u2060Mar\u00eda\ufeff", 40) == "Ana María"
    assert name_key("\uff21\uff4e\uff41") == name_key("ANA") == "ana"
    assert name_key("Jose\u0301") == name_key("Jos\u00e9")
