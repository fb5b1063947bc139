"""Score readings of real sudoku photos, read as maps of 81 square countries.

The data set (``../shared/data/sudoku-photos``) gives, per photo, the 9x9 digit
labels (0 blank, 1-9 a digit, 10 pencil candidate marks: skipped) and the four
outer corners of the grid in pixels of the photo as displayed. A sudoku is an
Aggression map whose truth is known without drawing anything: every cell is a
country, 4-neighbour cells are adjacent, diagonal cells meet at a corner only
and must NOT be adjacent, digits are army numbers and blanks are unoccupied.

A cell is *found* when one predicted country contains its centre (the
innermost one when polygons nest) and no other cell's centre lies in that same
country.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from aggression_vision.bench import BenchmarkError
from aggression_vision.bench.accuracy import (
    adjacency_pairs,
    percentile,
    polygon_of,
    ratio,
    reader_warnings,
)

GRID = 9
SKIP_LABEL = 10
#: EXIF orientations (5-8) that swap width and height when applied.
_TRANSPOSING_ORIENTATIONS = {5, 6, 7, 8}


@dataclass(frozen=True)
class SudokuPhoto:
    """One labelled sudoku photo.

    Attributes
    ----------
    name : str
        File name of the image (``NAME.jpg``).
    path : Path
        The image file.
    size : (width, height)
        Size of the photo as displayed, from ``metadata.csv``.
    corners : (4, 2) float64
        Grid corners (x, y) in photo pixels: top-left, top-right,
        bottom-right, bottom-left.
    labels : (9, 9) int64
        0 blank, 1-9 digit, 10 skip; ``labels[row, col]``.
    """

    name: str
    path: Path
    size: tuple[int, int]
    corners: np.ndarray
    labels: np.ndarray


def load_sudoku_set(directory: str | Path) -> list[SudokuPhoto]:
    """Read ``metadata.csv`` and the labels of a sudoku-photos folder.

    Parameters
    ----------
    directory : path
        Folder with ``images/``, ``labels/`` and ``metadata.csv``.

    Returns
    -------
    list of SudokuPhoto
        Sorted by name.

    Raises
    ------
    BenchmarkError
        When the metadata, an image or a label file is missing or malformed.
    """
    directory = Path(directory)
    metadata = directory / "metadata.csv"
    if not metadata.is_file():
        raise BenchmarkError(f"{directory}: no metadata.csv (is this a sudoku-photos folder?)")
    photos = []
    with metadata.open(newline="", encoding="utf-8") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            try:
                name = row["Name"]
                size = (int(row["Width"]), int(row["Height"]))
                corners = np.array(
                    [
                        [float(row[f"x_{corner}_absolute"]), float(row[f"y_{corner}_absolute"])]
                        for corner in ("topleft", "topright", "bottomright", "bottomleft")
                    ]
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise BenchmarkError(f"{metadata}:{line}: bad row ({exc})") from exc
            image = directory / "images" / name
            label_file = directory / "labels" / (Path(name).stem + ".txt")
            if not image.is_file():
                raise BenchmarkError(f"{metadata}:{line}: image {image} is missing")
            try:
                labels = np.loadtxt(label_file, dtype=np.int64, ndmin=2)
            except (OSError, ValueError) as exc:
                raise BenchmarkError(f"{label_file}: cannot read the labels ({exc})") from exc
            if labels.shape != (GRID, GRID) or labels.min() < 0 or labels.max() > SKIP_LABEL:
                raise BenchmarkError(f"{label_file}: expected 9x9 integers 0-10")
            photos.append(SudokuPhoto(name, image, size, corners, labels))
    return sorted(photos, key=lambda p: p.name)


def displayed_size(path: str | Path) -> tuple[int, int]:
    """Width and height of an image as a viewer shows it (EXIF orientation applied).

    Reads the header only, not the pixels.
    """
    from PIL import Image

    with Image.open(path) as image:
        width, height = image.size
        orientation = image.getexif().get(0x0112, 1)
    if orientation in _TRANSPOSING_ORIENTATIONS:
        return height, width
    return width, height


def check_size(photo: SudokuPhoto) -> None:
    """Raise BenchmarkError unless the image's displayed size matches the metadata.

    The corners are in displayed pixels: a mismatch means they cannot be trusted.
    """
    actual = displayed_size(photo.path)
    if actual != photo.size:
        raise BenchmarkError(
            f"{photo.path}: displayed size {actual[0]}x{actual[1]} does not match "
            f"metadata {photo.size[0]}x{photo.size[1]}"
        )


def grid_homography(corners: np.ndarray) -> np.ndarray:
    """Homography from grid coordinates (col, row in 0..9) to photo pixels.

    Parameters
    ----------
    corners : (4, 2) float
        Top-left, top-right, bottom-right, bottom-left corners (x, y).

    Returns
    -------
    (3, 3) float64
    """
    src = np.array([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]], dtype=np.float64)
    dst = np.asarray(corners, dtype=np.float64)
    # Direct linear transform with h33 = 1 (exact for 4 points).
    a, b = [], []
    for (u, v), (x, y) in zip(src, dst, strict=True):
        a.append([u, v, 1, 0, 0, 0, -u * x, -v * x])
        a.append([0, 0, 0, u, v, 1, -u * y, -v * y])
        b.extend([x, y])
    h = np.linalg.solve(np.array(a), np.array(b))
    return np.append(h, 1.0).reshape(3, 3)


def grid_to_photo(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (..., 2) grid points (col, row) to photo (x, y)."""
    points = np.asarray(points, dtype=np.float64)
    flat = points.reshape(-1, 2)
    mapped = np.c_[flat, np.ones(len(flat))] @ homography.T
    out: np.ndarray = (mapped[:, :2] / mapped[:, 2:]).reshape(points.shape)
    return out


