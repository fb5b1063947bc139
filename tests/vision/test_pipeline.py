"""Photo -> state document, and the overlay drawn from it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from aggression_vision.errors import AggressionVisionError, ImageLoadError, MapNotFoundError
from aggression_vision.vision import pipeline
from aggression_vision.vision.load import load_image
from aggression_vision.vision.overlay import render_overlay, render_suggestion, save_png
from aggression_vision.vision.pipeline import build_document, generated_id
from aggression_vision.vision.regions import segment
from aggression_vision.vision.types import CountryMarks

INK = (60, 50, 40)


def _map_photo(tmp_path: Path) -> Path:
    """A 2 x 2 map drawn on paper, saved as a JPEG."""
    img = np.full((700, 900, 3), 232, np.uint8)
    cv2.rectangle(img, (150, 120), (750, 600), INK, 3, cv2.LINE_AA)
    cv2.line(img, (450, 120), (450, 600), INK, 3, cv2.LINE_AA)
    cv2.line(img, (150, 360), (750, 360), INK, 3, cv2.LINE_AA)
    path = tmp_path / "map.jpg"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


@pytest.fixture
def no_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the pipeline without the marks stage (its model may be absent)."""
    monkeypatch.setattr(pipeline, "_read_marks", lambda seg, ocr: (None, []))


def test_generated_ids() -> None:
    assert [generated_id(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
    ]


def test_read_photo_gives_a_spec_document(tmp_path: Path, no_marks: None) -> None:
    doc = pipeline.read_photo(_map_photo(tmp_path))
    assert doc["format"] == "aggression-vision/state" and doc["version"] == 1
    assert [c["id"] for c in doc["countries"]] == ["A", "B", "C", "D"]
    for c in doc["countries"]:
        assert c["armies"] is None and c["owner"] is None and c["conquered"] is False
        assert len(c["polygon"]) >= 4
    # A B / C D: four shared borders, the diagonals meet at a point only.
    assert sorted(map(tuple, doc["adjacency"])) == [("A", "B"), ("A", "C"), ("B", "D"), ("C", "D")]
    # Polygons are in photo pixels: A is the top-left quarter.
    xs = [p[0] for p in doc["countries"][0]["polygon"]]
    ys = [p[1] for p in doc["countries"][0]["polygon"]]
    assert min(xs) >= 140 and max(xs) <= 460 and min(ys) >= 110 and max(ys) <= 370


def test_user_corners_are_used(tmp_path: Path, no_marks: None) -> None:
    corners = [(100, 80), (800, 80), (800, 640), (100, 640)]
    doc = pipeline.read_photo(_map_photo(tmp_path), corners=corners)
    assert len(doc["countries"]) == 4
    xs = [p[0] for c in doc["countries"] for p in c["polygon"]]
    assert min(xs) == pytest.approx(150, abs=8) and max(xs) == pytest.approx(750, abs=8)


def test_marks_name_and_fill_the_countries(tmp_path: Path) -> None:
    image, size = load_image(_map_photo(tmp_path))
    seg = segment(image, photo_size=size)
    marks = {
        1: CountryMarks(armies=12, underlined=True, crossed=False, letter="D", confidence=0.9),
        2: CountryMarks(armies=7, underlined=False, crossed=True, letter=None, confidence=0.8),
        3: CountryMarks(armies=None, underlined=False, crossed=False, letter="Q", confidence=0.7),
        4: CountryMarks(armies=None, underlined=False, crossed=False, letter="Q", confidence=0.7),
    }
    doc = build_document(seg, marks)
    ids = [c["id"] for c in doc["countries"]]
    assert ids[0] == "D" and len(set(ids)) == 4 and "Q" not in ids
    assert doc["countries"][0]["owner"] == "first" and doc["countries"][0]["armies"] == 12
    assert doc["countries"][1]["owner"] == "second" and doc["countries"][1]["conquered"] is True
    assert any("letter Q" in w for w in doc["warnings"])


def test_errors_are_domain_errors(tmp_path: Path, no_marks: None) -> None:
    with pytest.raises(ImageLoadError, match="no such file"):
        pipeline.read_photo(tmp_path / "missing.jpg")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 230, np.uint8))
    with pytest.raises(MapNotFoundError, match="no drawing"):
        pipeline.read_photo(blank)


def test_overlay_draws_the_reading(tmp_path: Path, no_marks: None) -> None:
    path = _map_photo(tmp_path)
    doc = pipeline.read_photo(path)
    doc["countries"][0].update(armies=12, owner="first")
    doc["countries"][1].update(armies=7, owner="second", conquered=True)
    photo = load_image(path)
    out = render_overlay(photo, doc)
    assert out.shape == (700, 900, 3)
    original = photo[0]
    changed = np.abs(out.astype(int) - original.astype(int)).sum(axis=2) > 30
    assert changed[130:350, 160:440].mean() > 0.2  # country A tinted, outlined, named
    # First's country is tinted blue, second's red.
    a, b = out[200, 200].astype(int), out[200, 700].astype(int)
    assert a[0] > a[2] and b[2] > b[0]
    # Big photos are drawn at a bounded size.
    big = cv2.resize(original, None, fx=4, fy=4)
    assert max(render_overlay((big, (900, 700)), doc, max_side=1500).shape[:2]) == 1500


def test_suggestion_overlay_and_png(tmp_path: Path, no_marks: None) -> None:
    path = _map_photo(tmp_path)
    doc = pipeline.read_photo(path)
    result = {"best": {"target": "D", "attackers": ["B", "C"], "attack": 9, "defence": 4}}
    out = render_suggestion(load_image(path), doc, result)
    green = (out[:, :, 1] > 180) & (out[:, :, 0] < 80) & (out[:, :, 2] < 80)
    assert green.sum() > 500
    target = tmp_path / "overlay.png"
    save_png(target, out)
    assert cv2.imread(str(target)).shape == out.shape
    with pytest.raises(AggressionVisionError, match="cannot write"):
        save_png(tmp_path / "no-such-dir" / "x.png", out)


def test_suggestion_overlay_draws_the_expected_line(tmp_path: Path, no_marks: None) -> None:
    path = _map_photo(tmp_path)
    doc = pipeline.read_photo(path)
    ids = [c["id"] for c in doc["countries"]]
    best = {"target": ids[0], "attackers": [ids[1]], "attack": 9, "defence": 4}
    plain = render_suggestion(load_image(path), doc, {"best": best})
    lined = render_suggestion(
        load_image(path), doc, {"best": best, "margin": 2, "line": [ids[0], ids[2], ids[3]]}
    )

    def green(image: np.ndarray) -> int:
        return int(((image[:, :, 1] > 180) & (image[:, :, 0] < 80) & (image[:, :, 2] < 80)).sum())

    assert green(lined) > green(plain)
