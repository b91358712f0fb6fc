"""`spinner dataset synth`: write a synthetic training set (see datasets/README.md)."""
from __future__ import annotations

import click


def _size(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter("write the size as WIDTHxHEIGHT, e.g. 1280x960") from None
    if w < 64 or h < 64:
        raise click.BadParameter("the size must be at least 64x64")
    return w, h


@click.group()
def dataset() -> None:
    """Make training data for the camera reader."""


@dataset.command()
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Folder to write the dataset to.")
@click.option("--images", type=click.IntRange(min=1), required=True, help="How many images (train and val together).")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed and arguments give the same bytes.")
@click.option("--size", default="1280x960", show_default=True, callback=_size, help="Image size, WIDTHxHEIGHT.")
@click.option("--val-fraction", type=click.FloatRange(0, 1), default=0.1, show_default=True, help="Share of images for validation.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="Processes rendering in parallel.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def synth(out: str, images: int, seed: int, size: tuple[int, int], val_fraction: float, workers: int, quiet: bool) -> None:
    """Render synthetic table photos with YOLO OBB labels and truth JSON sidecars."""
    from .dataset import generate_dataset  # OpenCV only when a dataset is made

    yaml_path = generate_dataset(out, images, seed, size[0], size[1], val_fraction, workers, progress=not quiet)
    click.echo(f"wrote {images} images; data: {yaml_path}")