def cell_centres(photo: SudokuPhoto) -> np.ndarray:
    """(9, 9, 2) photo (x, y) of the centre of each cell, indexed [row, col]."""
    rows, cols = np.mgrid[0:GRID, 0:GRID] + 0.5
    return grid_to_photo(grid_homography(photo.corners), np.stack([cols, rows], axis=-1))


def cell_id(row: int, col: int) -> str:
    """Country id used for a cell in :func:`perfect_document`: ``r{row}c{col}``."""
    return f"r{row}c{col}"


def perfect_document(photo: SudokuPhoto) -> dict[str, Any]:
    """The state document a perfect reader would return for a sudoku photo.

    Cells labelled 10 (candidate marks) are given as unoccupied.
    Used to check the scorer, and as a reference reader in tests.
    """
    homography = grid_homography(photo.corners)
    countries = []
    for row in range(GRID):
        for col in range(GRID):
            quad = np.array([[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]])
            label = int(photo.labels[row, col])
            digit = label if 1 <= label <= 9 else None
            countries.append(
                {
                    "id": cell_id(row, col),
                    "label": None,
                    "armies": digit,
                    "owner": None if digit is None else "second",
                    "conquered": False,
                    "polygon": grid_to_photo(homography, quad).round(2).tolist(),
                }
            )
    adjacency = [[cell_id(r, c), cell_id(r, c + 1)] for r in range(GRID) for c in range(GRID - 1)]
    adjacency += [[cell_id(r, c), cell_id(r + 1, c)] for r in range(GRID - 1) for c in range(GRID)]
    return {
        "format": "aggression-vision/state",
        "version": 1,
        "phase": 2,
        "to_move": "first",
        "countries": countries,
        "adjacency": adjacency,
    }


