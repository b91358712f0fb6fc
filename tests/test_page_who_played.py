"""Issue 34 on the page: who played it. After passes no photo shows, more than one seat may have
laid the tile the camera saw, and the follower asks (code "who_played", one candidate a seat,
likeliest first). The page proposes the likeliest seat's play and lists the seats (`seats`); the
camera box asks in players' words ("Who played 6-3? Ben (their turn), Cruz, Dee or Ana?") with a
button a seat, and one tap records the play for that seat. The pad's Pass is one tap for the seat
whose turn it is.

The follower's question is given in place of what it makes of the photo (`tests.support.camera.Asks`:
the follower that asks it is another change); the rest, from the upload to the record, is real.
"""

from __future__ import annotations

from tests.support.camera import who_played
from tests.support.records import play

# -- the proposal ---------------------------------------------------------------------------------


def test_a_who_played_question_proposes_the_likeliest_seat_and_lists_the_seats():
    from webapp.frames import proposal_of

    proposal = proposal_of(who_played("4-5", [2, 3, 0], "east"), live=False)
    assert proposal["status"] == "confirm" and proposal["sure"] is False
    assert proposal["seats"] == [2, 3, 0]
    assert proposal["events"] == [play(2, "4-5", "east")]
    assert proposal["choices"] == ["east"]
    assert [c[0]["event"] for c in proposal["candidates"]] == [play(s, "4-5", "east") for s in (2, 3, 0)]
    assert (proposal["code"], proposal["params"]) == ("who_played", {"tile": "4-5", "seats": [2, 3, 0]})
    # a lead: each seat's event has no end
    lead = proposal_of(who_played("6-6", [1, 2]), live=True)
    assert lead["seats"] == [1, 2] and lead["events"] == [play(1, "6-6")] and lead["choices"] == []


def test_any_other_question_is_proposed_as_before_without_seats():
    from webapp.frames import proposal_of

    asked = who_played("4-5", [2, 3, 0], "east")
    other = who_played("4-5", [2, 3, 0], "east")
    other.code, other.params = "unsure", {}
    before = proposal_of(other, live=False)
    assert "seats" not in before
    after = proposal_of(asked, live=False)
    assert {k: v for k, v in after.items() if k not in ("seats", "code", "params")} == {
        k: v for k, v in before.items() if k not in ("code", "params")
    }
