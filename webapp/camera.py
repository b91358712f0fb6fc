"""From what the reader saw to the play it means: a photo's tiles compared with the scorer's layout.

The reader (`vision.read.reader.Reader`) says which tiles lie face up and, where they chain, how they
lie. The scorer's layout says which tiles are already played and where each open end grows from.
A tile the photo shows that the layout does not have is a new play; its end is the scorer's end
that grows from the tile it touches in the photo (or the only end it fits). A proposal is
*sure* only when one new tile is seen, read with high confidence, its end and its player are
known, it lies against the tile its end grows from (where the photo shows that tile) and the
scorer accepts it; anything less asks the scorer for one tap.
Nothing here decides a rule: every proposed event still goes through the scorer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from scorer.layout import LINE_ENDS
from scorer.tiles import Tile

# as `spinner watch` tells a play from what is not
from vision.follow.follower import FAINT, LOOSE, OVER_LAYOUT
from vision.follow.follower import lies_across as follow_lies_across
from vision.follow.motion import THUMB_WIDTH, thumbnail
from vision.geometry import share_over, short_side

from .errors import ApiError
from .store import Snapshot, words

#: A tile read at least this sure (box and both halves) may be recorded without a tap.
SURE = 0.85
#: How the layout reconstructor says that a photo alone cannot tell which double is the spinner
#: (`vision.rebuild.reconstruct`); the scorer's record can, once its spinner is down.
SPINNER_DOUBT = "the spinner is one of "
#: Marks a background tile that was new in the frame it comes from (`frames._background`): kept
#: only where the scorer has it on the table (the play that frame recorded), not where it is the
#: next play, laid already.
NEW_THEN = "new_then"
#: Larger photos are refused before decoding (a phone's photo is 12-50 megapixels).
MAX_PIXELS = 60_000_000


def check(data: bytes, name: str = "the upload") -> tuple[int, int]:
    """The photo's width and height, or a 4xx that says what is wrong with it.

    It is decoded at an eighth of its size (JPEG decodes that directly, several times faster):
    enough to know it is an image and how large, without paying for the whole of a frame that
    the reader may skip for a newer one. The reader decodes it in full (`decode`).
    """
    if not data:
        raise ApiError(400, f"{name} is empty: send a photo (JPEG, PNG or WebP)")
    small = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_REDUCED_COLOR_8)
    if small is None:
        raise ApiError(415, f"{name} is not a photo this server can decode: send a JPEG, PNG or WebP image")
    width, height = small.shape[1] * 8, small.shape[0] * 8
    if width * height > MAX_PIXELS:
        raise ApiError(413, f"{name} is about {width}x{height} pixels: at most {MAX_PIXELS // 1_000_000} megapixels")
    return width, height


def thumbnail_of(data: bytes, width: int) -> np.ndarray:
    """The motion test's thumbnail of an upload (`vision.follow.motion.thumbnail`), decoded small: JPEG
    decodes at a half, a quarter or an eighth of its size directly, as long as that is wide enough."""
    flag = next(
        (
            f
            for f, scale in (
                (cv2.IMREAD_REDUCED_COLOR_8, 8),
                (cv2.IMREAD_REDUCED_COLOR_4, 4),
                (cv2.IMREAD_REDUCED_COLOR_2, 2),
            )
            if width // scale >= THUMB_WIDTH
        ),
        cv2.IMREAD_COLOR,
    )
    small = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flag)
    if small is None:
        raise ApiError(415, "the upload is cut short or damaged: it could not be decoded")
    return thumbnail(small)


def decode(data: bytes, name: str = "the upload") -> np.ndarray:
    """The photo in full as a BGR array (after `check`), or a 415 when it is cut short or damaged."""
    check(data, name)
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ApiError(415, f"{name} is cut short or damaged: it could not be decoded")
    return image


TILE_IN_TEXT = re.compile(r"\b\d{1,2}-\d{1,2}\b")


def name_of(tile: str) -> str:
    """A tile as the scorer writes it (low-high), from either order."""
    return str(Tile.parse(tile))


def identity(tile: dict[str, Any]) -> float:
    """How sure the reader is of which tile it is: its halves' probabilities multiplied (the tile's
    own confidence where the reading does not give its halves')."""
    halves = tile.get("halves") or []
    if len(halves) == 2 and all("confidence" in h for h in halves):
        return float(halves[0]["confidence"]) * float(halves[1]["confidence"])
    return float(tile.get("confidence", 0.0))


