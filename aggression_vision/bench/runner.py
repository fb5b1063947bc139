"""Run a photo reader over a set of photos and score every reading.

A reader is any function ``reader(path: Path, *, ocr: str) -> dict`` returning a
state document; it is named by ``"module:function"`` so that worker processes
can import it (the default is the project's own pipeline). Each photo is read
and scored inside a worker of a process pool; a reader that raises is a
failure of that photo, not of the run.

Times are measured inside the worker, per photo: wall-clock seconds (with N
workers on N cores each photo gets about one core; use ``workers=1`` for the
latency of a single reading) and the worker's CPU seconds, which stay honest
when other jobs load the machine.
"""

from __future__ import annotations

import importlib
import json
import os
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

from aggression_vision.bench import BenchmarkError

DEFAULT_READER = "aggression_vision.vision.pipeline:read_photo"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic")

Reader: TypeAlias = Callable[..., Any]
ReaderSpec: TypeAlias = str | Reader
T = TypeVar("T")
Item = TypeVar("Item")


def load_reader(spec: ReaderSpec) -> Reader:
    """Resolve a reader given as ``"package.module:function"`` (or return a callable as is).

    Raises
    ------
    BenchmarkError
        When the module cannot be imported or has no such function.
    """
    if callable(spec):
        return spec
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise BenchmarkError(f"reader {spec!r}: expected 'package.module:function'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BenchmarkError(f"reader {spec!r}: cannot import {module_name} ({exc})") from exc
    reader = getattr(module, attribute, None)
    if not callable(reader):
        raise BenchmarkError(f"reader {spec!r}: {module_name} has no function {attribute!r}")
    return reader  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Reading:
    """What a reader did with one photo.

    ``seconds`` is wall-clock time; ``cpu_seconds`` the CPU time of the worker
    process meanwhile (all its threads, plus the subprocesses it waited for,
    such as tesseract), which other jobs on the machine do not inflate.
    ``failure`` is a one-line ``"ExceptionType: message"`` when the reader
    raised or returned something that is not a document.
    """

    document: dict[str, Any] | None
    seconds: float
    cpu_seconds: float
    failure: str | None = None


def _cpu_time() -> float:
    """CPU seconds used by this process and its waited-for children (e.g. tesseract)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def read_timed(reader: ReaderSpec, path: Path, *, ocr: str) -> Reading:
    """Run the reader on one photo, timing it (the reader's import is not timed)."""
    function = load_reader(reader)
    start, cpu_start = time.perf_counter(), _cpu_time()
    try:
        result = function(path, ocr=ocr)
    except Exception as exc:  # a reader's crash is a measured failure, not a bench crash
        seconds, cpu = time.perf_counter() - start, _cpu_time() - cpu_start
        message = str(exc).splitlines()[0] if str(exc) else ""
        return Reading(None, seconds, cpu, f"{type(exc).__name__}: {message}".rstrip(": "))
    seconds, cpu = time.perf_counter() - start, _cpu_time() - cpu_start
    if hasattr(result, "to_document"):
        result = result.to_document()
    if isinstance(result, tuple) and result and isinstance(result[0], dict):
        result = result[0]  # read_image-style (document, segmentation)
    if not isinstance(result, dict):
        failure = f"reader returned {type(result).__name__}, not a document"
        return Reading(None, seconds, cpu, failure)
    return Reading(result, seconds, cpu)


def find_samples(directory: str | Path) -> list[tuple[Path, Path]]:
    """Synthetic samples of a directory: ``NAME.jpg`` (or png/webp/heic) next to ``NAME.json``.

    Returns
    -------
    list of (image, truth) paths
        Sorted by name.

    Raises
    ------
    BenchmarkError
        When the directory does not exist or holds no sample.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise BenchmarkError(f"{directory}: not a directory")
    samples = []
    for image in sorted(directory.iterdir()):
        truth = image.with_suffix(".json")
        if image.suffix.lower() in IMAGE_SUFFIXES and truth.is_file():
            samples.append((image, truth))
    if not samples:
        raise BenchmarkError(f"{directory}: no samples (NAME.jpg next to NAME.json)")
    return samples


def load_truth(path: Path) -> dict[str, Any]:
    """Read a ground-truth document, with a clear error naming the file."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BenchmarkError(f"{path}: cannot read ground truth ({exc})") from exc
    if not isinstance(document, dict) or not isinstance(document.get("countries"), list):
        raise BenchmarkError(f"{path}: ground truth has no 'countries' list")
    return document


# ------------------------------------------------------------- per photo


def score_sample(sample: tuple[Path, Path], *, reader: ReaderSpec, ocr: str) -> Any:
    """Read one synthetic sample and score it (runs in a worker)."""
    from aggression_vision.bench.accuracy import score_photo

    image, truth_path = sample
    truth = load_truth(truth_path)
    reading = read_timed(reader, image, ocr=ocr)
    score = partial(
        score_photo, name=image.name, seconds=reading.seconds, cpu_seconds=reading.cpu_seconds
    )
    try:
        return score(truth, reading.document, failure=reading.failure)
    except BenchmarkError as exc:
        # A malformed predicted document is the reader's failure.
        return score(truth, None, failure=str(exc))


def score_sudoku_photo(photo: Any, *, reader: ReaderSpec, ocr: str) -> Any:
    """Read one sudoku photo and score it (runs in a worker)."""
    from aggression_vision.bench.sudoku import score_sudoku

    reading = read_timed(reader, photo.path, ocr=ocr)
    timing = {"seconds": reading.seconds, "cpu_seconds": reading.cpu_seconds}
    try:
        return score_sudoku(photo, reading.document, failure=reading.failure, **timing)
    except BenchmarkError as exc:
        return score_sudoku(photo, None, failure=str(exc), **timing)


# ---------------------------------------------------------------- the pool


def map_photos(
    work: Callable[[Item], T],
    items: Sequence[Item],
    *,
    workers: int = 2,
    progress: bool = False,
    label: str = "photos",
    on_crash: Callable[[Item, str], T] | None = None,
) -> list[T]:
    """Apply ``work`` to every item in a process pool; results in input order.

    Parameters
    ----------
    work : picklable callable
        Runs in a worker; must not raise for a bad photo (return a failure).
    items : sequence
    workers : int
        Worker processes; 1 runs everything in this process (no pool).
    progress : bool
        Show a rich progress bar on stderr.
    label : str
        Text of the progress bar.
    on_crash : callable, optional
        Builds the result of an item whose worker died or raised; without it
        the exception propagates.
    """
    if workers < 1:
        raise BenchmarkError(f"workers must be >= 1, got {workers}")
    results: list[T | None] = [None] * len(items)
    if workers == 1:
        with _progress(progress, label, len(items)) as advance:
            for index, item in enumerate(items):
                results[index] = _run_guarded(work, item, on_crash)
                advance()
        return results  # type: ignore[return-value]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # Submitting forks the workers: do it before the progress bar starts its
        # refresh thread, since forking a multi-threaded process can deadlock.
        futures: dict[Future[T], int] = {
            pool.submit(work, item): index for index, item in enumerate(items)
        }
        with _progress(progress, label, len(items)) as advance:
            for future in as_completed(futures):
                index = futures[future]
                try:
                    results[index] = future.result()
                except (BrokenProcessPool, Exception) as exc:
                    if on_crash is None:
                        raise
                    results[index] = on_crash(items[index], _one_line(exc))
                advance()
    return results  # type: ignore[return-value]


def _run_guarded(work: Callable[[Item], T], item: Item, on_crash: Any) -> T:
    try:
        return work(item)
    except Exception as exc:
        if on_crash is None:
            raise
        return on_crash(item, _one_line(exc))  # type: ignore[no-any-return]


def _one_line(exc: BaseException) -> str:
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1] if text else type(exc).__name__


class _progress:
    """Context manager yielding an ``advance()`` callable; a no-op when disabled."""

    def __init__(self, enabled: bool, label: str, total: int) -> None:
        self.enabled, self.label, self.total = enabled, label, total
        self._progress: Any = None

    def __enter__(self) -> Callable[[], None]:
        if not self.enabled:
            return lambda: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self._progress.__enter__()
        task = self._progress.add_task(self.label, total=self.total)
        return lambda: self._progress.advance(task)

    def __exit__(self, *exc_info: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc_info)


# -------------------------------------------------------------- entry points


def run_synthetic(
    directory: str | Path,
    *,
    reader: ReaderSpec = DEFAULT_READER,
    ocr: str = "cnn",
    workers: int = 2,
    limit: int | None = None,
    progress: bool = False,
) -> Any:
    """Benchmark a reader on a directory of synthetic samples.

    Parameters
    ----------
    directory : path
        ``NAME.jpg`` + ``NAME.json`` (ground-truth state document) pairs.
    reader : str or callable
        ``"module:function"`` (default: the project's pipeline) or a picklable function.
    ocr : str
        OCR backend passed to the reader.
    workers : int
        Worker processes (1: no pool).
    limit : int, optional
        Score only the first ``limit`` samples (by name).
    progress : bool
        Progress bar on stderr.

    Returns
    -------
    AccuracyReport
    """
    from aggression_vision.bench.accuracy import score_photo, summarize

    samples = find_samples(directory)[:limit]
    load_reader(reader)  # fail fast, in this process, on an unknown reader
    for _, truth in samples:
        load_truth(truth)  # fail fast on bad ground truth rather than per worker

    def crashed(sample: tuple[Path, Path], message: str) -> Any:
        return score_photo(load_truth(sample[1]), None, name=sample[0].name, failure=message)

    rows = map_photos(
        partial(score_sample, reader=reader, ocr=ocr),
        samples,
        workers=workers,
        progress=progress,
        label=f"reading {Path(directory).name}",
        on_crash=crashed,
    )
    return summarize(rows, info=_info(directory, reader, ocr, workers))


def run_sudoku(
    directory: str | Path,
    *,
    reader: ReaderSpec = DEFAULT_READER,
    ocr: str = "cnn",
    workers: int = 2,
    limit: int | None = None,
    progress: bool = False,
) -> Any:
    """Benchmark a reader on the real sudoku photos (see :mod:`~aggression_vision.bench.sudoku`).

    Every image's displayed size is checked against the metadata first.

    Returns
    -------
    SudokuReport
    """
    from aggression_vision.bench.sudoku import (
        check_size,
        load_sudoku_set,
        score_sudoku,
        summarize_sudoku,
    )

    photos = load_sudoku_set(directory)[:limit]
    for photo in photos:
        check_size(photo)
    load_reader(reader)

    def crashed(photo: Any, message: str) -> Any:
        return score_sudoku(photo, None, failure=message)

    rows = map_photos(
        partial(score_sudoku_photo, reader=reader, ocr=ocr),
        photos,
        workers=workers,
        progress=progress,
        label="reading sudoku photos",
        on_crash=crashed,
    )
    return summarize_sudoku(rows, info=_info(directory, reader, ocr, workers))


def _info(directory: str | Path, reader: ReaderSpec, ocr: str, workers: int) -> dict[str, Any]:
    name = reader if isinstance(reader, str) else f"{reader.__module__}:{reader.__qualname__}"
    return {"directory": str(directory), "reader": name, "ocr": ocr, "workers": workers}
