"""Benchmarks: how well and how fast photos are read.

- :mod:`~aggression_vision.bench.accuracy`: score a reading of a synthetic photo
  against its ground-truth state document (pure functions on documents).
- :mod:`~aggression_vision.bench.sudoku`: score a reading of a real sudoku photo,
  read as a map of 81 square countries, against its labels and grid corners.
- :mod:`~aggression_vision.bench.runner`: run a reader over a directory of photos
  in a process pool and aggregate the scores.
- :mod:`~aggression_vision.bench.report`: rich tables and markdown for the reports.

Importing this package is cheap; shapely and numpy are imported by the modules.
"""

from __future__ import annotations

from aggression_vision.errors import AggressionVisionError


class BenchmarkError(AggressionVisionError):
    """A benchmark could not be run: no samples, bad ground truth, unknown reader..."""
