"""Closed countries from the ink: gap closing, writing separation, sea, labels.

:func:`segment` is the whole region stage: page, ink, regions and adjacency.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.errors import MapNotFoundError
from aggression_vision.vision.adjacency import drop_corner_contacts, find_adjacency, grow_labels
from aggression_vision.vision.ink import find_ink
from aggression_vision.vision.page import extract_page
from aggression_vision.vision.settings import ReaderSettings
from aggression_vision.vision.types import Region, Segmentation


def _disk(diameter: float) -> NDArray[np.uint8]:
    d = max(1, int(round(diameter)))
    if d % 2 == 0:
        d += 1
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


def close_gaps(mask: NDArray[np.bool_], *, gap: float) -> NDArray[np.bool_]:
    """Close gaps up to about ``gap`` pixels wide in the strokes of ``mask``.

    Parameters
    ----------
    mask : (H, W) bool
    gap : float
        Widest gap to close, in pixels.

    Returns
    -------
    (H, W) bool, a superset of ``mask``.
    """
    if gap < 1:
        return mask.copy()
    closed = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, _disk(gap))
    return closed.astype(bool) | mask


def _pockets(
    free: NDArray[np.bool_],
) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float32], NDArray]:
    """Connected paper areas: stats, inscribed radii, centroids."""
    # 8-connectivity: paper areas joined only through the diagonal step of a
    # one-pixel-thin line are one area (such lines are faint ruling more
    # often than closed borders, which gap closing has thickened).
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(
        free.astype(np.uint8), connectivity=8
    )
    dist = cv2.distanceTransform(free.astype(np.uint8), cv2.DIST_L2, 5)
    inradius = np.zeros(count, dtype=np.float32)
    np.maximum.at(inradius, labels.ravel(), dist.ravel())
    return count, labels, stats, inradius, centroids


def _touches_border(stats: NDArray[np.int32], shape: tuple[int, int], margin: int) -> NDArray:
    h, w = shape
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1 = x + stats[:, cv2.CC_STAT_WIDTH]
    y1 = y + stats[:, cv2.CC_STAT_HEIGHT]
    return (x <= margin) | (y <= margin) | (x1 >= w - margin) | (y1 >= h - margin)


def split_writing(
    ink: NDArray[np.bool_], *, line_width: float, settings: ReaderSettings
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Split the (gap-closed) ink into borders and writing.

    An ink component is writing (a number, a letter, an underline, a cross-out)
    when it is small relative to the page and encloses no country-sized hole;
    everything else is the border network. Writing is later treated as paper,
    so the loops of 0, 6, 8 and 9 never become countries.

    Parameters
    ----------
    ink : (H, W) bool
    line_width : float
        Typical stroke width in pixels.
    settings : ReaderSettings

    Returns
    -------
    borders, writing : (H, W) bool each
    """
    h, w = ink.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), None, 8)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    small = extent < settings.writing_max_extent * max(h, w)
    small[0] = False
    if not small.any():
        return ink.copy(), np.zeros_like(ink)
    # A small component that encloses a country-sized hole is a little island
    # country, not writing: fill each small component's holes and measure them.
    candidates = np.nonzero(small)[0]
    min_r = settings.country_min_inradius * line_width
    for k in candidates:
        x, y, cw, ch = stats[k, :4]
        if min(cw, ch) < 2 * min_r:
            continue  # too thin to hold a country-sized hole
        sub = (labels[y : y + ch, x : x + cw] == k).astype(np.uint8)
        outside = np.pad(1 - sub, 1, constant_values=1)
        n, lab = cv2.connectedComponents(outside, connectivity=4)
        holes = (lab > 0) & (lab != lab[0, 0])
        if holes.any():
            d = cv2.distanceTransform(holes.astype(np.uint8), cv2.DIST_L2, 5)
            if d.max() >= min_r:
                small[k] = False
    writing = small[labels]
    return ink & ~writing, writing


