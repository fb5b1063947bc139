"""scripts/orientation_census.py: the truth's writing direction in the marks stage's frame."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "orientation_census.py"


def _census() -> ModuleType:
    spec = importlib.util.spec_from_file_location("orientation_census", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _upright_box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    """A writing box as the generator writes it (shapely.box's exterior: the right side
    from top to bottom first, in image coordinates)."""
    return [[x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def _turned(
    box: list[list[float]], degrees: float, centre: tuple[float, float]
) -> list[list[float]]:
    """The box turned counter-clockwise on the image (rows grow downwards)."""
    t = math.radians(degrees)
    cx, cy = centre
    out = []
    for x, y in box:
        dx, dy = x - cx, y - cy
        c, s = math.cos(t), math.sin(t)
        out.append([cx + dx * c + dy * s, cy - dx * s + dy * c])
    return out


@pytest.mark.parametrize("degrees", [0.0, 30.0, 90.0, 180.0, 270.0])
def test_the_turn_that_makes_the_writing_upright(degrees: float) -> None:
    census = _census()
    box = _turned(_upright_box(100, 200, 160, 240), degrees, (130, 220))
    truth = {"synth": {"writing": {"A": {"number": box}, "B": {"label": box}}}}
    got = census.truth_angle(truth, np.eye(3))
    # Writing turned by d counter-clockwise is made upright by turning it 360 - d.
    assert (got - (360.0 - degrees) + 180.0) % 360.0 - 180.0 == pytest.approx(0.0, abs=1e-6)


def test_the_direction_is_taken_in_the_marks_stages_frame() -> None:
    census = _census()
    box = _upright_box(100, 200, 160, 240)
    truth = {"synth": {"writing": {"A": {"number": box}}}}
    # Page (x, y) is photo (y, 1000 - x): writing upright in the photo has its top towards
    # the page's right (turned a quarter turn clockwise there), made upright by turning it
    # a quarter turn counter-clockwise.
    to_photo = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 1000.0], [0.0, 0.0, 1.0]])
    assert census.truth_angle(truth, to_photo) == pytest.approx(90.0)
    assert census.truth_angle({"synth": {"writing": {}}}, np.eye(3)) is None


def test_a_photo_or_truth_that_cannot_be_read_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    census = _census()
    (tmp_path / "a.jpg").write_text("not an image")
    (tmp_path / "a.json").write_text('{"synth": {}}')
    (tmp_path / "b.jpg").write_text("not an image")
    (tmp_path / "b.json").write_text("{broken")
    monkeypatch.setattr("sys.argv", ["orientation_census.py", str(tmp_path), "--workers", "1"])
    with pytest.raises(SystemExit) as exit_info:
        census.main()
    assert exit_info.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    assert any("a.jpg" in line and "not an image" in line for line in err)
    assert any("b.json" in line and "not a truth document" in line for line in err)
    assert not any("Traceback" in line for line in err)
