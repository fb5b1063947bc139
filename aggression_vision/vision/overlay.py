"""Draw a reading (or a suggestion) over the photo, readable on a phone screen."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.document import write_atomic
from aggression_vision.errors import AggressionVisionError

# BGR colours: owners, unoccupied, adjacency, outlines.
FIRST = (200, 110, 20)
SECOND = (40, 40, 215)
NOBODY = (150, 150, 150)
ADJACENT = (0, 200, 255)
OUTLINE = (255, 255, 255)
SHADOW = (30, 30, 30)
HIGHLIGHT = (0, 220, 0)
# The drawing: the map and this fraction of its long side around it, unless that is at
# least this fraction of the photo's area (then the whole photo).
MAP_MARGIN = 0.08
MAP_MIN_GAIN = 0.5
# Gray levels darker than the paper around it that count as handwriting (labels avoid it).
INK_CONTRAST = 28

Photo = NDArray[np.uint8] | tuple[NDArray[np.uint8], tuple[int, int]]


@dataclass(frozen=True)
class _Frame:
    """Where the drawing sits: photo pixel (x, y) -> canvas pixel (x - x0, y - y0) * scale."""

    x0: float
    y0: float
    scale: float

    def points(self, pts: Any) -> NDArray[np.int32]:
        arr = (np.asarray(pts, dtype=np.float64) - (self.x0, self.y0)) * self.scale
        return np.round(arr).astype(np.int32).reshape(-1, 1, 2)


def _unpack(photo: Photo) -> tuple[NDArray[np.uint8], float, tuple[int, int]]:
    """The image, the factor from photo coordinates to its pixels, and the photo's size."""
    if isinstance(photo, tuple):
        image, (width, height) = photo
        return image, image.shape[1] / float(width), (int(width), int(height))
    return photo, 1.0, (photo.shape[1], photo.shape[0])


def _map_box(
    document: dict[str, Any], size: tuple[int, int], margin: float, min_gain: float
) -> tuple[int, int, int, int]:
    """The part of the photo worth drawing: the map and a margin around it.

    (x0, y0, x1, y1) in photo pixels, clipped to the photo; the whole photo unless
    the map's box (grown by ``margin`` times its long side) is smaller than
    ``min_gain`` times the photo's area: a small map in a big photo is then drawn
    large enough to read on a phone.
    """
    width, height = size
    pts = [p for c in document.get("countries", []) for p in (c.get("polygon") or [])]
    if not pts:
        return 0, 0, width, height
    arr = np.asarray(pts, dtype=np.float64)
    (mx0, my0), (mx1, my1) = arr.min(axis=0), arr.max(axis=0)
    pad = margin * max(mx1 - mx0, my1 - my0)
    x0, y0 = max(0, int(mx0 - pad)), max(0, int(my0 - pad))
    x1, y1 = min(width, int(np.ceil(mx1 + pad))), min(height, int(np.ceil(my1 + pad)))
    if x1 <= x0 or y1 <= y0 or (x1 - x0) * (y1 - y0) >= min_gain * width * height:
        return 0, 0, width, height
    return x0, y0, x1, y1


def _canvas(
    photo: Photo, document: dict[str, Any], max_side: int
) -> tuple[NDArray[np.uint8], _Frame]:
    """The part of the photo that shows the map, at most ``max_side`` pixels long."""
    image, to_image, size = _unpack(photo)
    x0, y0, x1, y1 = _map_box(document, size, margin=MAP_MARGIN, min_gain=MAP_MIN_GAIN)
    ix0, iy0 = int(x0 * to_image), int(y0 * to_image)
    ix1, iy1 = max(ix0 + 1, int(x1 * to_image)), max(iy0 + 1, int(y1 * to_image))
    crop = image[iy0:iy1, ix0:ix1]
    s = min(1.0, max_side / max(crop.shape[:2]))
    if s < 1.0:
        crop = cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    return crop.copy(), _Frame(ix0 / to_image, iy0 / to_image, to_image * s)


