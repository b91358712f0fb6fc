"""The synthetic photo generator: legal layouts, consistent labels and truth, determinism, CLI."""

from __future__ import annotations

import json
import math
from functools import cache

import cv2
import numpy as np
import pytest

from scorer.layout import Layout, LayoutRules
from scorer.tiles import Tile
from vision.synth.dataset import Sample, make_sample
from vision.synth.geometry import overlap_area
from vision.synth.labels import TILE_CLASS, yolo_lines
from vision.synth.layouts import BLANK_WEIGHT, favour_blanks, legal_layout
from vision.synth.scene import TRAINING, build_scene, packed_grid
from vision.synth.tiles import draw_face, random_tile_style

W, H = 320, 240
SEEDS = range(6)


@cache
def sample(index: int) -> Sample:
    return make_sample(11, index, W, H)


def _inside(points: np.ndarray, poly: np.ndarray, tol: float) -> bool:
    contour = poly.astype(np.float32).reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -tol for x, y in points)


def _poly_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Shortest distance between two polygons' outlines (0 when they touch)."""

    def point_segment(p: np.ndarray, u: np.ndarray, v: np.ndarray) -> float:
        t = float(np.clip(np.dot(p - u, v - u) / max(float(np.dot(v - u, v - u)), 1e-12), 0, 1))
        return float(np.linalg.norm(p - (u + t * (v - u))))

    return min(
        min(point_segment(p, q[k], q[(k + 1) % len(q)]) for p in r for k in range(len(q))) for r, q in ((a, b), (b, a))
    )


def _replay(placements: list[dict], spinner: bool) -> Layout:
    layout = Layout(LayoutRules(spinner=spinner))
    for p in placements:
        if p["end"] is None:
            layout.place_lead(p["inner"], p["outer"])
        else:
            layout.place(Tile.of(p["inner"], p["outer"]), p["end"])
    return layout


@pytest.mark.parametrize("seed", range(20))
def test_layout_is_legal_and_touching_halves_match(seed: int) -> None:
    laid = legal_layout(np.random.default_rng(seed), 28, bounds=(-10, -7, 10, 7))
    placements = laid.layout.placements
    assert len(laid.poses) == len(placements) >= 1
    if laid.variant == "spinner" and laid.layout.spinner is not None:
        # the spinner is the first double played, the lead or a later tile
        assert not any(p.is_double for p in placements[: laid.layout.spinner])
        assert placements[laid.layout.spinner].is_double
    for i, (pose, p) in enumerate(zip(laid.poses, placements, strict=False)):
        if p.parent is None:
            continue
        parent_pose = laid.poses[p.parent]
        parent = placements[p.parent]
        # where the new tile touches: its inner half, or a crosswise double's middle
        inner_centre = np.array([pose.x, pose.y]) if p.is_double else pose.half_center(0)
        # the parent half nearest that point shows the same number
        near = min((0, 1), key=lambda k: float(np.linalg.norm(parent_pose.half_center(k) - inner_centre)))
        assert (parent.inner, parent.outer)[near] == p.inner
        # and they touch: the closest corners are a small gap apart
        gap = min(
            _poly_distance(pose.half_corners(k), parent_pose.half_corners(near))
            for k in ((0, 1) if p.is_double else (0,))
        )
        assert gap < 0.2, (i, gap)
        # the new tile's outer half is farther from the parent than its inner half
        pc = np.array([parent_pose.x, parent_pose.y])
        assert p.is_double or np.linalg.norm(pose.half_center(1) - pc) > np.linalg.norm(inner_centre - pc) - 1e-6
    for i, a in enumerate(laid.poses):
        for b in laid.poses[:i]:
            assert overlap_area(a.corners(), b.corners()) < 1e-6
    # every tile once
    assert len({p.tile for p in placements}) == len(placements)


def test_no_two_bodies_overlap_even_when_the_set_runs_out() -> None:
    from vision.synth.dataset import image_rng
    from vision.synth.geometry import Footprints

    # image 24 of seed 3 at 640x480 once laid a face-down row over a hand cut short by an
    # empty set (its footprints were never reserved)
    for index in range(20, 30):
        scene = build_scene(image_rng(3, index), 640, 480)
        feet = Footprints()
        for body in scene.bodies:
            corners = body.pose.corners()
            assert not len(feet) or feet.gaps(corners).min() >= -1e-6, (index, body.role)
            feet.add(corners)


