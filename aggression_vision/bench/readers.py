"""Readers for the benchmark besides the full pipeline.

``--reader aggression_vision.bench.readers:regions_only`` measures the region
stage alone (page, ink, regions, adjacency; armies left null), which is what
the regions issue's accuracy and speed targets are about.

``--reader aggression_vision.bench.readers:cached_regions`` reads like the full
pipeline but keeps each photo's segmentation on disk, so that a change of the
marks stage is measured again in a fraction of the time (a developer's loop).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aggression_vision.vision.types import Segmentation

#: The environment variable naming the folder of :func:`cached_segmentation`.
CACHE_ENV = "AGGRESSION_VISION_SEGMENT_CACHE"

#: The modules whose code makes a segmentation (a change of any starts a new cache).
REGION_MODULES = ("load", "page", "ink", "regions", "adjacency", "settings", "types")


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
    from aggression_vision.vision.pipeline import build_document, load_photo
    from aggression_vision.vision.regions import segment
    from aggression_vision.vision.settings import ReaderSettings

    settings = ReaderSettings()
    # The same decoding as the pipeline's read_photo, so that times compare.
    image, photo_size = load_photo(path, settings)
    return build_document(segment(image, settings=settings, photo_size=photo_size))


@functools.cache
def _region_code_digest() -> str:
    """A short digest of the region stage's source (see ``REGION_MODULES``), read once
    per process."""
    folder = Path(__file__).resolve().parent.parent / "vision"
    h = hashlib.sha256()
    for name in REGION_MODULES:
        h.update((folder / f"{name}.py").read_bytes())
    return h.hexdigest()[:16]


def cached_regions(path: str | Path, *, ocr: str = "cnn") -> dict[str, Any]:
    """Read a photo as the full pipeline does, its segmentation kept on disk
    (:func:`cached_segmentation`).

    Parameters
    ----------
    path : str or Path
        The photo.
    ocr : {"cnn", "tesseract"}
        Number reader of the marks stage.

    Returns
    -------
    dict
        The state document, as :func:`aggression_vision.vision.pipeline.read_photo`'s.
    """
    from aggression_vision.vision.pipeline import read_segmented

    return read_segmented(cached_segmentation(path), ocr=ocr)


def cached_segmentation(path: str | Path) -> Segmentation:
    """A photo's segmentation (the region stage's result), kept on disk.

    The segmentation is pickled in the folder named by the environment variable
    ``AGGRESSION_VISION_SEGMENT_CACHE`` (default ``~/.cache/aggression-vision/segments``),
    under a key of the photo's absolute path, size and modification time and of a digest
    of the region stage's code (``REGION_MODULES``): a change of the marks stage
    (marks.py, digits.py, the models) reuses it, a change of the region stage does not.
    The cache holds this program's own pickles only; do not point it at files from
    elsewhere.

    Parameters
    ----------
    path : str or Path
        The photo.

    Returns
    -------
    Segmentation
        As :func:`aggression_vision.vision.regions.segment` returns it for the photo loaded
        as the reader loads it.
    """
    from aggression_vision.vision.pipeline import load_photo
    from aggression_vision.vision.regions import segment
    from aggression_vision.vision.settings import ReaderSettings

    folder = Path(
        os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "aggression-vision" / "segments"
    )
    photo = Path(path).resolve()
    stat = photo.stat()
    key = hashlib.sha256(
        f"{photo}|{stat.st_size}|{stat.st_mtime_ns}|{_region_code_digest()}".encode()
    ).hexdigest()[:24]
    cache = folder / f"{photo.stem}-{key}.pkl"
    seg: Segmentation
    if cache.exists():
        with open(cache, "rb") as f:
            seg = pickle.load(f)
    else:
        settings = ReaderSettings()
        image, photo_size = load_photo(photo, settings)
        seg = segment(image, settings=settings, photo_size=photo_size)
        folder.mkdir(parents=True, exist_ok=True)
        part = cache.with_name(f"{cache.name}.{os.getpid()}.part")
        with open(part, "wb") as f:
            pickle.dump(seg, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(part, cache)  # (whole or absent: workers may race on one photo)
    return seg
