"""The ``bench`` command, run with fake readers on tiny folders."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aggression_vision.cli import app

runner = CliRunner()


def bench(*args: str) -> Any:
    return runner.invoke(app, ["bench", *args])


def test_json_report(make_samples: Callable[..., Path]) -> None:
    folder = make_samples("a", "b")
    result = bench(str(folder), "--json", "--reader", "fake_readers:perfect", "--workers", "1")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["kind"] == "synthetic" and report["photos"] == 2
    assert report["metrics"]["region_f1"] == 1.0 and report["metrics"]["exact_maps"] == 1.0
    assert [row["name"] for row in report["rows"]] == ["a.jpg", "b.jpg"]


def test_table_markdown_and_out(make_samples: Callable[..., Path], tmp_path: Path) -> None:
    folder = make_samples("a", "b_bad")
    common = [str(folder), "--reader", "fake_readers:flaky", "--workers", "2"]
    table = bench(*common)
    assert table.exit_code == 0, table.output
    assert "region F1" in table.stdout and "boom" in table.stdout
    out = tmp_path / "report.json"
    markdown = bench(*common, "--markdown", "--out", str(out))
    assert markdown.exit_code == 0, markdown.output
    assert "| whole map exactly right | 50.0% | 1 / 2 |" in markdown.stdout
    assert "| failures | 50.0% | 1 / 2 |" in markdown.stdout
    assert json.loads(out.read_text())["failures"] == 1


def test_usage_and_domain_errors(tmp_path: Path) -> None:
    missing = bench()
    assert missing.exit_code == 2 and "give a directory of samples" in missing.output
    empty = bench(str(tmp_path), "--reader", "fake_readers:perfect")
    assert empty.exit_code == 1 and "no samples" in empty.output
    unknown = bench(str(tmp_path), "--reader", "nowhere_xyz:read")
    assert unknown.exit_code == 1


def test_engine_is_dispatched(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def fake_main(**kwargs: Any) -> dict[str, Any]:
        calls.append(kwargs)
        return {"kind": "engine", "sizes": [20]}

    module = types.ModuleType("aggression_vision.bench.engine")
    module.main = fake_main  # type: ignore[attr-defined]
    module.to_markdown = lambda report: "| size | 20 |"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "aggression_vision.bench.engine", module)
    result = bench("engine", "--json", "--limit", "3")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"kind": "engine", "sizes": [20]}
    assert calls == [{"json_output": True, "positions": 3, "progress": False}]
    assert bench("engine").stdout.strip() == "| size | 20 |"


def test_engine_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "aggression_vision.bench.engine", None)
    result = bench("engine")
    assert result.exit_code == 1 and "solver benchmark is not available" in result.output


@pytest.mark.skipif(
    not (
        Path(__file__).resolve().parents[2].parent / "shared/data/sudoku-photos/metadata.csv"
    ).is_file(),
    reason="../shared/data/sudoku-photos absent",
)
def test_sudoku_and_synthetic_together(make_samples: Callable[..., Path]) -> None:
    sudoku = Path(__file__).resolve().parents[2].parent / "shared/data/sudoku-photos"
    folder = make_samples("a")
    result = bench(
        str(folder), "--sudoku", str(sudoku), "--limit", "1", "--json",
        "--reader", "fake_readers:sudoku_perfect", "--workers", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    synthetic, real = json.loads(result.stdout)["reports"]
    # The sudoku reader cannot read synthetic samples: measured as a failure.
    assert synthetic["kind"] == "synthetic" and synthetic["failures"] == 1
    assert real["kind"] == "sudoku" and real["metrics"]["map_right_photos"] == 1.0
    alone = bench(
        "--sudoku", str(sudoku), "--limit", "1", "--reader", "fake_readers:sudoku_perfect"
    )
    assert alone.exit_code == 0 and "cells found" in alone.stdout
