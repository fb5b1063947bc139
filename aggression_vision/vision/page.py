"""Find the sheet of paper in a photo and resample it to the working image.

When the four edges of the sheet are visible the sheet is rectified with a
homography; otherwise the whole photo is used, rectified by the sheet's printed
ruling when that is seen in strong perspective. The user may give the corners.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.vision.settings import ReaderSettings

Corners = NDArray[np.float64]  # (4, 2) x, y: top-left, top-right, bottom-right, bottom-left


@dataclass
class Page:
    """The working image and how it maps back to the photo.

    Attributes
    ----------
    image : (H, W, 3) uint8 BGR
        The working image.
    to_photo : (3, 3) float64
        Homography from working (x, y, 1) to photo (x, y, 1) coordinates.
    corners : (4, 2) float64 or None
        The sheet's corners in photo coordinates when a sheet was rectified.
    rectified : bool
        Whether the working image is a rectified sheet (True: by its corners, or by
        its printed ruling when they are not seen) or the whole photo.
    """

    image: NDArray[np.uint8]
    to_photo: NDArray[np.float64]
    corners: Corners | None
    rectified: bool


def order_corners(points: NDArray[np.float64]) -> Corners:
    """Order four (x, y) points as top-left, top-right, bottom-right, bottom-left.

    Parameters
    ----------
    points : (4, 2) array of x, y

    Returns
    -------
    (4, 2) float64 array in clockwise order starting at the top-left.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y down), starting anywhere
    start = int(np.argmin(pts.sum(axis=1)))  # top-left has the smallest x + y
    return np.roll(pts, -start, axis=0)


def find_sheet(image: NDArray[np.uint8], *, settings: ReaderSettings) -> Corners | None:
    """Find the four corners of a sheet of paper whose edges are all visible.

    Tries the outlines found by an edge detector first (largest convex
    quadrilateral), then the largest bright area, then four straight paper
    edges (a sheet cut off by the frame: its corners may lie outside the
    photo). A candidate is accepted only when each side is a crisp brightness
    step (a paper edge, not a drawn line or the edge of a shadow).

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR
        The photo (any size; it is analysed at about 400 px).
    settings : ReaderSettings

    Returns
    -------
    (4, 2) float64 corners in ``image`` coordinates, or None.
    """
    h, w = image.shape[:2]
    scale = settings.page_analysis_px / max(h, w)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    quad = _sheet_by_edges(small, settings=settings)
    if quad is None:
        quad = _sheet_by_brightness(small, settings=settings)
    if quad is None and settings.page_by_lines:
        quad = _sheet_by_lines(small, settings=settings)
    return None if quad is None else quad / scale


