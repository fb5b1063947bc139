"""Countries cut in two by writing, joined again (rejoin)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from aggression_vision.vision import rejoin
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings
from aggression_vision.vision.types import CountryMarks

INK = (60, 50, 40)


def _three_countries() -> np.ndarray:
    """A frame split in two, its right half split again by a short border."""
    img = np.full((700, 900, 3), 232, np.uint8)
    cv2.rectangle(img, (150, 120), (750, 600), INK, 3, cv2.LINE_AA)
    cv2.line(img, (450, 120), (450, 600), INK, 3, cv2.LINE_AA)
    cv2.line(img, (450, 360), (750, 360), INK, 3, cv2.LINE_AA)
    return img


def _marks(armies: int | None) -> CountryMarks:
    return CountryMarks(armies, False, False, None, 1.0)


def test_apart_needs_one_country_without_number() -> None:
    marks = {1: _marks(5), 2: _marks(None), 3: _marks(7)}
    assert rejoin._apart(1, 2, "8", marks)
    assert not rejoin._apart(1, 3, "8", marks)
    # The neighbour's own number touching the border.
    assert not rejoin._apart(1, 2, "5", marks)
    assert rejoin._apart(1, 2, "5", None)


def test_border_strokes_do_not_join() -> None:
    st = ReaderSettings()
    assert not rejoin._joins("1", 0.99, st)
    assert not rejoin._joins("7", 0.99, st)
    assert not rejoin._joins("45", 0.5, st)
    assert rejoin._joins("45", 0.99, st)


def test_merge_keeps_the_segmentation_consistent() -> None:
    seg = segment(_three_countries())
    assert len(seg.regions) == 3
    wide = replace(ReaderSettings(), rejoin_max_boundary=1e6, rejoin_max_area=1e9)
    found = rejoin.candidates(seg, wide)
    right = [r.index for r in seg.regions if r.centroid[0] > 450]
    pair = [c for c in found if sorted((c.a, c.b)) == sorted(right)]
    assert len(pair) == 1
    joined = rejoin.merge(seg, pair, wide)
    assert len(joined.regions) == 2
    assert sorted(np.unique(joined.labels).tolist()) == [0, 1, 2]
    assert [r.index for r in joined.regions] == [1, 2]
    assert [(i, j) for i, j, _ in joined.adjacency] == [(1, 2)]
    big = next(r for r in joined.regions if r.centroid[0] > 450)
    parts = [r for r in seg.regions if r.index in right]
    assert big.area == pytest.approx(sum(p.area for p in parts))
    # The dividing ink is writing of the joined country now.
    y0, _, x0, _ = pair[0].window
    ys, xs = np.nonzero(pair[0].cut)
    assert joined.writing[ys + y0, xs + x0].all()
    assert not joined.borders[ys + y0, xs + x0].any()
    assert (joined.labels[ys + y0, xs + x0] == big.index).all()
    # Its outline covers both parts (photo = working pixels here).
    outline = np.array(big.polygon, np.float32)
    for p in parts:
        assert cv2.pointPolygonTest(outline, p.centroid, False) > 0


def test_nothing_to_join_returns_the_same_segmentation() -> None:
    seg = segment(_three_countries())
    assert rejoin.rejoin(seg) is seg