def test_spinner_games_lead_with_a_double_or_not() -> None:
    leads = set()
    for seed in range(12):
        laid = legal_layout(np.random.default_rng(seed), 12, spinner=True, spinner_lead=seed % 2 == 0)
        assert laid.layout.placements[0].is_double == (seed % 2 == 0)
        if laid.layout.spinner is not None:
            leads.add(laid.layout.spinner == 0)
            # the spinner lies crosswise to the line it sits in: across the lead's west-east axis
            if laid.layout.spinner == 0:
                assert abs(laid.poses[0].axis[0]) < 0.1
    assert leads == {True, False}


@pytest.mark.parametrize("seed", SEEDS)
def test_scene_tiles_never_overlap(seed: int) -> None:
    scene = build_scene(np.random.default_rng(seed), W, H)
    polys = [b.pose.corners() for b in scene.bodies]
    for i, a in enumerate(polys):
        for b in polys[:i]:
            assert overlap_area(a, b) < 1e-6
    faces = [b for b in scene.bodies if b.kind == "up"]
    if scene.sets == 1:
        tiles = [Tile.of(*b.values) for b in faces]
        assert len(set(tiles)) == len(tiles)


def _blank_share(scenes: list) -> float:
    """The share of face-up tiles with at least one blank half."""
    faces = [b for scene in scenes for b in scene.bodies if b.kind == "up"]
    return sum(0 in b.values for b in faces) / len(faces)


def test_training_scenes_draw_blank_halves_more_often_and_stay_legal() -> None:
    uniform = [build_scene(np.random.default_rng(seed), W, H) for seed in range(40)]
    favoured = [build_scene(np.random.default_rng(seed), W, H, TRAINING) for seed in range(40)]
    # a uniform deal shows a blank half on 7 tiles in 28
    assert abs(_blank_share(uniform) - 0.25) < 0.05
    assert _blank_share(favoured) > _blank_share(uniform) + 0.05
    for scene in favoured:
        if scene.sets == 1:
            tiles = [Tile.of(*b.values) for b in scene.bodies if b.kind == "up"]
            assert len(set(tiles)) == len(tiles)


def test_favoured_layouts_are_still_legal_games() -> None:
    for seed in range(10):
        laid = legal_layout(np.random.default_rng(seed), 14, blank_weight=BLANK_WEIGHT)
        placements = [{"inner": p.inner, "outer": p.outer, "end": p.end} for p in laid.layout.placements]
        assert len(_replay(placements, laid.layout.rules.spinner)) == len(laid.layout)


def test_blank_halves_come_first_and_a_weight_of_one_is_a_plain_shuffle() -> None:
    tiles = [Tile.of(0, 0), Tile.of(0, 6), Tile.of(6, 6)]
    firsts = [favour_blanks(np.random.default_rng(seed), tiles, BLANK_WEIGHT)[0] for seed in range(300)]
    # weights 9 : 3 : 1
    assert firsts.count(Tile.of(0, 0)) > firsts.count(Tile.of(0, 6)) > firsts.count(Tile.of(6, 6))
    assert favour_blanks(np.random.default_rng(0), [], BLANK_WEIGHT) == []
    lasts = [favour_blanks(np.random.default_rng(seed), tiles, BLANK_WEIGHT, last=True)[-1] for seed in range(300)]
    assert lasts.count(Tile.of(0, 0)) > 150
    # the films and sequences rendered before the weighting existed stay the same
    plain = [tiles[i] for i in np.random.default_rng(5).permutation(3)]
    assert favour_blanks(np.random.default_rng(5), tiles, 1.0) == plain


