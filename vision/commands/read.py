"""`spinner read`, `spinner train` and `spinner export`."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import click

from scorer.variants import VARIANTS
from vision.read.detector import MOST_ENLARGE, MOST_READ_SIDE, READ_ENLARGE, READ_SIDE
from vision.read.reader import (
    BOX_CONFIDENCE,
    DEFAULT_DETECTOR,
    DEFAULT_HALVES,
    DEFAULT_REFINER,
    SLANT,
    SURE_BOX,
    ZOOM,
    Reader,
)

#: every variant with a layout (the memory game `twelve` has none)
LAYOUT_VARIANTS = tuple(VARIANTS)

#: a click option (or argument) as the decorator it is of a command's function
Option = Callable[[Callable[..., Any]], Callable[..., Any]]


def writable(path: str | None, option: str) -> None:
    """Refuse, before any work, a file to write whose folder is not there (it was a traceback once
    the work was done, and the work lost)."""
    if path is None:
        return
    folder = Path(path).parent
    if not folder.is_dir():
        raise click.BadParameter(f"{path}: there is no folder {folder} to write it in", param_hint=option)


def _options(*options: Option) -> Option:
    """Several options as one decorator; --help lists them in the order given, as if written out."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):  # the last decorator applied is listed first
            command = option(command)
        return command

    return decorate


# The options `spinner read` and `spinner eval` share, in three groups: each command lists its own
# options between them, and --help keeps that order.

#: --detector and --halves: the two models a photo is read with
_model_options = _options(
    click.option("--detector", type=click.Path(dir_okay=False), default=str(DEFAULT_DETECTOR), show_default=True),
    click.option("--halves", type=click.Path(dir_okay=False), default=str(DEFAULT_HALVES), show_default=True),
)


def _confidence_options(confidence_help: str) -> Option:
    """--confidence and --sure: which boxes are kept, and which may settle a reading."""
    return _options(
        click.option(
            "--confidence",
            type=click.FloatRange(0, 1),
            default=BOX_CONFIDENCE,
            show_default=True,
            help=confidence_help,
        ),
        click.option(
            "--sure",
            type=click.FloatRange(0, 1),
            default=SURE_BOX,
            show_default=True,
            help="Boxes under this confidence only add tiles the set has left; they never change a surer box's reading.",
        ),
    )


#: --size, --enlarge, --zoom, --refiner and --refine: how large a photo is read, and how closely
_looking_options = _options(
    click.option(
        "--size",
        type=click.IntRange(min=32, max=MOST_READ_SIDE),
        default=None,
        help="The long side a photo is read at (default: the detector's own, set by `spinner export --imgsz`; "
        f"at most {MOST_READ_SIDE}, the longest a photo is decoded at).",
    ),
    click.option(
        "--enlarge",
        type=click.FloatRange(min=1, max=MOST_ENLARGE),
        default=None,
        help="How much a photo smaller than that is enlarged at most (default: the detector's own, set by `spinner export --enlarge`; "
        f"at most {MOST_ENLARGE:g}: tiles enlarged further are larger than any the detector learnt).",
    ),
    click.option(
        "--zoom/--no-zoom",
        default=True,
        show_default=True,
        help='Read again, closer, the part of a photo whose tiles came out small (models/README.md, "A second look at small tiles").',
    ),
    click.option(
        "--slant/--no-slant",
        default=True,
        show_default=True,
        help='Read again, turned to face the camera, a photo taken at a slant (docs/styles.md, "A steep view").',
    ),
    click.option(
        "--refiner",
        type=click.Path(dir_okay=False),
        default=str(DEFAULT_REFINER),
        show_default=True,
        help="The box refiner, which moves each box onto its tile before its halves are read.",
    ),
    click.option(
        "--refine/--no-refine",
        default=True,
        show_default=True,
        help="Refine the boxes (--no-refine: read them as found).",
    ),
)


