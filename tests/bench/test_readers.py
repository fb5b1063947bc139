"""The regions-only reader of the benchmark, on a drawn 3x3 grid."""

from __future__ import annotations

from pathlib import Path

import numpy as np

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
