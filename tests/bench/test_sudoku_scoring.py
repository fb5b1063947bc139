"""The sudoku scorer: perfect cells from the metadata score 100%, broken readings less."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from aggression_vision.bench import BenchmarkError
from aggression_vision.bench.sudoku import (
    SudokuPhoto,
    cell_centres,
    check_size,
    displayed_size,
    grid_homography,
    grid_to_photo,
    load_sudoku_set,
    perfect_document,
    score_sudoku,
    summarize_sudoku,
)

SUDOKU_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sudoku-photos"
needs_sudoku = pytest.mark.skipif(
    not (SUDOKU_DIR / "metadata.csv").is_file(), reason="../shared/data/sudoku-photos absent"
)


def made_up_photo() -> SudokuPhoto:
    """A perspective-distorted grid with seeded labels: 0 blank, 1-9, a few 10s."""
    rng = np.random.default_rng(7)
    labels = rng.integers(0, 10, size=(9, 9))
    labels[8, 2] = labels[8, 5] = 10
    corners = np.array([[120.0, 90.0], [1010.0, 140.0], [980.0, 1100.0], [60.0, 1010.0]])
    return SudokuPhoto("made_up.jpg", Path("made_up.jpg"), (1200, 1300), corners, labels)


def cell(doc: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in doc["countries"] if c["id"] == cid)


def test_homography_maps_grid_corners_to_photo_corners() -> None:
    photo = made_up_photo()
    grid = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], dtype=float)
    mapped = grid_to_photo(grid_homography(photo.corners), grid)
    np.testing.assert_allclose(mapped, photo.corners, atol=1e-6)
    centres = cell_centres(photo)
    assert centres.shape == (9, 9, 2)
    # Cell centres lie strictly inside the grid's bounding box.
    assert (centres[..., 0] > 60).all() and (centres[..., 0] < 1010).all()


def test_perfect_reading_scores_100_percent() -> None:
    photo = made_up_photo()
    row = score_sudoku(photo, perfect_document(photo))
    assert row.cells_found == 81 and row.all_found
    assert row.neighbour_adjacent == row.neighbour_pairs == 144
    assert row.diagonal_adjacent == 0 and row.no_diagonal
    assert row.digit_correct == row.digit_cells > 0
    assert row.blank_correct == row.blank_cells > 0
    assert row.skipped_cells == 2
    m = summarize_sudoku([row]).metrics
    assert m["cells_found"] == m["digit_accuracy"] == m["blank_accuracy"] == 1.0
    assert m["map_right_photos"] == 1.0 and m["diagonal_false_adjacent"] == 0.0


def test_digits_read_underlined_or_crossed_are_counted_as_false_marks() -> None:
    photo = made_up_photo()
    doc = perfect_document(photo)
    digits = [c for c in doc["countries"] if c["armies"] is not None]
    digits[0]["owner"] = "first"
    digits[1]["conquered"] = True
    row = score_sudoku(photo, doc)
    assert row.digit_correct == row.digit_cells  # the numbers themselves are right
    assert (row.digits_underlined, row.digits_crossed) == (1, 1)
    m = summarize_sudoku([row]).metrics
    assert m["false_underline_rate"] == m["false_crossed_rate"] == 1 / row.digit_cells
    clean = summarize_sudoku([score_sudoku(photo, perfect_document(photo))]).metrics
    assert clean["false_underline_rate"] == clean["false_crossed_rate"] == 0.0


def test_missing_cell() -> None:
    photo = made_up_photo()
    doc = perfect_document(photo)
    doc["countries"] = [c for c in doc["countries"] if c["id"] != "r4c4"]
    row = score_sudoku(photo, doc)
    assert row.cells_found == 80 and not row.all_found
    assert row.neighbour_adjacent == 144 - 4
    label = int(photo.labels[4, 4])
    if 1 <= label <= 9:
        assert row.digit_correct == row.digit_cells - 1
    else:
        assert row.blank_correct == row.blank_cells - 1


def test_country_over_two_cells_finds_neither() -> None:
    photo = made_up_photo()
    doc = perfect_document(photo)
    doc["countries"] = [c for c in doc["countries"] if c["id"] != "r0c1"]
    left = cell(doc, "r0c0")
    # Stretch r0c0 over r0c1: its polygon now holds both centres.
    h = grid_homography(photo.corners)
    left["polygon"] = grid_to_photo(h, np.array([[0, 0], [2, 0], [2, 1], [0, 1]])).tolist()
    row = score_sudoku(photo, doc)
    assert row.cells_found == 79


def test_nested_outline_around_the_grid_is_ignored() -> None:
    photo = made_up_photo()
    doc = perfect_document(photo)
    doc["countries"].append(
        {"id": "sea", "armies": None, "polygon": [[0, 0], [1200, 0], [1200, 1300], [0, 1300]]}
    )
    assert score_sudoku(photo, doc).cells_found == 81


def test_diagonal_adjacency_is_counted() -> None:
    photo = made_up_photo()
    doc = perfect_document(photo)
    doc["adjacency"].append(["r2c3", "r3c4"])
    doc["adjacency"].append(["r6c6", "r5c7"])
    row = score_sudoku(photo, doc)
    assert row.diagonal_adjacent == 2 and not row.no_diagonal
    assert summarize_sudoku([row]).metrics["no_diagonal_photos"] == 0.0


def test_missing_neighbour_adjacency() -> None:
    photo = made_up_photo()
    doc = perfect_document(photo)
    doc["adjacency"].remove(["r3c3", "r3c4"])
    assert score_sudoku(photo, doc).neighbour_adjacent == 143


def test_wrong_digit_blank_and_skipped_cells() -> None:
    photo = made_up_photo()
    digits = np.argwhere((photo.labels >= 1) & (photo.labels <= 9))
    blanks = np.argwhere(photo.labels == 0)
    doc = perfect_document(photo)
    (r, c), (br, bc) = digits[0], blanks[0]
    cell(doc, f"r{r}c{c}")["armies"] = int(photo.labels[r, c]) % 9 + 1
    cell(doc, f"r{br}c{bc}")["armies"] = 5
    cell(doc, "r8c2")["armies"] = 3  # a skipped cell: whatever is read there is not scored
    row = score_sudoku(photo, doc)
    assert row.digit_correct == row.digit_cells - 1
    assert row.blank_correct == row.blank_cells - 1
    assert len(row.wrong_digits) == 1 and row.wrong_digits[0].startswith(f"r{r}c{c}:")


def test_failed_reading_finds_nothing() -> None:
    photo = made_up_photo()
    row = score_sudoku(photo, None, failure="MapNotFoundError: no grid")
    assert row.failure == "MapNotFoundError: no grid" and row.cells_found == 0
    assert not row.no_diagonal  # a failed photo does not pass the diagonal test
    assert score_sudoku(photo, {"countries": []}).failure == "no map"
    report = summarize_sudoku([row, score_sudoku(photo, perfect_document(photo))])
    assert report.metrics["cells_found"] == 0.5 and report.failures == 1
    assert report.to_dict()["rows"][0]["all_found"] is False


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(BenchmarkError, match="no metadata.csv"):
        load_sudoku_set(tmp_path)
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    header = "Name,Width,Height," + ",".join(
        f"{a}_{c}_absolute" for c in ("topleft", "bottomleft", "bottomright", "topright")
        for a in "xy"
    )  # fmt: skip
    (tmp_path / "metadata.csv").write_text(header + "\nq.jpg,10,10,0,0,0,9,9,9,9,0\n")
    with pytest.raises(BenchmarkError, match="image .*q.jpg is missing"):
        load_sudoku_set(tmp_path)
    (tmp_path / "images" / "q.jpg").write_bytes(b"")
    (tmp_path / "labels" / "q.txt").write_text("1 2 3\n")
    with pytest.raises(BenchmarkError, match="expected 9x9"):
        load_sudoku_set(tmp_path)
    (tmp_path / "labels" / "q.txt").write_text("\n".join(["0 1 2 3 4 5 6 7 10"] * 9))
    (photo,) = load_sudoku_set(tmp_path)
    np.testing.assert_array_equal(photo.corners, [[0, 0], [9, 0], [9, 9], [0, 9]])
    (tmp_path / "metadata.csv").write_text(header + "\nq.jpg,ten,10,0,0,0,9,9,9,9,0\n")
    with pytest.raises(BenchmarkError, match="metadata.csv:2: bad row"):
        load_sudoku_set(tmp_path)


def test_size_check_applies_exif_orientation(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "rotated.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # displayed rotated by 90 degrees
    Image.new("RGB", (40, 30)).save(path, exif=exif)
    assert displayed_size(path) == (30, 40)
    photo = SudokuPhoto("rotated.jpg", path, (30, 40), np.zeros((4, 2)), np.zeros((9, 9)))
    check_size(photo)
    with pytest.raises(BenchmarkError, match="displayed size 30x40 does not match metadata 40x30"):
        check_size(SudokuPhoto("rotated.jpg", path, (40, 30), photo.corners, photo.labels))


@needs_sudoku
def test_real_metadata_perfect_cells_score_100_percent() -> None:
    photos = load_sudoku_set(SUDOKU_DIR)
    assert len(photos) == 24
    rows = []
    for photo in photos:
        check_size(photo)
        rows.append(score_sudoku(photo, perfect_document(photo)))
    m = summarize_sudoku(rows).metrics
    assert m["cells_found"] == m["all_found_photos"] == m["map_right_photos"] == 1.0
    assert m["neighbour_adjacency_recall"] == m["digit_accuracy"] == m["blank_accuracy"] == 1.0


@needs_sudoku
def test_real_metadata_broken_reading() -> None:
    photo = load_sudoku_set(SUDOKU_DIR)[0]
    doc = perfect_document(photo)
    broken = copy.deepcopy(doc)
    for country in broken["countries"]:
        country["armies"] = None
    broken["adjacency"] = [[f"r{r}c{c}", f"r{r + 1}c{c + 1}"] for r in range(8) for c in range(8)]
    row = score_sudoku(photo, broken)
    assert row.cells_found == 81
    assert row.neighbour_adjacent == 0 and row.diagonal_adjacent == 64
    assert row.digit_correct == 0 and row.blank_correct == row.blank_cells


def test_markdown_of_a_sudoku_report() -> None:
    from aggression_vision.bench.report import to_markdown

    photo = made_up_photo()
    doc = perfect_document(photo)
    doc["adjacency"].append(["r0c0", "r1c1"])
    report = summarize_sudoku([score_sudoku(photo, doc, seconds=0.5)], info={"ocr": "cnn"})
    text = to_markdown(report)
    assert "| cells found | 100.0% | 81 / 81 |" in text
    assert "| diagonal pairs read as adjacent (count) | 1 |  |" in text
    assert "| photos with no diagonal adjacency | 0.0% | 0 / 1 |" in text
    assert "| seconds per photo, median | 0.50 s |  |" in text
