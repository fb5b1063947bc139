"""Which countries share a border, and how long that border is."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray


def grow_labels(
    labels: NDArray[np.int32],
    *,
    reach: float,
    barrier: NDArray[np.bool_] | None = None,
    return_distance: bool = False,
) -> Any:
    """Grow every label over the unlabelled pixels around it, up to ``reach`` pixels.

    Each unlabelled pixel within ``reach`` of a label takes the label of the
    nearest labelled pixel (a Voronoi split of the border ink between the
    countries on either side).

    Parameters
    ----------
    labels : (H, W) int32
        0 for unlabelled pixels.
    reach : float
        Largest distance, in pixels, a label grows.
    barrier : (H, W) bool, optional
        Pixels that stay 0 whatever their distance (the sea).

    return_distance : bool
        Also return each pixel's distance to the nearest labelled pixel.

    Returns
    -------
    grown : (H, W) int32
    distance : (H, W) float32, only with ``return_distance``
    """
    free = (labels == 0).astype(np.uint8)
    if not free.any() or free.all():
        zero = np.zeros(labels.shape, np.float32)
        return (labels.copy(), zero) if return_distance else labels.copy()
    dist, nearest = cv2.distanceTransformWithLabels(
        free, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL
    )
    # ``nearest`` numbers the zero pixels of ``free`` (the labelled pixels) in
    # scan order, starting at 1.
    held = labels != 0
    seeds = labels[held]
    lookup = np.zeros(len(seeds) + 1, dtype=np.int32)
    lookup[1:] = seeds
    grown = lookup.take(nearest)  # (take: the same gather, faster than indexing)
    off = dist > reach
    if barrier is not None:
        off |= barrier
    grown[off] = 0
    np.copyto(grown, labels, where=held)
    return (grown, dist) if return_distance else grown


def border_lengths(
    grown: NDArray[np.int32],
    *,
    distance: NDArray[np.float32] | None = None,
    max_distance: float = np.inf,
) -> dict[tuple[int, int], float]:
    """Length of the common boundary of every pair of touching labels.

    Counts the 4-neighbour pixel pairs whose labels differ (both non-zero).
    A meeting at a single point gives one or two such pairs; a shared border
    of length L gives about L.

    Parameters
    ----------
    grown : (H, W) int32
    distance : (H, W) float32, optional
        Distance of each pixel to the nearest country before growing.
    max_distance : float
        Boundary pixels farther than this from both countries do not count:
        there the countries are separated by a blob of ink (a junction
        smudged by writing), not by a line.

    Returns
    -------
    dict mapping (i, j) with i < j to the length in pixels.
    """
    lengths: dict[tuple[int, int], float] = {}
    near = None if distance is None else distance <= max_distance
    pairs = ((np.s_[:, :-1], np.s_[:, 1:]), (np.s_[:-1, :], np.s_[1:, :]))
    for sa, sb in pairs:
        a, b = grown[sa], grown[sb]
        sel = (a != b) & (a > 0) & (b > 0)
        if near is not None:
            sel &= near[sa] | near[sb]
        if not sel.any():
            continue
        lo = np.minimum(a[sel], b[sel]).astype(np.int64)
        hi = np.maximum(a[sel], b[sel]).astype(np.int64)
        key = lo * (int(grown.max()) + 1) + hi
        keys, counts = np.unique(key, return_counts=True)
        base = int(grown.max()) + 1
        for k, c in zip(keys.tolist(), counts.tolist(), strict=True):
            pair = (k // base, k % base)
            lengths[pair] = lengths.get(pair, 0.0) + float(c)
    return lengths


def find_adjacency(
    grown: NDArray[np.int32],
    *,
    min_length: float,
    distance: NDArray[np.float32] | None = None,
    max_distance: float = np.inf,
) -> list[tuple[int, int, float]]:
    """Pairs of countries whose common border is at least ``min_length`` pixels.

    Parameters
    ----------
    grown : (H, W) int32
        Country labels grown across the border ink (see :func:`grow_labels`).
    min_length : float
        Shortest border, in pixels, that makes two countries adjacent.
    distance, max_distance
        See :func:`border_lengths`.
    distance, max_distance
        See :func:`border_lengths`.

    Returns
    -------
    list of (i, j, length) with i < j, sorted.
    """
    lengths = border_lengths(grown, distance=distance, max_distance=max_distance)
    return sorted((i, j, n) for (i, j), n in lengths.items() if n >= min_length)


def drop_corner_contacts(
    adjacency: list[tuple[int, int, float]],
    *,
    max_length: float,
    ratio: float,
    labels: NDArray[np.int32] | None = None,
    min_apart: float = 0.0,
) -> list[tuple[int, int, float]]:
    """Remove the short "diagonal" of four countries meeting around one junction.

    Where four countries meet at a point, the two diagonal pairs are not
    adjacent; a smudge of ink at the junction (writing touching it) can give
    one diagonal a short common boundary. Such a pair (i, j) has two common
    neighbours k, l that are not adjacent to each other, and its boundary is
    much shorter than theirs with i and j.

    Parameters
    ----------
    adjacency : list of (i, j, length)
    max_length : float
        Only pairs with a boundary shorter than this (pixels) are questioned.
    ratio : float
        ... and shorter than ``ratio`` times the shortest of the four sides of
        the junction.
    labels : (H, W) int32, optional
        The countries before growing (0 between them). With ``min_apart``:
    min_apart : float
        ... a questioned pair whose countries come closer than this (pixels)
        is kept. A short border between two T-junctions close together has
        the same neighbours as a meeting at a point, but only a line's width
        separates its two countries; a meeting at a point separates them by
        the diagonal of the junction, about twice that.

    Returns
    -------
    list of (i, j, length)
    """
    length = {(i, j): n for i, j, n in adjacency}

    def between(a: int, b: int) -> float:
        return length.get((min(a, b), max(a, b)), 0.0)

    neighbours: dict[int, set[int]] = {}
    for i, j, _ in adjacency:
        neighbours.setdefault(i, set()).add(j)
        neighbours.setdefault(j, set()).add(i)
    kept = []
    for i, j, n in adjacency:
        corner = False
        if n < max_length:
            common = sorted(neighbours[i] & neighbours[j])
            for a in range(len(common)):
                for b in range(a + 1, len(common)):
                    k, m = common[a], common[b]
                    if between(k, m) > 0:
                        continue
                    sides = min(between(i, k), between(i, m), between(j, k), between(j, m))
                    if n < ratio * sides:
                        corner = True
        if corner and labels is not None and min_apart > 0:
            corner = label_gap(labels, i, j, reach=min_apart) >= min_apart
        if not corner:
            kept.append((i, j, n))
    return kept


def label_gap(labels: NDArray[np.int32], i: int, j: int, *, reach: float) -> float:
    """Shortest distance in pixels between a pixel of label ``i`` and one of label ``j``.

    The search is kept to the overlap of the two labels' boxes grown by
    ``reach``: distances up to ``reach`` are exact, a longer one may come out
    longer still, and ``inf`` when either label has no pixel there.
    """
    pad = int(np.ceil(reach)) + 2
    grown = []
    for k in (i, j):
        # (OpenCV's box of the label's pixels: one pass in C, no scipy import
        # on the reader's path for a few questioned pairs per photo.)
        x, y, w, h = cv2.boundingRect((labels == k).view(np.uint8))
        if w == 0 or h == 0:
            return float("inf")
        grown.append((x - pad, y - pad, x + w + pad, y + h + pad))
    x0 = max(grown[0][0], grown[1][0], 0)
    y0 = max(grown[0][1], grown[1][1], 0)
    x1 = min(grown[0][2], grown[1][2], labels.shape[1])
    y1 = min(grown[0][3], grown[1][3], labels.shape[0])
    if x1 <= x0 or y1 <= y0:
        return float("inf")
    win = labels[y0:y1, x0:x1]
    near_i, near_j = win == i, win == j
    if not (near_i.any() and near_j.any()):
        return float("inf")
    dist = cv2.distanceTransform((~near_i).view(np.uint8), cv2.DIST_L2, 5)
    return float(dist[near_j].min())
