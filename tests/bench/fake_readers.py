"""Fake photo readers for the benchmark tests, importable by name from worker processes.

A "photo" here is any file; its ground truth is the ``.json`` next to it (synthetic
samples) or the sudoku metadata of the folder above it (sudoku photos).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any


def _truth(path: Path) -> dict[str, Any]:
    return json.loads(Path(path).with_suffix(".json").read_text(encoding="utf-8"))


def perfect(path: Path, *, ocr: str) -> dict[str, Any]:
    """Returns the ground truth itself."""
    return _truth(path)


def drop_first_country(path: Path, *, ocr: str) -> dict[str, Any]:
    """Misses the first country (and its adjacency)."""
    doc = copy.deepcopy(_truth(path))
    gone = doc["countries"].pop(0)["id"]
    doc["adjacency"] = [p for p in doc["adjacency"] if gone not in p]
    return doc


def raises(path: Path, *, ocr: str) -> dict[str, Any]:
    """Fails like a reader that found no map."""
    from aggression_vision.errors import MapNotFoundError

    raise MapNotFoundError(f"{Path(path).name}: no closed region found\nsecond line")


def flaky(path: Path, *, ocr: str) -> dict[str, Any]:
    """Raises on photos whose name contains 'bad', perfect otherwise."""
    if "bad" in Path(path).name:
        raise RuntimeError("boom")
    return _truth(path)


def not_a_document(path: Path, *, ocr: str) -> Any:
    """Returns something that is not a state document."""
    return [1, 2, 3]


def empty_map(path: Path, *, ocr: str) -> dict[str, Any]:
    """Returns a document without countries."""
    return {"format": "aggression-vision/state", "version": 1, "countries": [], "adjacency": []}


def record_ocr(path: Path, *, ocr: str) -> dict[str, Any]:
    """Perfect, but only when the OCR backend asked for is 'tesseract'."""
    if ocr != "tesseract":
        raise ValueError(f"expected ocr='tesseract', got {ocr!r}")
    return _truth(path)


def sudoku_perfect(path: Path, *, ocr: str) -> dict[str, Any]:
    """The perfect reading of a photo of a sudoku-photos folder."""
    from aggression_vision.bench.sudoku import load_sudoku_set, perfect_document

    path = Path(path)
    photos = {p.name: p for p in load_sudoku_set(path.parents[1])}
    return perfect_document(photos[path.name])


def sudoku_merged(path: Path, *, ocr: str) -> dict[str, Any]:
    """Perfect except that the top-left 2x2 cells form one country touching its diagonals."""
    import shapely

    doc = sudoku_perfect(path, ocr=ocr)
    block = {"r0c0", "r0c1", "r1c0", "r1c1"}
    polys = [shapely.Polygon(c["polygon"]) for c in doc["countries"] if c["id"] in block]
    merged = shapely.union_all(polys).buffer(0)
    doc["countries"] = [c for c in doc["countries"] if c["id"] not in block]
    doc["countries"].append(
        {"id": "M", "armies": None, "owner": None, "polygon": list(merged.exterior.coords)}
    )
    doc["adjacency"] = [p for p in doc["adjacency"] if not set(p) & block]
    doc["adjacency"] += [["M", "r0c2"], ["M", "r1c2"], ["M", "r2c0"], ["M", "r2c1"], ["M", "r2c2"]]
    return doc


def exit_worker(item: Any) -> Any:
    """A pool task whose process dies without a word (as a segfault would)."""
    import os

    os._exit(3)