def lay_there(tile: dict[str, Any], before: list[dict[str, Any]]) -> bool:
    """Whether a tile of `before` (a reading's tiles) lies where this one lies: its centre within
    half this tile's short side of this one's."""
    corners = np.asarray(tile.get("corners") or [], dtype=np.float32).reshape(-1, 2)
    if len(corners) != 4 or not before:
        return False
    reach = 0.5 * short_side(corners)
    centres = np.asarray([other.get("center") or (np.inf, np.inf) for other in before], dtype=np.float32)
    return bool((np.linalg.norm(centres - np.asarray(tile.get("center"), dtype=np.float32), axis=1) < reach).any())


def lies_across(tile: dict[str, Any], laid: list[dict[str, Any]], reading: dict[str, Any]) -> bool:
    """Whether this tile's box is the reader's box across a layout tile (`laid`: the background's
    layout tiles) and its neighbour in the photo, not a tile (`vision.follow.follower.lies_across`)."""
    return follow_lies_across(
        tile.get("corners") or [],
        [t.get("corners") or [] for t in laid],
        [t.get("corners") or [] for t in reading.get("tiles") or [] if t is not tile],
    )


def lies_over(tile: dict[str, Any], before: list[dict[str, Any]]) -> bool:
    """Whether this tile's box lies over a box of `before` by OVER_LAYOUT of its area or more: the
    reader's box across a lying tile and its neighbour, not a tile (a played tile never lies over
    another)."""
    box = np.asarray(tile.get("corners") or [], dtype=np.float32).reshape(-1, 2)
    if len(box) != 4 or not before:
        return False
    for other in before:
        corners = np.asarray(other.get("corners") or [], dtype=np.float32).reshape(-1, 2)
        if len(corners) == 4 and share_over(box, corners) >= OVER_LAYOUT:
            return True
    return False


def lies_against(tile: dict[str, Any], parent: str, reading: dict[str, Any]) -> bool:
    """Whether the photo shows `tile` lying against a tile read as `parent` (centres within LOOSE
    of its short sides; a tile laid against another lies 1.5-2 from its centre). True where the
    photo shows no `parent` at all: no evidence either way."""
    corners = np.asarray(tile.get("corners") or [], dtype=np.float32).reshape(-1, 2)
    others = [t for t in reading.get("tiles") or [] if t is not tile and name_of(t["tile"]) == parent]
    if len(corners) != 4 or not others:
        return True
    short = short_side(corners)
    centre = np.asarray(tile.get("center"), dtype=np.float32)
    return any(
        float(np.linalg.norm(np.asarray(t.get("center"), dtype=np.float32) - centre)) <= LOOSE * short for t in others
    )


def _grows_from(layout: Any, end: str) -> str | None:
    """The tile an open end of the scorer's layout grows from."""
    arm = layout.arms[end]
    if arm:
        index = arm[-1]
    elif end in LINE_ENDS:
        index = 0
    else:
        index = layout.spinner
    return None if index is None else name_of(str(layout.placements[index].tile))


def _neighbour(reading: dict[str, Any], tile: str) -> str | None:
    """The tile the new one touches in the photo's own layout (its arm's previous tile, or the centre)."""
    layout = reading.get("layout") or {}
    for arm in (layout.get("arms") or {}).values():
        names = [name_of(t) for t in arm]
        if tile in names:
            i = names.index(tile)
            return names[i - 1] if i > 0 else name_of(layout["centre"])
    return None


