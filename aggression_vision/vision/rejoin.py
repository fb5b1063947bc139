"""Countries cut in two by writing, joined again when the cut reads as writing.

Writing stuck to a country's borders can part the country: gap closing ties
the writing to the opposite border and the boundary between the two pieces
runs down the writing's strokes. No shape test tells such a boundary from a
short real border. Here the marks network is asked: the ink dividing two
countries along a short boundary (without the borders it ends on), with the
writing touching it, is read as one cluster at the page's writing angle, and
a sure number or letter joins the two countries; the ink is then writing of
the joined country, and the marks stage reads the page again.

The network reads a border's stroke or corner as "1", "7", "L", "T" ... with
the same confidence as writing: those readings never join, and the marks
stage's own reading must allow one country (one of the two holds no number,
and the other's number is not what the dividing ink reads as). Runs after a
first reading of the marks (it needs their angle and numbers): see
:func:`aggression_vision.vision.pipeline.read_image`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.vision import digits
from aggression_vision.vision.adjacency import grow_labels
from aggression_vision.vision.ink import connected_components
from aggression_vision.vision.marks import (
    MarksSettings,
    PageReading,
    _background_side,
    _paper_minus_gray,
    _percentile90,
    _readings,
    rotate_ink,
)
from aggression_vision.vision.regions import _reading_order, _to_photo
from aggression_vision.vision.settings import ReaderSettings
from aggression_vision.vision.types import CountryMarks, Region, Segmentation


@dataclass(frozen=True)
class Candidate:
    """Two countries parted by a short boundary and the ink dividing them.

    Attributes
    ----------
    a, b : int
        Region indices, a < b.
    length : float
        Their common boundary (working pixels, as in ``Segmentation.adjacency``).
    window : (y0, y1, x0, x1)
        Where ``cut`` and ``ink`` lie in the page.
    cut : (h, w) bool
        The border ink along the boundary.
    ink : (h, w) bool
        ``cut`` and the writing touching it: what is read.
    """

    a: int
    b: int
    length: float
    window: tuple[int, int, int, int]
    cut: NDArray[np.bool_]
    ink: NDArray[np.bool_]


def _disk(radius: float) -> NDArray[np.uint8]:
    r = max(1, int(round(radius)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


def text_height(seg: Segmentation, settings: ReaderSettings) -> float:
    """Typical writing height (pixels): the median height of the taller half of the
    writing's components, as the marks stage measures it."""
    cfg = MarksSettings()
    lw = max(float(seg.line_width), 1.0)
    writing = (seg.writing | (seg.ink & ~seg.borders)).view(np.uint8)
    n, _, stats, _ = connected_components(writing)
    st = np.asarray(stats)[1:]
    big = (st[:, 4] >= cfg.min_component_area * lw * lw) & (
        np.maximum(st[:, 2], st[:, 3]) >= cfg.min_component_height * lw
    )
    hs = np.sort(st[big, 3].astype(float))
    return float(np.median(hs[len(hs) // 2 :])) if len(hs) else 5.0 * lw


def _page_text_height(page: PageReading) -> float | None:
    """The writing height the marks stage grouped the page's clusters by (a
    cluster's ``height`` is its box's height over it)."""
    for cl in page.clusters:
        if cl.split_of is None and cl.height > 0 and cl.bbox[3] > cl.bbox[1]:
            return float(cl.bbox[3] - cl.bbox[1]) / cl.height
    return None


def candidates(
    seg: Segmentation,
    settings: ReaderSettings,
    marks: dict[int, CountryMarks] | None = None,
) -> list[Candidate]:
    """Pairs of countries whose boundary is short, with the ink along it.

    With ``marks`` (what the marks stage read), only pairs one of which holds
    no number (see :func:`_apart`).
    """
    lw = max(float(seg.line_width), 1.0)
    areas = {r.index: r for r in seg.regions}
    reach = settings.adjacency_reach * lw
    m = int(reach) + 2
    hh, ww = seg.labels.shape
    writing_all = seg.writing | (seg.ink & ~seg.borders)
    out = []
    for a, b, length in seg.adjacency:
        if length > settings.rejoin_max_boundary * lw:
            continue
        if marks is not None and not _apart(a, b, None, marks):
            continue
        ra, rb = areas[a], areas[b]
        if min(ra.area, rb.area) > settings.rejoin_max_area * lw * lw:
            continue
        # The boundary lies where both countries' grown boxes meet; a label
        # grown there comes from at most ``reach`` further.
        x0 = max(ra.bbox[0], rb.bbox[0]) - 2 * m
        y0 = max(ra.bbox[1], rb.bbox[1]) - 2 * m
        x1 = min(ra.bbox[2], rb.bbox[2]) + 2 * m
        y1 = min(ra.bbox[3], rb.bbox[3]) + 2 * m
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(ww, x1), min(hh, y1)
        if x1 <= x0 or y1 <= y0:
            continue
        win = np.s_[y0:y1, x0:x1]
        sub = seg.labels[win]
        grown = grow_labels(sub, reach=reach)
        ga, gb = (grown == a).view(np.uint8), (grown == b).view(np.uint8)
        k3 = np.ones((3, 3), np.uint8)
        contact = ((cv2.dilate(ga, k3) & gb) | (cv2.dilate(gb, k3) & ga)).view(bool)
        if not contact.any():
            continue
        near = cv2.dilate(contact.view(np.uint8), _disk(settings.rejoin_cut_reach * lw)).view(bool)
        pair = (grown == a) | (grown == b)
        # The borders the boundary ends on (with a third country or the sea) are
        # left out: only the ink between the two countries is read.
        ends = (cv2.dilate((~pair).view(np.uint8), k3).view(bool) & pair).view(np.uint8)
        away = cv2.dilate(ends, _disk(settings.rejoin_end_reach * lw)).view(bool)
        cut = near & seg.borders[win] & pair & ~away
        if not cut.any():
            continue
        touch = cv2.dilate(cut.view(np.uint8), _disk(settings.rejoin_touch_reach * lw)).view(bool)
        wr = writing_all[win] & ((sub == a) | (sub == b))
        n, cc, st, _ = connected_components(wr.view(np.uint8))
        cc = np.asarray(cc)
        hit = np.unique(cc[touch & wr])
        hit = hit[hit > 0]
        ink = cut | np.isin(cc, hit)
        out.append(Candidate(a, b, float(length), (y0, y1, x0, x1), cut, ink))
    return out


def crop(
    seg: Segmentation, cand: Candidate, text_h: float, settings: ReaderSettings
) -> NDArray[np.float32]:
    """Ink darkness 0..1 of the candidate's ink, everything else blanked (as the marks
    stage cuts a cluster)."""
    mcfg = MarksSettings()
    lw = max(float(seg.line_width), 1.0)
    y0, _, x0, _ = cand.window
    ys, xs = np.nonzero(cand.ink)
    k = _background_side(text_h, mcfg)
    pad = int(round(mcfg.ink_dilate * lw)) + 2 + k
    hh, ww = seg.gray.shape
    by0, by1 = max(0, y0 + ys.min() - pad), min(hh, y0 + ys.max() + 1 + pad)
    bx0, bx1 = max(0, x0 + xs.min() - pad), min(ww, x0 + xs.max() + 1 + pad)
    own = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
    own[ys + y0 - by0, xs + x0 - bx0] = 1
    grow = np.ones((2 * int(round(mcfg.ink_dilate * lw)) + 1,) * 2, np.uint8)
    mask = cv2.dilate(own, grow) > 0
    dark = _paper_minus_gray(seg.gray[by0:by1, bx0:bx1], k)
    inside = dark[mask]
    top = _percentile90(inside) if inside.size else 0.0
    ink = np.asarray(dark / max(top, 1.0), np.float32)
    np.minimum(ink, 1.0, out=ink)
    ink[~mask] = 0.0
    return ink


def merge(seg: Segmentation, joined: list[Candidate], settings: ReaderSettings) -> Segmentation:
    """``seg`` with the countries of each candidate in ``joined`` made one.

    The dividing ink becomes writing of the joined country; the countries are
    numbered again in reading order; the joined country's outline is the union
    of its parts' outlines (each grown over its borders, as the region stage
    traced them), its boundaries with its neighbours the sum of its parts'.
    """
    if not joined:
        return seg
    lw = max(float(seg.line_width), 1.0)
    n = len(seg.regions)
    parent = list(range(n + 1))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for c in joined:
        ra, rb = root(c.a), root(c.b)
        parent[max(ra, rb)] = min(ra, rb)
    lut = np.array([root(i) for i in range(n + 1)], np.int32)
    labels = lut.take(seg.labels)
    borders = seg.borders.copy()
    writing = seg.writing.copy()
    for c in joined:
        y0, y1, x0, x1 = c.window
        win = np.s_[y0:y1, x0:x1]
        borders[win] &= ~c.cut
        writing[win] |= c.cut
        sub = labels[win]
        sub[c.cut & (sub == 0)] = lut[c.a]
    groups: dict[int, list[Region]] = {}
    for r in seg.regions:
        groups.setdefault(int(lut[r.index]), []).append(r)
    keys = sorted(groups)
    merged: dict[int, Region] = {}
    to_work = np.linalg.inv(seg.to_photo)
    tol = settings.polygon_tolerance * lw
    for k in keys:
        parts = groups[k]
        if len(parts) == 1:
            merged[k] = parts[0]
            continue
        x0 = min(p.bbox[0] for p in parts)
        y0 = min(p.bbox[1] for p in parts)
        x1 = max(p.bbox[2] for p in parts)
        y1 = max(p.bbox[3] for p in parts)
        m = int(settings.adjacency_reach * lw) + 4
        ox, oy = x0 - m, y0 - m
        canvas = np.zeros((y1 - y0 + 2 * m, x1 - x0 + 2 * m), np.uint8)
        for p in parts:
            pts = _to_photo(np.asarray(p.polygon, np.float64), to_work) - (ox, oy)
            cv2.fillPoly(canvas, [np.round(pts).astype(np.int32)], 1)
        canvas = cv2.morphologyEx(canvas, cv2.MORPH_CLOSE, _disk(lw))
        contours, _ = cv2.findContours(
            canvas, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(ox, oy)
        )
        outline = max(contours, key=cv2.contourArea)
        outline = cv2.approxPolyDP(outline, tol, True).reshape(-1, 2).astype(np.float64)
        photo = _to_photo(outline, seg.to_photo)
        area = sum(p.area for p in parts)
        cx = sum(p.centroid[0] * p.area for p in parts) / max(area, 1.0)
        cy = sum(p.centroid[1] * p.area for p in parts) / max(area, 1.0)
        merged[k] = Region(
            index=k,
            polygon=[(round(float(px), 1), round(float(py), 1)) for px, py in photo],
            area=float(area),
            centroid=(float(cx), float(cy)),
            bbox=(x0, y0, x1, y1),
        )
    centroids = [merged[k].centroid for k in keys]
    heights = [float(merged[k].bbox[3] - merged[k].bbox[1]) for k in keys]
    order = _reading_order(centroids, heights)
    renumber = np.zeros(n + 1, np.int32)
    regions = []
    for new, i in enumerate(order, start=1):
        renumber[keys[i]] = new
        regions.append(replace(merged[keys[i]], index=new))
    final = renumber.take(lut)
    lengths: dict[tuple[int, int], float] = {}
    for i, j, length in seg.adjacency:
        fi, fj = int(final[i]), int(final[j])
        if fi != fj:
            key = (min(fi, fj), max(fi, fj))
            lengths[key] = lengths.get(key, 0.0) + length
    return replace(
        seg,
        borders=borders,
        writing=writing,
        labels=final.take(labels),
        regions=regions,
        adjacency=sorted((i, j, v) for (i, j), v in lengths.items()),
    )


def rejoin(
    seg: Segmentation,
    settings: ReaderSettings | None = None,
    *,
    page: PageReading | None = None,
) -> Segmentation:
    """Join the countries parted by writing (see the module's docstring).

    Parameters
    ----------
    seg : Segmentation
        Output of :func:`aggression_vision.vision.regions.segment`.
    settings : ReaderSettings, optional
    page : PageReading, optional
        The marks stage's reading of ``seg``: the writing's angle and height,
        and the countries' numbers (see :func:`_apart`). Without it, the
        writing is taken as upright and the reading of the dividing ink alone
        decides.

    Returns
    -------
    Segmentation
        ``seg`` itself when nothing is joined, else a new one (labels, regions,
        adjacency, borders and writing made consistent).
    """
    settings = settings or ReaderSettings()
    if not settings.rejoin or not seg.regions:
        return seg
    marks = page.marks if page is not None else None
    angle = page.angle if page is not None else 0.0
    cands = candidates(seg, settings, marks)
    if not cands:
        return seg
    text_h = _page_text_height(page) if page is not None else None
    if text_h is None:
        text_h = text_height(seg, settings)
    crops = [crop(seg, c, text_h, settings) for c in cands]
    net = digits.load_net()
    out = net.run(np.stack([digits.to_input(rotate_ink(c, angle)) for c in crops]))
    texts, probs, _, _ = _readings(out.logprobs)
    sure = [
        (c, t)
        for c, t, p in zip(cands, texts, probs, strict=True)
        if _joins(t, p, settings) and _apart(c.a, c.b, t, marks)
    ]
    # The writing touching the dividing ink, read without it: when it reads
    # the same, or as the number the marks stage gave its country, the
    # dividing ink is a border that writing touches, not part of the writing.
    alone = [replace(c, ink=c.ink & ~c.cut) for c, _ in sure]
    has = [i for i, c in enumerate(alone) if c.ink.any()]
    own: dict[int, str] = {}
    if has:
        again = net.run(
            np.stack(
                [
                    digits.to_input(rotate_ink(crop(seg, alone[i], text_h, settings), angle))
                    for i in has
                ]
            )
        )
        own = dict(zip(has, _readings(again.logprobs)[0], strict=True))
    joined = [
        c
        for i, (c, t) in enumerate(sure)
        if i not in own or (own[i] != t and _apart(c.a, c.b, own[i], marks))
    ]
    return merge(seg, joined, settings)


def _joins(text: str, posterior: float, settings: ReaderSettings) -> bool:
    """Whether a reading of the dividing ink is writing: a confident number or
    letter that a border's stroke or corner does not read as
    (``rejoin_stroke_readings``)."""
    if text in settings.rejoin_stroke_readings:
        return False
    return posterior >= settings.rejoin_min_posterior


def _apart(a: int, b: int, text: str | None, marks: dict[int, CountryMarks] | None) -> bool:
    """Whether the marks stage's reading of countries ``a`` and ``b`` allows one
    country: one of them holds no number, and the other's number is not what the
    dividing ink reads as (``text``; then it is that country's own writing
    touching the border)."""
    if marks is None:
        return True
    ma, mb = marks.get(a), marks.get(b)
    na = ma.armies if ma is not None else None
    nb = mb.armies if mb is not None else None
    if na is not None and nb is not None:
        return False
    other = na if na is not None else nb
    return other is None or text is None or text != str(other)
