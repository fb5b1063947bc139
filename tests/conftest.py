"""Fixtures shared by the whole suite."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
SHARED = REPO.parent / "shared"


@pytest.fixture
def shared_dir() -> Path:
    """``../shared`` beside the repository; the test is skipped when it is absent."""
    if not (SHARED / "data").is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED


@pytest.fixture
def samples_dir() -> Path:
    """The repository's bundled samples."""
    return SAMPLES
