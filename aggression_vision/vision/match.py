"""Match the countries of two readings of the same map taken from different positions.

Ids cannot be trusted across photos (generated ids follow reading order, which
turns with the camera), and pixel positions differ, so countries are matched by
geometry: both sets of outlines are normalised (centroid, scale), the rotation
that best aligns them is searched, then a homography fitted on the matched
centroids refines the alignment and the final one-to-one assignment is made on
polygon overlap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment
from shapely.geometry import Polygon
from shapely.validation import make_valid


@dataclass(frozen=True)
class MatchSettings:
    """Settings of :func:`match_countries`.

    ``rotation_step_deg``: the rotation search step. ``max_distance``: a match
    farther apart than this (in units of the map's RMS radius) is refused.
    ``min_iou``: an overlap below this after alignment is refused.
    """

    rotation_step_deg: float = 5.0
    refine_iterations: int = 3
    max_distance: float = 0.35
    min_iou: float = 0.2


def _polygons(doc: Mapping[str, Any]) -> dict[str, Polygon]:
    out = {}
    for c in doc.get("countries", []):
        pts = c.get("polygon")
        if pts and len(pts) >= 3:
            poly = Polygon(pts)
            if not poly.is_valid:
                poly = make_valid(poly)
            if not poly.is_empty and poly.area > 0:
                out[c["id"]] = poly
    return out


def _normalise(points: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    centred = points - points.mean(axis=0)
    scale = float(np.sqrt((centred**2).sum(axis=1).mean())) or 1.0
    return centred / scale, scale


def _assign(cost: NDArray[np.float64]) -> tuple[list[tuple[int, int]], float]:
    rows, cols = linear_sum_assignment(cost)
    return list(zip(rows.tolist(), cols.tolist(), strict=True)), float(cost[rows, cols].sum())


def match_countries(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    *,
    settings: MatchSettings | None = None,
) -> dict[str, str]:
    """Map each country id of ``before`` to the id of the same country in ``after``.

    Countries without a counterpart are left out. When either document has no
    polygons, countries are matched by id.

    Parameters
    ----------
    before, after : dict
        State documents with ``polygon`` in photo pixel coordinates.

    Returns
    -------
    dict
        ``before`` id -> ``after`` id.
    """
    s = settings or MatchSettings()
    pa, pb = _polygons(before), _polygons(after)
    ids_a = [c["id"] for c in before.get("countries", [])]
    ids_b = {c["id"] for c in after.get("countries", [])}
    if len(pa) < 3 or len(pb) < 3:
        return {c: c for c in ids_a if c in ids_b}
    names_a, names_b = list(pa), list(pb)
    ca = np.array([pa[n].centroid.coords[0] for n in names_a])
    cb = np.array([pb[n].centroid.coords[0] for n in names_b])
    na, scale_a = _normalise(ca)
    nb, scale_b = _normalise(cb)
    area_a = np.array([pa[n].area for n in names_a]) / scale_a**2
    area_b = np.array([pb[n].area for n in names_b]) / scale_b**2
    area_cost = np.abs(np.log(area_a[:, None] + 1e-9) - np.log(area_b[None, :] + 1e-9))

    best: tuple[float, list[tuple[int, int]]] | None = None
    for deg in np.arange(0.0, 360.0, s.rotation_step_deg):
        t = np.deg2rad(deg)
        rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        moved = na @ rot.T
        dist = np.linalg.norm(moved[:, None, :] - nb[None, :, :], axis=2)
        pairs, total = _assign(dist + 0.1 * area_cost)
        if best is None or total < best[0]:
            best = (total, pairs)
    assert best is not None
    pairs = best[1]

    homography = None
    for _ in range(s.refine_iterations):
        if len(pairs) < 4:
            break
        src = ca[[i for i, _ in pairs]].astype(np.float32)
        dst = cb[[j for _, j in pairs]].astype(np.float32)
        h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.05 * scale_b)
        if h is None:
            break
        homography = h
        moved = cv2.perspectiveTransform(ca.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
        dist = np.linalg.norm(moved[:, None, :] - cb[None, :, :], axis=2) / scale_b
        pairs, _ = _assign(dist + 0.1 * area_cost)

    result: dict[str, str] = {}
    if homography is None:
        return {names_a[i]: names_b[j] for i, j in pairs}
    warped = {}
    for n in names_a:
        poly = pa[n]
        geoms = getattr(poly, "geoms", [poly])
        parts = []
        for g in geoms:
            if isinstance(g, Polygon):
                ext = np.asarray(g.exterior.coords, dtype=np.float64).reshape(-1, 1, 2)
                parts.append(cv2.perspectiveTransform(ext, homography).reshape(-1, 2))
        if parts:
            biggest = max(parts, key=lambda p: Polygon(p).area)
            w = Polygon(biggest)
            warped[n] = w if w.is_valid else make_valid(w)
    iou = np.zeros((len(names_a), len(names_b)))
    for i, n in enumerate(names_a):
        if n not in warped:
            continue
        wa = warped[n]
        for j, m in enumerate(names_b):
            if not wa.bounds or not _boxes_touch(wa.bounds, pb[m].bounds):
                continue
            inter = wa.intersection(pb[m]).area
            if inter > 0:
                iou[i, j] = inter / (wa.area + pb[m].area - inter)
    rows, cols = linear_sum_assignment(-iou)
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        if iou[i, j] >= s.min_iou:
            result[names_a[i]] = names_b[j]
    return result


def _boxes_touch(a: Sequence[float], b: Sequence[float]) -> bool:
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])
