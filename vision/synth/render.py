"""Drawing a scene: the table warped into the photo, then each tile as a small 3-D box.

Order of work: the table canvas (flat, in table-plane pixels) gets the board, printed pictures
and every tile's soft shadow; one perspective warp puts it in the photo. Tiles are then drawn
far to near (painter's order): visible side walls as shaded polygons, the top as its face
texture warped onto the projected top. An id buffer records which body owns each pixel, so
occlusion by nearer tiles, arms and the frame edge gives each tile half a visible fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .camera import Camera
from .geometry import Pose, rounded_rect
from .hands import draw_hands, draw_props
from .photo import apply_light, finish_photo
from .printed import Printed, draw_board, draw_cards, texture_quad
from .scene import Body, Scene
from .tables import draw_table
from .tiles import draw_back, draw_face

HAND_ID = 65535
#: most table-canvas pixels drawn per photo pixel (keeps wide and tilted views fast; the table
#: is background anyway, and the warp into the photo needs about one canvas pixel per pixel)
MAX_CANVAS_PER_PIXEL = 1.3


@dataclass(slots=True)
class BodyView:
    """Where one body landed in the photo."""

    top: np.ndarray  # (4, 2) projected top face (first half's corners first)
    halves: tuple[np.ndarray, np.ndarray]  # (4, 2) each, projected top-face halves
    silhouette: np.ndarray  # (N, 2) outline of the whole box
    visible: float = 0.0  # share of the top face seen (not hidden, inside the frame)
    half_visible: tuple[float, float] = (0.0, 0.0)


@dataclass(slots=True)
class Rendered:
    image: np.ndarray  # uint8 BGR, before JPEG
    views: list[BodyView]  # one per scene body, same order
    printed: list[tuple[Printed, np.ndarray, bool]]  # picture, its image corners, on the board
    hands: list[np.ndarray] = field(default_factory=list)  # hand/arm outlines in pixels


def _canvas_frame(camera: Camera) -> tuple[np.ndarray, float, tuple[int, int]]:
    """World -> canvas affine (2x3) covering what the photo sees of the table."""
    fp = camera.footprint(0.0, margin=8)
    x0, y0 = fp.min(axis=0) - 0.5
    x1, y1 = fp.max(axis=0) + 0.5
    ppu = camera.tile_px() / 2
    area = (x1 - x0) * (y1 - y0) * ppu * ppu
    limit = MAX_CANVAS_PER_PIXEL * camera.width * camera.height
    if area > limit:
        ppu *= math.sqrt(limit / area)
    w, h = int(math.ceil((x1 - x0) * ppu)), int(math.ceil((y1 - y0) * ppu))
    # canvas rows run down while world y runs up
    affine = np.array([[ppu, 0.0, -x0 * ppu], [0.0, -ppu, y1 * ppu]])
    return affine, ppu, (w, h)


def _shadows(
    canvas: np.ndarray, affine: np.ndarray, ppu: float, bodies: list[Body], light_dir: np.ndarray, ambient: float
) -> None:
    """Soft shadows of the tiles on the table, drawn at a quarter of the canvas size."""
    if not bodies:
        return
    q = 4
    h, w = canvas.shape[:2]
    sh, sw = h // q + 1, w // q + 1
    small = affine / q
    cast = np.zeros((sh, sw), np.float32)
    contact = np.zeros((sh, sw), np.float32)
    horiz = light_dir[:2] / max(light_dir[2], 0.25)
    for b in bodies:
        foot = b.pose.corners()
        pts = foot @ small[:, :2].T + small[:, 2]
        cv2.fillConvexPoly(contact, np.round(pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        moved = foot - horiz * b.height * 0.9
        both = np.concatenate([foot, moved]) @ small[:, :2].T + small[:, 2]
        hull = cv2.convexHull(both.astype(np.float32))
        cv2.fillConvexPoly(cast, np.round(hull[:, 0] * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    soft = max(0.6, ppu / q * (0.08 + 0.25 * ambient))
    cast = cv2.GaussianBlur(cast, (0, 0), soft)
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.5, ppu / q * 0.06))
    dark = np.clip(cast * (0.75 - 0.6 * ambient) + contact * 0.25, 0, 0.85)
    dark = cv2.resize(dark, (w, h), interpolation=cv2.INTER_LINEAR)
    canvas *= (1 - dark)[..., None]


def _raster(poly: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, int, int]:
    """A polygon's pixel mask in its own bounding box (which may reach outside the photo)."""
    x0, y0 = np.floor(poly.min(axis=0)).astype(int)
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
    mask = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
    cv2.fillConvexPoly(mask, np.round((poly - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return mask, int(x0), int(y0)


def _visible(poly: np.ndarray, ids: np.ndarray, ident: int) -> float:
    """Share of the polygon's pixels that show this body (its own pixels, inside the frame).

    Measured on the polygon pulled in by about a pixel: at 15 px a half would otherwise lose
    a tenth of itself to the rasterised edge of a touching neighbour that hides nothing.
    """
    centre = poly.mean(axis=0)
    radius = np.linalg.norm(poly - centre, axis=1, keepdims=True)
    poly = centre + (poly - centre) * np.clip(1 - 1.4 / np.maximum(radius, 1e-6), 0.5, 1)
    mask, x0, y0 = _raster(poly, ids.shape)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    h, w = ids.shape
    mh, mw = mask.shape
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x0 + mw, w), min(y0 + mh, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return 0.0
    sub = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
    seen = int(np.count_nonzero(sub & (ids[cy0:cy1, cx0:cx1] == ident)))
    return seen / total


def _warp_into(
    img: np.ndarray,
    ids: np.ndarray | None,
    ident: int,
    tex: np.ndarray,
    alpha: np.ndarray,
    quad: np.ndarray,
    gain: float,
) -> None:
    """Blend a texture (TL, TR, BR, BL corners -> `quad` pixels) into the photo."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    th, tw = tex.shape[:2]
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - [cx0, cy0]).astype(np.float32))
    size = (cx1 - cx0, cy1 - cy0)
    warped = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    roi = img[cy0:cy1, cx0:cx1]
    roi += (warped.astype(np.float32) * gain - roi) * a[..., None]
    if ids is not None:
        ids[cy0:cy1, cx0:cx1][a > 0.5] = ident


def _light_in_texture(pose: Pose, light_dir: np.ndarray) -> tuple[float, float]:
    """The light's horizontal direction in a face texture's pixel axes (x along, y down = -across)."""
    lx = float(np.dot(light_dir[:2], pose.axis))
    ly = -float(np.dot(light_dir[:2], pose.across))
    n = math.hypot(lx, ly) + 1e-9
    return lx / n, ly / n


def _glare(tex: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """A soft specular highlight on a glossy top."""
    h, w = tex.shape[:2]
    spot = np.zeros((h, w), np.float32)
    c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    axes = (max(1, int(w * rng.uniform(0.1, 0.4))), max(1, int(h * rng.uniform(0.1, 0.4))))
    cv2.ellipse(spot, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), max(1.0, h * 0.12))
    out = tex.astype(np.float32) + spot[..., None] * amount * 255
    return np.clip(out, 0, 255).astype(np.uint8)


def render_scene(scene: Scene, camera: Camera | None = None, hands: bool = True, light_gain: float = 1.0) -> Rendered:
    """Draw the scene as a photo (uint8 BGR, pre-JPEG) with where each body landed."""
    cam = camera or scene.camera
    width, height = scene.width, scene.height
    light = scene.light
    ldir = light.direction
    style = scene.tile_style

    # the table canvas: table, board, printed pictures, shadows
    affine, ppu, (cw, ch) = _canvas_frame(cam)
    canvas = draw_table(scene.table, ch, cw, ppu, np.random.default_rng(scene.seed + 1))
    printed: list[tuple[Printed, bool]] = []
    if scene.board is not None:
        printed += [
            (p, True) for p in draw_board(canvas, affine, ppu, scene.board, np.random.default_rng(scene.seed + 2))
        ]
    if scene.cards:
        printed += [
            (p, False) for p in draw_cards(canvas, affine, ppu, scene.cards, np.random.default_rng(scene.seed + 3))
        ]
    _shadows(canvas, affine, ppu, scene.bodies, ldir, light.ambient)
    a3 = np.vstack([affine, [0, 0, 1]])
    hmat = cam.plane_homography(0.0) @ np.linalg.inv(a3)
    img = cv2.warpPerspective(canvas, hmat, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    ids = np.zeros((height, width), np.uint16)

    # tiles, far to near
    top_shade = light.ambient + (1 - light.ambient) * ldir[2]
    cam_xy = cam.centre[:2]
    order = sorted(
        range(len(scene.bodies)),
        key=lambda i: (
            -float(
                cam.depth(np.array([[scene.bodies[i].pose.x, scene.bodies[i].pose.y, scene.bodies[i].height / 2]]))[0]
            )
        ),
    )
    views: list[BodyView | None] = [None] * len(scene.bodies)
    outline_cache: dict[tuple[float, float, float], np.ndarray] = {}
    for i in order:
        body = scene.bodies[i]
        views[i] = _draw_body(
            img,
            ids,
            i + 1,
            body,
            cam,
            style,
            ldir,
            light.ambient,
            top_shade,
            cam_xy,
            outline_cache,
            light.glare,
            np.random.default_rng(body.seed),
        )

    if scene.props:
        draw_props(img, ids, HAND_ID, scene.props, cam, ldir)
    hand_polys: list[np.ndarray] = []
    if hands and scene.hands:
        hand_polys = draw_hands(img, ids, HAND_ID, scene.hands, cam.tile_px(), ldir)
    apply_light(img, light, light_gain)
    out = finish_photo(img, scene.finish)

    for i, body in enumerate(scene.bodies):
        v = views[i]
        assert v is not None
        if body.kind == "edge":
            v.visible = _visible(v.silhouette, ids, i + 1)
            continue
        hv = (_visible(v.halves[0], ids, i + 1), _visible(v.halves[1], ids, i + 1))
        v.half_visible = hv
        v.visible = (hv[0] + hv[1]) / 2
    projected = [
        (p, cam.project(np.column_stack([p.pose.corners(), np.zeros(4)])), on_board) for p, on_board in printed
    ]
    return Rendered(out, views, projected, hand_polys)  # type: ignore[arg-type]


def _draw_body(
    img: np.ndarray,
    ids: np.ndarray,
    ident: int,
    body: Body,
    cam: Camera,
    style,
    ldir: np.ndarray,
    ambient: float,
    top_shade: float,
    cam_xy: np.ndarray,
    cache: dict,
    glare: float,
    rng: np.random.Generator,
) -> BodyView:
    pose, h = body.pose, body.height
    # standing on edge, the tile's rounded corners are upright: from above it is nearly square-cornered
    radius = style.radius if body.kind != "edge" else min(style.radius, 0.04)
    key = (pose.length, pose.width, radius)
    if key not in cache:
        cache[key] = rounded_rect(pose.length, pose.width, radius, 3)
    local = cache[key]
    foot = pose.local_to_world(local)
    n = len(foot)
    both = cam.project(np.column_stack([np.concatenate([foot, foot]), np.repeat([0.0, h], n)]))
    bottom, top = both[:n], both[n:]
    hull = cv2.convexHull(both.astype(np.float32))[:, 0].astype(np.float64)
    side = np.array(style.side, np.float32)
    # silhouette first (anti-aliased edge), then each wall facing the camera in its own shade
    hull16 = np.round(hull * 16).astype(np.int32)
    cv2.fillConvexPoly(img, hull16, tuple(float(c) * 0.8 for c in side), cv2.LINE_AA, 4)
    cv2.fillConvexPoly(ids, hull16, ident, cv2.LINE_8, 4)
    # every wall at once (this runs for each of ~16 outline segments of every tile)
    nxt = np.roll(np.arange(n), -1)
    e = foot[nxt] - foot
    nrm = np.column_stack([e[:, 1], -e[:, 0]]) / (
        np.linalg.norm(e, axis=1, keepdims=True) + 1e-12
    )  # outward (counter-clockwise)
    facing = ((cam_xy - (foot + foot[nxt]) / 2) * nrm).sum(axis=1) > 0
    lit = ambient + (1 - ambient) * np.maximum(0.0, nrm[:, 0] * ldir[0] + nrm[:, 1] * ldir[1])
    shades = np.minimum(1.3, lit / max(top_shade, 1e-3)) * 0.92
    quads = np.round(np.stack([bottom, bottom[nxt], top[nxt], top], axis=1) * 16).astype(np.int32)
    for k in np.flatnonzero(facing):
        shade = float(shades[k])
        cv2.fillConvexPoly(img, quads[k], tuple(float(c) * shade for c in side), cv2.LINE_8, 4)

    corners = pose.corners()
    top_quad = cam.project(np.column_stack([corners, np.full(4, h)]))
    halves = tuple(cam.project(np.column_stack([pose.half_corners(k), np.full(4, h)])) for k in (0, 1))
    if body.kind == "edge":
        _draw_edge_faces(img, ids, ident, body, cam, style, ldir, ambient, top_shade, cam_xy, rng)
        return BodyView(top_quad, halves, hull)  # type: ignore[arg-type]
    half_px = float(np.linalg.norm(top_quad[1] - top_quad[0])) / 2
    s = int(np.clip(half_px * 1.4, 12, 128))
    if body.kind == "up":
        assert body.values is not None
        tex, alpha = draw_face(body.values[0], body.values[1], style, s, rng, _light_in_texture(pose, ldir))
    else:
        tex, alpha = draw_back(style, s, rng)
    if glare > 0 and rng.random() < glare:
        tex = _glare(tex, rng, float(rng.uniform(0.15, 0.6)))
    tq = texture_quad(pose)
    quad = cam.project(np.column_stack([tq, np.full(4, h)]))
    _warp_into(img, None, ident, tex, alpha, quad, 1.0)
    return BodyView(top_quad, halves, hull)  # type: ignore[arg-type]


def _draw_edge_faces(
    img: np.ndarray,
    ids: np.ndarray,
    ident: int,
    body: Body,
    cam: Camera,
    style,
    ldir: np.ndarray,
    ambient: float,
    top_shade: float,
    cam_xy: np.ndarray,
    rng: np.random.Generator,
) -> None:
    """A tile standing on its long edge: its face on one broad side, its back on the other."""
    pose = body.pose
    hl, hw = pose.length / 2, pose.width / 2
    for sign, what in ((1, "face"), (-1, "back")):
        normal = pose.across * sign
        centre = np.array([pose.x, pose.y]) + normal * hw
        if float(np.dot(cam_xy - centre, normal)) <= 0:
            continue
        s = 32
        if what == "face" and body.values is not None:
            tex, alpha = draw_face(body.values[0], body.values[1], style, s, rng)
        else:
            tex, alpha = draw_back(style, s, rng)
        # texture TL, TR, BR, BL -> (-l, top), (l, top), (l, bottom), (-l, bottom) on that side
        xs = np.array([-hl, hl, hl, -hl]) * sign
        pts = pose.local_to_world(np.column_stack([xs, np.full(4, hw * sign)]))
        zs = np.array([body.height, body.height, 0.0, 0.0])
        quad = cam.project(np.column_stack([pts, zs]))
        lit = ambient + (1 - ambient) * max(0.0, float(normal[0] * ldir[0] + normal[1] * ldir[1]))
        _warp_into(img, None, ident, tex, alpha, quad, min(1.3, lit / max(top_shade, 1e-3)) * 0.95)
