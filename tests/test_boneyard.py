"""Where the boneyard's backs lie: a back gone from where the frame changed was taken."""

from __future__ import annotations

import cv2
import numpy as np

from vision.follow.boneyard import BoneyardWatch
from vision.follow.motion import Region
from vision.read.reading import Ignored, Reading


def back(x: float, y: float) -> Ignored:
    return Ignored("face_down", ((x - 5, y - 10), (x + 5, y - 10), (x + 5, y + 10), (x - 5, y + 10)), 0.9)


def frame(*backs: Ignored) -> Reading:
    return Reading("f", 640, 480, (), ignored=backs)


HEAP = [back(100.0 + 14 * k, 400.0) for k in range(5)]


def test_a_back_missed_where_nothing_changed_has_not_left():
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    assert watch.look(frame(*HEAP[1:]), [Region(300, 100, 400, 200)]) == 0
    assert len(watch.backs) == 5 and watch.taken == 0
    # found again where it lay: still one back, not two
    assert watch.look(frame(*HEAP), [Region(300, 100, 400, 200)]) == 0 and len(watch.backs) == 5


def test_a_back_gone_from_where_the_frame_changed_was_taken_and_is_forgotten():
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    taken = watch.look(frame(*HEAP[:-1]), [Region(150, 380, 170, 420)])
    assert taken == 1 and watch.taken == 1 and len(watch.backs) == 4
    # the same change seen again takes nothing more
    assert watch.look(frame(*HEAP[:-1]), [Region(150, 380, 170, 420)]) == 0 and watch.taken == 1


def test_a_back_missed_in_a_photo_is_not_taken_without_changed_regions():
    # a photo taken on purpose says nothing of where the table changed: a missing back may be
    # the reader's miss as well as a draw
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    assert watch.look(frame(*HEAP[:-1]), None) == 0 and len(watch.backs) == 5


def test_backs_first_read_later_are_remembered_and_a_new_hand_starts_over():
    watch = BoneyardWatch()
    watch.start(frame(*HEAP[:3]))
    watch.look(frame(*HEAP), [])
    assert len(watch.backs) == 5
    watch.look(frame(*HEAP[:4]), [Region(150, 380, 170, 420)])
    assert watch.taken == 1
    watch.start(frame(*HEAP[:2]))
    assert len(watch.backs) == 2 and watch.taken == 0


def test_where_a_back_was_taken_is_remembered_for_the_hand():
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    assert not watch.uncovered((156.0, 404.0))
    watch.look(frame(*HEAP[:-1]), [Region(150, 380, 170, 420)])  # the back at (156, 400) taken
    assert watch.uncovered((156.0, 404.0)) and watch.uncovered((166.0, 410.0))  # under it, beside it
    assert not watch.uncovered((200.0, 400.0))  # past a back's length from it
    assert not watch.uncovered((100.0, 400.0))  # a back still there hides nothing yet
    watch.start(frame(*HEAP[:-1]))
    assert not watch.uncovered((156.0, 404.0))


def table(*dark: tuple[float, float], backs: tuple[Ignored, ...] | list[Ignored] = ()) -> np.ndarray:
    """A plain green table, a blue back lying where each of `backs` is boxed, and a dark cup
    (radius 16 px) standing at each of `dark`."""
    image = np.full((480, 640, 3), (60, 120, 60), np.uint8)
    for box in backs:
        cv2.fillConvexPoly(image, np.round(np.asarray(box.corners)).astype(np.int32), (150, 60, 30))
    for x, y in dark:
        cv2.circle(image, (int(x), int(y)), 16, (40, 30, 20), -1)
    return image


def test_a_back_hidden_under_something_standing_over_its_place_is_not_taken():
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    last = (156.0, 400.0)  # HEAP[-1]'s centre
    region = [Region(140, 380, 175, 420)]
    # a cup stood on the last back: the frame changed there and the back is not read, but its
    # place does not show the table: hidden, still remembered, not taken
    assert watch.look(frame(*HEAP[:-1]), region, table(last)) == 0
    assert watch.taken == 0 and watch.hidden == 1 and len(watch.backs) == 5
    # the cup lifted: the back is read where it lay, no back appeared
    watch.look(frame(*HEAP), region, table(backs=HEAP))
    assert watch.appeared == 0 and len(watch.backs) == 5
    # taken for real, the table shows where it lay
    assert watch.look(frame(*HEAP[:-1]), region, table()) == 1 and watch.hidden == 1


