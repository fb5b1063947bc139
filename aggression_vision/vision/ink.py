"""Separate drawn ink from paper: background normalisation, thresholds, ruling removal."""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.vision.page import paper_area
from aggression_vision.vision.settings import ReaderSettings

T = TypeVar("T")


@dataclass
class Ink:
    """The ink found on the working image.

    Attributes
    ----------
    gray : (H, W) uint8
        Grayscale working image.
    darkness : (H, W) float32
        0 for paper, towards 1 for ink as dark as black: ``1 - gray / paper``.
    mask : (H, W) bool
        Drawn ink, printed ruling removed.
    ruling : (H, W) bool
        Pixels removed as printed paper ruling (squares, Seyes, lines).
    line_width : float
        Typical stroke width of the drawn ink, in working pixels.
    """

    gray: NDArray[np.uint8]
    darkness: NDArray[np.float32]
    mask: NDArray[np.bool_]
    ruling: NDArray[np.bool_]
    line_width: float


def paper_darkness(
    gray: NDArray[np.uint8], *, settings: ReaderSettings
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """How much darker than the local paper each pixel is.

    The paper brightness is estimated by a grey-level closing (which erases
    strokes thinner than the kernel) at a quarter of the resolution, so uneven
    light and soft shadows cancel out.

    Parameters
    ----------
    gray : (H, W) uint8
    settings : ReaderSettings

    Returns
    -------
    darkness : (H, W) float32 in [0, 1]
    paper : (H, W) float32, the estimated paper brightness (0..255)
    """
    h, w = gray.shape
    f = 4
    small = cv2.resize(gray, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    k = max(3, int(round(settings.background_kernel * max(h, w) / f)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    paper = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
    paper = cv2.GaussianBlur(paper, (k, k), 0)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    dark = 1.0 - gray.astype(np.float32) / np.maximum(paper, 1.0)
    return np.clip(dark, 0.0, 1.0), paper


def sparse_ink(mask: NDArray[np.bool_], *, max_density: float = 0.35) -> NDArray[np.bool_]:
    """The ink that is not dense: drop textured tables, scribbles, filled blobs.

    Lines on paper cover well under a third of any window a few strokes
    wide; texture and scribbles cover more.
    """
    return mask & (ink_density(mask) < max_density)


def ink_density(mask: NDArray[np.bool_]) -> NDArray[np.float32]:
    """The fraction of a window a few strokes wide (2% of the long side) that ``mask`` covers."""
    k = max(15, int(round(0.02 * max(mask.shape))) | 1)
    return cv2.blur(mask.astype(np.float32), (k, k))


def stroke_width(mask: NDArray[np.bool_]) -> float:
    """Typical stroke width of a binary drawing, in pixels.

    Across a stroke w pixels wide the distances to the paper run 1, 2, ...,
    w/2, ..., 2, 1: their mean is about (w + 2) / 4. Inverting the mean over
    all ink is cheap, exact for thin strokes and little swayed by a few blobs.
    """
    if not mask.any():
        return 2.0
    sparse = sparse_ink(mask)
    mean = float(_ink_distances(mask, sparse if sparse.any() else mask).mean())
    return float(np.clip(4.0 * mean - 2.0, 1.0, 50.0))


def _distance_rings(radius: int) -> list[tuple[int, NDArray[np.intp], NDArray[np.intp]]]:
    """The offsets (dy, dx) within ``radius`` beyond the 8 neighbours, grouped by
    squared length (ascending): (squared length, dys, dxs)."""
    r = np.arange(-radius, radius + 1)
    dy, dx = (a.ravel() for a in np.meshgrid(r, r, indexing="ij"))
    d2 = dy * dy + dx * dx
    keep = (d2 > 2) & (d2 <= radius * radius)
    dy, dx, d2 = dy[keep], dx[keep], d2[keep]
    order = np.argsort(d2, kind="stable")
    dy, dx, d2 = dy[order], dx[order], d2[order]
    starts = np.flatnonzero(np.diff(d2, prepend=-1))
    ends = np.append(starts[1:], len(d2))
    return [(int(d2[a]), dy[a:b], dx[a:b]) for a, b in zip(starts, ends, strict=True)]


_RING_RADIUS = 12
_RINGS = _distance_rings(_RING_RADIUS)


def _ink_distances(mask: NDArray[np.bool_], where: NDArray[np.bool_]) -> NDArray[np.float32]:
    """``cv2.distanceTransform(mask, DIST_L2, DIST_MASK_PRECISE)[where]`` (``where``
    within ``mask``), bit for bit.

    The exact distance is the square root (float32, correctly rounded, as OpenCV's)
    of the least squared length of an offset to a 0 pixel (outside the image is none).
    Most ink of thin strokes has one among its 4 (1) or 8 (2) neighbours: two
    erosions say which. The rest look at rings of offsets of growing length (few
    pixels lie far from the paper); any left beyond ``_RING_RADIUS`` (a big blob,
    no paper at all) take OpenCV's values. (The whole transform costs about three
    times as much.)
    """
    h, w = mask.shape
    m8 = np.ascontiguousarray(mask).view(np.uint8)
    # (Erosion's default border is the maximum: outside the image is no paper.)
    four = cv2.erode(m8, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    eight = cv2.erode(m8, np.ones((3, 3), np.uint8))
    at = np.flatnonzero(where)
    code = cv2.add(four, eight).ravel()[at]  # 0: a 4-neighbour is paper, 1: only a diagonal one
    d2 = np.where(code == 0, 1, 2).astype(np.int32)
    todo = np.flatnonzero(code == 2)
    if todo.size:
        r = _RING_RADIUS
        stride = w + 2 * r
        padded = np.ones((h + 2 * r, stride), np.uint8)
        padded[r : r + h, r : r + w] = m8
        flat = padded.ravel()
        ys, xs = np.divmod(at[todo], w)
        places = (ys + r) * stride + (xs + r)
        for sq, dy, dx in _RINGS:
            hit = (flat[places[:, None] + (dy * stride + dx)] == 0).any(axis=1)
            d2[todo[hit]] = sq
            todo, places = todo[~hit], places[~hit]
            if not todo.size:
                break
    dist = np.sqrt(d2.astype(np.float32))
    if todo.size:
        full = cv2.distanceTransform(m8, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        dist[todo] = full.ravel()[at[todo]]
    return dist


def paper_mask(
    gray: NDArray[np.uint8], paper: NDArray[np.float32], *, settings: ReaderSettings
) -> NDArray[np.bool_]:
    """Where the photo shows paper (not the table or the background around it).

    Strokes are thin: a median filter a few strokes wide removes them, while
    a dark area stays dark. Next to the sheet's edge the paper estimate (a
    closing) is pulled up to the paper's brightness while the median stays
    dark: that band, which would look like a thick stroke, is not paper.
    A heavy felt stroke or a filled symbol survives the median too; a dark
    area wholly inside the paper (not touching the image's edge) and smaller
    than ``paper_blob_max`` of the image is one, so it stays paper.
    """
    h, w = gray.shape
    f = 4
    small = cv2.resize(gray, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    med = cv2.medianBlur(small, 9).astype(np.float32)
    reference = cv2.resize(paper, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
    ok = med >= settings.paper_min_brightness * reference
    ok |= _inner_blobs(~ok, settings.paper_blob_max)
    ok = cv2.resize(ok.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST).astype(bool)
    return ok


def touches_edge(stats: NDArray[np.int32], shape: tuple[int, int], margin: int) -> NDArray:
    """Which components (rows of connected-components ``stats``) come within
    ``margin`` pixels of the edge of an image of ``shape``."""
    h, w = shape
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1 = x + stats[:, cv2.CC_STAT_WIDTH]
    y1 = y + stats[:, cv2.CC_STAT_HEIGHT]
    return (x <= margin) | (y <= margin) | (x1 >= w - margin) | (y1 >= h - margin)


def _inner_blobs(dark: NDArray[np.bool_], max_fraction: float) -> NDArray[np.bool_]:
    """The components of ``dark`` that touch no image edge and are small."""
    _, labels, stats, _ = connected_components(dark.astype(np.uint8))
    small = stats[:, cv2.CC_STAT_AREA] < max_fraction * dark.size
    inner = small & ~touches_edge(stats, dark.shape, margin=0)
    inner[0] = False
    return inner[labels]


def _disk_kernel(size: int) -> NDArray[np.uint8]:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def connected_components(
    image: NDArray[np.uint8], *, stats: bool = True, connectivity: int = 8
) -> tuple[int, NDArray[np.integer], NDArray[np.int32], NDArray[np.float64]]:
    """``cv2.connectedComponentsWithStats`` (8-connected by default) of a 0/1 image.

    With 16-bit labels OpenCV labels about twice as fast (the same labels,
    statistics and centroids). They are used when they surely fit: each
    provisional label is made at the first pixel of a row's run of ink at the
    latest (with either connectivity), so fewer runs than 65535 need no more.
    (Older OpenCV does not check the overflow.) Without ``stats`` only the
    count and the labels (the others None).
    """
    runs = cv2.countNonZero(image[:, :1]) if image.size else 0
    if image.shape[1] > 1:
        runs += cv2.countNonZero(cv2.compare(image[:, 1:], image[:, :-1], cv2.CMP_GT))
    ltype = cv2.CV_16U if runs < 65535 else cv2.CV_32S
    if not stats:
        count, labels = cv2.connectedComponents(image, connectivity=connectivity, ltype=ltype)
        return count, labels, None, None
    return cv2.connectedComponentsWithStats(image, connectivity=connectivity, ltype=ltype)


def components_holding(
    weak: NDArray[np.bool_], strong: NDArray[np.bool_], min_extent: float = np.inf
) -> NDArray[np.bool_]:
    """Components of ``weak`` (8-connected) that contain a ``strong`` pixel or
    whose box is at least ``min_extent`` long.

    The ink mask's hysteresis: a light pencil stroke may nowhere reach the
    strong threshold, but it is long, while the specks of paper grain and
    noise are small. Also the pieces of a mask that touch other ink.
    """
    if np.isinf(min_extent):
        # (No extent test: the components' statistics are not needed.)
        count, labels, _, _ = connected_components(weak.astype(np.uint8), stats=False)
        keep = _holding(labels, count, weak, strong)
    else:
        count, labels, stats, _ = connected_components(weak.astype(np.uint8))
        keep = _holding(labels, count, weak, strong) | (_box_length(stats) >= min_extent)
        keep[0] = False
    return keep.take(labels)  # (take: the same gather, faster than indexing)


def _holding(
    labels: NDArray[np.integer], count: int, weak: NDArray[np.bool_], strong: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """By label (0, the background, False): whether the component holds a ``strong``
    pixel of ``weak``."""
    held = np.zeros(count, dtype=bool)
    held[labels[strong & weak]] = True  # repeated labels need no np.unique (a sort)
    held[0] = False
    return held


def _box_length(stats: NDArray[np.int32]) -> NDArray[np.int32]:
    """The longer side of each component's box."""
    return np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])


def _in_long_pieces(pieces: NDArray[np.bool_], length: float) -> NDArray[np.bool_]:
    """The pixels of ``pieces`` in components whose box's longer side is at least ``length``."""
    _, labels, stats, _ = connected_components(pieces.view(np.uint8))
    long = _box_length(stats) >= length
    long[0] = False
    return long.take(labels)


def _held_then_long(
    weak: NDArray[np.bool_], strong: NDArray[np.bool_], extent_widths: float
) -> tuple[float, NDArray[np.bool_]]:
    """The stroke width of the components of ``weak`` holding a ``strong`` pixel, and
    those components with the ones whose box is ``extent_widths`` such widths long.

    The same as ``components_holding(weak, strong)`` then ``components_holding(weak,
    strong, extent_widths * width)``, from one labelling of ``weak``.
    """
    count, labels, stats, _ = connected_components(weak.astype(np.uint8))
    held = _holding(labels, count, weak, strong)
    width = stroke_width(held.take(labels))
    keep = held | (_box_length(stats) >= extent_widths * width)
    keep[0] = False
    return width, keep.take(labels)  # (take: the same gather, faster than indexing)


def _mod_180(degrees: NDArray[np.float32]) -> NDArray[np.float32]:
    """``degrees % 180.0`` for angles in [-180, 180], without the slow float modulo.

    numpy's float remainder is ``fmod`` (exact: the angle itself, or 0 at 180)
    plus 180 (in float32) where that is negative, and +0 where it is zero: the
    same arithmetic, so the same values bit for bit.
    """
    out = np.where(degrees < 0, degrees + np.float32(180.0), degrees)
    out[(degrees == 180.0) | (out == 0.0)] = 0.0  # fmod's zeros: +0
    return out


def _dominant_angles(
    darkness: NDArray[np.float32], mask: NDArray[np.bool_], max_skew: float = 90.0
) -> list[float]:
    """The two directions (degrees, 90 apart) of a possible ruling's lines' gradients."""
    gx = cv2.Sobel(darkness, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(darkness, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8))
    # Flat indices once, then three small gathers (cheaper than three
    # boolean-mask selections over the whole area; same values, same order).
    sel = np.flatnonzero(near.view(bool) & (mag > 0.05))
    weights = mag.ravel()[sel]
    angle = _mod_180(np.degrees(np.arctan2(gy.ravel()[sel], gx.ravel()[sel])))
    # Half-degree bins over 180 degrees. The second family is looked for on
    # its own: under strong perspective the two families of squared or Seyes
    # paper are far from right angles in the photo.
    bins = np.round(angle * 2).astype(int)
    bins[bins == 360] = 0  # the same as % 360 on 0..360
    hist = np.bincount(bins, weights=weights, minlength=360)
    # sum(np.roll(hist, k) for k in range(-2, 3)), added in the same order
    # (the same values bit for bit) from one wrapped copy instead of five rolls.
    wrap = np.concatenate((hist[-2:], hist, hist[:2]))
    smooth = wrap[4:] + wrap[3:-1] + wrap[2:-2] + wrap[1:-3] + wrap[:-4]
    first = int(np.argmax(smooth))
    # Perspective turns the second family by some degrees from the right
    # angle, not more (farther peaks are drawn lines).
    off = np.abs(((np.arange(360) - first) + 180) % 360 - 180)
    near_right = np.abs(off - 180) <= 2 * max_skew
    second = int(np.argmax(np.where(near_right, smooth, -1.0)))
    if smooth[second] < 0.15 * smooth[first]:
        second = (first + 180) % 360  # no second family: its place at right angles
    return [first / 2.0, second / 2.0]


def _line_peaks(profile: NDArray[np.float64], min_height: float) -> NDArray[np.int64]:
    """Indices of the local maxima of ``profile`` above ``min_height``."""
    p = np.convolve(profile, np.ones(3) / 3, mode="same")
    left = np.concatenate(([-1.0], p[:-1]))
    right = np.concatenate((p[1:], [-1.0]))
    return np.nonzero((p >= left) & (p > right) & (p >= min_height))[0]


def _median(values: NDArray[np.floating]) -> np.floating:
    """``np.median`` of a non-empty 1-D float array without NaN, bit for bit.

    The same partition and the same mean of the middle one or two values, in
    the array's dtype, without ``np.median``'s overhead (most of its time on
    the short arrays of the ruling search).
    """
    k = len(values) // 2
    if len(values) % 2:
        return np.partition(values, k)[k]
    part = np.partition(values, (k - 1, k))
    return (part[k - 1] + part[k]) / values.dtype.type(2)


def _lattice_chain(peaks: NDArray[np.int64]) -> tuple[int, float]:
    """Length of the longest chain of regularly spaced peaks, and the step.

    Neighbouring peaks must be one step apart (two when a line is missing);
    the step is the median gap.
    """
    if len(peaks) < 3:
        return len(peaks), np.inf
    gaps = np.diff(peaks).astype(np.float64)
    step = float(_median(gaps))
    if step < 6:
        return 0, step
    ratio = gaps / step
    near = np.round(ratio)
    ok = (np.abs(ratio - near) < 0.2) & (near >= 1) & (near <= 2)
    best = run = 0
    for good, r in zip(ok.tolist(), near.tolist(), strict=True):  # (lists: faster to walk)
        run = run + int(r) if good else 0
        best = max(best, run)
    return best + 1, step


def _is_ruling(
    runs: NDArray[np.uint8],
    *,
    settings: ReaderSettings,
    long_side: int | None = None,
    pitch: float | None = None,
    gaps: bool = False,
) -> float:
    """Whether horizontal straight runs form a printed ruling: its line step, or 0.

    Two tests. Regular spacing: the image is cut into vertical strips (a curled
    page bends long lines, so one profile over the whole width would smear
    them) and in some strips the row profile of the runs shows a lattice of
    lines at a small step. Long lines: printed ruling runs across the sheet,
    many steps long, while the lines of a grid drawn on the paper (a sudoku,
    a map drawn with a ruler) stop after a few cells. With ``gaps`` (the
    whole page) breaks along a line up to ``grid_line_bridge`` steps long do
    not cut it short: a faint print or glare breaks the printed lines into
    pieces. With ``pitch`` the step must also be within
    ``ruling_residual_pitch`` of it (relative).
    """
    nh, nw = runs.shape
    strips = settings.grid_strips
    width = nw // strips
    max_step = settings.grid_max_step * (long_side or max(nh, nw))
    steps = []
    # The row profiles of all strips at once (integer sums: exact; OpenCV's
    # row sums are several times faster than numpy's over short rows).
    cells = runs[:, : strips * width].reshape(nh * strips, width)
    if width > 0:
        profiles = cv2.reduce(cells, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).reshape(nh, strips)
    else:
        profiles = np.zeros((nh, strips), dtype=np.int32)
    for i in range(strips):
        profile = profiles[:, i].astype(np.float64)
        peaks = _line_peaks(profile, settings.grid_min_coverage * width)
        chain, step = _lattice_chain(peaks)
        if chain >= settings.grid_min_lines and step <= max_step:
            steps.append(step)
    if len(steps) < settings.grid_min_strips:
        return 0.0
    step = float(np.median(steps))
    if pitch is not None and abs(step / pitch - 1.0) > settings.ruling_residual_pitch:
        return 0.0
    lines = runs
    gap = int(round(settings.grid_line_bridge * step))
    if gaps and gap > 1:
        # (Only on the page: a tile's relaxed tests would take drawn dashes.)
        lines = cv2.morphologyEx(runs, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    count, _, stats, centroids = connected_components(lines)
    long_lines = stats[1:, cv2.CC_STAT_WIDTH] >= settings.grid_line_steps * step
    # The long lines themselves must be spaced by that step.
    rows = np.sort(centroids[1:][long_lines, 1])
    if len(rows) < settings.grid_min_long_lines:
        return 0.0
    ratio = np.diff(rows) / step
    ok = np.abs(ratio - 1.0) < 0.35
    best = run = 0
    for good in ok:
        run = run + 1 if good else 0
        best = max(best, run)
    return step if best + 1 >= settings.grid_min_long_lines else 0.0


Pixels = tuple[NDArray[np.intp], NDArray[np.intp]]  # (rows, columns)


def _off_lattice(lines: NDArray[np.uint8], step: float, tolerance: float) -> Pixels | None:
    """Rows and columns of the pixels of horizontal ``lines`` (0/1) that lie between
    two lines of the lattice; None when there are none.

    Printed lines follow one another ``step`` apart down a column of the
    frame. Each run of ink down a column (a band) is looked at with the two
    bands on each side of it: it is off the lattice when its neighbours are
    one step apart (within ``tolerance`` steps) and nearer to it than the
    lattice would have either of them taken as the stray one (a drawn stroke
    between two lines; a stroke beside a line leaves the line one step from
    its other neighbour and the stroke off). A band needs a neighbour on
    each side and one more beyond either (near the end of a column, as at a
    tile's side, the other alternative cannot be judged and is not taken).
    """
    h = lines.shape[0]
    # The columns as rows of a contiguous image, a 0 on each side of each:
    # the changes along the flattened rows are the bands' ends, in order
    # (column by column, top to bottom), a start then an end.
    columns = cv2.copyMakeBorder(cv2.transpose(lines), 0, 0, 1, 1, cv2.BORDER_CONSTANT, value=0)
    change = np.flatnonzero(np.diff(columns.ravel().view(np.int8)))
    first, last = change[0::2] + 1, change[1::2]
    n = len(first)
    if n < 4:
        return None
    tx, ty = np.divmod(first, h + 2)
    ty -= 1
    by = last % (h + 2) - 1
    # Band i with the bands i - 2 .. i + 2 (padded: no band beyond the ends).
    column = np.concatenate(([-1, -1], tx, [-1, -1]))
    centre = np.concatenate(([0.0, 0.0], (ty + by) / 2.0, [0.0, 0.0]))
    a2, a, m, b, b2 = (centre[k : n + k] for k in range(5))
    c = column[2 : n + 2]
    # The error of the lattice with the band, or one of its neighbours, left out
    # (a neighbour with no band beyond it in the column cannot be judged: any
    # error); a band needs both neighbours and one more beyond either.
    without = np.abs(b - a - step)
    with_a2 = column[0:n] == c
    with_b2 = column[4 : n + 4] == c
    without_a = np.where(with_a2, np.abs(m - a2 - step), np.inf)
    without_b = np.where(with_b2, np.abs(b2 - m - step), np.inf)
    stray = (
        (column[1 : n + 1] == c)
        & (column[3 : n + 3] == c)
        & (with_a2 | with_b2)
        & (without <= tolerance * step)
        & (without < without_a)
        & (without < without_b)
    )
    off = np.flatnonzero(stray)
    if len(off) == 0:
        return None
    length = by[off] - ty[off] + 1
    rows = np.repeat(ty[off], length) + (
        np.arange(int(length.sum())) - np.repeat(np.cumsum(length) - length, length)
    )
    return rows, np.repeat(tx[off], length)


def _thick_across(
    rotated: NDArray[np.uint8],
    runs: NDArray[np.uint8],
    *,
    settings: ReaderSettings,
    min_length: int = 0,
    texture: NDArray[np.uint8] | None = None,
) -> NDArray[np.bool_]:
    """Pixels of ``runs`` where the ink is much thicker across the lines than a ruling line.

    In the frame where a ruling family is horizontal, a printed line is a few
    pixels thick everywhere. A drawn stroke that runs along (or crosses) a
    ruling line makes the ink there thicker than the ruling alone: those
    pixels are drawing, not ruling. With ``min_length`` only stretches at
    least that long along the line count (a stroke that crosses the line
    is thick over its own width only: ``ruling_restore`` gives it back).
    The ``texture`` pixels (1 in a 0/1 image) do not count in the ruling's
    thickness.
    """
    runs_mask = runs.astype(bool)
    if not runs_mask.any():
        return runs_mask
    # Typical thickness of the ruling: its pixels per pixel of its top edges.
    # Dense ink on the lines (junctions, numbers, a border along a line) would
    # raise it, and a border drawn along a line would pass for ruling.
    line = runs_mask if texture is None else cv2.subtract(runs, texture).view(bool)
    tops = line.copy()
    tops[1:] &= ~line[:-1]
    thickness = float(np.count_nonzero(line)) / max(1, np.count_nonzero(tops))
    k = int(np.ceil(thickness * settings.ruling_thick_ratio + settings.ruling_thick_extra))
    thick = cv2.morphologyEx(rotated, cv2.MORPH_OPEN, np.ones((k, 1), np.uint8)).astype(bool)
    thick &= runs_mask
    if min_length > 1:
        # A stroke drawn along a ruling line is thick over a long stretch; the
        # ruling's own thickness wavers over a few pixels (blur, JPEG).
        kernel = np.ones((1, min_length), np.uint8)
        thick = cv2.morphologyEx(thick.astype(np.uint8), cv2.MORPH_OPEN, kernel).astype(bool)
    return thick


def _half_overlapping_tiles(h: int, w: int, n: int) -> list[tuple[slice, slice]]:
    """An n x n grid of tiles over an (h, w) image, each overlapping its neighbours by half."""
    th, tw = 2 * h // (n + 1), 2 * w // (n + 1)
    return [
        (slice(i * th // 2, i * th // 2 + th), slice(j * tw // 2, j * tw // 2 + tw))
        for i in range(n)
        for j in range(n)
    ]


def _overlap(a: tuple[slice, slice], b: tuple[slice, slice]) -> bool:
    """Whether two tiles overlap."""
    return (
        a[0].start < b[0].stop
        and b[0].start < a[0].stop
        and a[1].start < b[1].stop
        and b[1].start < a[1].stop
    )


def _in_threads(tasks: list[Callable[[], T]], threads: int) -> list[T]:
    """The results of ``tasks`` (independent calls) in their order, run in ``threads`` threads.

    OpenCV and numpy release the interpreter's lock over their loops, so the
    searches of the ruling in the tiles of a page overlap on several cores;
    their results are merged in order afterwards: the same as one by one.
    """
    if threads <= 1 or len(tasks) < 2:
        return [task() for task in tasks]
    with ThreadPoolExecutor(min(threads, len(tasks))) as pool:
        return list(pool.map(lambda task: task(), tasks))


def find_ruling(
    darkness: NDArray[np.float32],
    mask: NDArray[np.bool_],
    *,
    settings: ReaderSettings,
    keep_in: NDArray[np.bool_] | None = None,
    texture: NDArray[np.bool_] | None = None,
    off_sheet: NDArray[np.bool_] | None = None,
    lines: NDArray[np.bool_] | None = None,
    colour: Callable[[], NDArray[np.float32]] | None = None,
) -> NDArray[np.bool_]:
    """Pixels of printed paper ruling (the lines of squared, Seyes or lined paper).

    A ruling is a family of at least ``grid_min_lines`` long straight parallel
    lines, regularly spaced, that runs across most of the page. Hand-drawn
    maps (even ruler-drawn ones) and printed grids like a sudoku's have far
    fewer parallel lines. Drawn ink much darker than the ruling is kept where
    it runs along a ruling line, and a straight stroke between two lines of
    the lattice is no line of it (``_off_lattice``).

    Parameters
    ----------
    darkness : (H, W) float32
    mask : (H, W) bool
        The ink to look for ruling in.
    settings : ReaderSettings
    keep_in : (H, W) bool, optional
        The ink the ruling is removed from: the result is restricted to it,
        and its strokes much darker than the ruling around them are kept.
    texture : (H, W) bool, optional
        Dense ink of ``mask`` (junctions, numbers, borders crowding the
        ruling): it can be ruling, but it does not set the lines' direction,
        is no evidence of a ruling in a tile and does not count in the
        thickness of the ruling's lines.
    off_sheet : (H, W) bool, optional
        Pixels off the sheet (the table around it): they do not set the
        lines' direction.
    lines : (H, W) bool, optional
        Filled in place with the ruling's lines before the restriction to
        ``keep_in`` (their pixels of ``mask``, lighter than ink included).
    colour : callable, optional
        Returns the (H, W) float32 colour of each pixel (``print_colour``; asked
        only once a ruling is seen): with ``keep_in``, grey stretches of a
        coloured family's lines are drawing (``_grey_stretches``).

    Returns
    -------
    (H, W) bool: the pixels of ``mask`` that belong to a printed ruling.
    """
    h, w = mask.shape
    n = settings.ruling_tiles
    relaxed = replace(
        settings,
        grid_min_lines=settings.ruling_relaxed_lines,
        grid_min_strips=1,
        grid_min_long_lines=max(2, settings.grid_min_long_lines // 2),
        grid_line_steps=settings.grid_line_steps / 2,
    )
    # The line steps of the families found (page and tiles), in the order of
    # the searches (each search fills its own list: they may run in threads).
    pitches: list[float] = []
    done: list[tuple[tuple[slice, slice], list[NDArray[np.bool_]]]] = []

    def search(
        sl: tuple[slice, slice] | None,
        cfg: ReaderSettings,
        known: list[float] | None = None,
        within: NDArray[np.bool_] = mask,
        **kw,
    ) -> tuple[NDArray[np.bool_], list[float], list[float]]:
        """``_ruling_in`` of the page (``sl`` None) or of a tile, and its families' steps."""
        page = sl is None
        sl = sl or (slice(None), slice(None))
        steps: list[float] = []
        whole: list[NDArray[np.bool_]] = []
        part, hit = _ruling_in(
            darkness[sl],
            within[sl],
            settings=cfg,
            keep_in=None if keep_in is None else keep_in[sl],
            scale=None if page else max(h, w),
            known=known,
            steps=steps,
            texture=None if texture is None else texture[sl],
            off_sheet=None if off_sheet is None else off_sheet[sl],
            lines=None if lines is None else whole,
            colour=None if colour is None else lambda: colour()[sl],
            **kw,
        )
        if lines is not None:
            # (In the calling thread: the tiles overlap.)
            done.append((sl, whole))
        return part, hit, steps

    # Perspective fans a ruling out and a curled page bends it: look again in
    # overlapping tiles, where its lines are closer to parallel and straight.
    # Once a ruling is seen somewhere on the page, a tile needs less evidence
    # (fewer and shorter lines: drawing and shadows hide parts of it).
    # The page and the n x n tiles are independent searches.
    tiles = _half_overlapping_tiles(h, w, n) if n > 1 else []
    first = _in_threads(
        [lambda: search(None, settings)] + [lambda sl=sl: search(sl, settings) for sl in tiles],
        settings.ruling_threads,
    )
    ruling, found, steps = first[0]
    found = list(found)
    pitches += steps
    page_angles = list(found)
    # How dark the print is, from the page's own families: a family that a
    # tile sees much darker is ink drawn in parallel lines (a grid of borders
    # across lined paper, or along its lines).
    cap = None
    if (
        settings.ruling_new_darker > 0
        and page_angles
        and ruling.any()
        and np.count_nonzero(ruling) >= settings.ruling_new_min_share * ruling.size
    ):
        cap = settings.ruling_new_darker * float(_median(darkness[ruling]))
    if n > 1:
        missed = []
        seen = []
        for sl, (part, hit, steps) in zip(tiles, first[1:], strict=True):
            if cap is not None and (
                not all(_known_angle(a, page_angles, settings.ruling_known_angle) for a in hit)
                or _darker_than(darkness[sl], part, cap)
            ):
                # A family the page did not see, or ink darker than its print:
                # looked at again with the cap (rare, and in this thread).
                done[:] = [(s, parts) for s, parts in done if s != sl]
                part, hit, steps = search(sl, settings, new_cap=cap)
            ruling[sl] |= part
            found += hit
            pitches += steps
            seen.append((sl, hit))
            if not hit:
                missed.append(sl)
        # Strong perspective fans a sparse family (Seyes paper's verticals,
        # lined paper) out too much even for these tiles: look in smaller
        # ones, for families not already seen around them (a second look at
        # a family already removed would take light pencil drawn along it).
        # Then the tiles where the ruling was missed, with less evidence.
        # (All these searches are independent of each other.)
        searches = []
        m = settings.ruling_fine_tiles
        if found and m > n:
            for sl in _half_overlapping_tiles(h, w, m):
                known = list(page_angles)
                around = False
                for big, angles in seen:
                    if _overlap(big, sl):
                        known += angles
                        around = around or bool(angles)
                # Where no tile around saw the ruling (it is fanned out too
                # much in all of them), the page's is all that is known: a
                # fine tile needs only the evidence of a missed tile (lines
                # of a few steps are all it holds).
                cfg = settings if around else relaxed
                searches.append(
                    (
                        sl,
                        lambda sl=sl, cfg=cfg, known=known: search(sl, cfg, known, new_cap=cap),
                    )
                )
        if found:
            searches += [(sl, lambda sl=sl: search(sl, relaxed, new_cap=cap)) for sl in missed]
        results = _in_threads([task for _, task in searches], settings.ruling_threads)
        for (sl, _), (part, _, steps) in zip(searches, results, strict=True):
            ruling[sl] |= part
            pitches += steps
        # A curled page bends its ruling: in a corner the lines turn away
        # from the family seen in the tiles around it, and the pass above
        # leaves that family alone there. What the passes so far left of the
        # ink (away from the ruling found) holds no lattice of long lines
        # unless such a bent ruling is still there: look for one in it.
        r = settings.ruling_residual_tiles
        if found and pitches and r > 0:
            reach = _disk_kernel(2 * settings.ruling_residual_reach + 1)
            near = cv2.dilate(ruling.astype(np.uint8), reach).astype(bool)
            rest = mask & ~near
            # The other family's lines, removed, cut the bent lines into
            # dashes: the runs bridge those gaps.
            bridge = int(round(settings.ruling_residual_bridge * max(h, w)))
            # Only a lattice at the printed ruling's step: drawn borders that
            # happen to run parallel (hatching, a river's banks) are spaced
            # freely.
            pitch = float(np.median(pitches)) if settings.ruling_residual_pitch > 0 else None
            cfg = relaxed if settings.ruling_residual_relaxed else settings
            searches = []
            for sl in _half_overlapping_tiles(h, w, r):
                # Only families turned away from those seen around: drawn
                # strokes kept along a straight ruling line are left alone.
                known = list(page_angles) + [
                    a for big, angles in seen if _overlap(big, sl) for a in angles
                ]
                # Squared paper only (two families seen around): the bridge
                # is made for the gaps that the crossing family's removed
                # lines leave; on lined paper it would join drawn dashes.
                if not any(
                    abs((a - b + 90.0) % 180.0 - 90.0) >= 45.0 for a in known for b in known
                ):
                    continue
                searches.append(
                    (
                        sl,
                        lambda sl=sl, known=known: search(
                            sl, cfg, known, within=rest, bridge=bridge, pitch=pitch, new_cap=cap
                        ),
                    )
                )
            results = _in_threads([task for _, task in searches], settings.ruling_threads)
            for (sl, _), (part, _, _) in zip(searches, results, strict=True):
                ruling[sl] |= part
    if lines is not None:
        for sl, parts in done:
            for part in parts:
                lines[sl] |= part
    return ruling


def _ruling_in(
    darkness: NDArray[np.float32],
    mask: NDArray[np.bool_],
    *,
    settings: ReaderSettings,
    keep_in: NDArray[np.bool_] | None = None,
    scale: int | None = None,
    known: list[float] | None = None,
    bridge: int = 0,
    pitch: float | None = None,
    steps: list[float] | None = None,
    texture: NDArray[np.bool_] | None = None,
    off_sheet: NDArray[np.bool_] | None = None,
    lines: list[NDArray[np.bool_]] | None = None,
    colour: Callable[[], NDArray[np.float32]] | None = None,
    new_cap: float | None = None,
) -> tuple[NDArray[np.bool_], list[float]]:
    """The ruling of one area (the page or a tile of it), and the angles of its families.

    ``scale`` is the page's long side. Families within ``ruling_known_angle``
    degrees of a ``known`` angle are left alone (already handled). Gaps up
    to ``bridge`` pixels along a line do not break it. With ``pitch`` only
    families whose line step is near it are taken (``_is_ruling``); the
    steps of the families found are appended to ``steps``. ``texture``
    (dense ink of ``mask``) can be ruling but is left out of the lines'
    direction, of a tile's evidence and of the lines' thickness. ``colour``
    (returns ``print_colour`` of the area; with ``keep_in``): grey stretches
    of a coloured family's lines are kept (``_grey_stretches``). ``new_cap``
    (a darkness): a family whose pixels taken have a median darkness above
    it is none (ink drawn in parallel lines); the search is made again
    without it.
    """
    h, w = mask.shape
    first_step = 0 if steps is None else len(steps)
    first_lines = 0 if lines is None else len(lines)
    # On the whole page a ruling's lines are long and many; a tile holds few
    # and short ones, and dense ink along them (junctions, numbers, borders
    # drawn along a line) can make up what its tests ask for.
    tile = scale is not None
    scale = scale or max(h, w)
    long_side = scale
    ruling = np.zeros((h, w), dtype=bool)
    if not mask.any():
        return ruling, []
    m8 = mask.astype(np.uint8)
    clear = mask
    if texture is not None:
        # 3 marks the dense ink in the warped frames (one warp for both).
        # (OpenCV's saturating arithmetic on 0/1 images: cheaper than numpy's.)
        dense8 = cv2.bitwise_and(m8, texture.view(np.uint8))
        clear = cv2.subtract(m8, dense8).view(bool)
        m8 = cv2.add(cv2.add(m8, dense8), dense8)
    if off_sheet is not None:
        clear = clear & ~off_sheet
    run = max(15, int(round(settings.grid_run * long_side)))

    def straight_runs(
        angle: float,
    ) -> tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray, NDArray[np.uint8], NDArray]:
        """Runs of lines at gradient angle ``angle``, in a frame where they are horizontal.

        Also the runs that count as evidence of a ruling (in a tile, without the
        dense ink), and ``m8`` warped into the frame.
        """
        centre = (w / 2.0, h / 2.0)
        rot = cv2.getRotationMatrix2D(centre, angle - 90.0, 1.0)
        cos, sin = abs(rot[0, 0]), abs(rot[0, 1])
        nw, nh = int(h * sin + w * cos) + 2, int(h * cos + w * sin) + 2
        rot[0, 2] += nw / 2.0 - centre[0]
        rot[1, 2] += nh / 2.0 - centre[1]
        rotated = warped = cv2.warpAffine(m8, rot, (nw, nh), flags=cv2.INTER_NEAREST)
        dense = None
        if texture is not None:
            if tile:
                dense = cv2.threshold(rotated, 1, 1, cv2.THRESH_BINARY)[1]
            rotated = cv2.threshold(rotated, 0, 1, cv2.THRESH_BINARY)[1]
        # Thicken across the lines so that a line tilted a little still holds
        # a long straight run.
        thick = cv2.dilate(rotated, np.ones((5, 1), np.uint8))
        if bridge > 1:
            # Gaps up to ``bridge`` long along the lines do not break a run.
            thick = cv2.morphologyEx(thick, cv2.MORPH_CLOSE, np.ones((1, bridge), np.uint8))
        runs = cv2.morphologyEx(thick, cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
        return runs, rotated, rot, runs if dense is None else cv2.subtract(runs, dense), warped

    found: list[float] = []
    families = []
    family_steps: list[float] = []
    # The direction of the lines is measured without the dense ink either.
    for angle in _dominant_angles(darkness, clear, settings.ruling_max_skew):
        if known and _known_angle(angle, known, settings.ruling_known_angle):
            continue
        runs, rotated, rot, evidence, warped = straight_runs(angle)
        step = _is_ruling(evidence, settings=settings, long_side=scale, pitch=pitch)
        if not step and not tile and keep_in is not None and settings.grid_line_bridge > 0:
            # Lines in pieces (faint print, glare): a family whose lines are
            # whole only across their breaks is taken when its lines are
            # mostly ink. Where most of them are too faint to be ink, they
            # cut no country, and the family's ink is mostly drawing along
            # them. Ink here is darkness over the ink level, not the ink
            # kept: a faint line's pieces too short to be kept alone are kept
            # where they touch the drawing, and cut its countries.
            step = _is_ruling(evidence, settings=settings, long_side=scale, pitch=pitch, gaps=True)
            if step:
                on = runs & rotated
                weak = (darkness > settings.ink_darkness).view(np.uint8)
                ink = cv2.warpAffine(weak, rot, on.shape[::-1], flags=cv2.INTER_NEAREST)
                if int((on & ink).sum()) < settings.grid_bridge_min_ink * int(on.sum()):
                    step = 0.0
        if not step:
            continue
        found.append(angle)
        if steps is not None:
            steps.append(step)
        # Perspective fans a family of lines out over several degrees: take
        # the runs at neighbouring angles too.
        frames = []
        for delta in settings.grid_fan:
            if delta != 0:
                runs, rotated, rot, _, warped = straight_runs(angle + delta)
            on = runs & rotated
            # A straight stroke between two neighbouring lines of the lattice
            # is no line of it (a border drawn beside a grid line); it stays
            # in the family's lines as found (their thickness and level).
            stray = None
            if settings.ruling_lattice_tolerance > 0:
                stray = _off_lattice(on, step, settings.ruling_lattice_tolerance)
            frames.append((on, rot, warped, stray))
        families.append(frames)
        family_steps.append(step)
    if not families:
        return ruling, found

    thick_length = int(round(settings.ruling_thick_length * long_side))

    def thin_and_thick(
        frames: list[tuple[NDArray[np.uint8], NDArray, NDArray[np.uint8], Pixels | None]],
        ink: NDArray[np.uint8] | None = None,
        strays: NDArray[np.bool_] | None = None,
    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """A family's runs over ``ink`` (None: ``m8``, already warped) that are as thin
        as the ruling, and the thicker ones; their pixels off the lattice are
        marked in ``strays`` (if given)."""
        thin = np.zeros((h, w), dtype=bool)
        thick = np.zeros((h, w), dtype=bool)
        for runs, rot, warped, stray in frames:
            rotated = (
                warped
                if ink is None
                else cv2.warpAffine(ink, rot, runs.shape[::-1], flags=cv2.INTER_NEAREST)
            )
            dense = None if texture is None else cv2.threshold(rotated, 1, 1, cv2.THRESH_BINARY)[1]
            wide = _thick_across(
                rotated, runs, settings=settings, min_length=thick_length, texture=dense
            )
            # One warp back for both parts: 1 marks the thin runs, 2 the thick
            # ones (nearest neighbour copies one source pixel per pixel).
            code = runs + (runs & wide)
            if strays is not None and stray is not None:
                # 3 and 4: the thin and thick runs off the lattice.
                code[stray] += 2
            back = cv2.warpAffine(code, rot, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
            if strays is not None and stray is not None:
                strays |= back >= 3
                back = np.where(back >= 3, back - 2, back)
            thin |= back == 1
            thick |= back == 2
        return thin, thick

    off_lattice = [np.zeros((h, w), dtype=bool) for _ in families]
    split = [
        thin_and_thick(frames, strays=strays)
        for frames, strays in zip(families, off_lattice, strict=True)
    ]
    thins = [thin for thin, _ in split]
    crossings = settings.ruling_crossings and len(families) > 1
    if crossings:
        # Where two families cross, the other family's line makes this one
        # look thick, and the crossing would stay as a dot of "drawing". With
        # the other families' lines left out, what is still thick is drawn
        # along a ruling line; crossings away from such drawing are ruling.
        # Each family's lines as found (drawing along them included), in the
        # image: its thin and thick parts together.
        as_found = [thin | thick for thin, thick in split]
        drawn = np.zeros((h, w), dtype=bool)
        others = []
        for i, frames in enumerate(families):
            other = np.logical_or.reduce([b for j, b in enumerate(as_found) if j != i])
            others.append(other)
            drawn |= thin_and_thick(frames, m8 * ~other)[1]
        r = settings.ruling_restore
        near = cv2.dilate(drawn.astype(np.uint8), _disk_kernel(2 * r + 1)).astype(bool)
        thins = [t | (b & o & ~near) for t, b, o in zip(thins, as_found, others, strict=True)]
    # (Each family's pixels as taken, for the cap.)
    taken = []
    for back, strays, frames, step in zip(thins, off_lattice, families, family_steps, strict=True):
        family = back & mask
        if keep_in is not None:
            # Keep drawn strokes that run along a ruling line: they are darker
            # than this family of lines around them (its darkness varies with
            # blur and perspective, and between the two families).
            # The level is that of the whole family, faint lines included:
            # where the ruling is mostly too faint to be ink, the family's
            # ink is mostly drawing and would set the level itself.
            whole = family.copy()
            # (Not where the crossings were looked at: the caller then gets no
            # lines from this search. Giving them changed the ink of 37 of 267
            # dev and validation pages and lost on tune, s3 and r3 (forty-fourth
            # session): the steps after it are tuned to this.)
            if lines is not None and not crossings:
                lines.append(whole)
            family &= keep_in
            if family.any():
                level = _local_level(darkness, whole)
                extra = settings.grid_darker_extra
                crests = None
                if settings.grid_darker_extra_uniform < extra:
                    # Where every line of the family is printed alike, a
                    # drawn stroke along one (light pencil) needs less margin.
                    crests = _crests(darkness, whole)
                    two, spread = _line_stats(
                        darkness,
                        whole,
                        settings.grid_two_level_extent * scale,
                        settings.grid_two_level_ratio,
                        crests,
                    )
                    if two < settings.grid_two_level_fraction:
                        # ... but not less than the lines' own variation.
                        extra = min(
                            extra,
                            max(
                                settings.grid_darker_extra_uniform,
                                settings.grid_darker_spread * spread,
                            ),
                        )
                # (The limit at the family's pixels only: the same arithmetic there.)
                at = np.flatnonzero(family)
                here = level.ravel()[at]
                limit = np.maximum(here * settings.grid_darker, here + extra)
                if settings.grid_darker_crest > 0:
                    # In a shadow (or where the print is heavier) the lines'
                    # crests stand out more from their rims than on the rest
                    # of the page: ink is drawn over the ruling only when
                    # also darker than the family's typical crest in this
                    # area (one median: where a stroke runs along a line
                    # for long, the stroke would set a local level itself).
                    peak = _crest_level(darkness, whole, crests=crests)
                    if peak is not None:
                        np.maximum(limit, peak * settings.grid_darker_crest, out=limit)
                family.ravel()[at[~(darkness[family] <= limit)]] = False
            if colour is not None and settings.ruling_grey_length > 0 and family.any():
                family &= ~_grey_stretches(
                    colour(), darkness, whole, frames, step, settings=settings, scale=scale
                )
        ruling |= family & ~strays
        taken.append(family)
    if new_cap is not None:
        darker = [
            angle
            for angle, family in zip(found, taken, strict=True)
            if _darker_than(darkness, family, new_cap)
        ]
        if darker:
            # The same search with those families left alone.
            if steps is not None:
                del steps[first_step:]
            if lines is not None:
                del lines[first_lines:]
            return _ruling_in(
                darkness,
                mask,
                settings=settings,
                keep_in=keep_in,
                scale=None if not tile else scale,
                known=(known or []) + darker,
                bridge=bridge,
                pitch=pitch,
                steps=steps,
                texture=texture,
                off_sheet=off_sheet,
                lines=lines,
                colour=colour,
                new_cap=new_cap,
            )
    return ruling, found


def print_colour(
    image: NDArray[np.uint8], darkness: NDArray[np.float32], *, settings: ReaderSettings
) -> NDArray[np.float32]:
    """The colour of each pixel of the working image (BGR): ``(red darkness -
    blue darkness) / darkness``, about 0 for grey (pencil, black ink), 1 or
    more for blue or violet print, negative for red print.

    ``darkness``: the grey image's (``paper_darkness``); it is floored at
    ``ink_darkness`` (paper's colour noise over a near-zero darkness).
    """
    # A light blur: the colour of a line one pixel wide is noisy (demosaicing, JPEG).
    soft = cv2.GaussianBlur(image, (3, 3), 0)
    red, _ = paper_darkness(soft[:, :, 2], settings=settings)
    blue, _ = paper_darkness(soft[:, :, 0], settings=settings)
    return (red - blue) / np.maximum(darkness, settings.ink_darkness)


def _grey_stretches(
    colour: NDArray[np.float32],
    darkness: NDArray[np.float32],
    whole: NDArray[np.bool_],
    frames: list[tuple[NDArray[np.uint8], NDArray, NDArray[np.uint8], Pixels | None]],
    step: float,
    *,
    settings: ReaderSettings,
    scale: int,
) -> NDArray[np.bool_]:
    """Pixels of a coloured ruling family's lines that are grey along a stretch.

    Pencil drawn along (or in line with) the lines of blue or violet print is
    as light and as thin as they are, but grey. Pixel by pixel the colour is
    noisy and mixed where the stroke crosses the other family's lines; along
    the line, over ``ruling_grey_length`` of the long side ``scale`` (the
    window holding at least ``ruling_grey_fill`` of that length of the
    family's ink, sampled every ``ruling_grey_sample`` pixels along it), the
    mean colour of a drawn stroke stays nearer to grey than
    ``ruling_grey_keep`` of the family's median colour, and that of a printed
    line does not; each pixel kept is nearer to grey than
    ``ruling_grey_pixel`` of that colour itself. A drawn stroke is one such
    line among coloured ones: where the lines one ``step`` away on either
    side are grey too, the light's tint (or a colour cast) greys the print
    there. Families less coloured than ``ruling_grey_min_colour`` have no
    grey stretches, and no stretch holds ink coloured the other way (where
    a line crosses Seyes paper's red margin the mixture looks grey).

    ``colour``: ``print_colour`` (NaN where unknown: no stretch there);
    ``whole``: the family's pixels (of the ink searched); ``frames``: its
    runs in the frames where its lines are horizontal (``_ruling_in``), its
    lines ``step`` pixels apart. Returns (H, W) bool: the family's ink
    (darker than ``ink_darkness``) on grey stretches.
    """
    h, w = darkness.shape
    out = np.zeros((h, w), dtype=bool)
    known = ~np.isnan(colour)
    dark = whole & (darkness > settings.ink_darkness) & known
    if int(np.count_nonzero(dark)) < settings.ruling_colour_pixels:
        return out
    typical = float(_median(colour[dark]))
    if abs(typical) < settings.ruling_grey_min_colour:
        return out
    # (Unknown pixels weigh nothing: a NaN would spread along OpenCV's running sums.)
    signed = np.where(known, colour if typical > 0 else -colour, 0.0).astype(np.float32)
    opposite = (dark & (signed < -abs(typical))).view(np.uint8)
    # Each pixel kept is grey-ish itself: the print beside a pencil stroke
    # that crosses the line is not (no ticks left on the borders).
    candidates = dark & (signed < settings.ruling_grey_pixel * abs(typical))
    if settings.ruling_grey_darker > 0:
        # ... and no lighter than the family's typical pixel: the faintest
        # bits of the print look grey too (little colour over the paper's).
        candidates &= darkness >= settings.ruling_grey_darker * float(_median(darkness[dark]))
    if not candidates.any():
        return out
    # The frames are sampled every ``q`` pixels along the lines: a mean along
    # them needs no more (and the search's many tiles stay cheap).
    q = max(1, settings.ruling_grey_sample)
    cells = max(1, int(round(settings.ruling_grey_length * scale / q)))
    # Three rows: a line a little off the frame's direction hops rows.
    kernel = (cells, 3)
    limit = settings.ruling_grey_keep * abs(typical)
    least = settings.ruling_grey_fill * cells
    # The neighbouring lines: rows about one step away (a little closer or
    # farther under perspective).
    shift = int(round(step))
    band = (1, max(3, int(round(settings.ruling_grey_band * step)) | 1))
    along = np.array([[1.0 / q, 0.0], [0.0, 1.0]])
    for runs, rot, _, _ in frames:
        sub = along @ rot
        size = (int((runs.shape[1] + q - 1) // q), int(runs.shape[0]))
        on = cv2.warpAffine(dark.view(np.uint8), sub, size, flags=cv2.INTER_NEAREST)
        tint = cv2.warpAffine(signed, sub, size, flags=cv2.INTER_LINEAR)
        weight = on.astype(np.float32)
        total = cv2.boxFilter(tint * weight, -1, kernel, normalize=False)
        seen = cv2.boxFilter(weight, -1, kernel, normalize=False)
        grey = (seen >= least) & (total < limit * seen)
        if grey.any() and shift > 0 and settings.ruling_grey_band > 0:
            near_total = cv2.boxFilter(total, -1, band, normalize=False)
            near_seen = cv2.boxFilter(seen, -1, band, normalize=False)
            tinted = (near_seen >= least) & (near_total < limit * near_seen)
            grey[shift:] &= ~tinted[:-shift]
            grey[:-shift] &= ~tinted[shift:]
        if grey.any() and opposite.any():
            other = cv2.warpAffine(opposite, sub, size, flags=cv2.INTER_NEAREST)
            grey &= cv2.boxFilter(other, -1, kernel, normalize=False) == 0
        if not grey.any():
            continue
        if settings.ruling_grey_run > 0:
            # A drawn stroke along a line is long; the print's grey-looking
            # bits (faint, in glare) are short.
            run = max(1, int(round(settings.ruling_grey_run * cells)))
            line = np.ones((1, run), np.uint8)
            grey = cv2.morphologyEx(grey.view(np.uint8), cv2.MORPH_OPEN, line).view(bool)
        back = cv2.warpAffine(
            grey.view(np.uint8), sub, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP
        )
        out |= back.view(bool)
    return out & candidates


def _crests(darkness: NDArray[np.float32], lines: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The crests of ``lines``: their pixels as dark as their 8 neighbours (those
    within the image)."""
    return lines & (darkness >= cv2.dilate(darkness, np.ones((3, 3), np.uint8)))


def _crest_level(
    darkness: NDArray[np.float32],
    lines: NDArray[np.bool_],
    step: int = 3,
    crests: NDArray[np.bool_] | None = None,
) -> float | None:
    """Median darkness of the crests of ``lines`` (pixels as dark as their 8
    neighbours), on the pixels whose ``x + y`` is 2 modulo ``step``; None when
    fewer than 20 crests are sampled.

    Every row and every column holds its share of the sample, so the crests
    of horizontal and vertical lines fall on it whatever the lines' step (a
    grid of every ``step``-th row would miss all lines of a ruling whose step
    is a multiple of it). ``crests``: :func:`_crests` of ``lines``, when already
    made (the same pixels, looked up).
    """
    h, w = darkness.shape
    values = []
    for r in range(step):
        c = (-r) % step  # rows 1 + r + step i, columns 1 + c + step j: x + y = 2 mod step
        ys, xs = slice(1 + r, h - 1, step), slice(1 + c, w - 1, step)
        centre = darkness[ys, xs]
        if crests is not None:
            values.append(centre[crests[ys, xs]])
            continue
        crest = lines[ys, xs].copy()
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dy or dx:
                    crest &= (
                        centre
                        >= darkness[1 + r + dy : h - 1 + dy : step, 1 + c + dx : w - 1 + dx : step]
                    )
        values.append(centre[crest])
    sample = np.concatenate(values)
    if len(sample) < 20:
        return None
    return float(_median(sample))


def _line_stats(
    darkness: NDArray[np.float32],
    lines: NDArray[np.bool_],
    min_extent: float,
    ratio: float,
    crests: NDArray[np.bool_] | None = None,
) -> tuple[float, float]:
    """How alike the ``lines`` of a ruling family are printed.

    Returns the fraction of the long lines (at least ``min_extent``) whose
    crest is ``ratio`` times darker than the typical line's (Seyes paper
    prints every fourth line darker; other rulings print all lines alike,
    and a drawn stroke along a line darkens only part of it), and the
    interquartile range of the lines' crest darkness (print, light and
    camera noise: small on a clean photo, large on a real one). ``crests``:
    :func:`_crests` of ``lines`` when already made.
    """
    # The crest (the darkest pixels across a line): blurred edges would mix
    # the light rims of a thick line with the core of a thin one.
    crest = np.flatnonzero(_crests(darkness, lines) if crests is None else crests)
    if len(crest) < 20:
        return 0.0, 0.0
    crest_dark = darkness.ravel()[crest]
    q25, q75 = np.percentile(crest_dark, [25, 75])
    spread = float(q75 - q25)
    count, labels, stats, _ = connected_components(lines.astype(np.uint8))
    long = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) >= min_extent
    long[0] = False
    if long.sum() < 4:
        return 0.0, spread
    # Only the crest pixels' labels are looked up (not the whole image's).
    crest_lab = labels.ravel()[crest]
    on_long = long[crest_lab]
    lab = crest_lab[on_long]
    dark = crest_dark[on_long]
    order = np.lexsort((dark, lab))
    lab, dark = lab[order], dark[order]
    n = np.bincount(lab, minlength=count)
    start = np.concatenate(([0], np.cumsum(n)[:-1]))
    has = long & (n > 0)
    level = dark[start[has] + n[has] // 2]
    return float(np.mean(level >= ratio * np.median(level))), spread


def _known_angle(angle: float, known: list[float], tolerance: float) -> bool:
    """Whether ``angle`` (degrees, lines' direction mod 180) is within ``tolerance``
    of one of ``known``."""
    return any(abs((angle - k + 90.0) % 180.0 - 90.0) <= tolerance for k in known)


def _darker_than(darkness: NDArray[np.float32], where: NDArray[np.bool_], level: float) -> bool:
    """Whether the median darkness of the ``where`` pixels (some) is above ``level``."""
    return bool(where.any()) and float(_median(darkness[where])) > level


def _local_level(
    darkness: NDArray[np.float32], where: NDArray[np.bool_], tiles: int = 6
) -> NDArray[np.float32]:
    """Median darkness of the ``where`` pixels, per tile, smoothly interpolated."""
    h, w = darkness.shape
    overall = float(_median(darkness[where]))  # (np.median's value, bit for bit)
    grid = np.full((tiles, tiles), overall, dtype=np.float32)
    ys = np.linspace(0, h, tiles + 1).astype(int)
    xs = np.linspace(0, w, tiles + 1).astype(int)
    for i in range(tiles):
        for j in range(tiles):
            sel = where[ys[i] : ys[i + 1], xs[j] : xs[j + 1]]
            if np.count_nonzero(sel) >= 50:
                grid[i, j] = _median(darkness[ys[i] : ys[i + 1], xs[j] : xs[j + 1]][sel])
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR)


def _grey_on_coloured_ruling(
    colour: NDArray[np.float32],
    darkness: NDArray[np.float32],
    ruling: NDArray[np.bool_],
    *,
    settings: ReaderSettings,
    drawing: NDArray[np.bool_] | None = None,
) -> NDArray[np.bool_]:
    """Pixels of ``ruling`` that are grey where the printed ruling is coloured.

    Squared and Seyes paper is mostly printed in blue or violet: its lines are
    much darker in the red channel than in the blue one. Pencil and black ink
    are grey. Light pencil drawn along a grid line is as dark and as thin as
    the line, but it stays grey. ``colour``: the colour of each pixel
    (``print_colour``), about 0 for grey, 1 or more for blue print (negative
    for red print).

    A weakly coloured print (``ruling_colour_weak`` up to ``ruling_colour_min``)
    leaves grey-looking pixels of its own (camera noise, a colour cast,
    crossings with a differently coloured line): there only grey pieces that
    touch the ``drawing`` (the ink left after ruling removal) are drawing, and
    none next to ink coloured the other way.
    """
    dark = ruling & (darkness > settings.ink_darkness)
    if int(dark.sum()) < settings.ruling_colour_pixels:
        return np.zeros_like(ruling)
    typical = float(np.median(colour[dark]))
    weak = abs(typical) < settings.ruling_colour_min
    if weak and (
        settings.ruling_colour_weak <= 0
        or abs(typical) < settings.ruling_colour_weak
        or drawing is None
    ):
        return np.zeros_like(ruling)
    # Grey: nearer to neutral than ruling_colour_keep of the print's colour.
    signed = np.sign(typical) * colour
    grey = dark & (signed < settings.ruling_colour_keep * abs(typical))
    if not weak or not grey.any():
        return grey
    # Where a line of this print crosses one printed in the opposite colour
    # (Seyes paper's red margin or band line), the mixture is grey.
    opposite = (darkness > settings.ink_darkness) & (signed < -abs(typical))
    if opposite.any():
        r = settings.ruling_colour_cross
        grey &= ~cv2.dilate(opposite.astype(np.uint8), _disk_kernel(2 * r + 1)).astype(bool)
    # Pencil along a line joins the strokes it continues; the print's own
    # grey-looking bits lie anywhere.
    touch = cv2.dilate(drawing.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return components_holding(grey, touch)


def _line_thickness(ruling: NDArray[np.bool_]) -> float:
    """Typical thickness of the lines of ``ruling``, in pixels.

    A line t pixels thick and L long holds t L pixels, L of them on its top
    edge if it is horizontal, L on its left edge if vertical: the pixels per
    edge pixel (top and left edges together) are t.
    """
    r8 = ruling.view(np.uint8)
    # (OpenCV's saturating subtraction of 0/1 images: the pixels whose
    # neighbour above, or on the left, is not ruling.)
    edges = cv2.countNonZero(cv2.subtract(r8[1:], r8[:-1]))
    edges += cv2.countNonZero(cv2.subtract(r8[:, 1:], r8[:, :-1]))
    return cv2.countNonZero(r8) / max(1, edges)


def _crossings(mask: NDArray[np.bool_], ruling: NDArray[np.bool_], r: int) -> NDArray[np.bool_]:
    """The pixels of ``ruling`` that lie under or across a stroke of ``mask``.

    Removing the ruling erases the stretch of a drawn stroke that lies on a
    line, where the stroke crosses it or runs along it. That stretch has
    the stroke's ink within ``r`` pixels *across* the line, on one side or
    both. The ruling beside a stroke's end, or between two letters one after
    the other along the line, has ink within reach only along the line:
    given back (as all ruling within ``r`` of ink once was) it would leave
    ticks on the strokes and stretches of printed line between letters, and
    those close words and grid squares into countries.

    The test needs the line's direction: a pixel lies on a thin horizontal
    (vertical) line when the ruling, or ink (a stroke across it, or the next
    letter), runs on over (nearly) all ``r`` pixels on both sides of it
    along that axis, and the ruling across is no thicker than its typical
    line (:func:`_line_thickness`). The ruling of a rectified page is such;
    elsewhere (a ruling at a slant, a crossing, a stroke along a line, a
    patch) all of the ruling within ``r`` of ink is given back, as before.
    """
    near = cv2.dilate(mask.astype(np.uint8), _disk_kernel(2 * r + 1)).view(bool)
    out = np.zeros_like(ruling)
    # Only these few pixels are looked at: gathers from padded copies, at
    # flat indices, along each axis once (ink and ruling at the same places).
    pixels = np.flatnonzero(ruling & near)
    if len(pixels) == 0:
        return out
    w = mask.shape[1]
    ink = np.pad(mask, r).ravel()
    ruled = np.pad(ruling, r).ravel()
    ys, xs = np.divmod(pixels, w)
    at = (ys + r) * (w + 2 * r) + (xs + r)
    # The r pixels on each side (the pixel itself is ruling, not ink); counts
    # by products with ones (much cheaper than numpy's reductions over rows
    # this short).
    span = np.concatenate((np.arange(-r, 0), np.arange(1, r + 1)))
    ones = np.ones(r, np.uint8)
    both = np.ones(2 * r, np.uint8)
    beside = {}
    lines = {}
    along = {}
    for axis, step in (("x", 1), ("y", w + 2 * r)):
        places = at[:, None] + span * step
        near_ink = ink[places].view(np.uint8)
        beside[axis] = (near_ink[:, :r] @ ones > 0) | (near_ink[:, r:] @ ones > 0)
        lines[axis] = ruled[places].view(np.uint8) @ both
        # Ink continues a line too (a stroke across it, the next letter).
        along[axis] = lines[axis] + near_ink @ both
    thin = max(1, int(round(_line_thickness(ruling))))
    full = 2 * r - 1  # (one pixel of the line's edge may waver)
    horizontal = (along["x"] >= full) & (lines["y"] <= thin)
    vertical = (along["y"] >= full) & (lines["x"] <= thin)
    keep = np.where(horizontal, beside["y"], np.where(vertical, beside["x"], True))
    out.ravel()[pixels[keep]] = True
    return out


def _off_the_sheet(
    sheet: NDArray[np.bool_] | None, mask: NDArray[np.bool_], *, settings: ReaderSettings
) -> NDArray[np.bool_]:
    """``mask`` without the ink outside the ``sheet`` (the table's texture, the sheet's edge).

    When the sheet is not rectified (cut off by the frame, seen at a steep
    angle) the working image shows the table around it, whose grain and
    streaks would become countries. Ink components that lie (almost) wholly
    outside the sheet's area (``paper_area``) are dropped. A hard shadow
    across the sheet can leave paper out of that area too: the drawing then
    runs across the area's side, and when components crossing it hold
    ``paper_area_crossing`` of the ink outside, nothing is dropped.
    """
    if sheet is None:
        return mask
    keep = _kept_by_sheet(mask, sheet, settings=settings)
    return mask if keep is None else keep


@dataclass(frozen=True)
class _SheetPieces:
    """The components of an ink mask measured against the sheet's area, by label."""

    labels: NDArray[np.integer]
    stats: NDArray[np.integer]
    area: NDArray[np.integer]  # pixels
    inside: NDArray[np.integer]  # pixels on the sheet
    kept: NDArray[np.bool_]  # not (almost) wholly off the sheet (label 0: False)
    most: NDArray[np.floating]  # pixels that make "almost wholly"


def _sheet_pieces(
    mask: NDArray[np.bool_], sheet: NDArray[np.bool_], *, settings: ReaderSettings
) -> _SheetPieces | None:
    """The components of ``mask`` measured against ``sheet``, or None if the sheet is not clear.

    None when components crossing the sheet's side hold ``paper_area_crossing``
    of the ink outside it (a hard shadow left paper out of the sheet's area).
    """
    count, labels, stats, _ = connected_components(mask.astype(np.uint8))
    area = stats[:, cv2.CC_STAT_AREA]
    inside = np.bincount(labels[sheet], minlength=count)
    kept = inside >= settings.paper_area_inside * area
    kept[0] = False
    outside = area - inside
    outside[0] = 0
    most = (1.0 - settings.paper_area_inside) * area  # (almost wholly)
    crossing = kept & (inside <= most)
    if outside[crossing].sum() >= settings.paper_area_crossing * max(1, int(outside.sum())):
        return None
    return _SheetPieces(labels, stats, area, inside, kept, most)


def _kept_by_sheet(
    mask: NDArray[np.bool_], sheet: NDArray[np.bool_], *, settings: ReaderSettings
) -> NDArray[np.bool_] | None:
    """The components of ``mask`` not (almost) wholly off ``sheet``, or None if the sheet
    is not clear (see :func:`_sheet_pieces`).

    With ``paper_area_hull`` also those (almost) wholly within the convex hull
    of the largest component (almost) wholly on the sheet.
    """
    pieces = _sheet_pieces(mask, sheet, settings=settings)
    if pieces is None:
        return None
    labels, stats, area, most = pieces.labels, pieces.stats, pieces.area, pieces.most
    keep = pieces.kept.copy()
    surely = pieces.inside >= most
    surely[0] = False
    if settings.paper_area_hull and surely.any() and not keep[1:].all():
        # The sheet is convex: ink within the convex hull of the largest piece
        # surely on it (the map's network) is on the sheet too, though a shadow
        # across the sheet made its paper too dark for the sheet's area. (The
        # hull lies within the piece's box: drawn and counted there.)
        k = int(np.argmax(np.where(surely, area, 0)))
        x, y, w, h = (int(v) for v in stats[k, :4])
        box = labels[y : y + h, x : x + w]
        outline, _ = cv2.findContours(
            (box == k).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
        )
        hull = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(hull, cv2.convexHull(np.concatenate(outline)), 1)
        within = np.bincount(box[hull.view(bool)], minlength=len(area))
        keep |= within >= most
        keep[0] = False
    return keep.take(labels)  # (take: the same gather, faster than indexing)


def find_ink(image: NDArray[np.uint8], *, settings: ReaderSettings, rectified: bool = False) -> Ink:
    """Find the drawn ink of the working image.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR
        The working image.
    settings : ReaderSettings
    rectified : bool
        Whether the working image is the rectified sheet (no table around it:
        no ink is dropped as lying off the sheet, see ``paper_area_rectified``).

    Returns
    -------
    Ink
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    darkness, paper = paper_darkness(gray, settings=settings)
    # The background around the sheet is no drawing: its edge against the
    # paper would otherwise look like a thick stroke.
    on_paper = paper_mask(gray, paper, settings=settings)
    darkness = np.where(on_paper, darkness, 0.0).astype(np.float32)
    # The table around a sheet the frame cuts off is no paper: its grain
    # would set the ruling's direction, and it is no faint drawing.
    area = paper_area(image, settings=settings) if settings.paper_area_max > 0 else None
    drop = not rectified or settings.paper_area_rectified
    # The print's colour and the red channel's darkness do not depend on the
    # gain: measured once (when first asked for) for both readings. (The
    # ruling search's threads may both ask: the same values either way.)
    colour = functools.cache(lambda: print_colour(image, darkness, settings=settings))
    red = functools.cache(lambda: paper_darkness(image[:, :, 2], settings=settings)[0])

    def read(gain: NDArray[np.float32] | None) -> tuple[Ink, NDArray[np.float32] | None]:
        return _ink_at(
            gray,
            darkness,
            paper,
            area,
            gain,
            colour,
            red,
            settings=settings,
            drop=drop,
            rectified=rectified,
        )

    ink, gain = read(None)
    if gain is not None:
        # Glare or a faint print washes out the drawing with the ruling:
        # read again with the contrast brought up to the ruling's usual one.
        ink, _ = read(gain)
    return ink


def _ruling_contrast_gain(
    darkness: NDArray[np.float32],
    paper: NDArray[np.float32],
    ruling: NDArray[np.bool_],
    *,
    settings: ReaderSettings,
) -> NDArray[np.float32] | None:
    """How much to raise the contrast where glare washes out ruled paper, or None.

    Glare adds light to the paper and to the strokes on it alike: the paper
    there is near white (``ruling_glare_paper``) and brighter than most of
    the sheet (``ruling_glare_ratio``), and the contrast of the ruling and
    of the drawing drops. Printed ruling covers a steady share of a ruled
    sheet, so a high percentile (``ruling_contrast_percentile``) of the
    darkness per tile measures its contrast (the ruling is often not found
    in the glare: the level is not measured on it). In glare tiles the gain
    brings that level back up to its median over the tiles, at most
    ``ruling_contrast_max_gain`` times; None when it would change little
    (``ruling_contrast_min_gain``).
    """
    if settings.ruling_contrast_max_gain <= 1 or int(ruling.sum()) < settings.ruling_colour_pixels:
        return None
    n = settings.ruling_contrast_tiles
    h, w = darkness.shape
    ys = np.linspace(0, h, n + 1).astype(int)
    xs = np.linspace(0, w, n + 1).astype(int)
    level = np.zeros((n, n), dtype=np.float32)
    bright = np.zeros((n, n), dtype=np.float32)
    for i in range(n):
        for j in range(n):
            box = (slice(ys[i], ys[i + 1]), slice(xs[j], xs[j + 1]))
            level[i, j] = np.percentile(darkness[box], settings.ruling_contrast_percentile)
            bright[i, j] = np.median(paper[box])
    glare = bright >= max(
        settings.ruling_glare_paper * 255.0, settings.ruling_glare_ratio * float(np.median(bright))
    )
    gain = np.clip(
        float(np.median(level)) / np.maximum(level, 1e-3), 1.0, settings.ruling_contrast_max_gain
    )
    gain = np.where(glare, gain, 1.0).astype(np.float32)
    if float(gain.max()) < settings.ruling_contrast_min_gain:
        return None
    return cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)


def _faint_on_ruling(
    darkness: NDArray[np.float32],
    mask: NDArray[np.bool_],
    lines: NDArray[np.bool_],
    sheet: NDArray[np.bool_] | None,
    guess: float,
    *,
    settings: ReaderSettings,
) -> NDArray[np.bool_]:
    """The light stretches of a faint drawing on ruled paper (empty when the drawing is not faint).

    Light pencil on ruled paper is hardly darker than the printed lines: where
    it is lighter than ``ink_darkness`` its borders break. When the drawing's
    median darkness (``mask`` off the ruling's ``lines``) is below
    ``ink_faint_ruled_median``, the pixels off the ``lines`` darker than the
    ruling search's level (``ruling_darkness``; or ``ink_faint_ratio`` of
    that median) that join the drawing are added. Printed lines the search
    missed (too light to be ink anywhere) join it too: nothing is added when
    the pixels farther than a line width (``guess``) from the drawing are
    more than ``ink_faint_ruled_gain`` of it, and none of those in pieces
    at least ``ink_faint_ruled_extent`` line widths long.

    Parameters
    ----------
    darkness : (H, W) float32
    mask : (H, W) bool
        The ink found so far, ruling included.
    lines : (H, W) bool
        The ruling's lines (``find_ruling``'s ``lines``, not only their ink).
    sheet : (H, W) bool or None
        The sheet's area (the added pixels are counted on it).
    guess : float
        A first guess of the line width, in pixels.
    settings : ReaderSettings

    Returns
    -------
    (H, W) bool: the pixels to add to ``mask``.
    """
    none = np.zeros_like(mask)
    drawing = mask & ~lines
    if not drawing.any():
        return none
    typical = float(_median(darkness[drawing]))
    if typical >= settings.ink_faint_ruled_median:
        return none
    level = max(settings.ink_faint_ratio * typical, settings.ruling_darkness)
    more = components_holding((darkness > level) & ~lines, drawing) & ~mask
    added, _ = _far_pieces(more, drawing, guess)
    if sheet is not None:
        added &= sheet
    if int(added.sum()) > settings.ink_faint_ruled_gain * int(drawing.sum()):
        return none
    return more & ~_in_long_pieces(added, settings.ink_faint_ruled_extent * guess)


def _parallel_share(
    pieces: NDArray[np.bool_], guess: float, *, min_length: float = 4.0, spread: float = 5.0
) -> float:
    """The share of ``pieces``' pixels in straight pieces running one way.

    Printed ruling too light for the ruling search comes in as straight
    pieces all parallel (two ways on squared paper: the larger counts); a
    drawing's light stretches bend and run every way. A piece is straight
    when it is at least ``min_length`` line widths (``guess``) long and its
    pixels keep within a line width of its axis; one way is within
    ``spread`` degrees.
    """
    count, labels, _, _ = connected_components(pieces.view(np.uint8), stats=False)
    ys, xs = np.nonzero(pieces)
    if count < 2 or len(xs) == 0:
        return 0.0
    lab = labels[ys, xs]
    x = xs.astype(np.float64)
    y = ys.astype(np.float64)
    n = np.bincount(lab, minlength=count).astype(np.float64)
    safe = np.maximum(n, 1.0)
    mx = np.bincount(lab, x, count) / safe
    my = np.bincount(lab, y, count) / safe
    cxx = np.bincount(lab, x * x, count) / safe - mx * mx
    cyy = np.bincount(lab, y * y, count) / safe - my * my
    cxy = np.bincount(lab, x * y, count) / safe - mx * my
    half = np.sqrt(((cxx - cyy) / 2) ** 2 + cxy**2)
    major = (cxx + cyy) / 2 + half
    minor = np.maximum((cxx + cyy) / 2 - half, 0.0)
    # A segment of length L has variance L**2 / 12 along it.
    straight = (major * 12 >= (min_length * guess) ** 2) & (np.sqrt(minor) <= max(guess, 1.0))
    straight[0] = False
    if not straight.any():
        return 0.0
    angle = np.degrees(0.5 * np.arctan2(2 * cxy, cxx - cyy)) % 180.0
    ways = int(round(180.0 / spread))
    bins = np.bincount((angle[straight] // spread).astype(int) % ways, n[straight], ways)
    best = float(np.max(bins + np.roll(bins, 1) + np.roll(bins, -1)))
    return best / float(n[1:].sum())


def _far_pieces(
    more: NDArray[np.bool_], mask: NDArray[np.bool_], guess: float
) -> tuple[NDArray[np.bool_], NDArray[np.uint8]]:
    """The pixels of ``more`` farther than a line width (``guess``) from ``mask``, and
    the disc of that reach (to take back their joins to ``mask``: ``more`` within it)."""
    reach = _disk_kernel(2 * int(round(guess)) + 1)
    near = cv2.dilate(mask.astype(np.uint8), reach).astype(bool)
    return more & ~near, reach


def _glare_stretches(
    darkness: NDArray[np.float32],
    paper: NDArray[np.float32],
    mask: NDArray[np.bool_],
    sheet: NDArray[np.bool_] | None,
    guess: float,
    *,
    settings: ReaderSettings,
) -> NDArray[np.bool_]:
    """The light stretches of the drawing where glare washes the paper out (on a page
    without printed ruling).

    Where the paper is at least ``ink_glare_paper`` bright the camera clips
    it, and the drawing's light stretches with it: whole stretches of a
    border fall below the ink level, while the paper there has hardly any
    grain left (nor printed ruling). There the pixels darker than
    ``ink_glare_darkness`` that join ``mask`` are the
    drawing's: the pieces of them farther than a line width (``guess``)
    from the ink, with their joins to it, are added (not the strokes'
    widening) when they are at most ``ink_glare_gain`` of the ink and not
    mostly parallel straight pieces (more than ``ink_gaps_parallel`` of
    them: printed ruling the search missed).

    Parameters
    ----------
    darkness : (H, W) float32
    paper : (H, W) float32
        The paper's brightness (0..255).
    mask : (H, W) bool
        The ink found so far.
    sheet : (H, W) bool or None
        The sheet's area (glare off it is the table's).
    guess : float
        A first guess of the line width, in pixels.
    settings : ReaderSettings

    Returns
    -------
    (H, W) bool: the pixels to add to ``mask``.
    """
    glare = paper >= settings.ink_glare_paper
    if sheet is not None:
        glare &= sheet
    if not glare.any():
        return np.zeros_like(mask)
    weak = ((darkness > settings.ink_glare_darkness) & glare) | mask
    more = components_holding(weak, mask) & ~mask
    added, reach = _far_pieces(more, mask, guess)
    if (
        int(added.sum()) > settings.ink_glare_gain * int(mask.sum())
        or _parallel_share(added, guess) > settings.ink_gaps_parallel
    ):
        return np.zeros_like(mask)
    return more & cv2.dilate(added.view(np.uint8), reach).view(bool)


# Degrees from an image axis within which a line is opened along the axis itself
# (no turning): the ruling's directions come in half degrees, the turns in steps
# of ``ink_off_ruling_step``.
_ON_AXIS = 0.25


def _opened_along(darkness: NDArray[np.float32], angle: float, n: int) -> NDArray[np.float32]:
    """The grey opening of ``darkness`` by a line ``n`` pixels long running at
    ``angle`` degrees (image axes, y down): the image is turned to bring the
    line onto the x axis, opened, and turned back."""
    a = float(angle) % 180.0
    if min(a, 180.0 - a) < _ON_AXIS:
        return cv2.morphologyEx(darkness, cv2.MORPH_OPEN, np.ones((1, n), np.uint8))
    if abs(a - 90.0) < _ON_AXIS:
        return cv2.morphologyEx(darkness, cv2.MORPH_OPEN, np.ones((n, 1), np.uint8))
    h, w = darkness.shape
    c, s = abs(np.cos(np.radians(a))), abs(np.sin(np.radians(a)))
    bw, bh = int(np.ceil(w * c + h * s)), int(np.ceil(w * s + h * c))
    turn = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), a, 1.0)
    turn[:, 2] += ((bw - w) / 2.0, (bh - h) / 2.0)
    turned = cv2.warpAffine(darkness, turn, (bw, bh), flags=cv2.INTER_LINEAR)
    opened = cv2.morphologyEx(turned, cv2.MORPH_OPEN, np.ones((1, n), np.uint8))
    back = cv2.warpAffine(opened, turn, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return np.asarray(back, dtype=np.float32)


def _off_ruling_stretches(
    darkness: NDArray[np.float32],
    mask: NDArray[np.bool_],
    ruling: NDArray[np.bool_],
    sheet: NDArray[np.bool_] | None,
    guess: float,
    *,
    settings: ReaderSettings,
) -> NDArray[np.bool_]:
    """A drawing's light stretches on rectified ruled paper, seen with the ruling taken off.

    Light pencil on squared paper can be no darker than the printed lines:
    above the ink level it breaks into pieces, or is not seen at all. The
    printed lines run straight over long lengths: the grey opening of the
    darkness by lines along the ``ruling``'s two directions
    (``ink_off_ruling_length`` of the long side; each also turned by up to
    ``ink_off_ruling_spread`` degrees in ``ink_off_ruling_step`` steps, for
    the directions' error and a little perspective) is the ruling's
    darkness, and what is darker than it by ``ink_off_ruling_level`` is
    drawn (where it covers less than ``ink_off_ruling_dense`` of a window
    around it: texture is no drawing).

    Of the pieces of those pixels at least ``ink_off_ruling_extent`` line
    widths (``guess``) long, the pixels farther than a line width from
    ``mask`` are added, with their joins to it (the strokes found do not
    grow wider); but not the pieces of those pixels lying more than
    ``ink_off_ruling_on_lines`` on the printed lines (the ``ruling``, or
    where the opening itself is darker than ``ink_off_ruling_level``) and
    at least ``ink_off_ruling_on_extent`` line widths long (a stretch of a
    line darker than the rest of it; a drawing's crossing of a line is
    shorter).

    Nothing is added when the opening does not model the ruling (more than
    ``ink_off_ruling_left`` of its pixels away from ``mask`` darker than the
    opening by ``ink_off_ruling_left_level``: lines that bend or converge),
    when the pixels to add are more than ``ink_off_ruling_most`` of the
    image (the ruling, not a drawing) or when more than
    ``ink_off_ruling_parallel`` of them lies in straight pieces running one
    way.
    """
    none = np.zeros_like(mask)
    n = max(3, int(round(settings.ink_off_ruling_length * max(darkness.shape))))
    along = np.zeros_like(darkness)
    spread = settings.ink_off_ruling_spread
    turns = np.arange(-spread, spread + 1e-6, settings.ink_off_ruling_step) if spread > 0 else [0.0]
    for gradient in sorted(set(_dominant_angles(darkness, ruling, settings.ruling_max_skew))):
        for turn in turns:
            along = np.maximum(along, _opened_along(darkness, gradient + 90.0 + turn, n))
    left = darkness - along
    alone = ruling & ~cv2.dilate(mask.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
    kept = int((alone & (left > settings.ink_off_ruling_left_level)).sum())
    if kept > settings.ink_off_ruling_left * max(1, int(alone.sum())):
        return none
    # Texture (a table's grain, shading) is dense: no drawing.
    more = sparse_ink(
        left > settings.ink_off_ruling_level, max_density=settings.ink_off_ruling_dense
    )
    if sheet is not None:
        more &= sheet
    long = _in_long_pieces(more, settings.ink_off_ruling_extent * guess)
    pieces, reach = _far_pieces(long, mask, guess)
    # Stretches of printed lines darker than the rest of their line are
    # left too: pieces lying mostly on the lines (the ruling, or where the
    # opening itself is that dark) are no drawing.
    on_line = ruling | (along > settings.ink_off_ruling_level)
    count, labels, stats, _ = connected_components(pieces.view(np.uint8))
    at = labels[pieces]
    size = np.bincount(at, minlength=count)
    lined = np.bincount(at, weights=on_line[pieces], minlength=count)
    drop = (lined > settings.ink_off_ruling_on_lines * size) & (
        _box_length(stats) >= settings.ink_off_ruling_on_extent * guess
    )
    drop[0] = True
    pieces &= ~drop.take(labels)
    if not pieces.any() or int(pieces.sum()) > settings.ink_off_ruling_most * pieces.size:
        return none
    if _parallel_share(pieces, guess) > settings.ink_off_ruling_parallel:
        return none
    return more & cv2.dilate(pieces.view(np.uint8), reach).view(bool)


def _lit_gaps(
    more: NDArray[np.bool_],
    added: NDArray[np.bool_],
    paper: NDArray[np.float32],
    sheet: NDArray[np.bool_] | None,
    guess: float,
    reach: NDArray[np.uint8],
    *,
    settings: ReaderSettings,
) -> NDArray[np.bool_]:
    """The gaps of a drawing that is not faint bridged where the light is strong.

    Of ``added`` (the pixels of the light stretches ``more`` farther than a
    line width from the ink, :func:`_far_pieces`), the pieces where the paper
    is brightly lit (glare, a lit side: at least ``ruling_glare_paper`` bright
    or ``ruling_glare_ratio`` times the ``sheet``'s median ``paper``) and at
    least a line width (``guess``) long (specks bridge nothing), with their
    joins to the ink (``more`` within ``reach`` of them); see
    ``ReaderSettings.ink_faint_gaps_gain``.
    """
    on = paper[sheet] if sheet is not None and sheet.any() else paper
    lit = paper >= min(
        settings.ruling_glare_paper * 255.0,
        settings.ruling_glare_ratio * float(np.median(on)),
    )
    long = _in_long_pieces(added & lit, guess)
    return more & cv2.dilate(long.view(np.uint8), reach).view(bool)


def _lines_darkness(
    darkness: NDArray[np.float32],
    drawing: NDArray[np.bool_],
    guess: float,
    typical: float,
    *,
    settings: ReaderSettings,
) -> float:
    """The typical (median) darkness of the ink of the map's lines in ``drawing``
    (``typical``: the median darkness of all of it).

    Dark writing (ballpoint numbers on a pencil map) lifts the median of all
    the ink: a faint map would not be seen as faint. The lines are the pieces
    longer than writing (``writing_max_extent`` of the long side) that keep
    ``ink_lines_edge`` line widths (``guess``) away from the image's edge
    (the sheet's edges and the table's shadow are long and dark there). When
    they hold less than ``ink_lines_least`` of the ink (no map in the ink),
    or when they are not clearly lighter than all of it (below
    ``ink_lines_lighter`` times ``typical``: writing darker than the map),
    ``typical``. ``ink_lines_least`` 0: ``typical`` always.
    """
    if settings.ink_lines_least <= 0:
        return typical
    h, w = drawing.shape
    _, labels, stats, _ = connected_components(drawing.view(np.uint8))
    long = _box_length(stats) >= settings.writing_max_extent * max(h, w)
    long &= ~touches_edge(stats, (h, w), int(round(settings.ink_lines_edge * guess)))
    long[0] = False
    lines = long.take(labels)
    if int(lines.sum()) < settings.ink_lines_least * int(np.count_nonzero(drawing)):
        return typical
    on_lines = float(_median(darkness[lines]))
    return on_lines if on_lines < settings.ink_lines_lighter * typical else typical


_MARGIN_SEGMENTS = 20  # the longest Hough segments a margin line is looked for along


def _margin_line(
    mask: NDArray[np.bool_],
    raw: NDArray[np.float32],
    red: NDArray[np.float32],
    sheet: NDArray[np.bool_] | None,
    *,
    settings: ReaderSettings,
) -> NDArray[np.bool_] | None:
    """The ink of a printed margin line left by the pink test, or None when there is none.

    The margin line of ruled and Seyes paper is pink, but a thin line loses
    much of its colour to blur and the photo's colour sampling: a
    straight line across the sheet (at least ``margin_line_length`` of the
    image's long side, ink along ``margin_line_cover`` of its course over the
    sheet) whose ink's ratio of red-channel to grey darkness (the lower third
    of it) is below ``margin_line_ratio`` times the ink's median (drawing in
    any pen keeps its own ratio) is that line. Its pixels below
    ``margin_line_pixel`` times the ink's ratio and not ``margin_line_darker``
    times darker than it go, with its faint dashes wholly in its band: strokes
    drawn across it or along it stay.
    """
    h, w = mask.shape
    long_side = max(h, w)
    ratio = cv2.divide(red, raw)  # (0 where ``raw`` is 0: paper, no ink)
    typical = float(_median(ratio[mask]))
    low = mask & (ratio < settings.margin_line_pixel * typical)
    length = settings.margin_line_length * long_side
    if np.count_nonzero(low) < length:
        return None
    # (Hough on the low pixels at half size, where they are a quarter as many,
    # and lengths and votes are halved; the line is then fitted to them at
    # full size.)
    small = cv2.resize(low.view(np.uint8), (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    found = cv2.HoughLinesP(
        small,
        1,
        np.pi / 360,
        threshold=int(0.25 * length),
        minLineLength=int(0.5 * length),
        maxLineGap=int(0.5 * settings.margin_line_gap * long_side),
    )
    if found is None:
        return None
    # (Its course is measured clear of the sheet's edge: two page margins in.)
    inset = max(3, int(round(2 * settings.page_margin * long_side)))
    inside = np.zeros((h, w), dtype=bool)
    inside[inset:-inset, inset:-inset] = True
    if sheet is not None:
        square = np.ones((2 * inset + 1, 2 * inset + 1), np.uint8)
        inside &= cv2.erode(sheet.view(np.uint8), square).view(bool)
    out = np.zeros((h, w), dtype=bool)
    bands = np.zeros((h, w), dtype=bool)
    segs = 2.0 * found.reshape(-1, 4).astype(np.float64) + 0.5
    segs = segs[np.argsort(-np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]))]
    t = np.arange(-2 * long_side, 2 * long_side, dtype=np.float64)
    band_reach = max(2, int(round(settings.margin_line_band * long_side)))

    def course(
        x0: float, y0: float, ux: float, uy: float, r: int
    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_]] | None:
        """The band ``r`` pixels to either side of the line through (x0, y0) along
        (ux, uy), and whether ink lies across it at each step of its course
        over the sheet; None when that course is too short."""
        xs, ys = np.round(x0 + t * ux).astype(int), np.round(y0 + t * uy).astype(int)
        ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        xs, ys = xs[ok], ys[ok]
        on_sheet = inside[ys, xs]
        if np.count_nonzero(on_sheet) < length:
            return None
        hit = np.zeros(len(xs), dtype=bool)
        band = np.zeros((h, w), dtype=bool)
        for o in range(-r, r + 1):
            xo = np.clip(np.round(xs - o * uy).astype(int), 0, w - 1)
            yo = np.clip(np.round(ys + o * ux).astype(int), 0, h - 1)
            hit |= mask[yo, xo]
            band[yo, xo] = True
        return band, hit[on_sheet]

    # (The longest segments first; one line gives many. The line is fitted to
    # the low pixels within half the band and a pixel of Hough's, its course
    # measured within half the band of the fit, and taken off within the
    # whole band: a bent page bends it a little.)
    for x1, y1, x2, y2 in segs[:_MARGIN_SEGMENTS]:
        d = float(np.hypot(x2 - x1, y2 - y1))
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        got = course(x1, y1, ux, uy, band_reach // 2 + 1)
        if got is None or out[got[0]].any():
            continue
        pts = np.argwhere(got[0] & low)[:, ::-1].astype(np.float32)
        if len(pts) < 2:
            continue
        vx, vy, x0, y0 = (float(v) for v in cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel())
        got = course(x0, y0, vx, vy, band_reach // 2)
        if got is None or got[1].mean() < settings.margin_line_cover:
            continue
        got = course(x0, y0, vx, vy, band_reach)
        if got is None:
            continue
        band = got[0]
        # (Its lower third: a border drawn along a stretch of it, whose ink
        # keeps its ratio, is part of what lies in the band.)
        on = ratio[band & mask & inside]
        if len(on) == 0:
            continue
        third = len(on) // 3
        if float(np.partition(on, third)[third]) > settings.margin_line_ratio * typical:
            continue
        # Not the drawing along it: strokes much darker than the line (a
        # border drawn on it mixes its colour with the line's).
        line = band & low & inside
        if not line.any():
            continue
        faint = raw <= settings.margin_line_darker * float(_median(raw[line]))
        out |= band & low & faint
        bands |= band & faint
    if not out.any():
        return None
    # What is left of the line between its low pixels (faint dashes wholly in
    # its band) goes too; strokes that leave the band stay.
    count, labels, _, _ = connected_components((mask & ~out).view(np.uint8))
    outside = np.bincount(labels[mask & ~bands], minlength=count) > 0
    outside[0] = True
    return out | (mask & ~outside.take(labels))


def _ink_at(
    gray: NDArray[np.uint8],
    raw: NDArray[np.float32],
    paper: NDArray[np.float32],
    area: NDArray[np.bool_] | None,
    gain: NDArray[np.float32] | None,
    colour: Callable[[], NDArray[np.float32]],
    red: Callable[[], NDArray[np.float32]],
    *,
    settings: ReaderSettings,
    drop: bool,
    rectified: bool,
) -> tuple[Ink, NDArray[np.float32] | None]:
    """The ink of ``find_ink`` from the darkness ``raw`` raised ``gain`` times (if not None),
    and, for the first reading (``gain`` None), the gain to read again with
    (``_ruling_contrast_gain`` of its ruling; None: this reading is the one kept).

    ``paper``: the paper's brightness (``paper_darkness``), where glare shows.
    ``colour`` and ``red`` return the print's colour (``print_colour`` of the
    photo and ``raw``) and the photo's red channel's darkness (``paper_darkness``).

    ``drop``: whether the ink off the sheet's ``area`` is dropped (the
    area still bounds the ruling search and the faint drawing's gain).
    ``rectified``: whether the image is the rectified sheet (its ruling's
    lines straight and parallel: the off-ruling pass). A reading to be done
    again skips that pass (its mask is not kept; its ruling is set before).
    """
    darkness = raw if gain is None else np.minimum(raw * gain, 1.0)
    weak = darkness > settings.ink_darkness
    strong = darkness > settings.ink_darkness_strong
    # Long faint strokes count too: a first guess of the line width (from the
    # strong ink) scales "long".
    guess, mask = _held_then_long(weak, strong, settings.ink_weak_extent)
    # Look for ruling on a more sensitive threshold: faint printed lines are
    # only partly above the ink threshold, and whole lines are easier to see.
    # (Texture and scribbles, dense in the ordinary mask, stay out.)
    density = ink_density(mask)
    dense = mask & (density >= settings.ruling_max_density)
    faint = ((darkness > settings.ruling_darkness) | mask) & ~dense
    # Ink nearly that dense is searched too (Seyes paper's close lines beside
    # a map's borders) but does not measure the ruling.
    texture = mask & (density >= settings.ruling_texture_density)
    # Only a sheet clearly set off: a shadow can hide part of the paper's area.
    sheet = area
    if sheet is not None and _sheet_pieces(mask, sheet, settings=settings) is None:
        sheet = None
    # The ruling's lines are kept for a faint drawing only. With the ruling,
    # lighter than such a drawing, the ink's median is below the drawing's.
    lines = None
    if (
        settings.ink_faint_ruled_median > 0
        and mask.any()
        and float(_median(darkness[mask])) < settings.ink_faint_ruled_median
    ):
        lines = np.zeros_like(mask)

    @functools.cache
    def inner_colour() -> NDArray[np.float32]:
        # The sheet's edge (the table's colour beside it) makes no grey
        # stretch: its colour is unknown (NaN) there.
        c = colour().copy()
        m = max(1, int(round(settings.page_margin * max(c.shape))))
        c[:m] = c[-m:] = np.nan
        c[:, :m] = c[:, -m:] = np.nan
        return c

    ruling = find_ruling(
        darkness,
        faint,
        settings=settings,
        keep_in=mask,
        texture=texture,
        off_sheet=None if sheet is None else ~sheet,
        lines=lines,
        colour=inner_colour if settings.ruling_grey_length > 0 else None,
    )
    if not ruling.any() and settings.ink_faint_ratio > 0 and mask.any():
        # On plain paper, when the drawing itself is faint (light pencil, low
        # resolution, glare), its strokes' edges and lightest stretches are
        # below the ink level: count ink from a level scaled to the drawing.
        # Whether the drawing is faint is seen on its lines; the level stays a
        # fraction of all its ink (dark writing keeps it above the paper's grain).
        typical = float(np.median(darkness[mask]))
        level = max(settings.ink_faint_ratio * typical, settings.ink_darkness_plain)
        faint_drawing = level < settings.ink_darkness and (
            typical < settings.ink_faint_median
            or _lines_darkness(darkness, mask, guess, typical, settings=settings)
            < settings.ink_faint_median
        )
        # A drawing not faint overall may still be broken where light or
        # glare washes a part of it out: then only its gaps are bridged
        # (unless what bridges them is straight and parallel: unseen ruling).
        if faint_drawing or (level < settings.ink_darkness and settings.ink_faint_gaps_gain > 0):
            weak = darkness > level
            more = components_holding(weak, mask, settings.ink_weak_extent * guess)
            # The drawing's light stretches add a part of it (its strokes
            # also grow wider: that is not counted); much more is something
            # else (unseen ruling, texture).
            added, reach = _far_pieces(more, mask, guess)
            if sheet is not None:
                added &= sheet
            gain = float(added.sum()) / max(1, int(mask.sum()))
            if faint_drawing:
                kept = more if gain <= settings.ink_faint_max_gain else None
            elif (
                added.any()
                and gain <= settings.ink_faint_gaps_gain
                and _parallel_share(added, guess) <= settings.ink_gaps_parallel
            ):
                kept = _lit_gaps(more, added, paper, sheet, guess, reach, settings=settings)
            else:
                kept = None
            if kept is not None:
                # Printed ruling fainter than the ruling search's level would
                # come in with it: then the page is not plain after all.
                below = darkness > level * settings.ink_faint_guard
                lower = below & sparse_ink(below, max_density=settings.ruling_max_density)
                if not find_ruling(darkness, lower, settings=settings).any():
                    mask |= kept
        # Glare washes out the drawing's light stretches below even that
        # level (not on ruled paper: the ruling search misses the ruling's
        # light stretches in the glare as well).
        if level < settings.ink_darkness and settings.ink_glare_gain > 0:
            mask |= _glare_stretches(darkness, paper, mask, sheet, guess, settings=settings)
    if ruling.any() and settings.ruling_colour_min > 0:
        ruling &= ~_grey_on_coloured_ruling(
            colour(), raw, ruling, settings=settings, drawing=mask & ~ruling
        )
    if ruling.any() and lines is not None:
        mask |= _faint_on_ruling(darkness, mask, ruling | lines, sheet, guess, settings=settings)
    if ruling.any():
        mask = mask & ~ruling
        # Specks left where ruling crossed: drop components smaller than a dot.
        count, labels, stats, _ = connected_components(mask.astype(np.uint8))
        small = stats[:, cv2.CC_STAT_AREA] < settings.ruling_speck
        small[0] = False
        mask &= ~small.take(labels)
        # Where a drawn stroke crosses a ruling line (or runs along one) the
        # crossing was erased with the ruling: give back the ruling pixels
        # with the remaining stroke right across the line from them (not the
        # ruling beyond a stroke's side: ticks that close words into countries).
        restored = _crossings(mask, ruling, settings.ruling_restore)
        mask |= restored
        ruling &= ~restored
    again = (
        None if gain is not None else _ruling_contrast_gain(raw, paper, ruling, settings=settings)
    )
    if again is None and ruling.any() and rectified and settings.ink_off_ruling_level > 0:
        mask |= _off_ruling_stretches(darkness, mask, ruling, sheet, guess, settings=settings)
    # The printed margin line of ruled and Seyes paper is pink: nearly as
    # bright as the paper in the red channel. Drawn ink (pencil, blue, black,
    # even red pens) is dark there too.
    before_pink = mask
    mask = mask & (red() >= settings.ink_pink_red * raw)
    if settings.margin_line_ratio > 0 and mask.any():
        # ... but a thin line's colour fades in the photo.
        margin = _margin_line(before_pink, raw, red(), area, settings=settings)
        if margin is not None:
            mask &= ~margin
    if settings.paper_area_max > 0 and mask.any() and drop:
        mask = _off_the_sheet(area, mask, settings=settings)
    line_width = stroke_width(mask)
    return Ink(gray, darkness, mask, ruling, line_width), again