@dataclass(frozen=True)
class ReaderOptions:
    """The options above, which `spinner read` and `spinner eval` share, as one value."""

    detector: str
    halves: str
    confidence: float
    sure: float
    size: int | None
    enlarge: float | None
    zoom: bool
    slant: bool
    refiner: str
    refine: bool

    def reader(self, **settings: Any) -> Reader:
        """The reader these options ask for; `settings`: the command's own (`sets`, `widen`).

        Raises FileNotFoundError where a model is missing: each command words that itself.
        """
        return Reader(
            self.detector,
            self.halves,
            confidence=self.confidence,
            sure=self.sure,
            side=self.size,
            enlarge=self.enlarge,
            zoom=ZOOM if self.zoom else None,
            slant=SLANT if self.slant else None,
            refiner=self.refiner if self.refine else None,
            **settings,
        )


def _as_reader_options(command: Callable[..., None]) -> Callable[..., None]:
    """Hands the command the shared options as one `ReaderOptions`, its parameter `reader_options`.

    Put it next to the function, under every option: click passes the wrapper each option by name,
    and the command's own parameters then name only its own options.
    """
    names = [field.name for field in fields(ReaderOptions)]

    @functools.wraps(command)  # keeps the docstring, which is the command's --help
    def gathered(**params: Any) -> None:
        shared = ReaderOptions(**{name: params.pop(name) for name in names})
        command(reader_options=shared, **params)

    return gathered