def _sample_across(
    gray: NDArray[np.float32], pts: NDArray[np.float64], normal: NDArray[np.float64], offset: float
) -> NDArray[Any]:
    """Brightness of ``gray`` at ``pts`` moved ``offset`` pixels along ``normal`` (bilinear)."""
    if len(pts) == 0:
        return np.zeros(0, np.float32)  # (OpenCV 5 refuses an empty map)
    q = (pts + offset * normal).astype(np.float32)
    return cv2.remap(
        gray,
        q[:, 0].reshape(1, -1),
        q[:, 1].reshape(1, -1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).ravel()


def _edge_step(
    gray: NDArray[np.float32],
    a: NDArray[np.float64],
    b: NDArray[np.float64],
    *,
    settings: ReaderSettings,
) -> tuple[float, NDArray[np.float64]]:
    """The step across segment a-b and the unit normal towards the brighter side.

    The step is measured between +-``page_step_far_px`` across the segment
    (pixels of the analysis image). Zero when the step is soft (a shadow) or
    not a step at all (a drawn line).
    """
    d = b - a
    n = np.array([-d[1], d[0]]) / max(1e-6, float(np.hypot(*d)))
    # The middle of the segment: its ends may run past the paper's corner.
    t = np.linspace(0.1, 0.9, 30)[:, None]
    pts = a + t * d

    def sample(offset: float) -> NDArray:
        return _sample_across(gray, pts, n, offset)

    reach = settings.page_step_far_px
    half = settings.page_step_near_px
    far = float(np.median(sample(reach) - sample(-reach)))
    sign = 1.0 if far >= 0 else -1.0
    search = settings.page_line_search_px
    near = max(
        sign * float(np.median(sample(o + half) - sample(o - half)))
        for o in np.arange(-search, search + 0.5, 1.0)
    )
    if abs(far) < settings.page_step_min or near < settings.page_step_crisp * abs(far):
        return 0.0, n
    # A dark line along the step (a printed box's side next to a coloured
    # area) is no paper edge: the profile dips below its darker side.
    r = int(reach)
    profile = [float(np.median(sample(float(o)))) for o in range(-r, r + 1)]
    if min(profile) < min(profile[0], profile[-1]) - settings.page_line_dip * abs(far):
        return 0.0, n
    return abs(far), sign * n


def _thin_lines(gray: NDArray[np.uint8], *, settings: ReaderSettings) -> NDArray[np.bool_] | None:
    """Thin dark lines of the analysis image (``page_beyond_line_contrast`` darker
    than the paper around them), or None when that test is off."""
    if settings.page_beyond_line_fraction <= 0:
        return None
    k = settings.page_beyond_line_px
    hat = cv2.morphologyEx(
        gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    return hat > settings.page_beyond_line_contrast


def _drawing_beyond(
    gray: NDArray[np.uint8],
    a: NDArray,
    b: NDArray,
    out: NDArray,
    *,
    settings: ReaderSettings,
    lines: NDArray[np.bool_] | None = None,
) -> bool:
    """Whether paper with dark strokes lies just beyond side a-b (``out``: outward normal).

    Compares a band ``page_beyond_near_px`` to ``page_beyond_far_px`` beyond
    the side with the same band inside it (pixels of the analysis image).
    ``lines``: the image's thin dark lines (``_thin_lines``), if measured.
    """
    sh, sw = gray.shape
    t = np.linspace(0.05, 0.95, 60)[:, None]
    pts = a + t * (b - a)
    offsets = range(settings.page_beyond_near_px, settings.page_beyond_far_px + 1)
    band = np.concatenate([pts + o * out for o in offsets])
    ok = (band[:, 0] >= 0) & (band[:, 0] < sw) & (band[:, 1] >= 0) & (band[:, 1] < sh)
    if ok.mean() < settings.page_beyond_seen:
        return False  # beyond the photo
    vals = gray[band[ok, 1].astype(int), band[ok, 0].astype(int)].astype(np.float32)
    inner = np.concatenate([pts - o * out for o in offsets])
    iok = (inner[:, 0] >= 0) & (inner[:, 0] < sw) & (inner[:, 1] >= 0) & (inner[:, 1] < sh)
    if not iok.any():
        return False
    paper = float(np.median(gray[inner[iok, 1].astype(int), inner[iok, 0].astype(int)]))
    level = float(np.median(vals))
    # Paper-bright beyond, with strokes much darker than that paper.
    strokes = float(np.mean(vals < settings.page_beyond_stroke * level))
    if level < settings.page_beyond_paper * paper:
        return False
    if strokes > settings.page_beyond_stroke_fraction:
        return True
    # Pencil and printed ruling are thin and light at the analysis scale:
    # paper with many thin lines beyond the side goes on (the side is a grid
    # line along a glare's or a shadow's edge, not the sheet's edge).
    if lines is None:
        return False
    xs, ys = band[ok, 0].astype(int), band[ok, 1].astype(int)
    return float(np.mean(lines[ys, xs])) > settings.page_beyond_line_fraction


def _sheet_by_lines(small: NDArray[np.uint8], *, settings: ReaderSettings) -> Corners | None:
    """The sheet from four straight paper edges, its corners possibly outside the photo.

    A sheet cut off by the photo's frame, or whose edge fades in glare, has
    no closed outline; its four sides can still each be seen over a stretch.
    """
    sh, sw = small.shape[:2]
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(gray, (3, 3), 0).astype(np.float32)
    edges = cv2.Canny(
        cv2.GaussianBlur(gray, (5, 5), 0), settings.page_canny_low, settings.page_canny_high
    )
    long_side = max(sh, sw)
    segs = cv2.HoughLinesP(
        edges,
        1,
        np.pi / 360,
        settings.page_hough_votes,
        minLineLength=int(settings.page_edge_min_length * long_side),
        maxLineGap=settings.page_hough_gap_px,
    )
    if segs is None:
        return None
    segs = segs.reshape(-1, 4)
    if settings.page_quick_step > 0:
        segs = segs[
            _quick_steps(g, segs, settings=settings)
            >= settings.page_quick_step * settings.page_step_min
        ]
    lines = []  # (length, point on line, unit direction, normal to the paper)
    for x1, y1, x2, y2 in segs[: settings.page_max_segments]:
        a = np.array([x1, y1], np.float64)
        b = np.array([x2, y2], np.float64)
        step, n = _edge_step(g, a, b, settings=settings)
        if step == 0:
            continue
        length = float(np.hypot(*(b - a)))
        # One entry per edge: collinear segments with the paper on the same side merge.
        for i, (ln, p0, u0, n0) in enumerate(lines):
            if (
                float(np.dot(n, n0)) > settings.page_merge_cos
                and abs(float(np.dot(a - p0, n0))) < settings.page_merge_px
            ):
                lines[i] = (ln + length, p0, u0, n0)
                break
        else:
            lines.append((length, a, (b - a) / length, n))
    lines.sort(key=lambda t: -t[0])
    lines = lines[: settings.page_max_edges]
    # (Measured once for all the quads tried; no quad without three edges.)
    thin = _thin_lines(gray, settings=settings) if len(lines) >= 3 else None
    best = _best_quad(lines, gray, settings=settings, thin=thin)
    if best is None and settings.page_by_frame:
        # A sheet cut off by the frame on one side shows three edges; the
        # frame's side closes them. Under a steep tilt the cut-off sheet's far
        # edge runs about parallel to the frame: the warp then undoes most of
        # the perspective (the ruling's lines become parallel).
        for point, direction, normal in (
            ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)),
            ((0.0, sh - 1.0), (1.0, 0.0), (0.0, -1.0)),
            ((0.0, 0.0), (0.0, 1.0), (1.0, 0.0)),
            ((sw - 1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)),
        ):
            side = (0.0, np.array(point), np.array(direction), np.array(normal))
            found = _best_quad(lines, gray, settings=settings, frame_side=side, thin=thin)
            if found is None or _side_turn(found[1], side) < settings.page_frame_min_turn:
                # Side edges about parallel: no perspective to undo, and the
                # whole photo loses nothing.
                continue
            if best is None or found[0] > best[0]:
                best = found
        if best is not None and not _holds_bright_area(small, best[1], settings=settings):
            best = None
    return None if best is None else order_corners(best[1])


