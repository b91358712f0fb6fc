"""Synthetic table photos for training and testing the camera reader (see datasets/README.md).

Modules, one job each: `geometry` (rectangles on the table), `layouts` (legal layouts laid out
with bends), `tiles` (tile faces), `tables` (table tops), `printed` (boards and printed
pictures), `camera` (the pinhole camera), `scene` (what is on the table), `render` (drawing it),
`hands` (arms over the table), `photo` (light and camera finish), `labels` (YOLO OBB and truth),
`dataset` (files on disk), `sequence` (frames of one game), `game` (a dealt hand played out with
its passes and draws, for the dealt films of `video`), `commands` (the CLI).
"""

from __future__ import annotations

from typing import Any

__all__ = ["make_sample", "generate_dataset", "render_sequence", "legal_layout"]


def __getattr__(name: str) -> Any:
    # lazy, so importing vision.synth.commands for `spinner --help` stays cheap
    if name in ("make_sample", "generate_dataset"):
        from . import dataset

        return getattr(dataset, name)
    if name == "render_sequence":
        from .sequence import render_sequence

        return render_sequence
    if name == "legal_layout":
        from .layouts import legal_layout

        return legal_layout
    raise AttributeError(name)