@dataclass
class SudokuScore:
    """Counts of one sudoku photo.

    ``neighbour_*`` are the 144 4-neighbour pairs, ``diagonal_*`` the 128
    diagonal pairs. Digit and blank cells that are not found count as wrong.
    A sudoku holds no underline and no cross-out: ``digits_underlined`` and
    ``digits_crossed`` count the found digit cells read as the first player's
    or as conquered (false marks).
    """

    name: str
    seconds: float | None = None
    cpu_seconds: float | None = None
    failure: str | None = None
    predicted_countries: int = 0
    cells: int = GRID * GRID
    cells_found: int = 0
    neighbour_pairs: int = 2 * GRID * (GRID - 1)
    neighbour_adjacent: int = 0
    diagonal_pairs: int = 2 * (GRID - 1) * (GRID - 1)
    diagonal_adjacent: int = 0
    digit_cells: int = 0
    digit_correct: int = 0
    blank_cells: int = 0
    blank_correct: int = 0
    digits_underlined: int = 0
    digits_crossed: int = 0
    skipped_cells: int = 0
    wrong_digits: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def all_found(self) -> bool:
        """Every one of the 81 cells found."""
        return self.cells_found == self.cells

    @property
    def no_diagonal(self) -> bool:
        """No diagonal pair read as adjacent (and the photo was read)."""
        return self.failure is None and self.diagonal_adjacent == 0

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (one per-photo row of the report)."""
        row = asdict(self)
        row["all_found"] = self.all_found
        row["no_diagonal"] = self.no_diagonal
        return row


def _innermost_containing(
    shapes: Sequence[Any] | np.ndarray, areas: np.ndarray, point: Any
) -> int | None:
    """Index of the smallest shape covering ``point`` (None entries never do)."""
    import shapely

    hits = np.flatnonzero(shapely.covers(shapes, point))
    return int(hits[np.argmin(areas[hits])]) if len(hits) else None


def score_sudoku(
    photo: SudokuPhoto,
    predicted: Mapping[str, Any] | None,
    *,
    seconds: float | None = None,
    cpu_seconds: float | None = None,
    failure: str | None = None,
) -> SudokuScore:
    """Score one reading of a sudoku photo.

    Parameters
    ----------
    photo : SudokuPhoto
    predicted : dict or None
        The reader's state document (polygons in photo pixels); None on failure.
    seconds, cpu_seconds : float, optional
        Wall-clock and CPU time the reader took.
    failure : str, optional
        Why the reader failed.

    Returns
    -------
    SudokuScore
    """
    import shapely

    labels = photo.labels
    score = SudokuScore(
        name=photo.name,
        seconds=seconds,
        cpu_seconds=cpu_seconds,
        digit_cells=int(((labels >= 1) & (labels <= 9)).sum()),
        blank_cells=int((labels == 0).sum()),
        skipped_cells=int((labels == SKIP_LABEL).sum()),
    )
    countries = list((predicted or {}).get("countries") or [])
    score.predicted_countries = len(countries)
    score.warnings = reader_warnings(predicted or {})
    if predicted is None or not countries:
        score.failure = failure or ("no document" if predicted is None else "no map")
        return score

    shapes: list[Any] = []
    for country in countries:
        points = country.get("polygon")
        if not points or len(points) < 3:
            shapes.append(None)
            continue
        shape = shapely.make_valid(polygon_of(points, country.get("holes")))
        shapes.append(shape if shape.area > 0 else None)

    # shapely's vectorised predicates take None as a missing geometry (never covers).
    shape_array = np.array(shapes, dtype=object)
    areas = np.array([np.inf if s is None else s.area for s in shapes])
    centres = cell_centres(photo)
    owner = np.full((GRID, GRID), -1)
    for row in range(GRID):
        for col in range(GRID):
            hit = _innermost_containing(shape_array, areas, shapely.Point(centres[row, col]))
            owner[row, col] = -1 if hit is None else hit
    counts = np.bincount(owner[owner >= 0].ravel(), minlength=len(countries))
    found = (owner >= 0) & (counts[np.maximum(owner, 0)] == 1)
    score.cells_found = int(found.sum())

    ids = [str(c.get("id")) for c in countries]
    adjacent = adjacency_pairs(predicted)

    def is_adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
        pair = frozenset((ids[owner[a]], ids[owner[b]]))
        return bool(found[a] and found[b]) and pair in adjacent

    for row in range(GRID):
        for col in range(GRID):
            if col + 1 < GRID:
                score.neighbour_adjacent += is_adjacent((row, col), (row, col + 1))
            if row + 1 < GRID:
                score.neighbour_adjacent += is_adjacent((row, col), (row + 1, col))
            if row + 1 < GRID and col + 1 < GRID:
                score.diagonal_adjacent += is_adjacent((row, col), (row + 1, col + 1))
                score.diagonal_adjacent += is_adjacent((row, col + 1), (row + 1, col))

            label = int(labels[row, col])
            country = countries[owner[row, col]] if found[row, col] else {}
            armies = country.get("armies") if found[row, col] else "missing"
            if 1 <= label <= 9:
                score.digits_underlined += country.get("owner") == "first"
                score.digits_crossed += bool(country.get("conquered"))
                if armies == label:
                    score.digit_correct += 1
                else:
                    score.wrong_digits.append(f"{cell_id(row, col)}:{label}->{armies}")
            elif label == 0:
                score.blank_correct += armies is None
    return score


@dataclass
class SudokuReport:
    """Totals and rates of a sudoku benchmark run."""

    photos: int
    failures: int
    metrics: dict[str, float | None]
    totals: dict[str, int]
    rows: list[SudokuScore] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form of the report."""
        return {
            "kind": "sudoku",
            "photos": self.photos,
            "failures": self.failures,
            "metrics": self.metrics,
            "totals": self.totals,
            "info": self.info,
            "rows": [row.to_dict() for row in self.rows],
        }