def _quick_steps(
    gray: NDArray[np.float32], segs: NDArray[np.int32], *, settings: ReaderSettings
) -> NDArray[np.float64]:
    """The size of the brightness step across each segment x1, y1, x2, y2, roughly.

    The median over 7 points of the difference at +- ``page_step_far_px``
    (``_edge_step`` measures it over 30, with more tests).
    """
    a = segs[:, None, :2].astype(np.float64)
    d = segs[:, None, 2:].astype(np.float64) - a
    n = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    n /= np.maximum(1e-6, np.hypot(n[..., 0], n[..., 1]))[..., None]
    pts = (a + np.linspace(0.1, 0.9, 7)[None, :, None] * d).reshape(-1, 2)
    n = np.repeat(n, 7, axis=1).reshape(-1, 2)
    reach = settings.page_step_far_px
    far = _sample_across(gray, pts, n, reach) - _sample_across(gray, pts, n, -reach)
    return np.abs(np.median(far.reshape(len(segs), 7), axis=1))


def _side_turn(quad: NDArray[np.float64], frame_side: _Edge) -> float:
    """Degrees between the two sides of ``quad`` that meet its side on the frame."""
    _, point, _, normal = frame_side
    off = np.abs((quad - point) @ normal)
    # The side on the frame: the pair of consecutive corners nearest to it.
    i = int(np.argmin(off + np.roll(off, -1)))
    a = quad[(i + 2) % 4] - quad[(i + 1) % 4]
    b = quad[(i - 1) % 4] - quad[i]
    cos = abs(float(np.dot(a, b))) / max(1e-9, float(np.linalg.norm(a) * np.linalg.norm(b)))
    return float(np.degrees(np.arccos(min(1.0, cos))))


def _holds_bright_area(
    small: NDArray[np.uint8], quad: NDArray[np.float64], *, settings: ReaderSettings
) -> bool:
    """Whether ``quad`` holds ``page_frame_bright`` of the photo's largest bright area.

    A sheet lying on a table is all of the paper in the photo; a page of a
    book or a newspaper goes on into paper beyond the edges found (the facing
    page, the margin), and the whole photo is the better working area then.
    """
    found = _bright_blob(_paper_score(small, settings=settings), settings=settings)
    if found is None:
        return False
    blob = found[0]
    inside = np.zeros(blob.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 1)
    return float((blob & inside).sum()) >= settings.page_frame_bright * float(blob.sum())


_Edge = tuple[float, NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]