def _reading_order(centroids: list[tuple[float, float]], heights: list[float]) -> list[int]:
    """Indices sorted top to bottom in rows, then left to right within a row."""
    if not centroids:
        return []
    band = 0.5 * float(np.median(heights)) if heights else 1.0
    order = sorted(range(len(centroids)), key=lambda i: centroids[i][1])
    rows: list[list[int]] = []
    for i in order:
        if rows and centroids[i][1] - centroids[rows[-1][0]][1] <= band:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda i: centroids[i][0])]


def _to_photo(points: NDArray[np.float64], to_photo: NDArray[np.float64]) -> NDArray:
    pts = np.hstack([points, np.ones((len(points), 1))]) @ to_photo.T
    return pts[:, :2] / pts[:, 2:3]


@dataclass
class _Found:
    """Countries found among the paper areas left by a border network."""

    count: int
    pockets: NDArray[np.int32]
    stats: NDArray[np.int32]
    labels: NDArray[np.int32]
    barrier: NDArray[np.bool_]
    sea: NDArray[np.bool_]
    ids: NDArray[np.int64]
    order: list[int]
    centroids: list[tuple[float, float]]
    area: NDArray[np.float64]


def _countries(
    borders: NDArray[np.bool_],
    *,
    line_width: float,
    settings: ReaderSettings,
    min_inradius: float | None = None,
) -> _Found:
    """Label the countries enclosed by ``borders``, numbered in reading order.

    A country is a paper area (8-connected) that does not touch the edge of
    the working image (that is the sea) and that is big enough to hold a
    number: an inscribed disc and an area scaled to the line width.
    """
    h, w = borders.shape
    lw = line_width
    free = ~borders
    count, pockets, stats, inradius, cents = _pockets(free)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    sea = _touches_border(stats, (h, w), margin=1)
    is_country = (
        (inradius >= (min_inradius or settings.country_min_inradius) * lw)
        & (area >= settings.country_min_area * lw * lw)
        & ~sea
    )
    is_country[0] = False  # label 0 is the border ink itself
    sea[0] = False
    ids = np.nonzero(is_country)[0]
    heights = [float(stats[k, cv2.CC_STAT_HEIGHT]) for k in ids]
    centroids = [(float(cents[k, 0]), float(cents[k, 1])) for k in ids]
    order = _reading_order(centroids, heights)
    lookup = np.zeros(count, dtype=np.int32)
    for new, i in enumerate(order, start=1):
        lookup[ids[i]] = new
    labels = lookup[pockets]
    # Countries grow across border ink and thin slivers (between the strokes
    # of a double border), never into the sea or into wide paper areas that
    # are not countries (they would make their neighbours meet).
    wide = (inradius >= settings.barrier_inradius * lw) & ~is_country
    wide[0] = False
    barrier = (sea | wide)[pockets] & free
    sea_mask = sea[pockets] & free
    return _Found(count, pockets, stats, labels, barrier, sea_mask, ids, order, centroids, area)


