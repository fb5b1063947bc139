"""Photo -> state document: load, segment (page, ink, regions, adjacency), read marks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings
from aggression_vision.vision.types import CountryMarks, Segmentation


def generated_id(n: int) -> str:
    """The n-th generated country name (0-based): A..Z, then AA, AB, ...

    >>> [generated_id(i) for i in (0, 25, 26, 27, 701, 702)]
    ['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']
    """
    name = ""
    n += 1
    while n > 0:
        n, r = divmod(n - 1, 26)
        name = chr(ord("A") + r) + name
    return name


def _read_marks(seg: Segmentation, ocr: str) -> tuple[dict[int, CountryMarks] | None, list[str]]:
    """The marks stage's reading, when that stage is installed."""
    try:
        from aggression_vision.vision.marks import read_marks
    except ImportError:
        return None, []
    try:
        from aggression_vision.vision.digits import ModelNotFoundError
    except ImportError:  # pragma: no cover - digits ships with marks
        return read_marks(seg, backend=ocr), []
    try:
        return read_marks(seg, backend=ocr), []
    except ModelNotFoundError as exc:
        # The map is still worth having: countries and adjacency, numbers null.
        return None, [f"numbers not read: {exc}"]


def build_document(
    seg: Segmentation,
    marks: dict[int, CountryMarks] | None = None,
    *,
    warnings: list[str] | None = None,
) -> dict[str, Any]:
    """The state document of a segmented (and possibly marks-read) photo.

    Parameters
    ----------
    seg : Segmentation
    marks : dict of region index to CountryMarks, optional
        What the marks stage read; armies and owner stay null without it.
    warnings : list of str, optional

    Returns
    -------
    dict
        A state document (``format``, ``version``, ``countries``, ``adjacency``,
        ``warnings``); ``phase`` and ``to_move`` are left to be inferred.
    """
    marks = marks or {}
    warnings = list(warnings or [])
    # Written letters name their countries when they are unique; the others
    # get generated names that no written letter uses.
    letters = [marks[r.index].letter if r.index in marks else None for r in seg.regions]
    counts: dict[str, int] = {}
    for letter in letters:
        if letter:
            counts[letter] = counts.get(letter, 0) + 1
    for letter, n in sorted(counts.items()):
        if n > 1:
            warnings.append(f"letter {letter} is written in {n} countries")
    taken = {letter for letter, n in counts.items() if n == 1}
    ids: dict[int, str] = {}
    serial = 0
    for region, letter in zip(seg.regions, letters, strict=True):
        if letter and counts[letter] == 1:
            ids[region.index] = letter
            continue
        while generated_id(serial) in taken:
            serial += 1
        ids[region.index] = generated_id(serial)
        serial += 1
    countries = []
    for region, letter in zip(seg.regions, letters, strict=True):
        m = marks.get(region.index)
        armies = m.armies if m is not None else None
        owner = None
        if armies is not None and m is not None:
            owner = "first" if m.underlined else "second"
        country: dict[str, Any] = {
            "id": ids[region.index],
            "label": letter,
            "armies": armies,
            "owner": owner,
            "conquered": bool(m.crossed) if (m is not None and armies is not None) else False,
            "polygon": [[float(x), float(y)] for x, y in region.polygon],
        }
        if m is not None:
            country["confidence"] = round(float(m.confidence), 3)
        countries.append(country)
    adjacency = [[ids[i], ids[j]] for i, j, _ in seg.adjacency]
    return {
        "format": "aggression-vision/state",
        "version": 1,
        "countries": countries,
        "adjacency": adjacency,
        "warnings": warnings,
    }


def read_image(
    image: NDArray[np.uint8],
    *,
    photo_size: tuple[int, int] | None = None,
    corners: Any = None,
    ocr: str = "cnn",
    settings: ReaderSettings | None = None,
) -> tuple[dict[str, Any], Segmentation]:
    """Read a map from a decoded photo.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR
        The photo as displayed (EXIF orientation applied), possibly reduced.
    photo_size : (width, height), optional
        Size of the full photo when ``image`` is reduced.
    corners : four (x, y) in photo pixels, optional
        The sheet's corners, when the user gives them.
    ocr : {"cnn", "tesseract"}
        Number reader of the marks stage.
    settings : ReaderSettings, optional

    Returns
    -------
    document : dict
    segmentation : Segmentation
    """
    quad = None if corners is None else np.asarray(corners, dtype=np.float64).reshape(4, 2)
    seg = segment(image, corners=quad, settings=settings, photo_size=photo_size)
    return read_segmented(seg, ocr=ocr), seg


def read_segmented(seg: Segmentation, *, ocr: str = "cnn") -> dict[str, Any]:
    """The state document of a segmented photo: its marks read (timed in
    ``seg.timings["marks"]``), then :func:`build_document`.

    Parameters
    ----------
    seg : Segmentation
        The region stage's result.
    ocr : {"cnn", "tesseract"}
        Number reader of the marks stage.

    Returns
    -------
    dict
        The state document.
    """
    t0 = time.perf_counter()
    marks, warnings = _read_marks(seg, ocr)
    seg.timings["marks"] = time.perf_counter() - t0
    return build_document(seg, marks, warnings=warnings)


def read_photo(
    path: str | Path,
    *,
    corners: Any = None,
    ocr: str = "cnn",
    settings: ReaderSettings | None = None,
) -> dict[str, Any]:
    """Read the state document from a photo file.

    Parameters
    ----------
    path : str or Path
        JPEG, PNG, WebP or HEIC photo.
    corners : four (x, y) in photo pixels, optional
        The sheet's corners, when the user gives them.
    ocr : {"cnn", "tesseract"}
    settings : ReaderSettings, optional

    Returns
    -------
    dict
        The state document; polygons in the photo's displayed pixel coordinates.

    Raises
    ------
    ImageLoadError
        The photo cannot be read.
    MapNotFoundError
        No map was found on it.
    """
    settings = settings or ReaderSettings()
    image, photo_size = load_photo(path, settings)
    document, _ = read_image(
        image, photo_size=photo_size, corners=corners, ocr=ocr, settings=settings
    )
    return document


def load_photo(
    path: str | Path, settings: ReaderSettings | None = None
) -> tuple[NDArray[np.uint8], tuple[int, int]]:
    """Decode a photo as the reader does (:func:`load_image` with the reader's pixel limit
    and working size).

    Returns
    -------
    image : (H, W, 3) uint8 BGR
    photo_size : (width, height)
        The size of the photo as displayed (``image`` may be reduced).
    """
    settings = settings or ReaderSettings()
    return load_image(
        path,
        max_pixels=settings.max_pixels,
        min_long_side=int(settings.working_long_side * settings.decode_oversampling),
    )
