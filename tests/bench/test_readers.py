"""The regions-only reader of the benchmark, on a drawn 3x3 grid."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from aggression_vision.bench.accuracy import score_photo
from aggression_vision.bench.readers import regions_only


def test_regions_only_reads_a_drawn_grid(tmp_path: Path) -> None:
    import cv2

    image = np.full((900, 1200, 3), 235, np.uint8)
    x0, y0, side = 300, 150, 200
    for k in range(4):
        cv2.line(image, (x0 + k * side, y0), (x0 + k * side, y0 + 3 * side), (40, 40, 40), 6)
        cv2.line(image, (x0, y0 + k * side), (x0 + 3 * side, y0 + k * side), (40, 40, 40), 6)
    path = tmp_path / "grid.png"
    cv2.imwrite(str(path), image)

    document = regions_only(path, ocr="cnn")
    assert all(c["armies"] is None and c["owner"] is None for c in document["countries"])
    names = "ABCDEFGHI"
    truth = {
        "countries": [
            {
                "id": names[k],
                "armies": None,
                "polygon": [
                    [x0 + (k % 3) * side, y0 + (k // 3) * side],
                    [x0 + (k % 3 + 1) * side, y0 + (k // 3) * side],
                    [x0 + (k % 3 + 1) * side, y0 + (k // 3 + 1) * side],
                    [x0 + (k % 3) * side, y0 + (k // 3 + 1) * side],
                ],
            }
            for k in range(9)
        ],
        "adjacency": [[names[k], names[k + 1]] for k in range(9) if k % 3 < 2]
        + [[names[k], names[k + 3]] for k in range(6)],
    }
    row = score_photo(truth, document)
    assert row.matched == 9 and row.predicted_countries == 9
    assert row.adjacency_correct == row.adjacency_truth == row.adjacency_predicted == 12


def test_cached_regions_segments_once_and_reads_as_the_pipeline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cv2

    from aggression_vision.bench import readers
    from aggression_vision.vision import pipeline, regions

    image = np.full((700, 900, 3), 235, np.uint8)
    for k in range(3):
        cv2.line(image, (200 + k * 250, 100), (200 + k * 250, 600), (40, 40, 40), 6)
    for y in (100, 600):
        cv2.line(image, (200, y), (700, y), (40, 40, 40), 6)
    path = tmp_path / "two.png"
    cv2.imwrite(str(path), image)
    cache = tmp_path / "cache"
    monkeypatch.setenv(readers.CACHE_ENV, str(cache))

    first = readers.cached_regions(path)
    assert len(list(cache.glob("two-*.pkl"))) == 1
    assert not list(cache.glob("*.part"))
    assert first == pipeline.read_photo(path)

    def no_segment(*args: object, **kwargs: object) -> None:
        raise AssertionError("segmented again")

    monkeypatch.setattr(regions, "segment", no_segment)
    assert readers.cached_regions(path) == first

    # A changed photo is segmented again (its key is new).
    cv2.line(image, (200, 350), (700, 350), (40, 40, 40), 6)
    cv2.imwrite(str(path), image)
    with pytest.raises(AssertionError, match="segmented again"):
        readers.cached_regions(path)