def _best_quad(
    lines: list[_Edge],
    gray: NDArray[np.uint8],
    *,
    settings: ReaderSettings,
    frame_side: _Edge | None = None,
    thin: NDArray[np.bool_] | None = None,
) -> tuple[float, NDArray[np.float64]] | None:
    """The best-supported sheet from four of the paper ``lines`` (or three and ``frame_side``).

    Each edge is (length, point, unit direction, unit normal towards the
    paper). ``thin``: the image's thin dark lines (:func:`_thin_lines`), if
    measured. Returns the summed length of the edges and the quadrilateral.
    """
    sh, sw = gray.shape[:2]
    long_side = max(sh, sw)
    best = None
    k = 4 if frame_side is None else 3
    for combo in itertools.combinations(range(len(lines)), k):
        chosen = [lines[i] for i in combo] + ([] if frame_side is None else [frame_side])
        # Sort the four edges around the sheet by the direction of their normals.
        angles = [np.arctan2(n[1], n[0]) for _, _, _, n in chosen]
        chosen = [c for _, c in sorted(zip(angles, chosen, strict=True), key=lambda t: t[0])]
        normals = [c[3] for c in chosen]
        ok = all(
            float(np.dot(normals[i], normals[(i + 1) % 4])) < settings.page_turn_cos
            and float(np.dot(normals[i], normals[(i + 2) % 4])) < settings.page_opposite_cos
            for i in range(4)
        )
        if not ok:
            continue
        corners = []
        for i in range(4):
            _, p1, u1, _ = chosen[i]
            _, p2, u2, _ = chosen[(i + 1) % 4]
            m = np.array([u1, -u2]).T
            if abs(np.linalg.det(m)) < 1e-6:
                break
            t1 = np.linalg.solve(m, p2 - p1)[0]
            corners.append(p1 + t1 * u1)
        if len(corners) != 4:
            continue
        quad = np.array(corners)
        area = cv2.contourArea(quad.astype(np.float32)) / (sh * sw)
        far_out = np.maximum(
            np.maximum(-quad[:, 0], quad[:, 0] - sw), np.maximum(-quad[:, 1], quad[:, 1] - sh)
        )
        if (
            area < settings.page_min_area
            or far_out.max() > settings.page_corner_outside * long_side
        ):
            continue
        if not cv2.isContourConvex(quad.astype(np.float32)):
            continue
        # Every side's paper must face the inside of the quadrilateral.
        centre = quad.mean(axis=0)
        if any(float(np.dot(centre - c[1], c[3])) <= 0 for c in chosen):
            continue
        # Paper does not go on beyond the sheet: a quadrilateral inside the
        # sheet (a printed box, a drawn frame) leaves paper-bright area around.
        inside = np.zeros((sh, sw), np.uint8)
        cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 1)
        if inside.all() or not inside.any():
            continue
        level = float(np.median(gray[inside > 0]))
        outside = gray[inside == 0]
        if (
            float(np.mean(outside >= settings.page_outside_bright * level))
            > settings.page_outside_fraction
        ):
            continue
        # A fold or a shadow's crisp edge across the sheet cuts a drawing:
        # beyond a true sheet edge there is no paper with strokes on it.
        # Corner i joins edges i and i + 1, so side i-(i + 1) lies on edge i + 1.
        if any(
            _drawing_beyond(gray, quad[i], quad[(i + 1) % 4], -c[3], settings=settings, lines=thin)
            for i, c in enumerate(chosen[1:] + chosen[:1])
        ):
            continue
        score = sum(c[0] for c in chosen)
        if best is None or score > best[0]:
            best = (score, quad)
    return best


def _on_frame(quad: Corners, shape: tuple[int, ...], margin: float) -> bool:
    """Whether two or more corners of ``quad`` lie on the border of an image of ``shape``.

    Such a quadrilateral is a sheet that is cut off (or fills the frame): the
    whole photo is the better working area.
    """
    sh, sw = shape[:2]
    m = margin * max(sh, sw)
    on_border = (
        (quad[:, 0] < m) | (quad[:, 0] > sw - 1 - m) | (quad[:, 1] < m) | (quad[:, 1] > sh - 1 - m)
    )
    return int(on_border.sum()) >= 2


