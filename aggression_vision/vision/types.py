"""Data passed between the stages of the photo reader.

Coordinates: ``(x, y)`` tuples, x to the right, y downwards. Arrays are indexed
``[row, col]``. "Working" coordinates are those of :attr:`Segmentation.image`
(the page after rectification and resizing); "photo" coordinates are those of
the photo as a viewer shows it (EXIF orientation applied), as the state
document's ``polygon`` requires.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Region:
    """One closed country found on the page.

    Attributes
    ----------
    index : int
        Its value in :attr:`Segmentation.labels` (1..n).
    polygon : list of (x, y)
        Outline in photo pixel coordinates (what the state document stores).
    area : float
        Area in working pixels.
    centroid : (x, y)
        Centroid in working coordinates.
    bbox : (x0, y0, x1, y1)
        Bounding box in working coordinates, x1/y1 exclusive.
    """

    index: int
    polygon: list[tuple[float, float]]
    area: float
    centroid: tuple[float, float]
    bbox: tuple[int, int, int, int]


@dataclass
class Segmentation:
    """Result of the region stage, input of the marks stage.

    Attributes
    ----------
    image : (H, W, 3) uint8 BGR
        The working image (page rectified when found, resized).
    gray : (H, W) uint8
        Grayscale of ``image``.
    ink : (H, W) bool
        Every drawn stroke (printed paper grid suppressed).
    borders : (H, W) bool
        Ink that forms country borders.
    writing : (H, W) bool
        Ink that is writing: numbers, letters, underlines, cross-outs.
    labels : (H, W) int32
        0 outside any country (borders, sea, margins); k for region index k.
    regions : list of Region
        In reading order (top to bottom, left to right).
    adjacency : list of (i, j, length)
        Region indices i < j sharing a border of ``length`` working pixels.
    line_width : float
        Typical border stroke width in working pixels.
    to_photo : (3, 3) float64
        Homography mapping working (x, y, 1) to photo (x, y, 1).
    photo_size : (width, height)
        Size of the photo as displayed.
    timings : dict
        Seconds per step of the region stage.
    ruled : bool
        Whether the ink stage took printed ruling off the page (squared, Seyes or
        lined paper). True when not known: what is left of a ruling is then looked for.
    """

    image: NDArray[np.uint8]
    gray: NDArray[np.uint8]
    ink: NDArray[np.bool_]
    borders: NDArray[np.bool_]
    writing: NDArray[np.bool_]
    labels: NDArray[np.int32]
    regions: list[Region]
    adjacency: list[tuple[int, int, float]]
    line_width: float
    to_photo: NDArray[np.float64]
    photo_size: tuple[int, int]
    timings: dict[str, float] = field(default_factory=dict)
    ruled: bool = True


@dataclass(frozen=True)
class CountryMarks:
    """What is written inside one country.

    ``armies`` is None when no number was found (unoccupied). ``underlined``
    means the number belongs to ``first``. ``crossed`` means conquered.
    ``letter`` is the capital letter naming the country, or None.
    ``confidence`` is 0..1 for the whole reading of this country.
    """

    armies: int | None
    underlined: bool
    crossed: bool
    letter: str | None
    confidence: float
