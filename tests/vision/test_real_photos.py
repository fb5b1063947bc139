"""The region stage on real photos from ../shared/data (skipped when it is absent).

Kept to a few photos so the suite stays fast; the benchmark measures them all.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SUDOKU = SHARED / "data" / "sudoku-photos"
PAPER = SHARED / "data" / "paper-photos"

pytestmark = pytest.mark.shared


def _need(path: Path) -> None:
    if not path.is_dir():
        pytest.skip(f"{path} is not present")


def _read(path: Path):  # type: ignore[no-untyped-def]
    settings = ReaderSettings()
    image, size = load_image(
        path, min_long_side=int(settings.working_long_side * settings.decode_oversampling)
    )
    return segment(image, photo_size=size, settings=settings)


@pytest.mark.parametrize("name", ["02_23_honor_view_10_0.jpg", "02_23_iphone_14_1.jpg"])
def test_sudoku_is_an_81_country_map(name: str) -> None:
    _need(SUDOKU)
    with (SUDOKU / "metadata.csv").open(encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f) if r["Name"] == name)
    seg = _read(SUDOKU / "images" / name)

    def corner(k: str) -> list[float]:
        return [float(row[f"x_{k}_absolute"]), float(row[f"y_{k}_absolute"])]

    grid = np.float32([[0, 0], [9, 0], [9, 9], [0, 9]])
    photo = np.float32([corner(k) for k in ("topleft", "topright", "bottomright", "bottomleft")])
    to_photo = cv2.getPerspectiveTransform(grid, photo)
    polygons = [np.float32(r.polygon).reshape(-1, 1, 2) for r in seg.regions]
    cells = np.zeros((9, 9), int)
    for i in range(9):
        for j in range(9):
            p = to_photo @ np.array([j + 0.5, i + 0.5, 1.0])
            x, y = p[:2] / p[2]
            inside = [
                seg.regions[k].index
                for k, poly in enumerate(polygons)
                if cv2.pointPolygonTest(poly, (float(x), float(y)), False) > 0
            ]
            assert len(inside) == 1, f"cell {(i, j)} of {name}"
            cells[i, j] = inside[0]
    assert len(np.unique(cells)) == 81
    adjacent = {(a, b) for a, b, _ in seg.adjacency}

    def pair(a: int, b: int) -> tuple[int, int]:
        return (min(a, b), max(a, b))

    four = []
    for i in range(9):
        for j in range(9):
            if j < 8:
                four.append(pair(cells[i, j], cells[i, j + 1]) in adjacent)
            if i < 8:
                four.append(pair(cells[i, j], cells[i + 1, j]) in adjacent)
                for dj in (-1, 1):
                    if 0 <= j + dj < 9:
                        diagonal = pair(cells[i, j], cells[i + 1, j + dj])
                        assert diagonal not in adjacent, f"cells meeting at a corner {diagonal}"
    assert sum(four) >= 0.95 * len(four)


@pytest.mark.parametrize("name", ["ex01_writer0048.jpg", "ex06_writer0073.jpg"])
def test_squared_paper_does_not_become_countries(name: str) -> None:
    _need(PAPER)
    seg = _read(PAPER / name)
    assert seg.regions, "the drawn boxes are closed regions"
    assert len(seg.regions) <= 40  # the drawn boxes and arrows' loops, not hundreds
    assert seg.ink.any() and not (seg.ink & ~seg.borders & ~seg.writing).all()
    # The printed squares are about 1/40 of the photo's long side: no country
    # may be as small as one.
    side = max(seg.image.shape[:2]) / 40.0
    for region in seg.regions:
        x0, y0, x1, y1 = region.bbox
        assert max(x1 - x0, y1 - y0) > 1.2 * side, f"region {region.index} is grid-square sized"