def _sheet_by_edges(small: NDArray[np.uint8], *, settings: ReaderSettings) -> Corners | None:
    """The largest convex quadrilateral outline with crisp sides in ``small``, or None."""
    sh, sw = small.shape[:2]
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    edges = cv2.Canny(blur, settings.page_canny_low, settings.page_canny_high)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    candidates = []
    for c in contours:
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        if not (settings.page_min_area <= area / (sh * sw) <= settings.page_max_area):
            continue
        tolerance = settings.page_outline_approx * cv2.arcLength(hull, True)
        approx = cv2.approxPolyDP(hull, tolerance, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            candidates.append((area, approx.reshape(4, 2).astype(np.float64)))
    for _, quad in sorted(candidates, key=lambda t: -t[0])[:5]:
        if _on_frame(quad, small.shape, settings.page_frame_margin):
            continue
        ordered = order_corners(quad)
        if _edges_are_sharp(gray, ordered, settings=settings):
            return ordered
    return None


def _paper_score(small: NDArray[np.uint8], *, settings: ReaderSettings) -> NDArray[np.float32]:
    """How much each pixel of ``small`` looks like paper: bright and weakly coloured."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    value = cv2.GaussianBlur(hsv[:, :, 2], (5, 5), 0)
    sat = cv2.GaussianBlur(hsv[:, :, 1], (5, 5), 0)
    return value.astype(np.float32) - settings.page_paper_saturation * sat.astype(np.float32)


def _bright_blob(
    score: NDArray[np.float32], *, settings: ReaderSettings
) -> tuple[NDArray[np.uint8], NDArray[np.int32]] | None:
    """The largest bright area of a paper ``score`` image and its convex hull."""
    sh, sw = score.shape[:2]
    norm = cv2.normalize(score, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    _, bright = cv2.threshold(norm, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # Writing and ruled lines must not split the sheet: close them.
    k = max(3, int(round(settings.page_bright_close * max(sh, sw))) | 1)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=4)
    if count <= 1:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    blob = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return blob, cv2.convexHull(max(contours, key=cv2.contourArea))


def _paper_hull(
    small: NDArray[np.uint8], *, settings: ReaderSettings
) -> tuple[NDArray[np.int32], NDArray[np.float32], NDArray[np.uint8], float] | None:
    """The sheet's area in ``small``, or None (see ``paper_area``).

    Returns its convex hull (N, 2), the paper score image, the filled hull
    (uint8 0/1) and the median paper score inside it.
    """
    sh, sw = small.shape[:2]
    score = _paper_score(small, settings=settings)
    found = _bright_blob(score, settings=settings)
    if found is None:
        return None
    blob, hull = found
    inside = np.zeros((sh, sw), np.uint8)
    cv2.fillPoly(inside, [hull.reshape(-1, 2)], 1)
    area = float(inside.mean())
    if not (settings.page_min_area <= area <= settings.paper_area_max):
        return None
    if blob.sum() < settings.page_bright_fill * inside.sum():
        return None
    level = float(np.median(score[inside > 0]))
    bright_outside = float(np.mean(score[inside == 0] >= settings.page_outside_bright * level))
    if bright_outside > settings.paper_area_outside:
        return None
    return hull.reshape(-1, 2), score, inside, level


def paper_area(image: NDArray[np.uint8], *, settings: ReaderSettings) -> NDArray[np.bool_] | None:
    """The part of ``image`` that is the sheet, when the background around it is clearly seen.

    The sheet is the convex hull of the largest bright, weakly coloured area
    (a sheet lying flat is convex, also when the frame cuts it off or glare
    and shadows hide its edges), shrunk by ``page_margin`` so that its own
    edge is not ink. Nothing is drawn outside it: it is sea.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR
        The working image (analysed at ``page_analysis_px``).
    settings : ReaderSettings

    Returns
    -------
    (H, W) bool, or None when the paper fills the image or the sheet is not
    clearly set off from what lies around it (its hull not filled by
    bright area, or paper-bright area outside it).
    """
    h, w = image.shape[:2]
    scale = settings.page_analysis_px / max(h, w)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found = _paper_hull(small, settings=settings)
    if found is None:
        return None
    hull_full = np.round(found[0].astype(np.float64) / scale).astype(np.int32)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [hull_full], 1)
    m = max(1, int(round(settings.page_margin * max(h, w))))
    mask = cv2.erode(mask, np.ones((2 * m + 1, 2 * m + 1), np.uint8))
    return mask.astype(bool)


def _sheet_by_brightness(small: NDArray[np.uint8], *, settings: ReaderSettings) -> Corners | None:
    """The sheet as the largest bright, weakly coloured area of ``small``, or None.

    None also when no sheet edge is visible (the paper fills the photo, or the
    sheet is cut off).
    """
    sh, sw = small.shape[:2]
    # Paper: bright and weakly coloured relative to the rest of the photo.
    found = _bright_blob(_paper_score(small, settings=settings), settings=settings)
    if found is None:
        return None
    blob, hull = found
    hull_area = cv2.contourArea(hull)
    if not (settings.page_min_area <= hull_area / (sh * sw) <= settings.page_max_area):
        return None
    quad = None
    perimeter = cv2.arcLength(hull, True)
    for frac in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, frac * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
        if len(approx) < 4:
            break
    if quad is None:
        return None
    if _on_frame(quad, small.shape, settings.page_frame_margin):
        return None
    # The sheet must fill its quadrilateral (not an L-shaped bright area).
    quad_area = cv2.contourArea(quad.astype(np.float32))
    if quad_area <= 0 or blob.sum() / quad_area < settings.page_bright_fill:
        return None
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    if not _edges_are_sharp(gray, order_corners(quad), settings=settings):
        return None
    return order_corners(quad)


def _edges_are_sharp(gray: NDArray[np.uint8], quad: Corners, *, settings: ReaderSettings) -> bool:
    """Whether every side of ``quad`` is a crisp paper edge, not a soft shadow.

    Across a paper edge the brightness jumps within a pixel or two; across the
    edge of a shadow it ramps over many. Compare the step measured at
    +-``page_step_near_px`` with the step at +-``page_step_far_px`` along each
    side (pixels of the analysis image).
    """
    g = cv2.GaussianBlur(gray, (3, 3), 0).astype(np.float32)
    centre = quad.mean(axis=0)
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        t = np.linspace(0.15, 0.85, 40)[:, None]
        pts = a + t * (b - a)
        d = b - a
        normal = np.array([-d[1], d[0]]) / max(1e-6, float(np.hypot(*d)))
        if np.dot(centre - (a + b) / 2, normal) < 0:
            normal = -normal  # point inwards

        def sample(offset: float, pts: NDArray[np.float64] = pts, n: NDArray = normal) -> NDArray:
            return _sample_across(g, pts, n, offset)

        reach = settings.page_step_far_px
        half = settings.page_step_near_px
        far = float(np.median(sample(reach) - sample(-reach)))
        # The fitted side may sit a few pixels off the true edge: search for it.
        search = settings.page_side_search_px
        near = max(
            float(np.median(sample(o + half) - sample(o - half)))
            for o in np.arange(-search, search + 0.5, 0.5)
        )
        if far < settings.page_step_min or near < settings.page_step_crisp * far:
            return False
    return True


def _sheet_box(
    small: NDArray[np.uint8], f: float, shape: tuple[int, ...], *, settings: ReaderSettings
) -> tuple[int, int, int, int] | None:
    """The box x0, y0, x1, y1 (pixels of the image) around the sheet's area, or None.

    ``small`` is the image shrunk by ``f``; ``shape`` the image's shape. None
    when no sheet area is clearly seen, its box is not much smaller than the
    image (``page_crop_max``), the background is not clearly darker than the
    paper (``page_crop_dark``) or strokes lie outside the box
    (``page_crop_stroke``): the whole image is the working area then.
    """
    if settings.page_crop_max <= 0:
        return None
    h, w = shape[:2]
    g = settings.page_analysis_px / max(small.shape[:2])
    tiny = cv2.resize(small, None, fx=g, fy=g, interpolation=cv2.INTER_AREA)
    found = _paper_hull(tiny, settings=settings)
    if found is None:
        return None
    hull, score, inside, level = found
    bright = float(np.mean(score[inside == 0] >= settings.page_crop_dark * level))
    if bright > settings.page_crop_outside:
        return None
    pts = hull.astype(np.float64) / (g * f)
    pad = settings.page_crop_pad * max(h, w)
    x0, y0 = np.maximum(0, np.floor(pts.min(axis=0) - pad)).astype(int)
    x1 = int(min(w, np.ceil(pts[:, 0].max() + pad)))
    y1 = int(min(h, np.ceil(pts[:, 1].max() + pad)))
    if max(x1 - x0, y1 - y0) > settings.page_crop_max * max(h, w):
        return None
    k = settings.page_crop_stroke_px
    gray = cv2.cvtColor(tiny, cv2.COLOR_BGR2GRAY)
    hat = cv2.morphologyEx(
        gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    strokes = hat > settings.page_crop_stroke
    box = np.zeros(strokes.shape, bool)
    s = g * f
    box[int(y0 * s) : int(np.ceil(y1 * s)), int(x0 * s) : int(np.ceil(x1 * s))] = True
    if (strokes & ~box).sum() > settings.page_crop_beyond * (strokes & box).sum():
        return None  # part of the drawing outside the box
    return int(x0), int(y0), x1, y1


def _sheet_size(corners: Corners, long_side: int) -> tuple[int, int]:
    """Width and height of the rectified sheet, from the corners' edge lengths."""
    tl, tr, br, bl = corners
    width = 0.5 * (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl))
    height = 0.5 * (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr))
    s = long_side / max(width, height)
    return max(16, int(round(width * s))), max(16, int(round(height * s)))