@click.command()
@click.argument("photos", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON object per photo, one per line.")
@click.option(
    "--annotate",
    type=click.Path(file_okay=False),
    default=None,
    help="Write each photo with what was read drawn on it.",
)
@_model_options
@_confidence_options("Least box confidence kept.")
@click.option(
    "--sets",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Double-six sets on the table: each tile is read at most this many times.",
)
@click.option(
    "--variant",
    type=click.Choice(LAYOUT_VARIANTS),
    default="partners",
    show_default=True,
    help="Whose layout rules rebuild the layout (block and draw have no spinner).",
)
@_looking_options
@_as_reader_options
def read(
    photos: tuple[str, ...], as_json: bool, annotate: str | None, sets: int, variant: str, reader_options: ReaderOptions
) -> None:
    """Read every tile in each photo: which tile, where, and how it is turned, and the layout.

    A photo that cannot be read is reported (on standard error, and with --json as an object
    with an "error") and the others are still read; the exit status is 1 if any failed.
    """
    from vision.read import photo as loader
    from vision.read.reader import ReadError
    from vision.read.reader import annotate as draw
    from vision.read.reading import scaled

    try:
        reader = reader_options.reader(sets=sets, variant=variant)
    except FileNotFoundError as error:
        raise click.ClickException(f"{error}: train and export the models first (models/README.md)") from None
    folder = Path(annotate) if annotate else None
    if folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise click.ClickException(f"--annotate {folder}: cannot be made ({error.strerror or error})") from None
    failed = 0

    def unread(photo: str, why: str) -> None:
        nonlocal failed
        failed += 1
        click.echo(f"Error: {why}", err=True)
        if as_json:
            click.echo(json.dumps({"image": photo, "error": why}))

    for photo in photos:
        try:
            # upright, and a phone's 12-50 megapixels decoded at a half or a quarter (`vision.read.photo`)
            loaded = loader.load(photo)
        except ReadError as error:
            unread(photo, str(error))
            continue
        image = loaded.image
        try:
            reading = reader.read(image, photo)
        except Exception as error:  # one photo's surprise must not cost the rest of the batch
            why = " ".join(str(error).split())  # OpenCV's messages run over several lines
            unread(photo, f"{photo}: could not be read ({type(error).__name__}: {why})")
            continue
        if as_json:
            # the points in the photo's own pixels, upright, whatever size it was decoded at
            click.echo(json.dumps(scaled(reading, loaded.scale, loaded.width, loaded.height).to_json()))
        else:
            # "*": the set's uniqueness changed the reading; "?": unsure, to be checked by eye
            tiles = (
                ", ".join(str(t.tile) + ("*" if t.corrected else "") + ("?" if t.unsure else "") for t in reading.tiles)
                or "none"
            )
            unsure = sum(1 for t in reading.tiles if t.unsure)
            check = f" ({unsure} unsure, marked ?: check them)" if unsure else ""
            click.echo(f"{photo}: {len(reading.tiles)} tiles: {tiles}{check}")
            click.echo(f"  layout: {describe_layout(reading.layout)}")
        if folder and not _write_annotated(folder / (Path(photo).stem + ".jpg"), draw(image, reading)):
            failed += 1
    if failed:
        sys.exit(1)


def _write_annotated(path: Path, image: Any) -> bool:
    """Write a drawn photo as a JPEG; False, said on standard error, where it cannot be written.

    Encoded here and written by Python: OpenCV's own `imwrite` takes the name as UTF-8 and crashed
    the process (a segmentation fault) on a file name that is not, such as a Latin-1 "caf\xe9.jpg".
    """
    import cv2

    ok, encoded = cv2.imencode(".jpg", image)
    try:
        if not ok:  # pragma: no cover - OpenCV encodes any uint8 BGR image
            raise OSError("the drawing could not be encoded as a JPEG")
        path.write_bytes(encoded.tobytes())
    except OSError as error:
        click.echo(f"Error: {path}: cannot be written ({getattr(error, 'strerror', None) or error})", err=True)
        return False
    return True


def describe_layout(layout: dict | None) -> str:  # type: ignore[type-arg]
    """One line for a person: the open ends, the count, and any doubt."""
    if layout is None:
        return "none found"
    ends = ", ".join(f"{e['end']} {e['value']}" for e in layout["open_ends"])
    text = f"{len(layout['tiles'])} tiles, open ends {ends}"
    if layout["count"] is not None:
        text += f", count {layout['count']}"
    if layout["spinner"]:
        text += f", spinner {layout['spinner']}"
    if layout["corrections"]:
        text += ", corrected " + ", ".join(f"{c['read']}->{c['now']}" for c in layout["corrections"])
    if layout["unsure"]:
        text += " (unsure)"
    return text


@click.group()
def train() -> None:
    """Train the reader's models (needs the training extra: pip install -e '.[train]')."""


#: the synthetic sets a training command learns from
_training_data = click.option(
    "--data",
    type=click.Path(file_okay=False, exists=True),
    required=True,
    multiple=True,
    help="A `spinner dataset synth` folder; give it more than once to train on several.",
)


@train.command("detector")
@_training_data
@click.option("--project", type=click.Path(file_okay=False), default="runs", show_default=True)
@click.option("--name", default="detector", show_default=True)
@click.option("--epochs", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--imgsz", type=click.IntRange(min=32), default=640, show_default=True)
@click.option("--batch", type=click.IntRange(min=1), default=16, show_default=True)
@click.option("--resume", is_flag=True, help="Go on from PROJECT/NAME/weights/last.pt.")
@click.option("--device", default=None, help="cpu, or a GPU index (default: a GPU when there is one).")
@click.option(
    "--workers",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="Processes loading and augmenting photos (a GPU needs more than two to be kept busy).",
)
@click.option(
    "--model",
    "model_cfg",
    default="yolo11n-obb.yaml",
    show_default=True,
    help="A model yaml (from scratch) or our own earlier weights (.pt) to go on from.",
)
@click.option(
    "--hours",
    type=click.FloatRange(min=0.01),
    default=None,
    help="Train for this long instead of --epochs (the schedule is fitted to it).",
)
@click.option(
    "--lr",
    type=click.FloatRange(min=1e-6, max=1.0),
    default=None,
    help="Starting learning rate, AdamW (default: ultralytics' own choice; lower to go on gently from trained weights).",
)
@click.option(
    "--freeze",
    type=click.IntRange(min=1),
    default=None,
    help="Keep the network's first N layers as they are (10: the whole backbone), so that going on teaches the head without unlearning the features.",
)
@click.option(
    "--ignored",
    is_flag=True,
    help='Also learn face-down tiles, tiles on edge and printed pictures (classes 1-3), which `spinner read` then lists under "ignored", never as tiles.',
)
def train_detector(
    data: tuple[str, ...],
    project: str,
    name: str,
    epochs: int,
    imgsz: int,
    batch: int,
    resume: bool,
    device: str | None,
    workers: int,
    model_cfg: str,
    hours: float | None,
    lr: float | None,
    freeze: int | None,
    ignored: bool,
) -> None:
    """Train the tile detector (ultralytics YOLO OBB, from scratch, offline)."""
    import vision.train.detector as td

    data_yaml = td.prepare([Path(d) for d in data], Path(project) / f"{name}-data", ignored=ignored)
    best = td.train(
        data_yaml,
        Path(project),
        name,
        epochs,
        imgsz,
        batch,
        resume,
        device,
        workers=workers,
        model_cfg=model_cfg,
        hours=hours,
        lr=lr,
        freeze=freeze,
    )
    click.echo(f"weights: {best}")


@train.command("prune")
@click.option(
    "--weights", type=click.Path(dir_okay=False, exists=True), required=True, help="A trained detector (.pt)."
)
@click.option("--out", type=click.Path(dir_okay=False), required=True, help="Where the smaller network is saved (.pt).")
@click.option(
    "--ratio",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.5,
    show_default=True,
    help="The share of each prunable layer's channels removed (those with the smallest weights).",
)
@click.option(
    "--imgsz",
    type=click.IntRange(min=32),
    default=READ_SIDE,
    show_default=True,
    help="The long side its work is counted at.",
)
def train_prune(weights: str, out: str, ratio: float, imgsz: int) -> None:
    """Cut a smaller, faster detector from a trained one (train it on with `train detector --model OUT`)."""
    from vision.train.prune import prune_checkpoint

    click.echo(json.dumps(prune_checkpoint(Path(weights), Path(out), ratio, imgsz)))


@train.command("average")
@click.option("--first", type=click.Path(dir_okay=False, exists=True), required=True, help="A trained detector (.pt).")
@click.option(
    "--second",
    type=click.Path(dir_okay=False, exists=True),
    required=True,
    help="The same network trained on (.pt): its settings are kept.",
)
@click.option("--out", type=click.Path(dir_okay=False), required=True, help="Where the average is saved (.pt).")
@click.option(
    "--share",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="How much of each weight is the second's.",
)
def train_average(first: str, second: str, out: str, share: float) -> None:
    """Average two detectors of one network weight by weight (export it with `spinner export`)."""
    from vision.train.average import average

    try:
        click.echo(json.dumps(average(Path(first), Path(second), Path(out), share)))
    except ValueError as error:
        raise click.ClickException(str(error)) from None


@train.command("halves")
@_training_data
@click.option("--out", type=click.Path(dir_okay=False), default=str(DEFAULT_HALVES), show_default=True)
@click.option("--epochs", type=click.IntRange(min=1), default=8, show_default=True)
@click.option("--copies", type=click.IntRange(min=1), default=3, show_default=True, help="Jittered crops per half.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Use only the first N photos of each split.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--detector",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="Also cut the halves of this detector's own boxes (the one the classifier will read behind).",
)
@click.option(
    "--detected-copies",
    type=click.IntRange(min=1, max=4),
    default=2,
    show_default=True,
    help="With --detector: turned copies of each of its halves.",
)
@click.option(
    "--looks/--no-looks",
    default=True,
    show_default=True,
    help="Vary the training crops beyond light and colour cast: pips and body swapped, other colours, "
    "grey, blurred, noisy, faded (`vision.train.halves.Looks`).",
)
@click.option(
    "--width",
    type=click.IntRange(min=4),
    default=24,
    show_default=True,
    help="Channels of the classifier's first layer (the later ones two and four times as many).",
)
@click.option(
    "--not-halves/--halves-only",
    default=False,
    show_default=True,
    help="Also cut crops that show no half (a half mostly hidden, a box run off its tile) and teach "
    "the classifier to doubt every value on them.",
)
def train_halves(
    data: tuple[str, ...],
    out: str,
    epochs: int,
    copies: int,
    limit: int | None,
    seed: int,
    detector: str | None,
    detected_copies: int,
    looks: bool,
    width: int,
    not_halves: bool,
) -> None:
    """Train the half classifier on crops of the synthetic truth and export it to ONNX."""
    import vision.train.halves as th

    figures = th.train(
        [Path(d) for d in data],
        Path(out),
        epochs=epochs,
        copies=copies,
        seed=seed,
        limit=limit,
        log=click.echo,
        detector=Path(detector) if detector else None,
        detected_copies=detected_copies,
        looks=th.Looks() if looks else th.PLAIN_LOOKS,
        width=width,
        not_halves=not_halves,
    )
    click.echo(json.dumps(figures))


@train.command("refiner")
@_training_data
@click.option("--out", type=click.Path(dir_okay=False), default=str(DEFAULT_REFINER), show_default=True)
@click.option("--epochs", type=click.IntRange(min=1), default=8, show_default=True)
@click.option(
    "--jitters",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Deliberately missed copies of each true box, beside the detector's own boxes.",
)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Use only the first N photos of each split.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--detector",
    type=click.Path(dir_okay=False, exists=True),
    default=str(DEFAULT_DETECTOR),
    show_default=True,
    help="The detector whose boxes it learns to correct (the one it will be bundled with).",
)
def train_refiner(
    data: tuple[str, ...], out: str, epochs: int, jitters: int, limit: int | None, seed: int, detector: str
) -> None:
    """Train the box refiner on the detector's boxes and the synthetic truth, and export it to ONNX."""
    import vision.train.refiner as tr

    figures = tr.train(
        [Path(d) for d in data],
        Path(out),
        epochs=epochs,
        jitters=jitters,
        seed=seed,
        limit=limit,
        detector=Path(detector),
        log=click.echo,
    )
    click.echo(json.dumps(figures))


@train.command("lying")
@_training_data
@click.option(
    "--refiner",
    type=click.Path(dir_okay=False, exists=True),
    default=str(DEFAULT_REFINER),
    show_default=True,
    help="The box refiner to add the check to (its offsets are kept as they are).",
)
@click.option("--out", type=click.Path(dir_okay=False), default=str(DEFAULT_REFINER), show_default=True)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Use only the first N photos of each split.")
@click.option(
    "--strength",
    type=click.FloatRange(min=0),
    default=0.2,
    show_default=True,
    help="The L2 penalty on the check's weights.",
)
@click.option(
    "--share",
    type=click.FloatRange(min=0, max=0.5),
    default=0.005,
    show_default=True,
    help="The share of the training photos' face-up tiles the check may hold.",
)
@click.option("--seed", type=int, default=0, show_default=True)
def train_lying(
    data: tuple[str, ...], refiner: str, out: str, limit: int | None, strength: float, share: float, seed: int
) -> None:
    """Add to the box refiner a check that a box holds a tile lying face up (models/README.md)."""
    import vision.train.lying as tl

    tl.train(
        [Path(d) for d in data],
        Path(refiner),
        Path(out),
        limit=limit,
        strength=strength,
        share=share,
        seed=seed,
        log=click.echo,
    )


@click.command()
@click.option(
    "--weights",
    type=click.Path(dir_okay=False, exists=True),
    required=True,
    help="best.pt of `spinner train detector`.",
)
@click.option("--out", type=click.Path(dir_okay=False), default=str(DEFAULT_DETECTOR), show_default=True)
@click.option(
    "--imgsz",
    type=click.IntRange(min=32),
    default=READ_SIDE,
    show_default=True,
    help="The long side a photo is read at, kept in the model (training is at 640).",
)
@click.option(
    "--enlarge",
    type=click.FloatRange(min=1),
    default=READ_ENLARGE,
    show_default=True,
    help="How much a photo smaller than that is enlarged at most, kept in the model (1: only padded).",
)
def export(weights: str, out: str, imgsz: int, enlarge: float) -> None:
    """Export the trained detector to ONNX, the format the companion runs."""
    import vision.train.detector as td

    click.echo(f"exported: {td.export(Path(weights), Path(out), imgsz, enlarge)}")


@click.command("eval")
@click.option(
    "--synthetic",
    type=click.Path(file_okay=False),
    default=None,
    help="A `spinner dataset synth` folder (its val split is read).",
)
@click.option(
    "--real",
    type=click.Path(file_okay=False),
    default=None,
    help="The real photos (default: ../shared/real when present).",
)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Read at most N photos of each set.")
@_model_options
@click.option(
    "--layout",
    "layout_only",
    is_flag=True,
    help="Measure only the layout reconstruction, on the synthetic truth's own tiles (no models).",
)
@click.option(
    "--jitter",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="With --layout: shake each corner by this much (in half-sides).",
)
@click.option(
    "--misread",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="With --layout: misread this share of halves (the true value second best).",
)
@click.option(
    "--true-boxes",
    is_flag=True,
    help="Synthetic set only: the truth's boxes stand in for the detector, to measure the halves and the settling alone.",
)
@_confidence_options("Least box confidence kept (as `spinner read`).")
@_looking_options
@click.option(
    "--widen/--no-widen",
    default=True,
    show_default=True,
    help='Read again, shrunk, a photo whose tiles came out too large or that showed none (docs/styles.md, "Close-ups").',
)
@click.option(
    "--styles",
    "styles_dir",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="The styles benchmark (`spinner dataset styles`): print its table per condition (docs/styles.md).",
)
@click.option(
    "--reliability",
    is_flag=True,
    help="Add each set's reliability table: read tiles by calibrated confidence, and how many were right.",
)
@click.option(
    "--save-judged",
    "judged_to",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write each set's read tiles as [confidence, right] pairs here (`python -m vision.read.calibration FILE` tables them).",
)
@click.option(
    "--calibrate",
    "calibrate_to",
    type=click.Path(dir_okay=False),
    default=None,
    help="Fit the calibration on the --synthetic set's read tiles and write it here (models/calibration.json).",
)
@_as_reader_options
def evaluate(judged_to: str | None, calibrate_to: str | None, **measure: Any) -> None:
    """Measure the reader: held-out synthetic photos and the real photos (JSON report)."""
    writable(judged_to, "--save-judged")
    writable(calibrate_to, "--calibrate")
    with named_failures():
        _evaluate(judged_to=judged_to, calibrate_to=calibrate_to, **measure)


@contextlib.contextmanager
def named_failures() -> Iterator[None]:
    """A measurement's missing or broken truth file or photo as one line naming it, not a traceback."""
    from vision.evaluate import TruthError
    from vision.read.reader import ReadError

    try:
        yield
    except (TruthError, ReadError, FileNotFoundError) as error:
        raise click.ClickException(str(error)) from None


def _evaluate(
    synthetic: str | None,
    real: str | None,
    limit: int | None,
    layout_only: bool,
    jitter: float,
    misread: float,
    true_boxes: bool,
    widen: bool,
    styles_dir: str | None,
    reliability: bool,
    judged_to: str | None,
    calibrate_to: str | None,
    reader_options: ReaderOptions,
) -> None:
    from vision.evaluate.photos import REAL_SETS
    from vision.evaluate.photos import evaluate as run
    from vision.read.reader import WIDEN

    if layout_only:
        from vision.evaluate.layout import evaluate_layouts

        if synthetic is None:
            raise click.UsageError("--layout measures on the synthetic truth: give --synthetic DIR")
        click.echo(json.dumps(evaluate_layouts(Path(synthetic), limit=limit, jitter=jitter, misread=misread), indent=2))
        return

    if styles_dir is not None:
        _styles(
            Path(styles_dir),
            limit,
            reader_options.reader(widen=WIDEN if widen else None),
            reliability,
            judged_to,
        )
        return
    root = Path(__file__).resolve().parents[2]
    real_path = Path(real) if real else root.parent / "shared" / "real"
    if calibrate_to is not None:
        real_path = None  # type: ignore[assignment]  # fitted on synthetic photos only: the real ones are for measuring
    if real is None and real_path is not None and not real_path.is_dir():
        click.echo(f"note: {real_path} is absent: the real photos are not measured", err=True)
        real_path = None  # type: ignore[assignment]
    if synthetic is None and real_path is None:
        raise click.UsageError("nothing to measure: give --synthetic DIR and/or --real DIR")
    try:
        reader = reader_options.reader(widen=WIDEN if widen else None)
    except FileNotFoundError as error:
        raise click.ClickException(f"{error}: train and export the models first") from None
    if calibrate_to is not None and synthetic is None:
        raise click.UsageError("--calibrate fits on synthetic photos: give --synthetic DIR")
    if true_boxes:
        if synthetic is None:
            raise click.UsageError("--true-boxes needs the synthetic truth: give --synthetic DIR")
        real_path = None  # type: ignore[assignment]  # the real photos have no true boxes
    if real is not None and real_path is not None and not any((real_path / name).is_dir() for name in REAL_SETS):
        # said "absent" for each and exited 0, as if measured
        held = (
            "holds none of the real sets" if real_path.is_dir() else "is no folder, so it holds none of the real sets"
        )
        raise click.BadParameter(f"{real}: {held}, the folders {' and '.join(REAL_SETS)}", param_hint="--real")
    judged: dict[str, list[tuple[float, bool]]] = {}
    report = run(reader, Path(synthetic) if synthetic else None, real_path, limit, true_boxes=true_boxes, judged=judged)
    if judged_to is not None:
        Path(judged_to).write_text(json.dumps(judged))
    if calibrate_to is not None:
        from vision.read.calibration import fit

        fitted = fit(judged.get("synthetic", []), fitted_on=f"{synthetic} ({report['synthetic']['photos']} photos)")
        Path(calibrate_to).write_text(json.dumps(fitted.to_json(), indent=1) + "\n")
        reader.calibration = fitted
        report["calibration"] = {
            "written": calibrate_to,
            "sure_from": fitted.sure_from,
            "tiles": len(judged.get("synthetic", [])),
        }
    if reliability or calibrate_to is not None:
        report["reliability"] = {name: _reliability(reader, pairs) for name, pairs in judged.items()}
    click.echo(json.dumps(report, indent=2))


def _reliability(reader, pairs: list[tuple[float, bool]]) -> dict:  # type: ignore[no-untyped-def, type-arg]
    """A set's reliability table by calibrated confidence (raw, where the reader has none)."""
    from vision.read.calibration import SURE_AT, at_least, reliability

    value = reader.calibration.calibrated if reader.calibration is not None else (lambda raw: raw)
    return {"tiles": len(pairs), "at_least_0.9": at_least(pairs, SURE_AT, value), "table": reliability(pairs, value)}


def _styles(root: Path, limit: int | None, reader, reliability: bool, judged_to: str | None) -> None:  # type: ignore[no-untyped-def]
    """`spinner eval --styles`: the table per condition, then the JSON report."""
    from vision.evaluate.photos import evaluate_styles, styles_table

    judged: dict[str, list[tuple[float, bool]]] = {}
    report = evaluate_styles(reader, root, limit, judged)
    if judged_to is not None:
        Path(judged_to).write_text(json.dumps(judged))
    if not report:
        raise click.ClickException(
            f"no condition's set under {root}: render them with `spinner dataset styles --out {root}`"
        )
    click.echo(styles_table(report))
    if reliability:
        report["reliability"] = {name: _reliability(reader, pairs) for name, pairs in judged.items()}
        report["reliability"]["all"] = _reliability(reader, [p for pairs in judged.values() for p in pairs])
    click.echo(
        json.dumps({name: {k: v for k, v in f.items() if k != "confusion"} for name, f in report.items()}, indent=1)
    )
