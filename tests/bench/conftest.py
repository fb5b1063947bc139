"""Fixtures of the benchmark tests: tiny sample folders and importable fake readers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
SUDOKU_DIR = HERE.parents[1].parent / "shared" / "data" / "sudoku-photos"


@pytest.fixture(autouse=True)
def fake_readers_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``fake_readers:NAME`` importable here and in forked pool workers."""
    monkeypatch.syspath_prepend(str(HERE))


def grid_document(columns: int = 3, rows: int = 2, size: float = 50.0) -> dict[str, Any]:
    """A ground-truth document of a grid of square countries, every 2nd one occupied."""
    countries, adjacency = [], []
    for k in range(columns * rows):
        row, col = divmod(k, columns)
        x, y = col * size, row * size
        occupied = k % 2 == 0
        countries.append(
            {
                "id": chr(ord("A") + k),
                "label": None,
                "armies": k + 1 if occupied else None,
                "owner": ("first" if k % 4 == 0 else "second") if occupied else None,
                "conquered": False,
                "polygon": [[x, y], [x + size, y], [x + size, y + size], [x, y + size]],
            }
        )
        if col + 1 < columns:
            adjacency.append([chr(ord("A") + k), chr(ord("A") + k + 1)])
        if row + 1 < rows:
            adjacency.append([chr(ord("A") + k), chr(ord("A") + k + columns)])
    return {
        "format": "aggression-vision/state",
        "version": 1,
        "phase": 2,
        "to_move": "first",
        "countries": countries,
        "adjacency": adjacency,
    }


@pytest.fixture
def make_samples(tmp_path: Path) -> Callable[..., Path]:
    """``make_samples("a", "b")`` writes a.jpg + a.json, b.jpg + b.json; returns the folder.

    The "photos" are placeholders: the fake readers only read the ground truth.
    """

    def make(*names: str) -> Path:
        folder = tmp_path / "samples"
        folder.mkdir(exist_ok=True)
        for index, name in enumerate(names):
            (folder / f"{name}.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
            doc = grid_document(columns=2 + index % 3)
            (folder / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")
        return folder

    return make
