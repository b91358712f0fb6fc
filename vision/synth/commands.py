"""`spinner dataset synth`: write a synthetic training set (see datasets/README.md)."""

from __future__ import annotations

import click


def frame_size(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[int, int]:
    """A --size WIDTHxHEIGHT callback: the two numbers, or a usage error (`spinner dataset`,
    `spinner watch-eval`)."""
    try:
        w, h = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter("write the size as WIDTHxHEIGHT, e.g. 1280x960") from None
    if w < 64 or h < 64:
        raise click.BadParameter("the size must be at least 64x64")
    return w, h


#: a --seed: numpy's generators take no negative seed, and said so only once the work had begun
SEED = click.IntRange(min=0)
#: a film's --shake (`spinner dataset video`, `spinner watch-eval`)
SHAKE = click.option(
    "--shake",
    type=click.FloatRange(min=0),
    default=0.01,
    show_default=True,
    help="Camera shake between moves (world units).",
)


@click.group()
def dataset() -> None:
    """Make training data for the camera reader."""


@dataset.command()
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Folder to write the dataset to.")
@click.option("--images", type=click.IntRange(min=1), required=True, help="How many images (train and val together).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Same seed and arguments give the same bytes.")
@click.option("--size", default="1280x960", show_default=True, callback=frame_size, help="Image size, WIDTHxHEIGHT.")
@click.option(
    "--val-fraction",
    type=click.FloatRange(0, 1),
    default=0.1,
    show_default=True,
    help="Share of images for validation.",
)
@click.option(
    "--workers", type=click.IntRange(min=1), default=2, show_default=True, help="Processes rendering in parallel."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--styled",
    is_flag=True,
    help="Each photo takes one condition of the styles benchmark (coloured pips, close-ups, steep views...: docs/styles.md).",
)
@click.option(
    "--condition",
    metavar="NAME",
    help="Every photo takes this one training condition (small-photo, close-up, steep...; implies --styled).",
)
def synth(
    out: str,
    images: int,
    seed: int,
    size: tuple[int, int],
    val_fraction: float,
    workers: int,
    quiet: bool,
    styled: bool,
    condition: str | None,
) -> None:
    """Render synthetic table photos with YOLO OBB labels and truth JSON sidecars."""
    from .dataset import generate_dataset  # OpenCV only when a dataset is made

    try:
        yaml_path = generate_dataset(
            out,
            images,
            seed,
            size[0],
            size[1],
            val_fraction,
            workers,
            progress=not quiet,
            styled=styled,
            condition=condition,
        )
    except ValueError as error:
        hint = "--condition" if str(error).startswith("no training condition") else "--seed"
        raise click.BadParameter(str(error), param_hint=hint) from None
    click.echo(f"wrote {images} images; data: {yaml_path}")


@dataset.command()
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Folder to write the game to.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Same seed and arguments give the same game.")
@click.option("--size", default="1280x960", show_default=True, callback=frame_size, help="Frame size, WIDTHxHEIGHT.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option(
    "--still",
    "still_frames",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Still frames between moves.",
)
@SHAKE
@click.option("--mp4", is_flag=True, help="Also write the frames as video.mp4.")
@click.option(
    "--y4m",
    is_flag=True,
    help="Also write video.y4m, for Chromium's fake camera "
    "(--use-file-for-fake-video-capture): the companion page filmed without a phone.",
)
@click.option(
    "--fps", type=click.FloatRange(min=0.1), default=10.0, show_default=True, help="Frame rate of the video files."
)
@click.option(
    "--dealt",
    default=None,
    metavar="VARIANT",
    type=click.Choice(["partners", "partners-block", "all-fives", "block", "draw", "any"]),
    help="Deal VARIANT (partners, partners-block, all-fives, block, draw, or any) and play it as a real "
    "table: passes and draws as the deal makes them, each seat's arm from its own side, the boneyard "
    "in view (film.json: the seating). Default: the older films, every seat playing in turn.",
)
def video(
    out: str,
    seed: int,
    size: tuple[int, int],
    players: int,
    still_frames: int,
    shake: float,
    mp4: bool,
    y4m: bool,
    fps: float,
    dealt: str | None,
) -> None:
    """Render a synthetic game as video frames, with each state's truth and the true match record."""
    from .video import game_video, write_video

    summary = write_video(
        game_video(seed, size[0], size[1], players=players, still_frames=still_frames, shake=shake, dealt=dealt),
        out,
        mp4=mp4,
        fps=fps,
        y4m=y4m,
    )
    click.echo(
        f"wrote {summary['frames']} frames of {summary['plays']} plays ({summary['variant']}) to {out}; "
        f"true totals {summary['totals']}"
    )


@dataset.command()
@click.option(
    "--out",
    "out",
    default="datasets/styles",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder to write the sets to, one sub-folder per condition.",
)
@click.option("--images", type=click.IntRange(min=1), default=100, show_default=True, help="Photos per condition.")
@click.option("--condition", "conditions", multiple=True, help="Only this condition (again for more; default: all).")
@click.option(
    "--workers", type=click.IntRange(min=1), default=2, show_default=True, help="Processes rendering in parallel."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def styles(out: str, images: int, conditions: tuple[str, ...], workers: int, quiet: bool) -> None:
    """Render the styles benchmark's held-out sets (`spinner eval --styles`; docs/styles.md).

    Photos already rendered are kept, so a set can be grown by asking for more."""
    from .styles import BY_NAME, generate_styles

    unknown = [c for c in conditions if c not in BY_NAME]
    if unknown:
        raise click.BadParameter(
            f"no condition {', '.join(unknown)}; there are {', '.join(BY_NAME)}", param_hint="--condition"
        )
    folders = generate_styles(out, images, list(conditions) or None, workers, progress=not quiet)
    click.echo(f"{len(folders)} conditions, {images} photos each, under {out}")
