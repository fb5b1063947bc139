"""Closed countries from the ink: gap closing, writing separation, sea, labels.

:func:`segment` is the whole region stage: page, ink, regions and adjacency.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.errors import MapNotFoundError
from aggression_vision.vision.adjacency import drop_corner_contacts, find_adjacency, grow_labels
from aggression_vision.vision.ink import (
    Ink,
    components_holding,
    connected_components,
    find_ink,
    touches_edge,
)
from aggression_vision.vision.page import extract_page
from aggression_vision.vision.settings import ReaderSettings
from aggression_vision.vision.types import Region, Segmentation


def _disk(diameter: float) -> NDArray[np.uint8]:
    d = max(1, int(round(diameter)))
    if d % 2 == 0:
        d += 1
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


def close_gaps(mask: NDArray[np.bool_], *, gap: float, edge: int = 0) -> NDArray[np.bool_]:
    """Close gaps up to about ``gap`` pixels wide in the strokes of ``mask``.

    Parameters
    ----------
    mask : (H, W) bool
    gap : float
        Widest gap to close, in pixels.
    edge : int
        Pixels along the image's edge where the diagonal steps of what
        closing added are left open (see :func:`_fill_steps`).

    Returns
    -------
    (H, W) bool, a superset of ``mask``.
    """
    if gap < 1:
        return mask.copy()
    closed = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, _disk(gap)).view(bool)
    closed |= mask
    return _fill_steps(closed, mask, edge)


def join_facing_ends(
    closed: NDArray[np.bool_],
    mask: NDArray[np.bool_],
    *,
    line_width: float,
    gap: float,
    min_branch: float,
    cone: float,
    max_thickness: float = np.inf,
    ruling: NDArray[np.bool_] | None = None,
    max_on_ruling: float = 1.0,
) -> NDArray[np.bool_]:
    """Join the loose line ends that closing left open to the ends they face.

    A morphological closing with a disk ``gap`` pixels across joins two
    facing line ends only up to about two thirds of ``gap`` apart: its
    erosion reopens the thin join (and leaves a crack a pixel or two wide,
    too short for :func:`bridge_ends`). Each loose end of the skeleton of
    ``closed`` whose branch is at least ``min_branch`` pixels long is
    followed straight on (and up to ``cone`` degrees aside) out of its ink:
    when the paper crossed before the next ink of ``mask`` is at most
    ``gap`` pixels (measured tip to tip) and that ink holds another such
    loose end (within :data:`END_FACING_LW` line widths of where the ray
    meets it) whose branch is no thicker than ``max_thickness`` pixels (the
    median over its skeleton: a blob of writing that closing welded
    together is not a drawn line), a stroke one line width thick joins
    them. Writing's short strokes and ticks have no such branch; a stroke
    pointing aside of the ink has no ray. An end facing a line, not another end, is left to the
    later bridging: a number's stroke welded to a border points at the next
    border as often as a broken border does (tune 538), and a border ending
    short of a junction joined this early changes which ink the protrusion
    step takes for writing (fresh 020022 read a crossed-out number there).
    A join running along the removed printed ``ruling`` for more than
    ``max_on_ruling`` of its length joins what is left of a ruling line.

    Returns
    -------
    (H, W) bool, a superset of ``closed``.
    """
    h, w = closed.shape
    skeleton, loose, ends = _skeleton_ends(closed)
    if len(ends) == 0:
        return closed
    out = closed.astype(np.uint8)
    walk = int(np.ceil(max(min_branch, GAP_END_WALK_LW * line_width)))
    facing = max(1, int(round(END_FACING_LW * line_width)))
    on_ruling = _ruling_zone(ruling, max_on_ruling)
    thickness = max(1, int(round(line_width)))
    limit = gap + GAP_END_RAY_LW * line_width
    steps = np.arange(0.0, limit, 0.5)
    angles = np.radians(np.linspace(-cone, cone, 7))
    paths = [_branch_from(skeleton, (int(y), int(x)), walk)[0] for y, x in ends]
    # Drawn line ends: not a skeleton spur on a line's bulge, nor a blob.
    half = cv2.distanceTransform(closed.astype(np.uint8), cv2.DIST_L2, 3)
    loose[...] = False
    for (y, x), path in zip(ends, paths, strict=True):
        ys, xs = np.array(path).T
        thick = 2.0 * float(np.median(half[ys, xs]))
        loose[y, x] = len(path) >= min_branch and thick <= max_thickness
    for (y, x), path in zip(ends, paths, strict=True):
        if len(path) < min_branch:
            continue
        d = _end_direction(path, (int(y), int(x)), walk)
        if d is None:
            continue
        own = np.array(path, dtype=np.float64)
        best = None
        for a in angles:
            c, s_ = np.cos(a), np.sin(a)
            dy, dx = c * d[0] - s_ * d[1], s_ * d[0] + c * d[1]
            yy = np.round(y + steps * dy).astype(int)
            xx = np.round(x + steps * dx).astype(int)
            inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
            if not inside.all():
                n = int(np.argmin(inside))
                yy, xx = yy[:n], xx[:n]
            on = mask[yy, xx]
            off = np.flatnonzero(~on)
            if len(off) == 0 or steps[off[0]] > GAP_END_LEAVE_LW * line_width:
                continue  # never leaves its own ink: a blob
            # The next ink not of its own line (a ragged tip's notch is).
            after = off[0] + np.flatnonzero(on[off[0] :])
            apart = GAP_END_OWN_LW * line_width
            j = next(
                (k for k in after if np.hypot(own[:, 0] - yy[k], own[:, 1] - xx[k]).min() > apart),
                None,
            )
            if j is None:
                continue
            if on[off[0] : j].sum() > 0 and steps[j] - steps[off[0]] > gap:
                continue
            run = float((~on[off[0] : j]).sum()) * 0.5
            if run > gap:
                continue
            score = run * (2.0 - float(c))
            if best is None or score < best[0]:
                best = (score, int(yy[j]), int(xx[j]))
        if best is None:
            continue
        ty, tx = best[1], best[2]
        if not _any_near(loose, (ty, tx), facing):
            continue  # it faces a line or a blob, not another line's loose end
        if (
            on_ruling is not None
            and _ruling_share(on_ruling, (int(y), int(x)), (ty, tx)) > max_on_ruling
        ):
            continue
        cv2.line(out, (int(x), int(y)), (tx, ty), 1, thickness)
    return out.astype(bool)


def _fill_steps(closed: NDArray[np.bool_], mask: NDArray[np.bool_], edge: int) -> NDArray[np.bool_]:
    """Fill the diagonal steps of ``closed`` at the pixels it has off ``mask``.

    Closing two tapering line ends can leave a diagonal join one pixel thin,
    which the paper on either side crosses through its diagonal steps
    (countries are 8-connected): a step (two pixels of ``closed`` touching
    only by a corner, one of them added by closing) is filled. Not within
    ``edge`` pixels of the image's edge, where the ink is more often the
    sheet's own edge (a notebook's binding, a shadow) than a border: a pocket
    sealed there changes which pieces of that ink count as border. Works in
    place on ``closed`` (C-contiguous); only the added pixels are looked at.
    """
    h, w = closed.shape
    flat = closed.ravel()
    added = np.flatnonzero(closed > mask)
    y, x = np.divmod(added, w)
    b = max(edge, 1)  # (and the neighbours stay inside the image)
    i = added[(y >= b) & (y < h - b) & (x >= b) & (x < w - b)]
    if len(i) == 0:
        return closed
    # The added pixel as each ink corner of a 2x2 block whose other two
    # pixels are paper; the upper of those is filled.
    fill = [
        i[flat[i + w + 1] & ~flat[i + 1] & ~flat[i + w]] + 1,  # top left, ink falling
        i[flat[i - w - 1] & ~flat[i - w] & ~flat[i - 1]] - w,  # bottom right, falling
        i[flat[i + w - 1] & ~flat[i - 1] & ~flat[i + w]] - 1,  # top right, ink rising
        i[flat[i - w + 1] & ~flat[i - w] & ~flat[i + 1]] - w,  # bottom left, rising
    ]
    flat[np.concatenate(fill)] = True
    return closed


def seal_steps(
    borders: NDArray[np.bool_],
    *,
    min_inradius: float,
    ruling: NDArray[np.bool_] | None = None,
) -> NDArray[np.bool_]:
    """``borders`` with the diagonal steps filled where two wide paper areas meet through them.

    Countries are 8-connected paper: where a faint border comes out one
    pixel thin and diagonal (a staircase of pixels touching by their
    corners), the two countries on either side are one area. Of the
    4-connected paper areas, two that hold a disc of ``min_inradius``
    pixels each and meet only through such a step (a 2x2 block whose ink
    is one diagonal) are kept apart: the upper paper pixel of each such
    block is filled. Between a small area and another (a printed grid
    square closed by a remnant of ruling, a digit's loop) the step stays
    open, as do steps next to the removed printed ``ruling``. (The steps
    closing itself left are filled by :func:`_fill_steps`, the same way.)

    Parameters
    ----------
    borders : (H, W) bool
        The border ink (True), the rest paper.
    min_inradius : float
        Pixels: the disc each of the two paper areas must hold
        (``ReaderSettings.step_seal_inradius`` line widths).
    ruling : (H, W) bool, optional
        The printed ruling taken off the ink; steps within a pixel of it stay open.

    Returns
    -------
    (H, W) bool, a superset of ``borders`` (``borders`` itself when nothing is filled).
    """
    a, b = borders[:-1, :-1], borders[:-1, 1:]
    c, d = borders[1:, :-1], borders[1:, 1:]
    # Falling: ink top left and bottom right, paper at b (filled) and c;
    # rising: ink at b and c, paper at a (filled) and d.
    fall = a & d & ~b & ~c
    rise = b & c & ~a & ~d
    if ruling is not None and ruling.any():
        near = cv2.dilate(ruling.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
        fall &= ~near[:-1, :-1]
        rise &= ~near[:-1, :-1]
    fy, fx = np.nonzero(fall)
    ry, rx = np.nonzero(rise)
    if len(fy) + len(ry) == 0:
        return borders
    free = (~borders).view(np.uint8)
    count, labels, _, _ = connected_components(free, stats=False, connectivity=4)
    # The paper pixels on either side of each step: the upper one is filled.
    fill_y, fill_x = np.concatenate([fy, ry]), np.concatenate([fx + 1, rx])
    one = labels[fill_y, fill_x]
    two = np.concatenate([labels[fy + 1, fx], labels[ry + 1, rx + 1]])
    apart = one != two
    if not apart.any():
        return borders
    dist = cv2.distanceTransform(free, cv2.DIST_L2, 5)
    wide = np.zeros(count, dtype=bool)
    wide[np.unique(labels[dist >= min_inradius])] = True
    seal = apart & wide[one] & wide[two]
    if not seal.any():
        return borders
    out = borders.copy()
    out[fill_y[seal], fill_x[seal]] = True
    return out


def _thinning_tables() -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Zhang-Suen deletion tables of the two sub-iterations, by neighbourhood code."""
    codes = np.arange(256)
    bits = (codes[:, None] >> np.arange(8)) & 1  # P2, P3, ..., P9 (clockwise from north)
    p2, p3, p4, p5, p6, p7, p8, p9 = bits.T
    b = bits.sum(axis=1)
    a = ((bits == 0) & (np.roll(bits, -1, axis=1) == 1)).sum(axis=1)
    base = (b >= 2) & (b <= 6) & (a == 1)
    first = base & (p2 * p4 * p6 == 0) & (p4 * p6 * p8 == 0)
    second = base & (p2 * p4 * p8 == 0) & (p2 * p6 * p8 == 0)
    return first, second


_THINNING = _thinning_tables()
_NEIGHBOUR_CODE = np.array([[128, 1, 2], [64, 0, 4], [32, 16, 8]], dtype=np.float32)


def thin(mask: NDArray[np.bool_], max_iterations: int = 100) -> NDArray[np.bool_]:
    """One-pixel-wide skeleton of ``mask`` (Zhang-Suen thinning).

    Parameters
    ----------
    mask : (H, W) bool
    max_iterations : int

    Returns
    -------
    (H, W) bool, 8-connected lines along the middle of the strokes.
    """
    out = np.zeros(mask.shape, dtype=bool)
    ys = np.nonzero(mask.any(axis=1))[0]
    xs = np.nonzero(mask.any(axis=0))[0]
    if len(ys) == 0:
        return out
    box = np.s_[ys[0] : ys[-1] + 1, xs[0] : xs[-1] + 1]
    out[box] = _thin(mask[box], max_iterations)
    return out


def _thin(mask: NDArray[np.bool_], max_iterations: int) -> NDArray[np.bool_]:
    tables = _THINNING
    img = np.pad(mask, 1).astype(np.uint8)
    flat = img.ravel()
    w = img.shape[1]
    # Only the pixels still set are looked at (a few percent of the page):
    # their neighbourhood codes gathered by flat offsets, in the bit order of
    # _NEIGHBOUR_CODE (N, NE, E, SE, S, SW, W, NW). The padding keeps every
    # offset inside the image. Same result as filtering the whole image.
    offsets = (-w, -w + 1, 1, w + 1, w, w - 1, -1, -w - 1)
    idx = np.flatnonzero(flat)
    for _ in range(max_iterations):
        changed = False
        for table in tables:
            code = np.zeros(len(idx), dtype=np.uint8)
            for bit, off in enumerate(offsets):
                code |= flat[idx + off] << np.uint8(bit)
            delete = table[code]
            if delete.any():
                flat[idx[delete]] = 0
                idx = idx[~delete]
                changed = True
        if not changed:
            break
    return img[1:-1, 1:-1].astype(bool)


def _branch_from(
    skeleton: NDArray[np.bool_], start: tuple[int, int], limit: int
) -> tuple[list[tuple[int, int]], bool]:
    """Walk a skeleton from an end pixel until a junction or ``limit`` steps.

    Returns the pixels walked (the end first) and whether a junction stopped
    the walk.
    """
    h, w = skeleton.shape
    path = [start]
    seen = {start}
    y, x = start
    for _ in range(limit):
        nxt = [
            (y + dy, x + dx)
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if (dy or dx)
            and 0 <= y + dy < h
            and 0 <= x + dx < w
            and skeleton[y + dy, x + dx]
            and (y + dy, x + dx) not in seen
        ]
        if not nxt:
            return path, False
        if len(path) > 1 and _runs_at(skeleton, y, x) >= 3:
            # Three separate runs of skeleton around: a junction, even where
            # the last step already took in a pixel of one of its arms (a
            # tick hanging off a border would walk on along the border).
            return path, True
        if len(nxt) > 1:
            # Two unseen neighbours that touch each other are one path turning
            # a corner; otherwise this is a junction.
            a, b = nxt[0], nxt[-1]
            if len(nxt) > 2 or max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1:
                return path, True
            nxt.sort(key=lambda p: abs(p[0] - y) + abs(p[1] - x))
        # Only the pixel stepped to is seen: past a corner step the line may
        # go on from the other one alone (marked too, the walk stopped there
        # and a slanted line looked like a short spur).
        y, x = nxt[0]
        seen.add((y, x))
        path.append((y, x))
    return path, False


def _runs_at(skeleton: NDArray[np.bool_], y: int, x: int) -> int:
    """Separate runs of skeleton among the 8 neighbours of pixel ``(y, x)``."""
    h, w = skeleton.shape
    code = 0
    for bit, (dy, dx) in enumerate(_CLOCKWISE):
        yy, xx = y + dy, x + dx
        if 0 <= yy < h and 0 <= xx < w and skeleton[yy, xx]:
            code |= 1 << bit
    return int(_RUNS[code])


#: The 8 neighbours in the bit order of :data:`_NEIGHBOUR_CODE` (N, NE, E, SE,
#: S, SW, W, NW).
_CLOCKWISE = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


#: Pixels of the working image around the removed printed ruling that count as
#: on it (the ruling mask's own edge is uncertain by a pixel or two).
RULING_REACH_PX = 2

#: Pixels from a bridge's target to another loose end for :func:`bridge_ends`
#: to take the bridge for one joining two ends (the skeleton's end pixel and
#: the nearest pixel ahead may differ by a step or two).
END_TO_END_PX = 2

#: Line widths from where a loose end's ray meets ink to another loose end for
#: :func:`join_facing_ends` to take the two for ends facing each other (the
#: skeleton's end lies about half a line width inside the ink's tip).
END_FACING_LW = 1.5

#: Line widths :func:`join_facing_ends` walks back at least from a loose end
#: to find its direction and its own line (a ragged tip's notch is no target).
GAP_END_WALK_LW = 6.0

#: Line widths :func:`join_facing_ends`' rays reach beyond ``gap`` (the end's
#: skeleton pixel lies inside its ink, and so does the faced end's).
GAP_END_RAY_LW = 3.0

#: Line widths within which a ray must leave its own ink (else the end is a blob's).
GAP_END_LEAVE_LW = 2.0

#: Line widths ink must lie from the end's own branch to be another line's.
GAP_END_OWN_LW = 1.5

#: Line widths :func:`bridge_ends` walks back at least from a loose end to find
#: the border's direction (``min_branch`` when longer).
BRIDGE_WALK_LW = 4.0

#: Line widths added around that walk and the bridge's reach when a window is
#: cut for :func:`bridge_ends` (:func:`stub_bridges`): its skeleton near the
#: window's edge is not cut short.
BRIDGE_WINDOW_SLACK_LW = 2.0

#: Writing smaller than this many line widths across (and this many squared
#: line widths in area) is a speck, not a number (:func:`stub_bridges`).
WRITING_SPECK_LW = 3.0

#: :func:`welded_strokes` tries straight lines at this many angles over 180
#: degrees, around writing at most ``SEED_MAX_WIDTH`` writing heights wide and
#: at least ``SEED_MIN_HEIGHT`` high (not the rule under a printed heading).
STROKE_ANGLES = 12
SEED_MAX_WIDTH = 4.0
SEED_MIN_HEIGHT = 0.3
#: ... the straight lines it finds are widened by this many pixels (the one-pixel
#: opening lines miss the stroke's ragged edge), and the paper round a piece is
#: weighed in a ring this many pixels wide.
STROKE_LINE_GROW_PX = 1
STROKE_RING_PX = 2
#: :func:`glyph_pockets`' areas go to the country commonest within this many line widths
#: of them (across the ink of the glyph round them).
HOST_REACH_LW = 2.0
#: :func:`writing_height` measures writing components at least this many line
#: widths long and this many square line widths in area (not specks) ...
HEIGHT_MIN_EXTENT_LW = 3.0
HEIGHT_MIN_AREA_LW2 = 4.0
#: ... and is this many line widths on a page with none.
HEIGHT_DEFAULT_LW = 10.0

#: :func:`dividing_pieces` takes a piece of writing at least this many writing
#: heights long for a digit (a small country's number, a voter on the page's turn).
DIGIT_MIN_HEIGHT = 0.5

#: A piece of writing with more loose skeleton ends than this is a scribble or
#: a letter, not a broken-off piece of border (:func:`linked_fragments`).
LINK_MAX_ENDS = 12

#: A hole in a piece of writing no larger than this (square line widths) is a
#: burr's pinhole, not a loop (:func:`chained_fragments`).
PINHOLE_MAX_AREA_LW2 = 2.0


def _near_ruling(ruling: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The pixels within :data:`RULING_REACH_PX` of the removed printed ruling."""
    size = 2 * RULING_REACH_PX + 1
    return cv2.dilate(ruling.astype(np.uint8), np.ones((size, size), np.uint8)) > 0


def _end_direction(
    path: list[tuple[int, int]], end: tuple[int, int], walk: int
) -> NDArray[np.float64] | None:
    """The unit direction a line leaves its loose ``end`` in, from the skeleton
    pixel ``walk`` steps back along ``path`` (its last when shorter); None when
    that is less than a pixel away."""
    back = path[min(len(path) - 1, walk)]
    d = np.array([end[0] - back[0], end[1] - back[1]], dtype=np.float64)
    norm = float(np.hypot(*d))
    if norm < 1:
        return None
    return d / norm


def _ruling_share(
    on_ruling: NDArray[np.bool_], start: tuple[int, int], stop: tuple[int, int]
) -> float:
    """The share of the straight stroke from ``start`` to ``stop`` (a pixel a
    step, both ends included) that lies on ``on_ruling``."""
    (y, x), (ty, tx) = start, stop
    f = np.linspace(0.0, 1.0, max(2, int(np.hypot(ty - y, tx - x))))
    yy = np.round(y + f * (ty - y)).astype(int)
    xx = np.round(x + f * (tx - x)).astype(int)
    return float(on_ruling[yy, xx].mean())


def _ruling_zone(
    ruling: NDArray[np.bool_] | None, max_on_ruling: float
) -> NDArray[np.bool_] | None:
    """:func:`_near_ruling` of ``ruling`` when joins along it are limited
    (``max_on_ruling`` below 1 and some ruling removed), else None."""
    if ruling is None or not ruling.any() or max_on_ruling >= 1.0:
        return None
    return _near_ruling(ruling)


def _any_near(mask: NDArray[np.bool_], at: tuple[int, int], r: int) -> bool:
    """Whether ``mask`` holds a pixel within ``r`` pixels (a square) of ``at``."""
    y, x = at
    return bool(mask[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1].any())


def _skeleton_ends(
    mask: NDArray[np.bool_],
) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.intp]]:
    """The skeleton of ``mask``, its loose ends (:func:`_loose_ends`) and their
    (y, x) positions."""
    skeleton = thin(mask)
    loose = _loose_ends(skeleton)
    return skeleton, loose, np.argwhere(loose)


def _loose_ends(skeleton: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Skeleton pixels with exactly one skeleton neighbour: where a line stops."""
    count = cv2.filter2D(
        skeleton.astype(np.uint8), -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT
    )
    return skeleton & (count == 2)


def bridge_ends(
    borders: NDArray[np.bool_],
    *,
    line_width: float,
    reach: float,
    min_branch: float,
    cone: float,
    min_thickness: float = 0.0,
    max_thickness: float = np.inf,
    min_length: float = 0.0,
    ruling: NDArray[np.bool_] | None = None,
    max_on_ruling: float = 1.0,
    far: NDArray[np.bool_] | None = None,
    far_reach: float = 0.0,
    end_to_end_thickness: float = np.inf,
) -> NDArray[np.bool_]:
    """Continue every loose end of the border network to the ink it points at.

    Every border of a map ends at another border; a line that stops short
    (a faint pencil stretch, a stretch erased with a printed ruling line it
    ran along) leaves a loose end. Each end longer than ``min_branch`` (a
    tick or skeleton spur is shorter) is joined by a straight stroke to the
    nearest border pixel within ``reach`` that lies ahead of it (within
    ``cone`` degrees of its direction), when that pixel is not on its own
    line.

    Parameters
    ----------
    borders : (H, W) bool
    line_width : float
        Pixels.
    reach, min_branch : float
        Pixels.
    cone : float
        Degrees.
    min_thickness : float
        Pixels: thinner lines (what is left of printed ruling) are not continued ...
    max_thickness : float
        ... nor thicker bands (shadows, the sheet's edge).
    ruling : (H, W) bool, optional
        Printed ruling removed from the ink.
    max_on_ruling : float
        A bridge running along removed ruling for more than this fraction of
        its length is the ruling's own line, left over, not a drawn border ...
    end_to_end_thickness : float
        Pixels: ... unless it joins two loose ends and the line it continues
        is at least this thick: a border drawn along a printed line, a
        stretch of it erased with the line (infinite: never).
    min_length : float
        Pixels: shorter gaps are gap closing's (a closing that left them open
        saw two lines that do not meet, such as a ruling line's remnant).
    far : (H, W) bool, optional
        Loose ends on these pixels are continued up to ``far_reach`` pixels
        instead (when it is longer than ``reach``).
    far_reach : float
        Pixels.

    Returns
    -------
    (H, W) bool, a superset of ``borders``.
    """
    h, w = borders.shape
    skeleton, loose, ends = _skeleton_ends(borders)
    if len(ends) == 0:
        return borders
    # Half the stroke's thickness at each skeleton pixel.
    half = cv2.distanceTransform(borders.astype(np.uint8), cv2.DIST_L2, 3)
    out = borders.astype(np.uint8)
    on_ruling = _ruling_zone(ruling, max_on_ruling)
    cos_cone = float(np.cos(np.radians(cone)))
    walk = int(np.ceil(max(min_branch, BRIDGE_WALK_LW * line_width)))
    thickness = max(1, int(round(line_width)))
    near_reach = reach
    for y, x in ends:
        reach = near_reach
        if far is not None and far[y, x]:
            reach = max(near_reach, far_reach)
        r = int(np.ceil(reach))
        path, junction = _branch_from(skeleton, (int(y), int(x)), int(np.ceil(reach + walk)))
        if len(path) < min_branch:
            continue  # a spur of the skeleton or a tick
        ys, xs = np.array(path).T
        thick = 2.0 * float(np.median(half[ys, xs]))
        if not min_thickness <= thick <= max_thickness:
            # A thin line is what is left of a printed ruling line; a thick
            # band is a shadow or the edge of the sheet, not a drawn line.
            continue
        d = _end_direction(path, (int(y), int(x)), walk)
        if d is None:
            continue
        y0, y1 = max(0, y - r), min(h, y + r + 1)
        x0, x1 = max(0, x - r), min(w, x + r + 1)
        win = skeleton[y0:y1, x0:x1].copy()
        # Not back onto its own line: the pixels walked (and their neighbours).
        for py, px in path:
            if y0 <= py < y1 and x0 <= px < x1:
                win[max(0, py - y0 - 1) : py - y0 + 2, max(0, px - x0 - 1) : px - x0 + 2] = False
        cand = np.argwhere(win)
        if len(cand) == 0:
            continue
        v = cand + np.array([y0 - y, x0 - x])
        dist = np.hypot(v[:, 0], v[:, 1])
        cos = (v @ d) / np.maximum(dist, 1e-6)
        ok = (dist <= reach) & (dist >= min_length) & (cos >= cos_cone)
        if not ok.any():
            continue
        # The nearest, favouring the straight continuation.
        score = np.where(ok, dist * (2.0 - cos), np.inf)
        ty, tx = cand[int(np.argmin(score))] + np.array([y0, x0])
        if 2.0 * float(half[ty, tx]) < min_thickness:
            continue  # pointing at a thin line: printed ruling
        # A stroke across other ink on its way is no continuation of this
        # line (the ink crossed was a part of its own line, left out above).
        length = float(np.hypot(ty - y, tx - x))
        t = np.arange(2.5 * line_width, length - 2.5 * line_width, 1.0) / max(length, 1.0)
        if (
            len(t)
            and borders[
                np.round(y + t * (ty - y)).astype(int), np.round(x + t * (tx - x)).astype(int)
            ].any()
        ):
            continue
        if (
            on_ruling is not None
            and _ruling_share(on_ruling, (int(y), int(x)), (int(ty), int(tx))) > max_on_ruling
            and not (
                thick >= end_to_end_thickness
                and _any_near(loose, (int(ty), int(tx)), END_TO_END_PX)
            )
        ):
            continue
        cv2.line(out, (int(x), int(y)), (int(tx), int(ty)), 1, thickness)
    return out.astype(bool)


def _crossing_table() -> NDArray[np.int32]:
    """Number of separate runs of skeleton among the 8 neighbours, by neighbourhood code."""
    codes = np.arange(256)
    bits = (codes[:, None] >> np.arange(8)) & 1
    return ((bits == 0) & (np.roll(bits, -1, axis=1) == 1)).sum(axis=1).astype(np.int32)


_RUNS = _crossing_table()


def _junctions(skeleton: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The pixels of ``skeleton`` with three or more separate runs of skeleton among
    their 8 neighbours (``_RUNS`` of their neighbourhood code, looked up at the
    skeleton's pixels only: the same as filtering the whole image)."""
    h, w = skeleton.shape
    img = np.pad(skeleton, 1).view(np.uint8)
    flat = img.ravel()
    stride = w + 2
    # (The bit order of _NEIGHBOUR_CODE: N, NE, E, SE, S, SW, W, NW.)
    offsets = (-stride, -stride + 1, 1, stride + 1, stride, stride - 1, -1, -stride - 1)
    at = np.flatnonzero(skeleton)
    ys, xs = np.divmod(at, w)
    idx = (ys + 1) * stride + xs + 1
    code = np.zeros(len(idx), dtype=np.uint8)
    for bit, off in enumerate(offsets):
        code |= flat[idx + off] << np.uint8(bit)
    out = np.zeros(h * w, dtype=bool)
    out[at[_RUNS[code] >= 3]] = True
    return out.reshape(h, w)


def _curled_in(
    borders: NDArray[np.bool_],
    *,
    line_width: float,
    max_extent: float,
    min_length: float,
    min_ratio: float,
    keep: float,
    min_hole: float = 0.0,
) -> NDArray[np.bool_]:
    """One pass of :func:`curled_branches` on a window of the borders."""
    skeleton = thin(borders)
    ends = _loose_ends(skeleton)
    # Three separate runs of neighbours. (Two strokes crossing may leave no
    # such pixel: their branch then reaches two junctions and is kept.)
    junctions = _junctions(skeleton)
    near_junction = cv2.dilate(junctions.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    branches = skeleton & ~near_junction
    count, labels, stats, _ = connected_components(branches.astype(np.uint8))
    if count <= 1:
        return np.zeros_like(borders)
    # Candidate branches: one loose end, attached to the network at one
    # junction, writing-sized and long enough to be a stroke, not a spur.
    has_end = np.zeros(count, dtype=bool)
    has_end[labels[ends & branches]] = True
    # (16-bit labels when they fit: their dilation, the largest label around, is
    # the same as in float32 and cheaper.)
    _, j_labels, _, _ = connected_components(near_junction.astype(np.uint8), stats=False)
    if j_labels.dtype != np.uint16:
        j_labels = j_labels.astype(np.float32)
    attach = cv2.dilate(near_junction.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    grown = cv2.dilate(j_labels, np.ones((3, 3), np.uint8)).astype(np.int32)
    touching = attach & branches & (grown > 0)
    pairs = np.unique(np.stack([labels[touching], grown[touching]]), axis=1)
    attached = np.bincount(pairs[0], minlength=count) == 1
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    area = stats[:, cv2.CC_STAT_AREA]
    ok = has_end & attached & (extent <= max_extent) & (area >= min_length)
    ok[0] = False
    h, w = borders.shape
    x0, y0 = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1, y1 = x0 + stats[:, cv2.CC_STAT_WIDTH], y0 + stats[:, cv2.CC_STAT_HEIGHT]
    ok &= (x0 > 0) & (y0 > 0) & (x1 < w) & (y1 < h)  # cut by the window's edge
    half = cv2.distanceTransform(borders.astype(np.uint8), cv2.DIST_L2, 3)
    draw = np.zeros((h, w), np.uint8)
    for k in np.nonzero(ok)[0]:
        box = np.s_[y0[k] : y1[k], x0[k] : x1[k]]
        mine = labels[box] == k
        pts = np.argwhere(mine) + np.array([y0[k], x0[k]])
        end = np.argwhere(mine & ends[box]) + np.array([y0[k], x0[k]])
        tip = np.argwhere(mine & attach[box]) + np.array([y0[k], x0[k]])
        if len(end) != 1 or len(tip) == 0:
            continue
        # The branch's length against the
        # straight distance from its loose end to where it is attached: a
        # border runs fairly straight, a digit welded to it curls.
        # (Its pixel count: a diagonal stretch counts short, never long.)
        length = float(len(pts))
        chord = float(np.hypot(*(tip.mean(axis=0) - end[0])))
        if length < min_ratio * max(chord, line_width):
            continue
        if min_hole > 0 and _wraps_country(pts, end[0], tip.mean(axis=0), min_hole):
            continue
        # Take the branch off, short of where it meets the border it hangs on.
        far = np.hypot(*(pts - tip.mean(axis=0)).T) > keep
        for py, px in pts[far]:
            cv2.circle(draw, (int(px), int(py)), int(np.ceil(half[py, px])) + 1, 1, -1)
    return draw.astype(bool) & borders


def _wraps_country(
    pts: NDArray[np.int64],
    end: NDArray[np.int64],
    tip: NDArray[np.float64],
    min_hole: float,
) -> bool:
    """Whether skeleton pixels ``pts``, closed by the chord from ``end`` to
    ``tip``, enclose paper with an inscribed radius of at least ``min_hole``
    pixels: a border that runs around a country and stops short of closing
    it, not a digit curled on itself (whose loops are smaller)."""
    lo = pts.min(axis=0) - 2
    size = pts.max(axis=0) - lo + 3
    if min(size) < 2 * min_hole + 2:
        return False
    canvas = np.zeros((int(size[0]), int(size[1])), np.uint8)
    canvas[pts[:, 0] - lo[0], pts[:, 1] - lo[1]] = 1
    a = (int(end[1] - lo[1]), int(end[0] - lo[0]))
    b = (int(round(tip[1] - lo[1])), int(round(tip[0] - lo[0])))
    cv2.line(canvas, a, b, 1, 1)
    # The paper outside is reached from the canvas' corner (a 2-pixel margin).
    outside = canvas.copy()
    cv2.floodFill(outside, None, (0, 0), 2)
    holes = (outside == 0).astype(np.uint8)
    if not holes.any():
        return False
    return float(cv2.distanceTransform(holes, cv2.DIST_L2, 3).max()) >= min_hole


def curled_branches(
    borders: NDArray[np.bool_],
    *,
    line_width: float,
    max_extent: float,
    min_length: float,
    min_ratio: float,
    keep: float,
    min_hole: float = 0.0,
    passes: int = 2,
) -> NDArray[np.bool_]:
    """Writing welded to a border at one point: curled branches with a loose end.

    A digit that touches a border hangs off the border network by one end (or
    by a stroke); when gap closing then ties its other end to a border too, it
    separates its country in two, and both halves look like countries. A real
    border's loose end (a line stopping short) runs fairly straight back to
    the junction it starts from; a digit's curls: its branch is writing-sized
    and much longer than the straight distance from its end to where it is
    attached. A digit with a junction of its own (the middle of a 3) loses
    one branch per pass.

    Parameters
    ----------
    borders : (H, W) bool
        The border network before gap closing.
    line_width : float
        Pixels.
    max_extent : float
        Pixels: a longer branch is a border.
    min_length : float
        Pixels: a shorter branch is a spur of the skeleton or a tick.
    min_ratio : float
        A branch at least this many times longer than its end's straight
        distance to the junction is curled.
    keep : float
        Pixels: the stretch of a curled branch next to its junction that stays
        border (the line it hangs on is not nicked).
    min_hole : float
        Pixels: a branch that, closed by the straight line from its loose end
        to where it is attached, encloses paper of at least this inscribed
        radius runs around a country (a border broken by a gap), and stays
        border. 0 turns the test off.
    passes : int

    Returns
    -------
    (H, W) bool, the border pixels that are writing.
    """
    h, w = borders.shape
    out = np.zeros_like(borders)
    found = _curled_in(
        borders,
        line_width=line_width,
        max_extent=max_extent,
        min_length=min_length,
        min_ratio=min_ratio,
        keep=keep,
        min_hole=min_hole,
    )
    for _ in range(passes - 1):
        if not found.any():
            break
        out |= found
        # Later passes look only around what was just taken off.
        n, _, stats, _ = connected_components(found.astype(np.uint8))
        found = np.zeros_like(borders)
        m = int(np.ceil(max_extent))
        for x, y, cw, ch, _ in stats[1:]:
            win = np.s_[max(0, y - m) : min(h, y + ch + m), max(0, x - m) : min(w, x + cw + m)]
            found[win] |= _curled_in(
                borders[win] & ~out[win],
                line_width=line_width,
                max_extent=max_extent,
                min_length=min_length,
                min_ratio=min_ratio,
                keep=keep,
                min_hole=min_hole,
            )
    return out | found


_Pockets = tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float32], NDArray]


def _pockets(free: NDArray[np.bool_]) -> _Pockets:
    """Connected paper areas: stats, inscribed radii, centroids."""
    # 8-connectivity: paper areas joined only through the diagonal step of a
    # one-pixel-thin line are one area (such lines are faint ruling more
    # often than closed borders, which gap closing has thickened); the steps
    # between two areas wide enough to be countries are filled before the
    # countries are labelled (:func:`seal_steps`).
    free8 = free.view(np.uint8)
    count, labels, stats, centroids = connected_components(free8)
    labels = labels.astype(np.int32, copy=False)
    dist = cv2.distanceTransform(free8, cv2.DIST_L2, 5)
    # An area's largest distance lies at a pixel no nearer to the ink than its
    # 8 neighbours (of the same area, or ink at distance 0): only those count.
    peaks = np.flatnonzero(dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
    inradius = np.zeros(count, dtype=np.float32)
    np.maximum.at(inradius, labels.ravel()[peaks], dist.ravel()[peaks])
    return count, labels, stats, inradius, centroids


def _like_writing(
    colour: NDArray[np.uint8],
    piece: NDArray[np.bool_],
    prose: NDArray[np.bool_],
    border: NDArray[np.bool_],
    min_contrast: float,
    ratio: float = 0.5,
) -> bool:
    """Whether ``piece`` has the hue of the writing ``prose`` beside it rather
    than that of the ``border`` ink around (a number's underline in the
    writing's pen, on a map drawn with another): at least ``min_contrast``
    from the borders' and at most ``ratio`` times that from the writing's.
    Only the mean colours' chroma counts (each less its grey level): a thin
    or faint stroke of the same pen is lighter, not of another hue."""
    if not prose.any() or not border.any():
        return False

    def chroma(where: NDArray[np.bool_]) -> NDArray[np.float64]:
        c = colour[where].mean(axis=0)
        return c - c.mean()

    mine = chroma(piece)
    to_prose = float(np.linalg.norm(mine - chroma(prose)))
    to_border = float(np.linalg.norm(mine - chroma(border)))
    return to_border >= min_contrast and to_prose <= ratio * to_border


def split_writing(
    ink: NDArray[np.bool_],
    *,
    line_width: float,
    settings: ReaderSettings,
    ruling: NDArray[np.bool_] | None = None,
    colour: NDArray[np.uint8] | None = None,
    rings: NDArray[np.bool_] | None = None,
    page_ink: Ink | None = None,
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
    ruling : (H, W) bool, optional
        Printed ruling removed from the ink: a straight piece along it is
        what is left of a ruling line, not a piece of border.
    colour : (H, W, 3) uint8, optional
        The working image: a straight piece with writing beside it (within
        ``link_beside`` line widths) that has the writing's colour rather
        than the borders' is an underline, and stays writing.
    rings : (H, W) bool, optional
        Filled in place with the rings around a country's number found (see
        ``ReaderSettings.enclave_ring_inradius``); the components holding a
        ring marked there before are borders (a later call, on the ink with
        gaps closed: closing may fill a small ring's hole).
    page_ink : Ink, optional
        The page's ink: a small component around a country-sized hole that
        is bare paper (:func:`_bare_hole`) but too small for a country written
        in (see ``ReaderSettings.empty_loop_inradius``) is a digit's or a
        letter's loop (the 0 of a 10, a D written large with a thin pen), not
        an island country. None: every such component is a country.

    Returns
    -------
    borders, writing : (H, W) bool each
    """
    h, w = ink.shape
    count, labels, stats, _ = connected_components(ink.astype(np.uint8))
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    small = extent < settings.writing_max_extent * max(h, w)
    small[0] = False
    if not small.any():
        return ink.copy(), np.zeros_like(ink)
    if rings is not None and rings.any():
        # Rings found before (see below) stay borders once gap closing has
        # filled their holes.
        held = np.zeros(count, dtype=bool)
        held[labels[rings]] = True
        held[0] = False
        small &= ~held
    # A small component that encloses a country-sized hole is a little island
    # country, not writing: fill each small component's holes and measure them.
    candidates = np.nonzero(small)[0]
    text_h = 0.0
    if page_ink is not None:
        # (The writing's typical size: the median extent of the small components
        # longer than a speck; a digit's loop is no bigger than a digit.)
        sizes = extent[candidates]
        sizes = sizes[sizes >= 2 * line_width]
        text_h = float(np.median(sizes)) if sizes.size else 0.0
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
                if (
                    page_ink is not None
                    and d.max() < settings.empty_loop_inradius * line_width
                    and max(cw, ch) <= settings.empty_loop_size * text_h
                    and _bare_hole(
                        page_ink, sub.view(bool), holes[1:-1, 1:-1], (x, y), line_width, settings
                    )
                ):
                    continue  # (the loop of a 0 or a D: see ``empty_loop_inradius``)
                small[k] = False
            elif settings.enclave_ring_inradius > 0:
                # A ring around a country's number (an enclave drawn small, the
                # number touching it): its hole holds the number, but the ring
                # with its hole is much wider than any loop of a digit.
                # (``holes`` keeps the padding's frame clear: the distances are
                # to the ring's outside.)
                fill = np.pad(sub, 1).astype(bool) | holes
                df = cv2.distanceTransform(fill.view(np.uint8), cv2.DIST_L2, 5)
                wide = df.max() >= settings.enclave_ring_inradius * min_r
                hollow = int(holes.sum()) >= settings.enclave_ring_hole * int(fill.sum())
                if wide and hollow:
                    small[k] = False
                    if rings is not None:
                        rings[y : y + ch, x : x + cw] |= sub.view(bool)
    if settings.fragment_min_extent > 0:
        # A long, straight and thin piece is a stretch of border cut off by
        # gaps on both sides (faint pencil), not writing: a number's strokes
        # bend, and an underline that stays a border sticks out into its
        # country and is taken off later (protrusions). So is a single
        # stroke that bends but runs longer than a number is wide.
        area = stats[:, cv2.CC_STAT_AREA]
        line = (
            small
            & (extent >= settings.fragment_min_extent * line_width)
            & (area <= settings.fragment_max_fill * extent * line_width)
        )
        # (Long enough, a piece needs no measure of its width.)
        bent = line & (settings.fragment_bent_extent > 0)
        bent &= extent >= settings.fragment_bent_extent * line_width
        near_ruling = None
        if ruling is not None and line.any() and ruling.any():
            near_ruling = _near_ruling(ruling)
        # Writing (not line-like) beside the piece, in the piece's colour
        # and not the borders': an underline, not a piece of border.
        prose = small & ~line
        reach = int(np.ceil(settings.link_beside * line_width))
        for k in np.nonzero(line)[0]:
            x, y, cw, ch = stats[k, :4]
            mine = labels[y : y + ch, x : x + cw] == k
            if reach > 0 and colour is not None:
                y0, x0 = max(0, y - reach), max(0, x - reach)
                around = labels[y0 : y + ch + reach, x0 : x + cw + reach]
                near = prose[around]
                if near.any():
                    me = np.ones(around.shape, np.uint8)
                    me[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw][mine] = 0
                    d = cv2.distanceTransform(me, cv2.DIST_L2, 3)
                    win = colour[y0 : y + ch + reach, x0 : x + cw + reach]
                    if _like_writing(
                        win,
                        me == 0,
                        near & (d <= reach),
                        ~small[around] & (around > 0),
                        settings.link_beside_contrast,
                    ):
                        continue
            if (
                near_ruling is not None
                and near_ruling[y : y + ch, x : x + cw][mine].mean() > settings.bridge_max_on_ruling
            ):
                continue
            if bent[k]:
                small[k] = False
                continue
            pts = np.argwhere(mine)
            (_, _), (rw, rh), _ = cv2.minAreaRect(pts[:, ::-1].astype(np.float32))
            if min(rw, rh) <= settings.fragment_max_width * line_width:
                small[k] = False
    writing = small.take(labels)  # (take: the same gather, faster than indexing)
    return ink & ~writing, writing


def _bare_hole(
    ink: Ink,
    mine: NDArray[np.bool_],
    hole: NDArray[np.bool_],
    corner: tuple[int, int],
    line_width: float,
    settings: ReaderSettings,
) -> bool:
    """Whether ``hole`` inside the loop ``mine`` (both masks of the loop's box, its
    top-left ``corner`` x, y in the image) is bare paper: no pixel of ``ink.mask`` a
    line width in from the loop, and its darkness (90th percentile) at most
    ``empty_loop_darkness`` above that of the paper around the loop (one to three line
    widths out): light writing shows, printed ruling is on both sides."""
    x, y = corner
    ch, cw = hole.shape
    r = max(1, int(round(line_width)))
    inner = cv2.erode(hole.view(np.uint8), np.ones((2 * r + 1, 2 * r + 1), np.uint8)).view(bool)
    if not inner.any() or ink.mask[y : y + ch, x : x + cw][inner].any():
        return False
    # The loop is its own outline: no stroke of it runs inside (a ring with its
    # number welded to it from within, an enclave).
    outline = np.pad((mine | hole).view(np.uint8), 1)
    depth = cv2.distanceTransform(outline, cv2.DIST_L2, 3)[1:-1, 1:-1]
    if depth[mine].max() > settings.empty_loop_depth * line_width:
        return False
    h, w = ink.mask.shape
    m = 3 * r + 1
    x0, y0, x1, y1 = max(0, x - m), max(0, y - m), min(w, x + cw + m), min(h, y + ch + m)
    fill = np.zeros((y1 - y0, x1 - x0), np.uint8)
    fill[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw] = outline[1:-1, 1:-1]
    near = cv2.dilate(fill, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    far = cv2.dilate(fill, np.ones((6 * r + 1, 6 * r + 1), np.uint8))
    around = (far > near) & ~ink.mask[y0:y1, x0:x1]
    if not around.any():
        return False
    dark = ink.darkness[y0:y1, x0:x1]
    inside = ink.darkness[y : y + ch, x : x + cw][inner]
    return bool(
        np.percentile(inside, 90) <= np.percentile(dark[around], 90) + settings.empty_loop_darkness
    )


def linked_fragments(
    borders: NDArray[np.bool_],
    writing: NDArray[np.bool_],
    *,
    line_width: float,
    min_length: float,
    min_straightness: float,
    max_fill: float,
    reach: float,
    ruling: NDArray[np.bool_] | None = None,
    max_on_ruling: float = 1.0,
    rounds: int = 2,
    beside: float = 0.0,
    colour: NDArray[np.uint8] | None = None,
    contrast: float = 0.0,
    short_length: float = 0.0,
    short_reach: float = 0.0,
) -> NDArray[np.bool_]:
    """Writing pieces that continue the border network at both of their ends.

    A faint border broken by gaps leaves pieces too short for the border
    network, taken for writing by :func:`split_writing` before gap closing
    (which closes the borders only), and the countries on either side merge.
    A piece at least ``min_length`` long and line-like (its area at most
    ``max_fill`` times its skeleton's length times the line width, its two
    farthest skeleton ends at least ``min_straightness`` of that length
    apart) whose two ends both lie within ``reach`` of border ink is border.
    Pieces taken count as border for the next round (a chain of pieces).

    Parameters
    ----------
    borders, writing : (H, W) bool
        The first split of the ink.
    line_width : float
        Pixels.
    min_length, reach : float
        Pixels.
    min_straightness, max_fill : float
    ruling : (H, W) bool, optional
        Printed ruling removed from the ink: a piece mostly along it (more
        than ``max_on_ruling``) is what is left of a ruling line.
    max_on_ruling : float
    rounds : int
    beside : float
        Pixels: a piece with other writing this close to it, away from both
        its ends, ...
    colour : (H, W, 3) uint8, optional
        ... that has that writing's hue rather than the borders' (their
        chroma at least ``contrast`` BGR levels apart) is an underline, not
        border.
        Without the working image no piece is taken for one.
    contrast : float
    short_length, short_reach : float
        Pixels: a piece shorter than ``min_length`` but at least
        ``short_length`` long (a dash of a border drawn in dashes, a stretch
        between two gaps) is border when both its ends lie within
        ``short_reach`` of border ink. ``short_length`` 0 turns it off.

    Returns
    -------
    (H, W) bool, the pieces of ``writing`` that are border.
    """
    out = np.zeros_like(writing)
    h, w = writing.shape
    count, labels, stats, _ = connected_components(writing.astype(np.uint8))
    if count <= 1:
        return out
    beside = int(np.ceil(beside))
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    area = stats[:, cv2.CC_STAT_AREA]
    # Both tests below bound the area: the ends' distance is at most the
    # box's diagonal, the skeleton at most that over min_straightness.
    diagonal = np.hypot(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    shortest = short_length if 0 < short_length < min_length else min_length
    cand = (extent >= shortest) & (
        area <= max_fill * diagonal / max(min_straightness, 1e-3) * line_width
    )
    cand[0] = False
    if not cand.any():
        return out
    near_ruling = None
    if ruling is not None and ruling.any() and max_on_ruling < 1.0:
        near_ruling = _near_ruling(ruling)
    todo = list(np.nonzero(cand)[0])
    for _ in range(rounds):
        dist = cv2.distanceTransform((~(borders | out)).astype(np.uint8), cv2.DIST_L2, 5)
        left: list[int] = []
        taken: list[int] = []
        for k in todo:
            x, y, cw, ch = (int(v) for v in stats[k, :4])
            mine = labels[y : y + ch, x : x + cw] == k
            near = reach if extent[k] >= min_length else short_reach
            if (
                near_ruling is not None
                and near_ruling[y : y + ch, x : x + cw][mine].mean() > max_on_ruling
            ):
                continue
            if dist[y : y + ch, x : x + cw][mine].min() > near:
                left.append(k)
                continue
            # (A short piece's round caps, thinned away, weigh more.)
            caps = line_width if extent[k] < min_length else 0.0
            line = _far_ends(mine, int(area[k]), line_width, max_fill, min_straightness, caps)
            if line is None:
                continue
            ends = line[0]
            a = dist[y + ends[0][0], x + ends[0][1]]
            b = dist[y + ends[1][0], x + ends[1][1]]
            if max(a, b) <= near and beside > 0 and colour is not None:
                # Other writing alongside the piece, away from both its ends
                # (where the next piece of a broken border would lie), in the
                # piece's colour and not the borders': an underline.
                y0, x0 = max(0, y - beside), max(0, x - beside)
                y1, x1 = min(h, y + ch + beside), min(w, x + cw + beside)
                other = writing[y0:y1, x0:x1] & (labels[y0:y1, x0:x1] != k)
                if other.any():
                    me = np.ones((y1 - y0, x1 - x0), np.uint8)
                    me[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw][mine] = 0
                    tips = np.ones_like(me)
                    for ey, ex in ends:
                        tips[y - y0 + ey, x - x0 + ex] = 0
                    by_piece = cv2.distanceTransform(me, cv2.DIST_L2, 3)
                    by_tips = cv2.distanceTransform(tips, cv2.DIST_L2, 3)
                    side = other & (by_piece <= beside) & (by_tips > beside)
                    if _like_writing(
                        colour[y0:y1, x0:x1], me == 0, side, borders[y0:y1, x0:x1], contrast
                    ):
                        continue
            if max(a, b) <= near:
                out[y : y + ch, x : x + cw] |= mine
                taken.append(k)
            else:
                left.append(k)
        # Only pieces near one just taken can pass the next round (the
        # distances elsewhere are the same).
        todo = _near_boxes(stats, left, taken, max(reach, short_reach) + 1)
        if not todo:
            break
    return out


def chained_fragments(
    borders: NDArray[np.bool_],
    writing: NDArray[np.bool_],
    *,
    line_width: float,
    min_length: float,
    max_fill: float,
    reach: float,
    min_span: float,
    max_chain_fill: float = np.inf,
    ruling: NDArray[np.bool_] | None = None,
    max_on_ruling: float = 1.0,
) -> NDArray[np.bool_]:
    """Writing pieces that together run from border to border: a faint
    border broken at several places.

    Light pencil breaks a border into a chain of pieces, each too short or
    too crooked for :func:`linked_fragments` (whose ends must lie at border
    ink, not at the next piece). Pieces at least ``min_length`` long (their
    box), thin (area at most ``max_fill`` times the skeleton's length times
    the line width) and without a loop, within ``reach`` of each other, form
    a chain; a chain of two or more pieces, at least ``min_span`` long (its
    box), that comes within ``reach`` of border ink at two places at least
    ``min_span`` apart is border, unless its pieces' area is more than
    ``max_chain_fill`` times its length (its box) times the line width. A
    number (its digits side by side, an underline below) spans less than
    that, or is more ink for its length.

    Parameters
    ----------
    borders, writing : (H, W) bool
    line_width, min_length, reach, min_span : float
        Pixels.
    max_fill, max_chain_fill : float
    ruling : (H, W) bool, optional
        Printed ruling removed from the ink: a piece mostly along it (more
        than ``max_on_ruling``) is no link.
    max_on_ruling : float

    Returns
    -------
    (H, W) bool, the pieces of ``writing`` that are border.

    Examples
    --------
    >>> b = np.zeros((40, 100), bool)
    >>> b[:, :3] = b[:, -3:] = True
    >>> dashes = np.zeros_like(b)
    >>> for x0 in (7, 37, 67):  # three pieces of 26 pixels, 4 apart
    ...     dashes[19:21, x0 : x0 + 26] = True
    >>> opts = dict(line_width=2.0, min_length=18.0, max_fill=1.3, reach=6.0, min_span=60.0)
    >>> int(chained_fragments(b, dashes, **opts).sum())
    156
    >>> dashes[19:21, 67:] = False  # the chain stops short of the right border
    >>> int(chained_fragments(b, dashes, **opts).sum())
    0
    """
    out = np.zeros_like(writing)
    count, labels, stats, _ = connected_components(writing.astype(np.uint8))
    if count <= 1:
        return out
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    cand = extent >= min_length
    cand[0] = False
    if not cand.any():
        return out
    disk = _disk(2 * max(1, int(round(reach / 2))) + 1)

    def long_chains() -> tuple[NDArray[np.int32], NDArray[np.int32], list[int]]:
        grown = cv2.dilate(cand.take(labels).view(np.uint8), disk)
        _, chains, cst, _ = connected_components(grown)
        length = np.maximum(cst[:, cv2.CC_STAT_WIDTH], cst[:, cv2.CC_STAT_HEIGHT])
        return chains, cst, [c for c in np.flatnonzero(length >= min_span) if c > 0]

    chains, cst, found = long_chains()
    if not found:
        return out
    # The pieces of the chains long enough: thin and loop-free, off the ruling
    # (measured only there: most pieces are digits in short chains).
    near_ruling = _ruling_zone(ruling, max_on_ruling)
    in_long = np.zeros(count, dtype=bool)
    for c in found:
        x, y, cw, ch = (int(v) for v in cst[c, :4])
        in_long[labels[y : y + ch, x : x + cw][chains[y : y + ch, x : x + cw] == c]] = True
    dropped = False
    for k in np.flatnonzero(in_long & cand):
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        mine = labels[y : y + ch, x : x + cw] == k
        if not _thin_tree(mine, int(stats[k, cv2.CC_STAT_AREA]), line_width, max_fill) or (
            near_ruling is not None
            and near_ruling[y : y + ch, x : x + cw][mine].mean() > max_on_ruling
        ):
            cand[k] = False
            dropped = True
    if dropped:
        chains, cst, found = long_chains()
    pieces = cand.take(labels)
    m = int(np.ceil(reach)) + 1
    for c in found:
        x, y, cw, ch = (int(v) for v in cst[c, :4])
        length = max(cw, ch)
        mine = (chains[y : y + ch, x : x + cw] == c) & pieces[y : y + ch, x : x + cw]
        if np.count_nonzero(mine) > max_chain_fill * length * line_width:
            continue  # (a number with its underline, written across a narrow country)
        if len(np.unique(labels[y : y + ch, x : x + cw][mine])) < 2:
            continue  # (one piece alone: linked_fragments' and split_writing's to judge)
        # (Border ink farther than ``reach`` outside the box does not count.)
        x0, y0, x1, y1 = _box_around(cst[c], m, borders.shape)
        near = ~borders[y0:y1, x0:x1]
        dist = cv2.distanceTransform(near.view(np.uint8), cv2.DIST_L2, 5)
        at = np.argwhere(mine & (dist[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw] <= reach))
        if len(at) < 2:
            continue
        # (The two touches farthest apart: along the box's diagonals.)
        s, d = at.sum(axis=1), at[:, 0] - at[:, 1]
        span = max(
            float(np.hypot(*(at[np.argmax(s)] - at[np.argmin(s)]))),
            float(np.hypot(*(at[np.argmax(d)] - at[np.argmin(d)]))),
        )
        if span >= min_span:
            out[y : y + ch, x : x + cw] |= mine
    return out


def _thin_tree(mine: NDArray[np.bool_], area: int, line_width: float, max_fill: float) -> bool:
    """Whether the piece ``mine`` is thin (its ``area`` at most ``max_fill``
    times its skeleton's length times the line width) and has no loop (a
    burr's pinhole is none) (:func:`chained_fragments`)."""
    sub = np.pad(mine, 1)
    n, lab, st, _ = cv2.connectedComponentsWithStats((~sub).view(np.uint8), connectivity=4)
    holes = [i for i in range(1, n) if i != lab[0, 0]]
    if holes and max(st[i, cv2.CC_STAT_AREA] for i in holes) > PINHOLE_MAX_AREA_LW2 * line_width**2:
        return False
    return area <= max_fill * float(np.count_nonzero(thin(sub))) * line_width


def lone_dashes(
    dashes: NDArray[np.bool_],
    writing: NDArray[np.bool_],
    borders: NDArray[np.bool_],
    *,
    line_width: float,
    max_width: float,
    min_fill: float,
    clear: float,
    reach: float,
    cone: float,
) -> NDArray[np.bool_]:
    """The pieces of ``dashes`` that look like a stretch of border pen in a
    gap of the ``borders``.

    A piece is kept when it is straight (its least rectangle at most
    ``max_width`` pixels wide), as thick as the borders (its area at least
    ``min_fill`` times its length times ``line_width``), farther than
    ``clear`` pixels from all ``writing`` (an underline or a stroke broken
    off a digit lies along other writing) and in line with the borders: at
    both of its ends border ink lies within ``reach`` pixels and ``cone``
    degrees of its axis (a '1' beside a digit welded to a border has the
    border ink at its side).

    Parameters
    ----------
    dashes, writing, borders : (H, W) bool
    line_width, max_width, clear, reach : float
        Pixels.
    min_fill, cone : float

    Returns
    -------
    (H, W) bool, a subset of ``dashes``.

    Examples
    --------
    >>> dash = np.zeros((20, 30), bool)
    >>> dash[9:11, 5:15] = True
    >>> gap = np.zeros_like(dash)
    >>> gap[9:11, :3] = gap[9:11, 17:] = True
    >>> opts = dict(line_width=2.0, max_width=3.0, min_fill=0.75, clear=4.0, reach=5.0, cone=30.0)
    >>> int(lone_dashes(dash, np.zeros_like(dash), gap, **opts).sum())
    20
    >>> near = np.zeros_like(dash)
    >>> near[13, 5:15] = True
    >>> int(lone_dashes(dash, near, gap, **opts).sum())
    0
    >>> side = np.zeros_like(dash)
    >>> side[13:15, :20] = True
    >>> int(lone_dashes(dash, np.zeros_like(dash), side, **opts).sum())
    0
    """
    out = np.zeros_like(dashes)
    count, labels, stats, _ = connected_components(dashes.view(np.uint8))
    if count <= 1:
        return out
    margin = int(np.ceil(clear))
    for k in range(1, count):
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        mine = labels[y : y + ch, x : x + cw] == k
        pts = np.argwhere(mine)[:, ::-1].astype(np.float32)
        (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
        if min(rw, rh) > max_width or len(pts) < min_fill * max(rw, rh) * line_width:
            continue
        y0, x0 = max(0, y - margin), max(0, x - margin)
        around = writing[y0 : y + ch + margin, x0 : x + cw + margin]
        if around.any():
            me = np.ones(around.shape, np.uint8)
            me[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw][mine] = 0
            if (cv2.distanceTransform(me, cv2.DIST_L2, 3)[around] <= clear).any():
                continue
        if _in_line(pts[:, ::-1] + (y, x), borders, reach=reach, cone=cone):
            out[y : y + ch, x : x + cw] |= mine
    return out


def _in_line(pts: NDArray, borders: NDArray[np.bool_], *, reach: float, cone: float) -> bool:
    """Whether ``borders`` has ink within ``reach`` pixels and ``cone``
    degrees of the main axis of the pixels ``pts`` (y, x), beyond both of
    its ends (:func:`lone_dashes`)."""
    p = pts.astype(np.float64)
    centre = p.mean(axis=0)
    _, vectors = np.linalg.eigh(np.cov((p - centre).T))
    axis = vectors[:, -1]
    t = (p - centre) @ axis
    r = int(np.ceil(reach))
    for end, out in ((p[np.argmin(t)], -axis), (p[np.argmax(t)], axis)):
        y0, x0 = max(0, int(end[0]) - r), max(0, int(end[1]) - r)
        ink = np.argwhere(borders[y0 : int(end[0]) + r + 1, x0 : int(end[1]) + r + 1]) + (y0, x0)
        if not _in_cone(ink, end, out, reach, cone)[0].any():
            return False
    return True


def _in_cone(
    pts: NDArray[np.int64],
    point: NDArray[np.float64] | NDArray[np.int64],
    direction: NDArray[np.float64],
    reach: float,
    cone: float,
) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Which of the pixels ``pts`` (y, x) lie within ``reach`` pixels of
    ``point`` (at least one) and ``cone`` degrees of the unit vector
    ``direction`` from it, and their distances to it (:func:`_in_line`,
    :func:`_aim_at`)."""
    v = (pts - point).astype(np.float64)
    dist = np.hypot(v[:, 0], v[:, 1])
    cos = (v @ direction) / np.maximum(dist, 1e-9)
    return (dist <= reach) & (dist >= 1.0) & (cos >= np.cos(np.radians(cone))), dist


def _near_boxes(
    stats: NDArray[np.int32], pieces: list[int], of: list[int], margin: float
) -> list[int]:
    """The ``pieces`` whose bounding box comes within ``margin`` of that of one of ``of``."""
    if not pieces or not of:
        return []
    a = stats[pieces, :4].astype(np.float64)
    b = stats[of, :4].astype(np.float64)
    apart_x = np.maximum(
        b[None, :, 0] - (a[:, None, 0] + a[:, None, 2]),
        a[:, None, 0] - (b[None, :, 0] + b[None, :, 2]),
    )
    apart_y = np.maximum(
        b[None, :, 1] - (a[:, None, 1] + a[:, None, 3]),
        a[:, None, 1] - (b[None, :, 1] + b[None, :, 3]),
    )
    near = ((apart_x <= margin) & (apart_y <= margin)).any(axis=1)
    return [k for k, n in zip(pieces, near, strict=True) if n]


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
    inradius: NDArray[np.float32]


def _frames(
    pockets: NDArray[np.int32],
    stats: NDArray[np.int32],
    centroids: NDArray[np.float64],
    is_country: NDArray[np.bool_],
    min_enclosed: int,
) -> list[int]:
    """Paper areas that enclose at least ``min_enclosed`` other countries.

    A country may hold an enclave, but an area around several countries is
    the margin of the sheet (its edge closed by the table or a shadow) or a
    frame drawn around the map: sea.
    """
    ids = np.nonzero(is_country)[0]
    if len(ids) <= min_enclosed:
        return []
    inner = centroids[ids]
    frames = []
    for k in ids:
        x, y, w, h = (int(v) for v in stats[k, :4])
        # Only an area whose box holds enough other countries' centres can enclose them.
        inside = (
            (inner[:, 0] > x) & (inner[:, 0] < x + w) & (inner[:, 1] > y) & (inner[:, 1] < y + h)
        )
        if inside.sum() - 1 < min_enclosed:
            continue
        sub = (pockets[y : y + h, x : x + w] == k).astype(np.uint8)
        contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        enclosed = sum(
            cv2.pointPolygonTest(outline, (float(cx - x), float(cy - y)), False) > 0
            and pockets[int(cy), int(cx)] != k
            for (cx, cy), j in zip(inner, ids, strict=True)
            if j != k
        )
        if enclosed >= min_enclosed:
            frames.append(int(k))
    return frames


def _countries(
    borders: NDArray[np.bool_],
    *,
    line_width: float,
    settings: ReaderSettings,
    min_inradius: float | None = None,
    measured: _Pockets | None = None,
) -> _Found:
    """Label the countries enclosed by ``borders``, numbered in reading order.

    A country is a paper area (8-connected) that does not touch the edge of
    the working image (that is the sea) and that is big enough to hold a
    number: an inscribed disc and an area scaled to the line width.
    ``measured``: the paper areas of ``~borders`` when already measured
    (:func:`_drop_small_bridged`).
    """
    h, w = borders.shape
    lw = line_width
    free = ~borders
    count, pockets, stats, inradius, cents = measured or _pockets(free)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    sea = touches_edge(stats, (h, w), margin=1)
    is_country = (
        (inradius >= (min_inradius or settings.country_min_inradius) * lw)
        & (area >= settings.country_min_area * lw * lw)
        & ~sea
    )
    is_country[0] = False  # label 0 is the border ink itself
    sea[0] = False
    frames = _frames(pockets, stats, cents, is_country, settings.frame_min_enclosed)
    is_country[frames] = False
    sea[frames] = True
    ids = np.nonzero(is_country)[0]
    heights = [float(stats[k, cv2.CC_STAT_HEIGHT]) for k in ids]
    centroids = [(float(cents[k, 0]), float(cents[k, 1])) for k in ids]
    order = _reading_order(centroids, heights)
    lookup = np.zeros(count, dtype=np.int32)
    for new, i in enumerate(order, start=1):
        lookup[ids[i]] = new
    labels = lookup.take(pockets)  # (take: the same gather, faster than indexing)
    # Countries grow across border ink and thin slivers (between the strokes
    # of a double border), never into the sea or into wide paper areas that
    # are not countries (they would make their neighbours meet).
    wide = (inradius >= settings.barrier_inradius * lw) & ~is_country
    wide[0] = False
    # Both masks from one gather: bit 0 the sea, bit 1 the barrier. Label 0
    # (the border ink, the only pixels off ``free``) is in neither.
    code = sea.astype(np.uint8) | ((sea | wide).astype(np.uint8) << 1)
    code = code.take(pockets)
    barrier = code >= 2
    sea_mask = (code & 1).view(bool)
    return _Found(
        count, pockets, stats, labels, barrier, sea_mask, ids, order, centroids, area, inradius
    )


def glyph_pockets(
    found: _Found, writing: NDArray[np.bool_], *, min_area: float
) -> NDArray[np.bool_]:
    """The countries of ``found`` too small for the page's writing and empty.

    A letter or digit welded to a border (an O, a D, the 0 of a 10) closes its
    inside into a paper area that passes the country tests (an inscribed disc
    and an area scaled to the line width); a country is drawn to hold a
    number. A country with an area under ``min_area`` pixels (the squared
    writing height times ``country_min_text_area``) and no pixel of
    ``writing`` inside is not one.

    Parameters
    ----------
    found : _Found
    writing : (H, W) bool
    min_area : float
        Pixels.

    Returns
    -------
    (H, W) bool: the paper of those areas (taken as border by the country test
    that follows, then given to the country around each: :func:`_give_to_hosts`).
    """
    small = np.zeros(found.count, dtype=bool)
    small[found.ids] = found.area[found.ids] < min_area
    if not small.any():
        return np.zeros_like(writing)
    held = np.bincount(found.pockets[writing], minlength=found.count) > 0
    small &= ~held
    return small.take(found.pockets)


def _give_to_hosts(labels: NDArray[np.int32], pieces: NDArray[np.bool_], *, reach: int) -> None:
    """Label each piece of ``pieces`` (in place) as the country commonest within ``reach``
    pixels around it (the country its ink lies in)."""
    count, comps, stats, _ = connected_components(pieces.view(np.uint8))
    h, w = labels.shape
    disc = _disk(2 * reach + 1)
    for k in range(1, count):
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        win = np.s_[
            max(0, y - reach) : min(h, y + ch + reach), max(0, x - reach) : min(w, x + cw + reach)
        ]
        piece = comps[win] == k
        ring = cv2.dilate(piece.view(np.uint8), disc).view(bool) & ~piece
        labels[win][piece] = _majority_label(labels[win], ring)


def _edge_labels(labels: NDArray[np.int32]) -> NDArray[np.int32]:
    """The labels found within a pixel of the image's edge: the sea, as in
    :func:`_countries` (``touches_edge`` with margin 1)."""
    return np.concatenate(
        [labels[:2].ravel(), labels[-2:].ravel(), labels[:, :2].ravel(), labels[:, -2:].ravel()]
    )


def swallowed_countries(
    raw_borders: NDArray[np.bool_],
    countries: NDArray[np.int32],
    sea: NDArray[np.bool_],
    *,
    min_inradius: float,
    min_area: float,
    hull: float = 0.0,
    hull_area: float = 0.0,
    min_share: float = 0.0,
) -> NDArray[np.bool_]:
    """Paper areas that held a country before gap closing and hold none after.

    Gap closing fills the narrow spaces between the strokes of a big digit and
    the border it touches; a country packed with such writing breaks into
    pockets too small to be countries, and is lost (its neighbours then take
    its borders for writing). A paper area of the borders before closing that
    holds a disc of ``min_inradius`` and ``min_area`` pixels but no country
    after closing, and is not sea, is such a country: closing is undone there.

    Parameters
    ----------
    raw_borders : (H, W) bool
        The border network before gap closing.
    countries : (H, W) int32
        Countries found after closing (0 elsewhere).
    sea : (H, W) bool
        Paper found to be sea after closing.
    min_inradius : float
        Pixels.
    min_area : float
        Square pixels.
    hull : float
        Pixels: a paper area too thin for the disc that holds it once closed
        with a disc this wide (over the strokes of a digit welded to its
        border) and ``hull_area`` pixels is swallowed too, digit included,
        when at least ``min_share`` of the paper within ``hull`` pixels
        around it is ``countries``'. 0 turns that test off.
    hull_area, min_share : float
        Square pixels; a share of 0..1.

    Returns
    -------
    (H, W) bool, the paper of the swallowed countries (before closing), with
    the digits' ink that the closed rings cover (the caller gives that ink to
    the writing).
    """
    free = (~raw_borders).astype(np.uint8)
    h, w = free.shape
    none = np.zeros((h, w), dtype=bool)
    dist = cv2.distanceTransform(free, cv2.DIST_L2, 5)
    found = (countries > 0) | sea
    # Most photos have no room for a country outside those found: stop early.
    seeds = (dist >= min_inradius) & ~found
    if not seeds.any() and hull <= 0:
        return none
    count, pockets, stats, _ = connected_components(free)
    big = np.zeros(count, dtype=bool)
    big[np.unique(pockets[seeds])] = True
    area = stats[:, cv2.CC_STAT_AREA]
    big &= area >= min_area
    edge = _edge_labels(pockets)
    big[edge] = False
    big[0] = False
    # bincount rather than unique: no sort of a million labels.
    empty = np.bincount(pockets[found], minlength=count) == 0
    big &= empty
    out = big.take(pockets)
    if hull <= 0:
        return out
    # A digit welded to a border of a small country leaves it a ring of
    # paper too thin for the disc: the paper closed over the digit (its
    # strokes have the area's paper on both sides) holds it. Only among
    # countries: words welded to a box on a sheet of diagrams leave such
    # rings too, with the sea and other rings of the words around.
    # Candidates: boxes wide enough for the disc, and at least half of the
    # hull's area in the ring's own paper (the digit's strokes cover the rest).
    wide = np.minimum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) >= 2 * min_inradius
    ring = wide & empty & ~big & (area >= hull_area / 2)
    ring[edge] = False
    ring[0] = False
    disk, around = _disk(hull), _disk(2 * hull)
    m = 2 * int(np.ceil(hull))
    for k in np.nonzero(ring)[0]:
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        y0, x0, y1, x1 = max(0, y - m), max(0, x - m), min(h, y + ch + m), min(w, x + cw + m)
        mine = (pockets[y0:y1, x0:x1] == k).view(np.uint8)
        held = cv2.morphologyEx(mine, cv2.MORPH_CLOSE, disk)
        if int(held.sum()) < hull_area:
            continue
        if cv2.distanceTransform(held, cv2.DIST_L2, 5).max() < min_inradius:
            continue
        band = cv2.dilate(held, around).view(bool) & ~held.view(bool) & ~raw_borders[y0:y1, x0:x1]
        if band.any() and (countries[y0:y1, x0:x1][band] > 0).mean() >= min_share:
            out[y0:y1, x0:x1] |= held.view(bool)
    return out


def cut_pockets(
    raw_borders: NDArray[np.bool_],
    pockets: NDArray[np.int32],
    inradius: NDArray[np.float32],
    *,
    min_inradius: float,
    max_inradius: float,
) -> NDArray[np.bool_]:
    """Paper areas that gap closing cut into two slivers.

    A straight pen stroke (a '1') welded to a border by its foot, its top a
    little short of the border across, is tied to that border by gap closing
    and cuts its country in two slivers, each narrower than the writing that
    cut it. A real gap (a line stopping short of the one it meets) is closed
    between countries with room for their numbers, or between a narrow
    country and a wider one. (Undoing every closing that leaves a narrow
    country, whatever its neighbours, merged real narrow countries on the
    synthetic photos.)

    Parameters
    ----------
    raw_borders : (H, W) bool
        The border network before gap closing.
    pockets : (H, W) int32
        The paper areas after closing (8-connected labels, 0 on the borders).
    inradius : (count,) float
        Inscribed radius of each paper area after closing, pixels.
    min_inradius : float
        Pixels: smaller paper areas after closing are not countries (the sea
        and other wide areas count as wide countries).
    max_inradius : float
        Pixels: a paper area before closing that closing splits into exactly
        two countries, both with a smaller inscribed radius, was cut.

    Returns
    -------
    (H, W) bool, the paper of the cut areas (before closing).
    """
    n1 = len(inradius)
    is_country = inradius >= min_inradius
    is_country[0] = False
    thin_ = is_country & (inradius < max_inradius)
    none = np.zeros(raw_borders.shape, dtype=bool)
    if not thin_.any():
        return none
    count, before = cv2.connectedComponents((~raw_borders).astype(np.uint8), connectivity=8)
    # Which paper areas before closing hold which countries after (the
    # second writing split can take ink off, so a country may lie in two).
    # Every other pixel is enough: a country holds a disc of a few pixels.
    after, held_by = pockets[::2, ::2], before[::2, ::2]
    pick = is_country[after] & (held_by > 0)
    key = held_by[pick].astype(np.int64) * n1 + after[pick]
    if count * n1 <= 1 << 26:
        key = np.nonzero(np.bincount(key, minlength=count * n1))[0]
    else:
        key = np.unique(key)
    holder, held = key // n1, key % n1
    parts = np.bincount(holder, minlength=count)
    wide = np.zeros(count, dtype=bool)
    wide[holder[~thin_[held]]] = True
    cut = (parts == 2) & ~wide
    cut[0] = False
    cut[_edge_labels(before)] = False
    return cut[before]


def _number_reader(least: int = 1) -> Callable[[NDArray[np.float32]], float] | None:
    """The digit network's probability that a darkness crop reads as a number
    ``least``..100; None when the model is absent."""
    from aggression_vision.vision import digits

    try:
        net = digits.load_net()
    except digits.ModelNotFoundError:
        return None

    def read(crop: NDArray[np.float32]) -> float:
        return digits.number_mass(net, crop, least=least)

    return read


def _long_pieces(stats: NDArray[np.int32], length: float) -> NDArray[np.intp]:
    """The labels (background left out) of the components whose box's longer side
    (``stats``: ``connected_components``') is at least ``length``."""
    tall = np.flatnonzero(
        np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) >= length
    )
    return tall[tall > 0]


def _writing_turn(
    comps: NDArray[np.int32],
    cstats: NDArray[np.int32],
    tall: NDArray[np.intp],
    darkness: NDArray[np.float32],
    judge: Callable[[NDArray[np.float32]], float],
    count: int,
) -> int:
    """The quarter turns (counter-clockwise) under which the ``count`` largest of the
    clusters ``tall`` of writing (labels of ``comps``) read as numbers best."""
    pick = tall[np.argsort(-cstats[tall, cv2.CC_STAT_AREA], kind="stable")[:count]]
    score = np.zeros(4)
    for k in pick:
        crop = _piece_darkness(int(k), comps, cstats, darkness)
        for t in range(4):
            score[t] += _turned_word(crop, judge, t)
    return int(np.argmax(score))


def welded_splits(
    raw_borders: NDArray[np.bool_],
    borders: NDArray[np.bool_],
    pockets: NDArray[np.int32],
    inradius: NDArray[np.float32],
    writing: NDArray[np.bool_],
    *,
    min_inradius: float,
    max_extent: float,
    reach: float,
    clean_height: float,
    line_length: float,
    min_stroke: float,
    min_bend: float,
    min_thickness: float,
    max_part: float = np.inf,
    darkness: NDArray[np.float32] | None = None,
    judge: Callable[[NDArray[np.float32]], float] | None = None,
    min_posterior: float = 0.0,
    turn_clusters: int = 8,
) -> NDArray[np.bool_]:
    """Paper areas that gap closing cut in two along a welded number.

    A number welded to a border by one end hangs into its country; when its
    other end comes within the closing gap of another border, closing ties
    it there and the number, now border, cuts the country in two (neither
    part holds a number: the number is the cut). A real gap (a border
    stopping short of the one it meets) is closed along the whole border
    between two countries, most often longer than a number, and most often
    between countries that hold their own numbers.

    Parameters
    ----------
    raw_borders : (H, W) bool
        The border network before gap closing.
    borders : (H, W) bool
        The border network after closing.
    pockets : (H, W) int32
        The paper areas after closing (8-connected labels, 0 on the borders).
    inradius : (count,) float
        Inscribed radius of each paper area after closing, pixels.
    writing : (H, W) bool
        The writing found so far.
    min_inradius : float
        Pixels: smaller paper areas after closing are not countries.
    max_extent : float
        Pixels: a paper area before closing that closing splits into exactly
        two countries, neither holding writing ``clean_height`` pixels high
        or higher, is cut when the border ink within ``reach`` pixels of both
        spans at most this many pixels (its box's longer side).
    reach : float
        Pixels.
    clean_height : float
        Pixels (the longer side of the writing's box: numbers turn).
    line_length : float
        Pixels: ... and when the ink drawn there (before closing) holds a
        piece that no straight line this long fits in ...
    min_stroke, min_bend : float
        Pixels: ... whose biggest piece's least rotated box is at least
        ``min_stroke`` long and ``min_bend`` wide: a straight piece is a
        stretch of border, a number's strokes bend.
    min_thickness : float
        Pixels: ... and at least this thick on average (its area over its
        skeleton's length).
    darkness : (H, W) float32, optional
        Ink darkness (0 paper, towards 1 ink) of the working image.
    judge : callable, optional
        The digit reader: the probability that a darkness crop (everything
        but its ink blanked) reads as a number. With ``darkness``: ... and
        the bent ink between the two parts (the ink left when the straight
        lines are taken out) reads as a number with at least
        ``min_posterior``, turned as the page's writing (shape alone cannot
        tell a welded '7' from a bent stub of border).
    min_posterior : float
    turn_clusters : int
        The ink is read turned as the page's writing: the quarter turn under
        which the largest this many clusters of writing read as numbers best.

    Returns
    -------
    (H, W) bool, the paper of the cut areas (before closing).
    """
    h, w = raw_borders.shape
    n1 = len(inradius)
    is_country = inradius >= min_inradius
    is_country[0] = False
    out = np.zeros((h, w), dtype=bool)
    count, before, bstats, _ = connected_components((~raw_borders).view(np.uint8))
    after, held_by = pockets[::2, ::2], before[::2, ::2]
    pick = is_country[after] & (held_by > 0)
    key = np.unique(held_by[pick].astype(np.int64) * n1 + after[pick])
    holder, held = key // n1, key % n1
    parts = np.bincount(holder, minlength=count)
    two = parts == 2
    two[0] = False
    two[_edge_labels(before)] = False
    if not two.any():
        return out
    # Countries that hold writing of a number's height.
    _, comps, cstats, _ = connected_components(writing.view(np.uint8))
    tall = _long_pieces(cstats, clean_height)
    numbered: set[int] = set()
    for k in tall:
        x, y, cw, ch = (int(v) for v in cstats[k, :4])
        win = np.s_[y : y + ch, x : x + cw]
        numbered.add(_majority_label(pockets[win], comps[win] == k))
    r = int(np.ceil(reach)) + int(round(line_length))
    disc = _disk(2 * int(np.ceil(reach)) + 1)
    kernels = _line_kernels(line_length, STROKE_ANGLES)
    turn: int | None = None
    for k in np.flatnonzero(two):
        a, b = (int(v) for v in held[holder == k])
        if a in numbered or b in numbered or min(inradius[a], inradius[b]) > max_part:
            continue
        x, y, cw, ch = (int(v) for v in bstats[k, :4])
        win = np.s_[max(0, y - r) : min(h, y + ch + r), max(0, x - r) : min(w, x + cw + r)]
        pw = pockets[win]
        near_a = cv2.dilate((pw == a).view(np.uint8), disc) > 0
        near_b = cv2.dilate((pw == b).view(np.uint8), disc) > 0
        sep = near_a & near_b & borders[win]
        drawn = sep & raw_borders[win]
        if not drawn.any():
            continue
        ys, xs = np.nonzero(sep)
        if max(ys.max() - ys.min(), xs.max() - xs.min()) + 1 > max_extent:
            continue
        # A straight piece is a stretch of border; a number's strokes bend
        # and are short: ink that no straight line ``line_length`` long fits
        # in (the ends of the borders it joins are such lines).
        rest = (drawn & ~_straight_lines(raw_borders[win], kernels)).view(np.uint8)
        if not rest.any():
            continue
        _, pieces, rstats, _ = connected_components(rest)
        j = 1 + int(np.argmax(rstats[1:, cv2.CC_STAT_AREA]))
        pts = cv2.findNonZero((pieces == j).view(np.uint8))
        (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
        piece = pieces == j
        # Drawn strokes are a line width thick; what is left of printed
        # ruling (or of a grid) is a pixel or two.
        thickness = np.count_nonzero(piece) / max(1, np.count_nonzero(thin(piece)))
        if max(rw, rh) < min_stroke or min(rw, rh) < min_bend or thickness < min_thickness:
            continue
        if judge is not None and darkness is not None:
            if turn is None:
                turn = _writing_turn(comps, cstats, tall, darkness, judge, turn_clusters)
            crop = np.where(rest > 0, darkness[win], np.float32(0.0)).astype(np.float32)
            if _turned_word(crop, judge, turn) < min_posterior:
                continue
        out[win] |= before[win] == k
    return out


def neck_closings(
    raw_borders: NDArray[np.bool_],
    borders: NDArray[np.bool_],
    countries: NDArray[np.int32],
    *,
    min_width: float,
    end_reach: float,
    side_reach: float,
) -> NDArray[np.bool_]:
    """Gap closing's ink that cuts a country at a narrow neck.

    Gap closing joins a line that stops short to the line it points at; it
    also joins two lines that pass close to each other without either
    stopping there: the narrow neck between two parts of one country (a
    country winding between its neighbours, a corner of one country almost
    touching the border across). A piece of ink added by closing that
    touches two countries cut a paper area in two. It closed a neck, and is
    undone, when the passage it fills is at least ``min_width`` wide at its
    widest (lines touching but for a pixel or two at a junction leave less),
    it joins two separate pieces of ink within ``side_reach`` of it (not a
    hole in a thick stroke or a filled corner) and no line of the borders
    before closing stops within ``end_reach`` of it (no skeleton end).

    Parameters
    ----------
    raw_borders : (H, W) bool
        The border network before gap closing.
    borders : (H, W) bool
        The border network after gap closing.
    countries : (H, W) int32
        Countries found with ``borders`` (0 elsewhere).
    min_width, end_reach, side_reach : float
        Pixels.

    Returns
    -------
    (H, W) bool, the added pixels to take off again.
    """
    h, w = borders.shape
    out = np.zeros((h, w), dtype=bool)
    added = borders & ~raw_borders
    # Labels without stats, and everything else from the added pixels only
    # (a few thousand): the whole-image stats and dilations cost more.
    added8 = added.astype(np.uint8)
    n, comp = cv2.connectedComponents(added8, None, 8)
    if n <= 1:
        return out
    xs, ys = cv2.findNonZero(added8).reshape(-1, 2).T
    lab = comp[ys, xs]
    # The countries each piece touches (its pixels' 8-neighbours; clipped at
    # the image's edge, where a pixel is its own neighbour).
    m = int(countries.max()) + 1
    near = np.concatenate(
        [
            countries[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)]
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
        ]
    ).astype(np.int64)
    held = np.tile(lab, 9).astype(np.int64)
    pairs = np.unique(held[near > 0] * m + near[near > 0])
    cuts = np.nonzero(np.bincount(pairs // m, minlength=n) >= 2)[0]
    pad = int(np.ceil(max(side_reach, end_reach))) + 2
    ring = np.ones((3, 3), np.uint8)
    for k in cuts:
        mine = lab == k
        y0, y1 = max(0, int(ys[mine].min()) - pad), min(h, int(ys[mine].max()) + 1 + pad)
        x0, x1 = max(0, int(xs[mine].min()) - pad), min(w, int(xs[mine].max()) + 1 + pad)
        piece = comp[y0:y1, x0:x1] == k
        raw = raw_borders[y0:y1, x0:x1]
        # Lines touching but for a pixel or two at a junction leave a passage
        # narrower than min_width: a gap.
        room = cv2.distanceTransform((~raw).astype(np.uint8), cv2.DIST_L2, 3)
        if 2.0 * float(room[piece].max()) < min_width:
            continue
        rim = cv2.dilate(piece.astype(np.uint8), ring).astype(bool)
        away = cv2.distanceTransform((~piece).astype(np.uint8), cv2.DIST_L2, 3)
        _, ink = cv2.connectedComponents((raw & (away <= side_reach)).astype(np.uint8), None, 8)
        if len(np.unique(ink[rim & raw])) < 2:
            continue
        # A line of the borders stops near the piece: it closed a gap. (Even a
        # short skeleton branch: a line's blunt tip thins to a little fork.)
        ends = _loose_ends(thin(raw))
        if (ends & (away <= end_reach)).any():
            continue
        out[y0:y1, x0:x1] |= piece
    return out


def _drop_small_bridged(
    borders: NDArray[np.bool_],
    bridged: NDArray[np.bool_],
    *,
    line_width: float,
    settings: ReaderSettings,
) -> tuple[NDArray[np.bool_], _Pockets | None]:
    """``bridged`` without the bridges that close off only a small area.

    A country closed by a bridge must be clearly bigger than the smallest
    country: a small one is most often a printed grid square closed by a
    bridge to what is left of a ruling line. Also returns the paper areas of
    the result's complement when they were measured here (for :func:`_countries`).
    """
    added = bridged & ~borders
    if not added.any():
        return bridged, None
    measured = _pockets(~bridged)
    count, pockets, stats, inradius, _ = measured
    small = inradius < settings.bridge_country_inradius * line_width
    small[0] = False
    touched = np.zeros(count, dtype=bool)
    near = cv2.dilate(added.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    touched[np.unique(pockets[near])] = True
    bad = small & touched
    if not bad.any():
        return bridged, measured
    # The bridges (connected pieces of added ink) that border a bad pocket.
    n, pieces = cv2.connectedComponents(added.astype(np.uint8), connectivity=8)
    grown = cv2.dilate(pieces.astype(np.float32), np.ones((3, 3), np.uint8)).astype(np.int32)
    drop = np.zeros(n, dtype=bool)
    drop[np.unique(grown[bad[pockets] & (grown > 0)])] = True
    drop[0] = False
    return bridged & ~(drop.take(pieces) & added), None


def dividing_pieces(
    borders: NDArray[np.bool_],
    writing: NDArray[np.bool_],
    found: _Found,
    *,
    line_width: float,
    min_length: float,
    max_fill: float,
    min_straightness: float,
    end_reach: float,
    min_inradius: float,
    min_fill: float = 0.0,
    ray_reach: float = 0.0,
    beside: float = 0.0,
    max_share: float = 1.0,
    ruling: NDArray[np.bool_] | None = None,
    max_on_ruling: float = 1.0,
    colour: NDArray[np.uint8] | None = None,
    hue_reach: float = 0.0,
    contrast: float = 0.0,
    aim_back: float = 0.0,
    cone: float = 0.0,
    coast: int | None = None,
    digit_gap: float = 0.0,
    digit_extent: float = 0.0,
    darkness: NDArray[np.float32] | None = None,
    digit_tone: float = 0.0,
    held_inradius: float = 0.0,
    judge: Callable[[NDArray[np.float32]], float] | None = None,
    min_posterior: float = 0.0,
    turn_clusters: int = 8,
    any_turn: bool = False,
) -> NDArray[np.bool_]:
    """Pieces of writing that divide a country in two, with their joins.

    A border broken by gaps at both ends of a stretch leaves that stretch
    as a small ink component, taken for writing by :func:`split_writing`;
    :func:`linked_fragments` takes it back only when it is about straight
    and both its ends come close to border ink, and the countries on
    either side merge. Here a line-like piece (skeleton at least
    ``min_length`` long, area at most ``max_fill`` times that length times
    the line width, its two farthest skeleton ends at least
    ``min_straightness`` of that length apart, its area at least
    ``min_fill`` times that length times the line width: not a hair-thin
    stretch of printed ruling) is joined to the borders:
    each far end within ``end_reach`` of border ink to the nearest border
    pixel, and a far end farther than that (when the other is near) on
    along the line from the other end to the first border ink within
    ``ray_reach``; failing that, to the nearest pixel within ``ray_reach``
    and ``cone`` degrees of the direction of the piece's last ``aim_back``
    pixels (:func:`_aim_at`) of the border ink or of another such piece
    with a near end, which is then joined too (a border broken twice
    leaves two pieces that point at each other). When the piece so joined
    cuts a country of ``found`` into two parts that each hold a disc of
    ``min_inradius`` (with ``coast``, also when, both its far ends near the
    borders, it cuts a part that holds such a disc and lies farther than
    ``coast`` pixels from the image's edge off the sea: a stretch of coast),
    it is border.
    A number in a country is compact or lies clear of its borders; joined
    to them it cuts off at most a corner. Not taken: a piece mostly along
    removed printed ruling (more than ``max_on_ruling`` of it within
    reach of ``ruling``), a piece nearer in hue to the other writing
    within ``hue_reach`` than to the borders there and at least
    ``contrast`` (BGR chroma) from the borders' (in a player's pen), and a
    piece with more than ``max_share`` of it within ``beside`` of other
    writing (a stroke of a number, :func:`_clear_of_writing`), nor a piece
    at most ``digit_extent`` writing heights long, joined at one end only
    by a ray or aim (a stretch of border comes close to the borders at both
    ends), with a digit-sized piece of writing side by side with it within
    ``digit_gap`` writing heights and, with ``darkness``, at most
    ``digit_tone`` times as dark or as light (:func:`_beside_digit`: a digit
    of the number, such as the second 1 of an 11, in the piece's pen); a piece
    joined to another is taken only when both pass. A piece with both far
    ends near the borders that cuts a country into two parts that each hold
    a disc of ``held_inradius`` (below ``min_inradius``) is border too when
    each part too small for a disc of ``min_inradius`` holds a digit-sized
    piece of writing of its own, half a writing height to ``digit_extent``
    writing heights long (:func:`_divides_held`: a small country and its
    number; an underline or a digit joined to the borders cuts off a corner
    with no number in it). With ``judge`` (and ``darkness``), a piece whose
    ink reads as a number with at least ``min_posterior`` is a number, not
    border (a "2" whose bar touches one border and whose foot points at
    another; a straight stretch of border reads as a 1, which the judge does
    not count): turned whichever way it reads best with ``any_turn`` (the
    players write from their own sides of the sheet), else as the page's
    writing (the ``turn_clusters`` largest pieces of writing of a number's
    height read best so, :func:`_writing_turn`).

    Parameters
    ----------
    borders, writing : (H, W) bool
    found : _Found
        The countries of ``borders``.
    line_width, min_length, end_reach, min_inradius, ray_reach : float
    beside, hue_reach, aim_back : float
        Pixels (``line_width`` also scales the area test).
    max_fill, min_straightness, min_fill, max_share, max_on_ruling, contrast : float
    cone : float
        Degrees (0: no aiming beyond the straight-on ray).
    coast : int, optional
        Pixels from the image's edge (a notebook's binding there is no
        coast); None: no pieces on the sea's side.
    digit_gap, digit_extent : float
        In writing heights (:func:`writing_height` of ``writing``); a
        ``digit_gap`` of 0 turns the digit test off.
    darkness : (H, W) float32, optional
        Ink darkness of the working image (no tone test without it).
    digit_tone : float
        A ratio of median darknesses (0: no tone test).
    held_inradius : float
        Pixels (0: off).
    judge : callable, optional
        A darkness crop's probability of reading as a number (see
        :func:`_number_reader`); None: no such test.
    min_posterior : float
    turn_clusters : int
    any_turn : bool
    ruling : (H, W) bool, optional
    colour : (H, W, 3) uint8, optional
        The working image (no hue test without it).

    Returns
    -------
    (H, W) bool, the pieces taken and their joins, one pixel thicker (a cut
    that divides the paper in the 8-connected sense).
    """
    h, w = writing.shape
    out = np.zeros_like(writing)
    count, lab, stats, _ = connected_components(writing.view(np.uint8))
    diagonal = np.hypot(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    area = stats[:, cv2.CC_STAT_AREA]
    # The far ends are at most the box's diagonal apart, the skeleton at
    # most that over min_straightness long (the tests of _far_ends).
    cand = (diagonal >= min_straightness * min_length) & (
        area <= max_fill * diagonal / max(min_straightness, 1e-3) * line_width
    )
    cand[0] = False
    if not cand.any():
        return out
    thickness = max(2, int(round(line_width)))
    margin = int(np.ceil(end_reach)) + 2
    # (The writing's height from the components labelled above: writing_height's.)
    judging = judge is not None and darkness is not None and min_posterior > 0
    page_turn = judging and not any_turn
    need_h = digit_gap > 0 or held_inradius > 0 or page_turn
    text_h = _component_height(stats[1:], line_width) if need_h else 0.0
    turn: int | None = None
    # The line-like pieces with an end near the borders, and their far ends.
    lines: dict[int, tuple[NDArray[np.int64], NDArray[np.bool_]]] = {}
    for k in np.nonzero(cand)[0]:
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        mine = lab[y : y + ch, x : x + cw] == k
        # Distances to the border ink in a window around the piece (those
        # within end_reach are the same as over the page).
        wx0, wy0, wx1, wy1 = _box_around(stats[k], margin, (h, w))
        free = (~borders[wy0:wy1, wx0:wx1]).view(np.uint8)
        to_border = cv2.distanceTransform(free, cv2.DIST_L2, 3)
        if to_border[y - wy0 : y - wy0 + ch, x - wx0 : x - wx0 + cw][mine].min() > end_reach:
            continue
        line = _far_ends(mine, int(area[k]), line_width, max_fill, min_straightness)
        if line is None or line[1] < min_length or area[k] < min_fill * line[1] * line_width:
            continue
        ends = line[0] + (y, x)
        near = to_border[ends[:, 0] - wy0, ends[:, 1] - wx0] <= end_reach
        if near.any():
            lines[int(k)] = (ends, near)
    for k, (ends, near) in lines.items():
        links = []
        pieces = [k]
        if not near.all():
            # Continued straight on to the border ink it points at; else to
            # the nearest border ink or other such piece (a border broken
            # twice, joined too) in a cone along its last stretch.
            hit = _ray_to(borders, ends[~near][0], ends[near][0], ray_reach)
            if hit is None:
                hit = _aim_at(
                    borders,
                    lab,
                    lines,
                    k,
                    ends[~near][0],
                    ends[near][0],
                    reach=ray_reach,
                    back=aim_back,
                    cone=cone,
                )
            if hit is None:
                continue
            links = [(ends[~near][0], hit)]
            ends = ends[near]
            other = int(lab[hit[0], hit[1]])
            if other > 0 and not borders[hit[0], hit[1]]:
                pieces.append(other)
                ends = np.vstack([ends, lines[other][0][lines[other][1]]])
        reach = max(end_reach, ray_reach if links else 0.0)
        box = _box_around(stats[k], int(np.ceil(reach)) + 2, (h, w))
        for o in pieces[1:]:
            ob = _box_around(stats[o], int(np.ceil(end_reach)) + 2, (h, w))
            box = (min(box[0], ob[0]), min(box[1], ob[1]), max(box[2], ob[2]), max(box[3], ob[3]))
        piece = np.isin(lab[box[1] : box[3], box[0] : box[2]], pieces)
        cut = _cut(borders, piece, ends, links, box, thickness)
        # (Off the sea only a piece with both ends at the borders: continued
        # by a ray or aimed, a piece finds some paper to close off.)
        divides = _divides(found, cut, box[:2], min_inradius, coast=None if links else coast)
        if not divides and not links and held_inradius > 0:
            longest = digit_extent * text_h if digit_extent > 0 else np.inf
            held = (held_inradius, min_inradius)
            sizes = (DIGIT_MIN_HEIGHT * text_h, longest)
            divides = _divides_held(found, cut, box[:2], held, lab, stats, k, lines, sizes)
        if not divides:
            continue
        if (
            digit_gap > 0
            and links
            and any(
                _beside_digit(
                    k2,
                    lab,
                    stats,
                    gap=digit_gap * text_h,
                    extent=digit_extent * text_h,
                    lines=lines,
                    darkness=darkness,
                    tone=digit_tone,
                )
                for k2 in pieces
            )
        ):
            continue
        if not all(
            _like_border(
                k2,
                lab,
                stats,
                writing,
                borders,
                ruling,
                max_on_ruling,
                colour,
                hue_reach,
                contrast,
                line_width,
                beside,
                max_share,
            )
            for k2 in pieces
        ):
            continue
        if judging:
            assert judge is not None and darkness is not None  # (judging says so)
            if page_turn and turn is None:
                tall = _long_pieces(stats, DIGIT_MIN_HEIGHT * text_h)
                turn = _writing_turn(lab, stats, tall, darkness, judge, turn_clusters)
            turns: Sequence[int] = range(4) if turn is None else (turn,)
            if any(
                _best_turned(_piece_darkness(k2, lab, stats, darkness), judge, turns)
                >= min_posterior
                for k2 in pieces
            ):
                continue
        out[box[1] : box[3], box[0] : box[2]] |= cut
    return out


def _best_turned(
    crop: NDArray[np.float32], judge: Callable[[NDArray[np.float32]], float], turns: Sequence[int]
) -> float:
    """``judge``'s best word on ``crop`` turned by each of ``turns`` quarter turns."""
    return max(_turned_word(crop, judge, t) for t in turns)


def _turned_word(
    crop: NDArray[np.float32], judge: Callable[[NDArray[np.float32]], float], turn: int
) -> float:
    """``judge``'s word on ``crop`` turned by ``turn`` quarter turns (counter-clockwise)."""
    return judge(np.ascontiguousarray(np.rot90(crop, turn)))


def _piece_darkness(
    k: int, lab: NDArray[np.int32], stats: NDArray, darkness: NDArray[np.float32]
) -> NDArray[np.float32]:
    """The ``darkness`` of piece ``k`` of ``lab`` in its box (``stats[k]``), 0 off it."""
    x, y, cw, ch = (int(v) for v in stats[k, :4])
    win = np.s_[y : y + ch, x : x + cw]
    return np.where(lab[win] == k, darkness[win], np.float32(0.0)).astype(np.float32)


def _like_border(
    k: int,
    lab: NDArray[np.int32],
    stats: NDArray,
    writing: NDArray[np.bool_],
    borders: NDArray[np.bool_],
    ruling: NDArray[np.bool_] | None,
    max_on_ruling: float,
    colour: NDArray[np.uint8] | None,
    hue_reach: float,
    contrast: float,
    line_width: float,
    beside: float,
    max_share: float,
) -> bool:
    """The tests of :func:`dividing_pieces` on piece ``k`` of ``lab``: not
    mostly along removed ruling, not in a player's pen, not a stroke of a number."""
    x, y, cw, ch = (int(v) for v in stats[k, :4])
    mine = lab[y : y + ch, x : x + cw] == k
    if ruling is not None and max_on_ruling < 1.0 and ruling.any():
        r = RULING_REACH_PX
        y0, x0 = max(0, y - r), max(0, x - r)
        near = _near_ruling(ruling[y0 : y + ch + r, x0 : x + cw + r])
        if near[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw][mine].mean() > max_on_ruling:
            return False  # what is left of a printed ruling line
    if colour is not None and _hue_of_writing(
        colour, lab, k, stats[k], writing, borders, int(np.ceil(hue_reach)), contrast
    ):
        return False  # in a player's pen, not the borders'
    # Not a stroke of a number.
    return beside <= 0 or _clear_of_writing(
        lab, k, stats[k], writing, line_width=line_width, beside=beside, max_share=max_share
    )


def _beside_digit(
    k: int,
    lab: NDArray[np.int32],
    stats: NDArray,
    *,
    gap: float,
    extent: float,
    lines: Container[int] = (),
    overlap: float = 0.5,
    darkness: NDArray[np.float32] | None = None,
    tone: float = 0.0,
) -> bool:
    """Whether piece ``k`` of ``lab`` (8-connected components, their
    ``stats``) is at most ``extent`` pixels long with another component
    beside it (:func:`dividing_pieces`): between half and all of ``extent``
    long, within ``gap`` pixels of it, not one of ``lines`` (the line-like
    pieces near the borders), and side by side with it, not end to end
    (along the piece's axis their spans overlap by at least ``overlap`` of
    the shorter: the stretches of a broken border line up) and, with
    ``darkness`` and a ``tone`` above 0, in the same pen (the larger median
    darkness of the two at most ``tone`` times the smaller: a number in ink
    beside a pencilled border is no neighbour of it). A digit written
    beside it, the piece another."""
    x, y, cw, ch = (int(v) for v in stats[k, :4])
    if max(cw, ch) > extent:
        return False
    h, w = lab.shape
    r = int(np.ceil(gap)) + 1
    y0, x0 = max(0, y - r), max(0, x - r)
    win = lab[y0 : min(h, y + ch + r), x0 : min(w, x + cw + r)]
    others = np.unique(win[(win > 0) & (win != k)])
    if others.size == 0:
        return False
    fits = others[_digit_sized(stats, others, (0.5 * extent, extent), lines)]
    if fits.size == 0:
        return False
    if darkness is not None and tone > 0:
        # A number is written in one pen: a digit much darker or lighter
        # than the piece is not of its number (a pencilled border beside a
        # number in ink).
        ours = _median_darkness(darkness, lab, stats, k)
        level = np.array([_median_darkness(darkness, lab, stats, int(o)) for o in fits])
        fits = fits[np.maximum(level, ours) <= tone * np.maximum(np.minimum(level, ours), 1e-3)]
        if fits.size == 0:
            return False
    d = cv2.distanceTransform((win != k).view(np.uint8), cv2.DIST_L2, 3)
    mine = np.argwhere(lab[y : y + ch, x : x + cw] == k).astype(np.float64)
    centre = mine.mean(axis=0)
    _, vectors = np.linalg.eigh(np.cov((mine - centre).T))
    axis = vectors[:, -1]  # (row, column) of the piece's long axis
    t = (mine - centre) @ axis
    for o in fits:
        if not (d[win == o] <= gap).any():
            continue
        ox, oy, ow, oh = (int(v) for v in stats[o, :4])
        theirs = np.argwhere(lab[oy : oy + oh, ox : ox + ow] == o) + (oy - y, ox - x)
        u = (theirs - centre) @ axis
        common = min(t.max(), u.max()) - max(t.min(), u.min())
        if common >= overlap * min(t.max() - t.min(), u.max() - u.min()):
            return True
    return False


def _digit_sized(
    stats: NDArray, ids: NDArray, extent: tuple[float, float], lines: Container[int]
) -> NDArray[np.bool_]:
    """Which of the components ``ids`` (their ``stats``) are digit-sized: the
    long side of their box between the two of ``extent`` (pixels), and not
    one of ``lines`` (the line-like pieces near the borders)."""
    size = np.maximum(stats[ids, cv2.CC_STAT_WIDTH], stats[ids, cv2.CC_STAT_HEIGHT])
    apart = np.array([int(i) not in lines for i in ids], dtype=bool)
    return (size >= extent[0]) & (size <= extent[1]) & apart


def _median_darkness(
    darkness: NDArray[np.float32], lab: NDArray[np.int32], stats: NDArray, k: int
) -> float:
    """The median ``darkness`` of component ``k`` of ``lab`` (its ``stats``)."""
    x, y, cw, ch = (int(v) for v in stats[k, :4])
    win = np.s_[y : y + ch, x : x + cw]
    return float(np.median(darkness[win][lab[win] == k]))


def _aim_at(
    borders: NDArray[np.bool_],
    lab: NDArray[np.int32],
    lines: dict[int, tuple[NDArray[np.int64], NDArray[np.bool_]]],
    k: int,
    free: NDArray[np.int64],
    attached: NDArray[np.int64],
    *,
    reach: float,
    back: float,
    cone: float,
) -> NDArray[np.int64] | None:
    """The nearest pixel (y, x) of the borders or of another piece of
    ``lines`` within ``reach`` of the free end ``free`` of piece ``k`` and
    within ``cone`` degrees of the piece's direction there (from its pixels
    within ``back`` of that end; from ``attached`` when none), or None."""
    h, w = borders.shape
    r = int(np.ceil(reach))
    y0, x0 = max(0, int(free[0]) - r), max(0, int(free[1]) - r)
    y1, x1 = min(h, int(free[0]) + r + 1), min(w, int(free[1]) + r + 1)
    win = lab[y0:y1, x0:x1]
    own = np.argwhere(win == k) + (y0, x0)
    d2 = ((own - free) ** 2).sum(axis=1)
    tail = own[d2 <= back * back]
    direction = (free - tail.mean(axis=0)) if len(tail) > 1 else (free - attached)
    norm = float(np.hypot(*direction))
    if norm == 0:
        return None
    direction = direction / norm
    others = [o for o in lines if o != k]
    target = borders[y0:y1, x0:x1] | (np.isin(win, others) if others else False)
    pts = np.argwhere(target) + (y0, x0)
    if len(pts) == 0:
        return None
    ok, dist = _in_cone(pts, free, direction, reach, cone)
    if not ok.any():
        return None
    return pts[np.flatnonzero(ok)[np.argmin(dist[ok])]]


def _ray_to(
    borders: NDArray[np.bool_],
    free: NDArray[np.int64],
    attached: NDArray[np.int64],
    reach: float,
) -> NDArray[np.int64] | None:
    """The first border pixel (y, x) on the ray from ``free`` away from
    ``attached``, within ``reach`` pixels, or None."""
    h, w = borders.shape
    d = (free - attached).astype(np.float64)
    norm = float(np.hypot(*d))
    if norm == 0:
        return None
    d /= norm
    for t in np.arange(1.0, reach + 1.0, 0.5):
        y, x = int(round(free[0] + t * d[0])), int(round(free[1] + t * d[1]))
        if not (0 <= y < h and 0 <= x < w):
            return None
        if borders[y, x]:
            return np.array([y, x])
    return None


def _hue_of_writing(
    colour: NDArray[np.uint8],
    lab: NDArray[np.int32],
    k: int,
    stat: NDArray,
    writing: NDArray[np.bool_],
    borders: NDArray[np.bool_],
    reach: int,
    contrast: float,
) -> bool:
    """Whether piece ``k`` of ``lab`` is nearer in hue to the other writing
    within ``reach`` pixels than to the borders there, and at least
    ``contrast`` from the borders' (:func:`_like_writing`; the writing there
    may be in two pens)."""
    x0, y0, x1, y1 = _box_around(stat, reach, lab.shape[:2])
    mine = lab[y0:y1, x0:x1] == k
    prose = writing[y0:y1, x0:x1] & ~mine
    win = np.s_[y0:y1, x0:x1]
    return _like_writing(colour[win], mine, prose, borders[win], contrast, ratio=1.0)


def _far_ends(
    mine: NDArray[np.bool_],
    area: int,
    line_width: float,
    max_fill: float,
    min_straightness: float,
    caps: float = 0.0,
) -> tuple[NDArray[np.int64], float] | None:
    """The two farthest skeleton ends (y, x) of a line-like piece ``mine`` and its
    skeleton's length, or None: its ``area`` more than ``max_fill`` times the
    length (plus ``caps``) times the line width, fewer than two or more than
    :data:`LINK_MAX_ENDS` loose ends, or the two farthest less than
    ``min_straightness`` of the length apart."""
    sk = thin(np.pad(mine, 1))
    length = float(np.count_nonzero(sk))
    if area > max_fill * (length + caps) * line_width:
        return None
    ends = np.argwhere(_loose_ends(sk)) - 1
    if len(ends) < 2 or len(ends) > LINK_MAX_ENDS:
        return None
    dd = np.hypot(*(ends[:, None, :] - ends[None, :, :]).transpose(2, 0, 1))
    i, j = np.unravel_index(int(np.argmax(dd)), dd.shape)
    if dd[i, j] < min_straightness * length:
        return None
    return ends[[i, j]], length


def _box_around(stat: NDArray, margin: int, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 of a stats box (x, y, width, height) widened by ``margin``."""
    x, y, cw, ch = (int(v) for v in stat[:4])
    h, w = shape[:2]
    return max(0, x - margin), max(0, y - margin), min(w, x + cw + margin), min(h, y + ch + margin)


def _cut(
    borders: NDArray[np.bool_],
    piece: NDArray[np.bool_],
    ends: NDArray[np.int64],
    links: list[tuple[NDArray[np.int64], NDArray[np.int64]]],
    box: tuple[int, int, int, int],
    thickness: int,
) -> NDArray[np.bool_]:
    """``piece`` (the window ``box`` x0, y0, x1, y1 of the page) with
    ``ends`` (page y, x) joined to the nearest border ink in the window and
    ``links`` (pairs of page points) drawn, one pixel thicker."""
    x0, y0, x1, y1 = box
    cut = piece.astype(np.uint8)
    ink = np.argwhere(borders[y0:y1, x0:x1])
    lines = list(links)
    if len(ink):
        for end in ends:
            d2 = ((ink - (end - (y0, x0))) ** 2).sum(axis=1)
            lines.append((end, ink[int(np.argmin(d2))] + (y0, x0)))
    for a, b in lines:
        p, q = a - (y0, x0), b - (y0, x0)
        cv2.line(cut, (int(p[1]), int(p[0])), (int(q[1]), int(q[0])), 1, thickness)
    return cv2.dilate(cut, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))).view(bool)


def _divides(
    found: _Found,
    cut: NDArray[np.bool_],
    origin: tuple[int, int],
    min_inradius: float,
    coast: int | None = None,
) -> bool:
    """Whether ``cut`` (a window of the page at ``origin`` x, y) divides a
    country of ``found`` into two parts each holding a disc of ``min_inradius``,
    or cuts a part holding such a disc and farther than ``coast`` pixels (when
    given) from the image's edge off the sea that reaches the edge."""
    x0, y0 = origin
    ch, cw = cut.shape
    h, w = found.pockets.shape
    win = np.s_[y0 : y0 + ch, x0 : x0 + cw]
    under = found.pockets[win][cut]
    touched = found.labels[win][cut] > 0
    outer = None
    if coast is not None:
        touched |= found.sea[win][cut]
        # (A sea that does not reach the image's edge is a frame's: left alone.)
        outer = touches_edge(found.stats, (h, w), margin=1)
    for p in np.unique(under[touched]):
        sea = p not in found.ids
        if sea and (outer is None or not outer[p]):
            continue
        (bx0, by0), rest = _pocket_less_cut(found, p, cut, origin)
        if sea:
            if _cut_off_sea(rest, (bx0, by0), (h, w), min_inradius, max(1, coast or 0)):
                return True
            continue
        split = _part_radii(rest)
        if split is not None and np.sort(split[1][1:])[-2] >= min_inradius:
            return True
    return False


def _pocket_less_cut(
    found: _Found, p: int, cut: NDArray[np.bool_], origin: tuple[int, int]
) -> tuple[tuple[int, int], NDArray[np.bool_]]:
    """Paper area ``p`` of ``found`` less ``cut`` (a window of the page at
    ``origin`` x, y), in a window holding both: the window's x, y and the area."""
    x0, y0 = origin
    ch, cw = cut.shape
    px, py, pw, ph = (int(v) for v in found.stats[p, :4])
    bx0, by0 = min(px, x0), min(py, y0)
    bx1, by1 = max(px + pw, x0 + cw), max(py + ph, y0 + ch)
    rest = found.pockets[by0:by1, bx0:bx1] == p
    rest[y0 - by0 : y0 - by0 + ch, x0 - bx0 : x0 - bx0 + cw] &= ~cut
    return (bx0, by0), rest


def _part_radii(
    rest: NDArray[np.bool_],
) -> tuple[NDArray[np.int32], NDArray[np.float32]] | None:
    """The parts of ``rest`` (8-connected labels, 0 off it) and each label's
    inscribed radius, or None when it is in one piece."""
    n, parts = cv2.connectedComponents(rest.view(np.uint8), connectivity=8)
    if n <= 2:
        return None
    dist = cv2.distanceTransform(rest.view(np.uint8), cv2.DIST_L2, 5)
    inradius = np.zeros(n, dtype=np.float32)
    np.maximum.at(inradius, parts.ravel(), dist.ravel())
    return parts, inradius


def _divides_held(
    found: _Found,
    cut: NDArray[np.bool_],
    origin: tuple[int, int],
    inradius: tuple[float, float],
    lab: NDArray[np.int32],
    stats: NDArray,
    k: int,
    lines: Container[int],
    extent: tuple[float, float],
) -> bool:
    """Whether ``cut`` (a window of the page at ``origin`` x, y) divides a
    country of ``found`` into two parts that each hold a disc of the first
    of ``inradius`` and, unless it holds one of the second, a piece of
    writing of its own: a component of ``lab`` (its ``stats``) other than
    ``k`` and ``lines``, between the two of ``extent`` long (a digit, not a
    stretch of ruling), more than half of it in that part (a small country
    and its number). An underline or a digit joined to the borders cuts
    off a corner with no number in it."""
    small, large = inradius
    x0, y0 = origin
    ch, cw = cut.shape
    win = np.s_[y0 : y0 + ch, x0 : x0 + cw]
    under = found.pockets[win][cut]
    for p in np.unique(under[found.labels[win][cut] > 0]):
        (bx0, by0), rest = _pocket_less_cut(found, p, cut, origin)
        split = _part_radii(rest)
        if split is None:
            continue
        parts, disc = split
        by1, bx1 = by0 + rest.shape[0], bx0 + rest.shape[1]
        big = np.flatnonzero(disc >= small)
        big = big[big > 0]
        if len(big) < 2:
            continue
        text = lab[by0:by1, bx0:bx1]
        held = 0
        for q in big:
            if disc[q] >= large:
                held += 1
                continue
            ids, counts = np.unique(text[parts == q], return_counts=True)
            own = (
                (ids > 0)
                & (ids != k)
                & (2 * counts > stats[ids, cv2.CC_STAT_AREA])
                & _digit_sized(stats, ids, extent, lines)
            )
            if own.any():
                held += 1
        if held >= 2:
            return True
    return False


def _cut_off_sea(
    rest: NDArray[np.bool_],
    origin: tuple[int, int],
    shape: tuple[int, int],
    min_inradius: float,
    margin: int,
) -> bool:
    """Whether a part of ``rest`` (the sea less a cut, a window of the page at
    ``origin`` x, y; the page of ``shape``) lies farther than ``margin`` pixels
    from the page's edge and holds a disc of ``min_inradius``."""
    n, parts, stats, _ = connected_components(rest.view(np.uint8))
    boxes = stats.copy()
    boxes[:, :2] += origin
    inland = ~touches_edge(boxes, shape, margin=margin)
    inland[0] = False
    for q in np.flatnonzero(inland):
        # The paper around an inland part is within a pixel of its box.
        x, y, cw, ch = (int(v) for v in stats[q, :4])
        win = np.s_[max(0, y - 1) : y + ch + 1, max(0, x - 1) : x + cw + 1]
        mine = (parts[win] == q).view(np.uint8)
        if cv2.distanceTransform(mine, cv2.DIST_L2, 5).max() >= min_inradius:
            return True
    return False


def _touching(pieces: NDArray[np.bool_], what: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The connected pieces of ``pieces`` that touch ``what`` (8-neighbours)."""
    out = np.zeros_like(pieces)
    rows, cols = np.nonzero(pieces.any(axis=1))[0], np.nonzero(pieces.any(axis=0))[0]
    if len(rows) == 0:
        return out
    # Only the pieces' box (and a pixel around) is looked at: they are few.
    box = np.s_[max(0, rows[0] - 1) : rows[-1] + 2, max(0, cols[0] - 1) : cols[-1] + 2]
    near = cv2.dilate(what[box].astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    out[box] = components_holding(pieces[box], near)
    return out


def stub_bridges(
    borders: NDArray[np.bool_],
    stub: NDArray[np.bool_],
    *,
    line_width: float,
    min_extent: float,
    max_fill: float,
    margin: float,
    bridge: Callable[[NDArray[np.bool_], NDArray[np.bool_] | None], NDArray[np.bool_]],
    writing: NDArray[np.bool_] | None = None,
    beside: float = 0.0,
    max_share: float = 1.0,
    unclosed: NDArray[np.bool_] | None = None,
    max_density: float = 1.0,
    window: float = 3.0,
) -> NDArray[np.bool_]:
    """Bridges that would tie line-like protrusions back into the border network.

    A faint pencil border broken into pieces by gaps wider than gap closing
    leaves lines that hang off the network or float free; they lie far from
    every boundary between the countries found without them, so the
    protrusion step would take them for writing, and the countries on
    either side merge. Around each such piece that is line-like (at least
    ``min_extent`` long, its area at most ``max_fill`` times its box's width
    plus height times the line width: not a digit's curled strokes), the loose ends are
    continued with ``bridge`` on a window of the borders ``margin`` pixels
    wider than the piece (not on the whole page: it is rare).

    A piece clear of ``writing`` may be continued farther (``bridge`` is
    told which pieces: the window is wide enough): an underline or a
    number's stroke lies along the number, most of its pixels within
    ``beside`` pixels of it, while a piece of border passes a number for a
    part of its length at most. Only writing of a number's size counts (at
    least :data:`WRITING_SPECK_LW` line widths across and that many squared
    line widths): a faint border broken into specks leaves specks along it.

    Parameters
    ----------
    borders : (H, W) bool
        The border network, protrusions included.
    stub : (H, W) bool
        The border pixels the protrusion step would take off.
    line_width : float
        Pixels.
    min_extent, margin : float
        Pixels.
    max_fill : float
    bridge : callable
        ``bridge(window_borders, far)`` returns the window's borders with
        bridges; ``far`` (the window's size, or None) marks the pixels of the
        pieces clear of writing.
    writing : (H, W) bool, optional
        Without it no piece is clear of writing.
    beside : float
        Pixels.
    max_share : float
        A piece with more than this fraction of its pixels beside writing is
        not clear of it.
    unclosed : (H, W) bool, optional
        The borders before gap closing: a piece too full on ``borders`` is
        measured again on its ink here (closing fills the paper beside a
        faint line), when no square ``window`` line widths wide holds more
        than ``max_density`` of that ink (a digit's strokes do).

    Returns
    -------
    (H, W) bool, the bridge pixels only (not in ``borders``).
    """
    h, w = borders.shape
    out = np.zeros((h, w), dtype=bool)
    count, labels, stats, _ = connected_components(stub.astype(np.uint8))
    cw, ch = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    # A bent line (an L) is as long as its box's two sides together.
    most = max_fill * (cw + ch) * line_width
    long = np.maximum(cw, ch) >= min_extent
    line = long & (stats[:, cv2.CC_STAT_AREA] <= most)
    line[0] = False
    if unclosed is not None:
        raw = np.bincount(labels[unclosed & stub], minlength=count)
        side = max(3, int(round(window * line_width)))
        again = long & ~line & (raw <= most)
        again[0] = False  # the background
        for k in np.nonzero(again)[0]:
            x, y, bw, bh = (int(v) for v in stats[k, :4])
            ink = ((labels[y : y + bh, x : x + bw] == k) & unclosed[y : y + bh, x : x + bw]).astype(
                np.float32
            )
            dense = cv2.boxFilter(ink, -1, (side, side), borderType=cv2.BORDER_CONSTANT)
            line[k] = float(dense.max()) <= max_density
    if not line.any():
        return out
    clear = np.zeros(count, dtype=bool)
    if writing is not None:
        for k in np.nonzero(line)[0]:
            clear[k] = _clear_of_writing(
                labels,
                k,
                stats[k],
                writing,
                line_width=line_width,
                beside=beside,
                max_share=max_share,
            )
    far = clear.take(labels) if clear.any() else None
    # One window per group of overlapping ones: each pixel is thinned once.
    m = int(np.ceil(margin))
    boxes = np.zeros((h, w), dtype=np.uint8)
    for k in np.nonzero(line)[0]:
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        boxes[max(0, y - m) : y + ch + m, max(0, x - m) : x + cw + m] = 1
    n, _, windows, _ = cv2.connectedComponentsWithStats(boxes, None, 4)
    for x, y, cw, ch, _ in windows[1:]:
        win = np.s_[y : y + ch, x : x + cw]
        part = borders[win]
        out[win] |= bridge(part, None if far is None else far[win]) & ~part
    return out


def _clear_of_writing(
    labels: NDArray[np.int32],
    k: int,
    box: NDArray[np.int32],
    writing: NDArray[np.bool_],
    *,
    line_width: float,
    beside: float,
    max_share: float,
) -> bool:
    """Whether piece ``k`` of ``labels`` is clear of writing (:func:`stub_bridges`,
    :func:`dividing_pieces`)."""
    h, w = labels.shape
    speck = WRITING_SPECK_LW * line_width
    r = int(np.ceil(beside + speck))
    x, y, cw, ch = (int(v) for v in box[:4])
    y0, x0 = max(0, y - r), max(0, x - r)
    win = np.s_[y0 : min(h, y + ch + r), x0 : min(w, x + cw + r)]
    text = writing[win] & (labels[win] != k)  # (``k`` may be writing itself)
    if not text.any():
        return True
    n, tl, st, _ = cv2.connectedComponentsWithStats(text.astype(np.uint8), None, 8)
    big = (st[:, cv2.CC_STAT_AREA] >= speck * line_width) & (
        np.maximum(st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT]) >= speck
    )
    big[0] = False
    if not big.any():
        return True
    near = cv2.dilate(big[tl].astype(np.uint8), _disk(2 * beside + 1)).astype(bool)
    mine = labels[win] == k
    return bool((near & mine).sum() <= max_share * mine.sum())


def _protrusions(
    borders: NDArray[np.bool_],
    found: _Found,
    *,
    line_width: float,
    settings: ReaderSettings,
    raw_borders: NDArray[np.bool_] | None = None,
) -> NDArray[np.bool_]:
    """Border ink farther than ``protrusion_distance`` from every boundary
    between the countries of ``found`` (grown over the whole page; from
    :func:`welded_seeds` when the borders before closing, ``raw_borders``,
    are given)."""
    h, w = borders.shape
    labels, barrier = found.labels, found.barrier
    if raw_borders is not None:
        seeded = welded_seeds(raw_borders, found)
        if seeded is not None:
            labels, barrier = seeded
    full = grow_labels(labels, reach=float(h + w), barrier=barrier)
    edge = np.zeros((h, w), dtype=bool)
    edge[:, 1:] |= full[:, 1:] != full[:, :-1]
    edge[1:, :] |= full[1:, :] != full[:-1, :]
    if not edge.any():
        return np.zeros((h, w), dtype=bool)
    far = cv2.distanceTransform((~edge).astype(np.uint8), cv2.DIST_L2, 3)
    stub = borders & (far > settings.protrusion_distance * line_width)
    if settings.protrusion_root > 0 and stub.any():
        stub = _protrusion_roots(
            stub,
            borders & (far > settings.protrusion_root * line_width),
            max_extent=settings.protrusion_root_extent * line_width,
            min_tip=settings.protrusion_root_tip * line_width**2,
            reach=2 * (settings.protrusion_distance - settings.protrusion_root) * line_width,
            labels=labels,
            sea=found.sea,
            sea_reach=settings.protrusion_root_sea * line_width,
            min_paper=settings.protrusion_root_paper,
        )
    return stub


def _protrusion_roots(
    stub: NDArray[np.bool_],
    loose: NDArray[np.bool_],
    *,
    max_extent: float,
    reach: float,
    min_tip: float,
    labels: NDArray[np.int32] | None = None,
    sea: NDArray[np.bool_] | None = None,
    sea_reach: float = 0.0,
    min_paper: float = 0.0,
) -> NDArray[np.bool_]:
    """``stub`` with the ink of ``loose`` within ``reach`` pixels of it, in
    the pieces of ``loose`` at most ``max_extent`` pixels long that hold at
    least ``min_tip`` pixels of ``stub`` (:func:`_protrusions`).

    A digit welded to a border sticks out of its country farther than the
    protrusion distance only at its far end; the strokes that join it to
    the border lie nearer the boundary, yet clear of the border's own line
    (``loose``: border ink a little off every boundary). Only the stretch
    next to a sizeable protrusion is taken: a thick or wobbly border's edge
    is off the boundary too, along the line, and a tick or a sharp corner
    sticks out a little.

    With the countries ``labels`` (0 off every country) a piece is not
    followed back when at least half of it lies within ``sea_reach`` pixels
    of the ``sea`` (a printed title on a sheet's frame line), when less than
    ``min_paper`` of its box widened by ``reach`` is countries' paper
    (printed text, a patterned background), or when the ink taken touches the paper of two countries
    (it crosses the border between them: taking it off would join them).
    """
    count, pieces, stats, _ = connected_components((loose | stub).view(np.uint8))
    tip_area = np.bincount(pieces[stub], minlength=count)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    held = (tip_area >= min_tip) & (extent <= max_extent)
    held[0] = False
    out = stub.copy()
    for k in np.nonzero(held)[0]:
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        win = np.s_[y : y + ch, x : x + cw]
        mine = pieces[win] == k
        if labels is not None and _paper_share(labels, (x, y, cw, ch), reach) < min_paper:
            continue
        if sea is not None and _near_sea(mine, sea, (x, y, cw, ch), sea_reach):
            continue
        tips = (stub[win] & mine).view(np.uint8)
        near = cv2.distanceTransform(1 - tips, cv2.DIST_L2, 3) <= reach
        root = mine & near
        if labels is not None and _touches_two(root, labels, (x, y, cw, ch)):
            continue
        out[win] |= root
    return out


def _paper_share(labels: NDArray[np.int32], box: tuple[int, int, int, int], margin: float) -> float:
    """The share of countries' paper in the window ``box`` x, y, width,
    height of ``labels`` widened by ``margin`` pixels."""
    h, w = labels.shape
    x, y, cw, ch = box
    m = int(np.ceil(margin))
    around = labels[max(0, y - m) : min(h, y + ch + m), max(0, x - m) : min(w, x + cw + m)]
    return float(np.count_nonzero(around) / around.size)


def _near_sea(
    piece: NDArray[np.bool_],
    sea: NDArray[np.bool_],
    box: tuple[int, int, int, int],
    reach: float,
) -> bool:
    """Whether at least half of ``piece`` (in the window ``box`` x, y,
    width, height of ``sea``) lies within ``reach`` pixels of the sea."""
    h, w = sea.shape
    x, y, cw, ch = box
    m = int(np.ceil(reach)) + 1
    y0, x0 = max(0, y - m), max(0, x - m)
    around = sea[y0 : min(h, y + ch + m), x0 : min(w, x + cw + m)]
    if not around.any():
        return False
    dist = cv2.distanceTransform((~around).view(np.uint8), cv2.DIST_L2, 3)
    near = dist[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw] <= reach
    return bool(2 * np.count_nonzero(near & piece) >= np.count_nonzero(piece))


def _touches_two(
    piece: NDArray[np.bool_], labels: NDArray[np.int32], box: tuple[int, int, int, int]
) -> bool:
    """Whether ``piece`` (in the window ``box`` x, y, width, height of
    ``labels``) has 8-neighbours in two countries."""
    h, w = labels.shape
    x, y, cw, ch = box
    y0, x0 = max(0, y - 1), max(0, x - 1)
    win = labels[y0 : min(h, y + ch + 1), x0 : min(w, x + cw + 1)]
    grown = np.zeros(win.shape, np.uint8)
    grown[y - y0 : y - y0 + ch, x - x0 : x - x0 + cw] = piece
    touched = cv2.dilate(grown, np.ones((3, 3), np.uint8)) > 0
    near = win[touched & (win > 0)]
    return near.size > 0 and bool((near != near[0]).any())


def welded_seeds(
    raw_borders: NDArray[np.bool_], found: _Found
) -> tuple[NDArray[np.int32], NDArray[np.bool_]] | None:
    """The countries of ``found`` over the paper that gap closing took from them.

    Gap closing fills the narrow paper between a digit welded to a border
    and that border: the filled blob is as wide as the digit, the boundary
    between the countries on either side runs down its middle, and the digit
    lies too near it for the protrusion test. The paper before closing that
    is in no country after it (what closing filled, and the pockets it left
    too small for a country), in connected pieces (4-connected: not across a
    thin line's diagonal step), belongs to the one country a piece touches
    when it touches only one: grown from there, the boundary runs down the
    line the digit hangs on, and the digit sticks out of its country.

    Parameters
    ----------
    raw_borders : (H, W) bool
        The border network before gap closing.
    found : _Found
        Countries after gap closing.

    Returns
    -------
    seeds : (H, W) int32
        ``found.labels`` with those pieces labelled, ...
    barrier : (H, W) bool
        ... and ``found.barrier`` without them; None when there are none.
    """
    labels = found.labels
    h, w = labels.shape
    unowned = ((labels == 0) & ~raw_borders & ~found.sea).view(np.uint8)
    # Few pixels (the filled gaps and pockets): worked on as a list.
    points = cv2.findNonZero(unowned)
    if points is None:
        return None
    count, pieces, _, _ = connected_components(unowned, stats=False, connectivity=4)
    xs, ys = points.reshape(-1, 2).T
    piece = pieces[ys, xs].astype(np.int64)
    m = int(labels.max()) + 1
    # The countries each piece touches (4-neighbours; clipped at the image's
    # edge, where a pixel is its own neighbour and in no country).
    near = np.concatenate(
        [
            labels[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)]
            for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1))
        ]
    ).astype(np.int64)
    held = np.tile(piece, 4)
    key = np.unique(held[near > 0] * m + near[near > 0])
    if len(key) == 0:
        return None
    holder, held_country = key // m, key % m
    owner = np.zeros(count, dtype=np.int32)
    owner[holder] = held_country
    owner[np.bincount(holder, minlength=count) != 1] = 0
    mine = owner[piece]
    if not mine.any():
        return None
    seeds, barrier = labels.copy(), found.barrier.copy()
    owned = mine > 0
    seeds[ys[owned], xs[owned]] = mine[owned]
    barrier[ys[owned], xs[owned]] = False
    return seeds, barrier


def writing_height(writing: NDArray[np.bool_], line_width: float) -> float:
    """Typical height in pixels of the writing ``writing`` (H, W) bool: the
    median height of the taller half of its components (8-connected) of some
    substance (see ``HEIGHT_MIN_EXTENT_LW``); underlines and dots are short."""
    _, _, stats, _ = connected_components(writing.view(np.uint8))
    return _component_height(stats[1:], line_width)


def _component_height(stats: NDArray[np.int32], line_width: float) -> float:
    """:func:`writing_height` from the statistics of the writing's components
    (background row left out)."""
    big = (stats[:, cv2.CC_STAT_AREA] >= HEIGHT_MIN_AREA_LW2 * line_width**2) & (
        np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
        >= HEIGHT_MIN_EXTENT_LW * line_width
    )
    heights = np.sort(stats[big, cv2.CC_STAT_HEIGHT])
    if heights.size == 0:
        return HEIGHT_DEFAULT_LW * line_width
    return float(np.median(heights[len(heights) // 2 :]))


def _straight_lines(mask: NDArray[np.bool_], kernels: list[NDArray[np.uint8]]) -> NDArray[np.bool_]:
    """The pixels of ``mask`` on a straight line as long as one of the line
    ``kernels`` (see :func:`_line_kernels`), grown by ``STROKE_LINE_GROW_PX``."""
    m = mask.view(np.uint8)
    lines = np.zeros_like(m)
    for kernel in kernels:
        lines |= np.asarray(cv2.morphologyEx(m, cv2.MORPH_OPEN, kernel), np.uint8)
    grow = np.ones((2 * STROKE_LINE_GROW_PX + 1,) * 2, np.uint8)
    return np.asarray(cv2.dilate(lines, grow), np.uint8) > 0


def _line_kernels(length: float, count: int) -> list[NDArray[np.uint8]]:
    """One-pixel straight lines ``length`` pixels long (odd), at ``count``
    angles over 180 degrees, each in a square kernel."""
    side = int(round(length)) | 1
    c = side // 2
    kernels = []
    for a in np.arange(count) * np.pi / count:
        k = np.zeros((side, side), np.uint8)
        dx, dy = np.cos(a) * c, np.sin(a) * c
        ends = (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy)))
        cv2.line(k, ends[0], ends[1], 1, 1)
        kernels.append(k)
    return kernels


def _majority_label(labels: NDArray[np.int32], piece: NDArray[np.bool_]) -> int:
    """The commonest country label (> 0) under ``piece``; 0 when none."""
    under = labels[piece]
    under = under[under > 0]
    return int(np.bincount(under).argmax()) if under.size else 0


def welded_strokes(
    borders: NDArray[np.bool_],
    writing: NDArray[np.bool_],
    labels: NDArray[np.int32],
    ink: NDArray[np.bool_],
    *,
    line_width: float,
    settings: ReaderSettings,
) -> NDArray[np.bool_]:
    """Strokes of numbers welded to a border that the borders kept (issues 5, 6).

    A number whose strokes touch a border loses them to the border network
    when they are joined to it in the raw ink; what is left in the writing
    touches the border. Around such writing (``SEED_MAX_WIDTH`` and
    ``SEED_MIN_HEIGHT``: not a heading's rule), in a country that holds no
    other writing of a number's height (``welded_stroke_clean``), border ink that no
    straight line ``welded_stroke_line`` writing heights long fits in (a
    morphological opening along 12 directions: the border line is straight at
    that scale, a digit's strokes bend and are shorter) and that touches the
    writing is a stroke of the number when it sticks ``welded_stroke_depth``
    writing heights out of the line, into the writing's own country (its
    paper all round, not a country on the other side: a stretch of border).

    Parameters
    ----------
    borders, writing, labels, ink : (H, W) arrays
        The region stage's borders and writing (bool), countries (int32, 0
        off every country) and ink mask (bool).
    line_width : float
    settings : ReaderSettings

    Returns
    -------
    (H, W) bool
        The strokes (border ink).
    """
    h, w = borders.shape
    out = np.zeros((h, w), dtype=bool)
    if settings.welded_stroke_depth <= 0:
        return out
    text_h = writing_height(writing, line_width)
    count, comps, stats, _ = connected_components(writing.view(np.uint8))
    t = max(1, int(round(settings.welded_stroke_touch * line_width)))
    touch = np.ones((2 * t + 1,) * 2, np.uint8)
    near_border = cv2.dilate(borders.view(np.uint8), touch) > 0
    touching = np.zeros(count, dtype=bool)
    touching[np.unique(comps[near_border & writing])] = True
    touching[0] = False
    min_area = settings.welded_stroke_area * line_width**2
    seeds = np.flatnonzero(
        touching
        & (stats[:, cv2.CC_STAT_AREA] >= min_area)
        & (stats[:, cv2.CC_STAT_WIDTH] <= SEED_MAX_WIDTH * text_h)
        & (stats[:, cv2.CC_STAT_HEIGHT] >= SEED_MIN_HEIGHT * text_h)
    )
    if seeds.size == 0:
        return out

    def country(k: int) -> int:
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        win = np.s_[y : y + ch, x : x + cw]
        return _majority_label(labels[win], comps[win] == k)

    clean = np.flatnonzero(
        ~touching & (stats[:, cv2.CC_STAT_HEIGHT] >= settings.welded_stroke_clean * text_h)
    )
    numbered = {country(int(k)) for k in clean[clean > 0]}
    seeds = np.array([k for k in seeds if country(int(k)) not in numbered | {0}], dtype=np.intp)
    kernels = _line_kernels(settings.welded_stroke_line * text_h, STROKE_ANGLES)
    margin = int(round(settings.welded_stroke_reach * text_h)) + len(kernels[0])
    ring = np.ones((2 * STROKE_RING_PX + 1,) * 2, np.uint8)
    for k in seeds:
        x, y, cw, ch = (int(v) for v in stats[k, :4])
        y0, x0 = max(0, y - margin), max(0, x - margin)
        win = np.s_[y0 : min(h, y + ch + margin), x0 : min(w, x + cw + margin)]
        lines = _straight_lines(borders[win], kernels)
        rest = borders[win] & ~lines
        if not rest.any():
            continue
        _, pieces, pstats, _ = connected_components(rest.view(np.uint8))
        seed = comps[win] == k
        beside = (cv2.dilate(seed.view(np.uint8), touch) > 0) & rest
        hit = np.unique(pieces[beside])
        hit = hit[hit > 0]
        hit = hit[
            (pstats[hit, cv2.CC_STAT_AREA] >= min_area)
            & (
                np.maximum(pstats[hit, cv2.CC_STAT_WIDTH], pstats[hit, cv2.CC_STAT_HEIGHT])
                <= settings.welded_stroke_extent * text_h
            )
        ]
        lab = labels[win]
        own = _majority_label(lab, seed)
        if hit.size == 0 or own == 0:
            continue
        off_line = cv2.distanceTransform((~lines).view(np.uint8), cv2.DIST_L2, 3)
        # Paper of no country reaching the window's edge lies outside the map
        # (pockets between a digit and its border do not reach it).
        unowned = ((lab == 0) & ~ink[win]).view(np.uint8)
        _, zones = cv2.connectedComponents(unowned, connectivity=4)
        edge = np.unique(np.concatenate([zones[0], zones[-1], zones[:, 0], zones[:, -1]]))
        outside = np.isin(zones, edge[edge > 0])
        for j in hit:
            piece = pieces == j
            if off_line[piece].max() < settings.welded_stroke_depth * text_h:
                continue
            around = cv2.dilate(piece.view(np.uint8), ring) > 0
            paper = lab[around & (lab > 0)]
            others = paper.size + np.count_nonzero(around & outside)
            mine = np.count_nonzero(paper == own)
            if paper.size and mine >= settings.welded_stroke_share * others:
                out[win] |= piece
    return out


def _outline(
    grown: NDArray[np.int32], label: int, stat: NDArray[np.int32], reach: float
) -> NDArray[np.int32]:
    """The outer contour (page coordinates) of the largest piece of ``label`` in ``grown``.

    ``stat`` is the box of the label before growing (connected-components
    statistics) and ``reach`` how far it grew (``grow_labels``): its chamfer
    distances are at least the larger offset along x or y, so the grown label
    lies in the box widened by ``reach``. The contours are traced in that box
    (with a margin of paper, or the image's own edge) rather than over the
    whole page: the same contours, in the same order, one box per country.
    """
    h, w = grown.shape
    m = int(reach) + 2
    x, y, bw, bh = (int(v) for v in stat[:4])
    x0, y0 = max(0, x - m), max(0, y - m)
    x1, y1 = min(w, x + bw + m), min(h, y + bh + m)
    region_mask = (grown[y0:y1, x0:x1] == label).view(np.uint8)
    contours, _ = cv2.findContours(
        region_mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0)
    )
    return max(contours, key=cv2.contourArea)


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

    ink = find_ink(work, settings=settings, rectified=page.rectified)
    mask = ink.mask.copy()
    if page.rectified:
        # The sheet's own edge (shadow, curl) is not a border.
        m = max(1, int(round(settings.page_margin * max(h, w))))
        mask[:m] = mask[-m:] = False
        mask[:, :m] = mask[:, -m:] = False
    lw = ink.line_width
    count, lab, stats, _ = connected_components(mask.astype(np.uint8))
    tiny = stats[:, cv2.CC_STAT_AREA] < settings.ink_min_blob * lw * lw
    tiny[0] = False
    specks = mask & tiny.take(lab)
    mask &= ~specks
    if not mask.any():
        raise MapNotFoundError("no drawing found on the page")
    t2 = time.perf_counter()
    timings["ink"] = t2 - t1

    # Writing first, on the raw ink: closing gaps would weld numbers to the
    # borders next to them. Then close the gaps of the borders only, and look
    # again (closing can join fragments of writing into a bigger one).
    rings = np.zeros_like(mask)
    borders, writing = split_writing(
        mask,
        line_width=lw,
        settings=settings,
        ruling=ink.ruling,
        colour=work,
        rings=rings,
        page_ink=ink if settings.empty_loop_inradius > 0 else None,
    )
    # (The linking rules shared by the writing pieces and the border dashes.)
    link = functools.partial(
        linked_fragments,
        line_width=lw,
        min_length=settings.link_min_length * lw,
        min_straightness=settings.link_straightness,
        max_fill=settings.link_max_fill,
        reach=settings.link_reach * lw,
        ruling=ink.ruling,
        max_on_ruling=settings.bridge_max_on_ruling,
    )
    if settings.link_reach > 0:
        linked = link(
            borders,
            writing,
            beside=settings.link_beside * lw,
            colour=work,
            contrast=settings.link_beside_contrast,
            short_length=settings.link_short_length * lw,
            short_reach=settings.link_short_reach * lw,
        )
        borders |= linked
        writing &= ~linked
    else:
        linked = np.zeros_like(borders)
    if settings.chain_min_span > 0 and settings.link_reach > 0:
        chained = chained_fragments(
            borders,
            writing,
            line_width=lw,
            min_length=settings.chain_min_length * lw,
            max_fill=settings.link_max_fill,
            reach=settings.link_reach * lw,
            min_span=settings.chain_min_span * writing_height(writing, lw),
            max_chain_fill=settings.chain_max_fill,
            ruling=ink.ruling,
            max_on_ruling=settings.bridge_max_on_ruling,
        )
        borders |= chained
        writing &= ~chained
        linked |= chained
    if settings.link_dash_length > 0 and specks.any():
        # A stretch of border between two gaps, short enough to pass for
        # noise: bridging finds no loose end where it ran from one junction
        # to the next, and the countries on either side merge.
        dashes = link(
            borders,
            specks,
            short_length=settings.link_dash_length * lw,
            short_reach=settings.link_dash_reach * lw,
        )
        dashes = lone_dashes(
            dashes,
            writing,
            borders,
            line_width=lw,
            max_width=settings.link_dash_width * lw,
            min_fill=settings.link_dash_fill,
            clear=settings.link_dash_clear * lw,
            reach=settings.link_dash_reach * lw,
            cone=settings.bridge_cone,
        )
        borders |= dashes
        linked |= dashes
        mask |= dashes
    if settings.curl_ratio > 0:
        # A digit welded to a border by one end would be tied to another
        # border by gap closing and split its country in two.
        curled = curled_branches(
            borders,
            line_width=lw,
            max_extent=settings.writing_max_extent * max(h, w),
            min_length=settings.curl_min_length * lw,
            min_ratio=settings.curl_ratio,
            keep=settings.curl_keep * lw,
            min_hole=settings.curl_max_hole * lw,
        )
        borders &= ~curled
        writing |= curled
    # Linked pieces count as gap closing's work for the cut-pocket test.
    raw_borders = borders & ~linked
    pre_closing = borders  # linked pieces included: their ends are loose ends
    closed = close_gaps(
        borders, gap=settings.gap_close * lw, edge=int(round(settings.gap_step_edge * lw))
    )
    if settings.gap_end_min_branch > 0:
        closed = join_facing_ends(
            closed,
            borders,
            line_width=lw,
            gap=settings.gap_close * lw,
            min_branch=settings.gap_end_min_branch * lw,
            max_thickness=settings.bridge_max_thickness * lw,
            ruling=ink.ruling,
            max_on_ruling=settings.bridge_max_on_ruling,
            cone=settings.gap_end_cone,
        )
    borders, more_writing = split_writing(
        closed, line_width=lw, settings=settings, ruling=ink.ruling, rings=rings
    )
    writing |= more_writing & mask

    def loosely() -> _Found:
        # The current borders' countries, with the loose country test.
        return _countries(
            borders, line_width=lw, settings=settings, min_inradius=settings.stub_country_inradius
        )

    # Writing that touches a border is welded to the border network. Border
    # ink lies along the boundaries between countries (and the coast); ink
    # far from every such boundary sticks out into one country: writing.
    # A big digit welded to a border leaves too little room around it for
    # the country test, so countries are first taken loosely here.
    loose = loosely()
    if settings.swallowed_min_area > 0:
        swallowed = swallowed_countries(
            raw_borders,
            loose.labels,
            loose.sea,
            min_inradius=settings.stub_country_inradius * lw,
            min_area=settings.swallowed_min_area * lw * lw,
            hull=settings.swallowed_hull * lw,
            hull_area=settings.country_min_area * lw * lw,
            min_share=settings.swallowed_hull_share,
        )
        if swallowed.any():
            borders &= ~swallowed
            writing |= swallowed & mask
            loose = loosely()
    if settings.neck_end_reach > 0:
        # Closing also joins lines that pass close without stopping there:
        # a country's narrow neck is no border.
        neck = neck_closings(
            pre_closing,
            borders,
            loose.labels,
            min_width=settings.neck_min_width * lw,
            end_reach=settings.neck_end_reach * lw,
            side_reach=settings.neck_side_reach * lw,
        )
        if neck.any():
            borders &= ~neck
            loose = loosely()
    if settings.cut_pocket_inradius > 0:
        cut = cut_pockets(
            raw_borders,
            loose.pockets,
            loose.inradius,
            min_inradius=settings.stub_country_inradius * lw,
            max_inradius=settings.cut_pocket_inradius * lw,
        )
        if cut.any():
            borders &= ~cut
            loose = loosely()

    if settings.welded_split_extent > 0:
        text_h = writing_height(writing, lw)
        split = welded_splits(
            raw_borders,
            borders,
            loose.pockets,
            loose.inradius,
            writing,
            min_inradius=settings.stub_country_inradius * lw,
            max_extent=settings.welded_split_extent * text_h,
            reach=(settings.gap_close + 1) * lw,
            clean_height=settings.welded_stroke_clean * text_h,
            line_length=settings.welded_stroke_line * text_h,
            min_stroke=settings.welded_split_stroke * text_h,
            min_bend=settings.welded_split_bend * text_h,
            min_thickness=settings.welded_split_thickness * lw,
            max_part=settings.welded_split_part * text_h,
            darkness=ink.darkness,
            judge=_number_reader(settings.welded_split_least),
            min_posterior=settings.welded_split_posterior,
            turn_clusters=settings.welded_split_turn_clusters,
        )
        if split.any():
            borders &= ~split
            loose = loosely()

    def bridge(
        b: NDArray[np.bool_],
        reach: float,
        min_branch: float = settings.bridge_min_branch,
        far: NDArray[np.bool_] | None = None,
        ruling: NDArray[np.bool_] | None = ink.ruling,
    ) -> NDArray[np.bool_]:
        return bridge_ends(
            b,
            line_width=lw,
            reach=reach * lw,
            min_branch=min_branch * lw,
            cone=settings.bridge_cone,
            min_thickness=settings.bridge_min_thickness * lw,
            max_thickness=settings.bridge_max_thickness * lw,
            min_length=settings.gap_close * lw,
            ruling=ruling,
            max_on_ruling=settings.bridge_max_on_ruling,
            far=far,
            far_reach=settings.stub_long_reach * lw,
            end_to_end_thickness=settings.bridge_end_to_end_thickness * lw,
        )

    # Writing welded to a border sticks out of its country once the paper
    # that closing filled next to it is the country's again.
    unclosed = raw_borders if settings.welded_writing else None
    stub = _protrusions(borders, loose, line_width=lw, settings=settings, raw_borders=unclosed)
    if stub.any() and settings.stub_bridge_reach > 0:
        # A border broken into pieces hangs off the network: bridged, it
        # may turn out to lie between two countries after all.
        reach = settings.stub_bridge_reach
        # The window holds the ink stub_long_reach from a piece's ends (by
        # default it is no wider than for stub_bridge_reach alone: a wider
        # one gives another skeleton at its edges, and other bridges).
        walk = max(settings.bridge_min_branch, BRIDGE_WALK_LW)
        bridges = stub_bridges(
            borders,
            stub,
            line_width=lw,
            min_extent=settings.stub_bridge_extent * lw,
            max_fill=settings.fragment_max_fill,
            margin=(max(reach + walk, settings.stub_long_reach) + BRIDGE_WINDOW_SLACK_LW) * lw,
            # No ruling test on the windows: a piece of border drawn along a
            # printed line loses stretches with the ruling, and its bridges
            # run along the ruling (the page-sized ruling was once looked up
            # at window coordinates, in effect no test; the windowed test
            # lost s3 610 and dev2 325 their borders).
            bridge=lambda b, far: bridge(b, reach, settings.stub_bridge_min_branch, far, None),
            writing=writing if settings.stub_long_reach > reach else None,
            beside=settings.stub_long_beside * lw,
            max_share=settings.stub_long_share,
            unclosed=raw_borders if settings.stub_raw_fill else None,
            max_density=settings.stub_raw_density,
            window=settings.stub_raw_window,
        )
        if bridges.any():
            tied, measured = _drop_small_bridged(
                borders, borders | bridges, line_width=lw, settings=settings
            )
            added = tied & ~borders
            if added.any():
                rescued = _countries(
                    tied,
                    line_width=lw,
                    settings=settings,
                    min_inradius=settings.stub_country_inradius,
                    measured=measured,
                )
                was = stub.copy()
                stub &= _protrusions(
                    tied, rescued, line_width=lw, settings=settings, raw_borders=unclosed
                )
                # The bridges of the pieces they rescued are border: the
                # last bridging pass need not make them again (not for a
                # branch shorter than bridge_min_branch, and it may tie the
                # piece's end elsewhere or leave it for a small country).
                borders |= _touching(added, was & ~stub)
    if stub.any():
        borders &= ~stub
        writing |= stub & mask
    measured = None
    if settings.bridge_reach > 0:
        # Loose ends left once the writing is off the borders: a border that
        # stops short (faint pencil, a stretch erased with the ruling).
        bridged = bridge(borders, settings.bridge_reach)
        borders, measured = _drop_small_bridged(borders, bridged, line_width=lw, settings=settings)
    if settings.step_seal_inradius > 0:
        sealed = seal_steps(
            borders, min_inradius=settings.step_seal_inradius * lw, ruling=ink.ruling
        )
        if sealed is not borders:
            borders, measured = sealed, None
    found = _countries(borders, line_width=lw, settings=settings, measured=measured)
    if settings.divide_inradius > 0:
        # Stretches of border cut off by gaps at both ends, left as writing.
        divided = dividing_pieces(
            borders,
            writing & mask,
            found,
            line_width=lw,
            min_length=settings.divide_min_length * lw,
            max_fill=settings.link_max_fill,
            min_straightness=settings.divide_straightness,
            end_reach=settings.divide_end_reach * lw,
            min_inradius=settings.divide_inradius * lw,
            min_fill=settings.divide_min_fill,
            ray_reach=settings.bridge_reach * lw,
            beside=settings.stub_long_beside * lw,
            max_share=settings.stub_long_share,
            ruling=ink.ruling,
            max_on_ruling=settings.bridge_max_on_ruling,
            colour=work,
            hue_reach=settings.bridge_reach * lw,
            contrast=settings.link_beside_contrast,
            aim_back=settings.divide_aim_back * lw,
            cone=settings.bridge_cone,
            coast=int(round(settings.gap_step_edge * lw)) if settings.divide_coast else None,
            digit_gap=settings.divide_digit_gap,
            digit_extent=settings.divide_digit_extent,
            darkness=ink.darkness,
            digit_tone=settings.divide_digit_tone,
            held_inradius=settings.divide_held_inradius * lw,
            judge=_number_reader(settings.divide_number_least)
            if settings.divide_number_posterior > 0
            else None,
            min_posterior=settings.divide_number_posterior,
            turn_clusters=settings.welded_split_turn_clusters,
            any_turn=settings.divide_number_any_turn,
        )
        if divided.any():
            borders = borders | divided
            writing &= ~divided
            found = _countries(borders, line_width=lw, settings=settings)
    if settings.country_min_text_area > 0:
        small = glyph_pockets(
            found,
            writing & mask,
            min_area=settings.country_min_text_area * writing_height(writing, lw) ** 2,
        )
        if small.any():
            borders = borders | small
            found = _countries(borders, line_width=lw, settings=settings)
            _give_to_hosts(found.labels, small, reach=int(np.ceil(HOST_REACH_LW * lw)))
    labels, sea_mask, stats = found.labels, found.barrier, found.stats
    order, ids, centroids, area = found.order, found.ids, found.centroids, found.area
    borders, writing = borders & mask, writing & ink.mask
    # The countries are settled: strokes of numbers that are still border ink
    # now go to the writing (the marks stage reads them).
    strokes = welded_strokes(borders, writing, labels, ink.mask, line_width=lw, settings=settings)
    borders &= ~strokes
    writing |= strokes
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
        labels=labels,
        min_apart=settings.corner_contact_apart * lw,
    )
    t4 = time.perf_counter()
    timings["adjacency"] = t4 - t3

    regions: list[Region] = []
    tol = settings.polygon_tolerance * lw
    for new, i in enumerate(order, start=1):
        k = ids[i]
        outline = _outline(grown, new, stats[k], settings.adjacency_reach * lw)
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
        borders=borders,
        writing=writing,
        labels=labels,
        regions=regions,
        adjacency=adjacency,
        line_width=lw,
        to_photo=page.to_photo,
        photo_size=photo_size,
        timings=timings,
        ruled=bool(ink.ruling.any()),
    )
