"""Running readers over folders: pool, failures, timing, and the sudoku run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from aggression_vision.bench import BenchmarkError
from aggression_vision.bench.runner import (
    find_samples,
    load_reader,
    map_photos,
    read_timed,
    run_sudoku,
    run_synthetic,
)

SUDOKU_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sudoku-photos"
needs_sudoku = pytest.mark.skipif(
    not (SUDOKU_DIR / "metadata.csv").is_file(), reason="../shared/data/sudoku-photos absent"
)


def test_perfect_reader_in_process(make_samples: Callable[..., Path]) -> None:
    folder = make_samples("s1", "s2", "s3")
    report = run_synthetic(folder, reader="fake_readers:perfect", workers=1)
    assert report.photos == 3 and report.failures == 0
    assert report.metrics["region_f1"] == report.metrics["exact_maps"] == 1.0
    assert [row.name for row in report.rows] == ["s1.jpg", "s2.jpg", "s3.jpg"]
    assert all(row.seconds is not None and row.seconds >= 0 for row in report.rows)
    assert all(row.cpu_seconds is not None and row.cpu_seconds >= 0 for row in report.rows)
    assert report.metrics["cpu_seconds_median"] is not None
    assert report.info["reader"] == "fake_readers:perfect" and report.info["workers"] == 1


def test_pool_keeps_order_and_counts_failures(make_samples: Callable[..., Path]) -> None:
    folder = make_samples("a", "b_bad", "c", "d_bad", "e")
    report = run_synthetic(folder, reader="fake_readers:flaky", workers=2)
    assert [row.name for row in report.rows] == [
        "a.jpg",
        "b_bad.jpg",
        "c.jpg",
        "d_bad.jpg",
        "e.jpg",
    ]
    assert [row.failure for row in report.rows] == [None, "RuntimeError: boom", None] + [
        "RuntimeError: boom",
        None,
    ]
    assert report.failures == 2 and report.metrics["exact_maps"] == pytest.approx(3 / 5)
    assert report.metrics["region_precision"] == 1.0 and report.metrics["region_recall"] < 1.0


@pytest.mark.parametrize(
    ("reader", "failure"),
    [
        ("fake_readers:raises", "MapNotFoundError: x.jpg: no closed region found"),
        ("fake_readers:not_a_document", "reader returned list, not a document"),
        ("fake_readers:empty_map", "no map"),
    ],
)
def test_reader_failures(make_samples: Callable[..., Path], reader: str, failure: str) -> None:
    report = run_synthetic(make_samples("x"), reader=reader, workers=1)
    assert report.rows[0].failure == failure and report.failures == 1


def test_imperfect_reader_scores_less(make_samples: Callable[..., Path]) -> None:
    report = run_synthetic(make_samples("x", "y"), reader="fake_readers:drop_first_country")
    assert report.metrics["region_recall"] < 1.0 and report.metrics["exact_maps"] == 0.0


def test_ocr_backend_reaches_the_reader(make_samples: Callable[..., Path]) -> None:
    folder = make_samples("x")
    ok = run_synthetic(folder, reader="fake_readers:record_ocr", ocr="tesseract", workers=1)
    assert ok.failures == 0
    bad = run_synthetic(folder, reader="fake_readers:record_ocr", ocr="cnn", workers=1)
    assert bad.rows[0].failure == "ValueError: expected ocr='tesseract', got 'cnn'"


def test_limit(make_samples: Callable[..., Path]) -> None:
    report = run_synthetic(make_samples("a", "b", "c"), reader="fake_readers:perfect", limit=2)
    assert [row.name for row in report.rows] == ["a.jpg", "b.jpg"]


def test_errors(tmp_path: Path, make_samples: Callable[..., Path]) -> None:
    with pytest.raises(BenchmarkError, match="not a directory"):
        find_samples(tmp_path / "nowhere")
    with pytest.raises(BenchmarkError, match="no samples"):
        find_samples(tmp_path)
    with pytest.raises(BenchmarkError, match="expected 'package.module:function'"):
        load_reader("no_colon")
    with pytest.raises(BenchmarkError, match="cannot import"):
        load_reader("no_such_module_xyz:read")
    with pytest.raises(BenchmarkError, match="has no function 'nope'"):
        load_reader("fake_readers:nope")
    folder = make_samples("a")
    (folder / "a.json").write_text("[1]")
    with pytest.raises(BenchmarkError, match="a.json: ground truth has no 'countries' list"):
        run_synthetic(folder, reader="fake_readers:perfect")
    with pytest.raises(BenchmarkError, match="workers must be >= 1"):
        map_photos(len, ["a"], workers=0)


def test_read_timed_accepts_a_callable(make_samples: Callable[..., Path]) -> None:
    from fake_readers import perfect

    reading = read_timed(perfect, make_samples("a") / "a.jpg", ocr="cnn")
    assert reading.failure is None and reading.document is not None
    assert reading.seconds >= 0 and reading.cpu_seconds >= 0
    assert len(reading.document["countries"]) == 4


def test_dead_worker_is_a_failure_not_a_crash() -> None:
    from fake_readers import exit_worker

    results = map_photos(
        exit_worker, ["p", "q"], workers=2, on_crash=lambda item, why: f"{item}: {why}"
    )
    assert all(r.startswith(("p: ", "q: ")) and "BrokenProcessPool" in r for r in results)
    with pytest.raises(ZeroDivisionError):
        map_photos(lambda item: 1 / 0, ["p"], workers=1)


@needs_sudoku
def test_sudoku_run_with_perfect_and_broken_readers() -> None:
    perfect = run_sudoku(SUDOKU_DIR, reader="fake_readers:sudoku_perfect", limit=2, workers=2)
    assert perfect.photos == 2 and perfect.metrics["map_right_photos"] == 1.0
    assert perfect.metrics["digit_accuracy"] == perfect.metrics["blank_accuracy"] == 1.0
    broken = run_sudoku(SUDOKU_DIR, reader="fake_readers:sudoku_merged", limit=1, workers=1)
    row = broken.rows[0]
    assert row.cells_found == 77 and row.diagonal_adjacent == 0
    assert broken.metrics["all_found_photos"] == 0.0
    failing = run_sudoku(SUDOKU_DIR, reader="fake_readers:raises", limit=1, workers=1)
    assert failing.failures == 1 and failing.metrics["cells_found"] == 0.0


def test_progress_bar_goes_to_stderr(
    make_samples: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = make_samples("a", "b")
    for workers in (1, 2):
        report = run_synthetic(
            folder, reader="fake_readers:perfect", workers=workers, progress=True
        )
        assert report.metrics["exact_maps"] == 1.0
    captured = capsys.readouterr()
    assert captured.out == "" and "2/2" in captured.err


def test_committed_synthetic_samples_score_100_percent_against_themselves() -> None:
    samples = Path(__file__).resolve().parents[2] / "samples"
    if not list(samples.glob("synth-*.json")):
        pytest.skip("no synthetic samples committed")
    report = run_synthetic(samples, reader="fake_readers:perfect", workers=1)
    assert report.photos >= 1 and report.failures == 0
    assert report.metrics["exact_maps"] == report.metrics["region_f1"] == 1.0
    assert report.breakdown["paper"]  # the generator's metadata gives the factors