def propose(
    reading: dict[str, Any],
    snap: Snapshot,
    seat: int | None = None,
    background: list[dict[str, Any]] | None = None,
    unexplained: int = 0,
    lost: Sequence[str] = (),
    turned_down: Sequence[str] = (),
) -> dict[str, Any]:
    """What the reading means for the current hand: a proposal for the scorer (see the module doc).

    `background`: for a live camera, the tiles already lying on the table (`frames._background`:
    the table as it was when the last play was recorded, and frames since that saw nothing new): a
    tile where one of them lies is not a new play, whatever it is read as, so loose tiles beside
    the layout and a flickering misread of one are not proposed, while a tile taken from a loose
    pile and laid on the layout is (places, as `vision.follow.follower.compare` tells tiles apart). A live camera's play is acted on only once
    two frames in a row agree (`frames`), which already says the box is a tile that stays put, so
    its sureness is how sure its halves are read (`identity`); a single photo's is the whole
    tile's confidence, box included.

    `unexplained`: for a live camera, how many times the table changed since the last play
    without the reader finding a new tile it still sees (`table_changes`): each may be a play it
    missed, so the tile it sees now may not be the next play, and it is asked about.

    `lost`: for a live camera, the new tiles of a question asked since its last play, turned down
    (or still open), not played since, that this frame no longer reads: the player said "no" to
    the seat or the end, not to the tile, so the tile may be the play the camera lost sight of,
    and the tile it sees now, the next one after it: asked about.

    `turned_down`: for a live camera, the tiles the scorer said "no" to as a play since its last
    play, where the pad has scored since more or fewer plays than the table's changes with nothing
    new seen when it was asked: fewer, the tile lay on the table before plays the camera missed;
    more, a play scored on the pad took the change the tile came with, and nothing shows the tile
    was laid. Proposed again, for any seat, it is asked about.

    Answers {"status", "message", "sure", "events", "choices", "new", "missing"}: `events` the
    proposed events (at most one), `choices` the other ends the tile fits, for a correction.
    """
    out: dict[str, Any] = {"sure": False, "events": [], "choices": [], "new": [], "missing": []}
    hand = snap.match.current if snap.match is not None else None
    answer_hands = snap.answer.get("hands") or []
    if hand is None or not answer_hands:
        return {**out, "status": "nothing", "message": "no hand has started: start one, then take the photo"}
    if hand.end is not None:
        return {**out, "status": "over", "message": "this hand is over: the photo is kept, nothing was proposed"}
    layout = hand.layout
    on_table = {name_of(str(t)) for t in layout.tiles}
    if background is not None:  # of the tiles new when their frame recorded a play, those now played
        background = [b for b in background if not b.get(NEW_THEN) or name_of(b["tile"]) in on_table]
    seen: dict[str, float] = {}
    found: dict[str, dict[str, Any]] = {}  # each name's surest reading
    # the background's layout tiles (read as tiles the scorer has on the table): a box lying over
    # one and over a box beside it is the reader's box across it and its neighbour (over any
    # background box would also hide plays laid where a loose misread box once lay)
    laid = [b for b in background or [] if name_of(b["tile"]) in on_table]
    for tile in reading.get("tiles") or []:
        if (background and (lay_there(tile, background) or lies_across(tile, laid, reading))) or float(
            tile.get("confidence", 1.0)
        ) < FAINT:
            continue
        name = name_of(tile["tile"])
        sure = identity(tile) if background is not None else float(tile.get("confidence", 0.0))
        if sure >= seen.get(name, -1.0):
            seen[name], found[name] = sure, tile
    new = sorted((n for n in seen if n not in on_table), key=lambda n: -seen[n])
    out["new"] = [{"tile": n, "confidence": round(seen[n], 3)} for n in new]
    # kept with the frame: a question turned down is weighed later by them (`frames.decide`)
    out["unexplained"], out["lost"], out["plays"] = unexplained, sorted(lost), len(on_table)
    out["missing"] = sorted(on_table - set(seen))
    if not seen and not (reading.get("tiles") and background):
        return {
            **out,
            "status": "nothing",
            "message": "the reader found no tile in this photo: "
            "hold the phone over the whole layout, or score this play on the pad",
        }
    if not new:
        return {**out, "status": "nothing", "message": "no new tile since the last play: nothing to record"}

    # The surest new tile that fits an open end: where the surest fits none (most often a tile
    # laid on a play the camera missed, the missed play beside it), the one that fits is the
    # play to ask about; with more than one new tile it is asked about, never recorded at once.
    fitting = [n for n in new if not layout.placements or any(layout.distinct_fits(Tile.parse(n)))]
    tile = fitting[0] if fitting else new[0]
    turn = answer_hands[-1].get("turn")
    player = turn if isinstance(turn, int) else seat
    unsure: list[str] = []
    if len(new) > 1:
        surest = "this is the surest" if tile == new[0] else f"{new[0]}, the surest, fits no open end"
        unsure.append(f"it sees {len(new)} new tiles ({', '.join(new)}); {surest}")
    if seen[tile] < SURE:
        unsure.append(f"{tile} is read {seen[tile]:.0%} sure")
    if player is None:
        unsure.append("whose turn it is is not known: choose the player")
    if unexplained:
        unsure.append(
            f"the table changed {unexplained + 1} times since the last play and in "
            f"{'one' if unexplained == 1 else unexplained} of them the camera saw no new tile, "
            "or one it no longer sees: was a play missed?"
        )
    if lost:
        unsure.append(
            f"the camera no longer sees {', '.join(lost)}, which it asked about before: "
            f"was {'it' if len(lost) == 1 else 'one of them'} played?"
        )
    if tile in turned_down:
        unsure.append(f"{tile} was turned down as a play before: was it laid since, or another play missed before it?")
    layout_said = reading.get("layout") or {}
    # The reconstructor's doubts are sentences naming tiles ("tile 1 (6-4): half 1 could be 6
    # rather than 4"); the ones that name the new tile are passed on as they are.
    for doubt in layout_said.get("unsure") or []:
        if layout.spinner is not None and str(doubt).startswith(SPINNER_DOUBT):
            continue  # which double came first is not in the photo, but it is in the record
        if tile in {name_of(found) for found in TILE_IN_TEXT.findall(str(doubt))}:
            unsure.append(f"the photo's layout is unsure: {doubt}")

    event: dict[str, Any] = {"type": "play", "seat": player, "tile": tile}
    if not layout.placements:
        fits: list[str] = []
    else:
        fits = list(layout.distinct_fits(Tile.parse(tile)))
        if not fits:
            return {
                **out,
                "status": "confirm",
                "message": f"the camera sees {tile}, which fits no open end: "
                "check the photo, or score this play on the pad",
                "events": [],
            }
        end: str | None = fits[0] if len(fits) == 1 else None
        if end is None:
            touching = _neighbour(reading, tile)
            matching = [e for e in fits if touching is not None and _grows_from(layout, e) == touching]
            if len(matching) == 1:
                end = matching[0]
            else:
                unsure.append(f"{tile} fits {' or '.join(fits)}: tap the end")
        if end is not None:
            event["end"] = end
            parent = _grows_from(layout, end)
            if parent is not None and not lies_against(found[tile], parent, reading):
                # it lies against something else: most often a play the camera never saw
                unsure.append(f"{tile} does not lie against {parent}, where the {end} end is: was a play missed?")
        out["choices"] = fits
    out["events"] = [event]
    said = words(event) if player is not None else f"{tile} played{' on the ' + event['end'] if 'end' in event else ''}"
    if unsure:
        return {**out, "status": "confirm", "message": f"the camera thinks: {said}? ({'; '.join(unsure)})"}
    return {**out, "status": "sure", "sure": True, "message": f"the camera saw {said}"}