def _polygons(document: dict[str, Any], frame: _Frame) -> dict[str, NDArray[np.int32]]:
    out = {}
    for c in document.get("countries", []):
        pts = c.get("polygon")
        if pts and len(pts) >= 3:
            out[str(c["id"])] = frame.points(pts)
    return out


def _ink(canvas: NDArray[np.uint8], unit: float) -> NDArray[np.bool_]:
    """Pen and pencil marks of the photo: clearly darker than the paper around them."""
    gray = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
    k = 2 * max(3, int(round(12 * unit))) + 1
    paper = cv2.morphologyEx(
        gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    dark = (paper.astype(np.int16) - gray.astype(np.int16)) > INK_CONTRAST
    r = max(1, int(round(3 * unit)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return cv2.dilate(dark.astype(np.uint8), kernel) > 0


def _anchor(
    poly: NDArray[np.int32], ink: NDArray[np.bool_] | None = None
) -> tuple[tuple[int, int], float]:
    """A point well inside the polygon and its depth (distance to the outline).

    With ``ink``, the point is the one farthest from both the outline and the
    writing (so that the label drawn there leaves the handwriting it reports
    visible); without, the polygon's pole of inaccessibility, roughly.
    """
    x, y, w, h = cv2.boundingRect(poly)
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.fillPoly(mask, [poly - np.array([x - 1, y - 1])], 1)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    _, depth, _, (px, py) = cv2.minMaxLoc(dist)
    if ink is not None:
        ih, iw = ink.shape
        sub = np.zeros_like(mask)
        cy0, cx0 = max(0, y - 1), max(0, x - 1)
        cy1, cx1 = min(ih, y - 1 + h + 2), min(iw, x - 1 + w + 2)
        sub[cy0 - (y - 1) : cy1 - (y - 1), cx0 - (x - 1) : cx1 - (x - 1)] = ink[cy0:cy1, cx0:cx1]
        free = mask & (1 - sub)
        if free.any():
            clear = cv2.distanceTransform(free, cv2.DIST_L2, 3)
            # Stay reasonably deep inside: a clear spot squeezed against the outline
            # would put the label over the border.
            clear[dist < 0.5 * depth] = 0
            _, best, _, (qx, qy) = cv2.minMaxLoc(clear)
            if best > 0:
                px, py = qx, qy
    return (int(px + x - 1), int(py + y - 1)), float(depth)


def _label(
    image: NDArray[np.uint8],
    text: str,
    at: tuple[int, int],
    *,
    size: float,
    colour: tuple[int, int, int],
    underline: bool = False,
    strike: bool = False,
) -> None:
    """Text centred at ``at`` on a white box, optionally underlined or struck out."""
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = max(1, int(round(size * 2)))
    (tw, th), base = cv2.getTextSize(text, font, size, thick)
    x, y = at[0] - tw // 2, at[1] + th // 2
    pad = max(2, int(round(6 * size)))
    cv2.rectangle(
        image, (x - pad, y - th - pad), (x + tw + pad, y + base + pad), (255, 255, 255), -1
    )
    cv2.rectangle(image, (x - pad, y - th - pad), (x + tw + pad, y + base + pad), colour, thick)
    cv2.putText(image, text, (x, y), font, size, colour, thick, cv2.LINE_AA)
    if underline:
        cv2.line(image, (x, y + base), (x + tw, y + base), colour, thick, cv2.LINE_AA)
    if strike:
        cv2.line(image, (x - pad, y + base), (x + tw + pad, y - th), (0, 0, 0), thick + 1)


def render_overlay(
    photo: Photo, document: dict[str, Any], *, max_side: int = 2000
) -> NDArray[np.uint8]:
    """The photo with the reading drawn on it.

    Each country is tinted by its owner (blue first, red second, grey
    unoccupied), outlined, and named with its id and armies (underlined for
    first, struck through when conquered); adjacent countries are joined by
    yellow lines between their label points. Line widths and text scale with
    the output size so that it reads on a phone screen.

    Parameters
    ----------
    photo : (H, W, 3) uint8 BGR, or (image, (width, height)) as from ``load_image``
        The photo as displayed; a reduced image with the full photo's size.
    document : dict
        A state document with polygons in photo pixel coordinates.
    max_side : int
        The output's long side is at most this many pixels.

    Returns
    -------
    (h, w, 3) uint8 BGR
    """
    return _draw(photo, document, max_side)[0]


def _draw(
    photo: Photo, document: dict[str, Any], max_side: int
) -> tuple[NDArray[np.uint8], dict[str, NDArray[np.int32]], dict[str, tuple[int, int]]]:
    """The overlay, the countries' outlines on it, and where each label sits."""
    canvas, frame = _canvas(photo, document, max_side)
    unit = max(canvas.shape[:2]) / 1000.0  # 1 unit = 1/1000 of the long side
    polys = _polygons(document, frame)
    countries = {str(c["id"]): c for c in document.get("countries", [])}
    ink = _ink(canvas, unit)
    # Tint: owners' colours, half transparent.
    tint = canvas.copy()
    for cid, poly in polys.items():
        c = countries[cid]
        colour = {"first": FIRST, "second": SECOND}.get(c.get("owner") or "", NOBODY)
        cv2.fillPoly(tint, [poly], colour)
    canvas = cv2.addWeighted(tint, 0.35, canvas, 0.65, 0)
    line = max(2, int(round(3 * unit)))
    for poly in polys.values():
        cv2.polylines(canvas, [poly], True, SHADOW, line + 2, cv2.LINE_AA)
        cv2.polylines(canvas, [poly], True, OUTLINE, line, cv2.LINE_AA)
    placed = {cid: _anchor(poly, ink) for cid, poly in polys.items()}
    anchors = {cid: at for cid, (at, _) in placed.items()}
    for a, b in document.get("adjacency", []):
        if str(a) in anchors and str(b) in anchors:
            cv2.line(canvas, anchors[str(a)], anchors[str(b)], SHADOW, line + 2, cv2.LINE_AA)
            cv2.line(canvas, anchors[str(a)], anchors[str(b)], ADJACENT, line, cv2.LINE_AA)
    for cid, (at, depth) in placed.items():
        c = countries[cid]
        armies = c.get("armies")
        text = cid if armies is None else f"{cid} {armies}"
        colour = {"first": FIRST, "second": SECOND}.get(c.get("owner") or "", (80, 80, 80))
        # Big labels, but no bigger than the country: a text line about 30 px
        # tall at size 1.
        size = float(np.clip(depth / 30.0, 0.45 * unit, 0.9 * unit))
        _label(
            canvas,
            text,
            at,
            size=size,
            colour=colour,
            underline=c.get("owner") == "first",
            strike=bool(c.get("conquered")),
        )
    return canvas, polys, anchors


def render_suggestion(
    photo: Photo, document: dict[str, Any], result: dict[str, Any], *, max_side: int = 2000
) -> NDArray[np.uint8]:
    """The reading with the suggested move highlighted.

    Phase 3: the target outlined in green, arrows from the attackers. Phase 2:
    the suggested country outlined with the suggested armies.

    Parameters
    ----------
    photo, document, max_side
        As for :func:`render_overlay`.
    result : dict
        The JSON of ``suggest`` (``best`` with ``target`` and ``attackers``, or
        with ``country`` and ``armies`` in phase 2).

    Returns
    -------
    (h, w, 3) uint8 BGR
    """
    canvas, polys, anchors = _draw(photo, document, max_side)
    # Size the marks to the map, not the photo: a small map in a big photo stays readable.
    if polys:
        pts = np.concatenate([p.reshape(-1, 2) for p in polys.values()])
        extent = float(max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1])))
    else:
        extent = float(max(canvas.shape[:2]))
    unit = min(3.0, max(0.6, extent / 550.0))
    line = max(3, int(round(5 * unit)))
    armies = {str(c["id"]): c.get("armies") for c in document.get("countries", [])}
    best = result.get("best") or {}
    target = best.get("target") or best.get("country")
    # The expected line: the order of the coming conquests, numbered on each target.
    for k, t in enumerate(result.get("line", [])[:9], 1):
        if str(t) in polys and str(t) != str(target):
            ax, ay = anchors[str(t)]
            _label(canvas, str(k), (ax, ay - int(34 * unit)), size=0.8 * unit, colour=HIGHLIGHT)
    if target is None or str(target) not in polys:
        return canvas
    poly = polys[str(target)]
    cv2.polylines(canvas, [poly], True, HIGHLIGHT, line, cv2.LINE_AA)
    at = anchors[str(target)]
    tip_gap = 45 * unit  # stop short of the target's label
    for attacker in best.get("attackers", []):
        if str(attacker) not in polys:
            continue
        start = anchors[str(attacker)]
        vx, vy = at[0] - start[0], at[1] - start[1]
        length = max(1.0, float(np.hypot(vx, vy)))
        # Leave the attacker's own label visible: start a little way along the arrow.
        lead = min(0.35 * length, tip_gap)
        a = (int(start[0] + vx * lead / length), int(start[1] + vy * lead / length))
        b = (int(at[0] - vx * tip_gap / length), int(at[1] - vy * tip_gap / length))
        cv2.arrowedLine(canvas, a, b, HIGHLIGHT, line, cv2.LINE_AA, tipLength=0.2)
        n = (best.get("attacker_armies") or {}).get(attacker, armies.get(str(attacker)))
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        _label(canvas, f"{attacker} {n}", mid, size=0.7 * unit, colour=HIGHLIGHT)
    if "armies" in best:
        text = f"+{best['armies']}"
    else:
        text = f"attack {best.get('attack')} > {best.get('defence')}"
    _label(canvas, text, (at[0], at[1] + int(45 * unit)), size=0.6 * unit, colour=HIGHLIGHT)
    summary = _summary(result)
    if summary:
        # On a band of its own above the picture: the map is drawn up to its edges.
        band = np.full((int(60 * unit), canvas.shape[1], 3), 255, np.uint8)
        canvas = np.vstack([band, canvas])
        _label(
            canvas,
            summary,
            (canvas.shape[1] // 2, int(30 * unit)),
            size=0.7 * unit,
            colour=HIGHLIGHT,
        )
    return canvas


def _summary(result: dict[str, Any]) -> str:
    """One line: the suggested move, the margin, the expected line."""
    best = result.get("best") or {}
    if "target" in best:
        who = ", ".join(best.get("attackers", []))
        verb = "conquers" if len(best.get("attackers", [])) == 1 else "conquer"
        text = f"{who} {verb} {best['target']}"
    elif "country" in best:
        text = f"{best['armies']} in {best['country']}"
    else:
        return ""
    if "margin" in result:
        text += f"   margin {result['margin']:+d}"
    if result.get("line"):
        text += "   line " + " ".join(str(t) for t in result["line"][:9])
    return text


def save_png(path: str | Path, image: NDArray[np.uint8]) -> None:
    """Write ``image`` (BGR) as a PNG, atomically (temporary file + rename).

    Raises
    ------
    AggressionVisionError
        When the file cannot be written.
    """
    path = Path(path)
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise AggressionVisionError(f"{path}: the overlay could not be encoded as PNG")
    try:
        write_atomic(path, data.tobytes())
    except OSError as exc:
        raise AggressionVisionError(f"{path}: cannot write the overlay ({exc})") from None
