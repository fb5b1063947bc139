"""Drawing on the page: the borders of a map and the writing in its countries.

Geometry comes in millimetres on the page (x right, y down, origin at the
page's top-left corner); drawings go into per-pen ink coverage layers (float32,
0..1) at ``ppm`` pixels per millimetre. OpenCV draws with pixel centres at
integer coordinates, so page pixel ``p`` (corner origin) is drawn at ``p - 0.5``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
import shapely
import shapely.ops
from numpy.typing import NDArray
from shapely.geometry import Polygon, box

from aggression_vision.synth.handwriting import (
    HandStyle,
    jitter_polyline,
    render_crossout,
    render_text,
    render_underline,
)
from aggression_vision.synth.params import SynthParams

_SHIFT = 3  # sub-pixel bits for cv2 drawing


def draw_polylines(
    layer: NDArray[np.float32],
    polylines: Sequence[NDArray[np.float64]],
    width_px: float,
    *,
    closed: bool = False,
) -> None:
    """Draw polylines (page pixels, corner origin) into a coverage layer, in place."""
    thickness = max(1, int(round(width_px)))
    value = float(min(1.0, width_px))  # a pen thinner than a pixel covers it partly
    scale = 1 << _SHIFT
    pts = [
        np.round((np.asarray(p) - 0.5) * scale).astype(np.int32) for p in polylines if len(p) > 1
    ]
    if pts:
        cv2.polylines(layer, pts, closed, value, thickness, cv2.LINE_AA, _SHIFT)


def _extend(pts: NDArray[np.float64], length: float, at_start: bool) -> NDArray[np.float64]:
    """Lengthen (``length`` > 0) or shorten (< 0) a polyline at one end."""
    if at_start:
        return _extend(pts[::-1], length, False)[::-1]
    if length >= 0:
        d = pts[-1] - pts[-min(3, len(pts))]
        n = float(np.hypot(*d))
        if n == 0:
            return pts
        return np.concatenate([pts, pts[-1:] + d / n * length])
    seg = np.hypot(*np.diff(pts, axis=0).T)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    keep = cum <= cum[-1] + length
    if keep.sum() < 2:
        return pts
    return pts[keep]


def draw_borders(
    layer: NDArray[np.float32],
    borders: Sequence[NDArray[np.float64]],
    rng: np.random.Generator,
    params: SynthParams,
    *,
    ppm: float,
    width_mm: float,
    ruler: bool,
) -> None:
    """Draw every border as a hand would: tremor, gaps, overshoots, double strokes.

    Parameters
    ----------
    layer : ndarray of float32, shape (rows, cols)
        Coverage layer of the pen, changed in place.
    borders : sequence of ndarray, shape (N, 2)
        Border lines in page millimetres (closed rings repeat their first point).
    """
    lw = width_mm * ppm
    tremor = 0.03 if ruler else float(rng.uniform(*params.tremor_mm))
    p_double = float(rng.uniform(*params.double_prob)) * (0.3 if ruler else 1.0)
    p_gap = float(rng.uniform(*params.gap_prob))
    p_over = float(rng.uniform(*params.overshoot_prob))
    p_lift = float(rng.uniform(*params.lift_prob))
    strokes = []
    for chain in borders:
        closed = bool(np.allclose(chain[0], chain[-1]))
        pts = chain * ppm
        step = max(1.0, 0.7 * ppm)
        drawn = jitter_polyline(pts, rng, amplitude=tremor * ppm, step=step)
        if closed:
            drawn[-1] = drawn[0]
        else:
            for at_start in (True, False):
                r = rng.random()
                if r < p_gap:
                    drawn = _extend(drawn, -float(rng.uniform(*params.gap_mm)) * ppm, at_start)
                elif r < p_gap + p_over:
                    drawn = _extend(drawn, float(rng.uniform(*params.overshoot_mm)) * ppm, at_start)
        if len(drawn) > 8 and rng.random() < p_lift:
            # The pen was lifted part way: a small gap, or a restart that overlaps.
            k = int(rng.integers(len(drawn) // 4, 3 * len(drawn) // 4))
            g = float(rng.uniform(*params.gap_mm)) * ppm
            head, tail = drawn[: k + 1], drawn[k:]
            if rng.random() < 0.5:
                head = _extend(head, -g / 2, at_start=False)
                tail = _extend(tail, -g / 2, at_start=True)
            else:
                tail = _extend(tail, g, at_start=True) + rng.normal(0, 0.3 * lw, 2)
            strokes.extend([head, tail])
        else:
            strokes.append(drawn)
        if rng.random() < p_double:
            # The second stroke runs slightly apart, with its own tremor and ends.
            tangent = np.gradient(drawn, axis=0)
            norm = np.maximum(np.hypot(tangent[:, 0], tangent[:, 1]), 1e-9)
            normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1) / norm[:, None]
            off = float(rng.uniform(*params.double_offset_lw)) * lw * rng.choice([-1.0, 1.0])
            wobble = 1 + 0.4 * np.sin(np.linspace(0, rng.uniform(1, 4) * np.pi, len(drawn)))
            second = drawn + normal * (off * wobble)[:, None]
            second = jitter_polyline(second, rng, amplitude=tremor * ppm, step=step)
            if not closed and len(second) > 6:
                a = int(rng.integers(0, max(1, len(second) // 8)))
                b = len(second) - int(rng.integers(0, max(1, len(second) // 8)))
                second = second[a:b]
            strokes.append(second)
    draw_polylines(layer, strokes, lw)


def _fit_box(
    poly: Polygon,
    size: tuple[float, float],
    rng: np.random.Generator,
    *,
    margin: float,
    avoid: Polygon | None = None,
    touch: bool = False,
    tries: int = 40,
) -> tuple[float, float] | None:
    """A top-left corner (mm) for a ``size`` box inside ``poly``, or None.

    With ``touch`` the box must cross the border a little (a number written
    against the line), keeping its centre well inside.
    """
    w, h = size
    inner = poly.buffer(-margin)
    if touch:
        inner_centre = poly.buffer(-0.45 * min(w, h))
        region = inner_centre
    else:
        region = poly.buffer(-(margin + 0.5 * min(w, h)))
    if region.is_empty:
        return None
    x0, y0, x1, y1 = region.bounds
    shapely.prepare(inner)
    label = shapely.ops.polylabel(region if region.geom_type == "Polygon" else inner, 0.3)
    for k in range(tries):
        if k == 0 and not touch:
            cx, cy = label.x, label.y
        else:
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            if not region.contains(shapely.Point(cx, cy)):
                continue
        b = box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        if avoid is not None and b.intersects(avoid):
            continue
        inside = inner.contains(b)
        if inside != touch and (not touch or b.intersects(poly.exterior)):
            return cx - w / 2, cy - h / 2
    return None


def render_text_mm(
    text: str,
    rng: np.random.Generator,
    *,
    style: HandStyle,
    ppm: float,
    height_mm: float,
    pen_width_mm: float,
) -> tuple[NDArray[np.float32], tuple[float, float, float, float], float]:
    """Render ``text`` ``height_mm`` high at ``ppm`` pixels per mm with a pen
    ``pen_width_mm`` wide (the pen is kept between 5 % and 22 % of the height).

    Returns
    -------
    patch : ndarray of float32
        The ink coverage, padded.
    box : tuple of float
        (x0, y0, x1, y1) of the characters in patch pixels.
    pen_px : float
        The pen's width in pixels (for the marks drawn with the number).
    """
    h_px = max(6, int(round(height_mm * ppm)))
    pen_rel = float(np.clip(pen_width_mm / height_mm, 0.05, 0.22))
    img, boxes = render_text(text, rng, height_px=h_px, style=replace(style, stroke_width=pen_rel))
    tb = (
        float(min(b[0] for b in boxes)),
        float(min(b[1] for b in boxes)),
        float(max(b[2] for b in boxes)),
        float(max(b[3] for b in boxes)),
    )
    return img, tb, pen_rel * h_px


def ink_extent(
    box: tuple[float, float, float, float],
    marks: Sequence[NDArray[np.float64]],
    pen_px: float,
    ppm: float,
) -> tuple[NDArray[np.float64], tuple[float, float]]:
    """Top-left corner (patch pixels) and size (mm) of the ink of a number: its
    characters' ``box`` and the polylines ``marks``, widened by half the pen.

    The ink is fitted, not the padded patch: at low resolution the padding would be
    millimetres wide.
    """
    half_pen = 0.5 * pen_px
    allpts = np.concatenate([np.array([box[:2], box[2:]]), *marks])
    lo = allpts.min(axis=0) - half_pen
    hi = allpts.max(axis=0) + half_pen
    return lo, ((hi[0] - lo[0]) / ppm, (hi[1] - lo[1]) / ppm)


def write_text(
    layer: NDArray[np.float32],
    poly: Polygon,
    text: str,
    rng: np.random.Generator,
    params: SynthParams,
    *,
    style: HandStyle,
    ppm: float,
    height_mm: float,
    pen_width_mm: float,
    underline: bool = False,
    crossout: bool = False,
    avoid: Polygon | None = None,
    touch: bool = False,
) -> tuple[float, float, float, float] | None:
    """Write ``text`` (with its marks) somewhere inside ``poly`` (page mm).

    Returns the box (x0, y0, x1, y1) in page mm of what was written, or None
    when even a small version does not fit (then nothing is written).
    """
    shrinks = (1.0, 0.8, 0.65, 0.5, 0.4)
    for shrink in shrinks:
        img, tb, pen_px = render_text_mm(
            text, rng, style=style, ppm=ppm, height_mm=height_mm * shrink, pen_width_mm=pen_width_mm
        )
        marks: list[NDArray[np.float64]] = []
        if underline:
            kind = _pick(rng, params.underline_kinds)
            marks += render_underline(tb, rng, kind=kind)  # type: ignore[arg-type]
        if crossout:
            kind = _pick(rng, params.crossout_kinds)
            marks += render_crossout(tb, rng, kind=kind)  # type: ignore[arg-type]
        # Fit the ink (characters and marks), see ink_extent.
        lo, size_mm = ink_extent(tb, marks, pen_px, ppm)
        margin = max(0.6, 1.5 * pen_width_mm)
        # Around a number already written, free spots are few: look harder.
        tries = 40 if avoid is None else 120
        spot = _fit_box(poly, size_mm, rng, margin=margin, avoid=avoid, touch=touch, tries=tries)
        if spot is None and shrink == shrinks[-1] and avoid is None:
            # A tiny country: write it anyway, centred, across the lines if need be.
            c = shapely.ops.polylabel(poly, 0.2)
            spot = (c.x - size_mm[0] / 2, c.y - size_mm[1] / 2)
        if spot is None:
            continue
        # Patch coordinates -> page pixels, by a whole-pixel offset.
        ox = int(round(spot[0] * ppm - lo[0]))
        oy = int(round(spot[1] * ppm - lo[1]))
        h, w = img.shape
        ys, xs = int(oy), int(ox)
        y0c, x0c = max(0, ys), max(0, xs)
        y1c, x1c = min(layer.shape[0], ys + h), min(layer.shape[1], xs + w)
        if y1c > y0c and x1c > x0c:
            sub = img[y0c - ys : y1c - ys, x0c - xs : x1c - xs]
            np.maximum(layer[y0c:y1c, x0c:x1c], sub, out=layer[y0c:y1c, x0c:x1c])
        if marks:
            draw_polylines(layer, [m + np.array([ox, oy]) for m in marks], pen_px)
        x0_mm, y0_mm = (ox + lo[0]) / ppm, (oy + lo[1]) / ppm
        return (x0_mm, y0_mm, x0_mm + size_mm[0], y0_mm + size_mm[1])
    return None


def write_label(
    layer: NDArray[np.float32],
    poly: Polygon,
    text: str,
    rng: np.random.Generator,
    params: SynthParams,
    *,
    style: HandStyle,
    ppm: float,
    height_mm: float,
    pen_width_mm: float,
    avoid: Polygon | None,
) -> tuple[float, float, float, float] | None:
    """Write a country's letter with :func:`write_text`, clear of ``avoid`` (the
    number), at 0.9-1.3 times ``height_mm``; in a crowded country a second try lets
    it touch the border line. Returns the box written (page mm) or None.
    """
    for touch in (False, True):
        got = write_text(
            layer,
            poly,
            text,
            rng,
            params,
            style=style,
            ppm=ppm,
            height_mm=height_mm * float(rng.uniform(0.9, 1.3)),
            pen_width_mm=pen_width_mm,
            avoid=avoid,
            touch=touch,
        )
        if got is not None:
            return got
    return None


def _pick(rng: np.random.Generator, options: tuple[tuple[str, float], ...]) -> str:
    w = np.array([x for _, x in options], dtype=float)
    return options[int(rng.choice(len(options), p=w / w.sum()))][0]


def pencil_texture(
    rng: np.random.Generator, shape: tuple[int, int], kind: str, *, ppm: float
) -> NDArray[np.float32] | None:
    """Multiplicative texture of a pen's strokes, or None for an even felt pen.

    Graphite grain (per pixel) times a slow change of pressure along the
    strokes (a few millimetres across), both stronger for a pencil than for a
    ballpoint.
    """
    grain, pressure = {
        "pencil": (0.35, 0.45),
        "ballpoint_blue": (0.12, 0.2),
        "ballpoint_black": (0.12, 0.2),
    }.get(kind, (0.0, 0.0))
    if grain == 0.0:
        return None
    t = 128
    tile = 1.0 - grain * rng.random((t, t)).astype(np.float32)
    reps = (shape[0] // t + 1, shape[1] // t + 1)
    tex = np.tile(tile, reps)[: shape[0], : shape[1]]
    cells = max(2, int(shape[0] / (4.0 * ppm)))  # pressure changes over ~4 mm
    small = rng.random((cells, max(2, int(cells * shape[1] / shape[0])))).astype(np.float32)
    slow = cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(tex, 1.0 - pressure * slow, dst=tex)
    return tex


def reading_order(points: NDArray[np.float64], band: float) -> list[int]:
    """Indices of ``points`` (x, y) in reading order: rows of height ``band``, then x."""
    keys = [(math.floor(p[1] / band), p[0]) for p in points]
    return sorted(range(len(points)), key=lambda i: keys[i])
