"""The reader: a photo of a table in, every face-up tile out (`Reading`).

Two models, both run with onnxruntime (no torch at run time): the detector puts an oriented box
on every face-up tile; each box is cut into its two halves, each half rectified from the photo's
own pixels and read by the half classifier; the set's uniqueness settles conflicts
(`reading.settle`); the layout is rebuilt from the tiles and checked by the rules (`layout`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from scorer.tiles import Tile
from vision.read import photo
from vision.read.body import APART, unlike
from vision.read.calibration import SURE_AT, Calibration
from vision.read.crops import rectify
from vision.read.detector import ObbDetection, ObbModel, Voting, probiou
from vision.read.halves import HalfClassifier
from vision.read.models import DEFAULT_CALIBRATION, DEFAULT_DETECTOR, DEFAULT_HALVES, DEFAULT_REFINER, MODELS  # noqa: F401
from vision.read.noise import CLEAR, faint
from vision.read.pips import INNER, MARKED, PipCount, count_many, marks, short
from vision.read.reading import Ignored, Reading, TileCandidate, TileReading, scaled, settle, split_halves
from vision.read.refine import BoxFrame, BoxRefiner
from vision.read.set_look import SetLook, alone, looks
from vision.read.slant import Slant, square_again, square_on, turn_photo
from vision.read.zoom import Widen, Zoom, look_again, look_wider
from vision.rebuild.reconstruct import layout_rules, reconstruct

#: photos above this are refused before decoding (`vision.read.photo.MAX_PIXELS`: 50 megapixels).
MAX_PIXELS = photo.MAX_PIXELS

#: a photo that cannot be read; the message names the file and the problem (`PhotoError.kind` why).
ReadError = photo.PhotoError


def load_photo(path: str | Path, least: int | None = photo.READ_LEAST) -> np.ndarray:
    """The photo upright (EXIF orientation applied) as a BGR array, a large JPEG decoded at a
    half, a quarter or an eighth where it keeps `least` pixels along its long side
    (`vision.read.photo.load`, which also says the photo's own size); a ReadError saying why not."""
    return photo.load(path, least, MAX_PIXELS).image


#: the least box confidence a tile is kept at: low enough for a tile the network half doubts (one
#: laid on a board's printed logo), safe because boxes under `SURE_BOX` are settled last
#: (`spinner eval --confidence` measures others: models/README.md, "The box threshold and the
#: faint boxes")
BOX_CONFIDENCE = 0.25
#: boxes at least this sure are settled first; fainter ones (down to the threshold) only add
#: tiles with what the sets have left, never changing how a sure box is read (`settle`).
SURE_BOX = 0.3
#: the followers (`spinner watch`, the page's camera) keep boxes from the sure line only: they
#: compare frames, where a faint box that comes and goes is a tile seen new, and a player wants a
#: question only where a tile was laid (tests/test_webapp_browser_video.py films such a game).
FOLLOWING_CONFIDENCE = SURE_BOX
#: the followers read the boxes as found, not refined: the refiner was trained on still photos,
#: and on filmed games a tile whose refined box reads wrong in most frames is seen as new in every
#: one, so the page asks far more for hardly more plays right (models/README.md, "Known limits").
FOLLOWING_REFINER: Path | None = None
#: the overlap (probabilistic IoU) at which the weaker of two boxes is dropped. Touching tiles
#: overlap about 0.12; what 0.35 drops and ultralytics' 0.5 keeps is a second box shifted half a
#: tile or across two, which the settling then sometimes reads wrong (models/README.md, "The
#: overlap and box voting").
NMS_OVERLAP = 0.35
#: each kept box moved to the weighted mean of the boxes (from a score of 0.1) overlapping it by
#: half: the best-scoring box is not always the best-placed, and a half cut from a better-placed
#: box is read better (models/README.md, "The overlap and box voting").
BOX_VOTING = Voting(overlap=0.5, floor=0.1)
#: a photo whose tiles came out small is read again, closer, where they lie (`vision.read.zoom`):
#: tiles smaller than the detector learnt are missed or boxed across two (models/README.md, "A
#: second look at small tiles").
ZOOM = Zoom()
#: a photo whose tiles came out too large for the detector (a close-up), or in which it found
#: none, is read again shrunk (`vision.read.zoom.Widen`; docs/styles.md, "Close-ups")
WIDEN = Widen()
#: a photo taken at a slant (its tiles foreshortened, far ones small) is read again turned to face
#: the camera (`vision.read.slant`): the detector learnt views up to 46 degrees from straight down
#: (docs/styles.md, "A steep view")
SLANT = Slant()
#: the followers read frames as they are: a view found again in every frame would move every
#: tile a little from one frame to the next, where the followers look for what changed
FOLLOWING_SLANT: Slant | None = None
#: a tile shorter than this (its long side, in the pixels its halves are cut from) is unsure
#: however sure its reading (its confidence held under the sure line): its halves are under 13 px,
#: and the styles benchmark's far photos (tiles 18-24 px long) read only 97.9 % of such tiles right
#: at a calibrated 0.9 or more (docs/styles.md, "Sureness that means something")
SMALLEST_SURE = 25.0
#: a small tile's confidence at most, as a share of the sure line
UNDER_THE_LINE = 0.99
#: whether a tile read as the double blank may be sure. Its halves show nothing that a tile's back,
#: its side seen steeply, the bare end of a tile cut by the frame or a box across two tiles' ends
#: does not show too, so it is held under the sure line however sure its reading (asked where
#: the rules do not back it, never changed): such reads were wrong far more often than any other
#: tile's at the same confidence (models/README.md, "A tile read as the double blank")
SURE_DOUBLE_BLANK = False
#: the model whose `lying` output checks each tile that would be sure (the box refiner): one its
#: check says is not lying face up (a tile standing on edge seen face on, a printed picture) is
#: held under the sure line. The detector reads the face alone and boxes a player's own standing
#: tiles, seen from behind, as tiles with no doubt; the refiner sees the box's surroundings
#: (models/README.md, "Is it lying face up?"). The followers check too, though they read the boxes
#: unrefined: a player photographing the table from their seat has their own tiles in view.
LYING_CHECK: Path | None = DEFAULT_REFINER
DOUBLE_BLANK = Tile.of(0, 0)
#: a second opinion on each half that learns nothing (`vision.read.pips`): its pips counted by
#: where they lie, whatever their colour and the body's. Where it says a value and a sure tile's
#: half reads another, the tile is held just under the sure line (asked, never changed). On by
#: default as the second opinion for sets the classifier never learnt, where a learnt classifier
#: can be sure and wrong while the pips can still be counted: on every set measured it made no
#: right sure tile unsure, and it costs well under 1 ms a photo (counted on the classifier's own
#: crops, only for tiles that would be sure; CHANGELOG, issue 35). None: not counted.
PIP_OPINION: PipCount | None = PipCount()
#: a sure tile with a half read blank that its pips, counted, do not call blank, and whose pip
#: places show marks (`vision.read.pips.marks` at least `MARKED`), is held just under the sure line
#: (asked, never changed): on real photos made to look like other sets (`bench/other_looks.py`)
#: the classifier read pale coloured pips as bare halves, sure. Needs `PIP_OPINION`. False: not
#: looked at.
BLANK_MARKS = True
#: a sure tile with one half read blank whose colour lies farther than this from its other half's
#: (CIELAB a*b*, `vision.read.body`) is held just under the sure line (asked, never changed): a
#: hand or what is not the tile lies on that half. None: not compared.
BLANK_APART: float | None = APART
#: two tiles that would be sure whose boxes overlap by more than this share of the smaller box's
#: area cannot both be tiles (laid end to end or side by side they overlap a few hundredths): one
#: box lies across two tiles or half a tile off, and the reader cannot tell which of the two, so
#: both are held just under the sure line (asked, never changed). It is the failure of a set whose
#: halves have no divider to tell tiles apart by: in the styles benchmark's pin-no-divider photos
#: every sure tile read wrong was such a pair, and across 9,445 right sure tiles of the 18
#: conditions, synth-heldout and the real photos one was made unsure (docs/styles.md, "Two sure
#: boxes that overlap"). None: not checked.
SURE_OVERLAP: float | None = 0.3
#: a sure tile whose halves' pips stand fewer than this many times their noise out of the face
#: (`vision.read.noise`: a dim room, the gain turned up) is held just under the sure line (asked,
#: never changed): there the detector takes a board's printed pictures for tiles and the halves
#: are a guess. None: not measured.
PIPS_CLEAR: float | None = CLEAR
#: a sure tile whose look (its halves' colour) lies far from every other sure tile's in the photo
#: is held just under the sure line (asked, never changed): a game's tiles are one set, and a
#: printed picture that reads as plainly as a tile is drawn in its printer's colours
#: (`vision.read.set_look`). None: not compared.
SET_LOOK: SetLook | None = SetLook()
#: how many times the box refiner looks at each box, each time from where it last put it: a
#: second look corrects what the first move left (chosen on synth-v11's validation photos:
#: models/README.md, "The box refiner, twice")
REFINE_PASSES = 2


class Reader:
    def __init__(
        self,
        detector: str | Path = DEFAULT_DETECTOR,
        halves: str | Path = DEFAULT_HALVES,
        confidence: float = BOX_CONFIDENCE,
        sure: float = SURE_BOX,
        threads: int | None = None,
        sets: int = 1,
        variant: str = "partners",
        side: int | None = None,
        enlarge: float | None = None,
        zoom: Zoom | None = ZOOM,
        refiner: str | Path | None = DEFAULT_REFINER,
        widen: Widen | None = WIDEN,
        calibration: str | Path | Calibration | None = DEFAULT_CALIBRATION,
        slant: Slant | None = SLANT,
        pips: PipCount | None = PIP_OPINION,
        overlap: float | None = SURE_OVERLAP,
        blank_apart: float | None = BLANK_APART,
        clear: float | None = PIPS_CLEAR,
        checker: str | Path | None = LYING_CHECK,
        set_look: SetLook | None = SET_LOOK,
        blank_marks: bool = BLANK_MARKS,
    ) -> None:
        #: `side`: the long side photos are read at, `enlarge`: how much a smaller photo is
        #: enlarged at most (default: the detector's, set at export)
        self.detector = ObbModel(detector, threads, side, enlarge)
        self.halves = HalfClassifier(halves, threads)
        #: moves each box onto its tile before its halves are cut (None: the boxes as found)
        self.refiner = BoxRefiner(refiner, threads) if refiner is not None else None
        self.confidence = confidence
        self.sure = sure
        #: when and how close to look again at small tiles (None: never)
        self.zoom = zoom
        #: when to read a photo again turned to face the camera (None: never)
        self.slant = slant
        #: when and how far to step back from tiles too large, or from a photo with none (None: never)
        self.widen = widen
        #: how each half's pips are counted for a second opinion (None: never)
        self.pips = pips
        #: whether a half read blank with marks standing out on it makes its tile asked (with `pips`)
        self.blank_marks = blank_marks
        #: the share of the smaller box two would-be sure tiles may overlap by (None: not checked)
        self.overlap = overlap
        #: how far a blank half's colour may lie from its tile's other half (None: not compared)
        self.blank_apart = blank_apart
        #: how many times its noise a sure tile's pips must stand out of its face (None: not measured)
        self.clear = clear
        #: how far a sure tile's look may lie from every other's (None: not compared)
        self.set_look = set_look
        #: the refiner whose check holds a box showing no tile lying face up under the sure line
        #: (the refiner itself where it is the same file; None, or a refiner without the check:
        #: no check)
        self.checker: BoxRefiner | None = None
        if checker is not None:
            same = refiner is not None and Path(checker).resolve() == Path(refiner).resolve()
            self.checker = self.refiner if same else BoxRefiner(checker, threads)
        #: how sure a tile may be called (`vision.read.calibration`); where the file is absent (a
        #: model folder of one's own) a tile is unsure under a raw confidence of 0.9
        if isinstance(calibration, (str, Path)):
            calibration = Calibration.load(calibration) if Path(calibration).is_file() else None
        self.calibration = calibration
        #: double-six sets on the table: each tile is read at most this many times.
        self.sets = sets
        #: whose layout rules rebuild the layout (RULES.md: a spinner or not, what counts)
        self.rules = layout_rules(variant)

    def read(self, image: np.ndarray, name: str = "") -> Reading:
        started = time.perf_counter()
        height, width = int(image.shape[0]), int(image.shape[1])
        boxes = self.detector.predict(image, conf=self.confidence, iou=NMS_OVERLAP, voting=BOX_VOTING)
        first_pass = time.perf_counter()
        looks: dict[str, float] = {}  # each second look's own time (ms), where there was one
        view = facing = None
        if self.slant is not None:
            # what lies flat on the table is the evidence: a tile standing on edge is not 2:1 there
            flat = [b for b in boxes if self.detector.names.get(b.cls, "tile") != "edge"]
            view, facing = square_on(flat, width, height, self.slant, self.detector.first_scale(height, width))
        photo = image
        if facing is not None and view is not None:  # read again turned to face the camera
            photo = turn_photo(image, facing)
            boxes = self.detector.predict(photo, conf=self.confidence, iou=NMS_OVERLAP, voting=BOX_VOTING)
            if self.slant is not None and self.slant.again is not None:
                _, closer_facing = square_again(boxes, facing, view, width, height, self.slant)
                if closer_facing is not None:  # the view told better from the turned photo's tiles
                    facing, photo = closer_facing, turn_photo(image, closer_facing)
                    boxes = self.detector.predict(photo, conf=self.confidence, iou=NMS_OVERLAP, voting=BOX_VOTING)
            looks["slant"] = 1000 * (time.perf_counter() - first_pass)
        closer = wider = None
        looking = time.perf_counter()
        if self.zoom is not None:
            boxes, closer = look_again(
                self.detector, photo, boxes, self.zoom, self.confidence, NMS_OVERLAP, BOX_VOTING, self.detector.names
            )
        if self.widen is not None and closer is None:
            boxes, wider = look_wider(self.detector, photo, boxes, self.widen, self.confidence, NMS_OVERLAP, BOX_VOTING)
        if closer is not None or wider is not None:
            looks["zoom" if closer is not None else "widen"] = 1000 * (time.perf_counter() - looking)
        boxes, ignored = set_aside(boxes, self.detector.names, NMS_OVERLAP)
        if self.refiner is not None:
            boxes = self.refiner.refine(photo, boxes, REFINE_PASSES)
        detected = time.perf_counter()
        quads: list[tuple[np.ndarray, np.ndarray]] = []
        crops: list[np.ndarray] = []
        for box in boxes:
            first, second = split_halves(box.corners())
            quads.append((first, second))
            crops += [rectify(photo, first), rectify(photo, second)]
        probabilities = self.halves.probabilities(crops)
        classified = time.perf_counter()
        candidates = []
        for i, (box, (first, second)) in enumerate(zip(boxes, quads)):
            corners = np.concatenate([first[:2], second[2:]])  # around the tile, first half first
            if facing is not None:  # back to the photo's own pixels
                first, second, corners = facing.back(first), facing.back(second), facing.back(corners)
            candidates.append(
                TileCandidate(
                    center=box.center if facing is None else tuple(facing.back(np.asarray([box.center]))[0].tolist()),  # type: ignore[arg-type]
                    corners=tuple((float(x), float(y)) for x, y in corners),
                    box_confidence=box.confidence,
                    half_centers=(tuple(first.mean(axis=0).tolist()), tuple(second.mean(axis=0).tolist())),  # type: ignore[arg-type]
                    half_corners=(tuple(map(tuple, first.tolist())), tuple(map(tuple, second.tolist()))),  # type: ignore[arg-type]
                    half_probabilities=(probabilities[2 * i], probabilities[2 * i + 1]),
                    pixels=float(max(box.size)),
                )
            )
        if facing is not None:
            ignored = tuple(
                replace(i, corners=tuple((float(x), float(y)) for x, y in facing.back(np.asarray(i.corners))))
                for i in ignored
            )
        settled_tiles = settle(candidates, self.sets, self.sure)  # one for each candidate, in order
        if self.pips is not None:
            settled_tiles = self.count_pips(settled_tiles, crops, quads)
        if self.blank_apart is not None:
            settled_tiles = self.mark_blank_unlike(settled_tiles, crops)
        if self.clear is not None:
            settled_tiles = self.mark_faint(settled_tiles, crops)
        if self.set_look is not None:
            settled_tiles = self.mark_unlike_set(settled_tiles, crops)
        if self.checker is not None and self.checker.lying_least is not None:
            settled_tiles = self.mark_not_lying(settled_tiles, image)
        if self.overlap is not None:
            settled_tiles = self.mark_overlapping(settled_tiles)
        tiles = tuple(sorted((self.judge(t) for t in settled_tiles), key=lambda t: (t.center[1], t.center[0])))
        settled = time.perf_counter()
        layout = reconstruct(tiles, self.rules, frame=(width, height))
        done = time.perf_counter()
        return Reading(
            image=name,
            width=width,
            height=height,
            tiles=tiles,
            layout=None if layout is None else layout.to_json(),
            timings_ms={
                "detect": 1000 * (detected - started),  # every pass, where there were more
                "halves": 1000 * (classified - detected),
                "settle": 1000 * (settled - classified),
                "layout": 1000 * (done - settled),
                # a second look's own time: turned to face the camera, closer, or wider
                **looks,
            },
            rebuilt=(self.rules, layout),
            ignored=ignored,
        )

    def count_pips(
        self, tiles: list[TileReading], crops: list[np.ndarray], quads: list[tuple[np.ndarray, np.ndarray]]
    ) -> list[TileReading]:
        """`tiles` (one for each box, in the order of `quads`, its halves' crops at 2i and 2i + 1)
        with their halves' pips counted (`vision.read.pips`), where that can change what `judge`
        says: the tiles that would be sure, and of them the halves large enough to count. The others
        keep `pips` None: not counted."""
        assert self.pips is not None
        line = SURE_AT if self.calibration is None else self.calibration.sure_from
        halves = [
            2 * i + k for i, tile in enumerate(tiles) if tile.confidence >= line and not self.held(tile) for k in (0, 1)
        ]
        if not halves:
            return tiles
        large = [k for k, small in zip(halves, short([quads[k // 2][k % 2] for k in halves], self.pips)) if not small]
        counted: dict[int, int | None] = {}
        marked: set[int] = set()
        if large:
            inner = np.stack([crops[k] for k in large])[:, INNER, INNER]
            counted = dict(zip(large, count_many(inner, self.pips)))
            # a half read blank that the count cannot call blank, and whose pip places show marks:
            # pale or coloured pips the classifier does not see
            blank = [j for j, k in enumerate(large) if tiles[k // 2].halves[k % 2].value == 0 and counted[k] is None]
            if blank and self.blank_marks:
                shown = marks(inner[blank]) >= MARKED
                marked = {large[j] // 2 for j, out in zip(blank, shown.tolist()) if out}
        return [
            replace(tile, pips=(counted.get(2 * i), counted.get(2 * i + 1)), blank_marked=i in marked)
            if 2 * i in counted or 2 * i + 1 in counted
            else tile
            for i, tile in enumerate(tiles)
        ]

    def mark_blank_unlike(self, tiles: list[TileReading], crops: list[np.ndarray]) -> list[TileReading]:
        """`tiles` (one for each box, its halves' crops at 2i and 2i + 1) with `blank_unlike` set
        on each that would be sure, has one half read blank, and whose blank half's colour lies
        more than `blank_apart` from the other's (`vision.read.body`)."""
        assert self.blank_apart is not None
        line = SURE_AT if self.calibration is None else self.calibration.sure_from
        pairs = [
            (i, 2 * i + (0 if tile.halves[0].value == 0 else 1))
            for i, tile in enumerate(tiles)
            if tile.confidence >= line
            and not self.held(tile)
            and (tile.halves[0].value == 0) != (tile.halves[1].value == 0)
        ]
        if not pairs:
            return tiles
        blank = np.stack([crops[k] for _, k in pairs])
        other = np.stack([crops[k ^ 1] for _, k in pairs])
        held = {i for (i, _), apart in zip(pairs, unlike(blank, other, self.blank_apart)) if apart}
        return [replace(t, blank_unlike=True) if i in held else t for i, t in enumerate(tiles)]

    def mark_faint(self, tiles: list[TileReading], crops: list[np.ndarray]) -> list[TileReading]:
        """`tiles` (one for each box, its halves' crops at 2i and 2i + 1) with `faint` set on each
        that would be sure and whose halves' pips stand fewer than `clear` times their noise out of
        its face (`vision.read.noise`)."""
        assert self.clear is not None
        line = SURE_AT if self.calibration is None else self.calibration.sure_from
        sure = [i for i, tile in enumerate(tiles) if tile.confidence >= line and not self.held(tile)]
        if not sure:
            return tiles
        lost = faint(np.stack([crops[2 * i] for i in sure]), np.stack([crops[2 * i + 1] for i in sure]), self.clear)
        held = {i for i, dark in zip(sure, lost) if dark}
        return [replace(t, faint=True) if i in held else t for i, t in enumerate(tiles)]

    def mark_unlike_set(self, tiles: list[TileReading], crops: list[np.ndarray]) -> list[TileReading]:
        """`tiles` (one for each box, its halves' crops at 2i and 2i + 1) with `unlike_set` set on
        each that would be sure and whose look lies far from every other such tile's
        (`vision.read.set_look`)."""
        assert self.set_look is not None
        line = SURE_AT if self.calibration is None else self.calibration.sure_from
        sure = [i for i, tile in enumerate(tiles) if tile.confidence >= line and not self.held(tile)]
        if len(sure) < self.set_look.least:
            return tiles
        tile_looks = looks(np.stack([crops[2 * i] for i in sure]), np.stack([crops[2 * i + 1] for i in sure]))
        held = {i for i, lone in zip(sure, alone(tile_looks, self.set_look)) if lone}
        return [replace(t, unlike_set=True) if i in held else t for i, t in enumerate(tiles)]

    def mark_not_lying(self, tiles: list[TileReading], image: np.ndarray) -> list[TileReading]:
        """`tiles` with `not_lying` set on each that would be sure and whose box, cut from the
        photo as read (`image`, not turned), the refiner's check says holds no tile lying face up
        (`vision.read.refine`)."""
        assert self.checker is not None and self.checker.lying_least is not None
        line = SURE_AT if self.calibration is None else self.calibration.sure_from
        sure = [i for i, tile in enumerate(tiles) if tile.confidence >= line and not self.held(tile)]
        if not sure:
            return tiles
        scores = self.checker.lying(image, [BoxFrame.around(tiles[i].corners) for i in sure])
        held = {i for i, score in zip(sure, scores) if score < self.checker.lying_least}
        return [replace(t, not_lying=True) if i in held else t for i, t in enumerate(tiles)]

    def mark_overlapping(self, tiles: list[TileReading]) -> list[TileReading]:
        """`tiles` with `overlapped` set on each that would be sure (`judge`) and whose box
        overlaps another such tile's by more than `overlap` of the smaller box's area."""
        assert self.overlap is not None
        line = SURE_AT if self.calibration is None else self.calibration.sure_from
        sure = [
            i
            for i, t in enumerate(tiles)
            if t.confidence >= line
            and not self.held(t)
            and not t.pips_disagree
            and not t.blank_unlike
            and not t.faint
            and not t.not_lying
            and not t.unlike_set
            and not t.blank_marked
        ]
        held = {sure[k] for k in overlapping([tiles[i].corners for i in sure], self.overlap)}
        return [replace(t, overlapped=True) if i in held else t for i, t in enumerate(tiles)]

    @staticmethod
    def held(tile: TileReading) -> bool:
        """Whether `tile` is unsure however sure its reading: shorter than `SMALLEST_SURE`, or read
        as the double blank (`SURE_DOUBLE_BLANK`)."""
        return 0 < tile.pixels < SMALLEST_SURE or (not SURE_DOUBLE_BLANK and tile.tile is DOUBLE_BLANK)

    def judge(self, tile: TileReading) -> TileReading:
        """The tile with its calibrated confidence, and whether it is unsure. A tile `held` has its
        confidence held just under the sure line, as a doubted picture's is."""
        line = SURE_AT if self.calibration is None else self.calibration.sure_from
        if self.held(tile) and tile.confidence >= line:
            tile = replace(tile, confidence=UNDER_THE_LINE * line)
        if tile.confidence >= line and (
            tile.pips_disagree
            or tile.overlapped
            or tile.blank_unlike
            or tile.faint
            or tile.not_lying
            or tile.unlike_set
            or tile.blank_marked
        ):
            tile = replace(tile, confidence=UNDER_THE_LINE * line)
        if self.calibration is None:
            return replace(tile, unsure=tile.confidence < SURE_AT)
        unsure = self.calibration.unsure(tile.confidence)
        calibrated = self.calibration.calibrated(tile.confidence)
        # an unsure tile never shows 0.9 or more, also where the map runs flat up to the line and
        # its confidence, written to three places, would round up to it
        return replace(
            tile, calibrated=min(calibrated, UNDER_THE_LINE * SURE_AT) if unsure else calibrated, unsure=unsure
        )

    def read_path(self, path: str | Path) -> Reading:
        return self.read(load_photo(path), str(path))

    def read_photo(self, data: bytes, name: str = "the photo") -> Reading:
        """A photo's bytes (an upload) read as `spinner read` reads a file: decoded upright by its
        EXIF orientation and, a phone's large JPEG, at reduced size (`vision.read.photo.decode`),
        the reading's points in the photo's own upright pixels. A ReadError saying why not."""
        return self.read_upright(data, name)[0]

    def read_upright(self, data: bytes, name: str = "the photo") -> tuple[Reading, np.ndarray]:
        """`read_photo`, and the pixels read: the photo upright as decoded, at reduced size where
        it was (its width over the reading's is the scale to take the reading's points into it).
        The page's camera follower looks at them where a back left the boneyard."""
        loaded = photo.decode(data, name, max_pixels=MAX_PIXELS)
        reading = self.read(loaded.image, name)
        if loaded.scale == 1:
            return reading, loaded.image
        # the layout rebuilt from the reduced image's points is left for the follower to rebuild
        return replace(scaled(reading, loaded.scale, loaded.width, loaded.height), rebuilt=None), loaded.image


def overlapping(boxes: Sequence[Sequence[tuple[float, float]]], share: float) -> set[int]:
    """The indices of the boxes (each 4 corners in order around it) that overlap another by more
    than `share` of the smaller one's area."""
    if len(boxes) < 2:
        return set()
    quads = np.asarray(boxes, dtype=np.float32).reshape(-1, 4, 2)
    centres = quads.mean(axis=1)
    reach = np.linalg.norm(quads - centres[:, None], axis=2).max(axis=1)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    # only the pairs near enough to touch are intersected
    near = np.argwhere(np.triu(apart < reach[:, None] + reach[None], k=1))
    out: set[int] = set()
    for i, j in near.tolist():
        common, _ = cv2.intersectConvexConvex(quads[i], quads[j])
        smaller = min(abs(float(cv2.contourArea(quads[i]))), abs(float(cv2.contourArea(quads[j]))))
        if common > share * max(1e-9, smaller):
            out |= {i, j}
    return out


#: the detector's classes that are not a face-up tile (`vision.train.detector.IGNORED_CLASSES`)
NOT_TILES = ("face_down", "edge", "printed")
#: printed pictures come printed together, apart from the tiles (a board's track, a card's row): a
#: box the detector calls a printed picture is read as a tile, doubted, where fewer than this many
#: are in the photo or where it touches a tile box. On real photos the "printed" class also took
#: real tiles seen flat from above for pictures (lone tiles in `domibot-crops`, tiles laid on
#: `ddd-board`'s printed board; it learnt both from renders), and a tile dropped unseen costs a
#: play where a doubted one costs a question (models/README.md, "What is not a tile")
PRINTED_TOGETHER = 3
#: boxes overlapping by this much (probabilistic IoU) touch: tiles laid end to end overlap ~0.12
TOUCHING = 0.05
#: a doubted box's confidence at most: under the calibration's unsure line (`sure_from` in
#: models/calibration.json), so its tile is asked about, and above `SURE_BOX`, so it is settled
#: with the sure ones
DOUBTED = 0.5


def set_aside(
    boxes: list[ObbDetection], names: dict[int, str], overlap: float
) -> tuple[list[ObbDetection], tuple[Ignored, ...]]:
    """The boxes on face-up tiles, and what the detector says is something else (a back, a tile
    on edge: `Ignored`). A tile box overlapping a surer box of another kind by
    more than `overlap` goes too: the detector suppresses overlaps within a class, not across.
    A printed picture alone or touching a tile is read as a tile, doubted (`PRINTED_TOGETHER`),
    unless the detector also boxed it as a tile."""
    printed = [b for b in boxes if names.get(b.cls, "tile") == "printed"]
    if printed:
        tile_class = next((c for c, n in names.items() if n == "tile"), 0)
        found = [b for b in boxes if names.get(b.cls, "tile") not in NOT_TILES]
        near = probiou(_xywhr(printed), _xywhr(found)) if found else np.zeros((len(printed), 0))
        boxes = [b for b in boxes if names.get(b.cls, "tile") != "printed"]
        for box, row in zip(printed, near):
            if (row > overlap).any():
                continue  # the detector boxed it as a tile too: that box reads it
            if len(printed) < PRINTED_TOGETHER or (row > TOUCHING).any():
                boxes.append(replace(box, cls=tile_class, confidence=min(box.confidence, DOUBTED)))
            else:
                boxes.append(box)
    others = [b for b in boxes if names.get(b.cls, "tile") in NOT_TILES]
    tiles = [b for b in boxes if names.get(b.cls, "tile") not in NOT_TILES]
    if others and tiles:
        covered = probiou(_xywhr(tiles), _xywhr(others))
        surer = np.asarray([[o.confidence > t.confidence for o in others] for t in tiles])
        tiles = [t for t, row, wins in zip(tiles, covered, surer) if not ((row > overlap) & wins).any()]
    ignored = tuple(
        Ignored(names[b.cls], tuple((float(x), float(y)) for x, y in b.corners()), b.confidence) for b in others
    )
    return tiles, ignored


def _xywhr(boxes: list[ObbDetection]) -> np.ndarray:
    return np.asarray([[*b.center, *b.size, b.angle] for b in boxes], np.float64)


def annotate(image: np.ndarray, reading: Reading) -> np.ndarray:
    """The photo with each tile's box and its two values drawn on it."""
    out = image.copy()
    scale = max(1.0, max(out.shape[:2]) / 1000)
    for tile in reading.tiles:
        colour = (0, 0, 255) if tile.corrected else (0, 200, 0)
        cv2.polylines(out, [np.asarray(tile.corners, dtype=np.int32)], True, colour, max(1, int(2 * scale)))
        for half in tile.halves:
            x, y = half.center
            cv2.putText(
                out,
                str(half.value),
                (int(x - 6 * scale), int(y + 6 * scale)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.6 * scale,
                (255, 255, 255),
                max(2, int(4 * scale)),
                cv2.LINE_AA,
            )
            cv2.putText(
                out,
                str(half.value),
                (int(x - 6 * scale), int(y + 6 * scale)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.6 * scale,
                (200, 0, 0),
                max(1, int(2 * scale)),
                cv2.LINE_AA,
            )
    return out