def _ruling_segments(
    gray: NDArray[np.uint8], *, settings: ReaderSettings
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Straight segments (x0, y0, x1, y1 in ``gray``'s pixels) of thin dark lines, at
    least ``ruling_perspective_length`` of the shorter side long; and the points
    (x, y) of the darkest thin strokes (the drawing, darker than printed ruling)."""
    f = min(1.0, settings.ruling_perspective_px / max(gray.shape[:2]))
    small = cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    hat = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, np.ones((5, 5), np.uint8))
    level = max(6.0, float(np.percentile(hat, settings.ruling_perspective_level)))
    lines = (hat > level).view(np.uint8)
    short = min(small.shape[:2])
    found = cv2.HoughLinesP(
        lines,
        1,
        np.pi / 720,
        threshold=max(10, round(0.1 * short)),
        minLineLength=max(10, round(settings.ruling_perspective_length * short)),
        maxLineGap=6,
    )
    ys, xs = np.nonzero(
        hat > max(level, float(np.percentile(hat, settings.ruling_perspective_strokes)))
    )
    strokes = np.c_[xs, ys].astype(np.float64) / f
    if found is None:
        return np.zeros((0, 4)), strokes
    return np.asarray(found, np.float64).reshape(-1, 4) / f, strokes


def _toward(
    vp: NDArray[np.float64], segs: NDArray[np.float64], tolerance: float
) -> NDArray[np.bool_]:
    """Which segments point within ``tolerance`` degrees at the vanishing point ``vp``
    (homogeneous: a direction when its last coordinate is 0)."""
    mid = (segs[:, :2] + segs[:, 2:]) / 2
    d = segs[:, 2:] - segs[:, :2]
    if abs(vp[2]) <= 1e-12 * float(np.linalg.norm(vp[:2])):
        to = np.broadcast_to(vp[:2], mid.shape)
    else:
        to = vp[:2] / vp[2] - mid
    cos = np.abs((d * to).sum(axis=1)) / (
        np.linalg.norm(d, axis=1) * np.linalg.norm(to, axis=1) + 1e-12
    )
    return cos > math.cos(math.radians(tolerance))


def _vanishing_point(
    segs: NDArray[np.float64], rng: np.random.Generator, tolerance: float
) -> tuple[NDArray[np.float64], NDArray[np.bool_]] | None:
    """The point most of ``segs``' length points at (RANSAC over pairs, then least
    squares over the segments that point at it) and those segments."""
    p = np.c_[segs[:, :2], np.ones(len(segs))]
    q = np.c_[segs[:, 2:], np.ones(len(segs))]
    lines = np.cross(p, q)
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    length = np.linalg.norm(segs[:, 2:] - segs[:, :2], axis=1)
    best: NDArray[np.bool_] | None = None
    for _ in range(300):
        i, j = rng.choice(len(segs), 2, replace=False)
        vp = np.cross(lines[i], lines[j])
        if not np.isfinite(vp).all() or not vp.any():
            continue
        near = _toward(vp, segs, tolerance)
        if best is None or length[near].sum() > length[best].sum():
            best = near
    if best is None:
        return None
    vp = np.linalg.svd(lines[best] * length[best, None])[2][-1]
    return vp, _toward(vp, segs, tolerance)


def ruling_homography(
    gray: NDArray[np.uint8],
    *,
    settings: ReaderSettings,
) -> tuple[NDArray[np.float64], tuple[int, int]] | None:
    """A homography that makes a sheet's printed ruling straight and parallel, and the
    size (width, height) of the image it maps ``gray`` into, or None.

    The ruling's lines (:func:`_ruling_segments`) fall in one or two families, each
    pointing at its vanishing point; the line through both (or through the one and the
    direction square to its family) is sent to infinity, then each family is turned
    onto the nearer image axis. The image keeps the part of the photo the thin lines
    and the darkest strokes cover (their convex hull grown by ``ruling_perspective_keep``
    about its middle: the sheet and its drawing, not the whole table seen in
    perspective), at ``gray``'s long side. None when no family is seen, when the perspective is weak
    (``ruling_perspective``: the pipeline's own ruling search handles that) or when
    the photo comes near the vanishing line (``ruling_perspective_grow``).
    """
    if settings.ruling_perspective <= 0:
        return None
    h, w = gray.shape[:2]
    segs, strokes = _ruling_segments(gray, settings=settings)
    rng = np.random.default_rng(0)
    points: list[NDArray[np.float64]] = []
    angles: list[float] = []
    rest = segs
    for _ in range(2):
        if len(rest) < max(2, settings.ruling_perspective_lines):
            break
        found = _vanishing_point(rest, rng, settings.ruling_perspective_tolerance)
        if found is None or int(found[1].sum()) < settings.ruling_perspective_lines:
            break
        vp, near = found
        fam = rest[near]
        # (The family's direction: the mean of the doubled angles, which wrap at 180.)
        a = 2.0 * np.arctan2(fam[:, 3] - fam[:, 1], fam[:, 2] - fam[:, 0])
        angle = math.degrees(math.atan2(float(np.sin(a).mean()), float(np.cos(a).mean())) / 2) % 180
        if (
            angles
            and abs((angle - angles[0] + 90.0) % 180.0 - 90.0) < settings.ruling_perspective_apart
        ):
            break
        points.append(vp)
        angles.append(angle)
        rest = rest[~near]
    if not points:
        return None
    # The working image keeps the lined and drawn part of the photo, a little grown.
    kept = np.concatenate([segs.reshape(-1, 2), strokes]).astype(np.float32)
    hull = cv2.convexHull(kept).reshape(-1, 2)
    middle = hull.astype(np.float64).mean(axis=0)
    outline = np.clip(middle + (hull - middle) * settings.ruling_perspective_keep, 0, [w, h])
    centre = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]])
    v1 = centre @ points[0]
    if len(points) > 1:
        v2 = centre @ points[1]
    else:
        a = math.radians(angles[0] + 90.0)
        v2 = np.array([math.cos(a), math.sin(a), 0.0])
    horizon = np.cross(v1, v2)
    if abs(horizon[2]) < 1e-12:
        return None
    horizon = horizon / horizon[2]
    box = outline - [w / 2, h / 2]
    depth = 1.0 + box @ horizon[:2]
    if float(np.abs(depth - 1.0).max()) < settings.ruling_perspective:
        return None
    if float(depth.min()) <= 1.0 / settings.ruling_perspective_grow:
        return None
    flat = np.eye(3)
    flat[2, :2] = horizon[:2]

    def direction(v: NDArray[np.float64]) -> NDArray[np.float64]:
        d = (flat @ v)[:2]
        return d / np.linalg.norm(d)

    def axis(d: NDArray[np.float64]) -> NDArray[np.float64]:
        if abs(d[0]) >= abs(d[1]):
            return np.array([math.copysign(1.0, d[0]), 0.0])
        return np.array([0.0, math.copysign(1.0, d[1])])

    d1 = direction(v1)
    d2 = direction(v2) if len(points) > 1 else np.array([-d1[1], d1[0]])
    t1, t2 = axis(d1), axis(d2)
    if abs(float(t1 @ t2)) > 0.5 or abs(float(np.linalg.det(np.c_[d1, d2]))) < 0.2:
        return None
    turn = np.eye(3)
    turn[:2, :2] = np.c_[t1, t2] @ np.linalg.inv(np.c_[d1, d2])
    to = turn @ flat @ centre
    ends = np.c_[outline, np.ones(len(outline))] @ to.T
    ends = ends[:, :2] / ends[:, 2:]
    lo, size = ends.min(axis=0), np.ptp(ends, axis=0)
    if float(size.max()) > settings.ruling_perspective_grow * max(h, w):
        return None
    s = max(h, w) / float(size.max())
    fit = np.array([[s, 0.0, -lo[0] * s], [0.0, s, -lo[1] * s], [0.0, 0.0, 1.0]])
    return fit @ to, (max(1, round(size[0] * s)), max(1, round(size[1] * s)))


def extract_page(
    image: NDArray[np.uint8],
    *,
    photo_scale: float = 1.0,
    corners: NDArray[np.float64] | None = None,
    settings: ReaderSettings,
) -> Page:
    """Resample the sheet (or the whole photo) to the working image.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR
        The decoded photo, possibly reduced by the decoder.
    photo_scale : float
        Photo pixels per ``image`` pixel (1 unless the decoder reduced it).
    corners : (4, 2) array of x, y in photo coordinates, optional
        The sheet's corners given by the user; found automatically when None.
    settings : ReaderSettings

    Returns
    -------
    Page
    """
    to_image = np.diag([1.0 / photo_scale, 1.0 / photo_scale, 1.0])
    if corners is not None:
        quad = order_corners(np.asarray(corners, dtype=np.float64) / photo_scale)
    else:
        # The sheet finder works at about 400 px: shrink once, cheaply.
        f = min(1.0, settings.page_prescale * settings.page_analysis_px / max(image.shape[:2]))
        small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        found = find_sheet(small, settings=settings)
        quad = None if found is None else found / f
    if quad is not None:
        # Shrink first with area averaging (a perspective warp that shrinks a
        # lot aliases thin lines away), then warp at about the final scale.
        quad_long = max(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))
        f = min(1.0, settings.page_warp_oversampling * settings.working_long_side / quad_long)
        if f < 1.0:
            image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            to_image = np.diag([f, f, 1.0]) @ to_image
            quad = quad * f
        w, h = _sheet_size(quad, settings.working_long_side)
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
        to_working = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
        inside = (quad >= 0).all() and (quad[:, 0] < image.shape[1]).all()
        inside = inside and (quad[:, 1] < image.shape[0]).all()
        if inside:
            work = cv2.warpPerspective(
                image, to_working, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        else:
            # Parts of the sheet outside the photo are blank paper.
            paper = cv2.warpPerspective(image, to_working, (w, h), flags=cv2.INTER_LINEAR)
            seen = cv2.warpPerspective(
                np.full(image.shape[:2], 255, np.uint8), to_working, (w, h), flags=cv2.INTER_NEAREST
            )
            colour = np.median(paper[seen > 0], axis=0) if (seen > 0).any() else 255
            work = cv2.warpPerspective(
                image,
                to_working,
                (w, h),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=tuple(float(c) for c in np.atleast_1d(colour)),
            )
        to_photo = np.linalg.inv(to_working @ to_image)
        photo_quad = quad / f * photo_scale
        return Page(work, to_photo / to_photo[2, 2], photo_quad, True)
    box = None if corners is not None else _sheet_box(small, f, image.shape, settings=settings)
    x0, y0 = (0, 0) if box is None else box[:2]
    if box is not None:
        image = image[box[1] : box[3], box[0] : box[2]]
    h0, w0 = image.shape[:2]
    s = settings.working_long_side / max(h0, w0)
    if box is None:
        s = min(1.0, s)  # a crop is enlarged to the working scale; a small photo is not
    if s < 1:
        work = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    elif s > 1:
        work = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_LINEAR)
    else:
        work = image
    sy = work.shape[0] / h0
    sx = work.shape[1] / w0
    to_working = np.diag([sx, sy, 1.0]) @ np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]])
    flat = ruling_homography(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), settings=settings)
    if flat is not None:
        # The sheet's ruling made straight and parallel: resampled from the photo
        # (shrunk first by area averaging to about the final scale).
        along, size = flat
        crop_to_work = np.diag([sx, sy, 1.0])
        g = min(1.0, settings.page_warp_oversampling * max(work.shape[:2]) / max(h0, w0))
        source = image
        if g < 1.0:
            source = cv2.resize(image, None, fx=g, fy=g, interpolation=cv2.INTER_AREA)
            crop_to_work = crop_to_work @ np.diag([1.0 / g, 1.0 / g, 1.0])
        warp = along @ crop_to_work
        seen = cv2.warpPerspective(
            np.full(source.shape[:2], 255, np.uint8), warp, size, flags=cv2.INTER_NEAREST
        )
        work = cv2.warpPerspective(source, warp, size, flags=cv2.INTER_LINEAR)
        if (seen == 0).any():
            work[seen == 0] = np.median(work[seen > 0], axis=0).astype(np.uint8)
        to_working = along @ to_working
        to_photo = np.linalg.inv(to_working @ to_image)
        return Page(np.ascontiguousarray(work), to_photo / to_photo[2, 2], None, True)
    to_photo = np.linalg.inv(to_working @ to_image)
    return Page(np.ascontiguousarray(work), to_photo, None, False)
