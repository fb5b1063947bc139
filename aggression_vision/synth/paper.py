"""Paper: plain, squared (5 mm), Seyes and ruled sheets, and ink on them.

Images here are float32 RGB in 0..1, shape (rows, cols, 3), at ``ppm`` pixels
per millimetre; coordinates are pixels with the origin at the top-left pixel
corner (OpenCV drawing calls get ``- 0.5``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.synth.params import SynthParams

PAGE_SIZES_MM = {"a4": (210.0, 297.0), "a5": (148.0, 210.0), "notebook": (170.0, 220.0)}

#: Ink transmittance (RGB) of each pen: the fraction of light a full stroke lets through.
PEN_INK: dict[str, tuple[float, float, float]] = {
    "pencil": (0.42, 0.42, 0.45),
    "ballpoint_blue": (0.12, 0.2, 0.55),
    "ballpoint_black": (0.13, 0.13, 0.16),
    "felt": (0.08, 0.08, 0.1),
}
#: Pen widths in millimetres.
PEN_WIDTH_MM: dict[str, tuple[float, float]] = {
    "pencil": (0.3, 0.6),
    "ballpoint_blue": (0.3, 0.5),
    "ballpoint_black": (0.3, 0.5),
    "felt": (0.6, 1.2),
}


@dataclass(frozen=True)
class Pen:
    """A pen: its kind, ink transmittance (RGB), width (mm) and opacity."""

    kind: str
    ink: tuple[float, float, float]
    width_mm: float
    opacity: float


def random_pen(rng: np.random.Generator, kind: str) -> Pen:
    """A pen of ``kind`` ("pencil", "ballpoint_blue", "ballpoint_black", "felt")."""
    ink = np.array(PEN_INK[kind]) * rng.uniform(0.85, 1.15, 3)
    if kind == "felt" and rng.random() < 0.4:  # coloured felt pens
        ink = np.array([(0.1, 0.15, 0.6), (0.1, 0.4, 0.15), (0.6, 0.1, 0.1)][rng.integers(3)])
    opacity = {"pencil": rng.uniform(0.5, 0.85), "felt": 1.0}.get(kind, rng.uniform(0.85, 0.97))
    return Pen(
        kind=kind,
        ink=(float(ink[0]), float(ink[1]), float(ink[2])),
        width_mm=float(rng.uniform(*PEN_WIDTH_MM[kind])),
        opacity=float(opacity),
    )


def smooth_field(
    rng: np.random.Generator, shape: tuple[int, int], cells: int, amplitude: float
) -> NDArray[np.float32]:
    """A smooth random field of the given shape: ``cells`` bumps across, about ±amplitude."""
    small = rng.normal(0, 1, (cells + 1, max(2, int(cells * shape[1] / shape[0]) + 1)))
    field = cv2.resize(
        small.astype(np.float32), (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC
    )
    return field * np.float32(amplitude)


class Sheet:
    """A sheet of paper with ink on it, kept as per-channel transmittance.

    Ink acts as a filter: a pixel's colour is ``paper * T`` where each stroke
    multiplies ``T`` by ``1 - c * (1 - ink)`` (``c`` its coverage). Keeping one
    float32 plane per channel lets OpenCV do the work (fast at 12 MP).

    Attributes
    ----------
    paper : (r, g, b)
        Colour of the blank paper, 0..1.
    trans : list of 3 ndarray of float32, shape (rows, cols)
        Transmittance planes, R, G, B.
    alpha : ndarray of float32, shape (rows, cols)
        1 on paper, 0 in punched holes.
    """

    def __init__(self, shape: tuple[int, int], paper: tuple[float, float, float]) -> None:
        self.paper = paper
        self.trans = [np.ones(shape, np.float32) for _ in range(3)]
        self.alpha = np.ones(shape, np.float32)

    @property
    def shape(self) -> tuple[int, int]:
        return self.alpha.shape  # type: ignore[return-value]

    def apply_ink(
        self,
        coverage: NDArray[np.float32],
        ink: tuple[float, float, float],
        origin: tuple[int, int] = (0, 0),
    ) -> None:
        """Lay ink of transmittance ``ink`` (RGB) with ``coverage`` (0..1) on the sheet.

        ``coverage`` may cover only part of the sheet, with its top-left pixel at
        ``origin`` (row, column).
        """
        rows = np.flatnonzero(coverage.max(axis=1) > 0)
        if len(rows) == 0:
            return
        r0, r1 = int(rows[0]), int(rows[-1]) + 1
        c = coverage[r0:r1]
        y0, x0 = origin[0] + r0, origin[1]
        for k in range(3):
            t = self.trans[k][y0 : y0 + c.shape[0], x0 : x0 + c.shape[1]]
            f = cv2.addWeighted(c, -(1.0 - ink[k]), c, 0.0, 1.0)
            cv2.multiply(t, f, dst=t)  # OpenCV writes through the strided view

    def to_bgr(self) -> NDArray[np.uint8]:
        """The sheet as an 8-bit BGR image."""
        planes = [
            cv2.convertScaleAbs(self.trans[k], alpha=255.0 * self.paper[k]) for k in (2, 1, 0)
        ]
        return cv2.merge(planes)


def render_paper(
    rng: np.random.Generator,
    kind: str,
    size_mm: tuple[float, float],
    ppm: float,
    params: SynthParams,
) -> Sheet:
    """A blank sheet with its printed lines and punched holes.

    Parameters
    ----------
    kind : {"plain", "squared", "seyes", "ruled"}
    size_mm : (width, height)
    ppm : float
        Pixels per millimetre.
    """
    w = int(round(size_mm[0] * ppm))
    h = int(round(size_mm[1] * ppm))
    base = np.array([0.96, 0.955, 0.94]) + rng.normal(0, 0.012, 3) - rng.uniform(0, 0.05)
    base = np.clip(base, 0.0, 1.0)
    sheet = Sheet((h, w), (float(base[0]), float(base[1]), float(base[2])))
    strength = float(rng.uniform(*params.print_strength))
    colours = [(0.55, 0.7, 0.92), (0.6, 0.62, 0.68), (0.7, 0.6, 0.85), (0.6, 0.78, 0.75)]
    colour = colours[int(rng.integers(len(colours)))]
    if kind == "seyes":
        colour = (0.68, 0.58, 0.85)
    lines = np.zeros((h, w), np.float32)
    lw = max(1, int(round(float(rng.uniform(0.1, 0.22)) * ppm)))

    def hline(y_mm: float, value: float) -> None:
        y = int(round(y_mm * ppm))
        cv2.line(lines, (0, y), (w - 1, y), value, lw, cv2.LINE_AA)

    def vline(x_mm: float, value: float) -> None:
        x = int(round(x_mm * ppm))
        cv2.line(lines, (x, 0), (x, h - 1), value, lw, cv2.LINE_AA)

    if kind == "squared":
        off = rng.uniform(0, 5, 2)
        for x in np.arange(off[0], size_mm[0], 5.0):
            vline(float(x), 1.0)
        for y in np.arange(off[1], size_mm[1], 5.0):
            hline(float(y), 1.0)
    elif kind == "seyes":
        off = rng.uniform(0, 8, 2)
        for i, y in enumerate(np.arange(off[1], size_mm[1], 2.0)):
            hline(float(y), 1.0 if i % 4 == 0 else 0.55)
        for x in np.arange(off[0] + 24, size_mm[0], 8.0):
            vline(float(x), 0.8)
    elif kind == "ruled":
        gap = float(rng.uniform(6.0, 9.0))
        for y in np.arange(rng.uniform(15, 30), size_mm[1] - 5, gap):
            hline(float(y), 1.0)
    if kind != "plain":
        sheet.apply_ink(lines * np.float32(strength), colour)
    if kind in ("seyes", "ruled") and rng.random() < 0.7:  # the red margin line
        margin = np.zeros((h, w), np.float32)
        x = int(round(float(rng.uniform(20, 35)) * ppm))
        cv2.line(margin, (x, 0), (x, h - 1), strength, lw + 1, cv2.LINE_AA)
        sheet.apply_ink(margin, (0.95, 0.45, 0.5))
    if rng.random() < params.punch_holes_prob:
        n = 2 if rng.random() < 0.5 else 4
        r = int(round(2.75 * ppm))
        x = int(round(11 * ppm))
        spacing = 80.0 if n == 2 else 70.0
        mid = size_mm[1] / 2
        for k in range(n):
            y = int(round((mid + (k - (n - 1) / 2) * spacing) * ppm))
            cv2.circle(sheet.alpha, (x, y), r, 0.0, -1, cv2.LINE_AA)
    return sheet