def test_a_back_read_where_none_lay_appeared_but_a_nudged_one_did_not():
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    # the last back pushed aside by a few pixels (less than a back's length): the same back
    watch.look(frame(*HEAP[:-1], back(150.0, 408.0)), None)
    assert watch.appeared == 0 and watch.taken == 0
    # a back laid face down in front of a player, far from the heap: not the boneyard's
    watch.look(frame(*HEAP[:-1], back(150.0, 408.0), back(400.0, 60.0)), None)
    assert watch.appeared == 1


def test_a_photo_decoded_at_reduced_size_is_looked_at_where_its_reading_points():
    # the reading's points are the photo's own (1280x960), its pixels decoded at half that size
    # (a phone's large JPEG, `Reader.read_upright`): the cup at half the back's place hides it
    big = [Ignored(b.kind, tuple((2 * x, 2 * y) for x, y in b.corners), b.confidence) for b in HEAP]

    def photo(*backs: Ignored) -> Reading:
        return Reading("f", 1280, 960, (), ignored=backs)

    region = [Region(280, 760, 350, 840)]
    watch = BoneyardWatch()
    watch.start(photo(*big))
    assert watch.look(photo(*big[:-1]), region, table((156.0, 400.0))) == 0 and watch.hidden == 1
    watch.look(photo(*big), region, table(backs=HEAP))
    assert watch.look(photo(*big[:-1]), region, table()) == 1


def test_one_wide_box_over_a_cup_and_half_the_next_back_is_no_back_nudged_there():
    # a cup stood on the last back and half its neighbour: the detector draws one box twice a
    # back's width round what shows, centred near the neighbour's place (read again), lying
    # over the last back's place. The place is hidden, not bare: no back taken
    cup = (156.0, 400.0)  # HEAP[-1]'s centre
    wide = Ignored("face_down", ((132, 390), (160, 390), (160, 410), (132, 410)), 0.7)
    region = [Region(125, 380, 175, 420)]
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    assert watch.look(frame(*HEAP[:-2], wide), region, table(cup)) == 0
    assert watch.taken == 0 and watch.hidden == 1
    # the cup lifted: both backs read where they lay again
    watch.look(frame(*HEAP), region, table())
    assert watch.appeared == 0 and watch.taken == 0


def test_a_back_gone_where_nothing_tells_whether_the_table_shows_is_taken_but_not_seen_gone():
    watch = BoneyardWatch()
    watch.start(frame(*HEAP))
    # the last two backs not read where the frame changed: the table shows at one's place; at
    # the other's, a box of something else (the back itself, boxed as a printed picture)
    printed = Ignored("printed", HEAP[-1].corners, 0.5)
    assert watch.look(frame(*HEAP[:-2], printed), [Region(120, 380, 175, 420)], table()) == 2
    assert watch.seen_gone == 1 and watch.hidden == 0
    # the next look says only what it saw
    assert watch.look(frame(*HEAP[:-2], printed), [Region(120, 380, 175, 420)], table()) == 0
    assert watch.seen_gone == 0


def test_a_box_on_the_bare_table_that_goes_was_no_back_taken():
    # the detector boxed a shadow on the bare table as a back beside the heap; the heap's backs
    # lie there. Later that box is not read where the frame changed (a tile laid beside it), and
    # its place looks as it did while it was read: the table all along, nothing drawn
    shadow = back(300.0, 300.0)
    watch = BoneyardWatch()
    watch.start(frame(*HEAP, shadow), table(backs=HEAP))
    region = [Region(280, 280, 320, 320)]
    assert watch.look(frame(*HEAP), region, table(backs=HEAP)) == 0
    assert watch.taken == 0 and len(watch.backs) == 5 and not watch.uncovered((300.0, 300.0))
    # a real back taken from the same place shows the table where it lay: a draw
    watch.start(frame(*HEAP, shadow), table(backs=[*HEAP, shadow]))
    assert watch.look(frame(*HEAP), region, table(backs=HEAP)) == 1 and watch.seen_gone == 1