def segment(
    image: NDArray[np.uint8],
    *,
    corners: NDArray[np.float64] | None = None,
    settings: ReaderSettings | None = None,
    photo_size: tuple[int, int] | None = None,
) -> Segmentation:
    """Find the countries of a map photo and their adjacency.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR
        The photo, EXIF orientation applied (possibly reduced by the decoder).
    corners : (4, 2) array of x, y in photo coordinates, optional
        The sheet's corners, when the user gives them.
    settings : ReaderSettings, optional
    photo_size : (width, height), optional
        Size of the full photo when ``image`` is a reduced decoding of it.

    Returns
    -------
    Segmentation

    Raises
    ------
    MapNotFoundError
        No ink at all was found.
    """
    settings = settings or ReaderSettings()
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if photo_size is None:
        photo_size = (image.shape[1], image.shape[0])
    photo_scale = photo_size[0] / image.shape[1]
    page = extract_page(image, photo_scale=photo_scale, corners=corners, settings=settings)
    work = page.image
    h, w = work.shape[:2]
    t1 = time.perf_counter()
    timings["page"] = t1 - t0

    ink = find_ink(work, settings=settings)
    mask = ink.mask.copy()
    if page.rectified:
        # The sheet's own edge (shadow, curl) is not a border.
        m = max(1, int(round(settings.page_margin * max(h, w))))
        mask[:m] = mask[-m:] = False
        mask[:, :m] = mask[:, -m:] = False
    lw = ink.line_width
    count, lab, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), None, 8)
    tiny = stats[:, cv2.CC_STAT_AREA] < settings.ink_min_blob * lw * lw
    tiny[0] = False
    mask &= ~tiny[lab]
    if not mask.any():
        raise MapNotFoundError("no drawing found on the page")
    t2 = time.perf_counter()
    timings["ink"] = t2 - t1

    # Writing first, on the raw ink: closing gaps would weld numbers to the
    # borders next to them. Then close the gaps of the borders only, and look
    # again (closing can join fragments of writing into a bigger one).
    borders, writing = split_writing(mask, line_width=lw, settings=settings)
    closed = close_gaps(borders, gap=settings.gap_close * lw)
    borders, more_writing = split_writing(closed, line_width=lw, settings=settings)
    writing |= more_writing & mask
    # Writing that touches a border is welded to the border network. Border
    # ink lies along the boundaries between countries (and the coast); ink
    # far from every such boundary sticks out into one country: writing.
    # A big digit welded to a border leaves too little room around it for
    # the country test, so countries are first taken loosely here.
    loose = _countries(
        borders, line_width=lw, settings=settings, min_inradius=settings.stub_country_inradius
    )
    full = grow_labels(loose.labels, reach=float(h + w), barrier=loose.barrier)
    edge = np.zeros((h, w), dtype=bool)
    edge[:, 1:] |= full[:, 1:] != full[:, :-1]
    edge[1:, :] |= full[1:, :] != full[:-1, :]
    if edge.any():
        far = cv2.distanceTransform((~edge).astype(np.uint8), cv2.DIST_L2, 3)
        stub = borders & (far > settings.protrusion_distance * lw)
        if stub.any():
            borders &= ~stub
            writing |= stub & mask
    found = _countries(borders, line_width=lw, settings=settings)
    labels, sea_mask, stats = found.labels, found.barrier, found.stats
    order, ids, centroids, area = found.order, found.ids, found.centroids, found.area
    t3 = time.perf_counter()
    timings["regions"] = t3 - t2

    grown, dist = grow_labels(
        labels, reach=settings.adjacency_reach * lw, barrier=sea_mask, return_distance=True
    )
    adjacency = find_adjacency(
        grown,
        min_length=settings.adjacency_min_length * lw,
        distance=dist,
        max_distance=settings.adjacency_max_gap * lw,
    )
    adjacency = drop_corner_contacts(
        adjacency,
        max_length=settings.corner_contact_length * lw,
        ratio=settings.corner_contact_ratio,
    )
    t4 = time.perf_counter()
    timings["adjacency"] = t4 - t3

    regions: list[Region] = []
    tol = settings.polygon_tolerance * lw
    for new, i in enumerate(order, start=1):
        k = ids[i]
        region_mask = (grown == new).astype(np.uint8)
        contours, _ = cv2.findContours(region_mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        outline = cv2.approxPolyDP(outline, tol, True).reshape(-1, 2).astype(np.float64)
        photo = _to_photo(outline, page.to_photo)
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        regions.append(
            Region(
                index=new,
                polygon=[(round(float(px), 1), round(float(py), 1)) for px, py in photo],
                area=float(area[k]),
                centroid=(float(centroids[i][0]), float(centroids[i][1])),
                bbox=(x, y, x + cw, y + ch),
            )
        )
    timings["polygons"] = time.perf_counter() - t4
    return Segmentation(
        image=work,
        gray=ink.gray,
        ink=ink.mask,
        borders=borders & mask,
        writing=writing & ink.mask,
        labels=labels,
        regions=regions,
        adjacency=adjacency,
        line_width=lw,
        to_photo=page.to_photo,
        photo_size=photo_size,
        timings=timings,
    )