def test_a_painted_divider_is_drawn_in_the_pip_colour_and_a_groove_lighter() -> None:
    from dataclasses import replace

    style = replace(
        random_tile_style(np.random.default_rng(1)),
        name="ivory",
        face=(200, 228, 238),
        pip=(20, 20, 20),
        pin=False,
        wear=0.0,
        divider=0.06,
    )
    s = 64

    def middle(st):
        return float(draw_face(0, 0, st, s, np.random.default_rng(0))[0][s // 2 - 4 : s // 2 + 4, s - 1 : s + 1].mean())

    painted, groove = middle(replace(style, painted_divider=True)), middle(style)
    assert painted < 60 < groove  # black paint against a groove a little darker than the face


def test_training_photos_paint_some_dividers_and_films_draw_as_before() -> None:
    painted = [random_tile_style(np.random.default_rng(seed), 0.6).painted_divider for seed in range(200)]
    assert 0.45 < sum(painted) / 200 < 0.75
    # at share 0 (films, sequences) nothing more is drawn: what follows draws the same numbers
    plain, before = np.random.default_rng(3), np.random.default_rng(3)
    assert not random_tile_style(plain, 0.0).painted_divider
    random_tile_style(before)
    assert plain.random() == before.random()


@pytest.mark.parametrize("seed", range(20))
def test_packed_grid_tiles_touch_without_overlapping(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gap = float(rng.uniform(0.02, 0.07))
    poses = packed_grid(rng, np.array([3.0, -2.0]), float(rng.uniform(0, 2 * math.pi)), 24, gap)
    assert 12 <= len(poses) <= 24
    polys = [p.corners() for p in poses]
    for i, a in enumerate(polys):
        assert all(overlap_area(a, b) < 1e-9 for j, b in enumerate(polys) if j != i)
        # packed: every tile has a neighbour no farther than two cell gaps (two tiles end to
        # end are a gap at each of their cells' borders apart), plus the jitter
        assert min(_edge_gap(a, b) for j, b in enumerate(polys) if j != i) <= 2 * gap + 0.02


def _edge_gap(a: np.ndarray, b: np.ndarray) -> float:
    """The shortest distance between two convex polygons' outlines (corner to edge either way)."""

    def point_to_edges(p: np.ndarray, poly: np.ndarray) -> float:
        best = math.inf
        for k in range(len(poly)):
            u, v = poly[k], poly[(k + 1) % len(poly)]
            t = float(np.clip(np.dot(p - u, v - u) / np.dot(v - u, v - u), 0, 1))
            best = min(best, float(np.linalg.norm(p - (u + t * (v - u)))))
        return best

    return min(min(point_to_edges(p, b) for p in a), min(point_to_edges(p, a) for p in b))


@pytest.mark.parametrize("index", range(4))
def test_labels_inside_and_match_truth(index: int) -> None:
    s = sample(index)
    truth = s.truth
    lines = s.label.splitlines()
    assert lines == yolo_lines(truth)
    expected = sum(t["labelled"] for t in truth["tiles"]) + sum(
        h["labelled"] for t in truth["tiles"] for h in t["halves"]
    )
    assert len(lines) == expected
    for line in lines:
        parts = line.split()
        assert len(parts) == 9
        cls = int(parts[0])
        assert 0 <= cls <= TILE_CLASS
        coords = np.array([float(v) for v in parts[1:]])
        assert ((coords >= 0) & (coords <= 1)).all()
    img = cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape == (H, W, 3)
    assert truth["image"] == {"width": W, "height": H, "file": f"{s.name}.jpg"}


@pytest.mark.parametrize("index", range(4))
def test_each_half_lies_on_its_tile(index: int) -> None:
    for tile in sample(index).truth["tiles"]:
        a, b = (int(v) for v in tile["value"].split("-"))
        assert [h["value"] for h in tile["halves"]] == [a, b]
        corners = np.array(tile["corners"])
        for half in tile["halves"]:
            hc = np.array(half["corners"])
            assert _inside(hc, corners, tol=1.0)
            assert np.allclose(hc.mean(axis=0), half["center"], atol=0.02)
        # the two halves share an edge and together make the tile
        h0, h1 = (np.array(h["corners"]) for h in tile["halves"])
        area = lambda p: abs(cv2.contourArea(p.astype(np.float32)))  # noqa: E731
        assert area(h0) + area(h1) == pytest.approx(area(corners), rel=0.02, abs=2)
        if tile["labelled"]:
            assert tile["visible"] >= 0.6


def test_layout_truth_replays() -> None:
    checked = 0
    for index in range(4):
        truth = sample(index).truth
        layout = truth["layout"]
        if layout is None:
            continue
        checked += 1
        replay = _replay(layout["placements"], layout["variant"] == "spinner")
        assert dict(replay.open_ends()) == layout["open_ends"]
        assert replay.count() == layout["count"]
        assert replay.spinner == layout["spinner"]
        for i, p in enumerate(layout["placements"]):
            if p["tile_index"] is not None:
                t = truth["tiles"][p["tile_index"]]
                assert t["role"] == "layout" and t["placement"] == i
                assert t["value"] == f"{p['inner']}-{p['outer']}"
    assert checked


def test_touching_halves_in_the_photo_show_equal_values() -> None:
    for index in range(4):
        truth = sample(index).truth
        if truth["layout"] is None:
            continue
        tiles = truth["tiles"]
        for p in truth["layout"]["placements"]:
            if p["parent"] is None or p["tile_index"] is None:
                continue
            parent = truth["layout"]["placements"][p["parent"]]
            if parent["tile_index"] is None:
                continue
            child, mother = tiles[p["tile_index"]], tiles[parent["tile_index"]]
            # where the child touches: its inner half, or a crosswise double's middle
            inner = np.array(child["center"] if p["double"] else child["halves"][0]["center"])
            near = min(mother["halves"], key=lambda h: float(np.linalg.norm(np.array(h["center"]) - inner)))
            assert near["value"] == child["halves"][0]["value"]


def test_same_seed_same_bytes() -> None:
    a = make_sample(5, 3, W, H)
    b = make_sample(5, 3, W, H)
    assert a.jpeg == b.jpeg and a.label == b.label
    assert json.dumps(a.truth) == json.dumps(b.truth)
    c = make_sample(5, 4, W, H)
    assert c.jpeg != a.jpeg


def test_printed_pictures_and_face_down_tiles_are_never_labelled() -> None:
    seen_printed = seen_down = 0
    for index in range(40):
        scene = build_scene(__import__("vision.synth.dataset", fromlist=["image_rng"]).image_rng(11, index), W, H)
        if scene.board is None and not any(b.kind in ("down", "edge") for b in scene.bodies):
            continue
        truth = make_sample(11, index, W, H).truth
        seen_printed += len(truth["printed"])
        seen_down += len(truth["face_down"]) + len(truth["on_edge"])
        labelled = {tuple(map(tuple, t["corners"])) for t in truth["tiles"] if t["labelled"]}
        for item in truth["printed"] + truth["face_down"] + truth["on_edge"]:
            assert tuple(map(tuple, item["corners"])) not in labelled
        # every label line comes from a face-up tile entry
        assert make_sample(11, index, W, H).label.splitlines() == yolo_lines(truth)
        if seen_printed and seen_down:
            break
    assert seen_printed and seen_down


def test_tiles_on_edge_turn_their_backs_to_the_camera() -> None:
    seen = 0
    for seed in range(30):
        scene = build_scene(np.random.default_rng(seed), W, H)
        cam = scene.camera.centre[:2]
        for b in scene.bodies:
            if b.kind == "edge":
                seen += 1
                # the face is on the +across side; the camera must be on the other side
                assert float(np.dot(cam - [b.pose.x, b.pose.y], b.pose.across)) <= 1e-9
    assert seen


def test_hidden_tiles_get_no_label() -> None:
    for index in range(4):
        for t in sample(index).truth["tiles"]:
            if t["visible"] < 0.6:
                assert not t["labelled"]
                assert not any(h["labelled"] for h in t["halves"])


def test_parallel_workers_write_the_same_bytes(tmp_path) -> None:
    from vision.synth.dataset import generate_dataset

    def files(root):
        return {
            str(f.relative_to(root)): f.read_bytes()
            for f in sorted(root.rglob("*"))
            if f.is_file() and f.name != "data.yaml"
        }

    one, two = tmp_path / "one", tmp_path / "two"
    generate_dataset(one, 4, 9, 160, 120, 0.25, workers=1, progress=False)
    generate_dataset(two, 4, 9, 160, 120, 0.25, workers=2, progress=False)
    a, b = files(one), files(two)
    assert len(a) == 12 and a == b


def test_cli_writes_dataset(tmp_path, cli_runner) -> None:
    from vision.synth.commands import dataset

    out = tmp_path / "ds"
    result = cli_runner.invoke(
        dataset,
        [
            "synth",
            "--out",
            str(out),
            "--images",
            "3",
            "--seed",
            "2",
            "--size",
            "256x192",
            "--val-fraction",
            "0.34",
            "--workers",
            "1",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    images = sorted(out.glob("images/*/*.jpg"))
    assert len(images) == 3
    assert len(list(out.glob("images/val/*.jpg"))) == 1
    for img in images:
        split, name = img.parent.name, img.stem
        assert (out / "labels" / split / f"{name}.txt").is_file()
        truth = json.loads((out / "truth" / split / f"{name}.json").read_text())
        assert truth["image"]["width"] == 256
    yaml = (out / "data.yaml").read_text()
    assert f"path: {out.resolve()}" in yaml
    assert "train: images/train" in yaml and "val: images/val" in yaml
    assert "7: 'tile'" in yaml and "0: '0'" in yaml


def test_render_sequence_grows_the_layout() -> None:
    from vision.synth.sequence import render_sequence

    frames = render_sequence(seed=4, width=W, height=H, frames=4)
    assert len(frames) == 4
    counts = [len(f.truth["layout"]["placements"]) for f in frames]
    assert counts == sorted(counts) and counts[-1] > counts[0]
    for f in frames:
        assert f.image.shape == (H, W, 3)
        layout = f.truth["layout"]
        replay = _replay(layout["placements"], layout["variant"] == "spinner")
        assert replay.count() == layout["count"]
    assert math.isfinite(frames[-1].truth["layout"]["count"])


def test_the_phone_tone_curve_stretches_contrast_and_clips():
    from vision.synth.photo import finish_photo
    from vision.synth.scene import Finish, random_tone

    ramp = np.tile(np.linspace(0, 255, 256, dtype=np.float32), (8, 1))[..., None].repeat(3, axis=2)
    plain = Finish(0.0, 0.0, 0.0, 0.0, 90, 0.0, 1)
    flat = finish_photo(ramp.copy(), plain)
    harsh = finish_photo(ramp.copy(), Finish(0.0, 0.0, 0.0, 0.0, 90, 0.0, 1, contrast=1.5, pivot=128.0))
    assert np.array_equal(flat[0, :, 0], np.arange(256))
    assert harsh[0, 128, 0] == 128 and harsh[0, 200, 0] == 236 and harsh[0, 250, 0] == 255 and harsh[0, 20, 0] == 0
    tones = [random_tone(np.random.default_rng(k)) for k in range(400)]
    stretched = [t["contrast"] for t in tones if t["contrast"] != 1.0]
    assert 0.55 < len(stretched) / len(tones) < 0.85
    assert min(stretched) >= 0.8 and max(stretched) <= 1.7 and np.mean(np.array(stretched) > 1) > 0.6


def test_packed_tiles_on_a_ruled_board_lie_in_its_cells():
    found = 0
    for k in range(400):
        scene = build_scene(np.random.default_rng([77, k]))
        board = scene.board
        if board is None or board.cells is None or not scene.packed:
            continue
        cell, ox, oy = board.cells
        assert 1.0 < cell < 1.1
        c, s = math.cos(board.angle), math.sin(board.angle)
        packed = [b for b in scene.bodies if b.role == "loose" and b.kind == "up"]
        in_cells = 0
        for body in packed:
            halves = 0
            for end in (-0.5, 0.5):  # each half's centre, in the board's frame
                hx = body.pose.x + end * math.cos(body.pose.angle) - board.x
                hy = body.pose.y + end * math.sin(body.pose.angle) - board.y
                lx, ly = hx * c + hy * s, -hx * s + hy * c
                fx, fy = (lx - ox) / cell, (ly - oy) / cell
                halves += abs(fx - round(fx)) < 0.05 and abs(fy - round(fy)) < 0.05
            in_cells += halves == 2
        # the packed group (3 or more); loose tiles dropped about later need not lie in cells
        assert in_cells >= max(3, len(packed) // 2)
        found += 1
        if found == 3:
            break
    assert found == 3


def test_training_boards_print_words_over_the_play_area_and_films_do_not():
    """A lettered board (training photos) prints its name over the play area; the track's
    pictures are drawn the same either way, and a film's board stays unlettered."""
    from dataclasses import replace

    from vision.synth.printed import draw_board

    scenes = (build_scene(np.random.default_rng([5, k]), mix=TRAINING) for k in range(60))
    boards = [s.board for s in scenes if s.board is not None][:12]
    assert len(boards) >= 8 and all(b.lettered for b in boards)
    films = [build_scene(np.random.default_rng([5, k])).board for k in range(30)]
    assert any(films) and not any(b.lettered for b in films if b is not None)
    changed = 0
    for n, board in enumerate(boards):
        flat = replace(board, x=0.0, y=0.0, angle=0.0)
        ppu = 20.0
        affine = np.array([[ppu, 0, 300], [0, -ppu, 300]], np.float64)  # world y up, canvas rows down
        plain, lettered = np.zeros((600, 600, 3), np.float32), np.zeros((600, 600, 3), np.float32)
        track_plain = draw_board(plain, affine, ppu, replace(flat, lettered=False), np.random.default_rng(n))
        track_lettered = draw_board(lettered, affine, ppu, flat, np.random.default_rng(n))
        assert track_plain == track_lettered
        diff = np.abs(lettered - plain).max(axis=2) > 30
        inner = int(board.inner_half * ppu)
        play = diff[300 - inner : 300 + inner, 300 - inner : 300 + inner]
        changed += play.mean() > 0.002  # a word covers some of the play area
    # about 7 boards in 10 print a name
    assert 4 <= changed <= len(boards)


def test_a_lettered_board_may_print_its_logo_under_the_lead_tile():
    """As the real board: dark letters on a light band at the play area's centre, where the first
    tile is laid over them (`Board.lead`, set for training boards with a line laid on them)."""
    from dataclasses import replace

    from vision.synth.printed import draw_board

    scenes = (build_scene(np.random.default_rng([6, k]), mix=TRAINING) for k in range(80))
    leads = [s.board for s in scenes if s.board is not None and s.board.lead is not None]
    assert leads and all(b.lettered for b in leads)
    board = replace(leads[0], x=0.0, y=0.0, angle=0.0, lead=(2.0, -1.5, 0.0))
    ppu = 20.0
    affine = np.array([[ppu, 0, 300], [0, -ppu, 300]], np.float64)
    printed = 0
    for n in range(12):
        without, under = np.zeros((600, 600, 3), np.float32), np.zeros((600, 600, 3), np.float32)
        assert draw_board(without, affine, ppu, replace(board, lead=None), np.random.default_rng(n)) == draw_board(
            under, affine, ppu, board, np.random.default_rng(n)
        )
        ys, xs = np.nonzero(np.abs(under - without).max(axis=2) > 30)
        if not len(xs):
            continue
        printed += 1
        assert abs(xs.mean() - (300 + 2.0 * ppu)) < 1.5 * ppu and abs(ys.mean() - (300 + 1.5 * ppu)) < 1.5 * ppu
        grey = under.mean(axis=2)[ys, xs]
        assert (grey > 180).mean() > 0.3 and (grey < 60).mean() > 0.05  # a light band, dark letters
    assert 2 <= printed <= 11  # about half of them
    films = [build_scene(np.random.default_rng([6, k])).board for k in range(30)]
    assert not any(b.lead for b in films if b is not None)


def test_a_word_on_a_panel_is_dark_ink_on_a_light_band():
    from vision.synth.printed import _ink_word

    tex = np.full((200, 400, 3), (150.0, 140.0, 30.0), np.float32)  # a teal play area
    _ink_word(
        tex,
        "DOUBLE",
        (200.0, 100.0),
        40.0,
        0,
        0.0,
        (20.0, 20.0, 20.0),
        None,
        0.15,
        cv2.FONT_HERSHEY_DUPLEX,
        panel=(240.0, 240.0, 240.0),
    )
    grey = tex.mean(axis=2)
    ys, xs = np.nonzero(grey > 200)
    assert len(ys) and 180 < xs.mean() < 220 and 80 < ys.mean() < 120  # the band, round the centre
    band = grey[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    assert (band > 200).mean() > 0.4 and (band < 60).mean() > 0.1  # light band, dark letters
    assert np.allclose(tex[5, 5], (150, 140, 30)) and np.allclose(tex[195, 395], (150, 140, 30))
    plain = np.full_like(tex, (150.0, 140.0, 30.0))
    _ink_word(plain, "DOUBLE", (200.0, 100.0), 40.0, 0, 0.0, (20.0, 20.0, 20.0), None, 0.15, cv2.FONT_HERSHEY_DUPLEX)
    assert (plain.mean(axis=2) > 200).sum() == 0 and (plain.mean(axis=2) < 60).sum() > 0
