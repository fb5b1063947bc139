"""Find the sheet of paper in a photo and resample it to the working image.

When the four edges of the sheet are visible the sheet is rectified with a
homography; otherwise the whole photo is used. The user may give the corners.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        Whether the working image is a rectified sheet (True) or the whole photo.
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
    quadrilateral), then the largest bright area. A candidate is accepted only
    when each side is a crisp brightness step (a paper edge, not a drawn line
    or the edge of a shadow).

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
    return None if quad is None else quad / scale


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
    edges = cv2.Canny(blur, 15, 45)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    candidates = []
    for c in contours:
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        if not (settings.page_min_area <= area / (sh * sw) <= settings.page_max_area):
            continue
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            candidates.append((area, approx.reshape(4, 2).astype(np.float64)))
    for _, quad in sorted(candidates, key=lambda t: -t[0])[:5]:
        if _on_frame(quad, small.shape, settings.page_frame_margin):
            continue
        ordered = order_corners(quad)
        if _edges_are_sharp(gray, ordered):
            return ordered
    return None


def _sheet_by_brightness(small: NDArray[np.uint8], *, settings: ReaderSettings) -> Corners | None:
    """The sheet as the largest bright, weakly coloured area of ``small``, or None.

    None also when no sheet edge is visible (the paper fills the photo, or the
    sheet is cut off).
    """
    sh, sw = small.shape[:2]
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    # Paper: bright and weakly coloured relative to the rest of the photo.
    value = cv2.GaussianBlur(hsv[:, :, 2], (5, 5), 0)
    sat = cv2.GaussianBlur(hsv[:, :, 1], (5, 5), 0)
    score = value.astype(np.float32) - 0.5 * sat.astype(np.float32)
    score = cv2.normalize(score, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    _, bright = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # Writing and ruled lines must not split the sheet: close them.
    k = max(3, int(round(0.02 * max(sh, sw))) | 1)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=4)
    if count <= 1:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    blob = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
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
    if quad_area <= 0 or blob.sum() / quad_area < 0.85:
        return None
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    if not _edges_are_sharp(gray, order_corners(quad)):
        return None
    return order_corners(quad)


def _edges_are_sharp(gray: NDArray[np.uint8], quad: Corners) -> bool:
    """Whether every side of ``quad`` is a crisp paper edge, not a soft shadow.

    Across a paper edge the brightness jumps within a pixel or two; across the
    edge of a shadow it ramps over many. Compare the step measured at +-1.5 px
    with the step at +-8 px along each side (at about 400 px per photo).
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
            q = (pts + offset * n).astype(np.float32)
            return cv2.remap(
                g,
                q[:, 0].reshape(1, -1),
                q[:, 1].reshape(1, -1),
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            ).ravel()

        far = float(np.median(sample(8.0) - sample(-8.0)))
        # The fitted side may sit a few pixels off the true edge: search for it.
        near = max(
            float(np.median(sample(o + 1.5) - sample(o - 1.5))) for o in np.arange(-5.0, 5.5, 0.5)
        )
        if far < 20 or near < 0.5 * far:
            return False
    return True


def _sheet_size(corners: Corners, long_side: int) -> tuple[int, int]:
    """Width and height of the rectified sheet, from the corners' edge lengths."""
    tl, tr, br, bl = corners
    width = 0.5 * (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl))
    height = 0.5 * (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr))
    s = long_side / max(width, height)
    return max(16, int(round(width * s))), max(16, int(round(height * s)))


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
        f = min(1.0, 800.0 / max(image.shape[:2]))
        small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        found = find_sheet(small, settings=settings)
        quad = None if found is None else found / f
    if quad is not None:
        # Shrink first with area averaging (a perspective warp that shrinks a
        # lot aliases thin lines away), then warp at about the final scale.
        quad_long = max(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))
        f = min(1.0, 1.25 * settings.working_long_side / quad_long)
        if f < 1.0:
            image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            to_image = np.diag([f, f, 1.0]) @ to_image
            quad = quad * f
        w, h = _sheet_size(quad, settings.working_long_side)
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
        to_working = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
        work = cv2.warpPerspective(
            image, to_working, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        to_photo = np.linalg.inv(to_working @ to_image)
        photo_quad = quad / f * photo_scale
        return Page(work, to_photo / to_photo[2, 2], photo_quad, True)
    h0, w0 = image.shape[:2]
    s = min(1.0, settings.working_long_side / max(h0, w0))
    work = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else image
    sy = work.shape[0] / h0
    sx = work.shape[1] / w0
    to_working = np.diag([sx, sy, 1.0])
    to_photo = np.linalg.inv(to_working @ to_image)
    return Page(np.ascontiguousarray(work), to_photo, None, False)
