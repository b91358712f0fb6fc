"""How well the layout is rebuilt: the synthetic truth's own tiles fed through `reconstruct`.

No model is involved: every tile a reader could see (the labelled ones: at least 60 % in view)
becomes a `TileReading` from its true corners and values, optionally with its corners shaken
(`jitter`, in half-sides) and some halves misread with the true value second best (`misread`,
the share of halves), and the open ends and count found are compared with the truth's layout.
Ends are compared as the multiset of values they show, since which side is called west is a
convention of the drawing, not of the table.

Layouts with a tile hidden (by a hand, or out of the frame) are counted apart: where the
hidden tile is an arm's last, the open end cannot be seen at all. So are layouts of the lead
alone, which `reconstruct` does not tell from a loose tile (it answers None).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from scorer.layout import End
from scorer.tiles import Tile
from vision.evaluate import read_truth
from vision.read.reading import HalfReading, TileReading
from vision.rebuild.reconstruct import layout_rules, reconstruct


def truth_readings(
    truth: dict[str, Any], rng: np.random.Generator | None = None, jitter: float = 0.0, misread: float = 0.0
) -> list[TileReading]:
    """The tiles a reader could see in a synthetic photo, as readings."""
    out: list[TileReading] = []
    for tile in truth["tiles"]:
        if not tile.get("labelled"):
            continue
        corners = np.asarray(tile["corners"], dtype=np.float64)
        size = float(np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[1])) / 3
        halves = []
        for half in tile["halves"]:
            quad = np.asarray(half["corners"], dtype=np.float64)
            if rng is not None and jitter:
                quad = quad + rng.normal(0, jitter * size / 2, quad.shape)
            value = int(half["value"])
            probabilities = np.full(7, 0.1 / 6)
            probabilities[value] = 0.9
            if rng is not None and misread and rng.random() < misread:
                wrong = int(rng.choice([v for v in range(7) if v != value]))
                probabilities = np.full(7, 0.05 / 5)
                probabilities[wrong], probabilities[value] = 0.55, 0.4
                value = wrong
            halves.append(HalfReading(value, tuple(quad.mean(axis=0)), tuple(map(tuple, quad)), tuple(probabilities)))
        a, b = halves[0].value, halves[1].value
        out.append(
            TileReading(
                Tile.of(a, b), tuple(corners.mean(axis=0)), tuple(map(tuple, corners)), (halves[0], halves[1]), 1.0
            )
        )
    return out


def _ends_key(ends: Mapping[End, int]) -> tuple[int, ...]:
    # The values shown, as a multiset: which side is called west is the drawing's convention,
    # and a line bending off a spinner's end looks just like its north or south arm (with the
    # same count), so only what the ends show is compared.
    return tuple(sorted(ends.values()))


def evaluate_layouts(
    dataset: Path,
    split: str = "val",
    limit: int | None = None,
    jitter: float = 0.0,
    misread: float = 0.0,
    seed: int = 0,
    failures: int = 10,
) -> dict[str, Any]:
    """Open ends, count and spinner right, over the photos of a `spinner dataset synth` split."""
    files = sorted((dataset / "truth" / split).glob("*.json"))[:limit]
    if not files:
        raise FileNotFoundError(f"no truth JSON under {dataset / 'truth' / split}")
    rng = np.random.default_rng(seed)
    tallies: dict[str, dict[str, int]] = {
        k: {"photos": 0, "found": 0, "open_ends": 0, "count": 0, "spinner": 0, "all": 0}
        for k in ("whole", "part_hidden", "lead_only")
    }
    no_layout = {"photos": 0, "none_found": 0}
    missed: list[str] = []
    for path in files:
        truth = read_truth(path)
        readings = truth_readings(truth, rng, jitter, misread)
        want = truth.get("layout")
        variant = "partners" if want is None or want["variant"] == "spinner" else "block"
        found = reconstruct(readings, layout_rules(variant))
        if want is None:
            no_layout["photos"] += 1
            no_layout["none_found"] += found is None
            continue
        hidden = any(t["role"] == "layout" and not t.get("labelled") for t in truth["tiles"])
        kind = "lead_only" if len(want["placements"]) == 1 else "part_hidden" if hidden else "whole"
        tally = tallies[kind]
        tally["photos"] += 1
        if found is None:
            if kind == "whole":
                missed.append(f"{path.stem}: no layout found")
            continue
        tally["found"] += 1
        spinner = want["spinner"]
        want_spinner = None if spinner is None else want["placements"][spinner]["tile"]
        got_spinner = found.to_json()["spinner"]
        right = {
            "open_ends": _ends_key(found.open_ends) == _ends_key(want["open_ends"]),
            "count": found.count == want["count"] or variant == "block",
            "spinner": (want_spinner is None and got_spinner is None)
            or (
                want_spinner is not None
                and got_spinner is not None
                and Tile.parse(want_spinner) is Tile.parse(got_spinner)
            ),
        }
        for k, ok in right.items():
            tally[k] += ok
        tally["all"] += all(right.values())
        if not all(right.values()) and kind == "whole":
            missed.append(
                f"{path.stem}: want {want['open_ends']} count {want['count']} spinner {want_spinner}, "
                f"got {found.open_ends} count {found.count} spinner {got_spinner}"
            )
    report: dict[str, Any] = {"photos": len(files), "jitter": jitter, "misread": misread}
    for name, tally in tallies.items():
        n = tally["photos"]
        report[name] = {"photos": n, **{k: round(v / n, 4) if n else None for k, v in tally.items() if k != "photos"}}
    report["no_layout"] = no_layout
    report["failures"] = missed[:failures]
    return report
