"""Small SVG pictures: a tile, the layout with its open ends, and the score over the hands.

They are drawn on the server from what the scorer holds (its layout and its answer), so the
live page only swaps in finished markup. Only numbers go into them: nothing a player typed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache
from html import escape
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from scorer.layout import LINE_ENDS, End, Layout
from scorer.tiles import Tile, parse_halves

U = 20  # one half of a tile, in SVG units
#: Where the pips of each value sit in a half (fractions of its side).
PIP_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)),
}
#: Tiles shown at most on each side of the centre; the rest are said in words ("4 tiles"), never "+4",
#: which beside the spinner reads as points.
SHOWN = 3
#: The size of that label (SVG units, as app.css's `.layout .more`), for the room it takes on a west-east arm.
MORE_SIZE = 10


def _half(value: int, x: float, y: float, size: float) -> str:
    r = size * 0.09
    return "".join(
        f'<circle cx="{x + fx * size:.1f}" cy="{y + fy * size:.1f}" r="{r:.1f}"/>' for fx, fy in PIP_SPOTS[value]
    )


def _tile(a: int, b: int, x: float, y: float, vertical: bool, css: str = "") -> str:
    """Tile a|b with its top-left at (x, y): a on the left (or top), b on the right (or bottom)."""
    w, h = (U, 2 * U) if vertical else (2 * U, U)
    second = (x, y + U) if vertical else (x + U, y)
    line = (
        f'<line x1="{x + 3}" y1="{y + U}" x2="{x + U - 3}" y2="{y + U}"/>'
        if vertical
        else f'<line x1="{x + U}" y1="{y + 3}" x2="{x + U}" y2="{y + U - 3}"/>'
    )
    return (
        f'<g class="tile{(" " + css) if css else ""}"><rect x="{x + 0.5}" y="{y + 0.5}" width="{w - 1}" height="{h - 1}" rx="3"/>'
        f'{line}<g class="pips">{_half(a, x, y, U)}{_half(b, *second, U)}</g></g>'
    )


@cache
def tile_svg(a: int, b: int, vertical: bool = False) -> str:
    """One tile on its own (the pad's buttons)."""
    w, h = (U, 2 * U) if vertical else (2 * U, U)
    return f'<svg class="domino" viewBox="0 0 {w} {h}" aria-hidden="true">{_tile(a, b, 0, 0, vertical)}</svg>'


Item = tuple[int, int, bool]  # (half towards the centre, half outwards, crosswise double)


def _directions(layout: Layout) -> tuple[Item | None, dict[End, list[Item]]]:
    """The centre tile (the spinner, else the lead) and what runs from it in each direction."""
    placements = layout.placements
    if not placements:
        return None, {}
    arm = {
        end: [(placements[i].inner, placements[i].outer, placements[i].is_double) for i in layout.arms[end]]
        for end in layout.arms
    }
    lead = placements[0]
    spinner = layout.spinner
    if spinner is None or spinner == 0:
        return (lead.inner, lead.outer, lead.is_double), arm
    home = next(end for end in LINE_ENDS if spinner in layout.arms[end])
    k = layout.arms[home].index(spinner)
    back: End = "east" if home == "west" else "west"
    # Seen from the spinner, the tiles between it and the lead run the other way.
    towards_lead = [(outer, inner, double) for inner, outer, double in reversed(arm[home][:k])]
    lead_item = (lead.outer, lead.inner, lead.is_double) if home == "east" else (lead.inner, lead.outer, lead.is_double)
    centre = placements[spinner]
    return (centre.inner, centre.outer, True), {
        home: arm[home][k + 1 :],
        back: towards_lead + [lead_item] + arm[back],
        "north": arm["north"],
        "south": arm["south"],
    }


STEP: dict[End, tuple[int, int]] = {"west": (-1, 0), "east": (1, 0), "north": (0, -1), "south": (0, 1)}


def layout_svg(layout: Layout | None, open_ends: dict[str, int] | None) -> str:
    """The layout around its centre, the last few tiles of each arm, and each open end's number."""
    centre, runs = _directions(layout) if layout is not None else (None, {})
    if centre is None:
        # In the page's language: the board is built once per language (board.live, force_locale).
        # (The words outside the f-strings, where Babel's extractor finds them.) Who leads and with
        # what is the status line's to say (the rules differ by variant and hand): not said here.
        label = escape(_("no tile played yet"))
        return (
            f'<svg class="layout" viewBox="-60 -30 120 60" role="img" aria-label="{label}">'
            f'<text x="0" y="5" class="empty">{label}</text></svg>'
        )
    parts: list[str] = []
    inner, outer, double = centre
    # The centre: a crosswise double stands upright in the west-east line, an ordinary lead lies flat.
    cw, ch = (U, 2 * U) if double else (2 * U, U)
    parts.append(_tile(inner, outer, -cw / 2, -ch / 2, vertical=double, css="centre"))
    xs, ys = [-cw / 2, cw / 2], [-ch / 2, ch / 2]
    ends = open_ends or {}
    for end, (dx, dy) in STEP.items():
        items = runs.get(end, [])
        hidden = max(0, len(items) - SHOWN)
        shown = items[hidden:]
        # Start at the centre tile's edge on that side.
        pos = cw / 2 if dx else ch / 2
        if hidden:
            # the tiles left out of the picture between the centre and the last few: "4 tiles", in
            # words ("not drawn" would read as not taken from the boneyard, in a draw game)
            words = escape(ngettext("%(num)s tile", "%(num)s tiles", hidden))
            title = escape(ngettext("%(num)s more tile, not shown", "%(num)s more tiles, not shown", hidden))
            gap = max(U, len(words) * MORE_SIZE * 0.58 + 6) if dx else U
            cx, cy = dx * (pos + gap / 2), dy * (pos + gap / 2)
            parts.append(f'<text class="more" x="{cx:.1f}" y="{cy + 3:.1f}"><title>{title}</title>{words}</text>')
            pos += gap
        for a, b, is_double in shown:
            along = U if is_double else 2 * U
            across = 2 * U if is_double else U
            if dx:  # west-east
                x = dx * pos if dx > 0 else -pos - along
                y = -across / 2
                first, second = (a, b) if dx > 0 else (b, a)
                parts.append(_tile(first, second, x, y, vertical=is_double))
            else:  # north-south
                y = dy * pos if dy > 0 else -pos - along
                x = -across / 2
                first, second = (a, b) if dy > 0 else (b, a)
                parts.append(_tile(first, second, x, y, vertical=not is_double))
            pos += along
        if end in ends:
            bx, by = dx * (pos + U * 0.8), dy * (pos + U * 0.8)
            parts.append(
                f'<g class="open {end}"><circle cx="{bx:.1f}" cy="{by:.1f}" r="{U * 0.7:.1f}"/>'
                f'<text x="{bx:.1f}" y="{by + 5:.1f}">{int(ends[end])}</text></g>'
            )
            pos += U * 1.6
        if dx:
            xs.append(dx * pos)
        else:
            ys.append(dy * pos)
    pad = 4
    x0, x1 = min(xs) - pad, max(xs) + pad
    y0, y1 = min(min(ys), -2 * U) - pad, max(max(ys), 2 * U) + pad
    label = ", ".join(f"{end} shows {value}" for end, value in ends.items())
    return (
        f'<svg class="layout" viewBox="{x0:.0f} {y0:.0f} {x1 - x0:.0f} {y1 - y0:.0f}" role="img" '
        f'aria-label="open ends: {label or "none"}">{"".join(parts)}</svg>'
    )


def chart_svg(
    sides: list[str], totals_by_hand: Iterable[list[int]], target: int | None, words: dict[str, str] | None = None
) -> str:
    """The score of each side after each hand, as lines (the scorer's totals, nothing else), with
    axes: hands along the bottom, points up the side, the target dashed. `words` names the axes and
    the picture (in the page's language); the legend is the page's, beside the picture."""
    words = {"hand": "Hand", "points": "Points", "label": "Score after each hand", **(words or {})}
    rows = [[0] * len(sides)] + [list(t) for t in totals_by_hand]
    width, height = 320, 190
    left, right, top_pad, bottom_pad = 44, 10, 12, 40  # room for the labels (16 units: legible on a phone)
    n = max(1, len(rows) - 1)
    values = [v for row in rows for v in row] + [0] + ([target] if target else [])
    top, bottom = max(values), min(values)
    span = (top - bottom) or 1

    def x(i: int) -> float:
        return left + i * (width - left - right) / n

    def y(v: int) -> float:
        return height - bottom_pad - (v - bottom) * (height - top_pad - bottom_pad) / span

    base = height - bottom_pad
    parts = [
        f'<line class="axis-line" x1="{left}" x2="{width - right}" y1="{base}" y2="{base}"/>',
        f'<line class="axis-line" x1="{left}" x2="{left}" y1="{top_pad}" y2="{base}"/>',
    ]
    step = max(1, -(-n // 8))  # at most about 8 hand numbers along the bottom
    for i in range(0, n + 1, step):
        parts.append(f'<text class="axis" x="{x(i):.1f}" y="{base + 17}" text-anchor="middle">{i}</text>')
    parts.append(
        f'<text class="axis" x="{(left + width - right) / 2:.1f}" y="{height - 3}" text-anchor="middle">'
        f"{escape(words['hand'])}</text>"
    )
    for value in sorted({bottom, top}):
        parts.append(f'<text class="axis" x="{left - 5}" y="{y(value) + 5:.1f}" text-anchor="end">{value}</text>')
    if target:
        parts.append(
            f'<line class="target" x1="{left}" x2="{width - right}" y1="{y(target):.1f}" y2="{y(target):.1f}"/>'
        )
    for side in range(len(sides)):
        line = " ".join(f"{x(i):.1f},{y(row[side]):.1f}" for i, row in enumerate(rows))
        parts.append(f'<polyline class="side side{side}" points="{line}"/>')
        parts.append(f'<circle class="side{side}" cx="{x(len(rows) - 1):.1f}" cy="{y(rows[-1][side]):.1f}" r="4"/>')
    said = "; ".join(f"{name} {rows[-1][i]}" for i, name in enumerate(sides))
    return (
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(words["label"])}: {escape(said)}">{"".join(parts)}</svg>'
    )


def reading_svg(reading: dict[str, Any] | None, width: int, height: int, proposal: dict[str, Any] | None = None) -> str:
    """What the reader saw, to lay over the photo: each tile's outline and its name; new tiles in yellow.

    Only numbers from the reading go in (coordinates, pip values); the viewBox is the photo's pixels.
    """
    if not isinstance(reading, dict) or not width or not height:
        return ""
    # An imported archive's frames.json may hold anything here: what is not a tile is left out.
    new = {str(item.get("tile")) for item in _listed((proposal or {}).get("new")) if isinstance(item, dict)}
    size = max(12, round(min(width, height) / 30))
    parts = [
        f'<svg class="reading" viewBox="0 0 {int(width)} {int(height)}" preserveAspectRatio="none" aria-hidden="true">'
    ]
    for tile in _listed(reading.get("tiles")):
        try:
            corners = [(float(x), float(y)) for x, y in tile["corners"]]
            a, b = parse_halves(str(tile["tile"]))  # as read, the half nearer the top first
            name = str(Tile.of(a, b))
        except (KeyError, TypeError, ValueError):
            continue
        if len(corners) < 3 or not all(math.isfinite(v) for corner in corners for v in corner):
            continue  # no outline to draw
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
        cx = sum(x for x, _ in corners) / len(corners)
        cy = sum(y for _, y in corners) / len(corners)
        css = ' class="new"' if name in new else ""
        parts.append(
            f'<polygon{css} points="{points}"/>'
            f'<text x="{cx:.1f}" y="{cy + size / 3:.1f}" font-size="{size}">{a}-{b}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _listed(value: object) -> list[Any]:
    return value if isinstance(value, list) else []
