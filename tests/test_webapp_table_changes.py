"""The live camera's table changes (`webapp.table_changes`): numbered as they settle, explained by
a new tile seen on a still table, counted since the last play."""

from __future__ import annotations

import numpy as np

from vision.follow.motion import thumbnail
from webapp.table_changes import TableChanges


def picture(*spots: int) -> np.ndarray:
    image = np.full((120, 160, 3), 90, np.uint8)
    for x in spots:
        image[50:62, 10 + 25 * x : 30 + 25 * x] = 250
    return thumbnail(image)


ARM = picture(0, 1, 2, 3, 4, 5)  # something large over the table


def test_changes_are_numbered_once_each_as_the_table_settles():
    table = TableChanges()
    looks = [table.see(picture()) for _ in range(3)]
    assert [(k.change, k.still) for k in looks] == [(0, True), (1, True), (1, True)]  # the first settled look
    table.settle(looks[1], version=1)
    moving = table.see(picture(1))
    assert (moving.change, moving.still) == (2, False)  # the change under way
    assert [table.see(picture(1)).change for _ in range(2)] == [2, 2]
    assert table.see(ARM).change == 3  # an arm over the table...
    gone = [table.see(picture(1)) for _ in range(3)]  # ...and gone: moving, then the same change again
    assert [(k.change, k.still) for k in gone] == [(3, False), (2, True), (2, True)]


def test_unexplained_changes_before_a_look_are_counted_until_a_play_settles_them():
    table = TableChanges()
    start = [table.see(picture()) for _ in range(2)][-1]
    assert table.unexplained_before(start, version=1) == 0  # the starting point
    missed = [table.see(picture(1)) for _ in range(2)][-1]  # a play the reader did not see
    assert table.unexplained_before(missed, version=1) == 0  # nothing before its own change
    seen = [table.see(picture(1, 2)) for _ in range(2)][-1]
    table.explain(seen, {"1-2"})
    assert table.unexplained_before(seen, version=1) == 1
    table.explain(missed, {"1-1"})  # a later look at that table found its tile after all
    assert table.unexplained_before(seen, version=1) == 0
    table.settle(seen, version=2)
    later = [table.see(picture(1, 2, 3)) for _ in range(2)][-1]
    assert table.unexplained_before(later, version=2) == 0


def test_a_moving_look_cannot_explain_its_change_and_a_new_version_restarts_the_count():
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    [table.see(picture(1)) for _ in range(2)]  # missed
    arm = table.see(ARM)
    table.explain(arm, {"1-1"})  # an arm's look proves nothing about the table
    after = [table.see(picture(1, 2)) for _ in range(2)][-1]
    assert table.unexplained_before(after, version=1) == 1
    assert table.unexplained_before(after, version=2) == 0  # a play scored on the pad meanwhile


def test_a_tile_still_new_from_an_earlier_change_explains_no_later_change():
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    first = [table.see(picture(1)) for _ in range(2)][-1]
    table.explain(first, {"6-6"})  # seen, not recorded (asked about, say)
    second = [table.see(picture(1, 2)) for _ in range(2)][-1]
    table.explain(second, {"6-6"})  # a play the reader missed; 6-6 still new
    third = [table.see(picture(1, 2, 3)) for _ in range(2)][-1]
    assert table.unexplained_before(third, version=1) == 1


def test_a_play_scored_on_the_pad_settles_only_the_changes_up_to_its_tile():
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    asked = [table.see(picture(1)) for _ in range(2)][-1]
    table.explain(asked, {"0-5"})  # asked about, turned down: the player pads 0-5
    missed = [table.see(picture(1, 2)) for _ in range(2)][-1]
    table.explain(missed, {"0-5"})  # 0-0 laid meanwhile, not read; 0-5 still new then
    after = [table.see(picture(1, 2, 3)) for _ in range(2)][-1]
    # the pad's 0-5 (version 2) settles its own change, not the one 0-0 made after it
    assert table.unexplained_before(after, version=2, played=frozenset({"0-5"})) == 1
    # a pad play the camera never saw settles everything up to this frame, as before
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    [table.see(picture(1)) for _ in range(2)]
    after = [table.see(picture(1, 2)) for _ in range(2)][-1]
    assert table.unexplained_before(after, version=2, played=frozenset({"3-3"})) == 0


def test_a_tile_first_seen_before_a_pad_play_explains_no_later_change():
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    first = [table.see(picture(1)) for _ in range(2)][-1]
    table.explain(first, {"1-3"})  # asked about, not played yet
    padded = [table.see(picture(1, 2)) for _ in range(2)][-1]
    assert table.unexplained_before(padded, version=2, played=frozenset({"2-5"})) == 0  # a pad play never seen
    table.explain(padded, {"1-3", "0-5"})
    missed = [table.see(picture(1, 2, 3)) for _ in range(2)][-1]
    table.explain(missed, {"0-5"})  # 0-0 laid, not read
    # 1-3 on the pad: 0-5 was first seen in the change before, so it explains that one only
    later = [table.see(picture(1, 2, 3, 4)) for _ in range(2)][-1]
    assert table.unexplained_before(later, version=3, played=frozenset({"2-5", "1-3"})) == 1
    # 0-5 on the pad as well: the change 0-0 made is still open
    last = [table.see(picture(1, 2, 3, 4, 5)) for _ in range(2)][-1]
    assert table.unexplained_before(last, version=4, played=frozenset({"2-5", "1-3", "0-5"})) == 2


def test_a_change_is_explained_only_by_a_tile_the_frame_still_reads_as_new():
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    once = [table.see(picture(1)) for _ in range(2)][-1]
    table.explain(once, {"2-4"})  # read at one look, lost at the next: never recorded
    later = [table.see(picture(1, 2)) for _ in range(2)][-1]
    assert table.unexplained_before(later, version=1, new=frozenset({"2-5"})) == 1
    assert table.unexplained_before(later, version=1, new=frozenset({"2-4", "2-5"})) == 0
    assert table.unexplained_before(later, version=1) == 0  # the frame's new tiles not known: any explains


def test_a_play_recorded_late_leaves_the_changes_after_its_tile_open():
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    asked = [table.see(picture(1)) for _ in range(2)][-1]
    table.explain(asked, {"1-3"})  # asked about while the players answer
    late = [table.see(picture(1, 2)) for _ in range(2)][-1]  # 0-5 laid meanwhile, not read
    table.explain(late, {"1-3"})
    table.settle(late, version=2, played=frozenset({"1-3"}), tile="1-3")  # 1-3 recorded from this frame
    after = [table.see(picture(1, 2, 3)) for _ in range(2)][-1]
    assert table.unexplained_before(after, version=2, played=frozenset({"1-3"})) == 1  # the 0-5's change
    # recorded from the change it was first seen in, it spends everything up to this frame
    table = TableChanges()
    table.unexplained_before([table.see(picture()) for _ in range(2)][-1], version=1)
    seen = [table.see(picture(1)) for _ in range(2)][-1]
    table.explain(seen, {"1-3"})
    table.settle(seen, version=2, played=frozenset({"1-3"}), tile="1-3")
    after = [table.see(picture(1, 2)) for _ in range(2)][-1]
    assert table.unexplained_before(after, version=2, played=frozenset({"1-3"})) == 0
