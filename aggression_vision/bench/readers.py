"""Readers for the benchmark besides the full pipeline.

``--reader aggression_vision.bench.readers:regions_only`` measures the region
stage alone (page, ink, regions, adjacency; armies left null), which is what
the regions issue's accuracy and speed targets are about.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def regions_only(path: str | Path, *, ocr: str = "cnn") -> dict[str, Any]:
    """Read countries and adjacency from a photo, without reading the marks.

    Parameters
    ----------
    path : str or Path
        The photo.
    ocr : str
        Ignored (no marks are read); accepted so that every reader has one signature.

    Returns
    -------
    dict
        A state document whose countries have polygons and null armies.
    """
    from aggression_vision.vision.load import load_image
    from aggression_vision.vision.pipeline import build_document
    from aggression_vision.vision.regions import segment
    from aggression_vision.vision.settings import ReaderSettings

    settings = ReaderSettings()
    # The same decoding as the pipeline's read_photo, so that times compare.
    image, photo_size = load_image(
        path,
        max_pixels=settings.max_pixels,
        min_long_side=int(settings.working_long_side * settings.decode_oversampling),
    )
    return build_document(segment(image, settings=settings, photo_size=photo_size))