_SUDOKU_COUNTS = (
    "cells",
    "cells_found",
    "neighbour_pairs",
    "neighbour_adjacent",
    "diagonal_pairs",
    "diagonal_adjacent",
    "digit_cells",
    "digit_correct",
    "blank_cells",
    "blank_correct",
    "digits_underlined",
    "digits_crossed",
    "skipped_cells",
)


def summarize_sudoku(
    rows: Sequence[SudokuScore], *, info: Mapping[str, Any] | None = None
) -> SudokuReport:
    """Pool per-photo sudoku counts into rates (cells and pairs pooled over photos)."""
    t = {name: sum(int(getattr(row, name)) for row in rows) for name in _SUDOKU_COUNTS}
    t["all_found_photos"] = sum(row.all_found for row in rows)
    t["no_diagonal_photos"] = sum(row.no_diagonal for row in rows)
    t["map_right_photos"] = sum(row.all_found and row.no_diagonal for row in rows)
    t["photos_with_warnings"] = sum(bool(row.warnings) for row in rows)
    seconds = [row.seconds for row in rows if row.seconds is not None]
    cpu = [row.cpu_seconds for row in rows if row.cpu_seconds is not None]
    metrics: dict[str, float | None] = {
        "cells_found": ratio(t["cells_found"], t["cells"]),
        "all_found_photos": ratio(t["all_found_photos"], len(rows)),
        "neighbour_adjacency_recall": ratio(t["neighbour_adjacent"], t["neighbour_pairs"]),
        "diagonal_false_adjacent": float(t["diagonal_adjacent"]),
        "no_diagonal_photos": ratio(t["no_diagonal_photos"], len(rows)),
        "map_right_photos": ratio(t["map_right_photos"], len(rows)),
        "digit_accuracy": ratio(t["digit_correct"], t["digit_cells"]),
        "blank_accuracy": ratio(t["blank_correct"], t["blank_cells"]),
        "false_underline_rate": ratio(t["digits_underlined"], t["digit_cells"]),
        "false_crossed_rate": ratio(t["digits_crossed"], t["digit_cells"]),
        "failure_rate": ratio(sum(row.failure is not None for row in rows), len(rows)),
        "warning_rate": ratio(sum(bool(row.warnings) for row in rows), len(rows)),
        "seconds_median": percentile(seconds, 50),
        "seconds_p90": percentile(seconds, 90),
        "cpu_seconds_median": percentile(cpu, 50),
        "cpu_seconds_p90": percentile(cpu, 90),
    }
    return SudokuReport(
        photos=len(rows),
        failures=sum(row.failure is not None for row in rows),
        metrics=metrics,
        totals=t,
        rows=list(rows),
        info=dict(info or {}),
    )
